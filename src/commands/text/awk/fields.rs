//! Splitting a record into fields: by blanks (the default single-space
//! `FS`), by one literal character, by a regex, into single characters
//! (`FS=""`), by `FIELDWIDTHS`, or by what `FPAT` matches.

use crate::regex::Regex;
use std::rc::Rc;

/// How records are split, fixed when `FS`, `FIELDWIDTHS` or `FPAT` is set.
#[derive(Clone)]
pub enum Splitter {
    /// Runs of blanks and newlines; leading and trailing ones ignored.
    Space,
    /// One literal byte.
    Byte(u8),
    /// Each character is a field.
    Chars,
    /// A regex separator.
    Regex(Rc<Regex>),
    /// Fixed widths (`FIELDWIDTHS`): `(skip, width)`; width `None` is `*`.
    Widths(Vec<(usize, Option<usize>)>),
    /// Fields are what the regex matches (`FPAT`).
    Pattern(Rc<Regex>),
}

/// Byte ranges of the fields of `record`. `newline_too`: newline also
/// separates (paragraph mode).
pub fn split(record: &[u8], splitter: &Splitter, newline_too: bool, out: &mut Vec<(usize, usize)>) {
    out.clear();
    match splitter {
        Splitter::Space | Splitter::Byte(_) => {
            let mut pos = 0;
            split_some(record, splitter, newline_too, &mut pos, out, usize::MAX);
        }
        Splitter::Chars => {
            let mut pos = 0;
            while pos < record.len() {
                if newline_too && record[pos] == b'\n' {
                    pos += 1;
                    continue;
                }
                let len = super::text::char_len_at(record, pos).max(1);
                out.push((pos, pos + len));
                pos += len;
            }
        }
        Splitter::Regex(regex) => split_regex(record, regex, newline_too, out),
        Splitter::Widths(widths) => {
            let mut pos = 0;
            for &(skip, width) in widths {
                pos = super::text::byte_offset_from(record, pos, skip);
                if pos >= record.len() {
                    break;
                }
                let end = match width {
                    Some(width) => super::text::byte_offset_from(record, pos, width),
                    None => record.len(),
                };
                out.push((pos, end));
                pos = end;
            }
        }
        Splitter::Pattern(regex) => {
            let mut pos = 0;
            while pos <= record.len() {
                match regex.find_at(record, pos) {
                    Ok(Some((start, end))) => {
                        if end == start {
                            if start >= record.len() {
                                break;
                            }
                            pos = start + 1;
                            continue;
                        }
                        out.push((start, end));
                        pos = end;
                    }
                    _ => break,
                }
            }
        }
    }
}

fn is_blank(c: u8) -> bool {
    c == b' ' || c == b'\t' || c == b'\n'
}

/// Splits `record` on from `*pos` (where an earlier call stopped; 0 at
/// first), appending to `out` until it holds `want` fields or the record
/// ends, so `$3` of a long line splits three fields, not all of them.
/// `Some(true)` when the whole record is split, `Some(false)` when it
/// stopped at `want` (`*pos` says where to go on); `None` for splitters
/// that split a record whole (regexes, widths, characters, `FPAT`).
pub fn split_some(
    record: &[u8],
    splitter: &Splitter,
    newline_too: bool,
    pos: &mut usize,
    out: &mut Vec<(usize, usize)>,
    want: usize,
) -> Option<bool> {
    match splitter {
        Splitter::Space => {
            let n = record.len();
            let mut i = *pos;
            while out.len() < want {
                while record.get(i).is_some_and(|&c| is_blank(c)) {
                    i += 1;
                }
                if i >= n {
                    *pos = n;
                    return Some(true);
                }
                let start = i;
                while record.get(i).is_some_and(|&c| !is_blank(c)) {
                    i += 1;
                }
                out.push((start, i));
            }
            *pos = i;
            Some(false)
        }
        Splitter::Byte(b) => {
            if record.is_empty() {
                return Some(true);
            }
            let mut start = *pos;
            while out.len() < want {
                let rest = record.get(start..).unwrap_or(&[]);
                let found = if newline_too { memchr::memchr2(*b, b'\n', rest) } else { memchr::memchr(*b, rest) };
                match found {
                    Some(i) => {
                        out.push((start, start + i));
                        start += i + 1;
                    }
                    None => {
                        out.push((start, record.len()));
                        *pos = record.len();
                        return Some(true);
                    }
                }
            }
            *pos = start;
            Some(false)
        }
        _ => None,
    }
}

fn split_regex(record: &[u8], regex: &Regex, newline_too: bool, out: &mut Vec<(usize, usize)>) {
    if record.is_empty() {
        return;
    }
    let mut start = 0;
    let mut pos = 0;
    while pos <= record.len() {
        let found = match regex.find_at(record, pos) {
            Ok(Some(span)) => Some(span),
            _ => None,
        };
        let newline = if newline_too { record[pos..].iter().position(|&c| c == b'\n').map(|i| (pos + i, pos + i + 1)) } else { None };
        let span = match (found, newline) {
            (Some(a), Some(b)) => Some(if b.0 < a.0 { b } else { a }),
            (a, b) => a.or(b),
        };
        let Some((from, to)) = span else { break };
        if to == from {
            // An empty match separates nothing; look further.
            if from >= record.len() {
                break;
            }
            pos = from + 1;
            continue;
        }
        out.push((start, from));
        start = to;
        pos = to;
    }
    out.push((start, record.len()));
}

/// The splitter `FS` stands for (`None`: a regex that does not compile).
pub fn splitter_for(fs: &[u8], cache: &mut super::regex::Cache, fold: bool) -> Result<Splitter, String> {
    match fs {
        b" " => Ok(Splitter::Space),
        b"" => Ok(Splitter::Chars),
        [b'\\'] => Ok(Splitter::Byte(b'\\')),
        [c] if *c != b' ' => Ok(Splitter::Byte(*c)),
        b"\\t" => Ok(Splitter::Byte(b'\t')),
        _ => Ok(Splitter::Regex(cache.get(fs, fold)?)),
    }
}

/// Parses `FIELDWIDTHS` (`"2 3:4 *"`).
pub fn parse_widths(text: &[u8]) -> Option<Vec<(usize, Option<usize>)>> {
    let text = std::str::from_utf8(text).ok()?;
    let mut widths = Vec::new();
    for word in text.split_ascii_whitespace() {
        let (skip, width) = match word.split_once(':') {
            Some((skip, width)) => (skip.parse().ok()?, width),
            None => (0, word),
        };
        if width == "*" {
            widths.push((skip, None));
        } else {
            widths.push((skip, Some(width.parse().ok()?)));
        }
    }
    Some(widths)
}
