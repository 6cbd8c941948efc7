//! The parser's state and public entry points: [`Parser`], [`parse`],
//! [`completeness`], and the options and limits that steer a parse.
//!
//! The grammar itself lives in sibling modules, each an `impl Parser` block:
//! `lexer` (characters, blanks, operators), `command` (lists, pipelines,
//! simple commands), `compound`, `redirect`, `heredoc`, `word`, `param`,
//! `arith` and `cond`.

use super::ast::{Argument, List, ListItem, Word};
use super::error::{ParseError, ParseErrorKind};
use super::lines::LineIndex;
use std::borrow::Cow;
use std::collections::HashMap;

/// Parse limits, each reported by name when exceeded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseLimits {
    /// Largest accepted source, in bytes (default 10 MB).
    pub max_input_bytes: usize,
    /// Most tokens in one parse (default 100,000).
    pub max_tokens: usize,
    /// Deepest nesting of compound commands, substitutions and expressions (default 100).
    pub max_depth: usize,
    /// Most parser steps in one parse (default 1,000,000).
    pub max_iterations: usize,
    /// Most stack the parser may use below where a parse started, in bytes
    /// (default 160 KiB). Nesting is refused past this even under
    /// `max_depth`, so a parse never overflows a small stack (wasm's, or a
    /// thread's; unoptimized builds use far bigger frames than release ones).
    pub max_stack_bytes: usize,
}

impl Default for ParseLimits {
    fn default() -> Self {
        ParseLimits {
            max_input_bytes: 10_000_000,
            max_tokens: 100_000,
            max_depth: 100,
            max_iterations: 1_000_000,
            max_stack_bytes: 160 * 1024,
        }
    }
}

/// An address in the current stack frame (the stack grows down on every
/// target this runs on, wasm included). Only compared, never dereferenced.
fn stack_position() -> usize {
    let marker = 0u8;
    std::hint::black_box(std::ptr::addr_of!(marker)) as usize
}

/// Settings that change how text parses.
#[derive(Debug, Clone, Default)]
pub struct ParseOptions {
    /// `shopt -s extglob`: `@( )` and friends are patterns.
    pub extglob: bool,
    /// Aliases to expand in command position (empty unless `expand_aliases`).
    pub aliases: HashMap<String, String>,
    /// The limits.
    pub limits: ParseLimits,
}

/// Whether input is a complete script or needs more lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Completeness {
    /// Parses (or fails with an error more input cannot fix).
    Complete,
    /// An open quote, compound command, here-document or trailing operator.
    Incomplete,
}

/// An error found while parsing, at a byte offset; turned into a
/// [`ParseError`] with a line number once parsing stops.
#[derive(Debug, Clone)]
pub(super) struct Fail {
    pub kind: ParseErrorKind,
    pub pos: usize,
}

impl Fail {
    /// A failure blamed on the line after the last, as bash does for an
    /// unclosed `$(` (it has read its final newline by then).
    pub fn at_end(kind: ParseErrorKind) -> Self {
        Fail { kind, pos: usize::MAX }
    }
}

/// The result of a grammar rule.
pub(super) type PResult<T> = Result<T, Fail>;

/// A here-document whose body has not been read yet.
#[derive(Debug, Clone)]
pub(super) struct PendingHereDoc {
    /// Index into `Parser::heredoc_bodies`.
    pub id: usize,
    /// The delimiter after quote removal.
    pub delimiter: String,
    /// `<<-`: strip leading tabs.
    pub strip_tabs: bool,
    /// Part of the delimiter was quoted: the body is literal.
    pub quoted: bool,
}

