//! Applying hunks to a file's lines as GNU patch does: each hunk is looked
//! for at its line plus the offset of the hunks before it, then at growing
//! offsets either way, first exactly and then with fuzz (context lines at
//! the hunk's ends left unchecked); a hunk with less context on one side
//! must match at that end of the file. Context lines keep the file's text.

use super::hunk::{Hunk, Op};

/// The state of patching one file.
pub struct Applier {
    /// The file's lines, each with its newline if it has one.
    input: Vec<Vec<u8>>,
    /// The patched text so far.
    out: Vec<u8>,
    /// How many input lines are behind us (copied or deleted).
    frozen: usize,
    /// How far the hunks found so far sat from their stated lines.
    pub in_offset: isize,
    /// Lines added minus lines removed by the hunks applied so far.
    pub out_offset: isize,
}

impl Applier {
    /// An applier for a file holding `text`.
    pub fn new(text: &[u8]) -> Applier {
        let input = text.split_inclusive(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
        Applier { input, out: Vec::new(), frozen: 0, in_offset: 0, out_offset: 0 }
    }

    fn lines(&self) -> isize {
        self.input.len() as isize
    }

    /// True when the hunk's old lines from `prefix_fuzz` to `suffix_fuzz`
    /// from its end equal the file's lines at `base + offset`.
    fn matches(&self, hunk: &Hunk, base: isize, prefix_fuzz: isize, suffix_fuzz: isize) -> bool {
        let pattern: Vec<&[u8]> = hunk.old_lines().map(|line| line.text.as_slice()).collect();
        let end = pattern.len() as isize - suffix_fuzz;
        for (line, index) in (base + prefix_fuzz..).zip(prefix_fuzz..end) {
            let wanted = pattern.get(index as usize);
            let found = if line >= 1 { self.input.get((line - 1) as usize) } else { None };
            match (wanted, found) {
                (Some(a), Some(b)) if *a == b.as_slice() => {}
                _ => return false,
            }
        }
        true
    }

    /// Where `hunk` applies with `fuzz` (1-based), moving the offset; `None`
    /// when it does not.
    pub fn locate(&mut self, hunk: &Hunk, fuzz: usize) -> Option<usize> {
        let fuzz = fuzz as isize;
        let first_guess = hunk.old_first as isize + self.in_offset;
        let pattern_lines = hunk.old_count() as isize;
        let (prefix, suffix) = (hunk.prefix_context() as isize, hunk.suffix_context() as isize);
        let context = prefix.max(suffix);
        let mut prefix_fuzz = fuzz + prefix - context;
        let suffix_fuzz = fuzz + suffix - context;
        let max_where = self.lines() - (pattern_lines - suffix_fuzz) + 1;
        let min_where = self.frozen as isize + 1 - (prefix - prefix_fuzz);
        let max_pos_offset = max_where - first_guess;
        let mut max_neg_offset = first_guess - min_where;
        let max_offset = max_pos_offset.max(max_neg_offset);
        if pattern_lines == 0 {
            return usize::try_from(first_guess).ok();
        }
        if first_guess <= max_neg_offset {
            max_neg_offset = first_guess - 1;
        }
        if prefix_fuzz < 0 && hunk.old_first <= 1 {
            if suffix_fuzz < 0 && (pattern_lines != self.lines() || prefix < self.frozen as isize) {
                return None;
            }
            let offset = 1 - first_guess;
            if self.frozen as isize <= prefix && offset <= max_pos_offset && self.matches(hunk, first_guess + offset, 0, suffix_fuzz) {
                self.in_offset += offset;
                return usize::try_from(first_guess + offset).ok();
            }
            return None;
        } else if prefix_fuzz < 0 {
            prefix_fuzz = 0;
        }
        if suffix_fuzz < 0 {
            let offset = first_guess - (self.lines() - pattern_lines + 1);
            if offset <= max_neg_offset && self.matches(hunk, first_guess - offset, prefix_fuzz, 0) {
                self.in_offset -= offset;
                return usize::try_from(first_guess - offset).ok();
            }
            return None;
        }
        let mut offset = 0;
        while offset <= max_offset {
            if offset <= max_pos_offset && self.matches(hunk, first_guess + offset, prefix_fuzz, suffix_fuzz) {
                self.in_offset += offset;
                return usize::try_from(first_guess + offset).ok();
            }
            if 0 < offset && offset <= max_neg_offset && self.matches(hunk, first_guess - offset, prefix_fuzz, suffix_fuzz) {
                self.in_offset -= offset;
                return usize::try_from(first_guess - offset).ok();
            }
            offset += 1;
        }
        None
    }

    /// Copies the input up to (not including) 0-based line `line`.
    fn copy_till(&mut self, line: usize) {
        while self.frozen < line {
            if let Some(text) = self.input.get(self.frozen) {
                self.out.extend_from_slice(text);
            }
            self.frozen += 1;
        }
    }

    /// Applies `hunk` at 1-based line `at`.
    pub fn apply(&mut self, hunk: &Hunk, at: usize) {
        let start = at.saturating_sub(1);
        let mut old_index = 0;
        for line in &hunk.lines {
            match line.op {
                Op::Context => old_index += 1,
                Op::Delete => {
                    self.copy_till(start + old_index);
                    self.frozen = self.frozen.max(start + old_index + 1);
                    old_index += 1;
                }
                Op::Insert => {
                    self.copy_till(start + old_index);
                    self.out.extend_from_slice(&line.text);
                }
            }
        }
        self.out_offset += hunk.new_count() as isize - hunk.old_count() as isize;
    }

    /// The patched text: what was built, then the rest of the input.
    pub fn finish(mut self) -> Vec<u8> {
        let end = self.input.len();
        self.copy_till(end);
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::text::patch::hunk::HunkLine;

    fn hunk(first: usize, lines: &[(Op, &str)]) -> Hunk {
        let lines = lines.iter().map(|(op, text)| HunkLine { op: *op, text: text.as_bytes().to_vec() }).collect();
        Hunk { old_first: first, new_first: first, lines }
    }

    #[test]
    fn finds_offsets_and_applies() {
        let mut applier = Applier::new(b"x\n1\n2\n3\n");
        let change = hunk(1, &[(Op::Context, "1\n"), (Op::Delete, "2\n"), (Op::Insert, "two\n"), (Op::Context, "3\n")]);
        assert_eq!(applier.locate(&change, 0), Some(2));
        assert_eq!(applier.in_offset, 1);
        applier.apply(&change, 2);
        assert_eq!(applier.finish(), b"x\n1\ntwo\n3\n");
    }

    #[test]
    fn fuzz_skips_end_context() {
        let mut applier = Applier::new(b"a\nb\nc\nd\ne\n");
        let change =
            hunk(1, &[(Op::Context, "X\n"), (Op::Context, "b\n"), (Op::Delete, "c\n"), (Op::Context, "d\n"), (Op::Context, "Y\n")]);
        assert_eq!(applier.locate(&change, 0), None);
        assert_eq!(applier.locate(&change, 1), Some(1));
        applier.apply(&change, 1);
        assert_eq!(applier.finish(), b"a\nb\nd\ne\n");
    }
}
