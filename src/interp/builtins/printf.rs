//! `printf [-v var] format [arguments]`: bash's printf with format reuse,
//! every conversion (`%s %b %q %d %i %u %o %x %X %e %E %f %F %g %G %c
//! %(fmt)T %%`), flags, `*` widths, and bash's `invalid number` warnings.

use super::{words, Arg};
use crate::expand::escapes::{decode, EscapeStyle};
use crate::expand::quote_for_reuse;
use crate::host::LocalFuture;
use crate::interp::{Outcome, Shell};

/// `printf`.
pub fn printf(shell: &mut Shell, args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        let mut args = words(&args);
        args.remove(0);
        let mut target: Option<String> = None;
        while let Some(first) = args.first() {
            if first == "-v" {
                if args.len() < 2 {
                    shell.builtin_error("printf", "-v: option requires an argument").await;
                    shell.out_usage_printf().await;
                    return Ok(2);
                }
                target = Some(args[1].clone());
                args.drain(..2);
            } else if first == "--" {
                args.remove(0);
                break;
            } else if first.starts_with('-') && first.len() > 1 && target.is_none() && !first.starts_with("--") && first != "-" {
                shell.builtin_error("printf", &format!("{}: invalid option", &first[..2])).await;
                shell.out_usage_printf().await;
                return Ok(2);
            } else {
                break;
            }
        }
        let Some(format) = args.first().cloned() else {
            shell.out_usage_printf().await;
            return Ok(2);
        };
        if let Some(name) = target.as_deref().filter(|name| !valid_target(name)) {
            shell.builtin_error("printf", &format!("`{name}': not a valid identifier")).await;
            return Ok(2);
        }
        let mut formatter =
            Formatter { args: &args[1..], next: 0, errors: Vec::new(), now_seconds: (shell.host.now_millis() / 1000.0).floor() as i64 };
        let mut out = Vec::new();
        loop {
            let consumed_before = formatter.next;
            match formatter.run(&format, &mut out) {
                Ok(stop) => {
                    if stop {
                        break;
                    }
                }
                Err(message) => {
                    for error in std::mem::take(&mut formatter.errors) {
                        shell.builtin_error("printf", &error).await;
                    }
                    shell.builtin_error("printf", &message).await;
                    shell.emit_printf(&target, &out).await?;
                    return Ok(1);
                }
            }
            if formatter.next >= formatter.args.len() || formatter.next == consumed_before {
                break;
            }
        }
        let status = if formatter.errors.iter().all(|e| e.starts_with("warning: ")) { 0 } else { 1 };
        for error in std::mem::take(&mut formatter.errors) {
            shell.builtin_error("printf", &error).await;
        }
        shell.emit_printf(&target, &out).await?;
        Ok(status)
    })
}

impl Shell {
    async fn out_usage_printf(&mut self) {
        let _ = self.write_fd(2, b"printf: usage: printf [-v var] format [arguments]\n").await;
    }

    async fn emit_printf(&mut self, target: &Option<String>, out: &[u8]) -> Result<(), crate::interp::Flow> {
        match target {
            Some(name) => {
                let value = String::from_utf8_lossy(out).into_owned();
                if let Err(message) = self.assign_name(name, value).await {
                    self.builtin_error("printf", &message).await;
                }
                Ok(())
            }
            None => self.out(out).await,
        }
    }
}

struct Formatter<'a> {
    args: &'a [String],
    next: usize,
    errors: Vec<String>,
    now_seconds: i64,
}

#[derive(Default, Clone)]
struct Spec {
    minus: bool,
    plus: bool,
    space: bool,
    hash: bool,
    zero: bool,
    width: Option<usize>,
    precision: Option<usize>,
}

