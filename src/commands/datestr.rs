//! The GNU date strings agents pass to `touch -d` (and `date -d`):
//! `@EPOCH`, `now`/`today`/`yesterday`/`tomorrow`, `YYYY-MM-DD`,
//! `YYYY-MM-DD[T ]HH:MM[:SS[.frac]][Z|±hh:mm]`, `HH:MM[:SS]`, month names
//! (`Jan 2 2020`, `2 Jan 2020`), `UTC`, and relative items
//! (`2 days ago`, `+1 hour`, `next week`, `last month`).

use super::timefmt::{civil, days_from_civil, Zone};

const MONTH_NAMES: [&str; 12] = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/// Parses `text` relative to `now` (ms since the epoch) in `zone`; `None`
/// when it is not a date GNU would accept (of the forms listed above).
pub fn parse_date(text: &str, now: f64, zone: &Zone) -> Option<f64> {
    let trimmed = text.trim();
    if let Some(epoch) = trimmed.strip_prefix('@') {
        let seconds: f64 = epoch.trim().parse().ok()?;
        return (seconds.is_finite() && seconds.abs() < 8.64e12).then_some(seconds * 1000.0);
    }
    let today = civil(now, zone);
    let (mut year, mut month, mut day) = (today.year, today.month, today.day);
    let (mut hour, mut minute, mut second, mut nanos) = (today.hour, today.minute, today.second, today.nanos);
    let mut offset = zone.offset;
    let mut date_given = false;
    let mut time_given = false;
    let mut relative_seconds: i64 = 0;
    let mut relative_months: i64 = 0;
    let lowered = trimmed.to_ascii_lowercase();
    let tokens: Vec<String> = split_tokens(&lowered);
    let mut index = 0;
    let mut pending_number: Option<i64> = None;
    while let Some(token) = tokens.get(index) {
        index += 1;
        let token = token.as_str();
        if let Some((y, m, d, rest)) = iso_date(token) {
            (year, month, day) = (y, m, d);
            date_given = true;
            if let Some(time) = rest {
                let (h, mi, s, n, off) = clock(time)?;
                (hour, minute, second, nanos) = (h, mi, s, n);
                time_given = true;
                if let Some(off) = off {
                    offset = off;
                }
            }
            continue;
        }
        if time_given && token.starts_with(['+', '-']) && (token.contains(':') || token.len() == 5) {
            let (_, _, _, _, off) = clock(&format!("0:0{token}"))?;
            offset = off?;
            continue;
        }
        if token.contains(':') {
            let (h, mi, s, n, off) = clock(token)?;
            (hour, minute, second, nanos) = (h, mi, s, n);
            time_given = true;
            if let Some(off) = off {
                offset = off;
            }
            continue;
        }
        if let Some(m) = month_number(token) {
            month = m;
            date_given = true;
            if let Some(n) = pending_number.take() {
                day = u32::try_from(n).ok()?;
            } else if let Some(d) = tokens.get(index).and_then(|t| t.trim_end_matches(',').parse::<u32>().ok()) {
                day = d;
                index += 1;
            }
            if let Some(y) = tokens.get(index).and_then(|t| t.parse::<i64>().ok()).filter(|y| *y > 31) {
                year = y;
                index += 1;
            }
            continue;
        }
        match token {
            "now" | "today" => continue,
            "yesterday" => {
                relative_seconds -= 86_400;
                continue;
            }
            "tomorrow" => {
                relative_seconds += 86_400;
                continue;
            }
            "utc" | "gmt" | "z" => {
                offset = 0;
                continue;
            }
            "ago" => {
                relative_seconds = -relative_seconds;
                relative_months = -relative_months;
                continue;
            }
            "next" => {
                pending_number = Some(1);
                continue;
            }
            "last" => {
                pending_number = Some(-1);
                continue;
            }
            _ => {}
        }
        if let Some((seconds, months)) = unit(token) {
            let count = pending_number.take().unwrap_or(1);
            relative_seconds = relative_seconds.saturating_add(count.saturating_mul(seconds));
            relative_months = relative_months.saturating_add(count.saturating_mul(months));
            continue;
        }
        if let Ok(number) = token.parse::<i64>() {
            if pending_number.is_some() {
                return None;
            }
            if !date_given && token.len() == 4 && !token.starts_with(['+', '-']) && tokens.get(index).is_none() {
                year = number;
                continue;
            }
            pending_number = Some(number);
            continue;
        }
        return None;
    }
    if pending_number.is_some() {
        let year_like = pending_number.filter(|n| *n > 31);
        year = year_like?;
    }
    if date_given && !time_given {
        (hour, minute, second, nanos) = (0, 0, 0, 0);
    }
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) || hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    // Far outside any date a file can carry: refuse rather than overflow.
    const LIMIT: i64 = 1 << 40;
    if year.abs() > 1_000_000 || relative_months.abs() > LIMIT || relative_seconds.abs() > LIMIT * 1000 {
        return None;
    }
    let total_months = year * 12 + i64::from(month) - 1 + relative_months;
    let (year, month) = (total_months.div_euclid(12), (total_months.rem_euclid(12) + 1) as u32);
    let days = days_from_civil(year, month, 1) + i64::from(day) - 1;
    let seconds = days * 86_400 + i64::from(hour) * 3600 + i64::from(minute) * 60 + i64::from(second) - offset + relative_seconds;
    Some(seconds as f64 * 1000.0 + f64::from(nanos) / 1_000_000.0)
}

