//! The replacement of sed's `s` command: `&`, `\1`..`\9`, the escapes
//! `\n \t...`, and GNU's case conversions `\U \L \u \l \E`.

use super::script::{CaseChange, Piece};
use crate::regex::{decode_at, numeric_escape, Span, Unit};

/// Parses the replacement text (already cut at its delimiter). `groups` is
/// the expression's group count, `None` for the empty regex (checked later).
pub fn parse_replacement(raw: &[u8], groups: Option<usize>) -> Result<Vec<Piece>, String> {
    let mut pieces = Vec::new();
    let mut literal = Vec::new();
    let mut index = 0;
    let flush = |literal: &mut Vec<u8>, pieces: &mut Vec<Piece>| {
        if !literal.is_empty() {
            pieces.push(Piece::Literal(std::mem::take(literal)));
        }
    };
    while let Some(&byte) = raw.get(index) {
        index += 1;
        if byte == b'&' {
            flush(&mut literal, &mut pieces);
            pieces.push(Piece::Group(0));
            continue;
        }
        if byte != b'\\' {
            literal.push(byte);
            continue;
        }
        let Some(&escaped) = raw.get(index) else {
            literal.push(b'\\');
            break;
        };
        index += 1;
        let case = match escaped {
            b'U' => Some(CaseChange::Upper),
            b'L' => Some(CaseChange::Lower),
            b'u' => Some(CaseChange::NextUpper),
            b'l' => Some(CaseChange::NextLower),
            b'E' => Some(CaseChange::End),
            _ => None,
        };
        if let Some(case) = case {
            flush(&mut literal, &mut pieces);
            pieces.push(Piece::Case(case));
            continue;
        }
        match escaped {
            b'0'..=b'9' => {
                let number = usize::from(escaped - b'0');
                if groups.is_some_and(|groups| number > groups) {
                    return Err(format!("invalid reference \\{number} on `s' command's RHS"));
                }
                flush(&mut literal, &mut pieces);
                pieces.push(Piece::Group(number));
            }
            b'n' => literal.push(b'\n'),
            b't' => literal.push(b'\t'),
            b'r' => literal.push(b'\r'),
            b'f' => literal.push(0x0c),
            b'v' => literal.push(0x0b),
            b'a' => literal.push(0x07),
            b'c' | b'd' | b'o' | b'x' => match numeric_escape(raw.get(index - 1..).unwrap_or(&[])) {
                Some((value, length)) => {
                    index += length - 1;
                    literal.push(value);
                }
                None => literal.push(escaped),
            },
            other => literal.push(other),
        }
    }
    flush(&mut literal, &mut pieces);
    Ok(pieces)
}

/// The case state while a replacement is built.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Keep,
    Upper,
    Lower,
}

/// Builds the replacement of one match into `out`.
pub fn expand(pieces: &[Piece], hay: &[u8], captures: &[Option<Span>], out: &mut Vec<u8>) {
    let plain = pieces.iter().all(|piece| !matches!(piece, Piece::Case(_)));
    fn text_of<'a>(piece: &'a Piece, hay: &'a [u8], captures: &[Option<Span>]) -> &'a [u8] {
        match piece {
            Piece::Literal(text) => text,
            Piece::Group(number) => match captures.get(*number) {
                Some(Some((start, end))) => hay.get(*start..*end).unwrap_or(&[]),
                _ => &[],
            },
            Piece::Case(_) => &[],
        }
    }
    if plain {
        for piece in pieces {
            out.extend_from_slice(text_of(piece, hay, captures));
        }
        return;
    }
    let mut mode = Mode::Keep;
    let mut next: Option<Mode> = None;
    for piece in pieces {
        if let Piece::Case(change) = piece {
            match change {
                CaseChange::Upper => {
                    mode = Mode::Upper;
                    next = None;
                }
                CaseChange::Lower => {
                    mode = Mode::Lower;
                    next = None;
                }
                CaseChange::NextUpper => next = Some(Mode::Upper),
                CaseChange::NextLower => next = Some(Mode::Lower),
                CaseChange::End => {
                    mode = Mode::Keep;
                    next = None;
                }
            }
            continue;
        }
        let text = text_of(piece, hay, captures);
        let mut pos = 0;
        loop {
            match decode_at(text, pos) {
                Unit::End => break,
                Unit::Byte(b) => {
                    out.push(b);
                    pos += 1;
                }
                Unit::Char(c, len) => {
                    let wanted = next.take().unwrap_or(mode);
                    let mut buffer = [0u8; 4];
                    match wanted {
                        Mode::Keep => out.extend_from_slice(c.encode_utf8(&mut buffer).as_bytes()),
                        Mode::Upper => c.to_uppercase().for_each(|u| out.extend_from_slice(u.encode_utf8(&mut buffer).as_bytes())),
                        Mode::Lower => c.to_lowercase().for_each(|l| out.extend_from_slice(l.encode_utf8(&mut buffer).as_bytes())),
                    }
                    pos += len;
                }
            }
        }
    }
}
