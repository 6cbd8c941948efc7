//! `strftime` as GNU `date +FORMAT` implements it in the C locale: every
//! common conversion, the `-` `_` `0` `^` `#` flags, field widths, `%N`
//! precision and the `%:z` family.

use super::civil::{days_from_civil, from_timestamp, split_millis, DateTime, MONTHS, MONTH_NAMES, WEEKDAYS, WEEKDAY_NAMES};
use super::zone::Zone;

/// ISO 8601 week-based year and week number of a date.
fn iso_week(time: &DateTime) -> (i64, u32) {
    let weekday = (time.weekday + 6) % 7; // Monday = 0
    let thursday_yday = time.yday as i64 - weekday as i64 + 3;
    let year_len = |y: i64| days_from_civil(y + 1, 1, 1) - days_from_civil(y, 1, 1);
    if thursday_yday < 0 {
        let previous = time.year - 1;
        let yday = thursday_yday + year_len(previous);
        return (previous, (yday / 7 + 1) as u32);
    }
    if thursday_yday >= year_len(time.year) {
        return (time.year + 1, 1);
    }
    (time.year, (thursday_yday / 7 + 1) as u32)
}

fn offset_text(offset: i64, colons: usize) -> String {
    let sign = if offset < 0 { '-' } else { '+' };
    let magnitude = offset.abs();
    let (hours, minutes, seconds) = (magnitude / 3600, magnitude % 3600 / 60, magnitude % 60);
    match colons {
        0 => format!("{sign}{hours:02}{minutes:02}"),
        1 => format!("{sign}{hours:02}:{minutes:02}"),
        2 => format!("{sign}{hours:02}:{minutes:02}:{seconds:02}"),
        _ if seconds != 0 => format!("{sign}{hours:02}:{minutes:02}:{seconds:02}"),
        _ if minutes != 0 => format!("{sign}{hours:02}:{minutes:02}"),
        _ => format!("{sign}{hours:02}"),
    }
}

/// What a conversion produces before padding.
enum Field {
    /// A number with its default width and pad character.
    Number(i64, usize, char),
    /// Text.
    Text(String),
}

/// Formats `millis` since the epoch in `zone` by `format` (`ls -l`, `stat`,
/// `find -printf`, `printf %(fmt)T`).
pub fn strftime(millis: f64, format: &str, zone: &Zone) -> String {
    let (seconds, nanos) = split_millis(millis);
    format_time(format, &from_timestamp(seconds, nanos, zone.offset), &zone.name, seconds)
}

