//! Reading and writing one number for `numfmt`: the human form with an
//! optional scale suffix (`1.5K`, `2Mi`), rounding, and printing scaled to
//! SI or IEC units or unscaled with the input's precision, as GNU numfmt does.
//! All arithmetic is GNU's, step for step, in its `long double`
//! ([`Extended`]), so values round and print as GNU's do to the last digit.

use super::extended::Extended;

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
    fn base(self) -> u64 {
        match self {
            Scale::Iec | Scale::IecI => 1024,
            _ => 1000,
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
#[derive(Debug, Clone, Copy)]
pub struct Parsed {
    /// Its value, scaled by its suffix.
    pub value: Extended,
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

/// The value of decimal digits, accumulated as GNU does: times ten, plus
/// the digit, each step rounded.
fn digits_value(digits: &[u8]) -> Extended {
    let ten = Extended::from_u64(10);
    digits.iter().fold(Extended::ZERO, |value, digit| value.mul(ten).add(Extended::from_u64(u64::from(digit - b'0'))))
}

/// Reads a number with an optional suffix allowed by `scale`.
pub fn parse(text: &[u8], scale: Scale) -> Result<Parsed, ParseError> {
    let (whole, negative, mut end, mut loss) = parse_int(text, 0)?;
    let mut precision = 0;
    let mut value = digits_value(whole);
    if negative {
        value = value.neg();
    }
    if text.get(end) == Some(&b'.') {
        let start = end + 1;
        let (fraction, fraction_negative, fraction_end, fraction_loss) = parse_int(text, start)?;
        loss |= fraction_loss;
        if fraction_negative {
            return Err(ParseError::Invalid);
        }
        precision = fraction_end - start;
        let part = digits_value(fraction).div(Extended::power(10, precision as u32));
        value = if negative { value.sub(part) } else { value.add(part) };
        end = fraction_end;
    }
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
            base = 1024;
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
    if exponent > 0 {
        value = value.mul(Extended::power(base, exponent));
    }
    Ok(Parsed { value, precision, end, precision_loss: loss })
}

/// How many times `value` divides by `base` before it is below it, and
/// what is left (GNU's `expld`).
pub fn exponent_of(mut value: Extended, base: u64) -> (Extended, u32) {
    let divisor = Extended::from_u64(base);
    let mut count = 0;
    while !value.abs().less(divisor) {
        count += 1;
        value = value.div(divisor);
    }
    (value, count)
}

/// `ceil` into an integer, as GNU's `simple_round_ceiling`.
fn ceiling(value: Extended) -> i64 {
    let whole = value.trunc_i64();
    if Extended::from_i64(whole).less(value) {
        whole.wrapping_add(1)
    } else {
        whole
    }
}

fn round_int(value: Extended, method: Round) -> i64 {
    let floor = |v: Extended| ceiling(v.neg()).wrapping_neg();
    let negative = value.less(Extended::ZERO);
    match method {
        Round::Ceiling => ceiling(value),
        Round::Floor => floor(value),
        Round::FromZero if negative => floor(value),
        Round::FromZero => ceiling(value),
        Round::ToZero => value.trunc_i64(),
        Round::Nearest => {
            let half = Extended::from_u64(1).div(Extended::from_u64(2));
            if negative {
                value.sub(half).trunc_i64()
            } else {
                value.add(half).trunc_i64()
            }
        }
    }
}

/// Rounds to an integer as GNU's `simple_round` does: in slices of
/// `i64::MAX`, the rest through a conversion to `intmax_t`.
pub fn round(value: Extended, method: Round) -> Extended {
    let slice = Extended::from_i64(i64::MAX);
    let multiple = slice.mul(Extended::from_i64(value.div(slice).trunc_i64()));
    let rest = value.sub(multiple);
    multiple.add(Extended::from_i64(round_int(rest, method)))
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

fn fixed(value: Extended, precision: usize, zero_width: usize) -> String {
    let text = value.fixed(precision);
    let (sign, digits) = match text.strip_prefix('-') {
        Some(digits) => ("-", digits),
        None => ("", text.as_str()),
    };
    let fill = zero_width.saturating_sub(sign.len() + digits.len());
    format!("{sign}{}{digits}", "0".repeat(fill))
}

/// Rounds `value` to `digits` decimal places as GNU does: times `10^digits`,
/// rounded to an integer, divided back.
fn round_places(value: Extended, digits: usize, method: Round) -> Extended {
    let scale = Extended::power(10, digits as u32);
    round(value.mul(scale), method).div(scale)
}

/// Formats `value` (read with `precision` fraction digits) as GNU's
/// `double_to_human` does.
pub fn to_human(value: Extended, precision: usize, style: &Style) -> String {
    if style.scale == Scale::None {
        return fixed(round_places(value, precision, style.round), precision, style.zero_width);
    }
    let base = style.scale.base();
    let (mut value, mut power_of) = exponent_of(value, base);
    let adjust = match style.user_precision {
        Some(user) => (power_of as usize * 3).min(user),
        None => usize::from(value.abs().less(Extended::from_u64(10))),
    };
    value = round_places(value, adjust, style.round);
    if !value.abs().less(Extended::from_u64(base)) {
        value = value.div(Extended::from_u64(base));
        power_of += 1;
    }
    let show_point = !value.is_zero() && value.abs().less(Extended::from_u64(10)) && power_of > 0;
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
        assert_eq!(parse(b"1.5K", Scale::Si).map(|p| p.value.to_f64()), Ok(1500.0));
        assert_eq!(parse(b"2Ki", Scale::Auto).map(|p| p.value.to_f64()), Ok(2048.0));
        assert_eq!(parse(b"1K", Scale::None).err(), Some(ParseError::ForbiddenSuffix));
        assert_eq!(parse(b"1", Scale::IecI).err(), Some(ParseError::MissingI));
        let style = Style { scale: Scale::Si, round: Round::FromZero, user_precision: None, zero_width: 0 };
        assert_eq!(to_human(Extended::from_u64(1500), 0, &style), "1.5K");
        assert_eq!(to_human(Extended::from_u64(999_999), 0, &style), "1.0M");
        let three = Style { user_precision: Some(3), ..style };
        assert_eq!(to_human(Extended::from_u64(1023), 0, &three), "1.024K");
    }
}
