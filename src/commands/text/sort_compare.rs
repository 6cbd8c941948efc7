//! The orderings of `sort`: numeric (`-n`), general numeric (`-g`), human
//! sizes (`-h`), months (`-M`), versions (`-V`, GNU's `filevercmp`),
//! random (`-R`), and byte order with `-d`, `-i`, `-f`.

use crate::commands::text::sort_key::is_blank;
use std::cmp::Ordering;
use std::hash::{Hash, Hasher};

/// Skips leading blanks.
fn skip_blanks(text: &[u8]) -> &[u8] {
    let start = text.iter().position(|b| !is_blank(*b)).unwrap_or(text.len());
    text.get(start..).unwrap_or(&[])
}

/// A decimal number as `-n` reads it: sign, integer digits without leading
/// zeros, fraction digits without trailing zeros.
struct Decimal<'a> {
    negative: bool,
    integer: &'a [u8],
    fraction: &'a [u8],
}

/// Reads the number at the start of `text` (after blanks); no digits is zero.
fn decimal(text: &[u8]) -> (Decimal<'_>, &[u8]) {
    let text = skip_blanks(text);
    let (negative, body) = match text.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, text),
    };
    let integer_end = body.iter().position(|b| !b.is_ascii_digit()).unwrap_or(body.len());
    let integer = body.get(..integer_end).unwrap_or(&[]);
    let mut rest = body.get(integer_end..).unwrap_or(&[]);
    let mut fraction: &[u8] = &[];
    if let Some((b'.', after)) = rest.split_first() {
        let end = after.iter().position(|b| !b.is_ascii_digit()).unwrap_or(after.len());
        fraction = after.get(..end).unwrap_or(&[]);
        rest = after.get(end..).unwrap_or(&[]);
    }
    let integer = integer.get(integer.iter().position(|b| *b != b'0').unwrap_or(integer.len())..).unwrap_or(&[]);
    let fraction = fraction.get(..fraction.iter().rposition(|b| *b != b'0').map_or(0, |p| p + 1)).unwrap_or(&[]);
    let negative = negative && !(integer.is_empty() && fraction.is_empty());
    (Decimal { negative, integer, fraction }, rest)
}

/// Compares magnitudes of two decimals.
fn compare_magnitude(a: &Decimal<'_>, b: &Decimal<'_>) -> Ordering {
    a.integer.len().cmp(&b.integer.len()).then_with(|| a.integer.cmp(b.integer)).then_with(|| a.fraction.cmp(b.fraction))
}

/// `-n`: compares the leading numbers; text without one counts as zero.
pub fn numeric(a: &[u8], b: &[u8]) -> Ordering {
    let (a, _) = decimal(a);
    let (b, _) = decimal(b);
    match (a.negative, b.negative) {
        (false, true) => Ordering::Greater,
        (true, false) => Ordering::Less,
        (false, false) => compare_magnitude(&a, &b),
        (true, true) => compare_magnitude(&b, &a),
    }
}

/// A `-n` key's value as a fixed-point integer with 18 fraction digits,
/// when its digits fit; ordering these equals [`numeric`]'s ordering.
pub fn numeric_fixed(text: &[u8]) -> Option<i128> {
    let (number, _) = decimal(text);
    if number.integer.len() > 18 || number.fraction.len() > 18 {
        return None;
    }
    let mut value: i128 = 0;
    for digit in number.integer {
        value = value * 10 + i128::from(digit - b'0');
    }
    for index in 0..18 {
        let digit = number.fraction.get(index).map_or(0, |d| d - b'0');
        value = value * 10 + i128::from(digit);
    }
    Some(if number.negative { -value } else { value })
}

/// The power of a human size suffix (`K` 1, `M` 2... `Q` 10), 0 for none.
fn unit_order(byte: Option<&u8>) -> i32 {
    match byte {
        Some(b'K' | b'k') => 1,
        Some(b'M') => 2,
        Some(b'G') => 3,
        Some(b'T') => 4,
        Some(b'P') => 5,
        Some(b'E') => 6,
        Some(b'Z') => 7,
        Some(b'Y') => 8,
        Some(b'R') => 9,
        Some(b'Q') => 10,
        _ => 0,
    }
}

/// `-h`: compares the suffix first (`2K` < `1M`), then the number.
pub fn human(a: &[u8], b: &[u8]) -> Ordering {
    let order = |text: &[u8]| {
        let (number, rest) = decimal(text);
        if number.integer.is_empty() && number.fraction.is_empty() {
            return 0;
        }
        let order = unit_order(rest.first());
        if number.negative {
            -order
        } else {
            order
        }
    };
    order(a).cmp(&order(b)).then_with(|| numeric(a, b))
}

