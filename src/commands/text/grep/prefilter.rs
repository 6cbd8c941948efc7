//! A whole-buffer literal scan that lets grep skip, in one SIMD pass, the
//! lines a one-literal pattern cannot match, instead of running the
//! expression line by line. Only lines it finds a candidate in go to the
//! expression (or, when the literal alone decides, count as matches).

use crate::regex::Syntax;
use memchr::memmem;

/// The literal of a one-pattern search.
pub struct Prefilter {
    /// The literal, lower-cased when `fold`.
    needle: Vec<u8>,
    fold: bool,
    finder: memmem::Finder<'static>,
    /// A line holding the literal matches: no `-w`/`-x` condition remains.
    pub exact: bool,
}

/// Bytes that stand for themselves in basic and extended expressions alike.
fn is_plain(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || b" =_-,:/@#%&'\"<>!~;".contains(&byte)
}

impl Prefilter {
    /// A prefilter for `patterns` in `syntax`, when there is one literal
    /// (ASCII; under `-i` without `k` or `s`, whose other cases are not ASCII).
    pub fn new(patterns: &[Vec<u8>], syntax: &Syntax) -> Option<Prefilter> {
        let [pattern] = patterns else { return None };
        if pattern.is_empty() || syntax.perl || !pattern.is_ascii() {
            return None;
        }
        if !syntax.fixed && !pattern.iter().all(|b| is_plain(*b)) {
            return None;
        }
        let fold = syntax.ignore_case;
        if fold && pattern.iter().any(|b| matches!(b.to_ascii_lowercase(), b'k' | b's')) {
            return None;
        }
        let needle = if fold { pattern.to_ascii_lowercase() } else { pattern.clone() };
        let finder = memmem::Finder::new(&needle).into_owned();
        Some(Prefilter { needle, fold, finder, exact: !syntax.whole_word && !syntax.whole_line })
    }

    /// Where the literal first occurs in `hay`.
    pub fn find(&self, hay: &[u8]) -> Option<usize> {
        if !self.fold {
            return self.finder.find(hay);
        }
        let first = *self.needle.first()?;
        let upper = first.to_ascii_uppercase();
        let mut from = 0;
        while let Some(offset) = memchr::memchr2(first, upper, hay.get(from..)?) {
            let at = from + offset;
            let candidate = hay.get(at..at + self.needle.len())?;
            if candidate.eq_ignore_ascii_case(&self.needle) {
                return Some(at);
            }
            from = at + 1;
        }
        None
    }
}
