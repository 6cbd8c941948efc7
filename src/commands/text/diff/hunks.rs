//! Grouping changes into hunks and judging them: changes closer than twice
//! the context join one hunk (as GNU's `find_hunk`), and with `-B` a change
//! whose lines are all blank is ignorable, a hunk of only such changes is
//! not shown (as GNU's `analyze_hunk`).

use super::compare::Change;
use super::equivalence::{is_space, WhiteSpace};
use super::text::Text;

/// What a hunk does to the old input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Only deletes lines (`d`).
    Delete,
    /// Only inserts lines (`a`).
    Insert,
    /// Replaces lines (`c`).
    Change,
}

/// The lines a hunk covers, as inclusive 0-based ranges (`last < first`
/// for an empty range), and what it does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    /// First and last line of the old input.
    pub old: (isize, isize),
    /// First and last line of the new input.
    pub new: (isize, isize),
    /// What the hunk does.
    pub kind: Kind,
}

/// Marks the changes whose lines are all blank (`-B`); with `-b`, `-w` or
/// `-Z` a line of white space counts as blank.
pub fn mark_ignorable(changes: &mut [Change], texts: [&Text; 2], white_space: WhiteSpace) {
    let blank = |text: &Text, line: usize| {
        let body = text.line(line);
        let body = body.get(..body.len().saturating_sub(1)).unwrap_or(&[]);
        if white_space >= WhiteSpace::Trailing {
            body.iter().all(|&b| is_space(b))
        } else {
            body.is_empty()
        }
    };
    for change in changes.iter_mut() {
        change.ignorable = (change.line0..change.line0 + change.deleted).all(|l| blank(texts[0], l))
            && (change.line1..change.line1 + change.inserted).all(|l| blank(texts[1], l));
    }
}

/// Splits the changes into hunks: with `context`, a change joins the hunk
/// before it when fewer than `2 * context + 1` unchanged lines (`context`
/// for an ignorable change) separate them; without, each change is a hunk.
pub fn group(changes: &[Change], context: Option<usize>) -> Vec<&[Change]> {
    let mut hunks = Vec::new();
    let mut start = 0;
    for index in 1..=changes.len() {
        let joins = match (context, changes.get(index), changes.get(index - 1)) {
            (Some(context), Some(next), Some(previous)) => {
                let threshold = if next.ignorable { context } else { 2 * context + 1 };
                next.line0 - (previous.line0 + previous.deleted) < threshold
            }
            _ => false,
        };
        if !joins {
            if let Some(hunk) = changes.get(start..index) {
                hunks.push(hunk);
            }
            start = index;
        }
    }
    hunks
}

/// The span of a hunk, or `None` when all its changes are ignorable.
pub fn analyze(hunk: &[Change]) -> Option<Span> {
    let (first, last) = (hunk.first()?, hunk.last()?);
    if hunk.iter().all(|change| change.ignorable) {
        return None;
    }
    let deleted: usize = hunk.iter().map(|c| c.deleted).sum();
    let inserted: usize = hunk.iter().map(|c| c.inserted).sum();
    let kind = match (deleted > 0, inserted > 0) {
        (true, true) => Kind::Change,
        (true, false) => Kind::Delete,
        (false, true) => Kind::Insert,
        (false, false) => return None,
    };
    Some(Span {
        old: (first.line0 as isize, (last.line0 + last.deleted) as isize - 1),
        new: (first.line1 as isize, (last.line1 + last.inserted) as isize - 1),
        kind,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(line0: usize, deleted: usize, line1: usize, inserted: usize) -> Change {
        Change { line0, line1, deleted, inserted, ignorable: false }
    }

    #[test]
    fn changes_close_together_share_a_hunk() {
        let changes = [change(0, 1, 0, 1), change(7, 1, 7, 1), change(20, 0, 20, 2)];
        assert_eq!(group(&changes, Some(3)).len(), 2);
        assert_eq!(group(&changes, Some(2)).len(), 3);
        assert_eq!(group(&changes, None).len(), 3);
        let span = analyze(&changes[..2]).unwrap();
        assert_eq!((span.old, span.new, span.kind), ((0, 7), (0, 7), Kind::Change));
    }
}
