//! Shell pattern matching (`fnmatch`): `*`, `?`, bracket expressions with
//! classes and ranges, backslash escapes, and the extglob operators
//! `?( ) *( ) +( ) @( ) !( )`.
//!
//! A pattern is compiled once into tokens and matched by a memoized
//! recursive matcher, so no pattern takes exponential time.

use std::collections::HashMap;

/// One element of a compiled pattern.
#[derive(Debug, Clone, PartialEq)]
enum Token {
    /// A character that must match itself.
    Char(char),
    /// `?`: any one character.
    Any,
    /// `*`: any run of characters.
    Star,
    /// `[...]`: a set of characters (negated with `!` or `^`).
    Class { negated: bool, items: Vec<ClassItem> },
    /// An extglob group: operator and alternatives.
    Group { op: char, alternatives: Vec<Vec<Token>> },
}

#[derive(Debug, Clone, PartialEq)]
enum ClassItem {
    Char(char),
    Range(char, char),
    Named(String),
}

/// A compiled shell pattern.
#[derive(Debug, Clone, PartialEq)]
pub struct Pattern {
    tokens: Vec<Token>,
    /// True when an extglob group is present (needs the memoized matcher).
    has_groups: bool,
}

/// Options that change how patterns compile and match.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PatternOptions {
    /// `shopt -s extglob`.
    pub extglob: bool,
    /// Case-insensitive matching (`nocaseglob`, `nocasematch`).
    pub nocase: bool,
}

impl Pattern {
    /// Compiles `pattern`, where `\c` quotes `c`.
    pub fn new(pattern: &str, options: PatternOptions) -> Pattern {
        let chars: Vec<char> = pattern.chars().collect();
        let mut position = 0;
        let tokens = compile(&chars, &mut position, options, false);
        let has_groups = tokens.iter().any(|t| matches!(t, Token::Group { .. }));
        Pattern { tokens, has_groups }
    }

    /// True when the pattern has no special characters (matches one string).
    pub fn is_literal(&self) -> bool {
        self.tokens.iter().all(|t| matches!(t, Token::Char(_)))
    }

    /// The literal text when [`Pattern::is_literal`].
    pub fn literal_text(&self) -> String {
        self.tokens.iter().filter_map(|t| if let Token::Char(c) = t { Some(*c) } else { None }).collect()
    }

    /// True when the whole of `text` matches.
    pub fn matches(&self, text: &str, nocase: bool) -> bool {
        if !self.has_groups && !nocase && text.is_ascii() {
            if let Some(literal) = self.literal_str() {
                return literal == text;
            }
        }
        let chars: Vec<char> = text.chars().collect();
        self.matches_chars(&chars, nocase)
    }

    /// The pattern as a plain string when it has no special characters.
    fn literal_str(&self) -> Option<String> {
        self.is_literal().then(|| self.literal_text())
    }

    /// True when the whole of `text[start..end]` (char indexes) matches.
    pub fn matches_chars(&self, chars: &[char], nocase: bool) -> bool {
        if !self.has_groups {
            return simple_match(&self.tokens, chars, nocase);
        }
        let mut matcher = Matcher { text: chars, nocase, memo: HashMap::new() };
        matcher.match_here(&self.tokens, 0, 0, chars.len())
    }

    /// True when the pattern starts with a literal `.` (globs need it to
    /// match hidden files).
    pub fn starts_with_dot(&self) -> bool {
        matches!(self.tokens.first(), Some(Token::Char('.')))
    }
}

/// True when `pattern` contains an unquoted glob character.
pub fn has_glob_chars(pattern: &str, extglob: bool) -> bool {
    let chars: Vec<char> = pattern.chars().collect();
    let mut index = 0;
    while index < chars.len() {
        match chars[index] {
            '\\' => index += 1,
            '*' | '?' => return true,
            '[' if class_end(&chars, index).is_some() => return true,
            '+' | '@' | '!' if extglob && chars.get(index + 1) == Some(&'(') => return true,
            _ => {}
        }
        index += 1;
    }
    false
}

/// Escapes pattern characters so `text` matches only itself.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '\\' | '*' | '?' | '[' | ']' | '(' | ')' | '|' | '+' | '@' | '!' | '^' | '-') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Removes pattern backslash-escapes (the text a non-matching glob leaves).
pub fn unescape(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len());
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(next) = chars.next() {
                out.push(next);
                continue;
            }
        }
        out.push(c);
    }
    out
}

/// Finds the `]` closing a bracket expression opened at `start`.
fn class_end(chars: &[char], start: usize) -> Option<usize> {
    let mut index = start + 1;
    if matches!(chars.get(index), Some('!') | Some('^')) {
        index += 1;
    }
    if chars.get(index) == Some(&']') {
        index += 1;
    }
    while index < chars.len() {
        match chars[index] {
            ']' => return Some(index),
            '\\' => index += 1,
            '[' if matches!(chars.get(index + 1), Some(':') | Some('.') | Some('=')) => {
                let kind = chars[index + 1];
                let mut probe = index + 2;
                while probe + 1 < chars.len() && !(chars[probe] == kind && chars[probe + 1] == ']') {
                    probe += 1;
                }
                if probe + 1 < chars.len() {
                    index = probe + 1;
                }
            }
            _ => {}
        }
        index += 1;
    }
    None
}

