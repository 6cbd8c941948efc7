//! Which line bash reports for a simple command.
//!
//! bash stamps a simple command with the parser's line when it reduces the
//! command's first element, which for a word is after reading the next
//! token (the parser looks ahead to tell `name (` from a command). So a
//! command continued by backslash-newline reports the line where its second
//! token ends (`nocmd \`, newline, `arg` is line 2), and a word spanning
//! lines reports its last line. An assignment or redirection first needs no
//! look-ahead: its own last line.

use super::ast::{Argument, RedirectTarget, SimpleCommand, Span};

/// One element of a simple command, by kind, for [`SimpleCommand::line_offset`].
enum Element {
    Word(Span),
    Assignment(Span),
    Redirect(Span, bool),
}

impl Element {
    fn start(&self) -> u32 {
        match self {
            Element::Word(span) | Element::Assignment(span) | Element::Redirect(span, _) => span.start,
        }
    }
}

/// The offset of a span's last byte.
fn last_byte(span: Span) -> u32 {
    span.end.saturating_sub(1).max(span.start)
}

impl SimpleCommand {
    /// The byte offset in `source` whose line bash reports for this command
    /// (its errors and `LINENO`).
    pub fn line_offset(&self, source: &str) -> u32 {
        let mut elements: Vec<Element> = self.assignments.iter().map(|a| Element::Assignment(a.span)).collect();
        for argument in &self.words {
            elements.push(match argument {
                Argument::Word(word) => Element::Word(word.span),
                Argument::Assignment(assignment) => Element::Assignment(assignment.span),
            });
        }
        for redirect in &self.redirects {
            elements.push(Element::Redirect(redirect.span, matches!(redirect.target, RedirectTarget::HereDoc(_))));
        }
        elements.sort_by_key(Element::start);
        let Some(first) = elements.first() else {
            return self.span.start;
        };
        match first {
            Element::Assignment(span) | Element::Redirect(span, false) => last_byte(*span),
            Element::Redirect(span, true) => span.start,
            Element::Word(span) => match elements.get(1) {
                Some(Element::Redirect(next, _)) => next.start,
                Some(Element::Word(next) | Element::Assignment(next)) => last_byte(*next),
                None => next_token(source, span.end),
            },
        }
    }
}

/// Where the token after `offset` starts: blanks and backslash-newlines
/// skipped.
fn next_token(source: &str, offset: u32) -> u32 {
    let bytes = source.as_bytes();
    let mut at = offset as usize;
    while at < bytes.len() {
        match bytes[at] {
            b' ' | b'\t' => at += 1,
            b'\\' if bytes.get(at + 1) == Some(&b'\n') => at += 2,
            _ => break,
        }
    }
    at.min(bytes.len()) as u32
}
