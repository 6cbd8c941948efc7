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
        // The first two elements in source order, found without allocating
        // (this runs for every simple command).
        let mut first: Option<Element> = None;
        let mut second: Option<Element> = None;
        let assignments = self.assignments.iter().map(|a| Element::Assignment(a.span));
        let words = self.words.iter().map(|argument| match argument {
            Argument::Word(word) => Element::Word(word.span),
            Argument::Assignment(assignment) => Element::Assignment(assignment.span),
        });
        let redirects = self.redirects.iter().map(|r| Element::Redirect(r.span, matches!(r.target, RedirectTarget::HereDoc(_))));
        for element in assignments.chain(words).chain(redirects) {
            if first.as_ref().is_none_or(|f| element.start() < f.start()) {
                second = first.replace(element);
            } else if second.as_ref().is_none_or(|s| element.start() < s.start()) {
                second = Some(element);
            }
        }
        let Some(first) = first else {
            return self.span.start;
        };
        match first {
            Element::Assignment(span) | Element::Redirect(span, false) => last_byte(span),
            Element::Redirect(span, true) => span.start,
            Element::Word(span) => match second {
                Some(Element::Redirect(next, _)) => next.start,
                Some(Element::Word(next) | Element::Assignment(next)) => last_byte(next),
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
