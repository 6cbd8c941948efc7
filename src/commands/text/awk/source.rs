//! The program text and where each piece came from (`cmd. line`, a `-f`
//! file), for the locations in gawk's messages.

/// One piece of program text.
pub struct Piece {
    /// `cmd. line` or the file name.
    pub name: String,
    /// Where it starts in the joined text.
    pub start: usize,
}

/// The joined program text and its pieces.
#[derive(Default)]
pub struct Sources {
    /// All pieces joined by newlines.
    pub text: Vec<u8>,
    /// The pieces in order.
    pub pieces: Vec<Piece>,
}

impl Sources {
    /// Adds a piece.
    pub fn add(&mut self, name: &str, text: &[u8]) {
        if !self.text.is_empty() {
            self.text.push(b'\n');
        }
        self.pieces.push(Piece { name: name.to_string(), start: self.text.len() });
        self.text.extend_from_slice(text);
    }

    /// The piece name, line number (1-based), line text and column of `offset`.
    pub fn locate(&self, offset: usize) -> (String, usize, Vec<u8>, usize) {
        let offset = offset.min(self.text.len());
        let piece = self.pieces.iter().rev().find(|p| p.start <= offset);
        let (name, start) = piece.map_or(("cmd. line".to_string(), 0), |p| (p.name.clone(), p.start));
        let before = &self.text[start..offset];
        let line = before.iter().filter(|&&c| c == b'\n').count() + 1;
        let line_start = before.iter().rposition(|&c| c == b'\n').map_or(start, |i| start + i + 1);
        let line_end = self.text[offset..].iter().position(|&c| c == b'\n').map_or(self.text.len(), |i| offset + i);
        (name, line, self.text[line_start..line_end].to_vec(), offset - line_start)
    }

    /// `cmd. line:3` for `offset`.
    pub fn location(&self, offset: usize) -> String {
        let (name, line, _, _) = self.locate(offset);
        format!("{name}:{line}")
    }
}
