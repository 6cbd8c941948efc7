//! The awk grammar: a recursive-descent parser from tokens to the [`ast`],
//! with gawk's precedence (assignment, `?:`, `||`, `&&`, `in`, `~`,
//! comparisons, `| getline`, concatenation, additive, multiplicative,
//! unary, `^`, increments, `$`), and names resolved to slots.

mod calls;
mod expr;
mod stmt;
mod switch;

pub use calls::{arity, builtin_of};

use super::ast::*;
use super::lexer::{LexError, Lexer, Tok, Token};
use super::vars::SPECIALS;
use std::collections::HashMap;

/// How gawk prints a syntax error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// The source line and a caret under the token.
    Caret,
    /// `fatal: ...` (status 2).
    Fatal,
    /// `error: ...` without the source line.
    Error,
    /// `error: ...` printed twice (gawk reports `break` outside a loop so).
    ErrorTwice,
}

/// A syntax error: the message and the byte offset for the caret.
#[derive(Debug)]
pub struct ParseError {
    /// `syntax error`, `unexpected newline or end of string`...
    pub message: String,
    /// Byte offset in the source.
    pub at: usize,
    /// How it is printed.
    pub style: Style,
    /// The offending token is a newline (gawk then names the next line).
    pub newline: bool,
}

impl ParseError {
    fn new(message: String, at: usize, style: Style) -> Self {
        ParseError { message, at, style, newline: false }
    }
}

impl From<LexError> for ParseError {
    fn from(error: LexError) -> Self {
        ParseError::new(error.message, error.at, Style::Caret)
    }
}

type PResult<T> = Result<T, ParseError>;

/// The parser state.
pub struct Parser<'a> {
    lexer: Lexer<'a>,
    tok: Token,
    peeked: Option<Token>,
    program: Program,
    global_names: HashMap<String, usize>,
    function_names: HashMap<String, usize>,
    locals: Option<HashMap<String, usize>>,
    calls: Vec<(usize, usize, usize)>,
    regexes: Vec<Vec<u8>>,
    in_loop: usize,
    in_switch: usize,
    in_function: bool,
    no_in: bool,
    depth: usize,
}

/// How deeply expressions and statements may nest.
const MAX_NESTING: usize = 400;

/// Parses a whole program; regex literal texts are returned alongside.
pub fn parse_program(src: &[u8]) -> PResult<(Program, Vec<Vec<u8>>, Vec<(usize, String)>)> {
    let mut lexer = Lexer::new(src);
    let tok = lexer.next()?;
    let mut parser = Parser {
        lexer,
        tok,
        peeked: None,
        program: Program::default(),
        global_names: HashMap::new(),
        function_names: HashMap::new(),
        locals: None,
        calls: Vec::new(),
        regexes: Vec::new(),
        in_loop: 0,
        in_switch: 0,
        in_function: false,
        no_in: false,
        depth: 0,
    };
    for name in SPECIALS {
        parser.global(name);
    }
    parser.items()?;
    for &(index, args, at) in &parser.calls {
        let Some(function) = parser.program.functions.get(index) else { continue };
        if !function.defined {
            return Err(ParseError::new(format!("function `{}' not defined", function.name), at, Style::Fatal));
        }
        if args > function.params {
            parser.lexer.warnings.push((at, format!("function `{}' called with more arguments than declared", function.name)));
        }
    }
    let mut names = vec![String::new(); parser.global_names.len()];
    for (name, slot) in parser.global_names {
        if let Some(entry) = names.get_mut(slot) {
            *entry = name;
        }
    }
    parser.program.globals = names;
    let warnings = std::mem::take(&mut parser.lexer.warnings);
    Ok((parser.program, parser.regexes, warnings))
}

impl<'a> Parser<'a> {
    fn advance(&mut self) -> PResult<Token> {
        let next = match self.peeked.take() {
            Some(token) => token,
            None => self.lexer.next()?,
        };
        Ok(std::mem::replace(&mut self.tok, next))
    }

    fn peek(&mut self) -> PResult<&Tok> {
        if self.peeked.is_none() {
            self.peeked = Some(self.lexer.next()?);
        }
        Ok(&self.peeked.as_ref().map(|t| &t.tok).unwrap_or(&Tok::Eof))
    }

    fn is_op(&self, op: &str) -> bool {
        matches!(&self.tok.tok, Tok::Op(o) if *o == op)
    }

    fn is_key(&self, key: &str) -> bool {
        matches!(&self.tok.tok, Tok::Key(k) if *k == key)
    }

    fn error<T>(&self) -> PResult<T> {
        let message = match self.tok.tok {
            Tok::Newline | Tok::Eof => "unexpected newline or end of string",
            _ => "syntax error",
        };
        Err(ParseError { message: message.into(), at: self.tok.start, style: Style::Caret, newline: self.tok.tok == Tok::Newline })
    }

