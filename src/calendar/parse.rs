//! Parsing the date strings `date -d` accepts, the way GNU's
//! `parse_datetime` reads them: `now`, `yesterday`, `2 days ago`,
//! `@EPOCH`, ISO 8601 dates and times with zones, `Jan 15 2024`,
//! `next monday`, `3pm`, and any mix of these items.

use super::civil::{days_from_civil, days_in_month, from_timestamp, split_millis, to_timestamp};
use super::zone::Zone;

/// An instant: seconds since the epoch and nanoseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Instant {
    /// Whole seconds since the epoch.
    pub seconds: i64,
    /// Nanoseconds, 0..1e9.
    pub nanos: u32,
}

/// Relative offsets collected from items like `2 days ago`.
#[derive(Debug, Default, Clone, Copy)]
struct Relative {
    years: i64,
    months: i64,
    days: i64,
    seconds: i64,
}

/// Everything the items of a date string set.
#[derive(Debug, Default)]
struct Items {
    epoch: Option<Instant>,
    date: Option<(Option<i64>, u32, u32)>,
    time: Option<(u32, u32, u32, u32)>,
    zone: Option<i64>,
    weekday: Option<(i64, u32)>,
    relative: Relative,
    last_relative: Option<(char, i64)>,
}

const MONTH_WORDS: [&str; 12] = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const DAY_WORDS: [&str; 7] = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];
const ORDINALS: [(&str, i64); 15] = [
    ("last", -1),
    ("this", 0),
    ("next", 1),
    ("first", 1),
    ("third", 3),
    ("fourth", 4),
    ("fifth", 5),
    ("sixth", 6),
    ("seventh", 7),
    ("eighth", 8),
    ("ninth", 9),
    ("tenth", 10),
    ("eleventh", 11),
    ("twelfth", 12),
    ("second", 2),
];
const ZONES: [(&str, i64); 27] = [
    ("utc", 0),
    ("gmt", 0),
    ("ut", 0),
    ("z", 0),
    ("wet", 0),
    ("west", 1),
    ("bst", 1),
    ("cet", 1),
    ("met", 1),
    ("mez", 1),
    ("cest", 2),
    ("mest", 2),
    ("mesz", 2),
    ("eet", 2),
    ("eest", 3),
    ("msk", 3),
    ("jst", 9),
    ("est", -5),
    ("edt", -4),
    ("cst", -6),
    ("cdt", -5),
    ("mst", -7),
    ("mdt", -6),
    ("pst", -8),
    ("pdt", -7),
    ("akst", -9),
    ("hst", -10),
];

/// A lexical token of a date string.
#[derive(Debug, Clone, PartialEq)]
enum Token {
    /// Digits, with an explicit sign if one was written, and their count.
    Number { value: i64, signed: bool, digits: usize, text: String },
    /// A word, lowercased, without a trailing period.
    Word(String),
    /// One punctuation character.
    Punct(char),
}

fn tokenize(text: &str) -> Option<Vec<Token>> {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let mut index = 0;
    while let Some(&c) = chars.get(index) {
        if c.is_whitespace() || c == ',' {
            index += 1;
        } else if c.is_ascii_digit()
            || ((c == '+' || c == '-')
                && !index.checked_sub(1).and_then(|i| chars.get(i)).is_some_and(|p| p.is_ascii_digit())
                && chars.get(index + 1).is_some_and(|d| d.is_ascii_digit() || d.is_whitespace()))
        {
            let signed = c == '+' || c == '-';
            let negative = c == '-';
            index += usize::from(signed);
            while chars.get(index).is_some_and(|c| c.is_whitespace()) {
                index += 1;
            }
            let start = index;
            while chars.get(index).is_some_and(|c| c.is_ascii_digit()) {
                index += 1;
            }
            let digits: String = chars.get(start..index)?.iter().collect();
            if digits.is_empty() {
                return None;
            }
            let magnitude: i64 = digits.parse().ok()?;
            tokens.push(Token::Number { value: if negative { -magnitude } else { magnitude }, signed, digits: digits.len(), text: digits });
        } else if c.is_alphabetic() {
            let start = index;
            while chars.get(index).is_some_and(|c| c.is_alphabetic()) {
                index += 1;
            }
            let word: String = chars.get(start..index)?.iter().collect::<String>().to_lowercase();
            if chars.get(index) == Some(&'.') {
                index += 1;
            }
            tokens.push(Token::Word(word));
        } else {
            tokens.push(Token::Punct(c));
            index += 1;
        }
    }
    Some(tokens)
}

