//! Character-level helpers over byte strings: awk counts characters
//! (UTF-8), and a byte that is not valid UTF-8 counts as one character.

use crate::regex::{decode_at, Unit};

/// The length in bytes of the character at `pos` (1 for an invalid byte).
pub fn char_len_at(s: &[u8], pos: usize) -> usize {
    match s.get(pos) {
        Some(&b) if b < 0x80 => 1,
        None => 0,
        _ => match decode_at(s, pos) {
            Unit::Char(_, len) => len,
            _ => 1,
        },
    }
}

/// The number of characters in `s`.
pub fn char_count(s: &[u8]) -> usize {
    if s.is_ascii() {
        return s.len();
    }
    let mut pos = 0;
    let mut count = 0;
    while pos < s.len() {
        pos += char_len_at(s, pos).max(1);
        count += 1;
    }
    count
}

/// The byte offset of character number `index` (0-based), or the length.
pub fn byte_offset(s: &[u8], index: usize) -> usize {
    if s.is_ascii() {
        return index.min(s.len());
    }
    let mut pos = 0;
    for _ in 0..index {
        if pos >= s.len() {
            break;
        }
        pos += char_len_at(s, pos).max(1);
    }
    pos.min(s.len())
}

/// The character index of byte offset `offset`.
pub fn char_index(s: &[u8], offset: usize) -> usize {
    let head = s.get(..offset).unwrap_or(s);
    char_count(head)
}

/// `s` with letters mapped by `upper` (true) or to lower case.
pub fn change_case(s: &[u8], upper: bool) -> Vec<u8> {
    if s.is_ascii() {
        return if upper { s.to_ascii_uppercase() } else { s.to_ascii_lowercase() };
    }
    let mut out = Vec::with_capacity(s.len());
    let mut pos = 0;
    while pos < s.len() {
        match decode_at(s, pos) {
            Unit::Char(c, len) => {
                let mapped: String = if upper { c.to_uppercase().collect() } else { c.to_lowercase().collect() };
                let mapped = if mapped.chars().count() == 1 { mapped } else { c.to_string() };
                out.extend_from_slice(mapped.as_bytes());
                pos += len;
            }
            Unit::Byte(b) => {
                out.push(b);
                pos += 1;
            }
            Unit::End => break,
        }
    }
    out
}

/// The byte offset `count` characters after byte offset `from`.
pub fn byte_offset_from(s: &[u8], from: usize, count: usize) -> usize {
    let mut pos = from.min(s.len());
    for _ in 0..count {
        if pos >= s.len() {
            break;
        }
        pos += char_len_at(s, pos).max(1);
    }
    pos.min(s.len())
}
