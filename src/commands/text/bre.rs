//! POSIX basic regular expressions as GNU reads them (`expr STRING : RE`,
//! `tac -r`), translated into the syntax of the `regex` crate, which
//! matches in linear time. Back-references have no linear-time equivalent
//! and are refused.

use regex::bytes::{Regex, RegexBuilder};
use std::fmt;

/// Which GNU regex syntax the pattern is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// POSIX basic (`\(`, `\{`, `\|`, `\+`, `\?`): `expr`, `grep -G`.
    Basic,
    /// GNU's default syntax (`\(`, `\|`, bare `+` and `?`, no intervals): `tac -r`.
    Emacs,
}

/// Why a pattern was refused, with glibc's message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BreError {
    /// `Unmatched ( or \(`.
    UnmatchedOpen,
    /// `Unmatched ) or \)`.
    UnmatchedClose,
    /// `Unmatched [, [^, [:, [., or [=`.
    UnmatchedBracket,
    /// `Unmatched \{`.
    UnmatchedBrace,
    /// `Invalid content of \{\}`.
    BadInterval,
    /// `Invalid range end`.
    BadRange,
    /// `Invalid character class name`.
    BadClass,
    /// `Trailing backslash`.
    TrailingBackslash,
    /// A back-reference (`\1`), which linear-time matching cannot do.
    BackReference,
    /// `Regular expression too big`.
    TooBig,
}

impl fmt::Display for BreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BreError::UnmatchedOpen => "Unmatched ( or \\(",
            BreError::UnmatchedClose => "Unmatched ) or \\)",
            BreError::UnmatchedBracket => "Unmatched [, [^, [:, [., or [=",
            BreError::UnmatchedBrace => "Unmatched \\{",
            BreError::BadInterval => "Invalid content of \\{\\}",
            BreError::BadRange => "Invalid range end",
            BreError::BadClass => "Invalid character class name",
            BreError::TrailingBackslash => "Trailing backslash",
            BreError::BackReference => "back-references are not supported",
            BreError::TooBig => "Regular expression too big",
        })
    }
}

/// The character classes `[:name:]` may name.
const CLASSES: &[&str] = &["alnum", "alpha", "blank", "cntrl", "digit", "graph", "lower", "print", "punct", "space", "upper", "xdigit"];

/// Compiles `pattern` (dot matches newline, as in POSIX).
pub fn compile(pattern: &[u8], dialect: Dialect) -> Result<Regex, BreError> {
    let translated = translate(pattern, dialect)?;
    RegexBuilder::new(&translated).dot_matches_new_line(true).size_limit(1 << 22).build().map_err(|_| BreError::TooBig)
}

/// Compiles `pattern` to match only at the start of the text (`expr`'s
/// `STRING : REGEX`); its groups keep their numbers.
pub fn compile_at_start(pattern: &[u8], dialect: Dialect) -> Result<Regex, BreError> {
    let translated = translate(pattern, dialect)?;
    RegexBuilder::new(&format!("\\A(?:{translated})")).dot_matches_new_line(true).size_limit(1 << 22).build().map_err(|_| BreError::TooBig)
}

/// Appends `byte` to `out` as a literal.
fn push_literal(out: &mut String, byte: u8) {
    if byte.is_ascii() {
        let c = char::from(byte);
        if c.is_ascii_alphanumeric() || c == '_' || c == ' ' {
            out.push(c);
        } else {
            out.push_str(&format!("\\x{byte:02x}"));
        }
    } else {
        out.push_str(&format!("\\x{byte:02x}"));
    }
}

/// The translated pattern under construction, remembering where its last
/// atom starts so a repetition can apply to it.
struct Builder {
    out: String,
    last_atom: Option<usize>,
    repeated: bool,
    groups: Vec<usize>,
}

impl Builder {
    /// Starts a new atom at the current end.
    fn atom(&mut self) {
        self.last_atom = Some(self.out.len());
        self.repeated = false;
    }

    /// Applies a repetition operator (`*`, `+`, `?`, `{m,n}`) to the last
    /// atom, grouping it first when it already has one (`a**`, `a*\?`).
    fn repeat(&mut self, operator: &str) {
        if self.repeated {
            if let Some(start) = self.last_atom {
                self.out.insert_str(start, "(?:");
                self.out.push(')');
            }
        }
        self.out.push_str(operator);
        self.repeated = true;
    }
}

