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
    /// A malformed `[[ ]]` expression. Bash prints these messages (none for
    /// an operand missing before `]]`, as in `[[ ]]` or `[[ a && ]]`), and
    /// its grammar then sees the end of the input: the script stops there
    /// quietly, keeping `$?`, where other syntax errors exit with status 2.
    Conditional(ConditionalError),
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

/// What a malformed `[[ ]]` expression reports (see
/// [`ParseErrorKind::Conditional`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConditionalError {
    /// The messages in the order bash prints them, each with the 1-based
    /// line it names: the error itself, then ``expected `)'`` for each
    /// group left open around it.
    pub messages: Vec<(usize, String)>,
    /// The error reached the very end of the input (its final newline or
    /// the end itself); bash then exits with status 2 where `$?` was 0.
    pub at_end: bool,
    /// The input ended where the expression needed more (`[[ a &&`): an
    /// interactive shell would read another line.
    pub needs_more_input: bool,
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
    /// The error is a wrong token inside `$( )`, `<( )` or `>( )`: bash's
    /// reader then gives up on the whole shell (status 127 for a `-c`
    /// string), where an end of input inside one is an ordinary error.
    pub in_substitution: bool,
    /// The error is inside an array assignment's `( )` (`a=(1 2`,
    /// `a=(1 ; )`): bash exits with status 1 rather than 2.
    pub in_array_literal: bool,
    /// Further messages bash prints after this error's own, each with the
    /// line it names (after an array element left open: `syntax error:
    /// unexpected end of file`).
    pub also: Vec<(usize, String)>,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ParseErrorKind::UnexpectedToken(token) if token.chars().any(char::is_control) => {
                write!(f, "syntax error near unexpected token `{}'", ansi_c_quoted(token))
            }
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
            ParseErrorKind::Conditional(error) => f.write_str(error.messages.first().map_or("", |(_, text)| text.as_str())),
        }
    }
}

impl ParseError {
    /// Only the first message line, as bash prints it when `set -e` makes
    /// its parser exit at once.
    pub fn render_first(&self, prefix: &str) -> String {
        match &self.kind {
            ParseErrorKind::Conditional(error) => {
                error.messages.first().map(|(line, text)| format!("{prefix}: line {line}: {text}\n")).unwrap_or_default()
            }
            _ => format!("{prefix}: line {}: {self}\n", self.line),
        }
    }

    /// The lines bash prints to stderr for this error, with `prefix` being
    /// `bash: -c` or `bash: script.sh`: the message line, then (when bash
    /// shows it) the offending source line.
    pub fn render(&self, prefix: &str) -> String {
        if let ParseErrorKind::Conditional(error) = &self.kind {
            return error.messages.iter().map(|(line, text)| format!("{prefix}: line {line}: {text}\n")).collect();
        }
        let mut out = format!("{prefix}: line {}: {self}\n", self.line);
        if let ParseErrorKind::Detailed { detail, .. } = &self.kind {
            out.push_str(&format!("{prefix}: line {}: {detail}\n", self.line));
        }
        if let Some(line) = &self.source_line {
            out.push_str(&format!("{prefix}: line {}: `{line}'\n", self.line));
        }
        for (line, text) in &self.also {
            out.push_str(&format!("{prefix}: line {line}: {text}\n"));
        }
        out
    }
}

impl ParseError {
    /// Moves the error's lines by `offset` (text run from a later line of a
    /// larger source, as `eval` runs its text at the line it stands on).
    pub fn shift_lines(&mut self, offset: usize) {
        self.line += offset;
        for (line, _) in &mut self.also {
            *line += offset;
        }
        if let ParseErrorKind::Conditional(error) = &mut self.kind {
            for (line, _) in &mut error.messages {
                *line += offset;
            }
        }
    }
}

/// `text` as bash shows a token holding control characters: `$'...'` with
/// C escapes (`\n`, `\t`, `\E`...), `\\` and `\'`, other controls in octal.
fn ansi_c_quoted(text: &str) -> String {
    let mut out = String::from("$'");
    for c in text.chars() {
        let escape = match c {
            '\x1b' => Some('E'),
            '\x07' => Some('a'),
            '\x0b' => Some('v'),
            '\x08' => Some('b'),
            '\x0c' => Some('f'),
            '\n' => Some('n'),
            '\r' => Some('r'),
            '\t' => Some('t'),
            '\\' | '\'' => Some(c),
            _ => None,
        };
        match escape {
            Some(letter) => {
                out.push('\\');
                out.push(letter);
            }
            None if c.is_control() => out.push_str(&format!("\\{:03o}", u32::from(c) & 0o377)),
            None => out.push(c),
        }
    }
    out.push('\'');
    out
}
