//! Words: unquoted text, quotes, backslashes, `$`-expansions, backquotes,
//! process substitutions, extglob groups and tildes, read into
//! [`WordPart`]s. Brace expansion is found afterwards by `brace`.

use super::ast::{Seq, Span, Text, Word, WordPart};
use super::error::ParseErrorKind;
use super::lexer::{is_meta, is_name};
use super::parser::{Fail, PResult, Parser};

/// Bytes that never end a word nor start anything special, in any context
/// (the tail of a [`Parser::literal_run`]); non-ASCII bytes included. `{`
/// is not one, so that [`Parser::read_parts`] notes where brace expansion may
/// be without a second pass over the word.
const ORDINARY: [bool; 256] = ordinary_table(true);

/// [`ORDINARY`] without `:`, after which a tilde may start in an assignment value.
const ORDINARY_IN_VALUE: [bool; 256] = ordinary_table(false);

/// Builds [`ORDINARY`] (with `colon`) or [`ORDINARY_IN_VALUE`].
const fn ordinary_table(colon: bool) -> [bool; 256] {
    let mut table = [false; 256];
    let mut byte = 0;
    while byte < 256 {
        let b = byte as u8;
        table[byte] = b.is_ascii_alphanumeric()
            || matches!(b, b'-' | b'.' | b'/' | b',' | b'_' | b'%' | b'^' | b'[' | b']' | b'}')
            || (colon && b == b':')
            || b >= 0x80;
        byte += 1;
    }
    table
}

/// Where a word is being read: it decides what ends the word and which
/// characters are special.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum WordContext {
    /// A command word, redirection target or `for` word: ends at a metacharacter.
    Normal,
    /// The value of an assignment: tildes after `=` and `:` expand.
    AssignValue,
    /// A `case` pattern or `[[ == ]]` pattern: like `Normal`.
    Pattern,
    /// The right side of `=~`: parentheses and `|` are part of the word.
    Regex,
    /// One alternative of an extglob group: ends at `|` or `)`.
    ExtGlob,
}

/// Collects parts, merging adjacent literal text.
#[derive(Default)]
pub(super) struct PartsBuilder {
    parts: Seq<WordPart>,
    literal: Text,
    /// An unquoted `{` was read: the word may hold a brace expansion.
    brace: bool,
}

impl PartsBuilder {
    /// Appends unquoted (or, inside double quotes, quoted) literal text.
    #[inline]
    pub fn text(&mut self, text: &str) {
        self.literal.push_str(text);
    }

    /// Appends one literal character.
    #[inline]
    pub fn char(&mut self, c: char) {
        self.literal.push(c);
    }

    /// Appends parts read elsewhere, merging literal text.
    pub fn extend(&mut self, parts: Seq<WordPart>) {
        for part in parts {
            match part {
                WordPart::Literal(text) => self.text(&text),
                other => self.part(other),
            }
        }
    }

    /// Appends a part other than literal text.
    #[inline]
    pub fn part(&mut self, part: WordPart) {
        self.flush();
        self.parts.push(part);
    }

    #[inline]
    fn flush(&mut self) {
        if !self.literal.is_empty() {
            self.parts.push(WordPart::Literal(std::mem::take(&mut self.literal)));
        }
    }

    /// True when everything so far is literal text (returns it).
    pub fn all_literal(&self) -> Option<&str> {
        if self.parts.is_empty() {
            Some(&self.literal)
        } else {
            None
        }
    }

    /// The parts.
    pub fn finish(mut self) -> Seq<WordPart> {
        self.flush();
        self.parts
    }
}

