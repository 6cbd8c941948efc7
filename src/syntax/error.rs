//! Parse errors, worded as bash words them.

use std::fmt;

/// What went wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseErrorKind {
    /// `syntax error near unexpected token `fi'`.
    UnexpectedToken(String),
    /// `syntax error: unexpected end of file`.
    UnexpectedEof,
    /// `unexpected EOF while looking for matching `"'`.
    UnterminatedQuote(char),
    /// A configured parse limit was exceeded (names the limit and its value).
    LimitExceeded(String),
    /// Any other message, verbatim.
    Other(String),
    /// A message followed by a second line of detail, as bash prints for
    /// `for ((a;b))`: `syntax error: arithmetic expression required`, then
    /// ``syntax error: `((a;b))'``.
    Detailed {
        /// The first line's message.
        message: String,
        /// The second line's message.
        detail: String,
    },
}

/// A syntax error at a line of the source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// What went wrong.
    pub kind: ParseErrorKind,
    /// The 1-based line bash reports.
    pub line: usize,
    /// The source line bash echoes after the message (`bash: -c: line 1: `if'`), if any.
    pub source_line: Option<String>,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ParseErrorKind::UnexpectedToken(token) => {
                write!(f, "syntax error near unexpected token `{token}'")
            }
            ParseErrorKind::UnexpectedEof => f.write_str("syntax error: unexpected end of file"),
            ParseErrorKind::UnterminatedQuote(quote) => {
                write!(f, "unexpected EOF while looking for matching `{quote}'")
            }
            ParseErrorKind::LimitExceeded(what) => f.write_str(what),
            ParseErrorKind::Other(message) => f.write_str(message),
            ParseErrorKind::Detailed { message, .. } => f.write_str(message),
        }
    }
}

impl ParseError {
    /// The lines bash prints to stderr for this error, with `prefix` being
    /// `bash: -c` or `bash: script.sh`: the message line, then (when bash
    /// shows it) the offending source line.
    pub fn render(&self, prefix: &str) -> String {
        let mut out = format!("{prefix}: line {}: {self}\n", self.line);
        if let ParseErrorKind::Detailed { detail, .. } = &self.kind {
            out.push_str(&format!("{prefix}: line {}: {detail}\n", self.line));
        }
        if let Some(line) = &self.source_line {
            out.push_str(&format!("{prefix}: line {}: `{line}'\n", self.line));
        }
        out
    }
}
