//! The format language `stat --format`/`--printf` and `stat -f` share:
//! `%` conversions with flags, width and precision, and `--printf`'s
//! backslash escapes.

use crate::commands::format::{Directive, Field};

/// Expands a whole format string, each `%` conversion through `convert`
/// (letter, precision, `H`/`L` modifier of `%d`), which gives the field or
/// `None` for `?`.
pub fn expand(format: &str, convert: &dyn Fn(char, Option<usize>, Option<char>) -> Option<Field>) -> String {
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
        let mut directive = Directive::scan(&chars, &mut i, "-#0+ '");
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
        let Some(field) = convert(letter, directive.precision, modifier) else {
            out.push('?');
            continue;
        };
        // The time conversions take the precision as their digits of seconds.
        if "XYZ".contains(letter) {
            directive.precision = None;
        }
        directive.write(&field, &mut out);
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
