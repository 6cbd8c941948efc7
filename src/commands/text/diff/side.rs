//! The side-by-side format (`-y`): each line of the old input beside the
//! line of the new one, with a gutter mark (`|` changed, `<` deleted, `>`
//! inserted, `(` common with `--left-column`, `/` and `\` where only one
//! side has a newline). Columns are counted as GNU diff counts them in a
//! UTF-8 locale: characters by their display width, tabs to stops of 8.

use super::compare::Change;
use super::hunks::{analyze, Kind};
use super::text::Text;

/// Tab stops every this many columns.
const TAB_SIZE: usize = 8;

/// How the two columns are laid out.
#[derive(Debug, Clone, Copy)]
pub struct Layout {
    /// Width of each half.
    pub half_width: usize,
    /// Where the right column starts.
    pub column2_offset: usize,
    /// `--left-column`: common lines only on the left.
    pub left_column: bool,
    /// `--suppress-common-lines`.
    pub suppress_common: bool,
}

impl Layout {
    /// The layout for a total width of `width` columns.
    pub fn new(width: usize, left_column: bool, suppress_common: bool) -> Layout {
        const GUTTER: usize = 3;
        let offset = (width + TAB_SIZE + GUTTER) / (2 * TAB_SIZE) * TAB_SIZE;
        let half_width = offset.saturating_sub(GUTTER).min(width.saturating_sub(offset));
        let column2_offset = if half_width > 0 { offset } else { width };
        Layout { half_width, column2_offset, left_column, suppress_common }
    }
}

/// One side of an output row: an input and a line of it.
type Side<'t> = Option<(&'t Text, usize)>;

/// Appends the whole side-by-side comparison of two inputs.
pub fn side_by_side(out: &mut Vec<u8>, texts: [&Text; 2], changes: &[Change], layout: Layout) {
    let mut next = (0usize, 0usize);
    for change in changes {
        let hunk = std::slice::from_ref(change);
        let Some(span) = analyze(hunk) else { continue };
        let (first0, last0) = (span.old.0 as usize, span.old.1);
        let (first1, last1) = (span.new.0 as usize, span.new.1);
        common_lines(out, texts, &mut next, (first0, first1), layout);
        let (mut i, mut j) = (first0, first1);
        let mut kind = Some(span.kind);
        if span.kind == Kind::Change {
            while (i as isize) <= last0 && (j as isize) <= last1 {
                row(out, Some((texts[0], i)), b'|', Some((texts[1], j)), layout);
                i += 1;
                j += 1;
            }
            kind = match ((i as isize) <= last0, (j as isize) <= last1) {
                (true, _) => Some(Kind::Delete),
                (_, true) => Some(Kind::Insert),
                _ => None,
            };
            next = (i, j);
        }
        if kind == Some(Kind::Insert) {
            while (j as isize) <= last1 {
                row(out, None, b'>', Some((texts[1], j)), layout);
                j += 1;
            }
            next.1 = j;
        }
        if kind == Some(Kind::Delete) {
            while (i as isize) <= last0 {
                row(out, Some((texts[0], i)), b'<', None, layout);
                i += 1;
            }
            next.0 = i;
        }
    }
    common_lines(out, texts, &mut next, (texts[0].line_count(), texts[1].line_count()), layout);
}

/// Appends the common lines from `next` up to `limit`.
fn common_lines(out: &mut Vec<u8>, texts: [&Text; 2], next: &mut (usize, usize), limit: (usize, usize), layout: Layout) {
    if !layout.suppress_common {
        let (mut i, mut j) = *next;
        while i < limit.0 && j < limit.1 {
            if layout.left_column {
                row(out, Some((texts[0], i)), b'(', None, layout);
            } else {
                row(out, Some((texts[0], i)), b' ', Some((texts[1], j)), layout);
            }
            i += 1;
            j += 1;
        }
    }
    *next = limit;
}

/// Moves from column `from` to column `to` with tabs, then spaces.
fn tab_from_to(out: &mut Vec<u8>, mut from: usize, to: usize) -> usize {
    let mut tab = from + TAB_SIZE - from % TAB_SIZE;
    while tab <= to {
        out.push(b'\t');
        from = tab;
        tab += TAB_SIZE;
    }
    while from < to {
        out.push(b' ');
        from += 1;
    }
    to
}

