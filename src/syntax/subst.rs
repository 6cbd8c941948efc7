//! Substitutions inside words: `$(list)`, backquotes, `$(( expr ))`,
//! `$[ expr ]`, and the decoding of `$'...'`.

use super::ast::{List, WordPart};
use super::error::ParseErrorKind;
use super::parser::{Fail, PResult, Parser};

impl Parser<'_> {
    /// Reads `$(list)`.
    pub(super) fn command_substitution(&mut self) -> PResult<WordPart> {
        self.pos += 2;
        self.enter()?;
        let outer = std::mem::replace(&mut self.in_assignment_value, false);
        let body = self.nested_list_until_paren();
        self.in_assignment_value = outer;
        let body = body?;
        self.leave();
        Ok(WordPart::CommandSub { body: Box::new(body), backtick: false })
    }

    /// Reads a list up to and including its closing `)`.
    pub(super) fn nested_list_until_paren(&mut self) -> PResult<List> {
        // Here-documents started before the `$(` are not read at its inner
        // newlines: bash reads their bodies after the line the `)` ends.
        let outer = std::mem::take(&mut self.pending);
        let list = self.compound_list();
        if self.cur().is_none() && !self.pending.is_empty() {
            // At the end of the input the bodies begun inside are read (and
            // warned about) before the missing `)` is reported.
            let _ = self.read_heredoc_bodies();
        }
        let inner = std::mem::replace(&mut self.pending, outer);
        self.pending.extend(inner);
        let list = match list {
            Ok(list) => list,
            // Bash reads the substitution as text up to its `)` first.
            Err(Fail { kind: ParseErrorKind::UnexpectedEof, .. }) => return Err(Fail::at_end(ParseErrorKind::UnterminatedQuote(')'))),
            Err(fail) => return Err(self.inside_substitution(fail)),
        };
        if self.cur() == Some(b')') {
            self.pos += 1;
            self.token()?;
            Ok(list)
        } else if self.cur().is_none() {
            Err(Fail::at_end(ParseErrorKind::UnterminatedQuote(')')))
        } else {
            self.unexpected().map_err(|fail| self.inside_substitution(fail))
        }
    }

    /// Notes that `fail`, a wrong token (not an end of input), happened
    /// inside a substitution's commands.
    fn inside_substitution(&mut self, fail: Fail) -> Fail {
        let end_of_input = match &fail.kind {
            ParseErrorKind::UnterminatedQuote(_) | ParseErrorKind::LimitExceeded(_) => true,
            ParseErrorKind::Conditional(error) => error.needs_more_input,
            _ => false,
        };
        if !end_of_input {
            self.failed_in_substitution = true;
        }
        fail
    }

    /// Reads `$(( expr ))`, or `$( (list) )` when the parentheses do not
    /// close as arithmetic.
    pub(super) fn arith_substitution(&mut self) -> PResult<WordPart> {
        let start = self.pos;
        match self.arith_close(start + 3) {
            Some(close) => {
                let expr = self.arith_source(start + 3, close)?;
                self.pos = close + 2;
                self.token()?;
                Ok(WordPart::Arith(Box::new(expr)))
            }
            None => match self.paren_scan_eof(start + 3) {
                Some(quote) => Err(Fail { kind: ParseErrorKind::UnterminatedQuote(quote), pos: start }),
                None => self.command_substitution().map_err(|fail| match fail.kind {
                    ParseErrorKind::UnterminatedQuote(')') if fail.pos == usize::MAX => Fail { kind: fail.kind, pos: start },
                    _ => fail,
                }),
            },
        }
    }

    /// Reads the obsolete `$[ expr ]`.
    pub(super) fn bracket_arith(&mut self) -> PResult<WordPart> {
        let start = self.pos;
        let Some(close) = self.matching_bracket(start + 1) else {
            return Err(Fail { kind: ParseErrorKind::UnterminatedQuote(']'), pos: start });
        };
        let expr = self.arith_source(start + 2, close)?;
        self.pos = close + 1;
        Ok(WordPart::Arith(Box::new(expr)))
    }

    /// Where the `))` closing arithmetic that starts at `from` is (the offset
    /// of its first `)`), or `None` when a lone `)` closes it first.
    pub(super) fn arith_close(&self, from: usize) -> Option<usize> {
        arith_close_in(self.text.as_bytes().get(..self.end)?, from)
    }

    /// When scanning for the closing parenthesis from `from` runs off the
    /// end of the input (an unterminated `$((`), what bash was looking for:
    /// the quote left open, or `)`.
    pub(super) fn paren_scan_eof(&self, from: usize) -> Option<char> {
        let bytes = self.text.as_bytes().get(..self.end)?;
        let mut depth = 0usize;
        let mut index = from;
        while index < bytes.len() {
            match bytes.get(index) {
                Some(b'(') => depth += 1,
                Some(b')') if depth > 0 => depth -= 1,
                Some(b')') => return None,
                Some(b'\\') => index += 1,
                Some(b'\'' | b'"') => match quote_end(bytes, index) {
                    Ok(close) => index = close,
                    Err(open) => return Some(open),
                },
                _ => {}
            }
            index += 1;
        }
        Some(')')
    }

    /// Reads `` `list` ``: the text up to the closing backquote, with
    /// `\\`, `` \` `` and `\$` (and `\"` inside double quotes) unescaped,
    /// parsed as a script of its own.
    pub(super) fn backquote(&mut self, in_dquote: bool) -> PResult<WordPart> {
        let start = self.pos;
        self.pos += 1;
        let mut text = String::new();
        loop {
            let rest = self.rest();
            let Some(length) = rest.iter().position(|b| *b == b'`' || *b == b'\\') else {
                return Err(Fail { kind: ParseErrorKind::UnterminatedQuote('`'), pos: start });
            };
            text.push_str(self.slice(self.pos, self.pos + length));
            self.pos += length;
            if self.cur() == Some(b'`') {
                self.pos += 1;
                break;
            }
            match self.peek_at(1) {
                Some(c @ (b'\\' | b'`' | b'$')) => {
                    text.push(c as char);
                    self.pos += 2;
                }
                Some(b'"') if in_dquote => {
                    text.push('"');
                    self.pos += 2;
                }
                Some(_) => {
                    text.push('\\');
                    self.pos += 1;
                }
                None => return Err(Fail { kind: ParseErrorKind::UnterminatedQuote('`'), pos: start }),
            }
        }
        self.token()?;
        self.enter()?;
        let mut sub = self.sub_parser(&text, self.base + start + 1);
        let result = sub.parse_to_end();
        self.absorb(&sub);
        self.leave();
        match result {
            Ok(body) => Ok(WordPart::CommandSub { body: Box::new(body), backtick: true }),
            // Only limits end the parse; bash reports a body's syntax error when it runs.
            Err(fail) if matches!(fail.kind, ParseErrorKind::LimitExceeded(_)) => Err(Fail { kind: fail.kind, pos: start }),
            Err(_) => Ok(WordPart::UnparsedBackquote(text)),
        }
    }

    /// Decodes `'...'` after `$` into bytes, applying every escape bash knows.
    pub(super) fn ansi_c_quoted(&mut self) -> PResult<Vec<u8>> {
        let start = self.pos;
        self.pos += 1;
        let mut out = Vec::new();
        loop {
            let Some(byte) = self.cur() else {
                return Err(Fail { kind: ParseErrorKind::UnterminatedQuote('\''), pos: start });
            };
            self.pos += 1;
            match byte {
                b'\'' => return Ok(out),
                b'\\' => self.ansi_escape(&mut out),
                _ => out.push(byte),
            }
        }
    }

    /// Decodes one escape of `$'...'`, the backslash already read.
    fn ansi_escape(&mut self, out: &mut Vec<u8>) {
        let Some(byte) = self.cur() else {
            out.push(b'\\');
            return;
        };
        self.pos += 1;
        let simple = match byte {
            b'a' => Some(7),
            b'b' => Some(8),
            b'e' | b'E' => Some(27),
            b'f' => Some(12),
            b'n' => Some(b'\n'),
            b'r' => Some(b'\r'),
            b't' => Some(b'\t'),
            b'v' => Some(11),
            b'\\' | b'\'' | b'"' | b'?' => Some(byte),
            _ => None,
        };
        if let Some(value) = simple {
            out.push(value);
            return;
        }
        match byte {
            b'0'..=b'7' => {
                let mut value = u32::from(byte - b'0');
                for _ in 0..2 {
                    match self.cur() {
                        Some(d @ b'0'..=b'7') => {
                            value = value * 8 + u32::from(d - b'0');
                            self.pos += 1;
                        }
                        _ => break,
                    }
                }
                out.push((value & 0xff) as u8);
            }
            b'x' | b'u' | b'U' => {
                let max = match byte {
                    b'x' => 2,
                    b'u' => 4,
                    _ => 8,
                };
                let mut value = 0u32;
                let mut digits = 0;
                while digits < max {
                    match self.cur().and_then(|d| (d as char).to_digit(16)) {
                        Some(d) => {
                            value = value.wrapping_mul(16).wrapping_add(d);
                            self.pos += 1;
                            digits += 1;
                        }
                        None => break,
                    }
                }
                if digits == 0 {
                    out.push(b'\\');
                    out.push(byte);
                } else if byte == b'x' {
                    out.push(value as u8);
                } else {
                    let c = char::from_u32(value).unwrap_or('\u{fffd}');
                    let mut buffer = [0u8; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buffer).as_bytes());
                }
            }
            b'c' => match self.cur() {
                Some(c) if c != b'\'' => {
                    self.pos += 1;
                    out.push(c.to_ascii_uppercase() & 0x1f);
                    if c == b'?' {
                        out.pop();
                        out.push(0x7f);
                    }
                }
                _ => {
                    out.push(b'\\');
                    out.push(b'c');
                }
            },
            _ => {
                out.push(b'\\');
                self.pos -= 1;
                let c = self.cur_char().unwrap_or('\\');
                self.pos += c.len_utf8();
                let mut buffer = [0u8; 4];
                out.extend_from_slice(c.encode_utf8(&mut buffer).as_bytes());
            }
        }
    }
}