impl Parser<'_> {
    /// Reads a word in `context`; `None` when no word starts here.
    pub(super) fn read_word(&mut self, context: WordContext) -> PResult<Option<Word>> {
        let start = self.pos;
        if let Some(text) = self.plain_literal_word(context) {
            return self.plain_word_read(start, text).map(Some);
        }
        self.read_word_part_by_part(start, context)
    }

    /// The word from `start` whose text [`Parser::plain_literal_word`] read.
    #[inline]
    pub(super) fn plain_word_read(&mut self, start: usize, text: Text) -> PResult<Word> {
        self.step()?;
        self.token()?;
        Ok(Word { parts: Seq::One(WordPart::Literal(text)), span: self.span(start, self.pos) })
    }

    /// [`Parser::read_word`] from `start` once its plain-word shortcut failed.
    pub(super) fn read_word_part_by_part(&mut self, start: usize, context: WordContext) -> PResult<Option<Word>> {
        let (parts, brace) = self.read_parts_part_by_part(context)?;
        if self.pos == start {
            return Ok(None);
        }
        self.token()?;
        let parts = if brace && context == WordContext::Normal { self.brace_expand(parts)? } else { parts };
        Ok(Some(Word { parts, span: self.span(start, self.pos) }))
    }

    /// A span in the original source.
    #[inline]
    pub(super) fn span(&self, start: usize, end: usize) -> Span {
        Span::new(start + self.base, end + self.base)
    }

    /// Reads the parts of one word up to the first byte that ends it.
    pub(super) fn read_parts(&mut self, context: WordContext) -> PResult<Seq<WordPart>> {
        Ok(self.read_parts_noting_braces(context)?.0)
    }

    /// [`Parser::read_parts`], also telling whether an unquoted `{` was read.
    fn read_parts_noting_braces(&mut self, context: WordContext) -> PResult<(Seq<WordPart>, bool)> {
        if let Some(text) = self.plain_literal_word(context) {
            self.step()?;
            return Ok((Seq::One(WordPart::Literal(text)), false));
        }
        self.read_parts_part_by_part(context)
    }

    /// [`Parser::read_parts_noting_braces`] without its plain-word shortcut.
    fn read_parts_part_by_part(&mut self, context: WordContext) -> PResult<(Seq<WordPart>, bool)> {
        let mut out = PartsBuilder::default();
        let word_start = self.pos;
        let mut paren_depth = 0usize;
        let mut assign_like = context == WordContext::AssignValue;
        loop {
            self.step()?;
            let Some(byte) = self.cur() else { break };
            match byte {
                b'\\' => match self.peek_at(1) {
                    Some(b'\n') => self.pos += 2,
                    None => {
                        self.pos += 1;
                        out.part(WordPart::Escaped('\\'));
                    }
                    Some(_) => {
                        self.pos += 1;
                        let c = self.cur_char().unwrap_or('\\');
                        self.pos += c.len_utf8();
                        out.part(WordPart::Escaped(c));
                    }
                },
                b'\'' => {
                    let text = self.single_quoted()?;
                    out.part(WordPart::SingleQuoted(text));
                }
                b'"' => {
                    let parts = self.double_quoted()?;
                    out.part(WordPart::DoubleQuoted(parts));
                }
                b'$' => match self.dollar(false)? {
                    Some(part) => out.part(part),
                    None => {
                        self.pos += 1;
                        out.char('$');
                    }
                },
                b'`' => {
                    let part = self.backquote(false)?;
                    out.part(part);
                }
                b'~' if self.tilde_allowed(&out, word_start, context, assign_like) => {
                    if let Some(part) = self.tilde(context, assign_like) {
                        out.part(part);
                    } else {
                        self.pos += 1;
                        out.char('~');
                    }
                }
                b'<' | b'>' if self.pos == word_start && self.peek_at(1) == Some(b'(') && context != WordContext::Regex => {
                    let part = self.process_substitution()?;
                    out.part(part);
                }
                b'@' | b'*' | b'+' | b'?' | b'!' if self.peek_at(1) == Some(b'(') && self.extglob_on(context) => {
                    let part = self.extglob_group()?;
                    out.part(part);
                }
                _ => {
                    if self.ends_word(byte, context, &mut paren_depth) {
                        break;
                    }
                    if byte == b'{' {
                        out.brace = true;
                    }
                    if byte == b'=' && !assign_like && context == WordContext::Normal {
                        assign_like = out.all_literal().is_some_and(|text| is_name(text) || text.strip_suffix('+').is_some_and(is_name));
                    }
                    self.literal_run(&mut out, context);
                }
            }
        }
        if paren_depth > 0 {
            // A group in a regular expression reads on to its `)`, across lines.
            return Err(Fail { kind: ParseErrorKind::UnterminatedQuote(')'), pos: word_start });
        }
        let brace = out.brace;
        Ok((out.finish(), brace))
    }

    /// The most common word, `ls` or `-la` or `src/`: ordinary bytes up to a
    /// metacharacter or the end, read as one literal in a single scan (what
    /// the general loop would read, without its per-part bookkeeping).
    #[inline]
    pub(super) fn plain_literal_word(&mut self, context: WordContext) -> Option<Text> {
        if !matches!(context, WordContext::Normal | WordContext::Pattern) {
            return None;
        }
        let rest = self.rest();
        let length = rest.iter().position(|b| !ORDINARY[usize::from(*b)]).unwrap_or(rest.len());
        if length == 0 || !rest.get(length).is_none_or(|b| is_meta(*b)) {
            return None;
        }
        // The scan stopped at an ASCII byte or the end: a character boundary.
        let text = Text::from_source(&self.text, self.pos, length);
        self.pos += length;
        Some(text)
    }

    /// Whether extglob groups are recognized in `context`.
    fn extglob_on(&self, context: WordContext) -> bool {
        match context {
            WordContext::Regex => false,
            WordContext::ExtGlob => true,
            _ => self.extglob,
        }
    }

    /// True when `byte` ends the word being read in `context`.
    fn ends_word(&self, byte: u8, context: WordContext, paren_depth: &mut usize) -> bool {
        match context {
            WordContext::Regex => match byte {
                b'(' => {
                    *paren_depth += 1;
                    false
                }
                b')' if *paren_depth > 0 => {
                    *paren_depth -= 1;
                    false
                }
                b'|' | b'<' | b'>' | b'&' | b';' if *paren_depth > 0 => false,
                b'|' => self.peek_at(1) == Some(b'|'),
                b' ' | b'\t' | b'\n' if *paren_depth > 0 => false,
                _ => is_meta(byte),
            },
            WordContext::ExtGlob => matches!(byte, b'|' | b')'),
            _ => is_meta(byte),
        }
    }

    /// Copies a run of ordinary bytes as literal text.
    fn literal_run(&mut self, out: &mut PartsBuilder, context: WordContext) {
        let rest = self.rest();
        let table = if context == WordContext::AssignValue { &ORDINARY_IN_VALUE } else { &ORDINARY };
        let length = 1 + rest.get(1..).unwrap_or(&[]).iter().position(|b| !table[usize::from(*b)]).unwrap_or(rest.len().saturating_sub(1));
        let end = self.pos + length;
        let end = (end..=self.end).find(|&e| self.text.is_char_boundary(e)).unwrap_or(self.end);
        out.text(self.slice(self.pos, end));
        self.pos = end;
    }

    /// True when a `~` here starts a tilde prefix.
    fn tilde_allowed(&self, out: &PartsBuilder, word_start: usize, context: WordContext, assign_like: bool) -> bool {
        if self.pos == word_start {
            return matches!(context, WordContext::Normal | WordContext::AssignValue | WordContext::Pattern | WordContext::Regex);
        }
        if !assign_like {
            return false;
        }
        let before = self.text.as_bytes().get(self.pos.wrapping_sub(1)).copied();
        matches!(before, Some(b'=' | b':')) && out.all_literal().is_some() || matches!(before, Some(b':'))
    }

    /// Reads `~`, `~user`, `~+`, `~-` when what follows ends the prefix.
    fn tilde(&mut self, context: WordContext, assign_like: bool) -> Option<WordPart> {
        let rest = self.rest();
        let mut length = 1;
        while let Some(&b) = rest.get(length) {
            if b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-' | b'+') {
                length += 1;
            } else {
                break;
            }
        }
        let ends = match rest.get(length) {
            None => true,
            Some(b'/') => true,
            Some(b':') => assign_like || context == WordContext::AssignValue,
            // In a regular expression `(` and `|` belong to the word.
            Some(b'(' | b'|') if context == WordContext::Regex => false,
            Some(&b) => is_meta(b),
        };
        if !ends {
            return None;
        }
        let user = self.slice(self.pos + 1, self.pos + length).to_string();
        self.pos += length;
        Some(WordPart::Tilde(user))
    }

    /// Reads `'text'`.
    pub(super) fn single_quoted(&mut self) -> PResult<Text> {
        let start = self.pos;
        self.pos += 1;
        let rest = self.rest();
        match rest.iter().position(|b| *b == b'\'') {
            Some(length) => {
                let text = Text::from(self.slice(self.pos, self.pos + length));
                self.pos += length + 1;
                Ok(text)
            }
            None => {
                self.pos = self.end;
                Err(super::parser::Fail { kind: ParseErrorKind::UnterminatedQuote('\''), pos: start })
            }
        }
    }

    /// Reads `"..."` into the parts inside the quotes.
    pub(super) fn double_quoted(&mut self) -> PResult<Vec<WordPart>> {
        let start = self.pos;
        self.pos += 1;
        let mut out = PartsBuilder::default();
        loop {
            self.step()?;
            let Some(byte) = self.cur() else {
                return Err(super::parser::Fail { kind: ParseErrorKind::UnterminatedQuote('"'), pos: start });
            };
            match byte {
                b'"' => {
                    self.pos += 1;
                    break;
                }
                b'\\' => match self.peek_at(1) {
                    Some(b'\n') => self.pos += 2,
                    Some(c @ (b'$' | b'`' | b'"' | b'\\')) => {
                        self.pos += 2;
                        out.part(WordPart::Escaped(c as char));
                    }
                    _ => {
                        self.pos += 1;
                        out.char('\\');
                    }
                },
                b'$' => match self.dollar(true)? {
                    Some(part) => out.part(part),
                    None => {
                        self.pos += 1;
                        out.char('$');
                    }
                },
                b'`' => {
                    let part = self.backquote(true)?;
                    out.part(part);
                }
                _ => {
                    let rest = self.rest();
                    let length = rest.iter().position(|b| matches!(b, b'"' | b'\\' | b'$' | b'`')).unwrap_or(rest.len());
                    out.text(self.slice(self.pos, self.pos + length));
                    self.pos += length;
                }
            }
        }
        Ok(out.finish().into_vec())
    }

    /// Reads `<(list)` or `>(list)`.
    fn process_substitution(&mut self) -> PResult<WordPart> {
        let start = self.pos;
        let input = self.cur() == Some(b'<');
        self.pos += 2;
        self.enter()?;
        // `<((` is first tried as arithmetic, as `$((` is: an end of input
        // inside it is blamed on its first line.
        let double = self.cur() == Some(b'(');
        let body = self.nested_list_until_paren().map_err(|fail| match fail.kind {
            ParseErrorKind::UnterminatedQuote(')') if double && fail.pos == usize::MAX => Fail { pos: start, ..fail },
            _ => fail,
        })?;
        self.leave();
        Ok(WordPart::ProcessSub { input, body: Box::new(body) })
    }

    /// Reads `@(a|b)` and the other extglob groups.
    fn extglob_group(&mut self) -> PResult<WordPart> {
        let start = self.pos;
        let op = self.cur().map_or('@', char::from);
        self.pos += 2;
        self.enter()?;
        let mut patterns = Vec::new();
        loop {
            let pattern_start = self.pos;
            let parts = self.read_parts(WordContext::ExtGlob)?;
            patterns.push(Word { parts, span: self.span(pattern_start, self.pos) });
            match self.cur() {
                Some(b'|') => self.pos += 1,
                Some(b')') => {
                    self.pos += 1;
                    break;
                }
                _ => return Err(super::parser::Fail { kind: ParseErrorKind::UnterminatedQuote(')'), pos: start }),
            }
        }
        self.leave();
        Ok(WordPart::ExtGlob { op, patterns })
    }
}