fn month_of(word: &str) -> Option<u32> {
    if word.len() < 3 {
        return None;
    }
    let full = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];
    let index =
        MONTH_WORDS.iter().position(|m| word == *m || word == "sept" && *m == "sep" || (word.starts_with(m) && full.contains(&word)))?;
    Some(index as u32 + 1)
}

fn weekday_of(word: &str) -> Option<u32> {
    let full = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];
    if let Some(index) = full.iter().position(|d| *d == word) {
        return Some(index as u32);
    }
    let short = ["tues", "wednes", "thur", "thurs"];
    if short.contains(&word) {
        return DAY_WORDS.iter().position(|d| word.starts_with(d)).map(|i| i as u32);
    }
    DAY_WORDS.iter().position(|d| *d == word).map(|i| i as u32)
}

fn unit_of(word: &str) -> Option<(char, i64)> {
    let singular = word.strip_suffix('s').filter(|w| !w.is_empty() && *w != "hour" || word == "hours").unwrap_or(word);
    let singular = if word == "hours" { "hour" } else { singular };
    Some(match singular {
        "year" => ('y', 1),
        "month" => ('m', 1),
        "fortnight" => ('d', 14),
        "week" => ('d', 7),
        "day" => ('d', 1),
        "hour" => ('s', 3600),
        "minute" | "min" => ('s', 60),
        "second" | "sec" => ('s', 1),
        _ => return None,
    })
}

impl Items {
    fn add_relative(&mut self, unit: char, amount: i64) {
        // Saturating: absurd offsets fail the range check in `parse_date`.
        let slot = match unit {
            'y' => &mut self.relative.years,
            'm' => &mut self.relative.months,
            'd' => &mut self.relative.days,
            _ => &mut self.relative.seconds,
        };
        *slot = slot.saturating_add(amount);
        self.last_relative = Some((unit, amount));
    }
}

/// Reads a zone offset written as a signed number: `+3`, `+0530`, `+05:30`.
fn signed_offset(value: i64, digits: usize, tokens: &[Token], index: &mut usize) -> Option<i64> {
    let sign = if value < 0 { -1 } else { 1 };
    let magnitude = value.abs();
    let (hours, mut minutes) = if digits <= 2 {
        (magnitude, 0)
    } else if digits == 4 {
        (magnitude / 100, magnitude % 100)
    } else {
        return None;
    };
    if let (Some(Token::Punct(':')), Some(Token::Number { value, signed: false, .. })) = (tokens.get(*index), tokens.get(*index + 1)) {
        if digits <= 2 {
            minutes = *value;
            *index += 2;
        }
    }
    if hours > 24 || minutes > 59 {
        return None;
    }
    Some(sign * (hours * 3600 + minutes * 60))
}

