//! The pattern of an `rg` run: Rust regex syntax by default (Unicode,
//! leftmost-first, on regex-automata), `-P` for Perl syntax, `-F` for
//! literals, `-w`/`-x`, and the case modes `-i`, `-s`, `-S`.
//!
//! A file is searched as one buffer: the expression runs over the whole
//! buffer and each candidate is confirmed on its own line, so a match never
//! spans a line break and lines without a candidate cost nothing.

use crate::regex::{Regex, Syntax};
use regex_automata::meta;
use regex_automata::util::syntax;
use regex_automata::Input;

/// The compiled-size limit of the expression (ripgrep's default).
const SIZE_LIMIT: usize = 10 << 20;

/// How the patterns are read.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub enum CaseMode {
    /// `-s` (the default): case matters.
    #[default]
    Sensitive,
    /// `-i`.
    Insensitive,
    /// `-S`: insensitive unless the pattern has an upper-case letter.
    Smart,
}

/// The settings that shape the expression.
#[derive(Default)]
pub struct MatchOptions {
    /// `-F`.
    pub fixed: bool,
    /// `-P`.
    pub perl: bool,
    /// `-w`.
    pub word: bool,
    /// `-x`.
    pub line: bool,
    /// `-i`, `-s`, `-S`.
    pub case: CaseMode,
}

/// A compiled pattern list.
pub enum Matcher {
    /// Rust syntax on the linear-time engine.
    Rust(meta::Regex),
    /// Perl syntax on fancy-regex.
    Perl(Box<Regex>),
}

/// The spans of a match's groups (index 0 is the whole match).
pub type Groups = Vec<Option<(usize, usize)>>;

/// A search that could not finish (Perl's backtracking limit).
#[derive(Debug)]
pub struct MatchError;

impl Matcher {
    /// Compiles the patterns; `Err` holds ripgrep's message.
    pub fn new(patterns: &[String], options: &MatchOptions) -> Result<Matcher, String> {
        let alternatives: Vec<String> =
            patterns.iter().map(|pattern| if options.fixed { regex::escape(pattern) } else { pattern.clone() }).collect();
        let ignore_case = match options.case {
            CaseMode::Sensitive => false,
            CaseMode::Insensitive => true,
            CaseMode::Smart => !alternatives.iter().any(|pattern| has_upper_literal(pattern)),
        };
        let joined = if alternatives.len() == 1 {
            alternatives.into_iter().next().unwrap_or_default()
        } else {
            alternatives.iter().map(|p| format!("(?:{p})")).collect::<Vec<_>>().join("|")
        };
        if options.perl {
            let syntax = Syntax {
                perl: true,
                unicode_classes: true,
                ignore_case,
                whole_word: options.word,
                whole_line: options.line,
                ..Syntax::default()
            };
            return match Regex::new(joined.as_bytes(), &syntax) {
                Ok(regex) => Ok(Matcher::Perl(Box::new(regex))),
                Err(error) => Err(format!("PCRE2: error compiling pattern at offset 0: {error}")),
            };
        }
        if let Some(message) = literal_newline(&joined) {
            return Err(message);
        }
        let text = if options.line {
            format!("^(?:{joined})$")
        } else if options.word {
            format!(r"\b{{start-half}}(?:{joined})\b{{end-half}}")
        } else {
            joined
        };
        let config = meta::Config::new().nfa_size_limit(Some(SIZE_LIMIT)).onepass_size_limit(Some(SIZE_LIMIT));
        let syntax = syntax::Config::new().utf8(false).case_insensitive(ignore_case).multi_line(true).nest_limit(250);
        match meta::Regex::builder().configure(config).syntax(syntax).build(&text) {
            Ok(regex) => Ok(Matcher::Rust(regex)),
            Err(error) => Err(build_message(&error)),
        }
    }

    /// The first match in `line` at or after `at`.
    pub fn find(&self, line: &[u8], at: usize) -> Result<Option<(usize, usize)>, MatchError> {
        match self {
            Matcher::Rust(regex) => Ok(regex.search(&Input::new(line).range(at..)).map(|m| (m.start(), m.end()))),
            Matcher::Perl(regex) => regex.find_at(line, at).map_err(|_| MatchError),
        }
    }

    /// The spans of the groups of the first match at or after `at` (index
    /// 0 is the whole match).
    pub fn captures_at(&self, line: &[u8], at: usize) -> Result<Option<Groups>, MatchError> {
        match self {
            Matcher::Rust(regex) => {
                let mut captures = regex.create_captures();
                regex.search_captures(&Input::new(line).range(at..), &mut captures);
                if !captures.is_match() {
                    return Ok(None);
                }
                Ok(Some((0..captures.group_len()).map(|group| captures.get_group(group).map(|span| (span.start, span.end))).collect()))
            }
            Matcher::Perl(regex) => regex.captures_at(line, at).map_err(|_| MatchError),
        }
    }

