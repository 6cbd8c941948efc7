//! `printf`/`sprintf` formatting as gawk does it: flags, width and
//! precision (also `*`), and every conversion (`d i o x X u c s e E f F g
//! G a A %`), with gawk's text for infinities and NaN and its fallback to
//! `%g` for values out of an integer conversion's range.

use super::value::{integer_text, is_integral, special_number, Str, Value};
use crate::commands::format::Digits;

/// A formatting failure (gawk's fatal message).
pub struct FormatError(pub String);

/// Formats `args` by `format`; `to_str` turns a value into its string
/// (CONVFMT).
pub fn sprintf(format: &[u8], args: &[Value], to_str: &dyn Fn(&Value) -> Str) -> Result<Vec<u8>, FormatError> {
    let mut out = Vec::with_capacity(format.len() + 16);
    sprintf_into(&mut out, format, args, to_str)?;
    Ok(out)
}

/// Appends `args` formatted by `format` to `out` (on an error, `out` is
/// left as it was). Each conversion is written in place at the end of
/// `out` and padded there, so formatting allocates nothing of its own
/// (a `%s` of a number converts it by CONVFMT first).
pub fn sprintf_into(out: &mut Vec<u8>, format: &[u8], args: &[Value], to_str: &dyn Fn(&Value) -> Str) -> Result<(), FormatError> {
    let before = out.len();
    let result = format_into(out, format, args, to_str);
    if result.is_err() {
        out.truncate(before);
    }
    result
}

fn format_into(out: &mut Vec<u8>, format: &[u8], args: &[Value], to_str: &dyn Fn(&Value) -> Str) -> Result<(), FormatError> {
    let mut next = 0usize;
    let mut i = 0;
    let ran_out = |at: usize| {
        let text = String::from_utf8_lossy(format);
        FormatError(format!(
            "not enough arguments to satisfy format string\n\t`{text}'\n\t{}^ ran out for this one",
            " ".repeat(at.min(format.len()))
        ))
    };
    while i < format.len() {
        if format[i] != b'%' {
            let end = memchr::memchr(b'%', &format[i..]).map_or(format.len(), |at| i + at);
            out.extend_from_slice(&format[i..end]);
            i = end;
            continue;
        }
        let spec_start = i;
        i += 1;
        let mut spec = Spec::default();
        while let Some(&flag) = format.get(i) {
            match flag {
                b'-' => spec.left = true,
                b'+' => spec.plus = true,
                b' ' => spec.space = true,
                b'#' => spec.alt = true,
                b'0' => spec.zero = true,
                b'\'' => {}
                _ => break,
            }
            i += 1;
        }
        if format.get(i) == Some(&b'*') {
            i += 1;
            let value = args.get(next).ok_or_else(|| ran_out(i - 1))?.num();
            next += 1;
            if value < 0.0 {
                spec.left = true;
            }
            spec.width = value.abs().min(1e6) as usize;
        } else {
            while let Some(d) = format.get(i).filter(|d| d.is_ascii_digit()) {
                spec.width = (spec.width * 10 + usize::from(d - b'0')).min(1_000_000);
                i += 1;
            }
        }
        if format.get(i) == Some(&b'.') {
            i += 1;
            let mut precision = 0usize;
            if format.get(i) == Some(&b'*') {
                i += 1;
                let value = args.get(next).ok_or_else(|| ran_out(i - 1))?.num();
                next += 1;
                spec.precision = if value < 0.0 { None } else { Some(value.min(1e6) as usize) };
            } else {
                while let Some(d) = format.get(i).filter(|d| d.is_ascii_digit()) {
                    precision = (precision * 10 + usize::from(d - b'0')).min(1_000_000);
                    i += 1;
                }
                spec.precision = Some(precision);
            }
        }
        while matches!(format.get(i), Some(b'h' | b'l' | b'L' | b'q' | b'j' | b'z' | b't'))
            && format.get(i + 1).is_some_and(|c| b"diouxXeEfFgGaAcs".contains(c))
        {
            i += 1;
        }
        let Some(&conv) = format.get(i) else {
            out.extend_from_slice(&format[spec_start..]);
            break;
        };
        i += 1;
        if conv == b'%' {
            out.push(b'%');
            continue;
        }
        if !b"diouxXeEfFgGaAcs".contains(&conv) {
            out.extend_from_slice(&format[spec_start..i]);
            continue;
        }
        let arg = args.get(next).ok_or_else(|| ran_out(i - 1))?;
        next += 1;
        let start = out.len();
        match conv {
            b's' => {
                let converted;
                let text: &[u8] = match arg {
                    Value::Str(s) | Value::StrNum(s) | Value::Regex(s) => s,
                    Value::Uninit => b"",
                    Value::Num(_) => {
                        converted = to_str(arg);
                        &converted
                    }
                };
                let shown = match spec.precision {
                    Some(p) => prefix_chars(text, p),
                    None => text,
                };
                out.extend_from_slice(shown);
                pad(out, start, &spec, false);
            }
            b'c' => {
                match arg {
                    Value::Num(n) => push_char(out, *n),
                    Value::Uninit => out.push(0),
                    Value::Str(s) | Value::StrNum(s) | Value::Regex(s) => out.extend_from_slice(prefix_chars(s, 1)),
                }
                pad(out, start, &spec, false);
            }
            b'd' | b'i' => {
                let n = arg.num();
                if let Some(text) = special_number(n) {
                    out.extend_from_slice(text.as_bytes());
                    pad(out, start, &spec, false);
                    continue;
                }
                let n = n.trunc();
                let mut buffer = Digits::default();
                let wide;
                let digits = if n.abs() < 1e18 {
                    buffer.decimal(n.abs() as u64)
                } else {
                    wide = format!("{:.0}", n.abs());
                    wide.as_bytes()
                };
                integer(out, digits, n < 0.0, &spec, b"");
            }
            b'o' | b'x' | b'X' | b'u' => {
                let n = arg.num();
                if !n.is_finite() || n.abs() >= 18446744073709551616.0 {
                    format_float_into(out, n, b'g', &Spec { precision: None, ..spec.clone() });
                    pad(out, start, &spec, true);
                    continue;
                }
                let n = n.trunc();
                let bits = if n < 0.0 { (n as i64) as u64 } else { n as u64 };
                let (digits, prefix): (String, &[u8]) = match conv {
                    b'o' => (format!("{bits:o}"), b""),
                    b'x' => (format!("{bits:x}"), if spec.alt && bits != 0 { b"0x" } else { b"" }),
                    b'X' => (format!("{bits:X}"), if spec.alt && bits != 0 { b"0X" } else { b"" }),
                    _ => (format!("{bits}"), b""),
                };
                let digits = if conv == b'o' && spec.alt && !digits.starts_with('0') { format!("0{digits}") } else { digits };
                let spec = Spec { plus: false, space: false, ..spec.clone() };
                integer(out, digits.as_bytes(), false, &spec, prefix);
            }
            _ => {
                format_float_into(out, arg.num(), conv, &spec);
                pad(out, start, &spec, true);
            }
        }
    }
    Ok(())
}