/// Reads `hh:mm[:ss[.frac]] [am|pm] [zone]` after its hour token.
fn parse_time(hour: i64, tokens: &[Token], index: &mut usize, items: &mut Items) -> Option<()> {
    let Some(Token::Number { value: minute, signed: false, .. }) = tokens.get(*index + 2) else {
        return None;
    };
    *index += 3;
    let mut second = 0;
    let mut nanos = 0;
    if let (Some(Token::Punct(':')), Some(Token::Number { value, signed: false, .. })) = (tokens.get(*index), tokens.get(*index + 1)) {
        second = *value;
        *index += 2;
        if let (Some(Token::Punct('.' | ',')), Some(Token::Number { signed: false, text, .. })) =
            (tokens.get(*index), tokens.get(*index + 1))
        {
            let padded: String = text.chars().chain(std::iter::repeat('0')).take(9).collect();
            nanos = padded.parse().ok()?;
            *index += 2;
        }
    }
    let mut hour = hour;
    if let Some(Token::Word(word)) = tokens.get(*index) {
        if let Some(adjusted) = meridian(hour, word) {
            hour = adjusted?;
            *index += 1;
        }
    }
    if hour > 23 || *minute > 59 || second > 59 {
        return None;
    }
    items.time = Some((hour as u32, *minute as u32, second as u32, nanos));
    match (tokens.get(*index), tokens.get(*index + 1)) {
        (Some(Token::Number { value, signed: true, digits, .. }), _) => {
            *index += 1;
            items.zone = Some(signed_offset(*value, *digits, tokens, index)?);
        }
        (Some(Token::Punct(sign @ ('+' | '-'))), Some(Token::Number { value, signed: false, digits, .. })) => {
            let value = if *sign == '-' { -value } else { *value };
            *index += 2;
            items.zone = Some(signed_offset(value, *digits, tokens, index)?);
        }
        _ => {}
    }
    Some(())
}

/// `Some(Some(hour))` when `word` is am/pm and the hour is valid for it.
fn meridian(hour: i64, word: &str) -> Option<Option<i64>> {
    let pm = match word {
        "am" | "a" => false,
        "pm" | "p" => true,
        _ => return None,
    };
    if !(1..=12).contains(&hour) {
        return Some(None);
    }
    Some(Some(hour % 12 + if pm { 12 } else { 0 }))
}

