//! A hunk of a patch, in one form for all three diff formats: its old and
//! new starting lines and a sequence of context, deleted and inserted
//! lines, each with its newline unless the patch said `\ No newline at
//! end of file`.

/// What one line of a hunk does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// In both versions (` line`).
    Context,
    /// Only in the old version (`-line`).
    Delete,
    /// Only in the new version (`+line`).
    Insert,
}

/// One line of a hunk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HunkLine {
    /// What it does.
    pub op: Op,
    /// Its text, with its newline if it has one.
    pub text: Vec<u8>,
}

/// The diff format a hunk came in (rejects are written in the same one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `diff` without options: `3c3`.
    Normal,
    /// `diff -c`.
    Context,
    /// `diff -u`.
    Unified,
}

/// One hunk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hunk {
    /// The old version's first line (1-based; for no old lines, the line
    /// the new ones go before).
    pub old_first: usize,
    /// The new version's first line, likewise.
    pub new_first: usize,
    /// The lines.
    pub lines: Vec<HunkLine>,
}

impl Hunk {
    /// The old version's lines.
    pub fn old_lines(&self) -> impl Iterator<Item = &HunkLine> {
        self.lines.iter().filter(|line| line.op != Op::Insert)
    }

    /// The new version's lines.
    pub fn new_lines(&self) -> impl Iterator<Item = &HunkLine> {
        self.lines.iter().filter(|line| line.op != Op::Delete)
    }

    /// How many lines the old version has.
    pub fn old_count(&self) -> usize {
        self.old_lines().count()
    }

    /// How many lines the new version has.
    pub fn new_count(&self) -> usize {
        self.new_lines().count()
    }

    /// Context lines before the first change.
    pub fn prefix_context(&self) -> usize {
        self.lines.iter().take_while(|line| line.op == Op::Context).count()
    }

    /// Context lines after the last change.
    pub fn suffix_context(&self) -> usize {
        self.lines.iter().rev().take_while(|line| line.op == Op::Context).count()
    }

    /// The hunk undone: old and new swap, deletions become insertions.
    pub fn reversed(&self) -> Hunk {
        let mut lines: Vec<HunkLine> = Vec::with_capacity(self.lines.len());
        let mut index = 0;
        while let Some(line) = self.lines.get(index) {
            if line.op == Op::Context {
                lines.push(line.clone());
                index += 1;
                continue;
            }
            // A run of changes: its insertions, now deletions, come first.
            let end = self.lines.iter().skip(index).position(|l| l.op == Op::Context).map_or(self.lines.len(), |p| p + index);
            let run = self.lines.get(index..end).unwrap_or(&[]);
            for op in [Op::Insert, Op::Delete] {
                for line in run.iter().filter(|l| l.op == op) {
                    let flipped = if op == Op::Insert { Op::Delete } else { Op::Insert };
                    lines.push(HunkLine { op: flipped, text: line.text.clone() });
                }
            }
            index = end;
        }
        Hunk { old_first: self.new_first, new_first: self.old_first, lines }
    }
}

/// Appends `text` as a line of a reject or of output: with the note when
/// it has no newline.
pub fn push_patch_line(out: &mut Vec<u8>, prefix: &[u8], text: &[u8]) {
    out.extend_from_slice(prefix);
    out.extend_from_slice(text);
    if text.last() != Some(&b'\n') {
        out.extend_from_slice(b"\n\\ No newline at end of file\n");
    }
}

/// A unified range for a reject: `start,count`, `start` for one line,
/// `start-1,0` for none.
fn unified_range(out: &mut Vec<u8>, start: usize, count: usize) {
    let text = match count {
        0 => format!("{},0", start.saturating_sub(1)),
        1 => format!("{start}"),
        _ => format!("{start},{count}"),
    };
    out.extend_from_slice(text.as_bytes());
}

/// A context range for a reject: `first,last`, one number, or `0`.
fn context_range(first: usize, count: usize) -> String {
    match count {
        0 => "0".to_string(),
        1 => format!("{first}"),
        _ => format!("{first},{}", first + count - 1),
    }
}