/// The parts of one conversion.
#[derive(Default, Clone)]
pub struct Spec {
    left: bool,
    plus: bool,
    space: bool,
    alt: bool,
    zero: bool,
    width: usize,
    precision: Option<usize>,
}

fn push_char(out: &mut Vec<u8>, n: f64) {
    let code = if n.is_finite() && n >= 0.0 { n as u32 } else { 0 };
    if code < 128 {
        out.push(code as u8);
        return;
    }
    match char::from_u32(code) {
        Some(c) => out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
        None => out.push((code & 0xff) as u8),
    }
}

/// The first `n` characters of `s` (invalid bytes count one each).
pub fn prefix_chars(s: &[u8], n: usize) -> &[u8] {
    let mut pos = 0;
    for _ in 0..n {
        if pos >= s.len() {
            break;
        }
        pos += super::text::char_len_at(s, pos);
    }
    s.get(..pos).unwrap_or(s)
}

/// Pads the text at `out[start..]` in place to the conversion's width:
/// spaces after it (`-`), zeros after its sign and `0x` (`0` on a number
/// ending in a digit), or spaces before it.
fn pad(out: &mut Vec<u8>, start: usize, spec: &Spec, numeric: bool) {
    let text = out.get(start..).unwrap_or(&[]);
    let len = super::text::char_count(text);
    if len >= spec.width {
        return;
    }
    let fill = spec.width - len;
    if spec.left {
        push_fill(out, fill, b' ');
        return;
    }
    let (at, byte) = if spec.zero && numeric && text.last().is_some_and(u8::is_ascii_digit) {
        let sign = usize::from(matches!(text.first(), Some(b'-' | b'+' | b' ')));
        let prefix = if text.get(sign..sign + 2).is_some_and(|p| p.eq_ignore_ascii_case(b"0x")) { sign + 2 } else { sign };
        (start + prefix, b'0')
    } else {
        (start, b' ')
    };
    insert_fill(out, at, fill, byte);
}

