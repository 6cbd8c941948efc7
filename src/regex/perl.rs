//! Perl-compatible expressions (`grep -P`, `rg -P`) on the fancy-regex
//! crate: look-ahead and look-behind, `\K`, back-references, named groups,
//! lazy, atomic and possessive forms. fancy-regex hands every part that
//! needs no backtracking to regex-automata's linear-time engines; only the
//! parts that do run on its backtracking VM, whose step budget
//! ([`BACKTRACK_LIMIT`]) turns a catastrophic case into
//! [`RegexError::BacktrackLimit`] instead of a hang.
//!
//! The pattern is first rewritten where PCRE and the crate read an escape
//! differently (`\h` is horizontal space in PCRE, a hex digit in the
//! crate) or the crate lacks one (`\Q...\E`), and, for grep, where PCRE2
//! without `UCP` keeps `\d \w \s` to ASCII.

use super::{RegexError, Span, Syntax};
use fancy_regex::{BytesMode, Error, ParseError, RegexBuilder, RuntimeError};

/// Backtracking steps one search may take before it fails.
pub const BACKTRACK_LIMIT: usize = 1_000_000;

/// The compiled-size limit handed to the linear-time parts.
const DELEGATE_SIZE_LIMIT: usize = 8 << 20;

/// A compiled Perl-style expression.
pub struct Perl {
    regex: fancy_regex::Regex,
}

impl Perl {
    /// Compiles `pattern` (`syntax.ignore_case`, `whole_word` and
    /// `whole_line` apply; `ascii_classes` keeps `\d \w \s` to ASCII).
    pub fn new(pattern: &[u8], syntax: &Syntax, ascii_classes: bool) -> Result<Perl, RegexError> {
        let body = translate(&String::from_utf8_lossy(pattern), ascii_classes);
        let word = if ascii_classes { "[A-Za-z0-9_]" } else { r"\w" };
        let text = if syntax.whole_line {
            format!("^(?:{body})$")
        } else if syntax.whole_word {
            format!("(?<!{word})(?:{body})(?!{word})")
        } else {
            body
        };
        let regex = RegexBuilder::new(&text)
            .case_insensitive(syntax.ignore_case)
            .multi_line(syntax.multiline)
            .bytes_mode(BytesMode::UnicodeBytes)
            .backtrack_limit(BACKTRACK_LIMIT)
            .delegate_size_limit(DELEGATE_SIZE_LIMIT)
            .build()
            .map_err(|error| RegexError::Perl(pcre_message(&error)))?;
        Ok(Perl { regex })
    }

    /// The number of capturing groups.
    pub fn groups(&self) -> usize {
        self.regex.captures_len().saturating_sub(1)
    }

    /// True when the expression matches somewhere in `hay`.
    pub fn is_match(&self, hay: &[u8]) -> Result<bool, RegexError> {
        self.regex.is_match(hay).map_err(runtime_error)
    }

    /// The leftmost-first match at or after `start` (text before `start`
    /// is context for look-behind and anchors).
    pub fn find_at(&self, hay: &[u8], start: usize) -> Result<Option<Span>, RegexError> {
        let found = self.regex.find_from_pos(hay, start).map_err(runtime_error)?;
        Ok(found.map(|m| (m.start(), m.end())))
    }

    /// The match at or after `start` and its groups' spans (index 0 is the
    /// whole match).
    pub fn captures_at(&self, hay: &[u8], start: usize) -> Result<Option<Vec<Option<Span>>>, RegexError> {
        let Some(captures) = self.regex.captures_from_pos(hay, start).map_err(runtime_error)? else {
            return Ok(None);
        };
        Ok(Some((0..captures.len()).map(|group| captures.get(group).map(|m| (m.start(), m.end()))).collect()))
    }
}

fn runtime_error(error: Error) -> RegexError {
    match error {
        Error::RuntimeError(RuntimeError::StackOverflow) => RegexError::StackLimit,
        _ => RegexError::BacktrackLimit,
    }
}

