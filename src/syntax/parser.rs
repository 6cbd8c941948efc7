//! The parser entry points. (A placeholder that the full recursive-descent
//! parser replaces; it exists so the layers above compile.)

use super::ast::List;
use super::error::{ParseError, ParseErrorKind};
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
}

impl Default for ParseLimits {
    fn default() -> Self {
        ParseLimits { max_input_bytes: 10_000_000, max_tokens: 100_000, max_depth: 100, max_iterations: 1_000_000 }
    }
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

/// Reads a script one top-level line at a time.
pub struct Parser<'s> {
    source: &'s str,
    done: bool,
}

impl<'s> Parser<'s> {
    /// A parser over `source`.
    pub fn new(source: &'s str) -> Self {
        Parser { source, done: false }
    }

    /// Parses the next top-level line (with every compound command and
    /// here-document it opens); `None` at end of input.
    pub fn next_line(&mut self, _options: &ParseOptions) -> Result<Option<List>, ParseError> {
        if self.done || self.source.trim().is_empty() {
            return Ok(None);
        }
        self.done = true;
        Err(ParseError { kind: ParseErrorKind::Other("parser not implemented".into()), line: 1, source_line: None })
    }
}

/// Parses a whole script.
pub fn parse(source: &str, options: &ParseOptions) -> Result<List, ParseError> {
    let mut parser = Parser::new(source);
    let mut list = List::default();
    while let Some(line) = parser.next_line(options)? {
        list.items.extend(line.items);
    }
    Ok(list)
}

/// Tells complete from incomplete input (the CLI's continuation prompt).
pub fn completeness(source: &str) -> Completeness {
    match parse(source, &ParseOptions::default()) {
        Err(ParseError { kind: ParseErrorKind::UnexpectedEof | ParseErrorKind::UnterminatedQuote(_), .. }) => {
            Completeness::Incomplete
        }
        _ => Completeness::Complete,
    }
}
