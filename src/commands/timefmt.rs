//! Calendar time for the utilities: milliseconds since the epoch broken down
//! in a time zone (UTC, or a fixed POSIX `TZ` such as `EST5` or `UTC-3`), and
//! a `strftime` subset for `ls`, `stat`, `find -printf` and `date`.

/// A time zone: its abbreviation and offset east of UTC in seconds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Zone {
    /// The abbreviation `%Z` prints (`UTC`).
    pub name: String,
    /// Seconds east of UTC (`-18000` for `EST5`).
    pub offset: i64,
}

impl Zone {
    /// UTC.
    pub fn utc() -> Zone {
        Zone { name: "UTC".into(), offset: 0 }
    }

    /// The zone a `TZ` value names: POSIX `NAME[+-]H[:MM]` without daylight
    /// rules; anything else (or no `TZ`) is UTC.
    pub fn from_tz(tz: Option<&str>) -> Zone {
        let Some(tz) = tz.map(|t| t.trim_start_matches(':')) else { return Zone::utc() };
        let name_len = tz.find(|c: char| !c.is_ascii_alphabetic()).unwrap_or(tz.len());
        let (name, rest) = tz.split_at(name_len);
        if name.len() < 3 {
            return Zone::utc();
        }
        let (sign, digits) = match rest.strip_prefix('-') {
            Some(digits) => (1, digits),
            None => (-1, rest.strip_prefix('+').unwrap_or(rest)),
        };
        let digits: String = digits.chars().take_while(|c| c.is_ascii_digit() || *c == ':').collect();
        let mut parts = digits.split(':').map(|p| p.parse::<i64>().unwrap_or(0));
        let hours = parts.next().unwrap_or(0);
        let minutes = parts.next().unwrap_or(0);
        Zone { name: name.to_string(), offset: sign * (hours * 3600 + minutes * 60) }
    }
}

/// A moment broken down into calendar fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Civil {
    /// The year (`2024`).
    pub year: i64,
    /// The month, 1 to 12.
    pub month: u32,
    /// The day of the month, 1 to 31.
    pub day: u32,
    /// Hours, 0 to 23.
    pub hour: u32,
    /// Minutes, 0 to 59.
    pub minute: u32,
    /// Seconds, 0 to 59.
    pub second: u32,
    /// Nanoseconds within the second.
    pub nanos: u32,
    /// Day of the week, 0 = Sunday.
    pub weekday: u32,
    /// Day of the year, 1 to 366.
    pub yearday: u32,
}

/// Days since 1970-01-01 of a proleptic Gregorian date.
pub fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let month = month as i64;
    let day_of_year = (153 * (if month > 2 { month - 3 } else { month + 9 }) + 2) / 5 + day as i64 - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// The date of a day count since 1970-01-01: (year, month, day).
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z - era * 146_097;
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let mp = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// Breaks `millis` since the epoch down in `zone`.
pub fn civil(millis: f64, zone: &Zone) -> Civil {
    // Clamp to JavaScript's date range so absurd stamps cannot overflow.
    let millis = if millis.is_nan() { 0.0 } else { millis.clamp(-8.64e15, 8.64e15) };
    let total_nanos = (millis * 1_000_000.0).floor() as i128;
    let seconds = total_nanos.div_euclid(1_000_000_000) as i64 + zone.offset;
    let nanos = total_nanos.rem_euclid(1_000_000_000) as u32;
    let days = seconds.div_euclid(86_400);
    let in_day = seconds.rem_euclid(86_400);
    let (year, month, day) = civil_from_days(days);
    let yearday = (days - days_from_civil(year, 1, 1) + 1) as u32;
    Civil {
        year,
        month,
        day,
        hour: (in_day / 3600) as u32,
        minute: (in_day % 3600 / 60) as u32,
        second: (in_day % 60) as u32,
        nanos,
        weekday: (days + 4).rem_euclid(7) as u32,
        yearday,
    }
}

const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const MONTHS_LONG: [&str; 12] =
    ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const DAYS: [&str; 7] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const DAYS_LONG: [&str; 7] = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/// The `+hhmm` form of a zone offset (`%z`).