/// Inserts `count` copies of `byte` at `at`.
fn insert_fill(out: &mut Vec<u8>, at: usize, count: usize, byte: u8) {
    let end = out.len();
    push_fill(out, count, byte);
    out.copy_within(at..end, at + count);
    if let Some(gap) = out.get_mut(at..at + count) {
        gap.fill(byte);
    }
}

/// Appends `count` copies of `byte` (a space or a zero) from a constant
/// run (`Vec::resize` goes byte by byte in the WebAssembly build).
fn push_fill(out: &mut Vec<u8>, mut count: usize, byte: u8) {
    const SPACES: [u8; 32] = [b' '; 32];
    const ZEROS: [u8; 32] = [b'0'; 32];
    let run: &[u8] = if byte == b'0' { &ZEROS } else { &SPACES };
    out.reserve(count);
    while count > 0 {
        let step = count.min(run.len());
        out.extend_from_slice(&run[..step]);
        count -= step;
    }
}

/// An integer conversion's text: sign, `prefix` (`0x`), zeros for the
/// precision or the `0` flag, `digits`, padded to the width.
fn integer(out: &mut Vec<u8>, digits: &[u8], negative: bool, spec: &Spec, prefix: &[u8]) {
    let sign: &[u8] = if negative {
        b"-"
    } else if spec.plus {
        b"+"
    } else if spec.space {
        b" "
    } else {
        b""
    };
    let (digits, precision_zeros) = match spec.precision {
        Some(0) if digits == b"0" => (&b""[..], 0),
        Some(p) => (digits, p.saturating_sub(digits.len())),
        None => (digits, 0),
    };
    let body = precision_zeros + digits.len();
    let zero = spec.zero && spec.precision.is_none() && !spec.left;
    let zero_fill = if zero { spec.width.saturating_sub(sign.len() + prefix.len() + body) } else { 0 };
    let len = sign.len() + prefix.len() + zero_fill + body;
    let spaces = spec.width.saturating_sub(len);
    out.reserve(len + spaces);
    if !spec.left {
        push_fill(out, spaces, b' ');
    }
    out.extend_from_slice(sign);
    out.extend_from_slice(prefix);
    push_fill(out, zero_fill + precision_zeros, b'0');
    out.extend_from_slice(digits);
    if spec.left {
        push_fill(out, spaces, b' ');
    }
}

/// Appends a float by a `%e %f %g %a` conversion (with sign flags and the
/// `#` point, no width).
pub fn format_float_into(out: &mut Vec<u8>, n: f64, conv: u8, spec: &Spec) {
    let upper = conv.is_ascii_uppercase();
    if !n.is_finite() {
        let text: &[u8] = match (n.is_nan(), n.is_sign_negative() && (n.is_nan() || n < 0.0), upper) {
            (true, true, false) => b"-nan",
            (true, false, false) => b"+nan",
            (true, true, true) => b"-NAN",
            (true, false, true) => b"+NAN",
            (false, true, false) => b"-inf",
            (false, false, false) => b"+inf",
            (false, true, true) => b"-INF",
            (false, false, true) => b"+INF",
        };
        out.extend_from_slice(text);
        return;
    }
    let negative = n.is_sign_negative();
    let a = n.abs();
    let precision = spec.precision.unwrap_or(6);
    if negative {
        out.push(b'-');
    } else if spec.plus {
        out.push(b'+');
    } else if spec.space {
        out.push(b' ');
    }
    let kind = conv.to_ascii_lowercase();
    let start = out.len();
    match kind {
        b'f' => fixed_into(out, a, precision),
        b'e' => out.extend_from_slice(exp_form(a, precision).as_bytes()),
        b'a' => out.extend_from_slice(hex_float(a, spec.precision).as_bytes()),
        _ => out.extend_from_slice(general(a, precision, spec.alt).as_bytes()),
    }
    if upper {
        if let Some(body) = out.get_mut(start..) {
            body.make_ascii_uppercase();
        }
    }
    if spec.alt && precision == 0 && matches!(kind, b'f' | b'e') {
        let body = out.get(start..).unwrap_or(&[]);
        if !body.contains(&b'.') {
            match body.iter().position(|c| matches!(c, b'e' | b'E')) {
                Some(at) => out.insert(start + at, b'.'),
                None => out.push(b'.'),
            }
        }
    }
}

