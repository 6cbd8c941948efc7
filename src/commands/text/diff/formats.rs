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

/// Appends one hunk in the context format.
pub fn context_hunk(out: &mut Vec<u8>, texts: [&Text; 2], hunk: &[Change], context: usize) -> bool {
    let Some(span) = analyze(hunk) else { return false };
    let kind = span.kind;
    let span = widen(span, context, texts);
    out.extend_from_slice(b"***************\n*** ");
    push_context_range(out, span.old);
    out.extend_from_slice(b" ****\n");
    if kind != Kind::Insert {
        let mut next = 0;
        for line in span.old.0..=span.old.1 {
            while hunk.get(next).is_some_and(|c| ((c.line0 + c.deleted) as isize) <= line) {
                next += 1;
            }
            let covering = hunk.get(next).filter(|c| c.line0 as isize <= line);
            let prefix: &[u8] = match covering {
                Some(change) if change.inserted > 0 => b"! ",
                Some(_) => b"- ",
                None => b"  ",
            };
            push_line(out, prefix, texts[0], line as usize);
        }
    }
    out.extend_from_slice(b"--- ");
    push_context_range(out, span.new);
    out.extend_from_slice(b" ----\n");
    if kind != Kind::Delete {
        let mut next = 0;
        for line in span.new.0..=span.new.1 {
            while hunk.get(next).is_some_and(|c| ((c.line1 + c.inserted) as isize) <= line) {
                next += 1;
            }
            let covering = hunk.get(next).filter(|c| c.line1 as isize <= line);
            let prefix: &[u8] = match covering {
                Some(change) if change.deleted > 0 => b"! ",
                Some(_) => b"+ ",
                None => b"  ",
            };
            push_line(out, prefix, texts[1], line as usize);
        }
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