/// Reads a floating-point number at the start of `text` as `strtod` would:
/// `None` when there is none.
fn strtod(text: &[u8]) -> Option<f64> {
    let text = text.get(text.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(text.len())..).unwrap_or(&[]);
    let (sign, body) = match text.split_first() {
        Some((b'-', rest)) => (-1.0, rest),
        Some((b'+', rest)) => (1.0, rest),
        _ => (1.0, text),
    };
    let lower: Vec<u8> = body.iter().take(8).map(u8::to_ascii_lowercase).collect();
    if lower.starts_with(b"inf") {
        return Some(sign * f64::INFINITY);
    }
    if lower.starts_with(b"nan") {
        return Some(f64::NAN);
    }
    if lower.starts_with(b"0x") {
        let digits = body.get(2..).unwrap_or(&[]);
        let end = digits.iter().position(|b| !b.is_ascii_hexdigit()).unwrap_or(digits.len());
        if end > 0 {
            let value =
                digits.get(..end).unwrap_or(&[]).iter().fold(0.0, |acc, d| acc * 16.0 + f64::from((*d as char).to_digit(16).unwrap_or(0)));
            return Some(sign * value);
        }
    }
    let mut end = body.iter().position(|b| !b.is_ascii_digit()).unwrap_or(body.len());
    let mut digits = end;
    if body.get(end) == Some(&b'.') {
        let fraction = body.get(end + 1..).unwrap_or(&[]);
        let fraction_end = fraction.iter().position(|b| !b.is_ascii_digit()).unwrap_or(fraction.len());
        digits += fraction_end;
        end += 1 + fraction_end;
    }
    if digits == 0 {
        return None;
    }
    if matches!(body.get(end), Some(b'e' | b'E')) {
        let mut exponent_end = end + 1;
        if matches!(body.get(exponent_end), Some(b'+' | b'-')) {
            exponent_end += 1;
        }
        let exponent_digits = body.get(exponent_end..).unwrap_or(&[]).iter().take_while(|b| b.is_ascii_digit()).count();
        if exponent_digits > 0 {
            end = exponent_end + exponent_digits;
        }
    }
    let text = std::str::from_utf8(body.get(..end).unwrap_or(&[])).ok()?;
    text.parse::<f64>().ok().map(|value| sign * value)
}

/// `-g`: compares as floating point; non-numbers first, then NaN, then numbers.
pub fn general(a: &[u8], b: &[u8]) -> Ordering {
    match (strtod(a), strtod(b)) {
        (None, None) => Ordering::Equal,
        (None, Some(_)) => Ordering::Less,
        (Some(_), None) => Ordering::Greater,
        (Some(x), Some(y)) => match (x.is_nan(), y.is_nan()) {
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Less,
            (false, true) => Ordering::Greater,
            (false, false) => x.partial_cmp(&y).unwrap_or(Ordering::Equal),
        },
    }
}

/// `-M`: 1 to 12 for a month abbreviation after blanks, 0 otherwise.
fn month_number(text: &[u8]) -> usize {
    const MONTHS: [&[u8]; 12] = [b"JAN", b"FEB", b"MAR", b"APR", b"MAY", b"JUN", b"JUL", b"AUG", b"SEP", b"OCT", b"NOV", b"DEC"];
    let text = skip_blanks(text);
    let head: Vec<u8> = text.iter().take(3).map(u8::to_ascii_uppercase).collect();
    MONTHS.iter().position(|m| *m == head.as_slice()).map_or(0, |i| i + 1)
}

/// `-M`: compares month names.
pub fn month(a: &[u8], b: &[u8]) -> Ordering {
    month_number(a).cmp(&month_number(b))
}

/// The weight of a byte in a version's non-digit part.
fn version_order(text: &[u8], position: usize) -> i32 {
    match text.get(position) {
        None => -1,
        Some(c) if c.is_ascii_digit() => 0,
        Some(c) if c.is_ascii_alphabetic() => i32::from(*c),
        Some(b'~') => -2,
        Some(c) => i32::from(*c) + 256,
    }
}

/// Compares two versions without the special cases for dots and suffixes.
fn version_parts(a: &[u8], b: &[u8]) -> Ordering {
    let (mut i, mut j) = (0, 0);
    let digit = |text: &[u8], at: usize| text.get(at).is_some_and(u8::is_ascii_digit);
    while i < a.len() || j < b.len() {
        while (i < a.len() && !digit(a, i)) || (j < b.len() && !digit(b, j)) {
            let (x, y) = (version_order(a, i), version_order(b, j));
            if x != y {
                return x.cmp(&y);
            }
            i += 1;
            j += 1;
        }
        while a.get(i) == Some(&b'0') {
            i += 1;
        }
        while b.get(j) == Some(&b'0') {
            j += 1;
        }
        let mut first_difference = Ordering::Equal;
        while digit(a, i) && digit(b, j) {
            if first_difference == Ordering::Equal {
                first_difference = a[i].cmp(&b[j]);
            }
            i += 1;
            j += 1;
        }
        if digit(a, i) {
            return Ordering::Greater;
        }
        if digit(b, j) {
            return Ordering::Less;
        }
        if first_difference != Ordering::Equal {
            return first_difference;
        }
    }
    Ordering::Equal
}

