//! awk regular expressions on the project's POSIX regex module: gawk's
//! dialect (escapes such as `\/` `\"` `\n` and octal in the pattern, `\y`
//! for a word boundary, backslash escapes inside brackets) is rewritten to
//! the module's extended syntax, and compiled expressions are cached.

use crate::regex::{Regex, Syntax};
use std::collections::HashMap;
use std::rc::Rc;

/// Compiled expressions by source text and case folding.
#[derive(Default)]
pub struct Cache {
    map: HashMap<(Vec<u8>, bool), Rc<Regex>>,
}

impl Cache {
    /// The compiled form of `source` (an awk regex), or gawk's error text.
    pub fn get(&mut self, source: &[u8], fold: bool) -> Result<Rc<Regex>, String> {
        if let Some(regex) = self.map.get(&(source.to_vec(), fold)) {
            return Ok(regex.clone());
        }
        let translated = translate(source);
        let syntax = Syntax { extended: true, ignore_case: fold, ..Syntax::default() };
        let regex = Regex::new(&translated, &syntax).map_err(|error| error.to_string())?;
        let regex = Rc::new(regex);
        if self.map.len() > 500 {
            self.map.clear();
        }
        self.map.insert((source.to_vec(), fold), regex.clone());
        Ok(regex)
    }
}

fn push_literal(out: &mut Vec<u8>, byte: u8) {
    if b"\\^$.[]|()*+?{}".contains(&byte) {
        out.push(b'\\');
    }
    out.push(byte);
}

/// Rewrites an awk regex to the module's extended syntax.
pub fn translate(source: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(source.len() + 8);
    let mut i = 0;
    while i < source.len() {
        let c = source[i];
        match c {
            b'\\' => {
                let Some(&e) = source.get(i + 1) else {
                    out.extend_from_slice(b"\\\\");
                    break;
                };
                i += 2;
                match e {
                    b'y' => out.extend_from_slice(b"\\b"),
                    b'B' | b'<' | b'>' | b's' | b'S' | b'w' | b'W' | b'`' | b'\'' => {
                        out.push(b'\\');
                        out.push(e);
                    }
                    b'n' => out.push(b'\n'),
                    b't' => out.push(b'\t'),
                    b'r' => out.push(b'\r'),
                    b'f' => out.push(0x0c),
                    b'v' => out.push(0x0b),
                    b'a' => out.push(0x07),
                    b'b' => out.push(0x08),
                    b'0'..=b'7' => {
                        let (bytes, used) = super::lexer::escape(&source[i - 1..]);
                        i = i - 1 + used;
                        for byte in bytes {
                            push_literal(&mut out, byte);
                        }
                    }
                    b'x' => {
                        let (bytes, used) = super::lexer::escape(&source[i - 1..]);
                        i = i - 1 + used;
                        if bytes == b"\\x" {
                            out.push(b'x');
                        } else {
                            for byte in bytes {
                                push_literal(&mut out, byte);
                            }
                        }
                    }
                    other => push_literal(&mut out, other),
                }
            }
            b'[' => i = bracket(source, i, &mut out),
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

/// Rewrites the bracket expression starting at `start`; returns where it ends.
fn bracket(source: &[u8], start: usize, out: &mut Vec<u8>) -> usize {
    let mut i = start + 1;
    let mut negate = false;
    if source.get(i) == Some(&b'^') {
        negate = true;
        i += 1;
    }
    let mut items: Vec<u8> = Vec::new();
    let mut close_bracket = false;
    let mut dash = false;
    let mut caret = false;
    let mut first = true;
    loop {
        let Some(&c) = source.get(i) else {
            // Unterminated: hand it over as written so the module reports it.
            out.extend_from_slice(&source[start..]);
            return source.len();
        };
        match c {
            b']' if first => {
                close_bracket = true;
                i += 1;
            }
            b']' => {
                i += 1;
                break;
            }
            b'[' if matches!(source.get(i + 1), Some(b':' | b'.' | b'=')) => {
                let kind = source[i + 1];
                let end = (i + 2..source.len().saturating_sub(1)).find(|&j| source[j] == kind && source[j + 1] == b']');
                match end {
                    Some(j) => {
                        items.extend_from_slice(&source[i..j + 2]);
                        i = j + 2;
                    }
                    None => {
                        items.push(b'[');
                        i += 1;
                    }
                }
            }
            b'\\' if i + 1 < source.len() => {
                let (bytes, used) = match source[i + 1] {
                    b'n' => (vec![b'\n'], 1),
                    b't' => (vec![b'\t'], 1),
                    b'r' => (vec![b'\r'], 1),
                    b'f' => (vec![0x0c], 1),
                    b'v' => (vec![0x0b], 1),
                    b'a' => (vec![7], 1),
                    b'b' => (vec![8], 1),
                    b'0'..=b'7' | b'x' => super::lexer::escape(&source[i + 1..]),
                    other => (vec![other], 1),
                };
                i += 1 + used;
                for byte in bytes {
                    match byte {
                        b']' => close_bracket = true,
                        b'-' => dash = true,
                        b'^' => caret = true,
                        b'\\' => items.extend_from_slice(b"\\"),
                        other => items.push(other),
                    }
                }
            }
            _ => {
                items.push(c);
                i += 1;
            }
        }
        first = false;
    }
    let mut body = Vec::new();
    if close_bracket {
        body.push(b']');
    }
    body.extend_from_slice(&items);
    if caret {
        if body.is_empty() && !negate {
            if dash {
                out.extend_from_slice(b"[-^]");
            } else {
                out.extend_from_slice(b"\\^");
            }
            return i;
        }
        body.push(b'^');
    }
    if dash {
        body.push(b'-');
    }
    out.push(b'[');
    if negate {
        out.push(b'^');
    }
    out.extend_from_slice(&body);
    out.push(b']');
    i
}