fn compile(chars: &[char], position: &mut usize, options: PatternOptions, in_group: bool) -> Vec<Token> {
    let mut tokens = Vec::new();
    while *position < chars.len() {
        let c = chars[*position];
        if in_group && (c == '|' || c == ')') {
            return tokens;
        }
        match c {
            '\\' => {
                *position += 1;
                match chars.get(*position) {
                    Some(&escaped) => tokens.push(Token::Char(escaped)),
                    None => tokens.push(Token::Char('\\')),
                }
                *position += 1;
            }
            '*' | '?' | '+' | '@' | '!' if options.extglob && chars.get(*position + 1) == Some(&'(') => {
                let op = c;
                let save = *position;
                *position += 2;
                let mut alternatives = Vec::new();
                let mut closed = false;
                loop {
                    alternatives.push(compile(chars, position, options, true));
                    match chars.get(*position) {
                        Some('|') => *position += 1,
                        Some(')') => {
                            *position += 1;
                            closed = true;
                            break;
                        }
                        _ => break,
                    }
                }
                if closed {
                    tokens.push(Token::Group { op, alternatives });
                } else {
                    *position = save + 1;
                    tokens.push(match op {
                        '*' => Token::Star,
                        '?' => Token::Any,
                        other => Token::Char(other),
                    });
                }
            }
            '*' => {
                *position += 1;
                if !matches!(tokens.last(), Some(Token::Star)) {
                    tokens.push(Token::Star);
                }
            }
            '?' => {
                *position += 1;
                tokens.push(Token::Any);
            }
            '[' => match class_end(chars, *position) {
                Some(end) => {
                    tokens.push(compile_class(&chars[*position + 1..end]));
                    *position = end + 1;
                }
                None => {
                    tokens.push(Token::Char('['));
                    *position += 1;
                }
            },
            other => {
                tokens.push(Token::Char(other));
                *position += 1;
            }
        }
    }
    tokens
}

fn compile_class(body: &[char]) -> Token {
    let mut index = 0;
    let negated = matches!(body.first(), Some('!') | Some('^'));
    if negated {
        index = 1;
    }
    let mut items = Vec::new();
    let mut first = true;
    while index < body.len() {
        let c = body[index];
        if c == '[' && body.get(index + 1) == Some(&':') {
            if let Some(end) = (index + 2..body.len().saturating_sub(1)).find(|&i| body[i] == ':' && body[i + 1] == ']') {
                items.push(ClassItem::Named(body[index + 2..end].iter().collect()));
                index = end + 2;
                first = false;
                continue;
            }
        }
        let start = if c == '\\' && index + 1 < body.len() {
            index += 1;
            body[index]
        } else {
            c
        };
        let _ = first;
        first = false;
        if body.get(index + 1) == Some(&'-') && index + 2 < body.len() {
            let mut end_index = index + 2;
            if body[end_index] == '\\' && end_index + 1 < body.len() {
                end_index += 1;
            }
            items.push(ClassItem::Range(start, body[end_index]));
            index = end_index + 1;
        } else {
            items.push(ClassItem::Char(start));
            index += 1;
        }
    }
    Token::Class { negated, items }
}

fn class_matches(negated: bool, items: &[ClassItem], c: char, nocase: bool) -> bool {
    let test = |c: char| {
        items.iter().any(|item| match item {
            ClassItem::Char(x) => *x == c,
            ClassItem::Range(a, b) => *a <= c && c <= *b,
            ClassItem::Named(name) => named_class(name, c),
        })
    };
    let mut hit = test(c);
    if !hit && nocase {
        hit = test(c.to_ascii_lowercase()) || test(c.to_ascii_uppercase());
    }
    hit != negated
}

/// POSIX character classes (`[:alpha:]`...), ASCII semantics as in the C locale.
pub fn named_class(name: &str, c: char) -> bool {
    match name {
        "alpha" => c.is_alphabetic(),
        "digit" => c.is_ascii_digit(),
        "alnum" => c.is_alphanumeric(),
        "upper" => c.is_uppercase(),
        "lower" => c.is_lowercase(),
        "space" => matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0b' | '\x0c'),
        "blank" => c == ' ' || c == '\t',
        "punct" => c.is_ascii_punctuation(),
        "print" => !c.is_control(),
        "graph" => !c.is_control() && c != ' ',
        "cntrl" => c.is_control(),
        "xdigit" => c.is_ascii_hexdigit(),
        "word" => c.is_alphanumeric() || c == '_',
        _ => false,
    }
}