fn parse_items(tokens: &[Token], items: &mut Items) -> Option<()> {
    let mut index = 0;
    while let Some(token) = tokens.get(index) {
        match token {
            Token::Punct('@') => {
                let Some(Token::Number { value, .. }) = tokens.get(index + 1) else {
                    return None;
                };
                let mut nanos = 0;
                index += 2;
                if let (Some(Token::Punct('.' | ',')), Some(Token::Number { signed: false, text, .. })) =
                    (tokens.get(index), tokens.get(index + 1))
                {
                    let padded: String = text.chars().chain(std::iter::repeat('0')).take(9).collect();
                    nanos = padded.parse().ok()?;
                    index += 2;
                }
                items.epoch = Some(Instant { seconds: *value, nanos });
            }
            Token::Number { value, signed, digits, .. } => {
                let (value, signed, digits) = (*value, *signed, *digits);
                let next = tokens.get(index + 1);
                if let Some(Token::Word(word)) = next {
                    if let Some((unit, scale)) = unit_of(word) {
                        items.add_relative(unit, value.checked_mul(scale)?);
                        index += 2;
                        continue;
                    }
                }
                if signed {
                    if items.time.is_some() && items.zone.is_none() {
                        index += 1;
                        items.zone = Some(signed_offset(value, digits, tokens, &mut index)?);
                        continue;
                    }
                    return None;
                }
                match next {
                    Some(Token::Punct('-')) if digits >= 3 || digits == 4 => {
                        let (
                            Some(Token::Number { value: month, signed: false, .. }),
                            Some(Token::Punct('-')),
                            Some(Token::Number { value: day, signed: false, digits: day_digits, .. }),
                        ) = (tokens.get(index + 2), tokens.get(index + 3), tokens.get(index + 4))
                        else {
                            return None;
                        };
                        if *day_digits > 2 {
                            return None;
                        }
                        items.date = Some((Some(value), *month as u32, *day as u32));
                        index += 5;
                        if let Some(Token::Word(word)) = tokens.get(index) {
                            if word == "t" {
                                index += 1;
                            } else if let Some(rest) = word.strip_prefix('t') {
                                let _ = rest;
                                return None;
                            }
                        }
                        if let (Some(Token::Number { value: hour, signed: false, .. }), Some(Token::Punct(':'))) =
                            (tokens.get(index), tokens.get(index + 1))
                        {
                            parse_time(*hour, tokens, &mut index, items)?;
                        }
                    }
                    Some(Token::Punct('-')) => {
                        // A number then a unit-less minus: "10 -2 days" is not a date.
                        items.date = None;
                        return None;
                    }
                    Some(Token::Punct('/')) => {
                        let Some(Token::Number { value: second, signed: false, .. }) = tokens.get(index + 2) else {
                            return None;
                        };
                        index += 3;
                        let mut year = None;
                        let mut raw_third = None;
                        if let (Some(Token::Punct('/')), Some(Token::Number { value: third, signed: false, digits: year_digits, .. })) =
                            (tokens.get(index), tokens.get(index + 1))
                        {
                            year = Some(if *year_digits <= 2 { third + if *third < 69 { 2000 } else { 1900 } } else { *third });
                            raw_third = Some(*third);
                            index += 2;
                        }
                        items.date = if digits == 4 {
                            Some((Some(value), *second as u32, raw_third? as u32))
                        } else {
                            Some((year, value as u32, *second as u32))
                        };
                    }
                    Some(Token::Punct(':')) => parse_time(value, tokens, &mut index, items)?,
                    Some(Token::Word(word)) if meridian(value, word).is_some() => {
                        let hour = meridian(value, word)??;
                        items.time = Some((hour as u32, 0, 0, 0));
                        index += 2;
                    }
                    Some(Token::Word(word)) if month_of(word).is_some() && digits <= 2 => {
                        let month = month_of(word)?;
                        index += 2;
                        let mut year = None;
                        if let Some(Token::Number { value, signed: false, digits: 4, .. }) = tokens.get(index) {
                            year = Some(*value);
                            index += 1;
                        }
                        items.date = Some((year, month, value as u32));
                    }
                    _ if digits == 8 && items.date.is_none() => {
                        items.date = Some((Some(value / 10_000), (value / 100 % 100) as u32, (value % 100) as u32));
                        index += 1;
                    }
                    _ if digits == 4 && matches!(items.date, Some((None, _, _))) => {
                        if let Some((year, _, _)) = items.date.as_mut() {
                            *year = Some(value);
                        }
                        index += 1;
                    }
                    _ if digits == 4 && items.date.is_some() && items.time.is_none() => {
                        items.time = Some(((value / 100) as u32, (value % 100) as u32, 0, 0));
                        index += 1;
                    }
                    _ => return None,
                }
            }
            Token::Word(word) => {
                let word = word.as_str();
                index += 1;
                if let Some(month) = month_of(word) {
                    let Some(Token::Number { value: day, signed: false, digits, .. }) = tokens.get(index) else {
                        return None;
                    };
                    if *digits > 2 {
                        return None;
                    }
                    index += 1;
                    let mut year = None;
                    if let Some(Token::Number { value, signed: false, digits: 4, .. }) = tokens.get(index) {
                        if tokens.get(index + 1) != Some(&Token::Punct(':')) {
                            year = Some(*value);
                            index += 1;
                        }
                    }
                    items.date = Some((year, month, *day as u32));
                } else if let Some(day) = weekday_of(word) {
                    items.weekday = Some((items.weekday.map_or(0, |w| w.0), day));
                } else if let Some((_, ordinal)) = ORDINALS.iter().find(|(name, _)| *name == word) {
                    match tokens.get(index) {
                        Some(Token::Word(next)) if weekday_of(next).is_some() => {
                            items.weekday = Some((*ordinal, weekday_of(next)?));
                            index += 1;
                        }
                        Some(Token::Word(next)) if unit_of(next).is_some() => {
                            let (unit, scale) = unit_of(next)?;
                            items.add_relative(unit, ordinal * scale);
                            index += 1;
                        }
                        _ => return None,
                    }
                } else if let Some((unit, scale)) = unit_of(word) {
                    items.add_relative(unit, scale);
                } else if word == "ago" {
                    let (unit, amount) = items.last_relative.take()?;
                    items.add_relative(unit, amount.checked_mul(-2)?);
                    items.last_relative = None;
                } else if matches!(word, "now" | "today") {
                } else if word == "yesterday" {
                    items.add_relative('d', -1);
                } else if word == "tomorrow" {
                    items.add_relative('d', 1);
                } else if word == "t" && items.date.is_some() {
                } else if let Some((_, hours)) = ZONES.iter().find(|(name, _)| *name == word) {
                    let mut offset = hours * 3600;
                    if let Some(Token::Number { value, signed: true, digits, .. }) = tokens.get(index) {
                        index += 1;
                        offset += signed_offset(*value, *digits, tokens, &mut index)?;
                    }
                    items.zone = Some(offset);
                } else if word == "ist" {
                    items.zone = Some(19_800);
                } else {
                    return None;
                }
            }
            Token::Punct(_) => return None,
        }
    }
    Some(())
}