impl Formatter<'_> {
    fn take_arg(&mut self) -> Option<&str> {
        let arg = self.args.get(self.next).map(String::as_str);
        if arg.is_some() {
            self.next += 1;
        }
        arg
    }

    /// Runs the format once. `Ok(true)` when `\c` or `%b`'s `\c` stops all output.
    fn run(&mut self, format: &str, out: &mut Vec<u8>) -> Result<bool, String> {
        let chars: Vec<char> = format.chars().collect();
        let mut index = 0;
        while index < chars.len() {
            let c = chars[index];
            if c == '\\' {
                let rest: String = chars[index..].iter().collect();
                let (bytes, consumed, stop) = format_escape(&rest);
                out.extend_from_slice(&bytes);
                if stop {
                    return Ok(true);
                }
                index += consumed;
                continue;
            }
            if c != '%' {
                let mut buffer = [0u8; 4];
                out.extend_from_slice(c.encode_utf8(&mut buffer).as_bytes());
                index += 1;
                continue;
            }
            index += 1;
            if chars.get(index) == Some(&'%') {
                out.push(b'%');
                index += 1;
                continue;
            }
            let mut spec = Spec::default();
            while let Some(&flag) = chars.get(index) {
                match flag {
                    '-' => spec.minus = true,
                    '+' => spec.plus = true,
                    ' ' => spec.space = true,
                    '#' => spec.hash = true,
                    '0' => spec.zero = true,
                    '\'' => {}
                    _ => break,
                }
                index += 1;
            }
            if chars.get(index) == Some(&'*') {
                index += 1;
                let value = self.take_arg().map(|s| s.to_string()).unwrap_or_default();
                let width = self.parse_integer(&value);
                if width < 0 {
                    spec.minus = true;
                }
                spec.width = Some(width.unsigned_abs() as usize);
            } else {
                let start = index;
                while chars.get(index).is_some_and(|c| c.is_ascii_digit()) {
                    index += 1;
                }
                if index > start {
                    spec.width = chars[start..index].iter().collect::<String>().parse().ok();
                }
            }
            if chars.get(index) == Some(&'.') {
                index += 1;
                if chars.get(index) == Some(&'*') {
                    index += 1;
                    let value = self.take_arg().map(|s| s.to_string()).unwrap_or_default();
                    spec.precision = Some(self.parse_integer(&value).max(0) as usize);
                } else {
                    let start = index;
                    while chars.get(index).is_some_and(|c| c.is_ascii_digit()) {
                        index += 1;
                    }
                    spec.precision = Some(chars[start..index].iter().collect::<String>().parse().unwrap_or(0));
                }
            }
            while matches!(chars.get(index), Some('l') | Some('h') | Some('L') | Some('j') | Some('z') | Some('t')) {
                index += 1;
            }
            let Some(&conversion) = chars.get(index) else {
                return Err("`%': missing format character".to_string());
            };
            index += 1;
            match conversion {
                's' => {
                    // Bash counts width and precision in bytes, even in UTF-8.
                    let arg = self.take_arg().unwrap_or("").as_bytes();
                    let text = match spec.precision {
                        Some(p) => &arg[..p.min(arg.len())],
                        None => arg,
                    };
                    pad(out, text, &spec, false);
                }
                'b' => {
                    let arg = self.take_arg().unwrap_or("").to_string();
                    let decoded = decode(&arg, EscapeStyle::PrintfB);
                    let mut bytes = decoded.bytes;
                    if let Some(p) = spec.precision {
                        bytes.truncate(p);
                    }
                    pad(out, &bytes, &spec, false);
                    if decoded.stop {
                        return Ok(true);
                    }
                }
                'q' => {
                    let arg = self.take_arg().unwrap_or("").to_string();
                    pad(out, shell_quote(&arg).as_bytes(), &spec, false);
                }
                'c' => {
                    let arg = self.take_arg().unwrap_or("");
                    // bash 5.2 takes the first byte, even of a multibyte
                    // character; an empty argument gives its terminating NUL.
                    let first = arg.as_bytes().first().copied().unwrap_or(0);
                    pad(out, &[first], &spec, false);
                }
                'd' | 'i' => {
                    let value = match self.take_arg().map(|s| s.to_string()) {
                        Some(arg) => self.parse_integer(&arg),
                        None => 0,
                    };
                    format_signed(out, value, &spec);
                }
                'u' | 'o' | 'x' | 'X' => {
                    let value = match self.take_arg().map(|s| s.to_string()) {
                        Some(arg) => self.parse_unsigned(&arg),
                        None => 0,
                    };
                    format_unsigned(out, value, conversion, &spec);
                }
                'e' | 'E' | 'f' | 'F' | 'g' | 'G' | 'a' | 'A' => {
                    let value = match self.take_arg().map(|s| s.to_string()) {
                        Some(arg) => self.parse_float(&arg),
                        None => 0.0,
                    };
                    let text = format_float(value, conversion, &spec);
                    pad(out, text.as_bytes(), &spec, true);
                }
                '(' => {
                    let rest: String = chars[index - 1..].iter().collect();
                    let Some(close) = rest.find(")T") else {
                        return Err("`(': invalid format character".to_string());
                    };
                    let time_format = &rest[1..close];
                    index += close + 1;
                    let seconds = match self.take_arg() {
                        None => self.now_seconds,
                        Some(arg) => {
                            let arg = arg.to_string();
                            match arg.as_str() {
                                "" | "-1" => self.now_seconds,
                                "-2" => self.now_seconds,
                                _ => self.parse_integer(&arg),
                            }
                        }
                    };
                    let text = crate::calendar::strftime(seconds as f64 * 1000.0, time_format, &crate::calendar::Zone::utc());
                    // Bash formats into a 128-byte buffer; a longer result is empty.
                    let text = if text.len() >= 128 { String::new() } else { text };
                    let text = match spec.precision {
                        Some(p) => &text.as_bytes()[..p.min(text.len())],
                        None => text.as_bytes(),
                    };
                    pad(out, text, &spec, false);
                }
                other => return Err(format!("`{other}': invalid format character")),
            }
        }
        Ok(false)
    }

    /// An argument of `%d`: out-of-range values clamp to the i64 range
    /// with bash's warning (strtoimax).
    fn parse_integer(&mut self, text: &str) -> i64 {
        let (negative, magnitude) = self.parse_magnitude(text);
        let limit = if negative { i64::MIN.unsigned_abs() as u128 } else { i64::MAX as u128 };
        if magnitude > limit {
            self.errors.push(format!("warning: {text}: Numerical result out of range"));
            return if negative { i64::MIN } else { i64::MAX };
        }
        let value = magnitude as i128;
        (if negative { -value } else { value }) as i64
    }

    /// An argument of `%u %o %x %X`: a negative value wraps, a magnitude
    /// past u64 clamps to its maximum with a warning (strtoumax).
    fn parse_unsigned(&mut self, text: &str) -> u64 {
        let (negative, magnitude) = self.parse_magnitude(text);
        if magnitude > u64::MAX as u128 {
            self.errors.push(format!("warning: {text}: Numerical result out of range"));
            return u64::MAX;
        }
        let value = magnitude as u64;
        if negative {
            value.wrapping_neg()
        } else {
            value
        }
    }

    /// The sign and magnitude of a numeric argument (decimal, `0` octal,
    /// `0x` hex, `'c` character code); trailing junk is an invalid number.
    fn parse_magnitude(&mut self, text: &str) -> (bool, u128) {
        let trimmed = text.trim_start();
        if let Some(rest) = trimmed.strip_prefix('\'').or_else(|| trimmed.strip_prefix('"')) {
            return (false, rest.chars().next().map(|c| c as u128).unwrap_or(0));
        }
        let (negative, digits) = match trimmed.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, trimmed.strip_prefix('+').unwrap_or(trimmed)),
        };
        let (radix, body) = if let Some(hex) = digits.strip_prefix("0x").or_else(|| digits.strip_prefix("0X")) {
            (16, hex)
        } else if digits.len() > 1 && digits.starts_with('0') {
            (8, &digits[1..])
        } else {
            (10, digits)
        };
        let valid: Vec<u32> = body.chars().map_while(|c| c.to_digit(radix)).collect();
        let magnitude = valid.iter().fold(0u128, |acc, &d| acc.saturating_mul(radix as u128).saturating_add(d as u128));
        // Only an empty argument is 0 without complaint; blanks alone are not.
        if text.is_empty() {
            return (false, 0);
        }
        if valid.len() != body.chars().count() || (body.is_empty() && radix == 10) {
            self.errors.push(invalid_number(text));
        }
        (negative, magnitude)
    }

    /// A floating-point argument read as C's `strtold` reads it: leading
    /// blanks, decimal or `0x` hex (with a `p` exponent), `inf` and `nan`;
    /// an empty argument is 0, trailing junk an invalid number.
    fn parse_float(&mut self, text: &str) -> f64 {
        if text.is_empty() {
            return 0.0;
        }
        let trimmed = text.trim_start();
        if let Some(rest) = trimmed.strip_prefix('\'').or_else(|| trimmed.strip_prefix('"')) {
            return rest.chars().next().map(|c| c as u32 as f64).unwrap_or(0.0);
        }
        let (value, used) = strtod_prefix(trimmed);
        if used == 0 || used < trimmed.len() {
            self.errors.push(invalid_number(text));
        }
        value
    }
}