/// The message PCRE2 gives for the nearest error, as grep prints it.
fn pcre_message(error: &Error) -> String {
    use fancy_regex::CompileError;
    let text = match error {
        Error::ParseError(_, parse) => match parse {
            ParseError::UnclosedOpenParen => "missing closing parenthesis",
            ParseError::InvalidRepeat | ParseError::TargetNotRepeatable => "quantifier does not follow a repeatable item",
            ParseError::RecursionExceeded => "parentheses are too deeply nested",
            ParseError::TrailingBackslash => "\\ at end of pattern",
            ParseError::InvalidEscape(_) => "unrecognized character follows \\",
            ParseError::InvalidHex | ParseError::InvalidCodepointValue => "character code point value in \\x{} or \\o{} is too large",
            ParseError::InvalidClass => "missing terminating ] for character class",
            ParseError::UnknownFlag(_) => "unrecognized character after (? or (?-",
            ParseError::InvalidBackref | ParseError::InvalidGroupNameBackref(_) => "reference to non-existent subpattern",
            ParseError::InvalidGroupName => "subpattern name expected",
            ParseError::GeneralParseError(detail) if detail.contains("end of string not reached") => "unmatched closing parenthesis",
            _ => return error.to_string(),
        },
        Error::CompileError(compile) => match compile.as_ref() {
            CompileError::LookBehindNotConst | CompileError::VariableLookBehindRequiresFeature => {
                "lookbehind assertion is not fixed length"
            }
            CompileError::InvalidBackref(_) | CompileError::InvalidGroupNameBackref(_) => "reference to non-existent subpattern",
            CompileError::InnerError(inner) => return inner_message(inner),
            _ => return error.to_string(),
        },
        _ => return error.to_string(),
    };
    text.to_string()
}

/// The message of an error from the linear-time parts, in PCRE's words
/// where one matches.
fn inner_message(error: &regex_automata::meta::BuildError) -> String {
    use std::error::Error as _;
    if error.size_limit().is_some() {
        return "regular expression is too large".to_string();
    }
    let detail = error.source().map(|source| source.to_string()).unwrap_or_else(|| error.to_string());
    let reason = detail.lines().rev().find(|line| line.starts_with("error:")).unwrap_or(detail.as_str());
    let reason = reason.trim_start_matches("error:").trim();
    let pcre = match reason {
        r if r.contains("invalid character class range") => "range out of order in character class",
        r if r.contains("invalid repetition count range") => "numbers out of order in {} quantifier",
        r if r.contains("Unicode property not found") => "unknown property after \\P or \\p",
        r if r.contains("unclosed character class") => "missing terminating ] for character class",
        r if r.contains("unclosed group") => "missing closing parenthesis",
        r if r.contains("unopened group") => "unmatched closing parenthesis",
        r if r.contains("repetition operator missing expression") => "quantifier does not follow a repeatable item",
        other => other,
    };
    pcre.to_string()
}

