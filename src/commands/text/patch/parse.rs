//! Reading a patch: the file sections it holds (unified, context or normal
//! diffs, several per patch, with the text leading up to each), their
//! names and timestamps, and their hunks, with GNU patch's messages for
//! what it cannot read (`malformed patch at line N: ...`).

use super::hunk::{Format, Hunk, HunkLine, Op};

/// The part of a patch that changes one file.
#[derive(Debug, Clone)]
pub struct FilePatch {
    /// The diff format.
    pub format: Format,
    /// The old and new names and the `Index:` name, as written.
    pub names: [Option<String>; 3],
    /// The timestamps after the old and new names, with their tab.
    pub times: [String; 2],
    /// The lines between the previous section and the first hunk.
    pub leading: Vec<Vec<u8>>,
    /// The line of the patch where the first hunk starts (1-based).
    pub first_hunk_line: usize,
    /// The hunks.
    pub hunks: Vec<Hunk>,
    /// A message that stops the run after the hunks read before it
    /// (`malformed patch at line 5: x`).
    pub error: Option<String>,
}

/// The lines of a patch, each with its newline.
struct Lines<'p> {
    lines: Vec<&'p [u8]>,
    index: usize,
}

impl<'p> Lines<'p> {
    fn get(&self, index: usize) -> Option<&'p [u8]> {
        self.lines.get(index).copied()
    }

    fn current(&self) -> Option<&'p [u8]> {
        self.get(self.index)
    }
}

/// Reads every file section of `patch`.
pub fn parse(patch: &[u8]) -> Vec<FilePatch> {
    let mut lines = Lines { lines: patch.split_inclusive(|&b| b == b'\n').collect(), index: 0 };
    let mut files = Vec::new();
    let mut leading_start = 0;
    let mut index_name: Option<String> = None;
    while let Some(line) = lines.current() {
        if let Some(rest) = line.strip_prefix(b"Index: ") {
            index_name = Some(text_of(rest).trim().to_string());
        }
        let section = if line.starts_with(b"--- ") && lines.get(lines.index + 1).is_some_and(|l| l.starts_with(b"+++ ")) {
            let heads = [lines.get(lines.index), lines.get(lines.index + 1)];
            lines.index += 2;
            Some((Format::Unified, heads))
        } else if line.starts_with(b"*** ")
            && lines.get(lines.index + 1).is_some_and(|l| l.starts_with(b"--- "))
            && lines.get(lines.index + 2).is_some_and(|l| l.starts_with(b"***************"))
        {
            let heads = [lines.get(lines.index), lines.get(lines.index + 1)];
            lines.index += 2;
            Some((Format::Context, heads))
        } else if normal_command(line).is_some() {
            Some((Format::Normal, [None, None]))
        } else {
            None
        };
        let Some((format, heads)) = section else {
            lines.index += 1;
            continue;
        };
        let mut file = FilePatch {
            format,
            names: [None, None, index_name.take()],
            times: [String::new(), String::new()],
            leading: (leading_start..lines.index).filter_map(|i| lines.get(i)).map(<[u8]>::to_vec).collect(),
            first_hunk_line: lines.index + 1,
            hunks: Vec::new(),
            error: None,
        };
        for (side, head) in heads.iter().enumerate() {
            if let Some(head) = head {
                let (name, time) = split_header(head.get(4..).unwrap_or(&[]));
                file.names[side] = Some(name);
                file.times[side] = time;
            }
        }
        read_hunks(&mut lines, &mut file);
        leading_start = lines.index;
        let stop = file.error.is_some();
        files.push(file);
        if stop {
            break;
        }
    }
    files
}