/// Appends `a` (finite, not negative) with `precision` digits after the
/// point, rounded exactly (ties to even, as C's `printf`).
fn fixed_into(out: &mut Vec<u8>, a: f64, precision: usize) {
    if let Some(scaled) = scaled_integer(a, precision) {
        let mut buffer = Digits::default();
        let digits = buffer.decimal(scaled);
        let whole = digits.len().saturating_sub(precision);
        if whole == 0 {
            out.push(b'0');
        } else {
            out.extend_from_slice(&digits[..whole]);
        }
        if precision > 0 {
            out.push(b'.');
            push_fill(out, precision.saturating_sub(digits.len()), b'0');
            out.extend_from_slice(&digits[whole..]);
        }
        return;
    }
    use std::io::Write;
    let _ = write!(out, "{a:.precision$}");
}

/// `a * 10^precision` rounded to an integer exactly (ties to even), when
/// the precision is at most 19 and the result fits a `u64`: `a` is
/// `m * 2^e` with an integer `m` below 2^53, so the scaled value is the
/// integer `m * 10^precision` shifted by `e`, done in 128 bits.
fn scaled_integer(a: f64, precision: usize) -> Option<u64> {
    if precision > 19 || !a.is_finite() || a < 0.0 {
        return None;
    }
    if a == 0.0 {
        return Some(0);
    }
    let bits = a.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let fraction = bits & ((1u64 << 52) - 1);
    let (mantissa, exponent) = if biased == 0 { (fraction, -1074) } else { (fraction | (1u64 << 52), biased - 1075) };
    let scale = 10u128.pow(precision as u32);
    let product = u128::from(mantissa) * scale;
    if exponent >= 0 {
        if exponent > 64 {
            return None;
        }
        let shifted = product.checked_shl(exponent as u32)?;
        if shifted >> exponent != product {
            return None;
        }
        return u64::try_from(shifted).ok();
    }
    let shift = exponent.unsigned_abs();
    if shift >= 128 {
        return None;
    }
    let quotient = product >> shift;
    let remainder = product & ((1u128 << shift) - 1);
    let half = 1u128 << (shift - 1);
    let up = remainder > half || (remainder == half && quotient & 1 == 1);
    u64::try_from(quotient + u128::from(up)).ok()
}

