//! `$`-expansions: `$name`, `$1`, `$@`, `${...}` with every operator,
//! `$'...'`, `$"..."`; `$( )`, `$(( ))` and backquotes are in `subst`.

use super::ast::{CaseMode, ParamExpansion, ParamOp, Parameter, ReplaceMode, Subscript, Word, WordPart};
use super::bracket::{bracket_close, BracketScope};
use super::error::ParseErrorKind;
use super::lexer::is_name_start;
use super::parser::{Fail, PResult, Parser};
use super::word::PartsBuilder;

/// Special parameters: `$@ $* $# $? $- $$ $! $0`.
fn is_special(byte: u8) -> bool {
    matches!(byte, b'@' | b'*' | b'#' | b'?' | b'-' | b'$' | b'!' | b'0')
}

/// What ends a word inside `${ }`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stop {
    /// Only the closing `}`.
    Brace,
    /// `:` or `}` (the offset of `${x:off:len}`).
    Colon,
    /// `/` or `}` (the pattern of `${x/p/r}`).
    Slash,
}

impl Parser<'_> {
    /// Reads an expansion at `$`; `None` when the `$` is literal.
    pub(super) fn dollar(&mut self, in_dquote: bool) -> PResult<Option<WordPart>> {
        if self.looking_at("$\\\n") {
            let dollar = self.pos;
            let mut after = self.pos + 1;
            while self.text.as_bytes().get(after..after + 2) == Some(b"\\\n".as_slice()) {
                after += 2;
            }
            self.pos = after - 1;
            let part = self.dollar(in_dquote)?;
            if part.is_none() {
                self.pos = dollar;
            }
            return Ok(part);
        }
        let Some(next) = self.peek_at(1) else {
            return Ok(None);
        };
        match next {
            b'{' => self.braced_param(in_dquote).map(Some),
            b'(' => {
                if self.peek_at(2) == Some(b'(') {
                    self.arith_substitution().map(Some)
                } else {
                    self.command_substitution().map(Some)
                }
            }
            b'[' => self.bracket_arith().map(Some),
            b'\'' if !in_dquote => {
                self.pos += 1;
                let start = self.pos;
                let bytes = self.ansi_c_quoted().map_err(|mut fail| {
                    fail.pos = start;
                    fail
                })?;
                Ok(Some(WordPart::AnsiCQuoted(bytes)))
            }
            b'"' if !in_dquote => {
                self.pos += 1;
                let parts = self.double_quoted()?;
                Ok(Some(WordPart::LocaleQuoted(parts)))
            }
            b if is_name_start(b) => {
                self.pos += 1;
                let name = self.name_across_continuations();
                Ok(Some(simple_param(Parameter::Named(name))))
            }
            b if b.is_ascii_digit() => {
                self.pos += 2;
                let param = if b == b'0' { Parameter::Special('0') } else { Parameter::Positional(u32::from(b - b'0')) };
                Ok(Some(simple_param(param)))
            }
            b if is_special(b) => {
                self.pos += 2;
                Ok(Some(simple_param(Parameter::Special(b as char))))
            }
            _ => Ok(None),
        }
    }

    /// Reads `${...}`.
    fn braced_param(&mut self, in_dquote: bool) -> PResult<WordPart> {
        let start = self.pos;
        self.pos += 2;
        self.enter()?;
        let result = self.braced_param_body(start, in_dquote);
        self.leave();
        match result {
            Ok(Some(part)) => Ok(part),
            Ok(None) => {
                self.pos = start + 2;
                self.skip_to_brace(start)?;
                Ok(WordPart::BadSubstitution(self.slice(start, self.pos).to_string()))
            }
            Err(fail) => Err(fail),
        }
    }

    /// The inside of `${...}`; `None` when bash would report a bad substitution.
    fn braced_param_body(&mut self, start: usize, in_dquote: bool) -> PResult<Option<WordPart>> {
        let mut expansion =
            ParamExpansion { param: Parameter::Special('#'), index: None, indirect: false, length: false, op: None, braced: true };
        match (self.cur(), self.peek_at(1)) {
            (Some(b'#'), Some(b'}')) => {}
            (Some(b'#'), Some(b)) if is_name_start(b) || b.is_ascii_digit() || is_special(b) => {
                expansion.length = true;
                self.pos += 1;
            }
            (Some(b'!'), Some(b'}')) => {}
            (Some(b'!'), Some(b)) if is_name_start(b) || b.is_ascii_digit() || is_special(b) => {
                expansion.indirect = true;
                self.pos += 1;
            }
            _ => {}
        }
        let Some(param) = self.param_name() else {
            return Ok(None);
        };
        expansion.param = param;
        if self.cur() == Some(b'[') && matches!(expansion.param, Parameter::Named(_)) {
            match self.subscript()? {
                Some(subscript) => expansion.index = Some(subscript),
                None => return Ok(None),
            }
        }
        let Some(byte) = self.cur() else {
            return self.unclosed_brace(start);
        };
        if byte == b'}' {
            self.pos += 1;
            return Ok(Some(WordPart::Param(Box::new(expansion))));
        }
        if expansion.length {
            return Ok(None);
        }
        if expansion.indirect
            && matches!(byte, b'*' | b'@')
            && self.peek_at(1) == Some(b'}')
            && expansion.index.is_none()
            && matches!(expansion.param, Parameter::Named(_))
        {
            self.pos += 2;
            expansion.indirect = false;
            expansion.op = Some(ParamOp::PrefixNames { at: byte == b'@' });
            return Ok(Some(WordPart::Param(Box::new(expansion))));
        }
        let op = match self.param_op(start, in_dquote)? {
            Some(op) => op,
            None => return Ok(None),
        };
        expansion.op = Some(op);
        if self.cur() != Some(b'}') {
            return self.unclosed_brace(start);
        }
        self.pos += 1;
        Ok(Some(WordPart::Param(Box::new(expansion))))
    }

    /// The failure for a `${` that never closes.
    fn unclosed_brace<T>(&self, start: usize) -> PResult<T> {
        Err(Fail { kind: ParseErrorKind::UnterminatedQuote('}'), pos: start })
    }

    /// The parameter right after `${`, `${#` or `${!`.
    fn param_name(&mut self) -> Option<Parameter> {
        let byte = self.cur()?;
        if is_name_start(byte) {
            let name = self.name_across_continuations();
            // Inside `${ }` a line continuation after the name is removed too.
            while self.looking_at("\\\n") {
                self.pos += 2;
            }
            Some(Parameter::Named(name))
        } else if byte.is_ascii_digit() {
            let rest = self.rest();
            let length = rest.iter().position(|b| !b.is_ascii_digit()).unwrap_or(rest.len());
            let digits = self.slice(self.pos, self.pos + length).to_string();
            self.pos += length;
            match digits.parse::<u32>() {
                Ok(0) => Some(Parameter::Special('0')),
                Ok(n) => Some(Parameter::Positional(n)),
                Err(_) => Some(Parameter::Positional(u32::MAX)),
            }
        } else if is_special(byte) {
            self.pos += 1;
            Some(Parameter::Special(byte as char))
        } else {
            None
        }
    }

    /// Reads `[@]`, `[*]` or `[expr]` after a name in `${ }`. Bash ends the
    /// `${` at the first unquoted `}` not paired with a `{`, even inside the
    /// brackets, so a subscript that would close only after it is a bad
    /// substitution.
    pub(super) fn subscript(&mut self) -> PResult<Option<Subscript>> {
        let open = self.pos;
        let Some(close) = self.bracket_close(open, BracketScope::InBraces) else {
            return Ok(None);
        };
        let inner = self.slice(open + 1, close);
        let subscript = match inner {
            "@" => Subscript::At,
            "*" => Subscript::Star,
            _ => {
                let saved_end = self.end;
                self.pos = open + 1;
                self.end = close;
                let result = self.subscript_word();
                self.end = saved_end;
                Subscript::Expr(result?)
            }
        };
        self.pos = close + 1;
        Ok(Some(subscript))
    }

    /// The word inside a subscript (the parser's range is set to it).
    pub(super) fn subscript_word(&mut self) -> PResult<Word> {
        let start = self.pos;
        let mut out = PartsBuilder::default();
        while self.cur().is_some() {
            self.brace_word_piece(&mut out, false, Stop::Brace, false)?;
        }
        Ok(Word { parts: out.finish(), span: self.span(start, self.pos) })
    }

    /// The offset of the `]` matching the `[` at `open`, skipping quotes
    /// and nested brackets, on the same line.
    pub(super) fn matching_bracket(&self, open: usize) -> Option<usize> {
        self.bracket_close(open, BracketScope::Line)
    }

    /// [`Parser::matching_bracket`] within one word (after `declare`, a
    /// blank ends the word, subscript or not).
    pub(super) fn matching_bracket_in_word(&self, open: usize) -> Option<usize> {
        self.bracket_close(open, BracketScope::Word)
    }

    /// [`Parser::matching_bracket`] across newlines, as bash reads the
    /// subscript of a word in command position.
    pub(super) fn matching_bracket_across_lines(&self, open: usize) -> Option<usize> {
        self.bracket_close(open, BracketScope::AcrossLines)
    }

    /// The offset of the `]` matching the `[` at `open`, read as bash reads it.
    fn bracket_close(&self, open: usize, scope: BracketScope) -> Option<usize> {
        bracket_close(self.text.as_bytes(), open, self.end, scope)
    }

    /// Reads the operator and words after the parameter; `None` for a bad substitution.
    fn param_op(&mut self, start: usize, in_dquote: bool) -> PResult<Option<ParamOp>> {
        let Some(byte) = self.cur() else {
            return self.unclosed_brace(start);
        };
        let colon = byte == b':';
        let op_byte = if colon { self.peek_at(1) } else { Some(byte) };
        let op = match op_byte {
            Some(b @ (b'-' | b'=' | b'?' | b'+')) => {
                self.pos += if colon { 2 } else { 1 };
                let word = self.brace_word(start, in_dquote, Stop::Brace, true)?;
                match b {
                    b'-' => ParamOp::Default { colon, word },
                    b'=' => ParamOp::Assign { colon, word },
                    b'?' => ParamOp::Error { colon, word },
                    _ => ParamOp::Alternative { colon, word },
                }
            }
            _ if colon => {
                self.pos += 1;
                let offset = self.brace_word(start, in_dquote, Stop::Colon, false)?;
                let length = if self.cur() == Some(b':') {
                    self.pos += 1;
                    Some(self.brace_word(start, in_dquote, Stop::Brace, false)?)
                } else {
                    None
                };
                ParamOp::Substring { offset, length }
            }
            Some(b @ (b'#' | b'%')) => {
                self.pos += 1;
                let longest = self.cur() == Some(b);
                if longest {
                    self.pos += 1;
                }
                let pattern = self.brace_word(start, in_dquote, Stop::Brace, false)?;
                if b == b'#' {
                    ParamOp::RemovePrefix { longest, pattern }
                } else {
                    ParamOp::RemoveSuffix { longest, pattern }
                }
            }
            Some(b'/') => {
                self.pos += 1;
                let mode = match self.cur() {
                    Some(b'/') => ReplaceMode::All,
                    Some(b'#') => ReplaceMode::Prefix,
                    Some(b'%') => ReplaceMode::Suffix,
                    _ => ReplaceMode::First,
                };
                if mode != ReplaceMode::First {
                    self.pos += 1;
                }
                // A `/` right where the pattern starts belongs to it: `${x////c}`
                // replaces every `/` with `c`.
                let leading_slash = mode == ReplaceMode::All && self.cur() == Some(b'/');
                if leading_slash {
                    self.pos += 1;
                }
                let mut pattern = self.brace_word(start, in_dquote, Stop::Slash, false)?;
                if leading_slash {
                    let mut parts = std::mem::take(&mut pattern.parts).into_vec();
                    parts.insert(0, WordPart::Literal("/".into()));
                    pattern.parts = parts.into();
                }
                let replacement = if self.cur() == Some(b'/') {
                    self.pos += 1;
                    Some(self.brace_word(start, in_dquote, Stop::Brace, false)?)
                } else {
                    None
                };
                ParamOp::Replace { mode, pattern, replacement }
            }
            Some(b @ (b'^' | b',' | b'~')) => {
                self.pos += 1;
                let all = self.cur() == Some(b);
                if all {
                    self.pos += 1;
                }
                let mode = match b {
                    b'^' => CaseMode::Upper,
                    b',' => CaseMode::Lower,
                    _ => CaseMode::Toggle,
                };
                let pattern = self.brace_word(start, in_dquote, Stop::Brace, false)?;
                let pattern = if pattern.parts.is_empty() { None } else { Some(pattern) };
                ParamOp::Case { mode, all, pattern }
            }
            Some(b'@') => match (self.peek_at(1), self.peek_at(2)) {
                (Some(letter), Some(b'}')) if letter.is_ascii_alphabetic() => {
                    self.pos += 2;
                    ParamOp::Transform(letter as char)
                }
                _ => return Ok(None),
            },
            _ => return Ok(None),
        };
        Ok(Some(op))
    }

    /// Reads a word inside `${ }` up to `stop`. In double quotes, single
    /// quotes are literal in the `-=?+` words (`quotes_literal`).
    fn brace_word(&mut self, start: usize, in_dquote: bool, stop: Stop, quotes_literal: bool) -> PResult<Word> {
        let word_start = self.pos;
        let mut out = PartsBuilder::default();
        if !in_dquote {
            if let Some(part) = self.brace_tilde() {
                out.part(part);
            }
        }
        // In `"${x-'a}b'}"` the single quotes are literal characters, but a
        // `}` between them does not end the expansion.
        let mut literal_quote_open = false;
        let mut conditionals = 0usize;
        loop {
            match self.cur() {
                None => return self.unclosed_brace(start),
                Some(b'\'') if in_dquote && quotes_literal => {
                    self.pos += 1;
                    out.char('\'');
                    literal_quote_open = !literal_quote_open;
                }
                Some(b'}') if literal_quote_open => {
                    self.pos += 1;
                    out.char('}');
                }
                Some(b'}') => break,
                // The offset of `${s:a ? b : c:len}` ends at the `:` no `?` claims.
                Some(b'?') if stop == Stop::Colon => {
                    conditionals += 1;
                    self.pos += 1;
                    out.char('?');
                }
                Some(b':') if stop == Stop::Colon && conditionals > 0 => {
                    conditionals -= 1;
                    self.pos += 1;
                    out.char(':');
                }
                Some(b':') if stop == Stop::Colon => break,
                // In an assignment's value a tilde after `:` expands too.
                Some(b':') if self.in_assignment_value && !in_dquote => {
                    self.pos += 1;
                    out.char(':');
                    if let Some(part) = self.brace_tilde() {
                        out.part(part);
                    }
                }
                Some(b'/') if stop == Stop::Slash => break,
                Some(_) => self.brace_word_piece(&mut out, in_dquote, stop, in_dquote && quotes_literal)?,
            }
        }
        Ok(Word { parts: out.finish(), span: self.span(word_start, self.pos) })
    }

    /// Reads a tilde prefix opening an unquoted word inside `${ }`
    /// (`${x:-~/dir}`, `${x//~/~root}`).
    fn brace_tilde(&mut self) -> Option<WordPart> {
        let rest = self.rest();
        if rest.first() != Some(&b'~') {
            return None;
        }
        let length = 1 + rest[1..].iter().take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-' | b'+')).count();
        if !matches!(rest.get(length), None | Some(b'/' | b'}' | b':')) {
            return None;
        }
        let user = self.slice(self.pos + 1, self.pos + length).to_string();
        self.pos += length;
        Some(WordPart::Tilde(user))
    }

    /// Reads one piece of a word inside `${ }` or a subscript.
    fn brace_word_piece(&mut self, out: &mut PartsBuilder, in_dquote: bool, stop: Stop, single_literal: bool) -> PResult<()> {
        self.step()?;
        let Some(byte) = self.cur() else {
            return Ok(());
        };
        match byte {
            b'\\' => match self.peek_at(1) {
                Some(b'\n') => self.pos += 2,
                None => {
                    self.pos += 1;
                    out.part(WordPart::Escaped('\\'));
                }
                // `"${x%d\'}"`: an escaped single quote in a pattern is a literal quote.
                Some(b'\'') if in_dquote && !single_literal => {
                    self.pos += 2;
                    out.part(WordPart::Escaped('\''));
                }
                Some(c) if in_dquote && !matches!(c, b'$' | b'`' | b'"' | b'\\' | b'}') => {
                    self.pos += 1;
                    out.char('\\');
                }
                Some(_) => {
                    self.pos += 1;
                    let c = self.cur_char().unwrap_or('\\');
                    self.pos += c.len_utf8();
                    out.part(WordPart::Escaped(c));
                }
            },
            b'\'' if !single_literal => {
                let text = self.single_quoted()?;
                out.part(WordPart::SingleQuoted(text));
            }
            // `$'...'` keeps its meaning in a pattern even inside double quotes.
            b'$' if in_dquote && !single_literal && self.peek_at(1) == Some(b'\'') => match self.dollar(false)? {
                Some(part) => out.part(part),
                None => {
                    self.pos += 1;
                    out.char('$');
                }
            },
            b'"' => {
                let parts = self.double_quoted()?;
                out.part(WordPart::DoubleQuoted(parts));
            }
            b'$' => match self.dollar(in_dquote)? {
                Some(part) => out.part(part),
                None => {
                    self.pos += 1;
                    out.char('$');
                }
            },
            b'`' => {
                let part = self.backquote(in_dquote)?;
                out.part(part);
            }
            _ => {
                let rest = self.rest();
                let length = rest
                    .iter()
                    .position(|b| {
                        matches!(b, b'\\' | b'\'' | b'"' | b'$' | b'`' | b'}')
                            || (stop == Stop::Colon && matches!(b, b':' | b'?'))
                            || (stop == Stop::Slash && *b == b'/')
                    })
                    .unwrap_or(rest.len())
                    .max(1);
                let mut end = self.pos + length;
                while end < self.end && !self.text.is_char_boundary(end) {
                    end += 1;
                }
                out.text(self.slice(self.pos, end));
                self.pos = end;
            }
        }
        Ok(())
    }

    /// Skips to just past the `}` closing the `${` at `start` (for a bad substitution).
    fn skip_to_brace(&mut self, start: usize) -> PResult<()> {
        let mut depth = 1usize;
        // Bash reads the `${` to its first `}` (inner braces do not nest,
        // inner `${` do); its message shows the balanced text when there is one.
        let mut first_close = None;
        let mut open_dollar_braces = Vec::new();
        loop {
            self.step()?;
            match self.cur() {
                None => match first_close {
                    Some(end) => {
                        self.pos = end;
                        return Ok(());
                    }
                    None => return self.unclosed_brace(start),
                },
                Some(b'{') => {
                    depth += 1;
                    if self.text.as_bytes().get(self.pos.wrapping_sub(1)) == Some(&b'$') {
                        open_dollar_braces.push(depth);
                    }
                    self.pos += 1;
                }
                Some(b'}') => {
                    self.pos += 1;
                    if open_dollar_braces.last() == Some(&depth) {
                        open_dollar_braces.pop();
                    } else if open_dollar_braces.is_empty() {
                        first_close.get_or_insert(self.pos);
                    }
                    depth -= 1;
                    if depth == 0 {
                        return Ok(());
                    }
                }
                Some(b'\\') => self.pos = (self.pos + 2).min(self.end),
                Some(b'\'') => {
                    self.single_quoted()?;
                }
                Some(b'"') => {
                    self.double_quoted()?;
                }
                Some(_) => {
                    self.pos += 1;
                    while self.pos < self.end && !self.text.is_char_boundary(self.pos) {
                        self.pos += 1;
                    }
                }
            }
        }
    }
}

/// An unbraced `$name`, `$1` or `$?`.
fn simple_param(param: Parameter) -> WordPart {
    WordPart::Param(Box::new(ParamExpansion { param, index: None, indirect: false, length: false, op: None, braced: false }))
}