/// Reads a script one top-level line at a time.
pub struct Parser<'s> {
    /// The source (owned once an alias was spliced in).
    pub(super) text: Cow<'s, str>,
    /// The read position, a byte offset into `text`.
    pub(super) pos: usize,
    /// Reading stops here (the end of a sub-range being parsed).
    pub(super) end: usize,
    /// Added to every span (sub-parsers over extracted text).
    pub(super) base: usize,
    /// `shopt -s extglob` for the line being parsed.
    pub(super) extglob: bool,
    /// Aliases for the line being parsed.
    pub(super) aliases: HashMap<String, String>,
    /// Aliases being expanded, with the offset where their text ends.
    pub(super) alias_guard: Vec<(String, usize)>,
    /// The limits.
    pub(super) limits: ParseLimits,
    /// Current nesting depth.
    pub(super) depth: usize,
    /// The nesting depth where the last [`Parser::fail`] happened (the
    /// rules leave their depth on the way out).
    pub(super) depth_at_failure: std::cell::Cell<usize>,
    /// Tokens read so far.
    pub(super) tokens: usize,
    /// Steps taken so far.
    pub(super) iterations: usize,
    /// Here-documents waiting for the next newline.
    pub(super) pending: Vec<PendingHereDoc>,
    /// Bodies read, by here-document id.
    pub(super) heredoc_bodies: Vec<Option<Word>>,
    /// Warnings bash prints but parses on (here-document ended by end of file).
    pub(super) warnings: Vec<String>,
    /// The stack position where the parse started.
    pub(super) stack_base: usize,
    /// Reading the value of an assignment (outside any command
    /// substitution): tildes after `:` in `${x-~:~}` expand there.
    pub(super) in_assignment_value: bool,
    /// Inside `[[ ]]`: the extglob setting outside it (`!(x)` is then a
    /// pattern word, not `!` and a group).
    pub(super) cond_extglob: bool,
    /// Inside `[[ ]]`: the newline bash reads after a last line that has
    /// none was already handed out as a token.
    pub(super) cond_final_newline_read: bool,
    /// Inside `[[ ]]`: where the expression began (bash names its line).
    pub(super) cond_start: usize,
    /// The failure being returned came from inside a command or process
    /// substitution's commands.
    pub(super) failed_in_substitution: bool,
    /// The failure being returned came from inside an array assignment.
    pub(super) failed_in_array: bool,
    /// ... and it was an array element left open at the end of the input.
    pub(super) array_element_unclosed: bool,
    /// Where reading may go on after the last error, when bash goes on.
    resume_at: Option<usize>,
    /// The words of the simple commands being read (nested ones above
    /// outer ones), so each command's words end in a `Vec` of their exact
    /// number.
    pub(super) word_stack: Vec<Argument>,
    /// Set once an error or the end was reached.
    done: bool,
}

impl<'s> Parser<'s> {
    /// A parser over `source`.
    pub fn new(source: &'s str) -> Self {
        Parser {
            text: Cow::Borrowed(source),
            pos: 0,
            end: source.len(),
            base: 0,
            extglob: false,
            aliases: HashMap::new(),
            alias_guard: Vec::new(),
            limits: ParseLimits::default(),
            depth: 0,
            depth_at_failure: std::cell::Cell::new(0),
            tokens: 0,
            iterations: 0,
            pending: Vec::new(),
            heredoc_bodies: Vec::new(),
            warnings: Vec::new(),
            stack_base: 0,
            in_assignment_value: false,
            cond_extglob: false,
            cond_final_newline_read: false,
            cond_start: 0,
            failed_in_substitution: false,
            failed_in_array: false,
            array_element_unclosed: false,
            resume_at: None,
            word_stack: Vec::new(),
            done: false,
        }
    }

    /// Parses the next top-level line (with every compound command and
    /// here-document it opens); `None` at end of input.
    pub fn next_line(&mut self, options: &ParseOptions) -> Result<Option<List>, ParseError> {
        let mut list = List::default();
        Ok(self.next_line_into(options, &mut list.items)?.then_some(list))
    }

