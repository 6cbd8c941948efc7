//! Reading and writing one number for `numfmt`: the human form with an
//! optional scale suffix (`1.5K`, `2Mi`), rounding, and printing scaled to
//! SI or IEC units or unscaled with the input's precision, as GNU numfmt does.

/// A unit system of `--from`/`--to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scale {
    /// No scaling; a suffix is an error.
    None,
    /// `--from=auto`: `K` is 1000, `Ki` 1024.
    Auto,
    /// Powers of 1000.
    Si,
    /// Powers of 1024, one-letter suffixes.
    Iec,
    /// Powers of 1024, suffixes ending in `i`.
    IecI,
}

impl Scale {
    fn base(self) -> f64 {
        match self {
            Scale::Iec | Scale::IecI => 1024.0,
            _ => 1000.0,
        }
    }
}

/// A `--round` method.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Round {
    /// `up`.
    Ceiling,
    /// `down`.
    Floor,
    /// `from-zero` (the default).
    FromZero,
    /// `towards-zero`.
    ToZero,
    /// `nearest`.
    Nearest,
}

/// Why a number could not be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParseError {
    /// More than 27 digits.
    Overflow,
    /// No digits.
    Invalid,
    /// A suffix while `--from` is none.
    ForbiddenSuffix,
    /// A letter that is not a scale suffix.
    InvalidSuffix,
    /// `--from=iec-i` without the `i`.
    MissingI,
}

impl ParseError {
    /// GNU's message, given the quoted input.
    pub fn message(self, quoted: &str) -> String {
        match self {
            ParseError::Overflow => format!("value too large to be converted: {quoted}"),
            ParseError::Invalid => format!("invalid number: {quoted}"),
            ParseError::ForbiddenSuffix => format!("rejecting suffix in input: {quoted} (consider using --from)"),
            ParseError::InvalidSuffix => format!("invalid suffix in input: {quoted}"),
            ParseError::MissingI => format!("missing 'i' suffix in input: {quoted} (e.g Ki/Mi/Gi)"),
        }
    }
}

/// A number read from the input.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Parsed {
    /// Its value, scaled by its suffix.
    pub value: f64,
    /// The digits after its decimal point.
    pub precision: usize,
    /// How many bytes of the text it used.
    pub end: usize,
    /// More than 18 significant digits were given.
    pub precision_loss: bool,
}

const MAX_UNSCALED_DIGITS: u32 = 18;
const MAX_ACCEPTABLE_DIGITS: u32 = 27;
const SUFFIXES: &[u8] = b"KMGTPEZY";

/// Reads `-?DIGITS`; `Ok((digits, negative, end, loss))`.
fn parse_int(text: &[u8], start: usize) -> Result<(&[u8], bool, usize, bool), ParseError> {
    let mut at = start;
    let negative = text.get(at) == Some(&b'-');
    if negative {
        at += 1;
    }
    let first = at;
    let mut digits = 0;
    let mut loss = false;
    while let Some(&byte) = text.get(at).filter(|b| b.is_ascii_digit()) {
        if digits > 0 || byte != b'0' {
            digits += 1;
        }
        if digits > MAX_UNSCALED_DIGITS {
            loss = true;
        }
        if digits > MAX_ACCEPTABLE_DIGITS {
            return Err(ParseError::Overflow);
        }
        at += 1;
    }
    if at == first && text.get(at) != Some(&b'.') {
        return Err(ParseError::Invalid);
    }
    Ok((text.get(first..at).unwrap_or(&[]), negative, at, loss))
}

/// Reads a number with an optional suffix allowed by `scale`.
pub fn parse(text: &[u8], scale: Scale) -> Result<Parsed, ParseError> {
    let (whole, negative, mut end, mut loss) = parse_int(text, 0)?;
    let mut precision = 0;
    let mut decimal = String::from_utf8_lossy(whole).into_owned();
    decimal.insert(0, '0');
    if text.get(end) == Some(&b'.') {
        let start = end + 1;
        let (fraction, fraction_negative, fraction_end, fraction_loss) = parse_int(text, start)?;
        loss |= fraction_loss;
        if fraction_negative {
            return Err(ParseError::Invalid);
        }
        precision = fraction_end - start;
        decimal.push('.');
        decimal.push_str(&String::from_utf8_lossy(fraction));
        end = fraction_end;
    }
    let magnitude: f64 = decimal.parse().unwrap_or(0.0);
    let value = if negative { -magnitude } else { magnitude };
    let mut base = scale.base();
    let mut exponent = 0;
    if end < text.len() {
        while matches!(text.get(end), Some(b' ' | b'\t')) {
            end += 1;
        }
        let Some(&letter) = text.get(end).filter(|b| SUFFIXES.contains(b)) else {
            return Err(ParseError::InvalidSuffix);
        };
        if scale == Scale::None {
            return Err(ParseError::ForbiddenSuffix);
        }
        exponent = SUFFIXES.iter().position(|b| *b == letter).unwrap_or(0) as u32 + 1;
        end += 1;
        if scale == Scale::Auto && text.get(end) == Some(&b'i') {
            base = 1024.0;
            end += 1;
        }
        precision = 0;
    }
    if scale == Scale::IecI {
        if text.get(end) == Some(&b'i') {
            end += 1;
        } else {
            return Err(ParseError::MissingI);
        }
    }
    Ok(Parsed { value: value * power(base, exponent), precision, end, precision_loss: loss })
}

