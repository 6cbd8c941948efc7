//! Equivalence classes of lines: two lines get the same class number when
//! they are equal under the options that loosen the comparison (`-i`, `-b`,
//! `-w`, `-Z`). An unterminated last line only equals another unterminated
//! line unless white space at the end of lines is ignored, as with GNU diff.

use super::text::Text;
use rustc_hash::FxHashMap;
use std::borrow::Cow;

/// How white space counts when lines are compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum WhiteSpace {
    /// Every byte counts.
    Exact,
    /// `-Z`: white space at the end of a line is ignored.
    Trailing,
    /// `-b`: runs of white space compare equal; trailing white space is ignored.
    Change,
    /// `-w`: white space is ignored.
    All,
}

/// The options that decide when two lines are equal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Equality {
    /// `-i`: ASCII letters compare without case.
    pub ignore_case: bool,
    /// White space handling.
    pub white_space: WhiteSpace,
}

/// C's `isspace` in the C locale.
pub fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r')
}

/// The key that equal lines share: the normalized text, and whether the
/// line is an unterminated last line that may only equal its like.
type Key<'t> = (Cow<'t, [u8]>, bool);

/// Assigns class numbers to lines `first..first + counts[f]` of both inputs,
/// numbering classes in order of first appearance (the old input first).
pub fn classify(texts: [&Text; 2], first: usize, counts: [usize; 2], equality: Equality) -> [Vec<u32>; 2] {
    let mut table: FxHashMap<Key<'_>, u32> = FxHashMap::default();
    let mut classes = [Vec::with_capacity(counts[0]), Vec::with_capacity(counts[1])];
    for (side, text) in texts.iter().enumerate() {
        for index in first..first + counts[side] {
            let key = key_of(text, index, equality);
            let next = table.len() as u32;
            let class = *table.entry(key).or_insert(next);
            classes[side].push(class);
        }
    }
    classes
}

/// The key of line `index` of `text`.
fn key_of(text: &Text, index: usize, equality: Equality) -> Key<'_> {
    let line = text.line(index);
    let body = line.get(..line.len().saturating_sub(1)).unwrap_or(&[]);
    let separate = text.is_incomplete(index) && equality.white_space < WhiteSpace::Trailing;
    if !equality.ignore_case && equality.white_space == WhiteSpace::Exact {
        return (Cow::Borrowed(body), separate);
    }
    (Cow::Owned(normalize(body, equality)), separate)
}

/// `body` (a line without its newline) in the form equal lines share.
pub fn normalize(body: &[u8], equality: Equality) -> Vec<u8> {
    let fold = |byte: u8| if equality.ignore_case { byte.to_ascii_lowercase() } else { byte };
    let mut out = Vec::with_capacity(body.len());
    match equality.white_space {
        WhiteSpace::Exact => out.extend(body.iter().map(|&b| fold(b))),
        WhiteSpace::Trailing => {
            let end = body.iter().rposition(|&b| !is_space(b)).map_or(0, |p| p + 1);
            out.extend(body.iter().take(end).map(|&b| fold(b)));
        }
        WhiteSpace::Change => {
            let mut in_space = false;
            for &byte in body {
                if is_space(byte) {
                    in_space = true;
                    continue;
                }
                if in_space {
                    out.push(b' ');
                    in_space = false;
                }
                out.push(fold(byte));
            }
        }
        WhiteSpace::All => out.extend(body.iter().filter(|&&b| !is_space(b)).map(|&b| fold(b))),
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXACT: Equality = Equality { ignore_case: false, white_space: WhiteSpace::Exact };

    #[test]
    fn classes_follow_the_options() {
        let (a, b) = (Text::new(b"x\ny\nA  b \n".to_vec(), false), Text::new(b"y\na b\nx".to_vec(), false));
        let [left, right] = classify([&a, &b], 0, [3, 3], EXACT);
        assert_eq!((left, right), (vec![0, 1, 2], vec![1, 3, 4]));
        let loose = Equality { ignore_case: true, white_space: WhiteSpace::Change };
        let [left, right] = classify([&a, &b], 0, [3, 3], loose);
        assert_eq!((left, right), (vec![0, 1, 2], vec![1, 2, 0]));
        assert_eq!(normalize(b" a \t b ", Equality { ignore_case: false, white_space: WhiteSpace::All }), b"ab");
    }
}