    /// [`Parser::next_line`], its and-or lists pushed onto `items`; false
    /// at end of input.
    fn next_line_into(&mut self, options: &ParseOptions, items: &mut Vec<ListItem>) -> Result<bool, ParseError> {
        if self.done {
            return Ok(false);
        }
        self.extglob = options.extglob;
        self.limits = options.limits.clone();
        self.stack_base = stack_position();
        if self.aliases != options.aliases {
            self.aliases = options.aliases.clone();
        }
        if self.text.len() > self.limits.max_input_bytes {
            self.done = true;
            return Err(self.to_error(Fail {
                kind: ParseErrorKind::LimitExceeded(format!(
                    "input too large: {} bytes exceeds the limit max_input_bytes of {}",
                    self.text.len(),
                    self.limits.max_input_bytes
                )),
                pos: 0,
            }));
        }
        let heredocs_before = self.heredoc_bodies.len();
        let items_before = items.len();
        match self.top_line_into(items) {
            Ok(true) => {
                if self.heredoc_bodies.len() > heredocs_before {
                    self.fill_heredocs(items.get_mut(items_before..).unwrap_or_default());
                }
                Ok(true)
            }
            Ok(false) => {
                self.done = true;
                Ok(false)
            }
            Err(fail) => {
                self.done = true;
                // Bash discards the rest of the line after a wrong token in an
                // array assignment and reads on from the next one.
                if self.failed_in_array && matches!(fail.kind, ParseErrorKind::UnexpectedToken(_)) && !self.failed_in_substitution {
                    let from = fail.pos.min(self.text.len());
                    let rest = self.text.as_bytes().get(from..).unwrap_or_default();
                    self.resume_at = rest.iter().position(|b| *b == b'\n').map(|at| from + at + 1);
                }
                let read_to_line = self.bodies_before_error(&fail);
                let mut error = self.to_error(fail);
                if let Some(line) = read_to_line {
                    error.line = line;
                }
                Err(error)
            }
        }
    }

    /// After an error bash recovers from (a wrong token inside an array
    /// assignment: it discards that line and reads on), moves to the next
    /// line and returns true; false when parsing cannot go on.
    pub fn resume_after_error(&mut self) -> bool {
        let Some(at) = self.resume_at.take() else { return false };
        self.pos = at;
        self.done = false;
        self.pending.clear();
        self.failed_in_array = false;
        self.array_element_unclosed = false;
        self.failed_in_substitution = false;
        true
    }

    /// Warnings bash would print while parsing so far, such as
    /// `here-document at line 1 delimited by end-of-file (wanted `EOF')`.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// The byte offset where the next line starts.
    pub fn offset(&self) -> usize {
        self.pos
    }