/// Bash's complaint about a numeric argument with junk: it names octal and
/// hex by the argument's first two characters.
fn invalid_number(text: &str) -> String {
    let bytes = text.as_bytes();
    let kind = match (bytes.first(), bytes.get(1)) {
        (Some(b'0'), Some(c)) if c.is_ascii_digit() => "invalid octal number",
        (Some(b'0'), Some(b'x')) => "invalid hex number",
        _ => "invalid number",
    };
    format!("{text}: {kind}")
}

/// The longest prefix of `text` that `strtod` reads, and its value.
fn strtod_prefix(text: &str) -> (f64, usize) {
    let bytes = text.as_bytes();
    let mut index = 0;
    let negative = match bytes.first() {
        Some(b'-') => {
            index = 1;
            true
        }
        Some(b'+') => {
            index = 1;
            false
        }
        _ => false,
    };
    let sign = if negative { -1.0 } else { 1.0 };
    let rest = &text[index..];
    let lower = rest.get(..8.min(rest.len())).unwrap_or("").to_ascii_lowercase();
    if lower.starts_with("infinity") {
        return (sign * f64::INFINITY, index + 8);
    }
    if lower.starts_with("inf") {
        return (sign * f64::INFINITY, index + 3);
    }
    if lower.starts_with("nan") {
        return (f64::NAN, index + 3);
    }
    if (lower.starts_with("0x")) && rest.as_bytes().get(2).is_some_and(|c| c.is_ascii_hexdigit() || *c == b'.') {
        let (value, used) = hex_float(&rest[2..]);
        if used > 0 {
            return (sign * value, index + 2 + used);
        }
    }
    // Decimal: digits, an optional fraction, an optional exponent.
    let start = index;
    let digits = |from: usize| bytes[from..].iter().take_while(|c| c.is_ascii_digit()).count();
    let whole = digits(index);
    index += whole;
    let mut fraction = 0;
    if bytes.get(index) == Some(&b'.') {
        fraction = digits(index + 1);
        if whole + fraction > 0 {
            index += 1 + fraction;
        }
    }
    if whole + fraction == 0 {
        return (0.0, 0);
    }
    if matches!(bytes.get(index), Some(b'e' | b'E')) {
        let mut at = index + 1;
        if matches!(bytes.get(at), Some(b'+' | b'-')) {
            at += 1;
        }
        let exponent = digits(at);
        if exponent > 0 {
            index = at + exponent;
        }
    }
    (text[start..index].parse::<f64>().map(|v| sign * v).unwrap_or(0.0), index)
}