/// Text of a header, lossily as UTF-8 (names in the sandbox are UTF-8).
fn text_of(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Splits `name<TAB>time` (or `name time` with a date) into the name and
/// the rest with its separator.
fn split_header(rest: &[u8]) -> (String, String) {
    let text = text_of(rest);
    let text = text.trim_end_matches(['\n', '\r']);
    if let Some((name, time)) = text.split_once('\t') {
        return (name.to_string(), format!("\t{time}"));
    }
    (text.trim_end().to_string(), String::new())
}

/// Reads the hunks of one section.
fn read_hunks(lines: &mut Lines<'_>, file: &mut FilePatch) {
    while let Some(line) = lines.current() {
        let result = match file.format {
            Format::Unified if line.starts_with(b"@@ -") => read_unified(lines),
            Format::Context if line.starts_with(b"***************") => read_context(lines),
            Format::Normal if normal_command(line).is_some() => read_normal(lines),
            _ => break,
        };
        match result {
            Ok(hunk) => file.hunks.push(hunk),
            Err(message) => {
                file.error = Some(message);
                return;
            }
        }
    }
}

/// Parses `N` or `N,M`.
fn range(text: &str) -> Option<Range> {
    match text.split_once(',') {
        Some((a, b)) => Some((a.parse().ok()?, Some(b.parse().ok()?))),
        None => Some((text.parse().ok()?, None)),
    }
}

fn malformed(number: usize, line: &[u8]) -> String {
    format!("malformed patch at line {number}: {}", text_of(line))
}

/// Marks the last line read as having no newline (`\ No newline...`).
fn drop_newline(hunk_lines: &mut [HunkLine]) {
    if let Some(last) = hunk_lines.last_mut() {
        if last.text.last() == Some(&b'\n') {
            last.text.pop();
        }
    }
}

/// Takes a `\ No newline at end of file` line after the last line read.
fn take_no_newline(lines: &mut Lines<'_>, hunk_lines: &mut [HunkLine]) {
    if lines.current().is_some_and(|l| l.starts_with(b"\\")) {
        drop_newline(hunk_lines);
        lines.index += 1;
    }
}

/// A hunk whose sides start at the stated lines: a side without lines
/// starts after its stated line (the line it follows).
fn hunk_at(old_start: usize, new_start: usize, lines: Vec<HunkLine>) -> Hunk {
    let old_count = lines.iter().filter(|l| l.op != Op::Insert).count();
    let new_count = lines.iter().filter(|l| l.op != Op::Delete).count();
    Hunk {
        old_first: if old_count == 0 { old_start + 1 } else { old_start },
        new_first: if new_count == 0 { new_start + 1 } else { new_start },
        lines,
    }
}

/// `@@ -a,b +c,d @@` and its lines.
fn read_unified(lines: &mut Lines<'_>) -> Result<Hunk, String> {
    let number = lines.index + 1;
    let header = lines.current().unwrap_or(&[]);
    let text = text_of(header);
    let body = text.get(4..).unwrap_or("");
    let parsed = body.split_once(" +").and_then(|(old, rest)| {
        let new = rest.split(' ').next()?;
        Some((range(old)?, range(new)?))
    });
    let Some(((old_start, old_count), (new_start, new_count))) = parsed else {
        return Err(malformed(number, header));
    };
    let (old_count, new_count) = (old_count.unwrap_or(1), new_count.unwrap_or(1));
    lines.index += 1;
    let mut hunk_lines = Vec::new();
    let (mut old_seen, mut new_seen) = (0, 0);
    while old_seen < old_count || new_seen < new_count {
        let Some(line) = lines.current() else {
            // A patch cut short: blank lines were probably chopped.
            hunk_lines.push(HunkLine { op: Op::Context, text: b"\n".to_vec() });
            old_seen += 1;
            new_seen += 1;
            continue;
        };
        let (op, text) = match line.first() {
            Some(b' ') => (Op::Context, line.get(1..).unwrap_or(&[])),
            Some(b'\n') => (Op::Context, line),
            Some(b'-') => (Op::Delete, line.get(1..).unwrap_or(&[])),
            Some(b'+') => (Op::Insert, line.get(1..).unwrap_or(&[])),
            Some(b'\\') => {
                drop_newline(&mut hunk_lines);
                lines.index += 1;
                continue;
            }
            _ => return Err(malformed(lines.index + 1, line)),
        };
        match op {
            Op::Context => {
                old_seen += 1;
                new_seen += 1;
            }
            Op::Delete => old_seen += 1,
            Op::Insert => new_seen += 1,
        }
        if old_seen > old_count || new_seen > new_count {
            return Err(malformed(lines.index + 1, line));
        }
        hunk_lines.push(HunkLine { op, text: text.to_vec() });
        lines.index += 1;
    }
    take_no_newline(lines, &mut hunk_lines);
    Ok(hunk_at(old_start, new_start, hunk_lines))
}

/// The lines of one side of a context hunk: (marker, text).
fn context_side(lines: &mut Lines<'_>, markers: &[u8]) -> Vec<(u8, Vec<u8>)> {
    let mut side: Vec<(u8, Vec<u8>)> = Vec::new();
    while let Some(line) = lines.current() {
        match line {
            [b'\\', ..] => {
                if let Some((_, text)) = side.last_mut() {
                    if text.last() == Some(&b'\n') {
                        text.pop();
                    }
                }
            }
            [marker, b' ', rest @ ..] if markers.contains(marker) => side.push((*marker, rest.to_vec())),
            _ => break,
        }
        lines.index += 1;
    }
    side
}

/// The first line and line count a context range stands for, given how
/// many lines its section listed.
fn context_first(text: &str, listed: usize) -> Option<usize> {
    let (first, last) = range(text)?;
    Some(match last {
        Some(_) => first,
        None if listed == 0 => first + 1,
        None => first,
    })
}

/// `***************`, `*** a,b ****`, old lines, `--- c,d ----`, new lines.
fn read_context(lines: &mut Lines<'_>) -> Result<Hunk, String> {
    lines.index += 1;
    let old_header = lines.current().unwrap_or(&[]);
    let old_text = text_of(old_header);
    let Some(old_range) = old_text.strip_prefix("*** ").and_then(|t| t.trim_end().strip_suffix(" ****")).map(str::to_string) else {
        return Err(malformed(lines.index + 1, old_header));
    };
    lines.index += 1;
    let old = context_side(lines, b" -!");
    let new_header = lines.current().unwrap_or(&[]);
    let new_text = text_of(new_header);
    let Some(new_range) = new_text.strip_prefix("--- ").and_then(|t| t.trim_end().strip_suffix(" ----")).map(str::to_string) else {
        return Err(malformed(lines.index + 1, new_header));
    };
    lines.index += 1;
    let new = context_side(lines, b" +!");
    let mut hunk_lines = Vec::new();
    if old.is_empty() {
        for (marker, text) in new {
            hunk_lines.push(HunkLine { op: if marker == b' ' { Op::Context } else { Op::Insert }, text });
        }
    } else if new.is_empty() {
        for (marker, text) in old {
            hunk_lines.push(HunkLine { op: if marker == b' ' { Op::Context } else { Op::Delete }, text });
        }
    } else {
        let (mut i, mut j) = (0, 0);
        while i < old.len() || j < new.len() {
            while let Some((_, text)) = old.get(i).filter(|(m, _)| *m != b' ') {
                hunk_lines.push(HunkLine { op: Op::Delete, text: text.clone() });
                i += 1;
            }
            while let Some((_, text)) = new.get(j).filter(|(m, _)| *m != b' ') {
                hunk_lines.push(HunkLine { op: Op::Insert, text: text.clone() });
                j += 1;
            }
            match (old.get(i), new.get(j)) {
                (Some((_, text)), Some(_)) => hunk_lines.push(HunkLine { op: Op::Context, text: text.clone() }),
                (None, None) => break,
                _ => return Err(malformed(lines.index, lines.get(lines.index.saturating_sub(1)).unwrap_or(&[]))),
            }
            i += 1;
            j += 1;
        }
    }
    let old_count = hunk_lines.iter().filter(|l| l.op != Op::Insert).count();
    let new_count = hunk_lines.iter().filter(|l| l.op != Op::Delete).count();
    let old_first = context_first(&old_range, old_count).ok_or_else(|| malformed(lines.index, old_header))?;
    let new_first = context_first(&new_range, new_count).ok_or_else(|| malformed(lines.index, new_header))?;
    Ok(Hunk { old_first, new_first, lines: hunk_lines })
}

/// A line range as written: the first line and, after a comma, the last.
type Range = (usize, Option<usize>);

/// The parts of a normal diff command line (`3,4c5`).
fn normal_command(line: &[u8]) -> Option<(Range, u8, Range)> {
    let text = std::str::from_utf8(line).ok()?.trim_end_matches('\n');
    let position = text.find(['a', 'c', 'd'])?;
    let letter = *text.as_bytes().get(position)?;
    let (old, new) = (text.get(..position)?, text.get(position + 1..)?);
    let valid = |part: &str| !part.is_empty() && part.chars().all(|c| c.is_ascii_digit() || c == ',');
    if !valid(old) || !valid(new) {
        return None;
    }
    Some((range(old)?, letter, range(new)?))
}

/// A normal diff command and its `<` and `>` lines.
fn read_normal(lines: &mut Lines<'_>) -> Result<Hunk, String> {
    let header = lines.current().unwrap_or(&[]);
    let Some(((old_start, old_end), letter, (new_start, new_end))) = normal_command(header) else {
        return Err(malformed(lines.index + 1, header));
    };
    lines.index += 1;
    let count = |start: usize, end: Option<usize>| end.map_or(1, |end| end.saturating_sub(start) + 1);
    let old_count = if letter == b'a' { 0 } else { count(old_start, old_end) };
    let new_count = if letter == b'd' { 0 } else { count(new_start, new_end) };
    let mut hunk_lines = Vec::new();
    for (wanted, marker, op) in [(old_count, b'<', Op::Delete), (new_count, b'>', Op::Insert)] {
        if op == Op::Insert && letter == b'c' {
            match lines.current() {
                Some(line) if line.starts_with(b"---") => lines.index += 1,
                _ => return Err(format!("'---' expected at line {} of patch", lines.index + 1)),
            }
        }
        for _ in 0..wanted {
            match lines.current() {
                Some([m, b' ', rest @ ..]) if *m == marker => hunk_lines.push(HunkLine { op, text: rest.to_vec() }),
                Some(line) => return Err(malformed(lines.index + 1, line)),
                None => return Err(format!("unexpected end of file in patch at line {}", lines.index + 1)),
            }
            lines.index += 1;
            take_no_newline(lines, &mut hunk_lines);
        }
    }
    Ok(hunk_at(old_start, new_start, hunk_lines))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_each_format() {
        let unified = parse(b"--- a\t2024\n+++ b\n@@ -1,2 +1,2 @@\n x\n-y\n+z\n\\ No newline at end of file\n");
        assert_eq!(unified.len(), 1);
        assert_eq!(unified[0].names[0].as_deref(), Some("a"));
        assert_eq!(unified[0].times[0], "\t2024");
        assert_eq!(unified[0].hunks[0].lines[2].text, b"z");
        let context = parse(b"*** a\n--- b\n***************\n*** 1,2 ****\n  x\n! y\n--- 1,2 ----\n  x\n! z\n");
        assert_eq!(context[0].hunks[0].lines.len(), 3);
        let normal = parse(b"2c2\n< y\n---\n> z\n3a4\n> w\n");
        assert_eq!(normal[0].hunks.len(), 2);
        assert_eq!(normal[0].hunks[1].old_first, 4);
        let broken = parse(b"--- a\n+++ a\n@@ -1,3 +1,3 @@\n 1\nX2\n");
        assert_eq!(broken[0].error.as_deref(), Some("malformed patch at line 5: X2\n"));
    }
}
