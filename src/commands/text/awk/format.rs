//! `printf`/`sprintf` formatting as gawk does it: flags, width and
//! precision (also `*`), and every conversion (`d i o x X u c s e E f F g
//! G a A %`), with gawk's text for infinities and NaN and its fallback to
//! `%g` for values out of an integer conversion's range.

use super::value::{integer_text, is_integral, special_number, Str, Value};

/// A formatting failure (gawk's fatal message).
pub struct FormatError(pub String);

/// Formats `args` by `format`; `to_str` turns a value into its string
/// (CONVFMT).
pub fn sprintf(format: &[u8], args: &[Value], to_str: &dyn Fn(&Value) -> Str) -> Result<Vec<u8>, FormatError> {
    use std::io::Write;
    let mut out = Vec::with_capacity(format.len() + 16);
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
        let c = format[i];
        if c != b'%' {
            let start = i;
            while i < format.len() && format[i] != b'%' {
                i += 1;
            }
            out.extend_from_slice(&format[start..i]);
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
        match conv {
            b's' => {
                let text = to_str(arg);
                let shown = match spec.precision {
                    Some(p) => prefix_chars(&text, p),
                    None => &text,
                };
                pad(&mut out, shown, &spec, false);
            }
            b'c' => {
                let text = match arg {
                    Value::Num(n) => char_of(*n),
                    Value::Uninit => vec![0],
                    other => {
                        let s = to_str(other);
                        prefix_chars(&s, 1).to_vec()
                    }
                };
                pad(&mut out, &text, &spec, false);
            }
            b'd' | b'i' => {
                let n = arg.num();
                if let Some(text) = special_number(n) {
                    pad(&mut out, text.as_bytes(), &spec, false);
                    continue;
                }
                let n = n.trunc();
                if n.abs() < 1e18 && spec.width == 0 && spec.precision.is_none() && !spec.plus && !spec.space {
                    let _ = write!(out, "{}", n as i64);
                    continue;
                }
                let digits = integer_text(n.abs());
                integer(&mut out, &digits, n < 0.0, &spec, b"");
            }
            b'o' | b'x' | b'X' | b'u' => {
                let n = arg.num();
                if !n.is_finite() || n.abs() >= 18446744073709551616.0 {
                    let text = format_float(n, b'g', &Spec { precision: None, ..spec.clone() });
                    pad(&mut out, &text, &spec, true);
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
                integer(&mut out, &digits, false, &spec, prefix);
            }
            _ => {
                let n = arg.num();
                if conv == b'f' && n.is_finite() && !spec.plus && !spec.space && !spec.alt && !spec.zero {
                    let precision = spec.precision.unwrap_or(6);
                    if spec.width == 0 {
                        let _ = write!(out, "{n:.precision$}");
                    } else {
                        let mut text = Vec::with_capacity(24);
                        let _ = write!(text, "{n:.precision$}");
                        pad(&mut out, &text, &spec, true);
                    }
                    continue;
                }
                let text = format_float(n, conv, &spec);
                pad(&mut out, &text, &spec, true);
            }
        }
    }
    Ok(out)
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

fn char_of(n: f64) -> Vec<u8> {
    let code = if n.is_finite() && n >= 0.0 { n as u32 } else { 0 };
    if code < 128 {
        return vec![code as u8];
    }
    match char::from_u32(code) {
        Some(c) => c.to_string().into_bytes(),
        None => vec![(code & 0xff) as u8],
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

fn pad(out: &mut Vec<u8>, text: &[u8], spec: &Spec, numeric: bool) {
    let len = super::text::char_count(text);
    if len >= spec.width {
        out.extend_from_slice(text);
        return;
    }
    let fill = spec.width - len;
    if spec.left {
        out.extend_from_slice(text);
        out.extend(std::iter::repeat_n(b' ', fill));
    } else if spec.zero && numeric && text.last().is_some_and(u8::is_ascii_digit) {
        let sign = usize::from(matches!(text.first(), Some(b'-' | b'+' | b' ')));
        let prefix = if text.get(sign..sign + 2).is_some_and(|p| p.eq_ignore_ascii_case(b"0x")) { sign + 2 } else { sign };
        out.extend_from_slice(&text[..prefix]);
        out.extend(std::iter::repeat_n(b'0', fill));
        out.extend_from_slice(&text[prefix..]);
    } else {
        out.extend(std::iter::repeat_n(b' ', fill));
        out.extend_from_slice(text);
    }
}

fn integer(out: &mut Vec<u8>, digits: &str, negative: bool, spec: &Spec, prefix: &[u8]) {
    let mut body = String::new();
    if let Some(p) = spec.precision {
        if p == 0 && digits == "0" {
            body.clear();
        } else {
            for _ in digits.len()..p {
                body.push('0');
            }
            body.push_str(digits);
        }
    } else {
        body.push_str(digits);
    }
    let sign = if negative {
        "-"
    } else if spec.plus {
        "+"
    } else if spec.space {
        " "
    } else {
        ""
    };
    let mut text = Vec::new();
    text.extend_from_slice(sign.as_bytes());
    text.extend_from_slice(prefix);
    let zero = spec.zero && spec.precision.is_none() && !spec.left;
    if zero {
        let used = sign.len() + prefix.len() + body.len();
        for _ in used..spec.width {
            text.push(b'0');
        }
    }
    text.extend_from_slice(body.as_bytes());
    pad(out, &text, &Spec { zero: false, ..spec.clone() }, false);
}

/// Formats a float by a `%e %f %g %a` conversion (with sign flags, no width).
pub fn format_float(n: f64, conv: u8, spec: &Spec) -> Vec<u8> {
    let upper = conv.is_ascii_uppercase();
    if !n.is_finite() {
        let text = if n.is_nan() {
            if n.is_sign_negative() {
                "-nan"
            } else {
                "+nan"
            }
        } else if n < 0.0 {
            "-inf"
        } else {
            "+inf"
        };
        let text = if upper { text.to_uppercase() } else { text.to_string() };
        return text.into_bytes();
    }
    let negative = n.is_sign_negative() && n != 0.0 || (n == 0.0 && n.is_sign_negative());
    let a = n.abs();
    let precision = spec.precision.unwrap_or(6);
    let body = match conv.to_ascii_lowercase() {
        b'f' => format!("{a:.precision$}"),
        b'e' => exp_form(a, precision),
        b'a' => hex_float(a, spec.precision),
        _ => general(a, precision, spec.alt),
    };
    let mut body = if upper { body.to_uppercase() } else { body };
    if spec.alt && precision == 0 && matches!(conv.to_ascii_lowercase(), b'f' | b'e') && !body.contains('.') {
        match body.find(['e', 'E']) {
            Some(at) => body.insert(at, '.'),
            None => body.push('.'),
        }
    }
    let sign = if negative {
        "-"
    } else if spec.plus {
        "+"
    } else if spec.space {
        " "
    } else {
        ""
    };
    format!("{sign}{body}").into_bytes()
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