/// Translates a BRE into `regex` syntax. Non-ASCII bytes that form UTF-8
/// characters stay characters, so `.` and brackets see whole characters.
pub fn translate(pattern: &[u8], dialect: Dialect) -> Result<String, BreError> {
    let mut built = Builder { out: String::new(), last_atom: None, repeated: false, groups: Vec::new() };
    let mut index = 0;
    // True where a `*` would be literal: at the start, after `\(`, `\|` or `^`.
    let mut at_start = true;
    while let Some(&byte) = pattern.get(index) {
        index += 1;
        let was_start = at_start;
        at_start = false;
        match byte {
            b'\\' => {
                let Some(&next) = pattern.get(index) else {
                    return Err(BreError::TrailingBackslash);
                };
                index += 1;
                match next {
                    b'(' => {
                        built.groups.push(built.out.len());
                        built.out.push('(');
                        at_start = true;
                    }
                    b')' => {
                        let start = built.groups.pop().ok_or(BreError::UnmatchedClose)?;
                        built.out.push(')');
                        built.last_atom = Some(start);
                        built.repeated = false;
                    }
                    b'|' => {
                        built.out.push('|');
                        built.last_atom = None;
                        at_start = true;
                    }
                    b'{' if dialect == Dialect::Basic && (was_start || built.last_atom.is_none()) => {
                        built.atom();
                        push_literal(&mut built.out, b'{');
                    }
                    b'{' if dialect == Dialect::Basic => {
                        let (operator, end) = interval(pattern, index)?;
                        built.repeat(&operator);
                        index = end;
                    }
                    b'+' | b'?' if dialect == Dialect::Basic && !was_start && built.last_atom.is_some() => {
                        built.repeat(if next == b'+' { "+" } else { "?" });
                    }
                    b'1'..=b'9' => return Err(BreError::BackReference),
                    _ => {
                        built.atom();
                        let text = match next {
                            b'w' => "[_[:alnum:]]",
                            b'W' => "[^_[:alnum:]]",
                            b's' => "[[:space:]]",
                            b'S' => "[^[:space:]]",
                            b'b' => "\\b",
                            b'B' => "\\B",
                            b'<' => "\\b{start}",
                            b'>' => "\\b{end}",
                            b'`' => "\\A",
                            b'\'' => "\\z",
                            other => {
                                push_literal(&mut built.out, other);
                                continue;
                            }
                        };
                        built.out.push_str(text);
                    }
                }
            }
            b'*' if !was_start && built.last_atom.is_some() => built.repeat("*"),
            b'+' | b'?' if dialect == Dialect::Emacs && !was_start && built.last_atom.is_some() => {
                built.repeat(if byte == b'+' { "+" } else { "?" });
            }
            b'^' if was_start => {
                built.out.push('^');
                built.last_atom = None;
                at_start = true;
            }
            b'$' if ends_here(pattern, index) => {
                built.out.push('$');
                built.last_atom = None;
            }
            b'.' => {
                built.atom();
                built.out.push('.');
            }
            b'[' => {
                built.atom();
                index = bracket(pattern, index, &mut built.out)?;
            }
            _ if byte >= 0x80 => {
                built.atom();
                let end = utf8_end(pattern, index - 1);
                match std::str::from_utf8(pattern.get(index - 1..end).unwrap_or(&[])) {
                    Ok(text) => {
                        built.out.push_str(&regex::escape(text));
                        index = end;
                    }
                    Err(_) => push_literal(&mut built.out, byte),
                }
            }
            _ => {
                built.atom();
                push_literal(&mut built.out, byte);
            }
        }
    }
    if !built.groups.is_empty() {
        return Err(BreError::UnmatchedOpen);
    }
    Ok(built.out)
}

/// The end of the UTF-8 sequence starting at `start` (by its lead byte).
fn utf8_end(pattern: &[u8], start: usize) -> usize {
    let lead = pattern.get(start).copied().unwrap_or(0);
    let length = match lead {
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf7 => 4,
        _ => 1,
    };
    (start + length).min(pattern.len())
}

/// True when a `$` just read (ending at `index`) is an anchor: at the end or
/// before `\)` or `\|`.
fn ends_here(pattern: &[u8], index: usize) -> bool {
    matches!(pattern.get(index..), Some([] | [b'\\', b')' | b'|', ..]) | None)
}

/// Reads `\{m,n\}` (after `\{`); returns `{m,n}` and the index after it.
fn interval(pattern: &[u8], start: usize) -> Result<(String, usize), BreError> {
    let rest = pattern.get(start..).unwrap_or(&[]);
    let close = rest.windows(2).position(|w| w == b"\\}").ok_or(BreError::UnmatchedBrace)?;
    let body = std::str::from_utf8(rest.get(..close).unwrap_or(&[])).map_err(|_| BreError::BadInterval)?;
    let (low, high) = match body.split_once(',') {
        Some((low, high)) => (low, Some(high)),
        None => (body, None),
    };
    let number = |text: &str| -> Result<Option<u32>, BreError> {
        if text.is_empty() {
            return Ok(None);
        }
        if !text.bytes().all(|b| b.is_ascii_digit()) {
            return Err(BreError::BadInterval);
        }
        text.parse::<u32>().ok().filter(|n| *n <= 32767).map(Some).ok_or(BreError::TooBig)
    };
    let low_value = number(low)?.unwrap_or(0);
    match high {
        None => {
            if low.is_empty() {
                return Err(BreError::BadInterval);
            }
            Ok((format!("{{{low_value}}}"), start + close + 2))
        }
        Some(high) => match number(high)? {
            Some(high_value) if high_value < low_value => Err(BreError::BadInterval),
            Some(high_value) => Ok((format!("{{{low_value},{high_value}}}"), start + close + 2)),
            None => Ok((format!("{{{low_value},}}"), start + close + 2)),
        },
    }
}