/// A hex float's value after its `0x`: digits, an optional fraction and an
/// optional binary exponent `p[+-]N`; and how many bytes it used.
fn hex_float(text: &str) -> (f64, usize) {
    let bytes = text.as_bytes();
    let mut value = 0.0f64;
    let mut index = 0;
    let mut any = false;
    while let Some(digit) = bytes.get(index).and_then(|c| (*c as char).to_digit(16)) {
        value = value * 16.0 + digit as f64;
        index += 1;
        any = true;
    }
    if bytes.get(index) == Some(&b'.') {
        let mut scale = 1.0 / 16.0;
        let mut at = index + 1;
        while let Some(digit) = bytes.get(at).and_then(|c| (*c as char).to_digit(16)) {
            value += digit as f64 * scale;
            scale /= 16.0;
            at += 1;
            any = true;
        }
        if any {
            index = at;
        }
    }
    if !any {
        return (0.0, 0);
    }
    if matches!(bytes.get(index), Some(b'p' | b'P')) {
        let mut at = index + 1;
        let negative = bytes.get(at) == Some(&b'-');
        if matches!(bytes.get(at), Some(b'+' | b'-')) {
            at += 1;
        }
        let count = bytes[at.min(bytes.len())..].iter().take_while(|c| c.is_ascii_digit()).count();
        if count > 0 {
            let exponent: i32 = text[at..at + count].parse().unwrap_or(i32::MAX);
            value *= 2f64.powi(if negative { -exponent } else { exponent });
            index = at + count;
        }
    }
    (value, index)
}

