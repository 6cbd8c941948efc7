//! The normal, unified (`-u`) and context (`-c`) output formats: hunk
//! headers with GNU's line-number ranges, and lines with their markers and
//! the `\ No newline at end of file` note.

use super::compare::Change;
use super::hunks::{analyze, Kind, Span};
use super::text::Text;

/// The note after a line that had no newline.
const NO_NEWLINE: &[u8] = b"\\ No newline at end of file\n";

/// Appends `prefix`, line `line` of `text` and its end (a newline, and the
/// note when the input had none).
pub fn push_line(out: &mut Vec<u8>, prefix: &[u8], text: &Text, line: usize) {
    out.extend_from_slice(prefix);
    out.extend_from_slice(text.body(line));
    out.push(b'\n');
    if text.is_incomplete(line) {
        out.extend_from_slice(NO_NEWLINE);
    }
}

fn push_number(out: &mut Vec<u8>, number: isize) {
    out.extend_from_slice(number.to_string().as_bytes());
}

/// A range in the normal format: `a,b`, or one number for one line or none
/// (the line before the gap).
fn push_normal_range(out: &mut Vec<u8>, (first, last): (isize, isize)) {
    if last > first {
        push_number(out, first + 1);
        out.push(b',');
    }
    push_number(out, last + 1);
}

/// Appends one hunk in the normal format (`3c3`, `< old`, `---`, `> new`).
pub fn normal_hunk(out: &mut Vec<u8>, texts: [&Text; 2], hunk: &[Change]) -> bool {
    let Some(span) = analyze(hunk) else { return false };
    push_normal_range(out, span.old);
    out.push(match span.kind {
        Kind::Delete => b'd',
        Kind::Insert => b'a',
        Kind::Change => b'c',
    });
    push_normal_range(out, span.new);
    out.push(b'\n');
    if span.kind != Kind::Insert {
        for line in span.old.0..=span.old.1 {
            push_line(out, b"< ", texts[0], line as usize);
        }
    }
    if span.kind == Kind::Change {
        out.extend_from_slice(b"---\n");
    }
    if span.kind != Kind::Delete {
        for line in span.new.0..=span.new.1 {
            push_line(out, b"> ", texts[1], line as usize);
        }
    }
    true
}

/// The hunk's span widened by `context` lines on each side, within the inputs.
fn widen(span: Span, context: usize, texts: [&Text; 2]) -> Span {
    let context = context as isize;
    let widen_one = |(first, last): (isize, isize), lines: isize| {
        let last = if last < lines - context { last + context } else { lines - 1 };
        ((first - context).max(0), last)
    };
    Span {
        old: widen_one(span.old, texts[0].line_count() as isize),
        new: widen_one(span.new, texts[1].line_count() as isize),
        kind: span.kind,
    }
}

/// A range in the unified format: `start,count`, `start` for one line,
/// `before,0` for none.
fn push_unified_range(out: &mut Vec<u8>, (first, last): (isize, isize)) {
    let (a, b) = (first + 1, last + 1);
    if b <= a {
        push_number(out, b);
        if b < a {
            out.extend_from_slice(b",0");
        }
    } else {
        push_number(out, a);
        out.push(b',');
        push_number(out, b - a + 1);
    }
}

/// Appends one hunk in the unified format.
pub fn unified_hunk(out: &mut Vec<u8>, texts: [&Text; 2], hunk: &[Change], context: usize) -> bool {
    let Some(span) = analyze(hunk) else { return false };
    let span = widen(span, context, texts);
    out.extend_from_slice(b"@@ -");
    push_unified_range(out, span.old);
    out.extend_from_slice(b" +");
    push_unified_range(out, span.new);
    out.extend_from_slice(b" @@\n");
    let (mut i, mut j) = (span.old.0, span.new.0);
    let mut changes = hunk.iter().peekable();
    while i <= span.old.1 || j <= span.new.1 {
        match changes.peek() {
            Some(change) if i >= change.line0 as isize => {
                for _ in 0..change.deleted {
                    push_line(out, b"-", texts[0], i as usize);
                    i += 1;
                }
                for _ in 0..change.inserted {
                    push_line(out, b"+", texts[1], j as usize);
                    j += 1;
                }
                changes.next();
            }
            _ => {
                push_line(out, b" ", texts[0], i as usize);
                i += 1;
                j += 1;
            }
        }
    }
    true
}

/// A range in the context format: `first,last`, or one number.
fn push_context_range(out: &mut Vec<u8>, (first, last): (isize, isize)) {
    let (a, b) = (first + 1, last + 1);
    if b > a {
        push_number(out, a);
        out.push(b',');
    }
    push_number(out, b);
}

/// Appends one side of a context hunk: lines `first..=last` of `text`,
/// marked `!` where a change on this side has lines on the other too,
/// `own` where it has not, two spaces where no change covers them.
/// `side_of` gives a change's first line and count on this side and its
/// count on the other.
fn context_side(
    out: &mut Vec<u8>,
    text: &Text,
    (first, last): (isize, isize),
    hunk: &[Change],
    side_of: impl Fn(&Change) -> (usize, usize, usize),
    own: &[u8],
) {
    let mut next = 0;
    for line in first..=last {
        while hunk.get(next).is_some_and(|c| {
            let (start, count, _) = side_of(c);
            ((start + count) as isize) <= line
        }) {
            next += 1;
        }
        let covering = hunk.get(next).map(&side_of).filter(|(start, _, _)| *start as isize <= line);
        let prefix: &[u8] = match covering {
            Some((_, _, other)) if other > 0 => b"! ",
            Some(_) => own,
            None => b"  ",
        };
        push_line(out, prefix, text, line as usize);
    }
}

/// Appends one hunk in the context format.
pub fn context_hunk(out: &mut Vec<u8>, texts: [&Text; 2], hunk: &[Change], context: usize) -> bool {
    let Some(span) = analyze(hunk) else { return false };
    let kind = span.kind;
    let span = widen(span, context, texts);
    out.extend_from_slice(b"***************\n*** ");
    push_context_range(out, span.old);
    out.extend_from_slice(b" ****\n");
    if kind != Kind::Insert {
        context_side(out, texts[0], span.old, hunk, |c| (c.line0, c.deleted, c.inserted), b"- ");
    }
    out.extend_from_slice(b"--- ");
    push_context_range(out, span.new);
    out.extend_from_slice(b" ----\n");
    if kind != Kind::Delete {
        context_side(out, texts[1], span.new, hunk, |c| (c.line1, c.inserted, c.deleted), b"+ ");
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_read_as_gnu() {
        let mut out = Vec::new();
        push_unified_range(&mut out, (3, 2));
        out.push(b' ');
        push_unified_range(&mut out, (0, 0));
        out.push(b' ');
        push_unified_range(&mut out, (1, 4));
        assert_eq!(out, b"3,0 1 2,4");
        let mut out = Vec::new();
        push_context_range(&mut out, (3, 2));
        out.push(b' ');
        push_context_range(&mut out, (1, 4));
        assert_eq!(out, b"3 2,5");
    }
}