/// The length of a file name without its suffix (`.tar.gz`, `.txt`).
fn without_suffix(text: &[u8]) -> usize {
    let mut prefix = 0;
    let mut i = 0;
    while i < text.len() {
        i += 1;
        prefix = i;
        while i + 1 < text.len() && text[i] == b'.' && (text[i + 1].is_ascii_alphabetic() || text[i + 1] == b'~') {
            i += 2;
            while i < text.len() && (text[i].is_ascii_alphanumeric() || text[i] == b'~') {
                i += 1;
            }
        }
    }
    prefix
}

/// `-V`: GNU's `filevercmp`.
pub fn version(a: &[u8], b: &[u8]) -> Ordering {
    if a == b {
        return Ordering::Equal;
    }
    match (a.is_empty(), b.is_empty()) {
        (true, _) => return Ordering::Less,
        (_, true) => return Ordering::Greater,
        _ => {}
    }
    match (a.first() == Some(&b'.'), b.first() == Some(&b'.')) {
        (true, false) => return Ordering::Less,
        (false, true) => return Ordering::Greater,
        (true, true) => {
            for special in [&b"."[..], &b".."[..]] {
                match (a == special, b == special) {
                    (true, _) => return Ordering::Less,
                    (_, true) => return Ordering::Greater,
                    _ => {}
                }
            }
        }
        _ => {}
    }
    let (a_prefix, b_prefix) = (without_suffix(a), without_suffix(b));
    let result = version_parts(a.get(..a_prefix).unwrap_or(a), b.get(..b_prefix).unwrap_or(b));
    if result != Ordering::Equal || (a_prefix == a.len() && b_prefix == b.len()) {
        return result;
    }
    version_parts(a, b)
}

/// `-R`: compares seeded hashes, so equal keys stay together.
pub fn random(seed: u64, a: &[u8], b: &[u8]) -> Ordering {
    let hash = |text: &[u8]| {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        seed.hash(&mut hasher);
        text.hash(&mut hasher);
        hasher.finish()
    };
    hash(a).cmp(&hash(b))
}

/// Byte order, skipping bytes `-d`/`-i` ignore and folding with `-f`.
pub fn text(a: &[u8], b: &[u8], dictionary: bool, printable: bool, fold: bool) -> Ordering {
    if !dictionary && !printable && !fold {
        return a.cmp(b);
    }
    let keep = |byte: &&u8| {
        let byte = **byte;
        (!dictionary || byte.is_ascii_alphanumeric() || is_blank(byte)) && (!printable || (0x20..0x7f).contains(&byte))
    };
    let map = |byte: &u8| if fold { byte.to_ascii_uppercase() } else { *byte };
    a.iter().filter(keep).map(map).cmp(b.iter().filter(keep).map(map))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(mut list: Vec<&str>, compare: fn(&[u8], &[u8]) -> Ordering) -> Vec<&str> {
        list.sort_by(|a, b| compare(a.as_bytes(), b.as_bytes()));
        list
    }

    #[test]
    fn orderings() {
        assert_eq!(sorted(vec!["10", "9", "-1", "abc", "1.5", "-0"], numeric), vec!["-1", "abc", "-0", "1.5", "9", "10"]);
        assert_eq!(sorted(vec!["1K", "2M", "-1G", "0", "1", "1k"], human), vec!["-1G", "0", "1", "1K", "1k", "2M"]);
        assert_eq!(
            sorted(vec!["x", "-1", "1e3", "nan", "inf", "-inf", "0x10", " 5"], general),
            vec!["x", "nan", "-inf", "-1", " 5", "0x10", "1e3", "inf"]
        );
        assert_eq!(sorted(vec!["FEB", "jan", "foo", "  mar", "December"], month), vec!["foo", "jan", "FEB", "  mar", "December"]);
        let versions = vec!["1.0~rc1", "1.0", "1.0a", "1.0.1", ".a", "..", ".", "a.tar.gz", "a.tar", "a10", "a9", "b~", "b"];
        assert_eq!(
            sorted(versions, version),
            vec![".", "..", ".a", "1.0~rc1", "1.0", "1.0a", "1.0.1", "a.tar", "a.tar.gz", "a9", "a10", "b~", "b"]
        );
    }
}