/// Formats `time` (with `zone` as the `%Z` name and `seconds` since the
/// epoch for `%s`) by `format`.
pub fn format_time(format: &str, time: &DateTime, zone: &str, seconds: i64) -> String {
    let mut out = String::new();
    let chars: Vec<char> = format.chars().collect();
    let mut index = 0;
    while let Some(&c) = chars.get(index) {
        index += 1;
        if c != '%' {
            out.push(c);
            continue;
        }
        let start = index - 1;
        let mut pad: Option<char> = None;
        let mut upper = false;
        let mut swap = false;
        while let Some(&flag) = chars.get(index) {
            match flag {
                '-' => pad = Some('\0'),
                '_' => pad = Some(' '),
                '0' => pad = Some('0'),
                '^' => upper = true,
                '#' => swap = true,
                _ => break,
            }
            index += 1;
        }
        let mut width: Option<usize> = None;
        while let Some(digit) = chars.get(index).and_then(|c| c.to_digit(10)) {
            // Capped so a huge width cannot exhaust memory.
            width = Some((width.unwrap_or(0) * 10 + digit as usize).min(1 << 16));
            index += 1;
        }
        let mut colons = 0;
        while chars.get(index) == Some(&':') {
            colons += 1;
            index += 1;
        }
        while matches!(chars.get(index), Some('E') | Some('O')) {
            index += 1;
        }
        let Some(&conversion) = chars.get(index) else {
            out.extend(chars.get(start..).unwrap_or(&[]).iter());
            break;
        };
        index += 1;
        if colons > 0 && conversion != 'z' {
            out.extend(chars.get(start..index).unwrap_or(&[]).iter());
            continue;
        }
        let hour12 = if time.hour % 12 == 0 { 12 } else { time.hour % 12 };
        let (iso_year, iso_week_number) = iso_week(time);
        let field = match conversion {
            'a' => Field::Text(WEEKDAYS.get(time.weekday as usize).copied().unwrap_or("?").into()),
            'A' => Field::Text(WEEKDAY_NAMES.get(time.weekday as usize).copied().unwrap_or("?").into()),
            'b' | 'h' => Field::Text(MONTHS.get((time.month as usize).saturating_sub(1)).copied().unwrap_or("?").into()),
            'B' => Field::Text(MONTH_NAMES.get((time.month as usize).saturating_sub(1)).copied().unwrap_or("?").into()),
            'c' => Field::Text(format_time("%a %b %e %H:%M:%S %Y", time, zone, seconds)),
            'C' => Field::Number(time.year.div_euclid(100), 2, '0'),
            'd' => Field::Number(time.day.into(), 2, '0'),
            'D' | 'x' => Field::Text(format_time("%m/%d/%y", time, zone, seconds)),
            'e' => Field::Number(time.day.into(), 2, ' '),
            'F' => Field::Text(format_time("%Y-%m-%d", time, zone, seconds)),
            'g' => Field::Number(iso_year.rem_euclid(100), 2, '0'),
            'G' => Field::Number(iso_year, 1, '0'),
            'H' => Field::Number(time.hour.into(), 2, '0'),
            'I' => Field::Number(hour12.into(), 2, '0'),
            'j' => Field::Number(i64::from(time.yday) + 1, 3, '0'),
            'k' => Field::Number(time.hour.into(), 2, ' '),
            'l' => Field::Number(hour12.into(), 2, ' '),
            'm' => Field::Number(time.month.into(), 2, '0'),
            'M' => Field::Number(time.minute.into(), 2, '0'),
            'n' => Field::Text("\n".into()),
            'N' => {
                let digits = format!("{:09}", time.nanos);
                let precision = width.unwrap_or(9);
                let text: String = digits.chars().chain(std::iter::repeat('0')).take(precision.max(1)).collect();
                width = None;
                Field::Text(text)
            }
            'p' => Field::Text(if time.hour < 12 { "AM" } else { "PM" }.into()),
            'P' => Field::Text(if time.hour < 12 { "am" } else { "pm" }.into()),
            'q' => Field::Number(i64::from((time.month - 1) / 3 + 1), 1, '0'),
            'r' => Field::Text(format_time("%I:%M:%S %p", time, zone, seconds)),
            'R' => Field::Text(format_time("%H:%M", time, zone, seconds)),
            's' => Field::Number(seconds, 1, '0'),
            'S' => Field::Number(time.second.into(), 2, '0'),
            't' => Field::Text("\t".into()),
            'T' | 'X' => Field::Text(format_time("%H:%M:%S", time, zone, seconds)),
            'u' => Field::Number(i64::from((time.weekday + 6) % 7 + 1), 1, '0'),
            'U' => Field::Number(i64::from((time.yday + 7 - time.weekday) / 7), 2, '0'),
            'V' => Field::Number(iso_week_number.into(), 2, '0'),
            'w' => Field::Number(time.weekday.into(), 1, '0'),
            'W' => Field::Number(i64::from((time.yday + 7 - (time.weekday + 6) % 7) / 7), 2, '0'),
            'y' => Field::Number(time.year.rem_euclid(100), 2, '0'),
            'Y' => Field::Number(time.year, 1, '0'),
            'z' => Field::Text(offset_text(time.offset, colons)),
            'Z' => Field::Text(zone.to_string()),
            '%' => Field::Text("%".into()),
            _ => {
                out.extend(chars.get(start..index).unwrap_or(&[]).iter());
                continue;
            }
        };
        let text = match field {
            Field::Number(value, default_width, default_pad) => {
                let pad = pad.unwrap_or(default_pad);
                let digits = value.abs().to_string();
                let sign = if value < 0 { "-" } else { "" };
                let target = width.unwrap_or(default_width);
                if pad == '\0' {
                    format!("{sign}{digits}")
                } else {
                    let fill = target.saturating_sub(digits.len() + sign.len());
                    if pad == '0' {
                        format!("{sign}{}{digits}", "0".repeat(fill))
                    } else {
                        format!("{}{sign}{digits}", " ".repeat(fill))
                    }
                }
            }
            Field::Text(text) => {
                let text = if upper || (swap && conversion != 'Z' && conversion != 'p') {
                    text.to_uppercase()
                } else if swap {
                    text.to_lowercase()
                } else {
                    text
                };
                let fill = width.unwrap_or(0).saturating_sub(text.chars().count());
                let fill_char = if pad == Some('0') { '0' } else { ' ' };
                if pad == Some('\0') {
                    text
                } else {
                    format!("{}{text}", fill_char.to_string().repeat(fill))
                }
            }
        };
        out.push_str(&text);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(format: &str, seconds: i64, nanos: u32) -> String {
        format_time(format, &from_timestamp(seconds, nanos, 0), "UTC", seconds)
    }

    #[test]
    fn conversions_match_gnu() {
        let t = 1_704_067_200;
        assert_eq!(at("%c", t, 0), "Mon Jan  1 00:00:00 2024");
        assert_eq!(at("%x|%X|%r|%D|%h|%C", t, 0), "01/01/24|00:00:00|12:00:00 AM|01/01/24|Jan|20");
        assert_eq!(at("%g %G %V %U %W %j %u %w", t, 0), "24 2024 01 00 01 001 1 1");
        assert_eq!(at("%k|%l|%I|%p|%P", t, 0), " 0|12|12|AM|am");
        assert_eq!(at("%N|%3N|%6N|%-N", t, 0), "000000000|000|000000|000000000");
        assert_eq!(at("%s", t, 0), "1704067200");
        assert_eq!(at("%z|%:z|%::z|%:::z|%Z", t, 0), "+0000|+00:00|+00:00:00|+00|UTC");
        assert_eq!(at("%-d|%_d|%05d|%^a|%#a|%^B|%10Y|%-m|%_m|%e|%-e|%#Z", t, 0), "1| 1|00001|MON|MON|JANUARY|0000002024|1| 1| 1|1|utc");
        assert_eq!(at("%q|%Ey %Od %%", t, 0), "1|24 01 %");
        assert_eq!(at("%N %3N %l %I %p %e", 1_709_647_629, 123_456_789), "123456789 123  2 02 PM  5");
    }

    #[test]
    fn iso_weeks_at_year_edges() {
        // 2021-01-03 is in ISO week 53 of 2020; 2024-12-30 in week 1 of 2025.
        assert_eq!(at("%G-%V", 1_609_632_000, 0), "2020-53");
        assert_eq!(at("%G-%V", 1_735_516_800, 0), "2025-01");
    }

    #[test]
    fn milliseconds_in_a_zone() {
        let t = 1_704_067_200_000.0 + 1_500.0;
        assert_eq!(strftime(t, "%Y-%m-%d %H:%M:%S.%N %z", &Zone::utc()), "2024-01-01 00:00:01.500000000 +0000");
        assert_eq!(strftime(t, "%b %e %H:%M|%a %A %j %s", &Zone::utc()), "Jan  1 00:00|Mon Monday 001 1704067201");
        let est = super::super::parse_tz(Some("EST5"));
        assert_eq!(strftime(t, "%F %T %z %Z", &est), "2023-12-31 19:00:01 -0500 EST");
        assert_eq!(strftime(-1.0, "%F %T.%N", &Zone::utc()), "1969-12-31 23:59:59.999000000");
    }
}
