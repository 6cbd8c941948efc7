//! Byte offsets to line numbers: spans store offsets only, and lines are
//! computed when an error is shown or `LINENO` is asked for.

/// The start offsets of every line of a source, for fast lookups.
#[derive(Debug, Clone)]
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    /// Indexes the lines of `source`.
    pub fn new(source: &str) -> Self {
        let mut starts = vec![0];
        starts.extend(source.bytes().enumerate().filter(|(_, b)| *b == b'\n').map(|(i, _)| i + 1));
        LineIndex { starts }
    }

    /// The 1-based line holding byte `offset`.
    pub fn line_of(&self, offset: usize) -> usize {
        match self.starts.binary_search(&offset) {
            Ok(index) => index + 1,
            Err(index) => index,
        }
    }

    /// How many lines there are (text after a final newline, even none, counts as one).
    pub fn line_count(&self) -> usize {
        self.starts.len()
    }

    /// The text of 1-based `line`, without its newline.
    pub fn line_text<'a>(&self, source: &'a str, line: usize) -> &'a str {
        let start = self.starts.get(line.saturating_sub(1)).copied().unwrap_or(source.len());
        let end = self.starts.get(line).map(|next| next - 1).unwrap_or(source.len());
        source.get(start..end.max(start)).unwrap_or("")
    }
}

/// The 1-based line of byte `offset` in `source` (for `LINENO`).
pub fn line_number(source: &str, offset: usize) -> usize {
    let end = offset.min(source.len());
    1 + source.as_bytes().get(..end).map_or(0, |head| head.iter().filter(|b| **b == b'\n').count())
}