    /// The index of the group called `name` (Rust syntax only).
    pub fn group_index(&self, name: &str) -> Option<usize> {
        match self {
            Matcher::Rust(regex) => regex.group_info().to_index(regex_automata::PatternID::ZERO, name),
            Matcher::Perl(_) => None,
        }
    }

    /// The first line at or after `from` (a line start) holding a match,
    /// as `(start, end)` without its terminator.
    pub fn next_matching_line(&self, buffer: &[u8], from: usize) -> Result<Option<(usize, usize)>, MatchError> {
        let mut from = from;
        while from < buffer.len() {
            let candidate = match self {
                Matcher::Rust(regex) => regex.search(&Input::new(buffer).range(from..)).map(|m| (m.start(), m.end())),
                Matcher::Perl(_) => {
                    let end = line_end(buffer, from);
                    let line = buffer.get(from..end).unwrap_or(&[]);
                    if self.find(line, 0)?.is_some() {
                        return Ok(Some((from, end)));
                    }
                    from = end + 1;
                    continue;
                }
            };
            let Some((start, end)) = candidate else { return Ok(None) };
            let line_start = memchr::memrchr(b'\n', buffer.get(from..start).unwrap_or(&[])).map_or(from, |i| from + i + 1);
            if line_start >= buffer.len() {
                return Ok(None);
            }
            let line_stop = line_end(buffer, start);
            if end <= line_stop || self.find(buffer.get(line_start..line_stop).unwrap_or(&[]), 0)?.is_some() {
                return Ok(Some((line_start, line_stop)));
            }
            from = line_stop + 1;
        }
        Ok(None)
    }
}

/// The end of the line holding `at` (the offset of its `\n`, or the end).
pub fn line_end(buffer: &[u8], at: usize) -> usize {
    memchr::memchr(b'\n', buffer.get(at..).unwrap_or(&[])).map_or(buffer.len(), |i| at + i)
}

/// True when the pattern has an upper-case letter outside an escape (what
/// makes `-S` case sensitive).
fn has_upper_literal(pattern: &str) -> bool {
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some('p' | 'P') = chars.next() {
                // `\pL` or `\p{Name}`: a class, not a letter.
                if chars.clone().next() == Some('{') {
                    for inner in chars.by_ref() {
                        if inner == '}' {
                            break;
                        }
                    }
                } else {
                    chars.next();
                }
            }
            continue;
        }
        if c.is_uppercase() {
            return true;
        }
    }
    false
}

/// ripgrep refuses a pattern that can only match a line break.
fn literal_newline(pattern: &str) -> Option<String> {
    pattern.contains('\n').then(|| "the literal '\"\\n\"' is not allowed in a regex".to_string())
}

/// The syntax error as the regex crate shows it (`regex parse error:` and
/// a caret under the place), or the size limit's message.
fn build_message(error: &meta::BuildError) -> String {
    if let Some(limit) = error.size_limit() {
        return format!("compiled regex exceeds size limit of {limit}");
    }
    match error.syntax_error() {
        Some(syntax) => syntax.to_string(),
        None => error.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::{CaseMode, MatchOptions, Matcher};

    fn matcher(pattern: &str, options: MatchOptions) -> Matcher {
        match Matcher::new(&[pattern.to_string()], &options) {
            Ok(m) => m,
            Err(error) => panic!("{error}"),
        }
    }

    #[test]
    fn matches_stay_within_lines() {
        let m = matcher(r"a\sb", MatchOptions::default());
        assert_eq!(m.next_matching_line(b"xa\nb\nya b\n", 0).ok().flatten(), Some((5, 9)));
    }

    #[test]
    fn smart_case_follows_upper_case_letters() {
        let options = || MatchOptions { case: CaseMode::Smart, ..MatchOptions::default() };
        assert!(matcher("hello", options()).find(b"HELLO", 0).ok().flatten().is_some());
        assert!(matcher("Hello", options()).find(b"HELLO", 0).ok().flatten().is_none());
        assert!(matcher(r"\Shello", options()).find(b"XHELLO", 0).ok().flatten().is_some());
    }

    #[test]
    fn syntax_errors_read_as_ripgrep() {
        let error = Matcher::new(&["a(".to_string()], &MatchOptions::default()).err();
        assert_eq!(error.as_deref(), Some("regex parse error:\n    a(\n     ^\nerror: unclosed group"));
    }
}