/// Adds months to a civil date, letting an overflowing day roll into the
/// next month as `mktime` does (Jan 31 + 1 month = Mar 2 in a leap year).
fn shift_date(year: i64, month: u32, day: u32, years: i64, months: i64, days: i64) -> i64 {
    let total = year * 12 + i64::from(month) - 1 + years * 12 + months;
    let (year, month) = (total.div_euclid(12), total.rem_euclid(12) as u32 + 1);
    days_from_civil(year, month, 1) + i64::from(day) - 1 + days
}

/// Parses `text` relative to `now` (milliseconds since the epoch) in `zone`,
/// giving milliseconds (`touch -d`, `find -newermt`).
pub fn parse_date_millis(text: &str, now: f64, zone: &Zone) -> Option<f64> {
    let (seconds, nanos) = split_millis(now);
    let instant = parse_date(text, Instant { seconds, nanos }, zone.offset)?;
    Some(instant.seconds as f64 * 1000.0 + f64::from(instant.nanos) / 1_000_000.0)
}

/// Parses `text` relative to `now` in a zone `offset` seconds east of UTC.
/// `None` when GNU would say `invalid date`.
pub fn parse_date(text: &str, now: Instant, offset: i64) -> Option<Instant> {
    let tokens = tokenize(text)?;
    let mut items = Items::default();
    if tokens.is_empty() {
        // GNU reads an empty string as the start of today.
        items.time = Some((0, 0, 0, 0));
    }
    parse_items(&tokens, &mut items)?;
    let relative = items.relative;
    // Far beyond any year GNU can show; keeps the arithmetic below in range.
    const LIMIT: i64 = 1 << 32;
    let too_far = [relative.years, relative.months, relative.days].iter().any(|v| v.abs() > LIMIT)
        || relative.seconds.abs() > LIMIT * 86_400
        || items.epoch.is_some_and(|e| e.seconds.abs() > LIMIT * 86_400)
        || items.date.is_some_and(|(year, _, _)| year.is_some_and(|y| y.abs() > LIMIT));
    if too_far {
        return None;
    }
    if let Some(epoch) = items.epoch {
        let days = shift_date(1970, 1, 1, relative.years, relative.months, relative.days);
        return Some(Instant { seconds: epoch.seconds + days * 86_400 + relative.seconds, nanos: epoch.nanos });
    }
    let zone = items.zone.unwrap_or(offset);
    let today = from_timestamp(now.seconds, now.nanos, zone);
    let (year, month, day) = match items.date {
        Some((year, month, day)) => {
            let year = year.unwrap_or(today.year);
            if !(1..=12).contains(&month) || day < 1 || day > days_in_month(year, month) {
                return None;
            }
            (year, month, day)
        }
        None => (today.year, today.month, today.day),
    };
    let (hour, minute, second, nanos) = match items.time {
        Some(time) => time,
        None if items.date.is_some() || items.weekday.is_some() => (0, 0, 0, 0),
        None => (today.hour, today.minute, today.second, today.nanos),
    };
    let mut days = shift_date(year, month, day, relative.years, relative.months, relative.days);
    if let (Some((ordinal, target)), None) = (items.weekday, items.date) {
        let current = (days + 4).rem_euclid(7);
        let target = i64::from(target);
        let ahead = (target - current + 7) % 7;
        days += ahead + 7 * (ordinal - i64::from(ordinal > 0 && current != target));
    }
    let seconds = to_timestamp(1970, 1, 1, hour, minute, second, zone) + days * 86_400 + relative.seconds;
    Some(Instant { seconds, nanos })
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: Instant = Instant { seconds: 1_704_067_227, nanos: 0 };

    fn show(text: &str) -> String {
        match parse_date(text, NOW, 0) {
            Some(instant) => {
                let t = from_timestamp(instant.seconds, instant.nanos, 0);
                format!("{:04}-{:02}-{:02} {:02}:{:02}:{:02}", t.year, t.month, t.day, t.hour, t.minute, t.second)
            }
            None => "invalid".into(),
        }
    }

    #[test]
    fn absolute_forms() {
        assert_eq!(show("2024-01-15T10:30:45Z"), "2024-01-15 10:30:45");
        assert_eq!(show("2024-01-15T10:30:45+05:00"), "2024-01-15 05:30:45");
        assert_eq!(show("2024-01-15 10:30:45 +0200"), "2024-01-15 08:30:45");
        assert_eq!(show("Jan 15 2024"), "2024-01-15 00:00:00");
        assert_eq!(show("15 Jan 2024"), "2024-01-15 00:00:00");
        assert_eq!(show("January 15, 2024"), "2024-01-15 00:00:00");
        assert_eq!(show("01/15/2024"), "2024-01-15 00:00:00");
        assert_eq!(show("2024/01/15"), "2024-01-15 00:00:00");
        assert_eq!(show("20240115"), "2024-01-15 00:00:00");
        assert_eq!(show("Mon Jan 15 10:30:00 UTC 2024"), "2024-01-15 10:30:00");
        assert_eq!(show("Sun, 14 Jan 2024 10:00:00 +0000"), "2024-01-14 10:00:00");
        assert_eq!(show("2024-1-5"), "2024-01-05 00:00:00");
        assert_eq!(show("@1700000000"), "2023-11-14 22:13:20");
        assert_eq!(show("@-86400"), "1969-12-31 00:00:00");
        assert_eq!(show("2024-06-01 12:00 EST"), "2024-06-01 17:00:00");
        assert_eq!(show("2024-01-15 jst"), "2024-01-14 15:00:00");
        assert_eq!(show("2024-01-15 10:00 IST"), "2024-01-15 04:30:00");
        assert_eq!(show("2024-01-15 10:00 UTC+2"), "2024-01-15 08:00:00");
        assert_eq!(show("Dec 25"), "2024-12-25 00:00:00");
        assert_eq!(show("12/31"), "2024-12-31 00:00:00");
        assert_eq!(show(""), "2024-01-01 00:00:00");
    }

    #[test]
    fn times_of_day() {
        assert_eq!(show("10:30"), "2024-01-01 10:30:00");
        assert_eq!(show("9am"), "2024-01-01 09:00:00");
        assert_eq!(show("2024-01-15 3:30pm"), "2024-01-15 15:30:00");
        assert_eq!(show("2024-01-15 12am"), "2024-01-15 00:00:00");
        assert_eq!(show("2024-01-15 12pm"), "2024-01-15 12:00:00");
        assert_eq!(show("2024-01-15 10:30 am"), "2024-01-15 10:30:00");
        assert_eq!(show("23:00 yesterday"), "2023-12-31 23:00:00");
    }

    #[test]
    fn relative_items() {
        assert_eq!(show("now"), "2024-01-01 00:00:27");
        assert_eq!(show("yesterday"), "2023-12-31 00:00:27");
        assert_eq!(show("tomorrow"), "2024-01-02 00:00:27");
        assert_eq!(show("1 hour ago"), "2023-12-31 23:00:27");
        assert_eq!(show("next hour"), "2024-01-01 01:00:27");
        assert_eq!(show("last week"), "2023-12-25 00:00:27");
        assert_eq!(show("-2 days"), "2023-12-30 00:00:27");
        assert_eq!(show("third day"), "2024-01-04 00:00:27");
        assert_eq!(show("2024-01-31 + 1 month"), "2024-03-02 00:00:00");
        assert_eq!(show("2024-01-31 1 month ago"), "2023-12-31 00:00:00");
        assert_eq!(show("2024-02-29 + 1 year"), "2025-03-01 00:00:00");
        assert_eq!(show("2024-01-15 10:30 1 day 2 hours ago"), "2024-01-16 08:30:00");
        assert_eq!(show("2024-01-15 10:30 +3 hours"), "2024-01-15 08:30:00");
        assert_eq!(show("2024-01-15 10:30 -1 week"), "2024-01-22 11:30:00");
        assert_eq!(show("2024-01-15 +1 day +2 hours"), "2024-01-16 02:00:00");
        assert_eq!(show("2024-01-15 fortnight ago"), "2024-01-01 00:00:00");
        assert_eq!(show("2024-01-15 1 year 2 months"), "2025-03-15 00:00:00");
        assert_eq!(show("2024-01-15 10:30 sec ago"), "2024-01-15 10:29:59");
        assert_eq!(show("9223372036854775807 days"), "invalid");
        assert_eq!(show("4611686018427387904 years ago"), "invalid");
        assert_eq!(show("@9223372036854775807"), "invalid");
    }

    #[test]
    fn weekdays() {
        assert_eq!(show("monday"), "2024-01-01 00:00:00");
        assert_eq!(show("next monday"), "2024-01-08 00:00:00");
        assert_eq!(show("last monday"), "2023-12-25 00:00:00");
        assert_eq!(show("tuesday"), "2024-01-02 00:00:00");
        assert_eq!(show("next tuesday"), "2024-01-02 00:00:00");
        assert_eq!(show("last tuesday"), "2023-12-26 00:00:00");
        assert_eq!(show("last sunday"), "2023-12-31 00:00:00");
        assert_eq!(show("next friday 9am"), "2024-01-05 09:00:00");
        assert_eq!(show("friday next week"), "2024-01-12 00:00:00");
        assert_eq!(show("2024-01-03 monday"), "2024-01-03 00:00:00");
    }

    #[test]
    fn invalid_dates() {
        for text in [
            "foo",
            "noon",
            "epoch",
            "2024-02-30",
            "2023-02-29",
            "24:00",
            "2024-13-01",
            "2024-01-15 23:59:60",
            "in 2 days",
            "2 mondays",
            "15.01.2024",
            "2024-01",
            "Jan 2024",
            "one day ago",
            "2024-01-15 10:00 AEST",
        ] {
            assert_eq!(show(text), "invalid", "{text}");
        }
    }

    const NOW_MILLIS: f64 = 1_704_067_200_000.0 + 3_723_000.0; // 2024-01-01 01:02:03 UTC

    fn at_millis(text: &str) -> Option<f64> {
        parse_date_millis(text, NOW_MILLIS, &Zone::utc())
    }

    #[test]
    fn millisecond_forms_for_touch_and_find() {
        assert_eq!(at_millis("@100"), Some(100_000.0));
        assert_eq!(at_millis("2020-02-03 04:05:06"), Some(1_580_702_706_000.0));
        assert_eq!(at_millis("2020-01-01T10:00:00Z"), Some(1_577_872_800_000.0));
        assert_eq!(at_millis("2020-01-01 10:00 +01:00"), Some(1_577_869_200_000.0));
        assert_eq!(at_millis("Jan 2 2020"), Some(1_577_923_200_000.0));
        assert_eq!(at_millis("2 Jan 2020"), Some(1_577_923_200_000.0));
        assert_eq!(at_millis("now"), Some(NOW_MILLIS));
        assert_eq!(at_millis("12:00"), Some(1_704_067_200_000.0 + 43_200_000.0));
        assert_eq!(at_millis("xyz"), None);
        assert_eq!(at_millis("2020-13-01"), None);
        assert_eq!(at_millis("999999999999999999 days"), None);
        assert_eq!(at_millis("yesterday"), Some(NOW_MILLIS - 86_400_000.0));
        assert_eq!(at_millis("2 days ago"), Some(NOW_MILLIS - 172_800_000.0));
        assert_eq!(at_millis("-30 minutes"), Some(NOW_MILLIS - 1_800_000.0));
        assert_eq!(at_millis("next week"), Some(NOW_MILLIS + 604_800_000.0));
        assert_eq!(at_millis("2020-01-31 +1 month"), Some(1_580_428_800_000.0 + 31.0 * 86_400_000.0));
    }
}