/// Appends one output row.
fn row(out: &mut Vec<u8>, left: Side<'_>, separator: u8, right: Side<'_>, layout: Layout) {
    let complete = |side: Side<'_>| side.is_some_and(|(text, line)| !text.is_incomplete(line));
    let mut put_newline = false;
    let mut column = 0;
    if let Some((text, line)) = left {
        put_newline |= complete(left);
        column = half_line(out, text.body(line), 0, layout.half_width);
    }
    if separator != b' ' {
        column = tab_from_to(out, column, (layout.half_width + layout.column2_offset).saturating_sub(1) / 2) + 1;
        let mut mark = separator;
        if separator == b'|' && put_newline != complete(right) {
            mark = if put_newline { b'/' } else { b'\\' };
        }
        out.push(mark);
    }
    if let Some((text, line)) = right {
        put_newline |= complete(right);
        let body = text.body(line);
        if !body.is_empty() {
            column = tab_from_to(out, column, layout.column2_offset);
            half_line(out, body, column, layout.half_width);
        }
    }
    if put_newline {
        out.push(b'\n');
    }
}

/// Appends as much of `body` as fits in `bound` columns; returns the
/// column reached. `indent` is where the half starts (a carriage return
/// goes back to it).
fn half_line(out: &mut Vec<u8>, body: &[u8], indent: usize, bound: usize) -> usize {
    let (mut in_position, mut out_position) = (0usize, 0usize);
    let mut index = 0;
    while let Some(&byte) = body.get(index) {
        index += 1;
        match byte {
            b'\t' => {
                let spaces = TAB_SIZE - in_position % TAB_SIZE;
                if in_position == out_position {
                    let stop = out_position + spaces;
                    if stop < bound {
                        out_position = stop;
                        out.push(b'\t');
                    }
                }
                in_position += spaces;
            }
            b'\r' => {
                out.push(b'\r');
                tab_from_to(out, 0, indent);
                in_position = 0;
                out_position = 0;
            }
            0x08 => {
                if in_position != 0 {
                    in_position -= 1;
                    if in_position < bound {
                        if out_position <= in_position {
                            while out_position < in_position {
                                out.push(b' ');
                                out_position += 1;
                            }
                        } else {
                            out_position = in_position;
                            out.push(byte);
                        }
                    }
                }
            }
            0x0c | 0x0b | 0 => {
                if in_position < bound {
                    out.push(byte);
                }
            }
            _ => match decode(body.get(index - 1..).unwrap_or(&[])) {
                Some((character, length)) => {
                    in_position += display_width(character);
                    if in_position <= bound {
                        out_position = in_position;
                        out.extend_from_slice(body.get(index - 1..index - 1 + length).unwrap_or(&[]));
                    }
                    index += length - 1;
                }
                None => {
                    if in_position < bound {
                        out.push(byte);
                    }
                }
            },
        }
    }
    out_position
}

/// The UTF-8 character at the start of `bytes` and its length.
fn decode(bytes: &[u8]) -> Option<(char, usize)> {
    let length = match bytes.first()? {
        0x00..=0x7f => 1,
        0xc2..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf4 => 4,
        _ => return None,
    };
    let text = std::str::from_utf8(bytes.get(..length)?).ok()?;
    text.chars().next().map(|c| (c, length))
}

/// The columns a character takes (`wcwidth`), with unprintable ones taking none.
fn display_width(character: char) -> usize {
    let code = character as u32;
    match code {
        0..=0x1f | 0x7f..=0x9f => 0,
        0x300..=0x36f | 0x483..=0x489 | 0x591..=0x5bd | 0x610..=0x61a | 0x64b..=0x65f | 0x200b..=0x200f | 0xfe00..=0xfe0f => 0,
        0x1100..=0x115f
        | 0x2e80..=0x303e
        | 0x3041..=0x33ff
        | 0x3400..=0x4dbf
        | 0x4e00..=0x9fff
        | 0xa000..=0xa4cf
        | 0xac00..=0xd7a3
        | 0xf900..=0xfaff
        | 0xfe30..=0xfe4f
        | 0xff00..=0xff60
        | 0xffe0..=0xffe6
        | 0x1f300..=0x1f64f
        | 0x1f900..=0x1f9ff
        | 0x20000..=0x3fffd => 2,
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_matches_gnu() {
        let layout = Layout::new(130, false, false);
        assert_eq!((layout.half_width, layout.column2_offset), (61, 64));
        let layout = Layout::new(20, false, false);
        assert_eq!((layout.half_width, layout.column2_offset), (5, 8));
    }

    #[test]
    fn half_lines_cut_at_the_bound() {
        let mut out = Vec::new();
        assert_eq!(half_line(&mut out, "héllo wörld".as_bytes(), 0, 5), 5);
        assert_eq!(out, "héllo".as_bytes());
    }
}