impl Hunk {
    /// Appends the hunk as GNU patch writes a rejected one, in `format`,
    /// with its line numbers moved by `out_offset`.
    pub fn write_reject(&self, out: &mut Vec<u8>, format: Format, out_offset: isize) {
        let shift = |line: usize| (line as isize + out_offset).max(0) as usize;
        if format == Format::Unified {
            out.extend_from_slice(b"@@ -");
            unified_range(out, shift(self.old_first), self.old_count());
            out.extend_from_slice(b" +");
            unified_range(out, shift(self.new_first), self.new_count());
            out.extend_from_slice(b" @@\n");
            for line in &self.lines {
                let prefix: &[u8] = match line.op {
                    Op::Context => b" ",
                    Op::Delete => b"-",
                    Op::Insert => b"+",
                };
                push_patch_line(out, prefix, &line.text);
            }
            return;
        }
        let (stars, minuses) = if format == Format::Context { (" ****", " ----") } else { ("", " -----") };
        out.extend_from_slice(b"***************\n");
        out.extend_from_slice(format!("*** {}{stars}\n", context_range(shift(self.old_first), self.old_count())).as_bytes());
        let changed_runs = if format == Format::Context { self.change_runs() } else { vec![false; self.lines.len()] };
        if self.old_count() > 0 {
            self.context_side(out, Op::Insert, &changed_runs, b"- ");
        }
        out.extend_from_slice(format!("--- {}{minuses}\n", context_range(shift(self.new_first), self.new_count())).as_bytes());
        if self.new_count() > 0 {
            self.context_side(out, Op::Delete, &changed_runs, b"+ ");
        }
    }

    /// Appends one side of a context reject: every line but those doing
    /// `other`, marked `!` in a run of both changes, else `own` or spaces.
    fn context_side(&self, out: &mut Vec<u8>, other: Op, changed_runs: &[bool], own: &[u8]) {
        for (index, line) in self.lines.iter().enumerate() {
            if line.op == other {
                continue;
            }
            let prefix: &[u8] = match line.op {
                Op::Context => b"  ",
                _ if changed_runs.get(index).copied().unwrap_or(false) => b"! ",
                _ => own,
            };
            push_patch_line(out, prefix, &line.text);
        }
    }

    /// For each line, true when it belongs to a run of changes with both
    /// deletions and insertions (a `!` line of a context diff).
    fn change_runs(&self) -> Vec<bool> {
        let mut marks = vec![false; self.lines.len()];
        let mut index = 0;
        while index < self.lines.len() {
            if self.lines.get(index).is_some_and(|l| l.op == Op::Context) {
                index += 1;
                continue;
            }
            let end = self.lines.iter().skip(index).position(|l| l.op == Op::Context).map_or(self.lines.len(), |p| p + index);
            let run = self.lines.get(index..end).unwrap_or(&[]);
            let both = run.iter().any(|l| l.op == Op::Delete) && run.iter().any(|l| l.op == Op::Insert);
            for mark in marks.iter_mut().take(end).skip(index) {
                *mark = both;
            }
            index = end;
        }
        marks
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(op: Op, text: &str) -> HunkLine {
        HunkLine { op, text: text.as_bytes().to_vec() }
    }

    #[test]
    fn reversal_swaps_sides() {
        let hunk =
            Hunk { old_first: 2, new_first: 3, lines: vec![line(Op::Context, "a\n"), line(Op::Delete, "b\n"), line(Op::Insert, "c\n")] };
        let back = hunk.reversed();
        assert_eq!((back.old_first, back.new_first), (3, 2));
        assert_eq!(back.lines[1], line(Op::Delete, "c\n"));
        assert_eq!((hunk.prefix_context(), hunk.suffix_context()), (1, 0));
    }

    #[test]
    fn rejects_in_each_format() {
        let hunk = Hunk { old_first: 5, new_first: 5, lines: vec![line(Op::Delete, "5\n"), line(Op::Insert, "five\n")] };
        let mut out = Vec::new();
        hunk.write_reject(&mut out, Format::Normal, 0);
        assert_eq!(String::from_utf8_lossy(&out), "***************\n*** 5\n- 5\n--- 5 -----\n+ five\n");
        let mut out = Vec::new();
        hunk.write_reject(&mut out, Format::Unified, 2);
        assert_eq!(String::from_utf8_lossy(&out), "@@ -7 +7 @@\n-5\n+five\n");
    }
}