/// Where the `))` closing arithmetic whose text starts at `from` in `bytes`
/// is (the offset of its first `)`), or `None` when a lone `)` closes it
/// first or the text runs off the end. Quotes are skipped whole, so the
/// printer can ask whether `$((text))` closes where it should.
pub(super) fn arith_close_in(bytes: &[u8], from: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut index = from;
    while index < bytes.len() {
        match *bytes.get(index)? {
            b'(' => depth += 1,
            b')' if depth > 0 => depth -= 1,
            b')' => return (bytes.get(index + 1) == Some(&b')')).then_some(index),
            b'\\' => index += 1,
            b'\'' | b'"' => index = quote_end(bytes, index).ok()?,
            _ => {}
        }
        index += 1;
    }
    None
}

/// The offset of the quote closing the one at `open`, or the quote
/// character bash reports missing. Inside double quotes a backslash
/// escapes the next byte and a backquoted command runs to its own closing
/// backquote, as bash reads them.
fn quote_end(bytes: &[u8], open: usize) -> Result<usize, char> {
    let quote = bytes.get(open).copied().unwrap_or(b'"');
    let mut index = open + 1;
    while let Some(&byte) = bytes.get(index) {
        match byte {
            _ if byte == quote => return Ok(index),
            b'\\' if quote == b'"' => index += 1,
            b'`' if quote == b'"' => {
                index += 1;
                loop {
                    match bytes.get(index) {
                        Some(b'`') => break,
                        Some(b'\\') => index += 2,
                        Some(_) => index += 1,
                        None => return Err('`'),
                    }
                }
            }
            _ => {}
        }
        index += 1;
    }
    Err(char::from(quote))
}
