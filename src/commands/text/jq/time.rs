//! jq's date builtins over "broken down time" arrays
//! (`[year, month0, mday, hours, minutes, seconds, wday, yday]`), in UTC.

use super::eval::{err, Flow};
use super::json::dump_short;
use super::value::Value;
use crate::calendar::civil::{civil_from_days, days_from_civil, is_leap, DateTime};

/// Times beyond this many seconds from the epoch are refused (the calendar
/// arithmetic would overflow).
const MAX_SECONDS: f64 = 1e15;

fn broken_down(t: f64) -> Value {
    let t = if t.is_finite() { t.clamp(-MAX_SECONDS, MAX_SECONDS) } else { 0.0 };
    let secs = t.floor();
    let days = (secs / 86400.0).floor() as i64;
    let rem = secs - days as f64 * 86400.0;
    let (year, month, day) = civil_from_days(days);
    let yday = days - days_from_civil(year, 1, 1);
    let wday = (days + 4).rem_euclid(7);
    let frac = t - secs;
    Value::arr(vec![
        Value::num(year as f64),
        Value::num(f64::from(month) - 1.0),
        Value::num(f64::from(day)),
        Value::num((rem / 3600.0).floor()),
        Value::num(((rem % 3600.0) / 60.0).floor()),
        Value::num((rem % 60.0) + frac),
        Value::num(wday as f64),
        Value::num(yday as f64),
    ])
}

/// The eight numbers of a broken-down time, which jq 1.7.1 requires all of.
fn fields(v: &Value, what: &str) -> Result<[f64; 8], Flow> {
    let Value::Arr(a) = v else {
        return Err(err(format!("{what} requires parsed datetime inputs")));
    };
    if a.len() < 8 {
        return Err(err(format!("{what} requires parsed datetime inputs")));
    }
    let mut out = [0.0; 8];
    for (i, x) in a.iter().take(8).enumerate() {
        match x {
            Value::Num(n, _) => {
                if !n.is_finite() || n.abs() > 1e9 {
                    return Err(err(format!("{what} requires parsed datetime inputs")));
                }
                if let Some(slot) = out.get_mut(i) {
                    *slot = *n;
                }
            }
            _ => return Err(err(format!("{what} requires parsed datetime inputs"))),
        }
    }
    Ok(out)
}

fn timestamp(f: &[f64; 8]) -> f64 {
    let days = days_from_civil(f[0] as i64, 1, 1);
    // Months may be out of range: normalise through a day count.
    let month = f[1] as i64;
    let year = f[0] as i64 + month.div_euclid(12);
    let month = month.rem_euclid(12) as u32 + 1;
    let _ = days;
    let d = days_from_civil(year, month, 1) + f[2] as i64 - 1;
    d as f64 * 86400.0 + f[3].trunc() * 3600.0 + f[4].trunc() * 60.0 + f[5].trunc()
}

/// `mktime`.
pub fn mktime(v: &Value) -> Result<Value, Flow> {
    if !matches!(v, Value::Arr(_)) {
        return Err(err("mktime requires array inputs"));
    }
    let f = fields(v, "mktime")?;
    Ok(Value::num(timestamp(&f).floor()))
}

/// `gmtime` / `localtime` (the sandbox runs in UTC).
pub fn gmtime(v: &Value, name: &str) -> Result<Value, Flow> {
    match v {
        Value::Num(n, _) if !n.is_finite() || n.abs() > MAX_SECONDS => Err(err("error converting number of seconds since epoch to datetime")),
        Value::Num(n, _) => Ok(broken_down(*n)),
        _ => Err(err(format!("{name}() requires numeric inputs"))),
    }
}

/// `strftime(fmt)` on a number or broken-down time.
pub fn strftime(v: &Value, fmt: &Value, name: &str) -> Result<Value, Flow> {
    let t = match v {
        Value::Num(..) => gmtime(v, "gmtime")?,
        Value::Arr(_) => v.clone(),
        _ => return Err(err(format!("{name}/1 requires parsed datetime inputs"))),
    };
    let Value::Str(fmt) = fmt else {
        return Err(err(format!("{name}/1 requires a string format")));
    };
    let f = fields(&t, &format!("{name}/1"))?;
    let secs = timestamp(&f);
    let days = (secs / 86400.0).floor() as i64;
    let (year, month, day) = civil_from_days(days);
    let rem = secs - days as f64 * 86400.0;
    let time = DateTime {
        year,
        month,
        day,
        hour: (rem / 3600.0) as u32,
        minute: ((rem % 3600.0) / 60.0) as u32,
        second: (rem % 60.0) as u32,
        nanos: 0,
        weekday: (days + 4).rem_euclid(7) as u32,
        yday: (days - days_from_civil(year, 1, 1)) as u32,
        offset: 0,
    };
    Ok(Value::str(&crate::calendar::format::format_time(fmt, &time, "UTC", secs as i64)))
}

