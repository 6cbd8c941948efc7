//! The output types of `od` (`-t a`, `c`, `d`, `o`, `u`, `x`, `f` with
//! sizes, and the `z` suffix) and how one value of each is written.

/// What kind of value a field shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `a`: named characters (`nul`, `sp`, `del`), the high bit ignored.
    Named,
    /// `c`: printable characters, C escapes, octal for the rest.
    Char,
    /// `d`: signed decimal.
    Signed,
    /// `u`: unsigned decimal.
    Unsigned,
    /// `o`: octal, zero-padded.
    Octal,
    /// `x`: hexadecimal, zero-padded.
    Hex,
    /// `f`: floating point.
    Float,
}

/// One `-t` type: kind, size in bytes, and whether `>...<` text follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutputType {
    /// The kind of value.
    pub kind: Kind,
    /// Bytes per value.
    pub size: usize,
    /// The `z` suffix: show the block's printable bytes after the values.
    pub dump: bool,
}

/// Why a type string is refused, in GNU's words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TypeError {
    /// `invalid character 'q' in type string 'q'`.
    BadCharacter(char),
    /// `invalid type string 'd9'; this system doesn't provide a 9-byte integral type`.
    NoIntegerSize(usize),
    /// The same for floating types.
    NoFloatSize(usize),
}

/// The ASCII names `-t a` uses for bytes 0 to 32 and 127.
const NAMES: [&str; 33] = [
    "nul", "soh", "stx", "etx", "eot", "enq", "ack", "bel", "bs", "ht", "nl", "vt", "ff", "cr", "so", "si", "dle", "dc1", "dc2", "dc3",
    "dc4", "nak", "syn", "etb", "can", "em", "sub", "esc", "fs", "gs", "rs", "us", "sp",
];

impl OutputType {
    /// Characters a value takes at most, before the separating space.
    pub fn width(&self) -> usize {
        const SIGNED: [usize; 9] = [1, 4, 6, 8, 11, 13, 16, 18, 20];
        const UNSIGNED: [usize; 9] = [0, 3, 5, 8, 10, 13, 15, 17, 20];
        const OCTAL: [usize; 9] = [0, 3, 6, 8, 11, 14, 16, 19, 22];
        let size = self.size.min(8);
        match self.kind {
            Kind::Named | Kind::Char => 3,
            Kind::Signed => SIGNED[size],
            Kind::Unsigned => UNSIGNED[size],
            Kind::Octal => OCTAL[size],
            Kind::Hex => size * 2,
            Kind::Float if self.size == 4 => 15,
            Kind::Float => 24,
        }
    }

    /// The text of the value in `bytes` (exactly `size` of them, little-endian).
    pub fn format(&self, bytes: &[u8]) -> String {
        let unsigned = bytes.iter().rev().fold(0u64, |acc, b| (acc << 8) | u64::from(*b));
        match self.kind {
            Kind::Named => {
                let byte = bytes.first().copied().unwrap_or(0) & 0x7f;
                match NAMES.get(usize::from(byte)) {
                    Some(name) => (*name).to_string(),
                    None if byte == 0x7f => "del".to_string(),
                    None => char::from(byte).to_string(),
                }
            }
            Kind::Char => {
                let byte = bytes.first().copied().unwrap_or(0);
                match byte {
                    0 => "\\0".into(),
                    7 => "\\a".into(),
                    8 => "\\b".into(),
                    9 => "\\t".into(),
                    10 => "\\n".into(),
                    11 => "\\v".into(),
                    12 => "\\f".into(),
                    13 => "\\r".into(),
                    32..=126 => char::from(byte).to_string(),
                    _ => format!("{byte:03o}"),
                }
            }
            Kind::Signed => {
                let bits = self.size * 8;
                let value = if bits >= 64 { unsigned as i64 } else { ((unsigned << (64 - bits)) as i64) >> (64 - bits) };
                value.to_string()
            }
            Kind::Unsigned => unsigned.to_string(),
            Kind::Octal => format!("{unsigned:0width$o}", width = self.width()),
            Kind::Hex => format!("{unsigned:0width$x}", width = self.width()),
            Kind::Float if self.size == 4 => {
                shortest_g(f64::from(f32::from_bits(unsigned as u32)), format!("{:e}", f32::from_bits(unsigned as u32)))
            }
            Kind::Float => {
                let value = f64::from_bits(unsigned);
                shortest_g(value, format!("{value:e}"))
            }
        }
    }
}