/// A `-v` target: a name, or `name[subscript]`.
fn valid_target(name: &str) -> bool {
    let is_name = super::super::variables::is_valid_name;
    match name.split_once('[') {
        None => is_name(name),
        Some((base, rest)) => is_name(base) && rest.len() > 1 && rest.ends_with(']'),
    }
}

/// Decodes one escape at the start of `text`: bytes, characters consumed, and `\c`.
fn format_escape(text: &str) -> (Vec<u8>, usize, bool) {
    let chars: Vec<char> = text.chars().take(10).collect();
    match chars.get(1) {
        None => (b"\\".to_vec(), 1, false),
        Some('c') => (Vec::new(), 2, true),
        Some(&c) if matches!(c, 'x' | 'u' | 'U') || c.is_digit(8) => {
            let max = match c {
                'x' => 2,
                'u' => 4,
                'U' => 8,
                _ => 3,
            };
            let radix = if c.is_digit(8) { 8 } else { 16 };
            let start = if c.is_digit(8) { 1 } else { 2 };
            let digits: String = chars.iter().skip(start).take(max).take_while(|d| d.is_digit(radix)).collect();
            if digits.is_empty() {
                return (format!("\\{c}").into_bytes(), 2, false);
            }
            let value = u32::from_str_radix(&digits, radix).unwrap_or(0);
            let bytes = if c == 'u' || c == 'U' {
                char::from_u32(value).map(|ch| ch.to_string().into_bytes()).unwrap_or_default()
            } else {
                vec![value as u8]
            };
            (bytes, start + digits.len(), false)
        }
        Some(_) => {
            let two: String = chars[..2].iter().collect();
            let decoded = decode(&two, EscapeStyle::AnsiC);
            (decoded.bytes, 2, false)
        }
    }
}

