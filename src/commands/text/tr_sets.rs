//! The byte sets of `tr`: escapes (`\n`, `\101`), ranges (`a-z`), classes
//! (`[:alpha:]`), equivalence classes (`[=c=]`) and repeats (`[c*n]`,
//! `[c*]`), parsed into elements and expanded into byte sequences.

/// One element of a set, as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Element {
    /// A single byte.
    Byte(u8),
    /// `a-z`: the bytes from the first through the second.
    Range(u8, u8),
    /// `[:name:]`.
    Class(Class),
    /// `[=c=]`.
    Equivalence(u8),
    /// `[c*n]` (`None` for `[c*]`, which fills string2 to string1's length).
    Repeat(u8, Option<usize>),
}

/// The character classes, in the C locale.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// `[:alnum:]`.
    Alnum,
    /// `[:alpha:]`.
    Alpha,
    /// `[:blank:]`.
    Blank,
    /// `[:cntrl:]`.
    Cntrl,
    /// `[:digit:]`.
    Digit,
    /// `[:graph:]`.
    Graph,
    /// `[:lower:]`.
    Lower,
    /// `[:print:]`.
    Print,
    /// `[:punct:]`.
    Punct,
    /// `[:space:]`.
    Space,
    /// `[:upper:]`.
    Upper,
    /// `[:xdigit:]`.
    Xdigit,
}

impl Class {
    fn from_name(name: &[u8]) -> Option<Class> {
        Some(match name {
            b"alnum" => Class::Alnum,
            b"alpha" => Class::Alpha,
            b"blank" => Class::Blank,
            b"cntrl" => Class::Cntrl,
            b"digit" => Class::Digit,
            b"graph" => Class::Graph,
            b"lower" => Class::Lower,
            b"print" => Class::Print,
            b"punct" => Class::Punct,
            b"space" => Class::Space,
            b"upper" => Class::Upper,
            b"xdigit" => Class::Xdigit,
            _ => return None,
        })
    }

    /// True when `byte` belongs to the class.
    pub fn contains(self, byte: u8) -> bool {
        match self {
            Class::Alnum => byte.is_ascii_alphanumeric(),
            Class::Alpha => byte.is_ascii_alphabetic(),
            Class::Blank => byte == b' ' || byte == b'\t',
            Class::Cntrl => byte.is_ascii_control(),
            Class::Digit => byte.is_ascii_digit(),
            Class::Graph => byte.is_ascii_graphic(),
            Class::Lower => byte.is_ascii_lowercase(),
            Class::Print => byte.is_ascii_graphic() || byte == b' ',
            Class::Punct => byte.is_ascii_punctuation(),
            Class::Space => matches!(byte, b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r'),
            Class::Upper => byte.is_ascii_uppercase(),
            Class::Xdigit => byte.is_ascii_hexdigit(),
        }
    }

    /// The class's bytes in ascending order.
    pub fn bytes(self) -> Vec<u8> {
        (0..=255u8).filter(|b| self.contains(*b)).collect()
    }
}

/// A set that cannot be parsed, with GNU's message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SetError {
    /// `range-endpoints of 'z-a' are in reverse collating sequence order`.
    ReverseRange(u8, u8),
    /// `invalid character class 'foo'`.
    BadClass(String),
    /// `invalid repeat count '...' in [c*n] construct`.
    BadRepeatCount(String),
    /// `[=c=]` naming more than one character.
    BadEquivalence(String),
}

/// The result of reading a set: its elements, and whether it ended with an
/// unescaped backslash (GNU warns).
pub struct ParsedSet {
    /// The elements in order.
    pub elements: Vec<Element>,
    /// A lone backslash ended the text.
    pub trailing_backslash: bool,
}

/// Resolves backslash escapes into bytes, each marked as escaped or not.
fn unescape(text: &[u8]) -> (Vec<(u8, bool)>, bool) {
    let mut out = Vec::with_capacity(text.len());
    let mut index = 0;
    let mut trailing = false;
    while let Some(&byte) = text.get(index) {
        index += 1;
        if byte != b'\\' {
            out.push((byte, false));
            continue;
        }
        let Some(&next) = text.get(index) else {
            trailing = true;
            out.push((b'\\', true));
            break;
        };
        index += 1;
        let value = match next {
            b'a' => 7,
            b'b' => 8,
            b'f' => 12,
            b'n' => b'\n',
            b'r' => b'\r',
            b't' => b'\t',
            b'v' => 11,
            b'0'..=b'7' => {
                let mut value = u32::from(next - b'0');
                for _ in 0..2 {
                    match text.get(index) {
                        Some(&digit @ b'0'..=b'7') if value * 8 + u32::from(digit - b'0') <= 0o377 => {
                            value = value * 8 + u32::from(digit - b'0');
                            index += 1;
                        }
                        _ => break,
                    }
                }
                value as u8
            }
            other => other,
        };
        out.push((value, true));
    }
    (out, trailing)
}

