//! Calendar arithmetic on the proleptic Gregorian calendar: seconds since
//! the epoch to a broken-down time and back, weekdays, and week numbers.
//! Used by `date`, the file listings and the archive listings (`tar -tv`,
//! `gzip -lv`).

/// A broken-down time, as `struct tm` holds it (but with the real year).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DateTime {
    /// The year (2024).
    pub year: i64,
    /// The month, 1-12.
    pub month: u32,
    /// The day of the month, 1-31.
    pub day: u32,
    /// Hour, 0-23.
    pub hour: u32,
    /// Minute, 0-59.
    pub minute: u32,
    /// Second, 0-59.
    pub second: u32,
    /// Nanoseconds within the second.
    pub nanos: u32,
    /// Day of the week, 0 = Sunday.
    pub weekday: u32,
    /// Day of the year, 0-365.
    pub yday: u32,
    /// Offset from UTC in seconds (east positive).
    pub offset: i64,
}

/// Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm).
pub fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = month as i64;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + day as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The civil date of a day number since 1970-01-01.
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// True for leap years.
pub fn is_leap(year: i64) -> bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
}

/// Days in a month of a year.
pub fn days_in_month(year: i64, month: u32) -> u32 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ if is_leap(year) => 29,
        _ => 28,
    }
}

/// Breaks down `seconds` since the epoch (plus `nanos`) at a UTC offset.
pub fn from_timestamp(seconds: i64, nanos: u32, offset: i64) -> DateTime {
    let local = seconds + offset;
    let days = local.div_euclid(86_400);
    let rem = local.rem_euclid(86_400);
    let (year, month, day) = civil_from_days(days);
    let yday = (days - days_from_civil(year, 1, 1)) as u32;
    DateTime {
        year,
        month,
        day,
        hour: (rem / 3600) as u32,
        minute: (rem % 3600 / 60) as u32,
        second: (rem % 60) as u32,
        nanos,
        weekday: (days + 4).rem_euclid(7) as u32,
        yday,
        offset,
    }
}

/// Splits milliseconds since the epoch into whole seconds and nanoseconds,
/// clamped to JavaScript's date range so absurd stamps cannot overflow.
pub fn split_millis(millis: f64) -> (i64, u32) {
    let millis = if millis.is_nan() { 0.0 } else { millis.clamp(-8.64e15, 8.64e15) };
    // Whole milliseconds and the fraction apart: `millis * 1e6` in floating
    // point is inexact past 2^53 and could move a stamp forward in time.
    let whole = millis.floor();
    let total_nanos = whole as i128 * 1_000_000 + ((millis - whole) * 1_000_000.0).round() as i128;
    (total_nanos.div_euclid(1_000_000_000) as i64, total_nanos.rem_euclid(1_000_000_000) as u32)
}

/// Breaks down `millis` since the epoch at a UTC offset.
pub fn from_millis(millis: f64, offset: i64) -> DateTime {
    let (seconds, nanos) = split_millis(millis);
    from_timestamp(seconds, nanos, offset)
}

/// Seconds since the epoch of a local civil time at `offset`.
pub fn to_timestamp(year: i64, month: u32, day: u32, hour: u32, minute: u32, second: u32, offset: i64) -> i64 {
    days_from_civil(year, month, day) * 86_400 + hour as i64 * 3600 + minute as i64 * 60 + second as i64 - offset
}

/// English month abbreviations, January first.
pub const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
/// English full month names.
pub const MONTH_NAMES: [&str; 12] =
    ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
/// English weekday abbreviations, Sunday first.
pub const WEEKDAYS: [&str; 7] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
/// English full weekday names.
pub const WEEKDAY_NAMES: [&str; 7] = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/// The month abbreviation of a 1-based month.
pub fn month_abbrev(month: u32) -> &'static str {
    MONTHS.get((month as usize).wrapping_sub(1)).copied().unwrap_or("???")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_known_dates() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(days_from_civil(2024, 1, 1), 19_723);
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
        let t = from_timestamp(1_704_067_200, 0, 0);
        assert_eq!((t.year, t.month, t.day, t.weekday, t.yday), (2024, 1, 1, 1, 0));
        assert_eq!(to_timestamp(2024, 2, 29, 12, 0, 0, 3600), 1_709_204_400);
        assert_eq!(days_in_month(2024, 2), 29);
        assert_eq!(days_in_month(1900, 2), 28);
    }

    #[test]
    fn whole_milliseconds_split_exactly() {
        assert_eq!(split_millis(1_733_100_000_123.0), (1_733_100_000, 123_000_000));
        assert_eq!(split_millis(-1.0), (-1, 999_000_000));
        assert_eq!(split_millis(1.5), (0, 1_500_000));
    }
}
