//! Backslash escapes as `$'...'`, `${x@E}`, `echo -e` and `printf %b` read them.

/// How `\0` and `\c` behave: they differ between `$'...'` and `echo -e`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EscapeStyle {
    /// `$'...'` and `@E`: `\NNN` octal (1-3 digits), `\cX` control characters.
    AnsiC,
    /// `echo -e`: only `\0NNN` is octal (`\101` stays as written), `\c`
    /// ends all output.
    Echo,
    /// `printf %b`: `\0NNN` and `\NNN` octal, `\c` ends all output.
    PrintfB,
}

/// The result of decoding: the bytes, and whether `\c` asked to stop output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decoded {
    /// The decoded bytes.
    pub bytes: Vec<u8>,
    /// True when `\c` was seen (echo style): print nothing further.
    pub stop: bool,
}

/// Decodes `$'...'`-style escapes.
pub fn decode_ansi_c(s: &str) -> Vec<u8> {
    decode(s, EscapeStyle::AnsiC).bytes
}

fn push_char(out: &mut Vec<u8>, value: u32) {
    match char::from_u32(value) {
        Some(c) => {
            let mut buffer = [0u8; 4];
            out.extend_from_slice(c.encode_utf8(&mut buffer).as_bytes());
        }
        None => out.extend_from_slice("\u{fffd}".as_bytes()),
    }
}

fn take_digits(bytes: &[u8], start: usize, max: usize, radix: u32) -> (u32, usize) {
    let mut value = 0u32;
    let mut count = 0;
    while count < max {
        match bytes.get(start + count).and_then(|b| (*b as char).to_digit(radix)) {
            Some(d) => {
                value = value * radix + d;
                count += 1;
            }
            None => break,
        }
    }
    (value, count)
}

/// Decodes backslash escapes in the given style.
pub fn decode(s: &str, style: EscapeStyle) -> Decoded {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        let b = bytes[index];
        if b != b'\\' || index + 1 >= bytes.len() {
            out.push(b);
            index += 1;
            continue;
        }
        let e = bytes[index + 1];
        index += 2;
        match e {
            b'a' => out.push(7),
            b'b' => out.push(8),
            b'e' | b'E' => out.push(27),
            b'f' => out.push(12),
            b'n' => out.push(b'\n'),
            b'r' => out.push(b'\r'),
            b't' => out.push(b'\t'),
            b'v' => out.push(11),
            b'\\' => out.push(b'\\'),
            b'\'' if style == EscapeStyle::AnsiC => out.push(b'\''),
            b'"' if style == EscapeStyle::AnsiC => out.push(b'"'),
            b'?' if style == EscapeStyle::AnsiC => out.push(b'?'),
            b'c' if style != EscapeStyle::AnsiC => return Decoded { bytes: out, stop: true },
            b'c' => match bytes.get(index) {
                Some(&x) => {
                    out.push(x.to_ascii_uppercase() ^ 0x40);
                    index += 1;
                }
                None => out.extend_from_slice(b"\\c"),
            },
            b'x' => {
                let (value, count) = take_digits(bytes, index, 2, 16);
                if count == 0 {
                    out.extend_from_slice(b"\\x");
                } else {
                    out.push(value as u8);
                    index += count;
                }
            }
            b'u' | b'U' => {
                let max = if e == b'u' { 4 } else { 8 };
                let (value, count) = take_digits(bytes, index, max, 16);
                if count == 0 {
                    out.push(b'\\');
                    out.push(e);
                } else {
                    push_char(&mut out, value);
                    index += count;
                }
            }
            b'0' if style != EscapeStyle::AnsiC => {
                let (value, count) = take_digits(bytes, index, 3, 8);
                out.push(value as u8);
                index += count;
            }
            b'1'..=b'7' if style == EscapeStyle::Echo => {
                out.push(b'\\');
                out.push(e);
            }
            b'0'..=b'7' => {
                let (value, count) = take_digits(bytes, index - 1, 3, 8);
                out.push(value as u8);
                index += count - 1;
            }
            other => {
                out.push(b'\\');
                out.push(other);
            }
        }
    }
    Decoded { bytes: out, stop: false }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_each_style() {
        assert_eq!(decode_ansi_c(r"a\tb\x41\101\u00e9\cA"), b"a\tbAA\xc3\xa9\x01".to_vec());
        let echo = decode(r"x\0101y\cz", EscapeStyle::Echo);
        assert_eq!(echo.bytes, b"xAy".to_vec());
        assert!(echo.stop);
        assert_eq!(decode(r"\q", EscapeStyle::Echo).bytes, b"\\q".to_vec());
        assert_eq!(decode(r"\101\1", EscapeStyle::Echo).bytes, b"\\101\\1".to_vec());
        assert_eq!(decode(r"\101\0101", EscapeStyle::PrintfB).bytes, b"AA".to_vec());
    }
}
