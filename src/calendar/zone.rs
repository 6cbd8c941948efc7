//! Time zones from `TZ`: the sandbox has no zone database, so `UTC`, `GMT`
//! and POSIX fixed-offset strings (`EST5`, `UTC-3`, `<+0530>-5:30`) are
//! understood, daylight-saving rules are ignored, and anything else is UTC,
//! as glibc treats an unknown zone.

/// A fixed offset from UTC and the abbreviation `%Z` prints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Zone {
    /// Seconds east of UTC.
    pub offset: i64,
    /// The abbreviation (`UTC`, `EST`, `+0530`).
    pub name: String,
}

impl Zone {
    /// Coordinated Universal Time.
    pub fn utc() -> Zone {
        Zone { offset: 0, name: "UTC".into() }
    }
}

/// The zone a `TZ` value names (`None` or empty: UTC).
pub fn parse_tz(tz: Option<&str>) -> Zone {
    let Some(tz) = tz.map(|t| t.strip_prefix(':').unwrap_or(t)) else {
        return Zone::utc();
    };
    if tz.is_empty() || tz.contains('/') {
        return Zone::utc();
    }
    let (name, rest) = if let Some(quoted) = tz.strip_prefix('<') {
        match quoted.split_once('>') {
            Some((name, rest)) => (name.to_string(), rest),
            None => return Zone::utc(),
        }
    } else {
        let end = tz.find(|c: char| !c.is_ascii_alphabetic()).unwrap_or(tz.len());
        (tz.get(..end).unwrap_or("").to_string(), tz.get(end..).unwrap_or(""))
    };
    if name.len() < 3 {
        return Zone { offset: 0, name: if name.is_empty() { "UTC".into() } else { name } };
    }
    let (sign, digits) = match rest.as_bytes().first() {
        Some(b'-') => (1, rest.get(1..).unwrap_or("")),
        Some(b'+') => (-1, rest.get(1..).unwrap_or("")),
        _ => (-1, rest),
    };
    let numeric: String = digits.chars().take_while(|c| c.is_ascii_digit() || *c == ':').collect();
    if numeric.is_empty() {
        return Zone { offset: 0, name };
    }
    let mut parts = numeric.split(':').map(|p| p.parse::<i64>().unwrap_or(0));
    let hours = parts.next().unwrap_or(0);
    let minutes = parts.next().unwrap_or(0);
    let seconds = parts.next().unwrap_or(0);
    Zone { offset: sign * (hours * 3600 + minutes * 60 + seconds), name }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_offsets() {
        assert_eq!(parse_tz(None), Zone::utc());
        assert_eq!(parse_tz(Some("UTC")), Zone::utc());
        assert_eq!(parse_tz(Some("EST5")).offset, -5 * 3600);
        assert_eq!(parse_tz(Some("EST5EDT")).name, "EST");
        assert_eq!(parse_tz(Some("UTC-3")).offset, 3 * 3600);
        assert_eq!(parse_tz(Some("<+0530>-5:30")), Zone { offset: 19_800, name: "+0530".into() });
        assert_eq!(parse_tz(Some("Europe/Paris")).offset, 0);
    }
}
