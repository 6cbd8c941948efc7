//! Redirections: `[n]<word`, `{var}>&-`, `&>>file`, `<<<word`, and the
//! `<<DELIM` operators whose bodies `heredoc` reads at the next newline.

use super::ast::{HereDoc, Redirect, RedirectFd, RedirectOp, RedirectTarget, Seq, Span, Word};
use super::error::ParseErrorKind;
use super::lexer::{is_name, is_name_byte};
use super::parser::{PResult, Parser, PendingHereDoc};
use super::word::WordContext;

/// The redirection operators and what they mean, longest first.
const REDIRECT_OPS: [(&str, RedirectOp); 12] = [
    ("&>>", RedirectOp::AppendBoth),
    ("<<<", RedirectOp::HereString),
    ("<<-", RedirectOp::HereDocStrip),
    ("&>", RedirectOp::OutputBoth),
    ("<<", RedirectOp::HereDoc),
    ("<&", RedirectOp::DupInput),
    ("<>", RedirectOp::ReadWrite),
    (">>", RedirectOp::Append),
    (">&", RedirectOp::DupOutput),
    (">|", RedirectOp::Clobber),
    ("<", RedirectOp::Input),
    (">", RedirectOp::Output),
];

impl Parser<'_> {
    /// Length of an fd prefix (`2` or `{name}`) directly followed by `<` or `>`.
    pub(super) fn fd_prefix_length(&self) -> Option<usize> {
        let rest = self.rest();
        let length = match rest.first()? {
            b'0'..=b'9' => rest.iter().position(|b| !b.is_ascii_digit()).unwrap_or(rest.len()),
            b'{' => {
                let inner = rest.get(1..)?.iter().position(|b| !is_name_byte(*b))?;
                if rest.get(1 + inner) != Some(&b'}') || !is_name(self.slice(self.pos + 1, self.pos + 1 + inner)) {
                    return None;
                }
                inner + 2
            }
            _ => return None,
        };
        match rest.get(length) {
            Some(b'<' | b'>') if rest.get(length + 1) != Some(&b'(') => Some(length),
            _ => None,
        }
    }

    /// Fails when a file descriptor number (`2` in `2>&1`) stands where a
    /// word must: bash's lexer reads those digits as a number token, never a
    /// word, so `cat < 2>&1` and `for 2>x` fail at the `2`.
    pub(super) fn refuse_fd_number(&self) -> PResult<()> {
        match self.fd_prefix_length() {
            Some(length) if self.cur().is_some_and(|byte| byte.is_ascii_digit()) => {
                self.fail(ParseErrorKind::UnexpectedToken(self.slice(self.pos, self.pos + length).to_string()))
            }
            _ => Ok(()),
        }
    }

    /// True when a redirection starts at the read position.
    #[inline]
    pub(super) fn at_redirect(&self) -> bool {
        match self.cur() {
            Some(b'<' | b'>') => self.peek_at(1) != Some(b'('),
            Some(b'&') => self.peek_at(1) == Some(b'>'),
            Some(b'0'..=b'9' | b'{') => self.fd_prefix_length().is_some(),
            _ => false,
        }
    }

    /// Reads one redirection.
    pub(super) fn redirect(&mut self) -> PResult<Redirect> {
        let start = self.pos;
        let fd = match self.fd_prefix_length() {
            Some(length) => {
                let text = self.slice(self.pos, self.pos + length).to_string();
                self.pos += length;
                Some(match text.strip_prefix('{').and_then(|t| t.strip_suffix('}')) {
                    Some(name) => RedirectFd::Variable(name.to_string()),
                    None => RedirectFd::Number(text.parse().unwrap_or(u32::MAX)),
                })
            }
            None => None,
        };
        let Some((text, op)) = REDIRECT_OPS.iter().copied().find(|(text, _)| self.looking_at(text)) else {
            return self.unexpected();
        };
        self.pos += text.len();
        self.token()?;
        // A `#` starting the target begins a comment, as anywhere a word starts.
        self.skip_space();
        // `>&2>x` duplicates fd 2: after `>&` and `<&` a number is the target.
        if !matches!(op, RedirectOp::DupInput | RedirectOp::DupOutput) {
            self.refuse_fd_number()?;
        }
        if matches!(op, RedirectOp::HereDoc | RedirectOp::HereDocStrip) {
            let target = self.heredoc_operator(op == RedirectOp::HereDocStrip)?;
            return Ok(Redirect { fd, op, target, span: self.span(start, self.pos) });
        }
        // Brace expansion applies (`> a{1,2}` is an ambiguous redirect).
        let Some(word) = self.read_word(WordContext::Normal)? else {
            return self.unexpected_word();
        };
        Ok(Redirect { fd, op, target: RedirectTarget::Word(word), span: self.span(start, self.pos) })
    }

    /// Reads the delimiter after `<<` and queues the body for the next newline.
    fn heredoc_operator(&mut self, strip_tabs: bool) -> PResult<RedirectTarget> {
        let start = self.pos;
        if self.read_word(WordContext::Pattern)?.is_none() {
            return self.unexpected_word();
        }
        let raw = self.slice(start, self.pos).to_string();
        let quoted = raw.bytes().any(|b| matches!(b, b'\'' | b'"' | b'\\'));
        let delimiter = unquote_delimiter(&raw);
        let id = self.heredoc_bodies.len();
        self.heredoc_bodies.push(None);
        self.pending.push(PendingHereDoc { id, delimiter: delimiter.clone(), strip_tabs, quoted });
        Ok(RedirectTarget::HereDoc(HereDoc {
            delimiter,
            quoted,
            body: Word { parts: Seq::new(), span: Span { start: u32::MAX, end: id as u32 } },
        }))
    }
}

/// The delimiter of `<<'EOF'`, `<<"E"OF`, `<<\EOF`: the text with quotes removed.
fn unquote_delimiter(raw: &str) -> String {
    let mut out = String::new();
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                for inner in chars.by_ref() {
                    if inner == '\'' {
                        break;
                    }
                    out.push(inner);
                }
            }
            '"' => {
                while let Some(inner) = chars.next() {
                    match inner {
                        '"' => break,
                        '\\' if matches!(chars.peek(), Some('$' | '`' | '"' | '\\')) => {
                            if let Some(next) = chars.next() {
                                out.push(next);
                            }
                        }
                        _ => out.push(inner),
                    }
                }
            }
            '\\' => {
                if let Some(next) = chars.next() {
                    out.push(next);
                }
            }
            '$' if matches!(chars.peek(), Some('\'' | '"')) => {}
            _ => out.push(c),
        }
    }
    out
}