fn take_num(s: &[char], i: &mut usize, max: usize) -> Option<i64> {
    let start = *i;
    let mut neg = false;
    if s.get(*i) == Some(&'+') || s.get(*i) == Some(&'-') {
        neg = s.get(*i) == Some(&'-');
        *i += 1;
    }
    let digits_start = *i;
    while *i < s.len() && *i - digits_start < max && s.get(*i).is_some_and(char::is_ascii_digit) {
        *i += 1;
    }
    if *i == digits_start {
        *i = start;
        return None;
    }
    let n: i64 = s.get(digits_start..*i)?.iter().collect::<String>().parse().ok()?;
    Some(if neg { -n } else { n })
}

const MONTHS: [&str; 12] = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const DAYS: [&str; 7] = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];

fn take_name(s: &[char], i: &mut usize, names: &[&str], full: &[&str]) -> Option<usize> {
    let rest: String = s.get(*i..)?.iter().collect::<String>().to_ascii_lowercase();
    for (k, n) in names.iter().enumerate() {
        if let Some(f) = full.get(k) {
            if rest.starts_with(f) {
                *i += f.len();
                return Some(k);
            }
        }
        if rest.starts_with(n) {
            *i += n.len();
            return Some(k);
        }
    }
    None
}

/// `strptime(fmt)`.
pub fn strptime(v: &Value, fmt: &Value) -> Result<Value, Flow> {
    let Value::Str(text) = v else {
        return Err(err(format!("strptime/1 requires string inputs and arguments")));
    };
    let Value::Str(fmt) = fmt else {
        return Err(err("strptime/1 requires string inputs and arguments"));
    };
    let s: Vec<char> = text.chars().collect();
    let f: Vec<char> = fmt.chars().collect();
    let (mut year, mut mon, mut mday, mut hour, mut min, mut sec) = (1900i64, 0i64, 1i64, 0i64, 0i64, 0i64);
    let mut epoch: Option<i64> = None;
    let mut offset = 0i64;
    let (mut i, mut j) = (0usize, 0usize);
    let fail = || err(format!("date \"{}\" does not match format \"{}\"", text, fmt));
    let full_months =
        ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];
    let full_days = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];
    while let Some(&c) = f.get(j) {
        j += 1;
        if c.is_whitespace() {
            while s.get(i).is_some_and(|c| c.is_whitespace()) {
                i += 1;
            }
            continue;
        }
        if c != '%' {
            if s.get(i) != Some(&c) {
                return Err(fail());
            }
            i += 1;
            continue;
        }
        let Some(&d) = f.get(j) else { return Err(fail()) };
        j += 1;
        match d {
            'Y' => year = take_num(&s, &mut i, 4).ok_or_else(fail)?,
            'm' => mon = take_num(&s, &mut i, 2).ok_or_else(fail)? - 1,
            'd' | 'e' => mday = take_num(&s, &mut i, 2).ok_or_else(fail)?,
            'H' => hour = take_num(&s, &mut i, 2).ok_or_else(fail)?,
            'M' => min = take_num(&s, &mut i, 2).ok_or_else(fail)?,
            'S' => sec = take_num(&s, &mut i, 2).ok_or_else(fail)?,
            'y' => {
                let y = take_num(&s, &mut i, 2).ok_or_else(fail)?;
                year = if y < 69 { 2000 + y } else { 1900 + y };
            }
            'j' => {
                let yd = take_num(&s, &mut i, 3).ok_or_else(fail)?;
                mday = yd;
                mon = 0;
            }
            's' => epoch = Some(take_num(&s, &mut i, 20).ok_or_else(fail)?),
            'b' | 'B' | 'h' => mon = take_name(&s, &mut i, &MONTHS, &full_months).ok_or_else(fail)? as i64,
            'a' | 'A' => {
                take_name(&s, &mut i, &DAYS, &full_days).ok_or_else(fail)?;
            }
            'Z' => {
                while s.get(i).is_some_and(|c| c.is_ascii_alphabetic()) {
                    i += 1;
                }
            }
            'z' => {
                if s.get(i) == Some(&'Z') {
                    i += 1;
                } else {
                    let n = take_num(&s, &mut i, 4).ok_or_else(fail)?;
                    offset = (n / 100) * 3600 + (n % 100) * 60;
                }
            }
            'T' => {
                hour = take_num(&s, &mut i, 2).ok_or_else(fail)?;
                if s.get(i) != Some(&':') {
                    return Err(fail());
                }
                i += 1;
                min = take_num(&s, &mut i, 2).ok_or_else(fail)?;
                if s.get(i) != Some(&':') {
                    return Err(fail());
                }
                i += 1;
                sec = take_num(&s, &mut i, 2).ok_or_else(fail)?;
            }
            '%' => {
                if s.get(i) != Some(&'%') {
                    return Err(fail());
                }
                i += 1;
            }
            _ => return Err(err(format!("strptime/1: unsupported conversion %{d}"))),
        }
    }
    if i != s.len() {
        return Err(fail());
    }
    let _ = offset;
    if let Some(e) = epoch {
        return Ok(broken_down(e as f64));
    }
    let days = days_from_civil(year, (mon + 1).clamp(1, 12) as u32, 1) + mday - 1;
    let t = days as f64 * 86400.0 + (hour * 3600 + min * 60 + sec) as f64;
    let _ = is_leap;
    let _ = dump_short;
    Ok(broken_down(t))
}
