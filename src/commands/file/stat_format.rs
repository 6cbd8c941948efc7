//! The format language `stat --format`/`--printf` and `stat -f` share:
//! `%` conversions with flags, width and precision, and `--printf`'s
//! backslash escapes.

/// Expands a whole format string, each `%` conversion through `convert`
/// (letter, precision, `H`/`L` modifier of `%d`), which gives the text and
/// whether it is a number (`0` padding applies) or `None` for `?`.
pub fn expand(format: &str, convert: &dyn Fn(char, Option<usize>, Option<char>) -> Option<(String, bool)>) -> String {
    let chars: Vec<char> = format.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        i += 1;
        if c != '%' {
            out.push(c);
            continue;
        }
        let start = i;
        let mut flags = String::new();
        while let Some(&f) = chars.get(i).filter(|f| "-#0+ '".contains(**f)) {
            flags.push(f);
            i += 1;
        }
        let mut width = String::new();
        while let Some(&d) = chars.get(i).filter(|d| d.is_ascii_digit()) {
            width.push(d);
            i += 1;
        }
        let mut precision = None;
        if chars.get(i) == Some(&'.') {
            i += 1;
            let mut digits = String::new();
            while let Some(&d) = chars.get(i).filter(|d| d.is_ascii_digit()) {
                digits.push(d);
                i += 1;
            }
            precision = Some(digits.parse().unwrap_or(0));
        }
        let mut modifier = None;
        if let Some(&m) = chars.get(i).filter(|m| **m == 'H' || **m == 'L') {
            if chars.get(i + 1) == Some(&'d') {
                modifier = Some(m);
                i += 1;
            }
        }
        let Some(&letter) = chars.get(i) else {
            out.push('%');
            out.extend(chars.get(start..).unwrap_or(&[]).iter());
            break;
        };
        i += 1;
        if letter == '%' {
            out.push('%');
            continue;
        }
        let Some((mut text, is_number)) = convert(letter, precision, modifier) else {
            out.push('?');
            continue;
        };
        if let (Some(limit), false) = (precision, is_number || "XYZ".contains(letter)) {
            text = text.chars().take(limit).collect();
        }
        let width: usize = width.parse().unwrap_or(0);
        let padded = if flags.contains('-') {
            format!("{text:<width$}")
        } else if flags.contains('0') && is_number {
            format!("{text:0>width$}")
        } else {
            format!("{text:>width$}")
        };
        out.push_str(&padded);
    }
    out
}

/// Interprets `--printf` backslash escapes.
pub fn unescape(format: &str) -> String {
    let mut out = String::new();
    let mut chars = format.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('\\') => out.push('\\'),
            Some('"') => out.push('"'),
            Some('a') => out.push('\x07'),
            Some('r') => out.push('\r'),
            Some('0') => out.push('\0'),
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}
