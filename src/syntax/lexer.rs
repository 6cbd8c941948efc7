//! Characters and tokens: blanks, comments, line continuations, operators
//! and reserved words. Bash's lexing depends on where the parser is, so
//! these are small helpers the grammar rules call, not a separate pass.

use super::ast::Text;
use super::error::ParseErrorKind;
use super::parser::{Fail, PResult, Parser};

/// Bytes that end an unquoted word.
#[inline]
pub(super) fn is_meta(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'|' | b'&' | b';' | b'(' | b')' | b'<' | b'>')
}

/// `[A-Za-z_]`.
#[inline]
pub(super) fn is_name_start(byte: u8) -> bool {
    byte.is_ascii_alphabetic() || byte == b'_'
}

/// `[A-Za-z0-9_]`, by table: names are scanned byte by byte in every
/// command word's assignment test and every `$name`.
#[inline]
pub(super) fn is_name_byte(byte: u8) -> bool {
    NAME_BYTES[usize::from(byte)]
}

/// The bytes of [`is_name_byte`].
const NAME_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut byte = 0;
    while byte < 256 {
        let b = byte as u8;
        table[byte] = b.is_ascii_alphanumeric() || b == b'_';
        byte += 1;
    }
    table
};

/// True when `text` is a valid variable name.
pub(super) fn is_name(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.first().is_some_and(|b| is_name_start(*b)) && bytes.iter().all(|b| is_name_byte(*b))
}

/// Words that are reserved in command position.
pub(super) const RESERVED: [&str; 22] = [
    "!", "case", "coproc", "do", "done", "elif", "else", "esac", "fi", "for", "function", "if", "in", "select", "then", "time", "until",
    "while", "{", "}", "[[", "]]",
];