/// Matches patterns without extglob groups: the classic single-backtrack
/// star algorithm, linear in practice and never exponential.
fn simple_match(tokens: &[Token], text: &[char], nocase: bool) -> bool {
    let one = |token: &Token, c: char| match token {
        Token::Char(x) => *x == c || (nocase && x.to_lowercase().eq(c.to_lowercase())),
        Token::Any => true,
        Token::Class { negated, items } => class_matches(*negated, items, c, nocase),
        _ => false,
    };
    let (mut t, mut s) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while s < text.len() {
        match tokens.get(t) {
            Some(Token::Star) => {
                star = Some((t, s));
                t += 1;
                continue;
            }
            Some(token) if one(token, text[s]) => {
                t += 1;
                s += 1;
                continue;
            }
            _ => {}
        }
        match star {
            Some((star_t, star_s)) => {
                t = star_t + 1;
                s = star_s + 1;
                star = Some((star_t, star_s + 1));
            }
            None => return false,
        }
    }
    while matches!(tokens.get(t), Some(Token::Star)) {
        t += 1;
    }
    t == tokens.len()
}

struct Matcher<'t> {
    text: &'t [char],
    nocase: bool,
    memo: HashMap<(usize, usize, usize, usize), bool>,
}

impl Matcher<'_> {
    /// Does `tokens[ti..]` match exactly `text[position..end]`?
    fn match_here(&mut self, tokens: &[Token], ti: usize, position: usize, end: usize) -> bool {
        let key = (tokens.as_ptr() as usize, ti, position, end);
        if let Some(&known) = self.memo.get(&key) {
            return known;
        }
        let result = self.match_uncached(tokens, ti, position, end);
        self.memo.insert(key, result);
        result
    }

    fn match_uncached(&mut self, tokens: &[Token], ti: usize, position: usize, end: usize) -> bool {
        let Some(token) = tokens.get(ti) else {
            return position == end;
        };
        match token {
            Token::Char(c) => {
                position < end && self.chars_equal(*c, self.text[position]) && self.match_here(tokens, ti + 1, position + 1, end)
            }
            Token::Any => position < end && self.match_here(tokens, ti + 1, position + 1, end),
            Token::Star => (position..=end).any(|next| self.match_here(tokens, ti + 1, next, end)),
            Token::Class { negated, items } => {
                position < end
                    && class_matches(*negated, items, self.text[position], self.nocase)
                    && self.match_here(tokens, ti + 1, position + 1, end)
            }
            Token::Group { op, alternatives } => match op {
                '@' => (position..=end)
                    .any(|mid| self.any_alternative(alternatives, position, mid) && self.match_here(tokens, ti + 1, mid, end)),
                '?' => {
                    self.match_here(tokens, ti + 1, position, end)
                        || (position..=end)
                            .any(|mid| self.any_alternative(alternatives, position, mid) && self.match_here(tokens, ti + 1, mid, end))
                }
                '*' | '+' => {
                    if *op == '*' && self.match_here(tokens, ti + 1, position, end) {
                        return true;
                    }
                    self.repeat(alternatives, tokens, ti, position, end)
                }
                _ => (position..=end)
                    .any(|mid| !self.any_alternative(alternatives, position, mid) && self.match_here(tokens, ti + 1, mid, end)),
            },
        }
    }

    /// One or more repetitions of the alternatives from `position`, then the rest.
    fn repeat(&mut self, alternatives: &[Vec<Token>], tokens: &[Token], ti: usize, position: usize, end: usize) -> bool {
        for mid in position + 1..=end {
            if self.any_alternative(alternatives, position, mid)
                && (self.match_here(tokens, ti + 1, mid, end) || self.repeat(alternatives, tokens, ti, mid, end))
            {
                return true;
            }
        }
        false
    }

    fn any_alternative(&mut self, alternatives: &[Vec<Token>], start: usize, end: usize) -> bool {
        alternatives.iter().any(|alternative| self.match_here(alternative, 0, start, end))
    }

    fn chars_equal(&self, a: char, b: char) -> bool {
        a == b || (self.nocase && a.to_lowercase().eq(b.to_lowercase()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(pattern: &str, text: &str) -> bool {
        Pattern::new(pattern, PatternOptions { extglob: true, nocase: false }).matches(text, false)
    }

    #[test]
    fn basic_wildcards() {
        assert!(m("*.txt", "a.txt"));
        assert!(!m("*.txt", "a.txd"));
        assert!(m("a?c", "abc"));
        assert!(m("[a-c]x", "bx"));
        assert!(!m("[!a-c]x", "bx"));
        assert!(m("[[:digit:]]*", "9lives"));
        assert!(m("\\*", "*"));
        assert!(!m("\\*", "a"));
        assert!(m("[]]", "]"));
    }

    #[test]
    fn extglob_operators() {
        assert!(m("@(foo|bar).c", "bar.c"));
        assert!(m("!(foo).c", "baz.c"));
        assert!(!m("!(foo).c", "foo.c"));
        assert!(m("+(ab)", "ababab"));
        assert!(m("*(ab)", ""));
        assert!(m("?(x)y", "y"));
    }

    #[test]
    fn no_exponential_blowup() {
        let text = "a".repeat(60);
        assert!(!m("*a*a*a*a*a*a*a*a*a*b", &text));
    }
}