pub fn offset_text(offset: i64) -> String {
    let sign = if offset < 0 { '-' } else { '+' };
    let abs = offset.abs();
    format!("{sign}{:02}{:02}", abs / 3600, abs % 3600 / 60)
}

/// Formats `millis` with a `strftime` format in `zone`. Supports the common
/// conversions (`%Y %m %d %H %M %S %N %z %Z %b %B %a %A %e %j %s %F %T %D
/// %R %c %p %I %y %u %w %h %n %t %%`); unknown ones are copied as written.
pub fn strftime(millis: f64, format: &str, zone: &Zone) -> String {
    let t = civil(millis, zone);
    let epoch = (millis.clamp(-8.64e15, 8.64e15) / 1000.0).floor() as i64;
    let month_index = (t.month as usize).saturating_sub(1);
    let month = MONTHS.get(month_index).copied().unwrap_or("");
    let weekday = t.weekday as usize;
    let mut out = String::new();
    let mut chars = format.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let Some(spec) = chars.next() else {
            out.push('%');
            break;
        };
        let text = match spec {
            'Y' => t.year.to_string(),
            'C' => format!("{:02}", t.year.div_euclid(100)),
            'y' => format!("{:02}", t.year.rem_euclid(100)),
            'm' => format!("{:02}", t.month),
            'd' => format!("{:02}", t.day),
            'e' => format!("{:2}", t.day),
            'H' => format!("{:02}", t.hour),
            'k' => format!("{:2}", t.hour),
            'I' => format!("{:02}", (t.hour + 11) % 12 + 1),
            'l' => format!("{:2}", (t.hour + 11) % 12 + 1),
            'M' => format!("{:02}", t.minute),
            'S' => format!("{:02}", t.second),
            'N' => format!("{:09}", t.nanos),
            'p' => if t.hour < 12 { "AM" } else { "PM" }.into(),
            'P' => if t.hour < 12 { "am" } else { "pm" }.into(),
            'z' => offset_text(zone.offset),
            'Z' => zone.name.clone(),
            'b' | 'h' => month.into(),
            'B' => MONTHS_LONG.get(month_index).copied().unwrap_or("").into(),
            'a' => DAYS.get(weekday).copied().unwrap_or("").into(),
            'A' => DAYS_LONG.get(weekday).copied().unwrap_or("").into(),
            'j' => format!("{:03}", t.yearday),
            'u' => (if t.weekday == 0 { 7 } else { t.weekday }).to_string(),
            'w' => t.weekday.to_string(),
            's' => epoch.to_string(),
            'F' => format!("{}-{:02}-{:02}", t.year, t.month, t.day),
            'T' => format!("{:02}:{:02}:{:02}", t.hour, t.minute, t.second),
            'R' => format!("{:02}:{:02}", t.hour, t.minute),
            'D' => format!("{:02}/{:02}/{:02}", t.month, t.day, t.year.rem_euclid(100)),
            'c' => format!(
                "{} {} {:2} {:02}:{:02}:{:02} {}",
                DAYS.get(weekday).copied().unwrap_or(""),
                month,
                t.day,
                t.hour,
                t.minute,
                t.second,
                t.year
            ),
            'n' => "\n".into(),
            't' => "\t".into(),
            '%' => "%".into(),
            other => format!("%{other}"),
        };
        out.push_str(&text);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_dates() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(days_from_civil(2000, 2, 29), 11_016);
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
    }

    #[test]
    fn formats_like_gnu() {
        let zone = Zone::utc();
        let t = 1_704_067_200_000.0 + 1_500.0;
        assert_eq!(strftime(t, "%Y-%m-%d %H:%M:%S.%N %z", &zone), "2024-01-01 00:00:01.500000000 +0000");
        assert_eq!(strftime(t, "%b %e %H:%M|%a %A %j %s", &zone), "Jan  1 00:00|Mon Monday 001 1704067201");
        let est = Zone::from_tz(Some("EST5"));
        assert_eq!(strftime(t, "%F %T %z %Z", &est), "2023-12-31 19:00:01 -0500 EST");
        assert_eq!(Zone::from_tz(Some("UTC")), Zone::utc());
        assert_eq!(Zone::from_tz(Some("UTC-3")).offset, 3 * 3600);
    }
}
