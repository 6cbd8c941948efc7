//! The line and byte counts `head` and `tail` take: `N`, `-N`, `+N`, with
//! GNU's multiplier suffixes (`b` 512, `K`/`KiB` 1024, `kB` 1000, `M`...).

/// A parsed count and the sign written before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Count {
    /// The number, saturated at `u64::MAX`.
    pub value: u64,
    /// `-N` was written.
    pub minus: bool,
    /// `+N` was written.
    pub plus: bool,
}

/// Parses a count; `None` when it is not a valid number.
pub fn parse_count(text: &str) -> Option<Count> {
    let (minus, plus, body) = match text.as_bytes().first() {
        Some(b'-') => (true, false, text.get(1..)?),
        Some(b'+') => (false, true, text.get(1..)?),
        _ => (false, false, text),
    };
    let digits_end = body.find(|c: char| !c.is_ascii_digit()).unwrap_or(body.len());
    let (digits, suffix) = body.split_at(digits_end);
    if digits.is_empty() {
        return None;
    }
    let multiplier: u64 = match suffix {
        "" => 1,
        "b" => 512,
        "kB" => 1000,
        "K" | "KiB" | "k" => 1024,
        "MB" => 1000 * 1000,
        "M" | "MiB" => 1024 * 1024,
        "GB" => 1000 * 1000 * 1000,
        "G" | "GiB" => 1024 * 1024 * 1024,
        _ => return None,
    };
    let value = digits.parse::<u64>().unwrap_or(u64::MAX).saturating_mul(multiplier);
    Some(Count { value, minus, plus })
}

/// Rewrites the obsolete first-argument form `-N` (and `-Nc`, `-Nl`) into
/// `-n N` / `-c N`, as GNU `head` and `tail` accept it.
pub fn rewrite_obsolete(args: &mut Vec<String>, plus_too: bool) {
    let Some(first) = args.get(1).cloned() else {
        return;
    };
    let body = match first.strip_prefix('-') {
        Some(body) => body,
        None if plus_too && first.starts_with('+') && args.len() <= 3 => &first[1..],
        None => return,
    };
    let digits_end = body.find(|c: char| !c.is_ascii_digit()).unwrap_or(body.len());
    if digits_end == 0 {
        return;
    }
    let (digits, rest) = body.split_at(digits_end);
    let option = match rest {
        "" | "l" => "-n",
        "c" => "-c",
        _ => return,
    };
    let sign = if first.starts_with('+') { "+" } else { "" };
    args.splice(1..2, [option.to_string(), format!("{sign}{digits}")]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_suffixes() {
        assert_eq!(parse_count("5"), Some(Count { value: 5, minus: false, plus: false }));
        assert_eq!(parse_count("-2K").map(|c| (c.value, c.minus)), Some((2048, true)));
        assert_eq!(parse_count("+3").map(|c| c.plus), Some(true));
        assert_eq!(parse_count("x"), None);
        assert_eq!(parse_count("3q"), None);
    }
}
