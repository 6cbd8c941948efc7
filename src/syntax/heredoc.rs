//! Here-document bodies: read line by line after the newline that ends the
//! line holding their `<<` operators, in the order the operators appeared.

use super::ast::{ListItem, Seq, Word, WordPart};
use super::error::ParseErrorKind;
use super::lines::line_number;
use super::parser::{Fail, PResult, Parser};
use super::walk::{walk_items, walk_word, VisitMut};
use super::word::PartsBuilder;

impl Parser<'_> {
    /// Reads the bodies of every pending here-document, starting at the
    /// read position (just after a newline, or at the end of input).
    pub(super) fn read_heredoc_bodies(&mut self) -> PResult<()> {
        let pending = std::mem::take(&mut self.pending);
        for heredoc in pending {
            // Bash names the line it had read up to when this body began: the
            // line holding the operators, or the previous body's last line
            // (counted only for the warning: counting is linear in the text).
            let began_after = self.pos.saturating_sub(1);
            let body_start = self.pos;
            let mut body = String::new();
            let mut found = false;
            while self.pos < self.end {
                self.step()?;
                let (raw, logical) = self.heredoc_line(heredoc.strip_tabs, heredoc.quoted);
                if logical == heredoc.delimiter {
                    found = true;
                    break;
                }
                // Bash reads lines, so a last line without a newline gets one.
                body.push_str(&raw);
                body.push('\n');
            }
            if !found {
                self.warnings.push(format!(
                    "here-document at line {} delimited by end-of-file (wanted `{}')",
                    line_number(&self.text, began_after),
                    heredoc.delimiter
                ));
            }
            let word = if heredoc.quoted {
                let parts = if body.is_empty() { Seq::new() } else { Seq::One(WordPart::Literal(body.into())) };
                Word { parts, span: self.span(body_start, self.pos) }
            } else {
                let mut sub = self.sub_parser(&body, body_start + self.base);
                let result = sub.heredoc_word();
                self.absorb(&sub);
                // A failure inside the body is placed in the whole text.
                let mut word = result.map_err(|fail| match fail.pos {
                    usize::MAX => fail,
                    pos => Fail { pos: pos + body_start, ..fail },
                })?;
                // Here-documents inside the body's command substitutions.
                if !sub.heredoc_bodies.is_empty() {
                    walk_word(&mut Filler { bodies: &mut sub.heredoc_bodies }, &mut word);
                }
                word
            };
            if let Some(slot) = self.heredoc_bodies.get_mut(heredoc.id) {
                *slot = Some(word);
            }
        }
        Ok(())
    }

    /// Before it reports a wrong token on a line whose here-documents are
    /// pending, bash reads their bodies (printing any end-of-file warning
    /// first) and names the last line read; the source line it prints is
    /// still the error's. Where something must follow (after `|`, `&&`,
    /// `||` or `name (`, or inside a compound command) its grammar fails at
    /// once instead, unless the wrong token is the newline itself. At the end of the input the bodies are
    /// read too (their warnings come first). Returns the line named when it
    /// changes.
    pub(super) fn bodies_before_error(&mut self, fail: &Fail) -> Option<usize> {
        if self.pending.is_empty() {
            return None;
        }
        if fail.kind == ParseErrorKind::UnexpectedEof {
            self.pos = self.end;
            let _ = self.read_heredoc_bodies();
            return None;
        }
        let ParseErrorKind::UnexpectedToken(token) = &fail.kind else { return None };
        let before = self.text.get(..fail.pos.min(self.text.len())).unwrap_or_default().trim_end_matches([' ', '\t']);
        // Inside a compound command the grammar is never waiting on a
        // complete command either.
        let must_follow = before.ends_with('|') || before.ends_with("&&") || before.ends_with('(');
        if token != "newline" && (must_follow || self.depth_at_failure.get() > 0) {
            return None;
        }
        let from = fail.pos.min(self.end);
        let rest = self.text.as_bytes().get(from..self.end).unwrap_or_default();
        self.pos = rest.iter().position(|b| *b == b'\n').map_or(self.end, |at| from + at + 1);
        let _ = self.read_heredoc_bodies();
        Some(line_number(&self.text, self.pos.saturating_sub(1)))
    }

    /// Reads one line of a here-document body: its text as written, and
    /// the line compared with the delimiter. In an unquoted body a line
    /// ending in an odd number of backslashes joins the next one, as bash
    /// reads it, so a delimiter right after such a line does not end the
    /// body. With `<<-` leading tabs are stripped from the joined line.
    fn heredoc_line(&mut self, strip_tabs: bool, quoted: bool) -> (String, String) {
        let mut raw = String::new();
        let mut logical = String::new();
        let mut first = true;
        loop {
            let rest = self.rest();
            let line_length = rest.iter().position(|b| *b == b'\n').unwrap_or(rest.len());
            let has_newline = line_length < rest.len();
            let line_start = self.pos;
            self.pos += line_length + usize::from(has_newline);
            let mut line = self.slice(line_start, line_start + line_length);
            if first && strip_tabs {
                line = line.trim_start_matches('\t');
            }
            first = false;
            raw.push_str(line);
            let backslashes = line.bytes().rev().take_while(|b| *b == b'\\').count();
            if quoted || !has_newline || backslashes % 2 == 0 || self.pos >= self.end {
                logical.push_str(line);
                return (raw, logical);
            }
            raw.push('\n');
            logical.push_str(line.get(..line.len() - 1).unwrap_or_default());
        }
    }

    /// Parses an unquoted here-document body (this parser's whole text):
    /// expansions and the backslash rules of double quotes, without quotes.
    fn heredoc_word(&mut self) -> PResult<Word> {
        let mut out = PartsBuilder::default();
        while let Some(byte) = self.cur() {
            self.step()?;
            match byte {
                b'\\' => match self.peek_at(1) {
                    Some(b'\n') => self.pos += 2,
                    Some(c @ (b'$' | b'`' | b'\\')) => {
                        self.pos += 2;
                        out.part(WordPart::Escaped(c as char));
                    }
                    _ => {
                        self.pos += 1;
                        out.char('\\');
                    }
                },
                b'$' => match self.dollar(true) {
                    Ok(Some(part)) => out.part(part),
                    Ok(None) => {
                        self.pos += 1;
                        out.char('$');
                    }
                    // Bash expands a body only when it runs: an unclosed `${`
                    // fails then, naming the whole body.
                    Err(Fail { kind: ParseErrorKind::UnterminatedQuote('}'), .. }) => {
                        let body = self.slice(0, self.end).to_string();
                        self.pos = self.end;
                        return Ok(Word { parts: Seq::One(WordPart::BadSubstitution(body)), span: self.span(0, self.pos) });
                    }
                    // An unclosed `$((` fails then too, naming the whole body.
                    Err(Fail { kind: ParseErrorKind::UnterminatedQuote(')'), pos })
                        if self.text.get(pos..).is_some_and(|at| at.starts_with("$((")) =>
                    {
                        let body = self.slice(0, self.end).to_string();
                        self.pos = self.end;
                        let part = WordPart::UnclosedSubstitution { closer: ')', text: body };
                        return Ok(Word { parts: Seq::One(part), span: self.span(0, self.pos) });
                    }
                    Err(fail) => return Err(fail),
                },
                b'`' => match self.backquote(false) {
                    Ok(part) => out.part(part),
                    Err(Fail { kind: ParseErrorKind::UnterminatedQuote('`'), pos }) => {
                        out.part(WordPart::UnclosedSubstitution { closer: '`', text: self.slice(pos, self.end).to_string() });
                        self.pos = self.end;
                    }
                    Err(fail) => return Err(fail),
                },
                _ => {
                    let rest = self.rest();
                    let length = rest.iter().position(|b| matches!(b, b'\\' | b'$' | b'`')).unwrap_or(rest.len());
                    out.text(self.slice(self.pos, self.pos + length));
                    self.pos += length;
                }
            }
        }
        let parts = out.finish();
        Ok(Word { parts, span: self.span(0, self.pos) })
    }

    /// Puts the bodies read into the here-documents of `list`.
    pub(super) fn fill_heredocs(&mut self, items: &mut [ListItem]) {
        if self.heredoc_bodies.is_empty() {
            return;
        }
        let mut filler = Filler { bodies: &mut self.heredoc_bodies };
        walk_items(&mut filler, items);
    }
}

/// Replaces placeholder bodies (span start `u32::MAX`, id in `end`).
struct Filler<'a> {
    bodies: &'a mut Vec<Option<Word>>,
}

impl VisitMut for Filler<'_> {
    fn heredoc_body(&mut self, body: &mut Word) {
        if body.span.start == u32::MAX {
            let id = body.span.end as usize;
            if let Some(slot) = self.bodies.get_mut(id) {
                *body = slot.take().unwrap_or_default();
            }
        }
    }
}
