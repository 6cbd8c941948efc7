//! Unit tests of the POSIX translation and both engines.

use super::{Regex, RegexError, Syntax};

fn basic() -> Syntax {
    Syntax::default()
}

fn extended() -> Syntax {
    Syntax { extended: true, ..Syntax::default() }
}

fn find(pattern: &str, syntax: &Syntax, hay: &str) -> Option<(usize, usize)> {
    Regex::new(pattern.as_bytes(), syntax).unwrap().find_at(hay.as_bytes(), 0).unwrap()
}

fn error(pattern: &str, syntax: &Syntax) -> RegexError {
    Regex::new(pattern.as_bytes(), syntax).err().unwrap()
}

#[test]
fn basic_syntax_corners() {
    assert_eq!(find("*a", &basic(), "x*a"), Some((1, 3)));
    assert_eq!(find("a**", &basic(), "baa"), Some((0, 0)));
    assert_eq!(find("ba**", &basic(), "baa"), Some((0, 3)));
    assert_eq!(find("a\\{2\\}", &basic(), "aaa"), Some((0, 2)));
    assert_eq!(find("a\\+b\\?", &basic(), "xaab"), Some((1, 4)));
    assert_eq!(find("x\\|ab", &basic(), "zab"), Some((1, 3)));
    assert_eq!(find("a^b$c", &basic(), "a^b$c"), Some((0, 5)));
    assert_eq!(find("\\(^a\\)", &basic(), "ab"), Some((0, 1)));
    assert_eq!(find("a|b", &basic(), "a|b"), Some((0, 3)));
    assert_eq!(find("[]a]*", &basic(), "]a]x"), Some((0, 3)));
    assert_eq!(find("[[:digit:]x-z]\\+", &basic(), "ab1y2"), Some((2, 5)));
    assert_eq!(find("\\<is\\>", &basic(), "this is"), Some((5, 7)));
}

#[test]
fn leftmost_longest() {
    assert_eq!(find("a|ab", &extended(), "abcd"), Some((0, 2)));
    assert_eq!(find("(ab)?(abcd)?", &extended(), "abcd"), Some((0, 4)));
    assert_eq!(find("x*", &extended(), "abc"), Some((0, 0)));
}

#[test]
fn backreferences() {
    assert_eq!(find("\\(a*\\)b\\1", &basic(), "xaabaa"), Some((1, 6)));
    assert_eq!(find("(.)\\1", &extended(), "abccd"), Some((2, 4)));
    let fold = Syntax { ignore_case: true, ..basic() };
    assert_eq!(find("\\(a\\)\\1", &fold, "aA"), Some((0, 2)));
    let regex = Regex::new(b"\\(a\\|ab\\)\\(c\\|bcd\\)\\2", &basic()).unwrap();
    assert!(regex.captures_at(b"abcdbcd", 0).unwrap().is_some());
}

#[test]
fn backreference_prefilter_keeps_matches() {
    assert_eq!(find("\\(^a\\)\\1", &basic(), "aa"), Some((0, 2)));
    assert_eq!(find("\\(\\<a\\)\\1", &basic(), "aa"), Some((0, 2)));
    let fold = Syntax { ignore_case: true, ..basic() };
    assert_eq!(find("x\\(ab\\)\\1", &fold, "xAbaB"), Some((0, 5)));
}

#[test]
fn backtracking_is_bounded() {
    let regex = Regex::new(b"\\(a*\\)*b\\1", &basic()).unwrap();
    let hay = vec![b'a'; 5000];
    match regex.find_at(&hay, 0) {
        Ok(None) | Err(RegexError::StepLimit) => {}
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn errors_read_as_glibc() {
    assert_eq!(error("a\\{1", &basic()), RegexError::UnmatchedBrace);
    assert_eq!(error("\\(", &basic()), RegexError::UnmatchedOpen);
    assert_eq!(error("\\)", &basic()), RegexError::UnmatchedClose);
    assert_eq!(error("[b-a]", &basic()), RegexError::InvalidRangeEnd);
    assert_eq!(error("[[:foo:]]", &basic()), RegexError::InvalidClassName);
    assert_eq!(error("\\1", &basic()), RegexError::InvalidBackref);
    assert_eq!(error("a\\", &basic()), RegexError::TrailingBackslash);
    assert_eq!(error("a{2,1}", &extended()), RegexError::InvalidInterval);
    assert_eq!(error("a{99999}", &extended()), RegexError::TooBig);
    let sed = Syntax { glibc: true, ..extended() };
    assert_eq!(error("*a", &sed), RegexError::InvalidPreceding);
    assert_eq!(error("a{1", &sed), RegexError::UnmatchedBrace);
}

#[test]
fn invalid_utf8_and_sizes() {
    assert_eq!(find("b", &basic(), "a\u{e9}b"), Some((3, 4)));
    let regex = Regex::new(b"a\xffb", &basic()).unwrap();
    assert_eq!(regex.find_at(b"xa\xffb", 0).unwrap(), Some((1, 4)));
    assert_eq!(error("(((a{100}){100}){100})", &extended()), RegexError::TooBig);
}

#[test]
fn anchored_at_start() {
    let anchored = Syntax { anchored: true, ..Syntax::default() };
    assert_eq!(find("b", &anchored, "ab"), None);
    assert_eq!(find("*a", &anchored, "*ab"), Some((0, 2)));
    assert_eq!(find("a*", &anchored, "aab"), Some((0, 2)));
    let regex = Regex::new(b"\\(a.\\)\\1", &anchored).unwrap();
    assert_eq!(regex.captures_at(b"abab", 0).unwrap(), Some(vec![Some((0, 4)), Some((0, 2))]));
    assert_eq!(regex.captures_at(b"xabab", 0).unwrap(), None);
}

#[test]
fn emacs_syntax() {
    let emacs = Syntax { emacs: true, ..Syntax::default() };
    assert_eq!(find("a+b?", &emacs, "xaab"), Some((1, 4)));
    assert_eq!(find("a\\+", &emacs, "aa+"), Some((1, 3)));
    assert_eq!(find("a\\{2\\}", &emacs, "a{2}"), Some((0, 4)));
    assert_eq!(find("+a", &emacs, "+a"), Some((0, 2)));
    assert_eq!(find("\\(x\\|y\\)+", &emacs, "zxyx"), Some((1, 4)));
}