/// Rewrites the escapes PCRE reads differently from the crate (see the
/// module doc).
pub fn translate(pattern: &str, ascii_classes: bool) -> String {
    let mut out = String::with_capacity(pattern.len());
    let mut chars = pattern.chars().peekable();
    let mut in_class = false;
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                let Some(next) = chars.next() else {
                    out.push('\\');
                    break;
                };
                match next {
                    'h' if in_class => out.push_str(r" \t"),
                    'h' => out.push_str(r"[ \t]"),
                    'H' if !in_class => out.push_str(r"[^ \t]"),
                    'd' if ascii_classes => out.push_str(if in_class { "0-9" } else { "[0-9]" }),
                    'w' if ascii_classes => out.push_str(if in_class { "A-Za-z0-9_" } else { "[A-Za-z0-9_]" }),
                    's' if ascii_classes => out.push_str(if in_class { r"\t\n\x0B\f\r " } else { r"[\t\n\x0B\f\r ]" }),
                    // grep 3.8's PCRE2 setup: the negated classes match
                    // ASCII characters only (`\D` does not match `é`).
                    'D' if ascii_classes && !in_class => out.push_str(r"[\x00-/:-\x7F]"),
                    'W' if ascii_classes && !in_class => out.push_str(r"[\x00-/:-@\[-^`{-\x7F]"),
                    'S' if ascii_classes && !in_class => out.push_str(r"[\x00-\x08\x0E-\x1F!-\x7F]"),
                    'Q' => {
                        let mut literal = String::new();
                        while let Some(q) = chars.next() {
                            if q == '\\' && chars.peek() == Some(&'E') {
                                chars.next();
                                break;
                            }
                            literal.push(q);
                        }
                        out.push_str(&regex::escape(&literal));
                    }
                    'E' => {}
                    other => {
                        out.push('\\');
                        out.push(other);
                    }
                }
            }
            '[' if !in_class => {
                in_class = true;
                out.push('[');
                if chars.peek() == Some(&'^') {
                    chars.next();
                    out.push('^');
                }
                if chars.peek() == Some(&']') {
                    chars.next();
                    out.push_str(r"\]");
                }
            }
            '[' if chars.peek() == Some(&':') => {
                // A POSIX class inside a bracket: copy through its `:]`.
                out.push('[');
                for inner in chars.by_ref() {
                    out.push(inner);
                    if inner == ']' {
                        break;
                    }
                }
            }
            ']' if in_class => {
                in_class = false;
                out.push(']');
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{translate, Perl};
    use crate::regex::{RegexError, Syntax};

    fn perl(pattern: &str) -> Perl {
        match Perl::new(pattern.as_bytes(), &Syntax::default(), true) {
            Ok(regex) => regex,
            Err(error) => panic!("{pattern}: {error}"),
        }
    }

    #[test]
    fn maps_missing_escapes() {
        assert_eq!(translate(r"a\hb", false), r"a[ \t]b");
        assert_eq!(translate(r"[\h,]", false), r"[ \t,]");
        assert_eq!(translate(r"\Qa.b\E+", false), r"a\.b+");
        assert_eq!(translate(r"[]a]", false), r"[\]a]");
        assert_eq!(translate(r"[[:alpha:]\d]", true), r"[[:alpha:]0-9]");
        assert_eq!(translate(r"\w+", true), r"[A-Za-z0-9_]+");
    }

    #[test]
    fn matches_the_perl_features() {
        assert_eq!(perl(r"foo(?=\d)").find_at(b"foox foo1", 0), Ok(Some((5, 8))));
        assert_eq!(perl(r"(?<=\$)\d+").find_at(b"a 1 $23", 0), Ok(Some((5, 7))));
        assert_eq!(perl(r"key=\K\w+").find_at(b"a key=val", 0), Ok(Some((6, 9))));
        assert_eq!(perl(r"a.*?b").find_at(b"axbxb", 0), Ok(Some((0, 3))));
        assert_eq!(perl(r"(?>a+)b").find_at(b"aab", 0), Ok(Some((0, 3))));
        assert_eq!(perl(r"a++a").find_at(b"aaa", 0), Ok(None));
        assert_eq!(perl(r"(?<w>\w)\k<w>").find_at(b"abccd", 0), Ok(Some((2, 4))));
        assert_eq!(perl(r"\w").find_at("é1".as_bytes(), 0), Ok(Some((2, 3))));
    }

    #[test]
    fn invalid_utf8_is_searched() {
        assert_eq!(perl(r"b(?=c)").find_at(b"\xffbc", 0), Ok(Some((1, 2))));
    }

    #[test]
    fn backtracking_is_bounded() {
        let hay = [b"a".repeat(40), b"!".to_vec()].concat();
        assert_eq!(perl(r"^(\w+\s?)*(?<=b)$").is_match(&hay), Err(RegexError::BacktrackLimit));
    }

    #[test]
    fn errors_read_as_pcre() {
        let error = |p: &str| Perl::new(p.as_bytes(), &Syntax::default(), true).err().map(|e| e.to_string());
        assert_eq!(error("(a").as_deref(), Some("missing closing parenthesis"));
        assert_eq!(error("(?<=a+)b").as_deref(), Some("lookbehind assertion is not fixed length"));
    }
}
