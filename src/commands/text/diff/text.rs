//! One input of `diff` as it is compared: its bytes (trailing carriage
//! returns stripped on request, a newline added when the last line lacked
//! one, as GNU's `prepare_text` does) and where each line starts.

/// The lines of one input.
pub struct Text {
    /// The bytes; every line, the last included, ends with `\n` here.
    pub data: Vec<u8>,
    /// The offset where each line starts, then the length of `data`.
    pub starts: Vec<usize>,
    /// True when the input's last line had no newline (one was added).
    pub missing_newline: bool,
}

impl Text {
    /// Splits `raw` into lines; with `strip_cr`, a carriage return before a
    /// newline is dropped.
    pub fn new(mut raw: Vec<u8>, strip_cr: bool) -> Text {
        if strip_cr && raw.contains(&b'\r') {
            raw = strip_carriage_returns(&raw);
        }
        let missing_newline = raw.last().is_some_and(|&b| b != b'\n');
        if missing_newline {
            raw.push(b'\n');
        }
        let mut starts = Vec::with_capacity(raw.len() / 32 + 2);
        starts.push(0);
        for (index, &byte) in raw.iter().enumerate() {
            if byte == b'\n' {
                starts.push(index + 1);
            }
        }
        Text { data: raw, starts, missing_newline }
    }

    /// The number of lines.
    pub fn line_count(&self) -> usize {
        self.starts.len() - 1
    }

    /// Line `index` with its newline.
    pub fn line(&self, index: usize) -> &[u8] {
        match (self.starts.get(index), self.starts.get(index + 1)) {
            (Some(&start), Some(&end)) => self.data.get(start..end).unwrap_or(&[]),
            _ => &[],
        }
    }

    /// Line `index` without its newline.
    pub fn body(&self, index: usize) -> &[u8] {
        let line = self.line(index);
        line.get(..line.len().saturating_sub(1)).unwrap_or(&[])
    }

    /// True when line `index` is the last one and had no newline.
    pub fn is_incomplete(&self, index: usize) -> bool {
        self.missing_newline && index + 1 == self.line_count()
    }
}

/// `data` with each `\r\n` turned into `\n`.
fn strip_carriage_returns(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len());
    let mut index = 0;
    while let Some(&byte) = data.get(index) {
        if byte == b'\r' && data.get(index + 1) == Some(&b'\n') {
            index += 1;
            continue;
        }
        out.push(byte);
        index += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::Text;

    #[test]
    fn lines_and_missing_newline() {
        let text = Text::new(b"a\nb".to_vec(), false);
        assert_eq!(text.line_count(), 2);
        assert_eq!(text.line(1), b"b\n");
        assert_eq!(text.body(1), b"b");
        assert!(text.is_incomplete(1) && !text.is_incomplete(0));
        let text = Text::new(b"a\r\nb\r".to_vec(), true);
        assert_eq!(text.data, b"a\nb\r\n");
        assert!(text.missing_newline);
        assert_eq!(Text::new(Vec::new(), false).line_count(), 0);
    }
}
