//! `find -regex`: GNU's regex dialects (emacs by default, POSIX basic and
//! extended) translated to `regex-automata` syntax and matched against the
//! whole path, in linear time (the `regex` crate).

use regex::bytes::{Regex, RegexBuilder};

/// The dialect `-regextype` selects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RegexType {
    /// `emacs` / `findutils-default`: `\(` `\)` `\|` group and alternate; `+ ?` are operators.
    Emacs,
    /// `posix-basic`: like emacs but `+ ?` are literal and `\{m,n\}` counts.
    Basic,
    /// `posix-extended` / `posix-egrep` / `egrep`: `( ) | + ? {}` are operators.
    Extended,
}

impl RegexType {
    /// The dialect named by `-regextype`.
    pub fn from_name(name: &str) -> Option<RegexType> {
        match name {
            "emacs" | "findutils-default" | "gnu-awk" | "awk" | "posix-awk" => Some(RegexType::Emacs),
            "posix-basic" | "grep" | "ed" | "sed" => Some(RegexType::Basic),
            "posix-extended" | "posix-egrep" | "egrep" | "posix-minimal-basic" => Some(RegexType::Extended),
            _ => None,
        }
    }
}

/// A compiled `-regex` pattern.
#[derive(Debug)]
pub struct FindRegex {
    regex: Regex,
}

/// Rewrites a pattern of `kind` into the regex crate's syntax.
fn translate(pattern: &str, kind: RegexType) -> String {
    let mut out = String::new();
    let mut chars = pattern.chars().peekable();
    let mut in_bracket = false;
    while let Some(c) = chars.next() {
        if in_bracket {
            match c {
                ']' => {
                    in_bracket = false;
                    out.push(']');
                }
                '[' if chars.peek() == Some(&':') => {
                    // A `[:class:]` passes through whole.
                    out.push('[');
                    for inner in chars.by_ref() {
                        out.push(inner);
                        if inner == ']' {
                            break;
                        }
                    }
                }
                '\\' | '[' | '&' | '~' => {
                    out.push('\\');
                    out.push(c);
                }
                _ => out.push(c),
            }
            continue;
        }
        match c {
            '[' => {
                in_bracket = true;
                out.push('[');
                if chars.peek() == Some(&'^') {
                    out.push('^');
                    chars.next();
                }
                if chars.peek() == Some(&']') {
                    out.push_str("\\]");
                    chars.next();
                }
            }
            '\\' => match chars.next() {
                Some(g @ ('(' | ')' | '|')) if kind != RegexType::Extended => out.push(g),
                Some(g @ ('{' | '}')) if kind == RegexType::Basic => out.push(g),
                Some(d) if d.is_ascii_digit() => out.push_str(&format!("\\{d}")),
                Some(other) => {
                    if other.is_ascii_alphanumeric() && "wWsSbB".contains(other) {
                        out.push('\\');
                        out.push(other);
                    } else {
                        push_literal(&mut out, other);
                    }
                }
                None => out.push_str("\\\\"),
            },
            '(' | ')' | '|' | '{' | '}' if kind != RegexType::Extended => push_literal(&mut out, c),
            '+' | '?' if kind == RegexType::Basic => push_literal(&mut out, c),
            other => out.push(other),
        }
    }
    out
}

fn push_literal(out: &mut String, c: char) {
    if c.is_ascii_punctuation() {
        out.push('\\');
    }
    out.push(c);
}

impl FindRegex {
    /// Compiles `pattern`; the message on failure is GNU-shaped.
    pub fn new(pattern: &str, kind: RegexType, fold: bool) -> Result<FindRegex, String> {
        let translated = format!("^(?:{})$", translate(pattern, kind));
        let built =
            RegexBuilder::new(&translated).case_insensitive(fold).unicode(false).dot_matches_new_line(true).size_limit(8 << 20).build();
        built.map(|regex| FindRegex { regex }).map_err(|_| format!("Invalid regular expression '{pattern}'"))
    }

    /// True when the whole `path` matches.
    pub fn is_match(&self, path: &str) -> bool {
        self.regex.is_match(path.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(pattern: &str, kind: RegexType, path: &str) -> bool {
        FindRegex::new(pattern, kind, false).unwrap().is_match(path)
    }

    #[test]
    fn dialects() {
        assert!(m(".*\\.txt", RegexType::Emacs, "./a/x.txt"));
        assert!(!m("x\\.txt", RegexType::Emacs, "./a/x.txt"));
        assert!(m(".*\\(x\\|z\\)", RegexType::Emacs, "./z"));
        assert!(m(".*(x|z)\\.?t?x?t?", RegexType::Extended, "./a/x.txt"));
        assert!(m(".*a+", RegexType::Emacs, "./aa"));
        assert!(!m(".*a+", RegexType::Basic, "./aa"));
        assert!(m("[.]/[a-z]*", RegexType::Emacs, "./abc"));
        assert!(FindRegex::new(".*y.txt", RegexType::Emacs, true).unwrap().is_match("./a/b/y.TXT"));
    }
}