/// `%q`: backslash-quoting as bash's printf does (or `$'...'` for control characters).
pub fn shell_quote(text: &str) -> String {
    if text.is_empty() {
        return "''".to_string();
    }
    if text.chars().any(|c| c.is_control()) {
        return quote_for_reuse(text);
    }
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        let special = matches!(
            c,
            ' ' | '\''
                | '"'
                | '\\'
                | '$'
                | '`'
                | '!'
                | '&'
                | '|'
                | ';'
                | '('
                | ')'
                | '<'
                | '>'
                | '*'
                | '?'
                | '['
                | ']'
                | '{'
                | '}'
                | '^'
                | ','
        ) || (matches!(c, '~' | '#') && i == 0);
        if special {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fn pad(out: &mut Vec<u8>, text: &[u8], spec: &Spec, numeric: bool) {
    let len = text.len();
    let width = spec.width.unwrap_or(0);
    if len >= width {
        out.extend_from_slice(text);
        return;
    }
    let fill = width - len;
    if spec.minus {
        out.extend_from_slice(text);
        out.extend(std::iter::repeat_n(b' ', fill));
    } else if spec.zero && numeric {
        let (sign, digits) = match text.first() {
            Some(b'-') | Some(b'+') | Some(b' ') => (&text[..1], &text[1..]),
            _ => (&text[..0], text),
        };
        out.extend_from_slice(sign);
        out.extend(std::iter::repeat_n(b'0', fill));
        out.extend_from_slice(digits);
    } else {
        out.extend(std::iter::repeat_n(b' ', fill));
        out.extend_from_slice(text);
    }
}

fn format_signed(out: &mut Vec<u8>, value: i64, spec: &Spec) {
    let mut digits = value.unsigned_abs().to_string();
    if let Some(p) = spec.precision {
        if digits.len() < p {
            digits = format!("{}{digits}", "0".repeat(p - digits.len()));
        }
        if p == 0 && value == 0 {
            digits.clear();
        }
    }
    let sign = if value < 0 {
        "-"
    } else if spec.plus {
        "+"
    } else if spec.space {
        " "
    } else {
        ""
    };
    let text = format!("{sign}{digits}");
    let mut spec = spec.clone();
    if spec.precision.is_some() {
        spec.zero = false;
    }
    pad(out, text.as_bytes(), &spec, true);
}

fn format_unsigned(out: &mut Vec<u8>, value: u64, conversion: char, spec: &Spec) {
    let mut digits = match conversion {
        'o' => format!("{value:o}"),
        'x' => format!("{value:x}"),
        'X' => format!("{value:X}"),
        _ => value.to_string(),
    };
    if let Some(p) = spec.precision {
        if digits.len() < p {
            digits = format!("{}{digits}", "0".repeat(p - digits.len()));
        }
    }
    if spec.hash && value != 0 {
        digits = match conversion {
            'o' if !digits.starts_with('0') => format!("0{digits}"),
            'x' => format!("0x{digits}"),
            'X' => format!("0X{digits}"),
            _ => digits,
        };
    }
    let mut spec = spec.clone();
    if spec.precision.is_some() {
        spec.zero = false;
    }
    pad(out, digits.as_bytes(), &spec, true);
}

/// C's `%e`, `%f`, `%g` for one value.
fn format_float(value: f64, conversion: char, spec: &Spec) -> String {
    let precision = spec.precision.unwrap_or(6);
    let upper = conversion.is_ascii_uppercase();
    let sign = if value.is_sign_negative() {
        "-"
    } else if spec.plus {
        "+"
    } else if spec.space {
        " "
    } else {
        ""
    };
    let magnitude = value.abs();
    let body = if magnitude.is_infinite() {
        "inf".to_string()
    } else if magnitude.is_nan() {
        "nan".to_string()
    } else {
        match conversion.to_ascii_lowercase() {
            // `#` keeps the point even with no digits after it.
            'f' if spec.hash && precision == 0 => format!("{magnitude:.0}."),
            'f' => format!("{magnitude:.precision$}"),
            'e' if spec.hash && precision == 0 => exponent_form(magnitude, 0).replacen('e', ".e", 1),
            'e' => exponent_form(magnitude, precision),
            'a' => format!("{magnitude}"),
            _ => {
                let p = if precision == 0 { 1 } else { precision };
                let exponent = if magnitude == 0.0 { 0 } else { magnitude.log10().floor() as i32 };
                let rounded_exponent = {
                    let text = exponent_form(magnitude, p - 1);
                    text.rsplit('e').next().and_then(|e| e.parse::<i32>().ok()).unwrap_or(exponent)
                };
                let mut text = if rounded_exponent < -4 || rounded_exponent >= p as i32 {
                    exponent_form(magnitude, p - 1)
                } else {
                    let decimals = (p as i32 - 1 - rounded_exponent).max(0) as usize;
                    format!("{magnitude:.decimals$}")
                };
                if !spec.hash {
                    text = strip_trailing_zeros(&text);
                } else if !text.contains('.') {
                    text = match text.find('e') {
                        Some(at) => format!("{}.{}", &text[..at], &text[at..]),
                        None => format!("{text}."),
                    };
                }
                text
            }
        }
    };
    let body = if upper { body.to_uppercase() } else { body };
    format!("{sign}{body}")
}

fn exponent_form(value: f64, precision: usize) -> String {
    let text = format!("{value:.precision$e}");
    let (mantissa, exponent) = text.split_once('e').unwrap_or((&text, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    let sign = if exponent < 0 { '-' } else { '+' };
    format!("{mantissa}e{sign}{:02}", exponent.abs())
}

fn strip_trailing_zeros(text: &str) -> String {
    let (mantissa, exponent) = match text.find('e') {
        Some(i) => (&text[..i], &text[i..]),
        None => (text, ""),
    };
    let mantissa = if mantissa.contains('.') { mantissa.trim_end_matches('0').trim_end_matches('.') } else { mantissa };
    format!("{mantissa}{exponent}")
}