/// `base` to the power `exponent`.
pub fn power(base: f64, exponent: u32) -> f64 {
    (0..exponent).fold(1.0, |acc, _| acc * base)
}

/// How many times `value` divides by `base` before it is below it.
pub fn exponent_of(mut value: f64, base: f64) -> (f64, u32) {
    let mut count = 0;
    if value.is_finite() {
        while value.abs() >= base {
            count += 1;
            value /= base;
        }
    }
    (value, count)
}

fn round_int(value: f64, method: Round) -> f64 {
    let ceiling = |v: f64| {
        let t = v.trunc();
        if t < v {
            t + 1.0
        } else {
            t
        }
    };
    let floor = |v: f64| -ceiling(-v);
    match method {
        Round::Ceiling => ceiling(value),
        Round::Floor => floor(value),
        Round::FromZero => {
            if value < 0.0 {
                floor(value)
            } else {
                ceiling(value)
            }
        }
        Round::ToZero => value.trunc(),
        Round::Nearest => {
            if value < 0.0 {
                (value - 0.5).trunc()
            } else {
                (value + 0.5).trunc()
            }
        }
    }
}

/// Rounds to an integer as GNU does, in slices of `i64::MAX` for huge values.
pub fn round(value: f64, method: Round) -> f64 {
    // From 2^52 on every f64 is an integer already.
    if !value.is_finite() || value.abs() >= 4_503_599_627_370_496.0 {
        return value;
    }
    let slice = i64::MAX as f64;
    let multiple = (value / slice).trunc();
    let rest = value - slice * multiple;
    slice * multiple + round_int(rest, method)
}

/// How a value is printed.
#[derive(Debug, Clone)]
pub struct Style {
    /// The `--to` scale.
    pub scale: Scale,
    /// The `--round` method.
    pub round: Round,
    /// The precision from `--format`'s `.N`.
    pub user_precision: Option<usize>,
    /// The width of `--format`'s `%0Nf`.
    pub zero_width: usize,
}

fn fixed(value: f64, precision: usize, zero_width: usize) -> String {
    let text = format!("{:.*}", precision, value.abs());
    let sign = if value.is_sign_negative() { "-" } else { "" };
    let fill = zero_width.saturating_sub(sign.len() + text.len());
    format!("{sign}{}{text}", "0".repeat(fill))
}

/// Formats `value` (read with `precision` fraction digits) as GNU's
/// `double_to_human` does.
pub fn to_human(value: f64, precision: usize, style: &Style) -> String {
    if style.scale == Scale::None {
        let scale = power(10.0, precision as u32);
        let rounded = round(value * scale, style.round) / scale;
        return fixed(rounded, precision, style.zero_width);
    }
    let base = style.scale.base();
    let (mut value, mut power_of) = exponent_of(value, base);
    let adjust = match style.user_precision {
        Some(user) => (power_of as usize * 3).min(user),
        None => usize::from(value.abs() < 10.0),
    };
    let scale = power(10.0, adjust as u32);
    value = round(value * scale, style.round) / scale;
    if value.abs() >= base {
        value /= base;
        power_of += 1;
    }
    let show_point = value != 0.0 && value.abs() < 10.0 && power_of > 0;
    let digits = style.user_precision.unwrap_or(usize::from(show_point));
    let letter = match power_of {
        0 => "",
        n => match SUFFIXES.get(n as usize - 1) {
            Some(b'K') => "K",
            Some(b'M') => "M",
            Some(b'G') => "G",
            Some(b'T') => "T",
            Some(b'P') => "P",
            Some(b'E') => "E",
            Some(b'Z') => "Z",
            Some(b'Y') => "Y",
            _ => "(error)",
        },
    };
    let mut text = fixed(value, digits, style.zero_width);
    text.push_str(letter);
    if style.scale == Scale::IecI && power_of > 0 {
        text.push('i');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_writes() {
        assert_eq!(parse(b"1.5K", Scale::Si).map(|p| p.value), Ok(1500.0));
        assert_eq!(parse(b"2Ki", Scale::Auto).map(|p| p.value), Ok(2048.0));
        assert_eq!(parse(b"1K", Scale::None), Err(ParseError::ForbiddenSuffix));
        assert_eq!(parse(b"1", Scale::IecI), Err(ParseError::MissingI));
        let style = Style { scale: Scale::Si, round: Round::FromZero, user_precision: None, zero_width: 0 };
        assert_eq!(to_human(1500.0, 0, &style), "1.5K");
        assert_eq!(to_human(999_999.0, 0, &style), "1.0M");
    }
}
