//! Comparing two inputs line by line, the way GNU diff does it: skip the
//! identical ends, class the lines, discard confusing lines, search with
//! Myers' algorithm, slide the changes to their customary places, and
//! gather them into a list of changes.

use super::discard::discard_confusing_lines;
use super::ends::region;
use super::equivalence::{classify, Equality};
use super::myers::mark_changes;
use super::shift::shift_boundaries;
use super::text::Text;

/// One run of changed lines: `deleted` lines of the old input from `line0`
/// replaced by `inserted` lines of the new one from `line1` (0-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Change {
    /// First line of the old input involved.
    pub line0: usize,
    /// First line of the new input involved.
    pub line1: usize,
    /// Lines deleted from the old input.
    pub deleted: usize,
    /// Lines inserted from the new input.
    pub inserted: usize,
    /// True when every line involved may be ignored (`-B`).
    pub ignorable: bool,
}

/// How the comparison is done.
#[derive(Debug, Clone, Copy)]
pub struct CompareOptions {
    /// When two lines are equal.
    pub equality: Equality,
    /// Lines of the identical ends kept in the comparison (at least the context).
    pub horizon: usize,
    /// `-d`: search for the smallest set of changes.
    pub minimal: bool,
}

/// The changes from `old` to `new`, in order.
pub fn compare(old: &Text, new: &Text, options: CompareOptions) -> Vec<Change> {
    let region = region(old, new, options.horizon);
    let first = region.prefix_lines;
    let [classes0, classes1] = classify([old, new], first, region.lines, options.equality);
    let mut changed0 = vec![false; classes0.len() + 2];
    let mut changed1 = vec![false; classes1.len() + 2];
    {
        let (inner0, inner1) = (inner(&mut changed0), inner(&mut changed1));
        let [kept0, kept1] = discard_confusing_lines([&classes0, &classes1], [inner0, inner1], options.minimal);
        let mut deleted = vec![false; kept0.classes.len()];
        let mut inserted = vec![false; kept1.classes.len()];
        mark_changes(&kept0.classes, &kept1.classes, options.minimal, &mut deleted, &mut inserted);
        for (flag, &index) in deleted.iter().zip(kept0.indexes.iter()) {
            if *flag {
                if let Some(slot) = changed0.get_mut(index + 1) {
                    *slot = true;
                }
            }
        }
        for (flag, &index) in inserted.iter().zip(kept1.indexes.iter()) {
            if *flag {
                if let Some(slot) = changed1.get_mut(index + 1) {
                    *slot = true;
                }
            }
        }
    }
    shift_boundaries([&classes0, &classes1], [&mut changed0, &mut changed1]);
    build_script(&changed0, &changed1, first)
}

/// The slice of a sentinel-framed mark vector that stands for the lines.
fn inner(marks: &mut [bool]) -> &mut [bool] {
    let end = marks.len().saturating_sub(1);
    marks.get_mut(1..end).unwrap_or(&mut [])
}

/// Gathers the marks (sentinel-framed) into changes, offset by `first`.
fn build_script(changed0: &[bool], changed1: &[bool], first: usize) -> Vec<Change> {
    let lines0 = changed0.len().saturating_sub(2);
    let lines1 = changed1.len().saturating_sub(2);
    let is_changed = |marks: &[bool], line: usize| marks.get(line + 1).copied().unwrap_or(false);
    let mut changes = Vec::new();
    let (mut i0, mut i1) = (0usize, 0usize);
    while i0 < lines0 || i1 < lines1 {
        if is_changed(changed0, i0) || is_changed(changed1, i1) {
            let (start0, start1) = (i0, i1);
            while is_changed(changed0, i0) {
                i0 += 1;
            }
            while is_changed(changed1, i1) {
                i1 += 1;
            }
            changes.push(Change {
                line0: start0 + first,
                line1: start1 + first,
                deleted: i0 - start0,
                inserted: i1 - start1,
                ignorable: false,
            });
        }
        i0 += 1;
        i1 += 1;
    }
    changes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::text::diff::equivalence::WhiteSpace;

    fn run(a: &[u8], b: &[u8]) -> Vec<(usize, usize, usize, usize)> {
        let options =
            CompareOptions { equality: Equality { ignore_case: false, white_space: WhiteSpace::Exact }, horizon: 0, minimal: false };
        let changes = compare(&Text::new(a.to_vec(), false), &Text::new(b.to_vec(), false), options);
        changes.iter().map(|c| (c.line0, c.deleted, c.line1, c.inserted)).collect()
    }

    #[test]
    fn changes_in_order() {
        assert_eq!(run(b"a\nb\nc\n", b"a\nc\nd\n"), vec![(1, 1, 1, 0), (3, 0, 2, 1)]);
        assert_eq!(run(b"x\n", b"x\nx\n"), vec![(1, 0, 1, 1)]);
        assert_eq!(run(b"a", b"a\n"), vec![(0, 1, 0, 1)]);
        assert!(run(b"same\n", b"same\n").is_empty());
    }
}