impl Parser<'_> {
    /// The byte at the read position, if any.
    #[inline]
    pub(super) fn cur(&self) -> Option<u8> {
        if self.pos < self.end {
            self.text.as_bytes().get(self.pos).copied()
        } else {
            None
        }
    }

    /// The byte `offset` past the read position, if any.
    #[inline]
    pub(super) fn peek_at(&self, offset: usize) -> Option<u8> {
        let at = self.pos + offset;
        if at < self.end {
            self.text.as_bytes().get(at).copied()
        } else {
            None
        }
    }

    /// The unread bytes up to the end of the range.
    #[inline]
    pub(super) fn rest(&self) -> &[u8] {
        self.text.as_bytes().get(self.pos..self.end).unwrap_or(&[])
    }

    /// True when the unread text starts with `prefix`.
    #[inline]
    pub(super) fn looking_at(&self, prefix: &str) -> bool {
        self.rest().starts_with(prefix.as_bytes())
    }

    /// The source text between two offsets.
    #[inline]
    pub(super) fn slice(&self, start: usize, end: usize) -> &str {
        self.text.get(start..end).unwrap_or("")
    }

    /// The character at the read position (which must be on a char boundary).
    pub(super) fn cur_char(&self) -> Option<char> {
        self.text.get(self.pos..self.end).and_then(|rest| rest.chars().next())
    }

    /// Skips spaces, tabs and backslash-newline continuations.
    #[inline]
    pub(super) fn skip_blanks(&mut self) {
        loop {
            match self.cur() {
                Some(b' ' | b'\t') => self.pos += 1,
                Some(b'\\') if self.peek_at(1) == Some(b'\n') => self.pos += 2,
                _ => return,
            }
        }
    }

    /// Skips blanks and a comment, stopping before the newline.
    #[inline]
    pub(super) fn skip_space(&mut self) {
        self.skip_blanks();
        if self.cur() == Some(b'#') {
            let rest = self.rest();
            let length = rest.iter().position(|b| *b == b'\n').unwrap_or(rest.len());
            self.pos += length;
        }
    }

    /// Consumes a newline (reading any here-document bodies it starts).
    pub(super) fn newline(&mut self) -> PResult<bool> {
        if self.cur() != Some(b'\n') {
            return Ok(false);
        }
        self.pos += 1;
        self.token()?;
        if !self.pending.is_empty() {
            self.read_heredoc_bodies()?;
        }
        Ok(true)
    }

    /// Skips blanks, comments and newlines.
    pub(super) fn skip_linebreaks(&mut self) -> PResult<()> {
        loop {
            self.skip_space();
            if !self.newline()? {
                return Ok(());
            }
        }
    }

    /// The operator at the read position, if any.
    #[inline]
    pub(super) fn peek_op(&self) -> Option<&'static str> {
        let rest = self.rest();
        let second = rest.get(1).copied();
        let op = match rest.first()? {
            b';' => match second {
                Some(b';') if rest.get(2) == Some(&b'&') => ";;&",
                Some(b';') => ";;",
                Some(b'&') => ";&",
                _ => ";",
            },
            b'&' => match second {
                Some(b'&') => "&&",
                Some(b'>') if rest.get(2) == Some(&b'>') => "&>>",
                Some(b'>') => "&>",
                _ => "&",
            },
            b'|' => match second {
                Some(b'|') => "||",
                Some(b'&') => "|&",
                _ => "|",
            },
            b'(' => "(",
            b')' => ")",
            b'<' => match second {
                Some(b'<') => match rest.get(2) {
                    Some(b'<') => "<<<",
                    Some(b'-') => "<<-",
                    _ => "<<",
                },
                Some(b'&') => "<&",
                Some(b'>') => "<>",
                _ => "<",
            },
            b'>' => match second {
                Some(b'>') => ">>",
                Some(b'&') => ">&",
                Some(b'|') => ">|",
                _ => ">",
            },
            _ => return None,
        };
        Some(op)
    }

    /// Consumes `op` if it is the operator at the read position.
    #[inline]
    pub(super) fn eat_op(&mut self, op: &str) -> PResult<bool> {
        if self.rest().starts_with(op.as_bytes()) && self.peek_op() == Some(op) {
            self.pos += op.len();
            self.token()?;
            Ok(true)
        } else {
            Ok(false)
        }
    }

    /// The unquoted plain word at the read position (no quotes, expansions
    /// or escapes), if the text there is one, for reserved-word tests.
    pub(super) fn plain_word(&self) -> Option<&str> {
        let rest = self.rest();
        let length = rest.iter().position(|b| is_meta(*b) || matches!(b, b'\'' | b'"' | b'\\' | b'$' | b'`')).unwrap_or(rest.len());
        if length == 0 {
            return None;
        }
        // Line continuations after the word are removed before it is read.
        let mut after = &rest[length..];
        while let Some(next) = after.strip_prefix(b"\\\n") {
            after = next;
        }
        match after.first() {
            None => {}
            Some(b) if is_meta(*b) => {}
            Some(_) => return None,
        }
        self.text.get(self.pos..self.pos + length)
    }

    /// True when the reserved word `word` is at the read position: the text
    /// starts with it and a metacharacter (or the end) follows.
    #[inline]
    pub(super) fn at_reserved(&self, word: &str) -> bool {
        let rest = self.rest();
        // Compared byte by byte: these words are too short for a call to `memcmp` to pay.
        if rest.len() < word.len() || !word.bytes().zip(rest).all(|(expected, byte)| expected == *byte) {
            return false;
        }
        // Line continuations after the word are removed before it is read (`in\`, newline, ` x)`).
        let mut after = &rest[word.len()..];
        while let Some(next) = after.strip_prefix(b"\\\n") {
            after = next;
        }
        after.first().is_none_or(|b| is_meta(*b))
    }

    /// Reads a variable name at the read position (which holds a name's
    /// first byte). A backslash-newline inside the name is a line
    /// continuation, removed as bash removes it: `$HO\`, newline, `ME` is `$HOME`.
    pub(super) fn name_across_continuations(&mut self) -> Text {
        let (end, continued) = self.name_extent();
        if !continued {
            let name = Text::from(self.slice(self.pos, end));
            self.pos = end;
            return name;
        }
        let mut name = String::new();
        while self.pos < end {
            let rest = self.text.as_bytes().get(self.pos..end).unwrap_or(&[]);
            let length = rest.iter().position(|b| !is_name_byte(*b)).unwrap_or(rest.len());
            name.push_str(self.slice(self.pos, self.pos + length));
            // Past the name bytes stands a continuation (or the end).
            self.pos += length + if self.pos + length < end { 2 } else { 0 };
        }
        self.pos = end;
        Text::from(name)
    }

    /// Where the name at the read position ends (see
    /// [`Parser::name_across_continuations`]), and whether a line
    /// continuation stands inside it; reads nothing and allocates nothing.
    #[inline]
    pub(super) fn name_extent(&self) -> (usize, bool) {
        let bytes = self.text.as_bytes().get(..self.end).unwrap_or(&[]);
        let mut at = self.pos;
        let mut continued = false;
        loop {
            while bytes.get(at).is_some_and(|b| is_name_byte(*b)) {
                at += 1;
            }
            if bytes.get(at..at + 2) == Some(b"\\\n".as_slice()) && bytes.get(at + 2).is_some_and(|b| is_name_byte(*b)) {
                at += 2;
                continued = true;
                continue;
            }
            return (at, continued);
        }
    }

    /// The reserved word at the read position, if one stands there whole
    /// (followed by a metacharacter or the end): picked by its first bytes,
    /// without reading the rest of an ordinary word.
    #[inline]
    pub(super) fn reserved_word_here(&self) -> Option<&'static str> {
        let rest = self.rest();
        let word = match (rest.first()?, rest.get(1)) {
            (b'!', _) => "!",
            (b'[', _) => "[[",
            (b']', _) => "]]",
            (b'{', _) => "{",
            (b'}', _) => "}",
            (b'c', Some(b'a')) => "case",
            (b'c', Some(b'o')) => "coproc",
            (b'd', Some(b'o')) if rest.get(2) == Some(&b'n') => "done",
            (b'd', Some(b'o')) => "do",
            (b'e', Some(b'l')) if rest.get(3) == Some(&b'f') => "elif",
            (b'e', Some(b'l')) => "else",
            (b'e', Some(b's')) => "esac",
            (b'f', Some(b'i')) => "fi",
            (b'f', Some(b'o')) => "for",
            (b'f', Some(b'u')) => "function",
            (b'i', Some(b'f')) => "if",
            (b'i', Some(b'n')) => "in",
            (b's', Some(b'e')) => "select",
            (b't', Some(b'h')) => "then",
            (b't', Some(b'i')) => "time",
            (b'u', Some(b'n')) => "until",
            (b'w', Some(b'h')) => "while",
            _ => return None,
        };
        self.at_reserved(word).then_some(word)
    }

    /// Consumes the reserved word `word` if it is at the read position.
    #[inline]
    pub(super) fn eat_reserved(&mut self, word: &str) -> PResult<bool> {
        if self.at_reserved(word) {
            self.pos += word.len();
            self.token()?;
            Ok(true)
        } else {
            Ok(false)
        }
    }

    /// Expects the reserved word `word`, failing at whatever stands there.
    pub(super) fn expect_reserved(&mut self, word: &str) -> PResult<()> {
        if self.eat_reserved(word)? {
            Ok(())
        } else {
            self.unexpected()
        }
    }

    /// The text bash names in `syntax error near unexpected token`: the
    /// token at the read position.
    pub(super) fn token_text(&self) -> Option<String> {
        let rest = self.rest();
        match rest.first() {
            None => None,
            Some(b'\n') => Some("newline".to_string()),
            Some(_) => {
                if self.looking_at("((") {
                    if let Some(close) = self.arith_close(self.pos + 2) {
                        return Some(self.slice(self.pos + 2, close).to_string());
                    }
                }
                if let Some(op) = self.peek_op() {
                    return Some(op.to_string());
                }
                let length = self.word_extent();
                Some(self.slice(self.pos, self.pos + length.max(1)).to_string())
            }
        }
    }

    /// A rough length of the word at the read position, for error messages.
    fn word_extent(&self) -> usize {
        let rest = self.rest();
        let mut index = 0;
        let mut quote: Option<u8> = None;
        while let Some(&b) = rest.get(index) {
            match quote {
                Some(q) if b == q => quote = None,
                Some(_) => {}
                None if b == b'\'' || b == b'"' => quote = Some(b),
                None if b == b'\\' => index += 1,
                None if is_meta(b) => break,
                None => {}
            }
            index += 1;
        }
        let mut end = self.pos + index.min(rest.len());
        while end > self.pos && !self.text.is_char_boundary(end) {
            end -= 1;
        }
        end - self.pos
    }

    /// Fails where a word must follow: at the end of input bash has read
    /// the final newline, so it names `newline`.
    pub(super) fn unexpected_word<T>(&mut self) -> PResult<T> {
        // Where a word must stand `((` is no arithmetic command: bash names the `(`.
        if self.cur() == Some(b'(') {
            return self.fail(ParseErrorKind::UnexpectedToken("(".to_string()));
        }
        match self.token_read()? {
            Some(word) => self.unexpected_word_token(word),
            None => match self.token_text() {
                Some(token) => self.fail(ParseErrorKind::UnexpectedToken(token)),
                None => self.fail(ParseErrorKind::UnexpectedToken("newline".to_string())),
            },
        }
    }

    /// Fails at `word`, the raw text of the word at the read position. Its
    /// line continuations are gone by the time bash reports it, and bash's
    /// reader then stands on the line after the last one.
    fn unexpected_word_token<T>(&self, word: String) -> PResult<T> {
        match word.rfind("\\\n") {
            Some(at) => {
                self.depth_at_failure.set(self.depth);
                Err(Fail { kind: ParseErrorKind::UnexpectedToken(word.replace("\\\n", "")), pos: self.pos + at + 2 })
            }
            None => self.fail(ParseErrorKind::UnexpectedToken(word)),
        }
    }

    /// Fails with `syntax error near unexpected token` at the read position
    /// (or `unexpected end of file` there is nothing left). Bash reads the
    /// offending token before it reports it, so a token that does not end
    /// (an unclosed quote, `$(` or `${`) reports that instead.
    pub(super) fn unexpected<T>(&mut self) -> PResult<T> {
        match self.token_read()? {
            Some(word) => self.unexpected_word_token(word),
            None => match self.token_text() {
                Some(token) => self.fail(ParseErrorKind::UnexpectedToken(token)),
                None => self.fail(ParseErrorKind::UnexpectedEof),
            },
        }
    }

    /// Reads the word at the read position as bash's lexer would before it
    /// reports it: its text as written, `None` when no word starts here, or
    /// the error reading it gives. The parser's position and counters are
    /// left as they were.
    fn token_read(&mut self) -> PResult<Option<String>> {
        let (pos, tokens, iterations) = (self.pos, self.tokens, self.iterations);
        let (pending, warnings) = (self.pending.len(), self.warnings.len());
        let result = self.read_word(super::word::WordContext::Normal);
        let end = self.pos;
        self.pos = pos;
        self.tokens = tokens;
        self.iterations = iterations;
        self.pending.truncate(pending);
        self.warnings.truncate(warnings);
        Ok(result?.and(self.text.get(pos..end)).map(str::to_string))
    }
}