fn exp_form(a: f64, precision: usize) -> String {
    let text = format!("{a:.precision$e}");
    let (mantissa, exponent) = text.split_once('e').unwrap_or((&text, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    let sign = if exponent < 0 { '-' } else { '+' };
    format!("{mantissa}e{sign}{:02}", exponent.abs())
}

fn general(a: f64, precision: usize, alt: bool) -> String {
    let p = if precision == 0 { 1 } else { precision };
    if a == 0.0 {
        return match (alt, p) {
            (true, 1) => "0.".into(),
            (true, _) => format!("{:.*}", p - 1, 0.0),
            (false, _) => "0".into(),
        };
    }
    let (digits, exponent) = significant_digits(a, p);
    let (mut mantissa, exp) = if exponent < -4 || exponent >= p as i64 {
        let mut mantissa = digits[..1].to_string();
        if p > 1 || alt {
            mantissa.push('.');
            mantissa.push_str(&digits[1..]);
        }
        let sign = if exponent < 0 { '-' } else { '+' };
        (mantissa, format!("e{sign}{:02}", exponent.abs()))
    } else if exponent >= 0 {
        let whole = (exponent as usize + 1).min(digits.len());
        let mut mantissa = digits[..whole].to_string();
        if whole < digits.len() || alt {
            mantissa.push('.');
            mantissa.push_str(&digits[whole..]);
        }
        (mantissa, String::new())
    } else {
        let zeros = "0".repeat((-exponent - 1) as usize);
        (format!("0.{zeros}{digits}"), String::new())
    };
    if !alt && mantissa.contains('.') {
        let trimmed = mantissa.trim_end_matches('0').trim_end_matches('.').len();
        mantissa.truncate(trimmed);
    }
    mantissa.push_str(&exp);
    mantissa
}

/// `a` (finite, positive) rounded to `p` significant digits: the digits
/// and the decimal exponent of the first. The shortest representation
/// that reads back as `a` is used when it has at most `p` digits (then it
/// is the rounded value, for `p` up to 15); otherwise exact rounding.
fn significant_digits(a: f64, p: usize) -> (String, i64) {
    let split = |text: &str| -> (String, i64) {
        let (mantissa, exponent) = text.split_once('e').unwrap_or((text, "0"));
        (mantissa.chars().filter(char::is_ascii_digit).collect(), exponent.parse().unwrap_or(0))
    };
    if p <= 15 {
        let (mut digits, exponent) = split(&format!("{a:e}"));
        if digits.len() <= p {
            while digits.len() < p {
                digits.push('0');
            }
            return (digits, exponent);
        }
    }
    split(&format!("{:.*e}", p - 1, a))
}

fn hex_float(a: f64, precision: Option<usize>) -> String {
    if a == 0.0 {
        return match precision {
            Some(p) if p > 0 => format!("0x0.{}p+0", "0".repeat(p)),
            _ => "0x0p+0".into(),
        };
    }
    let bits = a.to_bits();
    let mut exponent = ((bits >> 52) & 0x7ff) as i64;
    let mut mantissa = bits & ((1u64 << 52) - 1);
    if exponent == 0 {
        while mantissa & (1u64 << 52) == 0 {
            mantissa <<= 1;
            exponent -= 1;
        }
        mantissa &= (1u64 << 52) - 1;
        exponent += 1;
    }
    let exponent = exponent - 1023;
    let mut digits = format!("{mantissa:013x}");
    match precision {
        Some(p) if p < 13 => digits.truncate(p),
        Some(p) => digits.push_str(&"0".repeat(p - 13)),
        None => {
            let trimmed = digits.trim_end_matches('0').len();
            digits.truncate(trimmed);
        }
    }
    let sign = if exponent < 0 { '-' } else { '+' };
    if digits.is_empty() {
        format!("0x1p{sign}{}", exponent.abs())
    } else {
        format!("0x1.{digits}p{sign}{}", exponent.abs())
    }
}

/// A number as `print` or string conversion writes it: integers as
/// integers, others through `fmt` (OFMT or CONVFMT).
pub fn number_to_string(n: f64, fmt: &[u8]) -> Vec<u8> {
    if is_integral(n) {
        return integer_text(n).into_bytes();
    }
    if let Some(text) = special_number(n) {
        return text.as_bytes().to_vec();
    }
    if fmt == b"%.6g" {
        return general(n.abs(), 6, false).bytes().fold(if n < 0.0 { vec![b'-'] } else { Vec::new() }, |mut v, b| {
            v.push(b);
            v
        });
    }
    sprintf(fmt, &[Value::Num(n)], &|_| Str::default()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixed(a: f64, precision: usize) -> String {
        let mut out = Vec::new();
        fixed_into(&mut out, a, precision);
        String::from_utf8(out).unwrap_or_default()
    }

    #[test]
    fn fixed_rounds_exactly_with_ties_to_even() {
        assert_eq!(fixed(0.125, 2), "0.12");
        assert_eq!(fixed(0.375, 2), "0.38");
        assert_eq!(fixed(2.5, 0), "2");
        assert_eq!(fixed(3.5, 0), "4");
        assert_eq!(fixed(1.005, 2), "1.00");
        assert_eq!(fixed(0.0, 3), "0.000");
        assert_eq!(fixed(9.995, 2), "9.99");
        assert_eq!(fixed(99.999, 2), "100.00");
        assert_eq!(fixed(1e-7, 2), "0.00");
        assert_eq!(fixed(5e-324, 19), "0.0000000000000000000");
        assert_eq!(fixed(1e300, 2).len(), 304);
    }

    #[test]
    fn fixed_agrees_with_exact_formatting() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for i in 0..20_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let a = match i % 4 {
                0 => (state % 100_000_000) as f64 / 1024.0,
                1 => f64::from_bits(state >> 2).abs(),
                2 => (state % 1_000_000) as f64 / 1000.0 + 0.0005,
                _ => (state % 1000) as f64 / 8.0,
            };
            if !a.is_finite() {
                continue;
            }
            for precision in [0, 1, 2, 3, 6, 12, 19] {
                assert_eq!(fixed(a, precision), format!("{a:.precision$}"), "{a:e} with {precision}");
            }
        }
    }

    #[test]
    fn conversions_pad_in_place() {
        let args = [Value::str("ab".as_bytes()), Value::Num(-42.0), Value::Num(3.14159), Value::Num(255.0)];
        let text = sprintf(b"[%-5s|%5s|%06d|%-6d|%+.3d|%8.2f|%-8.1e|%#x|%08.3f]", &[args[0].clone(), args[0].clone(), args[1].clone(), args[1].clone(), args[3].clone(), args[2].clone(), args[2].clone(), args[3].clone(), args[2].clone()], &|_| Str::default());
        let text = text.map(|t| String::from_utf8_lossy(&t).into_owned()).unwrap_or_default();
        assert_eq!(text, "[ab   |   ab|-00042|-42   |+255|    3.14|3.1e+00 |0xff|0003.142]");
    }

    #[test]
    fn a_failed_format_leaves_the_buffer() {
        let mut out = b"kept".to_vec();
        let result = sprintf_into(&mut out, b"%d and %d", &[Value::Num(1.0)], &|_| Str::default());
        assert!(result.is_err());
        assert_eq!(out, b"kept");
    }
}