/// Parses one set operand.
pub fn parse_set(text: &[u8]) -> Result<ParsedSet, SetError> {
    let (bytes, trailing_backslash) = unescape(text);
    let mut elements = Vec::new();
    let mut index = 0;
    let unescaped = |i: usize, want: u8| bytes.get(i).is_some_and(|&(b, escaped)| b == want && !escaped);
    while let Some(&(byte, _)) = bytes.get(index) {
        if unescaped(index, b'[') {
            // `[:name:]` and `[=c=]`.
            if let Some(kind @ (b':' | b'=')) = bytes.get(index + 1).filter(|(_, e)| !e).map(|(b, _)| *b) {
                let body_start = index + 2;
                let close = (body_start..bytes.len().saturating_sub(1)).find(|&i| unescaped(i, kind) && unescaped(i + 1, b']'));
                if let Some(close) = close {
                    let name: Vec<u8> = bytes.get(body_start..close).unwrap_or(&[]).iter().map(|(b, _)| *b).collect();
                    if kind == b':' {
                        let class =
                            Class::from_name(&name).ok_or_else(|| SetError::BadClass(String::from_utf8_lossy(&name).into_owned()))?;
                        elements.push(Element::Class(class));
                    } else {
                        match name.as_slice() {
                            [single] => elements.push(Element::Equivalence(*single)),
                            _ => return Err(SetError::BadEquivalence(String::from_utf8_lossy(&name).into_owned())),
                        }
                    }
                    index = close + 2;
                    continue;
                }
            }
            // `[c*n]` and `[c*]`.
            if let (Some(&(repeated, _)), true) = (bytes.get(index + 1), unescaped(index + 2, b'*')) {
                if let Some(close) = (index + 3..bytes.len()).find(|&i| unescaped(i, b']')) {
                    let count: Vec<u8> = bytes.get(index + 3..close).unwrap_or(&[]).iter().map(|(b, _)| *b).collect();
                    let count_text = String::from_utf8_lossy(&count).into_owned();
                    let count = if count.is_empty() {
                        None
                    } else {
                        let radix = if count.first() == Some(&b'0') { 8 } else { 10 };
                        match usize::from_str_radix(&count_text, radix) {
                            Ok(0) => None,
                            Ok(n) => Some(n),
                            Err(_) => return Err(SetError::BadRepeatCount(count_text)),
                        }
                    };
                    elements.push(Element::Repeat(repeated, count));
                    index = close + 1;
                    continue;
                }
            }
        }
        if unescaped(index + 1, b'-') {
            if let Some(&(high, _)) = bytes.get(index + 2) {
                if high < byte {
                    return Err(SetError::ReverseRange(byte, high));
                }
                elements.push(Element::Range(byte, high));
                index += 3;
                continue;
            }
        }
        elements.push(Element::Byte(byte));
        index += 1;
    }
    Ok(ParsedSet { elements, trailing_backslash })
}

/// Expands elements into bytes; `[c*]` contributes `fill` copies.
pub fn expand(elements: &[Element], fill: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for element in elements {
        match element {
            Element::Byte(b) | Element::Equivalence(b) => out.push(*b),
            Element::Range(low, high) => out.extend(*low..=*high),
            Element::Class(class) => out.extend(class.bytes()),
            Element::Repeat(b, Some(n)) => out.extend(std::iter::repeat_n(*b, (*n).min(1 << 20))),
            Element::Repeat(b, None) => out.extend(std::iter::repeat_n(*b, fill)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_expands() {
        let set = |t: &str| expand(&parse_set(t.as_bytes()).unwrap().elements, 0);
        assert_eq!(set("a-c"), b"abc");
        assert_eq!(set("\\101\\n"), b"A\n");
        assert_eq!(set("[:digit:]"), b"0123456789");
        assert_eq!(set("[x*3]"), b"xxx");
        assert_eq!(set("[:digit:]-z"), b"0123456789-z");
        assert_eq!(set("a-"), b"a-");
        assert!(matches!(parse_set(b"z-a"), Err(SetError::ReverseRange(b'z', b'a'))));
        assert!(matches!(parse_set(b"[:foo:]"), Err(SetError::BadClass(_))));
        assert!(parse_set(b"a\\").unwrap().trailing_backslash);
    }
}