/// Reads a bracket expression (after `[`) and writes its `regex` form;
/// returns the index after the closing `]`.
fn bracket(pattern: &[u8], start: usize, out: &mut String) -> Result<usize, BreError> {
    let mut index = start;
    let mut class = String::from("[");
    if pattern.get(index) == Some(&b'^') {
        class.push('^');
        index += 1;
    }
    let mut first = true;
    loop {
        let Some(&byte) = pattern.get(index) else {
            return Err(BreError::UnmatchedBracket);
        };
        if byte == b']' && !first {
            index += 1;
            break;
        }
        first = false;
        if byte == b'[' {
            if let Some(&kind @ (b':' | b'=' | b'.')) = pattern.get(index + 1) {
                let body_start = index + 2;
                let rest = pattern.get(body_start..).unwrap_or(&[]);
                let close = rest.windows(2).position(|w| w[0] == kind && w[1] == b']').ok_or(BreError::UnmatchedBracket)?;
                let name = std::str::from_utf8(rest.get(..close).unwrap_or(&[])).map_err(|_| BreError::BadClass)?;
                index = body_start + close + 2;
                if kind == b':' {
                    if !CLASSES.contains(&name) {
                        return Err(BreError::BadClass);
                    }
                    class.push_str(&format!("[:{name}:]"));
                } else {
                    let mut chars = name.chars();
                    let (Some(c), None) = (chars.next(), chars.next()) else {
                        return Err(BreError::BadClass);
                    };
                    push_class_char(&mut class, c);
                }
                continue;
            }
        }
        let end = if byte >= 0x80 { utf8_end(pattern, index) } else { index + 1 };
        let c = std::str::from_utf8(pattern.get(index..end).unwrap_or(&[])).ok().and_then(|s| s.chars().next());
        index = end;
        let is_range = pattern.get(index) == Some(&b'-') && pattern.get(index + 1).is_some_and(|b| *b != b']');
        if is_range {
            let high_start = index + 1;
            let high_byte = pattern.get(high_start).copied().unwrap_or(0);
            let high_end = if high_byte >= 0x80 { utf8_end(pattern, high_start) } else { high_start + 1 };
            let high = std::str::from_utf8(pattern.get(high_start..high_end).unwrap_or(&[])).ok().and_then(|s| s.chars().next());
            let (Some(low), Some(high)) = (c.or(Some(char::from(byte))), high) else {
                return Err(BreError::BadRange);
            };
            if high < low {
                return Err(BreError::BadRange);
            }
            push_class_char(&mut class, low);
            class.push('-');
            push_class_char(&mut class, high);
            index = high_end;
            continue;
        }
        match c {
            Some(c) => push_class_char(&mut class, c),
            None => class.push_str(&format!("\\x{byte:02x}")),
        }
    }
    class.push(']');
    out.push_str(&class);
    Ok(index)
}

/// Appends one character to a class body, escaped where the `regex` crate
/// gives it a meaning.
fn push_class_char(class: &mut String, c: char) {
    if c.is_ascii_alphanumeric() {
        class.push(c);
    } else if c.is_ascii() {
        class.push_str(&format!("\\x{:02x}", c as u32));
    } else {
        class.push(c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matches(pattern: &str, text: &str) -> Option<usize> {
        let regex = compile(format!("\\`\\({pattern}\\)").as_bytes(), Dialect::Basic).ok()?;
        regex.find(text.as_bytes()).map(|m| m.end())
    }

    #[test]
    fn basic_syntax() {
        assert_eq!(matches("a\\{2\\}", "aaa"), Some(2));
        assert_eq!(matches("*a", "*a"), Some(2));
        assert_eq!(matches("a^b", "a^b"), Some(3));
        assert_eq!(matches("a$b", "a$b"), Some(3));
        assert_eq!(matches("[]x]*", "]x]y"), Some(3));
        assert_eq!(matches("[[:digit:]]\\+", "123a"), Some(3));
        assert_eq!(matches("a\\|b", "b"), Some(1));
        assert_eq!(matches(".", "é"), Some(2));
        assert_eq!(matches("a**", "aa"), Some(2));
        assert_eq!(matches("a*\\?b", "aab"), Some(3));
        assert_eq!(translate(b"\\(a", Dialect::Basic), Err(BreError::UnmatchedOpen));
        assert_eq!(translate(b"a\\)", Dialect::Basic), Err(BreError::UnmatchedClose));
        assert_eq!(translate(b"[a", Dialect::Basic), Err(BreError::UnmatchedBracket));
        assert_eq!(translate(b"x\\{a\\}", Dialect::Basic), Err(BreError::BadInterval));
        assert_eq!(translate(b"[z-a]", Dialect::Basic), Err(BreError::BadRange));
        assert_eq!(translate(b"[[:nope:]]", Dialect::Basic), Err(BreError::BadClass));
    }
}
