//! C `printf` formatting of one floating-point value (`%f`, `%e`, `%g` and
//! their capitals, with flags, width and precision), as `seq -f` uses it.

/// One parsed `%` conversion of a floating-point format.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FloatSpec {
    /// `-`: left-justify.
    pub left: bool,
    /// `+`: always a sign.
    pub plus: bool,
    /// ` `: a space for positive numbers.
    pub space: bool,
    /// `0`: pad with zeros.
    pub zero: bool,
    /// `#`: keep the point (and `%g`'s zeros).
    pub alternate: bool,
    /// Minimum width.
    pub width: usize,
    /// Precision (6 when absent).
    pub precision: Option<usize>,
    /// The conversion letter.
    pub conversion: char,
}

/// Splits `format` into the text before its one conversion, the
/// conversion, and the text after (`%%` becomes `%`). The error is seq's message.
pub fn parse_format(format: &str) -> Result<(String, FloatSpec, String), String> {
    let chars: Vec<char> = format.chars().collect();
    let mut prefix = String::new();
    let mut suffix = String::new();
    let mut spec = None;
    let mut index = 0;
    while let Some(&c) = chars.get(index) {
        index += 1;
        let target = if spec.is_some() { &mut suffix } else { &mut prefix };
        if c != '%' {
            target.push(c);
            continue;
        }
        if chars.get(index) == Some(&'%') {
            target.push('%');
            index += 1;
            continue;
        }
        if spec.is_some() {
            return Err(format!("format '{format}' has too many % directives"));
        }
        let mut parsed = FloatSpec::default();
        while let Some(&flag) = chars.get(index) {
            match flag {
                '-' => parsed.left = true,
                '+' => parsed.plus = true,
                ' ' => parsed.space = true,
                '0' => parsed.zero = true,
                '#' => parsed.alternate = true,
                '\'' => {}
                _ => break,
            }
            index += 1;
        }
        while let Some(digit) = chars.get(index).and_then(|c| c.to_digit(10)) {
            parsed.width = parsed.width * 10 + digit as usize;
            index += 1;
        }
        if chars.get(index) == Some(&'.') {
            index += 1;
            let mut precision = 0;
            while let Some(digit) = chars.get(index).and_then(|c| c.to_digit(10)) {
                precision = precision * 10 + digit as usize;
                index += 1;
            }
            parsed.precision = Some(precision);
        }
        while matches!(chars.get(index), Some('L') | Some('l') | Some('h')) {
            index += 1;
        }
        match chars.get(index) {
            Some(&conversion @ ('f' | 'F' | 'e' | 'E' | 'g' | 'G' | 'a' | 'A')) => {
                parsed.conversion = conversion;
                index += 1;
                spec = Some(parsed);
            }
            Some(&other) => return Err(format!("format '{format}' has unknown %{other} directive")),
            None => return Err(format!("format '{format}' ends in %")),
        }
    }
    match spec {
        Some(spec) => Ok((prefix, spec, suffix)),
        None => Err(format!("format '{format}' has no % directive")),
    }
}

/// `d.ddde±XX` with `precision` digits after the point.
fn exponential(value: f64, precision: usize, upper: bool) -> String {
    let text = format!("{value:.precision$e}");
    let (mantissa, exponent) = text.split_once('e').unwrap_or((&text, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    let sign = if exponent < 0 { '-' } else { '+' };
    let e = if upper { 'E' } else { 'e' };
    format!("{mantissa}{e}{sign}{:02}", exponent.abs())
}

fn strip_zeros(text: &str) -> String {
    if !text.contains('.') {
        return text.to_string();
    }
    let (number, exponent) = match text.find(['e', 'E']) {
        Some(at) => (text.get(..at).unwrap_or(text), text.get(at..).unwrap_or("")),
        None => (text, ""),
    };
    let trimmed = number.trim_end_matches('0').trim_end_matches('.');
    format!("{trimmed}{exponent}")
}

/// Formats `value` by `spec` as C's `printf` does.
pub fn format_float(value: f64, spec: &FloatSpec) -> String {
    let upper = spec.conversion.is_ascii_uppercase();
    let precision = spec.precision.unwrap_or(6);
    let body = if value.is_nan() {
        if upper {
            "NAN".to_string()
        } else {
            "nan".to_string()
        }
    } else if value.is_infinite() {
        if upper {
            "INF".to_string()
        } else {
            "inf".to_string()
        }
    } else {
        let magnitude = value.abs();
        match spec.conversion.to_ascii_lowercase() {
            'f' => format!("{magnitude:.precision$}"),
            'e' => exponential(magnitude, precision, upper),
            _ => {
                let significant = if precision == 0 { 1 } else { precision };
                let exponent = if magnitude == 0.0 {
                    0
                } else {
                    let text = exponential(magnitude, significant - 1, false);
                    text.split_once('e').and_then(|(_, e)| e.parse::<i32>().ok()).unwrap_or(0)
                };
                let text = if exponent < -4 || exponent >= significant as i32 {
                    exponential(magnitude, significant - 1, upper)
                } else {
                    let decimals = (significant as i32 - 1 - exponent).max(0) as usize;
                    format!("{magnitude:.decimals$}")
                };
                if spec.alternate {
                    text
                } else {
                    strip_zeros(&text)
                }
            }
        }
    };
    let negative = value.is_sign_negative() && !value.is_nan() && !(value == 0.0 && body.chars().all(|c| c == '0' || c == '.'));
    let sign = if negative || (value.is_sign_negative() && value == 0.0) {
        "-"
    } else if spec.plus {
        "+"
    } else if spec.space {
        " "
    } else {
        ""
    };
    let length = sign.len() + body.len();
    let fill = spec.width.saturating_sub(length);
    if spec.left {
        format!("{sign}{body}{}", " ".repeat(fill))
    } else if spec.zero && value.is_finite() {
        format!("{sign}{}{body}", "0".repeat(fill))
    } else {
        format!("{}{sign}{body}", " ".repeat(fill))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(format: &str, value: f64) -> String {
        let (prefix, spec, suffix) = parse_format(format).unwrap();
        format!("{prefix}{}{suffix}", format_float(value, &spec))
    }

    #[test]
    fn matches_c_printf() {
        assert_eq!(show("%g", 1.5), "1.5");
        assert_eq!(show("%g", 2.0), "2");
        assert_eq!(show("%5.1f|", 1.0), "  1.0|");
        assert_eq!(show("%-5g|", 1.0), "1    |");
        assert_eq!(show("%+g", 1.0), "+1");
        assert_eq!(show("a%%b%g", 1.0), "a%b1");
        assert_eq!(show("%G", 1e10), "1E+10");
        assert_eq!(show("%g", 1e6), "1e+06");
        assert_eq!(show("%g", 123456789.0), "1.23457e+08");
        assert_eq!(show("%.3e", 12345.0), "1.234e+04");
        assert_eq!(show("%03g", 1.0), "001");
        assert_eq!(show("%e", 1.0), "1.000000e+00");
        assert_eq!(show("%g", 0.0001), "0.0001");
        assert_eq!(show("%g", 0.00001), "1e-05");
    }

    #[test]
    fn rejects_bad_formats() {
        assert_eq!(parse_format("nofmt").unwrap_err(), "format 'nofmt' has no % directive");
        assert_eq!(parse_format("%g %g").unwrap_err(), "format '%g %g' has too many % directives");
        assert_eq!(parse_format("%d").unwrap_err(), "format '%d' has unknown %d directive");
    }
}