/// Splits on spaces, keeping `+5`/`-5` and separating `5days` into `5`, `days`.
fn split_tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for word in text.split_whitespace() {
        let digits = word.trim_start_matches(['+', '-']);
        let split = digits.find(|c: char| !c.is_ascii_digit()).map(|i| i + word.len() - digits.len());
        match split {
            Some(at) if at > 0 && word[at..].chars().all(|c| c.is_ascii_alphabetic()) && !word.contains(':') => {
                out.push(word[..at].to_string());
                out.push(word[at..].to_string());
            }
            _ => out.push(word.to_string()),
        }
    }
    out
}

/// `YYYY-MM-DD`, optionally followed by `T` and a time.
fn iso_date(token: &str) -> Option<(i64, u32, u32, Option<&str>)> {
    let (date, rest) = match token.find('t') {
        Some(at) => (&token[..at], Some(&token[at + 1..])),
        None => (token, None),
    };
    let mut parts = date.split('-');
    let year = parts.next()?;
    let month = parts.next()?;
    let day = parts.next()?;
    if parts.next().is_some() || year.is_empty() || !year.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    Some((year.parse().ok()?, month.parse().ok()?, day.parse().ok()?, rest))
}

/// `HH:MM[:SS[.frac]]` with an optional `Z` or `±hh[:]mm` zone.
fn clock(token: &str) -> Option<(u32, u32, u32, u32, Option<i64>)> {
    let (time, zone) = match token.find(['z', '+', '-']) {
        Some(at) => (&token[..at], Some(&token[at..])),
        None => (token, None),
    };
    let offset = match zone {
        None => None,
        Some("z") => Some(0),
        Some(text) => {
            let sign = if text.starts_with('-') { -1 } else { 1 };
            let digits: String = text[1..].chars().filter(|c| c.is_ascii_digit()).collect();
            let value: i64 = digits.parse().ok()?;
            let (h, m) = if digits.len() <= 2 { (value, 0) } else { (value / 100, value % 100) };
            Some(sign * (h * 3600 + m * 60))
        }
    };
    let mut parts = time.split(':');
    let hour = parts.next()?.parse().ok()?;
    let minute = parts.next()?.parse().ok()?;
    let (second, nanos) = match parts.next() {
        None => (0, 0),
        Some(text) => {
            let (whole, frac) = text.split_once(['.', ',']).unwrap_or((text, ""));
            let mut digits: String = frac.chars().take(9).collect();
            while digits.len() < 9 {
                digits.push('0');
            }
            (whole.parse().ok()?, digits.parse().ok()?)
        }
    };
    Some((hour, minute, second, nanos, offset))
}

fn month_number(token: &str) -> Option<u32> {
    let token = token.trim_end_matches(['.', ',']);
    if token.len() < 3 {
        return None;
    }
    MONTH_NAMES.iter().position(|m| token.starts_with(m) && m.starts_with(&token[..3])).map(|i| i as u32 + 1)
}

/// Seconds and months of one relative unit.
fn unit(token: &str) -> Option<(i64, i64)> {
    let singular = token.strip_suffix('s').unwrap_or(token);
    Some(match singular {
        "sec" | "second" => (1, 0),
        "min" | "minute" => (60, 0),
        "hour" => (3600, 0),
        "day" => (86_400, 0),
        "week" => (7 * 86_400, 0),
        "fortnight" => (14 * 86_400, 0),
        "month" => (0, 1),
        "year" => (0, 12),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: f64 = 1_704_067_200_000.0 + 3_723_000.0; // 2024-01-01 01:02:03 UTC

    fn at(text: &str) -> Option<f64> {
        parse_date(text, NOW, &Zone::utc())
    }

    #[test]
    fn absolute_forms() {
        assert_eq!(at("@100"), Some(100_000.0));
        assert_eq!(at("2020-02-03 04:05:06"), Some(1_580_702_706_000.0));
        assert_eq!(at("2020-01-01T10:00:00Z"), Some(1_577_872_800_000.0));
        assert_eq!(at("2020-01-01"), Some(1_577_836_800_000.0));
        assert_eq!(at("2020-01-01 10:00 +01:00"), Some(1_577_869_200_000.0));
        assert_eq!(at("Jan 2 2020"), Some(1_577_923_200_000.0));
        assert_eq!(at("2 Jan 2020"), Some(1_577_923_200_000.0));
        assert_eq!(at("now"), Some(NOW));
        assert_eq!(at("12:00"), Some(1_704_067_200_000.0 + 43_200_000.0));
        assert_eq!(at("xyz"), None);
        assert_eq!(at("2020-13-01"), None);
        assert_eq!(at("999999999999999999 days"), None);
        assert_eq!(at("@1e300"), None);
        assert_eq!(at("99999999999-01-01"), None);
    }

    #[test]
    fn relative_forms() {
        assert_eq!(at("yesterday"), Some(NOW - 86_400_000.0));
        assert_eq!(at("2 days ago"), Some(NOW - 172_800_000.0));
        assert_eq!(at("+1 hour"), Some(NOW + 3_600_000.0));
        assert_eq!(at("-30 minutes"), Some(NOW - 1_800_000.0));
        assert_eq!(at("next week"), Some(NOW + 604_800_000.0));
        assert_eq!(at("2020-01-31 +1 month"), Some(1_580_428_800_000.0 + 31.0 * 86_400_000.0));
    }
}