    fn expect_op(&mut self, op: &str) -> PResult<()> {
        if self.is_op(op) {
            self.advance()?;
            Ok(())
        } else {
            self.error()
        }
    }

    fn skip_newlines(&mut self) -> PResult<()> {
        while self.tok.tok == Tok::Newline {
            self.advance()?;
        }
        Ok(())
    }

    fn skip_terminators(&mut self) -> PResult<()> {
        while self.tok.tok == Tok::Newline || self.is_op(";") {
            self.advance()?;
        }
        Ok(())
    }

    fn global(&mut self, name: &str) -> usize {
        let next = self.global_names.len();
        *self.global_names.entry(name.to_string()).or_insert(next)
    }

    fn var(&mut self, name: &str) -> Var {
        if let Some(locals) = &self.locals {
            if let Some(&slot) = locals.get(name) {
                return Var::Local(slot);
            }
        }
        Var::Global(self.global(name))
    }

    fn function_index(&mut self, name: &str) -> usize {
        if let Some(&index) = self.function_names.get(name) {
            return index;
        }
        let index = self.program.functions.len();
        self.program.functions.push(Function {
            name: name.to_string(),
            params: 0,
            param_names: Vec::new(),
            body: Vec::new(),
            defined: false,
        });
        self.function_names.insert(name.to_string(), index);
        index
    }

    fn items(&mut self) -> PResult<()> {
        self.skip_terminators()?;
        while self.tok.tok != Tok::Eof {
            self.item()?;
            self.skip_terminators()?;
        }
        Ok(())
    }

    fn item(&mut self) -> PResult<()> {
        match self.tok.tok.clone() {
            Tok::Key("function") => self.function(),
            Tok::Key(key @ ("BEGIN" | "END" | "BEGINFILE" | "ENDFILE")) => {
                self.advance()?;
                if !self.is_op("{") {
                    return self.error();
                }
                let block = self.block()?;
                match key {
                    "BEGIN" => self.program.begin.push(block),
                    "END" => self.program.end.push(block),
                    "BEGINFILE" => self.program.begin_file.push(block),
                    _ => self.program.end_file.push(block),
                }
                Ok(())
            }
            Tok::Op("{") => {
                let offset = self.tok.start;
                let block = self.block()?;
                self.program.rules.push(Rule { pattern: Pattern::All, action: Some(block), offset });
                Ok(())
            }
            _ => {
                let offset = self.tok.start;
                let first = self.expr()?;
                let pattern = if self.is_op(",") {
                    self.advance()?;
                    self.skip_newlines()?;
                    let second = self.expr()?;
                    let index = self.program.ranges;
                    self.program.ranges += 1;
                    Pattern::Range(first, second, index)
                } else {
                    Pattern::Expr(first)
                };
                let action = if self.is_op("{") {
                    Some(self.block()?)
                } else if matches!(self.tok.tok, Tok::Newline | Tok::Eof) || self.is_op(";") {
                    None
                } else {
                    return self.error();
                };
                self.program.rules.push(Rule { pattern, action, offset });
                Ok(())
            }
        }
    }

    fn function(&mut self) -> PResult<()> {
        self.advance()?;
        let name = match self.tok.tok.clone() {
            Tok::Name(name) | Tok::FuncName(name) => name,
            _ => return self.error(),
        };
        let at = self.tok.start;
        self.advance()?;
        let index = self.function_index(&name);
        if self.program.functions.get(index).is_some_and(|f| f.defined) {
            return Err(ParseError::new(format!("function name `{name}' previously defined"), at, Style::Error));
        }
        self.expect_op("(")?;
        let mut params = Vec::new();
        let mut locals = HashMap::new();
        while !self.is_op(")") {
            let Tok::Name(param) = self.tok.tok.clone() else {
                return self.error();
            };
            if param == name {
                return Err(ParseError::new(
                    format!("function `{name}': cannot use function name as parameter name"),
                    self.tok.start,
                    Style::Error,
                ));
            }
            if locals.insert(param.clone(), params.len()).is_some() {
                return Err(ParseError::new(
                    format!("function `{name}': parameter #{} `{param}' duplicates parameter #{}", params.len() + 1, locals[&param] + 1),
                    self.tok.start,
                    Style::Error,
                ));
            }
            locals.insert(param.clone(), params.len());
            params.push(param);
            self.advance()?;
            if self.is_op(",") {
                self.advance()?;
                self.skip_newlines()?;
            } else if !self.is_op(")") {
                return self.error();
            }
        }
        self.advance()?;
        self.skip_newlines()?;
        if !self.is_op("{") {
            return self.error();
        }
        self.locals = Some(locals);
        self.in_function = true;
        let body = self.block()?;
        self.in_function = false;
        self.locals = None;
        if let Some(function) = self.program.functions.get_mut(index) {
            function.params = params.len();
            function.param_names = params;
            function.body = body;
            function.defined = true;
        }
        Ok(())
    }
}