/// Writes a float as C's `%g` would with just enough digits to read back
/// (`1`, `0.1`, `1.5e+20`), from Rust's shortest exponent form.
fn shortest_g(value: f64, exponent_form: String) -> String {
    if value.is_nan() {
        return if value.is_sign_negative() { "-nan".into() } else { "nan".into() };
    }
    if value.is_infinite() {
        return if value < 0.0 { "-inf".into() } else { "inf".into() };
    }
    let (mantissa, exponent) = exponent_form.split_once('e').unwrap_or((exponent_form.as_str(), "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    let negative = mantissa.starts_with('-');
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let precision = digits.len().max(1) as i32;
    let sign = if negative { "-" } else { "" };
    if exponent < -4 || exponent >= precision {
        let (first, rest) = digits.split_at(1.min(digits.len()));
        let fraction = if rest.is_empty() { String::new() } else { format!(".{rest}") };
        let exponent_sign = if exponent < 0 { '-' } else { '+' };
        return format!("{sign}{first}{fraction}e{exponent_sign}{:02}", exponent.abs());
    }
    if exponent < 0 {
        let zeros = "0".repeat((-exponent - 1) as usize);
        return format!("{sign}0.{zeros}{digits}");
    }
    let point = (exponent + 1) as usize;
    let (whole, fraction) = digits.split_at(point.min(digits.len()));
    let padding = "0".repeat(point.saturating_sub(digits.len()));
    if fraction.is_empty() {
        format!("{sign}{whole}{padding}")
    } else {
        format!("{sign}{whole}.{fraction}")
    }
}

/// Parses one `-t` argument, which may hold several types (`x1z`, `cx1`).
pub fn parse_types(text: &str) -> Result<Vec<OutputType>, TypeError> {
    let bytes = text.as_bytes();
    let mut types = Vec::new();
    let mut index = 0;
    while let Some(&letter) = bytes.get(index) {
        index += 1;
        let kind = match letter {
            b'a' => Kind::Named,
            b'c' => Kind::Char,
            b'd' => Kind::Signed,
            b'u' => Kind::Unsigned,
            b'o' => Kind::Octal,
            b'x' => Kind::Hex,
            b'f' => Kind::Float,
            _ => return Err(TypeError::BadCharacter(text.get(index - 1..).and_then(|rest| rest.chars().next()).unwrap_or('?'))),
        };
        let digits_end = bytes.get(index..).unwrap_or(&[]).iter().position(|b| !b.is_ascii_digit()).map_or(bytes.len(), |p| p + index);
        let size = if matches!(kind, Kind::Named | Kind::Char) {
            1
        } else if digits_end > index {
            let size: usize = text.get(index..digits_end).and_then(|d| d.parse().ok()).unwrap_or(usize::MAX);
            index = digits_end;
            let valid = if kind == Kind::Float { matches!(size, 4 | 8) } else { matches!(size, 1 | 2 | 4 | 8) };
            if !valid {
                return Err(if kind == Kind::Float { TypeError::NoFloatSize(size) } else { TypeError::NoIntegerSize(size) });
            }
            size
        } else {
            let letter = bytes.get(index).copied();
            let named = match (kind, letter) {
                (Kind::Float, Some(b'F')) => Some(4),
                (Kind::Float, Some(b'D')) => Some(8),
                (Kind::Float, Some(b'L')) => return Err(TypeError::NoFloatSize(16)),
                (Kind::Float, _) => None,
                (_, Some(b'C')) => Some(1),
                (_, Some(b'S')) => Some(2),
                (_, Some(b'I')) => Some(4),
                (_, Some(b'L')) => Some(8),
                _ => None,
            };
            if named.is_some() {
                index += 1;
            }
            named.unwrap_or(if kind == Kind::Float { 8 } else { 4 })
        };
        let dump = bytes.get(index) == Some(&b'z');
        if dump {
            index += 1;
        }
        types.push(OutputType { kind, size, dump });
    }
    Ok(types)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_values() {
        let t = |s: &str| parse_types(s).unwrap()[0];
        assert_eq!(t("x1").format(&[0x0a]), "0a");
        assert_eq!(t("d1").format(&[0x80]), "-128");
        assert_eq!(t("o2").format(&[0x61, 0x62]), "061141");
        assert_eq!(t("a").format(&[0xff]), "del");
        assert_eq!(t("c").format(&[0x80]), "200");
        assert_eq!(t("f4").format(&[0, 0, 0x80, 0x3f]), "1");
        assert_eq!(t("fD").format(&0.1f64.to_le_bytes()), "0.1");
        assert_eq!(t("f8").format(&1.5e20f64.to_le_bytes()), "1.5e+20");
        assert_eq!(t("f8").format(&0.00001f64.to_le_bytes()), "1e-05");
        assert_eq!(parse_types("d9"), Err(TypeError::NoIntegerSize(9)));
        assert_eq!(parse_types("q"), Err(TypeError::BadCharacter('q')));
        assert_eq!(parse_types("cx1z").unwrap().len(), 2);
    }
}
