//! `--seq` input: JSON text sequences (RFC 7464) as jq 1.7.1 reads them.
//! An ASCII RS (0x1e) ends the text before it: a value it cuts is
//! "Truncated value", a number it follows directly "Potentially truncated
//! top-level numeric value"; other errors say "need RS to resync" but, as
//! in jq, reading goes on after the bad character. Text before the first
//! RS is skipped, and when no RS comes at all it is "Unfinished abandoned
//! text" at the end. The caller reports these as ignored.

use super::json::Reader;
use super::value::Value;

const RS: u8 = 0x1e;

/// Where reading one input file stands.
pub struct Cursor {
    /// The next byte to read.
    pub pos: usize,
    /// Newlines read so far.
    pub line: usize,
    /// Where the current line starts.
    pub line_start: usize,
    /// After an error: skipping to the next RS.
    waiting: bool,
    /// The end of the file was reported.
    done: bool,
}

impl Cursor {
    /// A cursor at the start of the first file, skipping to the first RS.
    pub fn new() -> Self {
        Cursor { pos: 0, line: 0, line_start: 0, waiting: true, done: false }
    }

    /// A cursor at the start of the next file, still skipping when this one was.
    pub fn next_file(&self) -> Self {
        Cursor { waiting: self.waiting, ..Cursor::new() }
    }

    /// Moves to `to`, counting the lines passed.
    fn advance(&mut self, data: &[u8], to: usize) {
        let to = to.min(data.len());
        for (i, b) in data.iter().enumerate().take(to).skip(self.pos) {
            if *b == b'\n' {
                self.line += 1;
                self.line_start = i + 1;
            }
        }
        self.pos = to.max(self.pos);
    }

    fn at(&self, message: &str) -> String {
        format!("{message} at line {}, column {}", self.line + 1, self.pos.saturating_sub(self.line_start))
    }
}

/// The next value of a sequence, an error to report and skip, or `None`
/// at the end of this file (`last`: of the whole input).
pub fn next(data: &[u8], c: &mut Cursor, last: bool) -> Option<Result<Value, String>> {
    loop {
        if c.done {
            return None;
        }
        if c.waiting {
            match data.get(c.pos..).and_then(|rest| rest.iter().position(|b| *b == RS)) {
                Some(i) => {
                    c.advance(data, c.pos + i + 1);
                    c.waiting = false;
                }
                None => {
                    c.advance(data, data.len());
                    c.done = true;
                    if !last {
                        return None;
                    }
                    let at = c.at("Unfinished abandoned text");
                    return Some(Err(at.replacen(" at line", " at EOF at line", 1)));
                }
            }
        }
        while let Some(b) = data.get(c.pos) {
            if matches!(b, b' ' | b'\t' | b'\n' | b'\r') {
                c.advance(data, c.pos + 1);
            } else if *b == RS {
                c.advance(data, c.pos + 1);
            } else {
                break;
            }
        }
        if c.pos >= data.len() {
            c.done = true;
            return None;
        }
        let end = data.get(c.pos..).and_then(|rest| rest.iter().position(|b| *b == RS)).map_or(data.len(), |i| c.pos + i);
        let cut = end < data.len();
        let segment = data.get(..end).unwrap_or(data);
        let mut reader = Reader::resume(segment, c.pos, c.line, c.line_start);
        let result = reader.next_value()?;
        match result {
            Ok(v) => {
                let stop = reader.position();
                c.pos = stop;
                c.line = reader.line;
                c.line_start = reader.line_start();
                // A value running into the RS (or, for a number, the end) may be cut short.
                let bare = stop == end && !data.get(stop.wrapping_sub(1)).is_some_and(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'));
                if bare && cut && matches!(v, Value::Num(..) | Value::Bool(_) | Value::Null) {
                    c.advance(data, end + 1);
                    let what = if matches!(v, Value::Num(..)) { "Potentially truncated top-level numeric value" } else { "Truncated value" };
                    return Some(Err(c.at(what)));
                }
                if bare && !cut && matches!(v, Value::Num(..)) {
                    c.done = true;
                    let at = c.at("Potentially truncated top-level numeric value");
                    return Some(Err(at.replacen(" at line", " at EOF at line", 1)));
                }
                return Some(Ok(v));
            }
            Err(e) if e.contains(" at EOF at line ") => {
                c.line = reader.line;
                c.line_start = reader.line_start();
                c.pos = end;
                if cut {
                    c.advance(data, end + 1);
                    return Some(Err(c.at("Truncated value")));
                }
                c.done = true;
                return Some(Err(e));
            }
            Err(e) => {
                c.line = reader.line;
                c.line_start = reader.line_start();
                c.pos = reader.failed_at;
                return Some(Err(format!("{e} (need RS to resync)")));
            }
        }
    }
}