    /// A parser for extracted text (backquote bodies, here-document bodies)
    /// that inherits this one's settings and budget.
    pub(super) fn sub_parser<'t>(&self, text: &'t str, base: usize) -> Parser<'t> {
        let mut sub = Parser::new(text);
        sub.base = base;
        sub.extglob = self.extglob;
        sub.limits = self.limits.clone();
        sub.depth = self.depth;
        sub.tokens = self.tokens;
        sub.iterations = self.iterations;
        sub.stack_base = self.stack_base;
        sub
    }

    /// Takes back the budget a sub-parser used.
    pub(super) fn absorb(&mut self, sub: &Parser<'_>) {
        self.tokens = sub.tokens;
        self.iterations = sub.iterations;
        self.warnings.extend(sub.warnings.iter().cloned());
    }

    /// Turns an internal failure into the error bash prints.
    pub(super) fn to_error(&self, fail: Fail) -> ParseError {
        let index = LineIndex::new(&self.text);
        let pos = fail.pos.min(self.text.len());
        if fail.pos == usize::MAX {
            return ParseError {
                line: self.eof_line(&index),
                kind: fail.kind,
                source_line: None,
                in_substitution: self.failed_in_substitution,
                in_array_literal: self.failed_in_array,
                also: self.trailing_messages(&index),
            };
        }
        let (line, source_line) = match &fail.kind {
            ParseErrorKind::UnexpectedToken(token) => {
                // Bash has read the whole token: one across lines names its last line.
                let line = index.line_of(pos + token.rfind('\n').map_or(0, |at| at + 1));
                (line, Some(index.line_text(&self.text, line).to_string()))
            }
            ParseErrorKind::UnexpectedEof => (self.eof_line(&index), None),
            ParseErrorKind::Conditional(error) => (error.messages.first().map_or_else(|| index.line_of(pos), |(line, _)| *line), None),
            _ => (index.line_of(pos), None),
        };
        ParseError {
            kind: fail.kind,
            line,
            source_line,
            in_substitution: self.failed_in_substitution,
            in_array_literal: self.failed_in_array,
            also: self.trailing_messages(&index),
        }
    }

    /// What bash prints after the error's own lines.
    fn trailing_messages(&self, index: &LineIndex) -> Vec<(usize, String)> {
        if self.array_element_unclosed {
            vec![(self.eof_line(index), "syntax error: unexpected end of file".to_string())]
        } else {
            Vec::new()
        }
    }

    /// The line bash blames for `unexpected end of file`: one past the
    /// last line, as bash has read the final newline it adds.
    pub(super) fn eof_line(&self, index: &LineIndex) -> usize {
        let lines = index.line_count();
        if self.text.ends_with('\n') {
            lines
        } else if self.text.bytes().rev().take_while(|b| *b == b'\\').count() % 2 == 1 {
            // A backslash joins the newline bash adds to a line it then reads too.
            lines + 2
        } else {
            lines + 1
        }
    }

    /// A failure at the current position.
    pub(super) fn fail<T>(&self, kind: ParseErrorKind) -> PResult<T> {
        self.depth_at_failure.set(self.depth);
        Err(Fail { kind, pos: self.pos })
    }

    /// Counts one step against `max_iterations`.
    #[inline]
    pub(super) fn step(&mut self) -> PResult<()> {
        self.iterations += 1;
        if self.iterations > self.limits.max_iterations {
            return self.iteration_limit_reached();
        }
        Ok(())
    }

    /// The failure for `max_iterations` (kept out of the hot [`Parser::step`]).
    #[cold]
    fn iteration_limit_reached(&self) -> PResult<()> {
        self.fail(ParseErrorKind::LimitExceeded(format!(
            "parser iteration limit exceeded (max_iterations: {})",
            self.limits.max_iterations
        )))
    }

    /// Counts one token against `max_tokens`.
    #[inline]
    pub(super) fn token(&mut self) -> PResult<()> {
        self.tokens += 1;
        if self.tokens > self.limits.max_tokens {
            return self.token_limit_reached();
        }
        Ok(())
    }

    /// The failure for `max_tokens` (kept out of the hot [`Parser::token`]).
    #[cold]
    fn token_limit_reached(&self) -> PResult<()> {
        self.fail(ParseErrorKind::LimitExceeded(format!("too many tokens (max_tokens: {})", self.limits.max_tokens)))
    }

    /// Enters one level of nesting, checked against `max_depth`.
    pub(super) fn enter(&mut self) -> PResult<()> {
        let used = self.stack_base.saturating_sub(stack_position());
        if self.stack_base != 0 && used > self.limits.max_stack_bytes {
            return self.fail(ParseErrorKind::LimitExceeded(format!(
                "nesting too deep for the parser's stack (max_stack_bytes: {})",
                self.limits.max_stack_bytes
            )));
        }
        self.depth += 1;
        if self.depth > self.limits.max_depth {
            return self.fail(ParseErrorKind::LimitExceeded(format!("nesting too deep (max_depth: {})", self.limits.max_depth)));
        }
        Ok(())
    }

    /// Leaves one level of nesting.
    #[inline]
    pub(super) fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }
}

/// Parses a whole script.
pub fn parse(source: &str, options: &ParseOptions) -> Result<List, ParseError> {
    let mut parser = Parser::new(source);
    let mut list = List::default();
    while parser.next_line_into(options, &mut list.items)? {}
    Ok(list)
}

/// Tells complete from incomplete input (the CLI's continuation prompt).
pub fn completeness(source: &str) -> Completeness {
    let trailing_backslashes = source.bytes().rev().take_while(|b| *b == b'\\').count();
    if trailing_backslashes % 2 == 1 {
        return Completeness::Incomplete;
    }
    let options = ParseOptions::default();
    let mut parser = Parser::new(source);
    loop {
        match parser.next_line(&options) {
            Ok(Some(_)) => {}
            Ok(None) => break,
            Err(ParseError { kind: ParseErrorKind::UnexpectedEof | ParseErrorKind::UnterminatedQuote(_), .. }) => {
                return Completeness::Incomplete;
            }
            Err(ParseError { kind: ParseErrorKind::Conditional(error), .. }) if error.needs_more_input => return Completeness::Incomplete,
            Err(_) => return Completeness::Complete,
        }
    }
    if parser.warnings.iter().any(|w| w.contains("delimited by end-of-file")) {
        Completeness::Incomplete
    } else {
        Completeness::Complete
    }
}
