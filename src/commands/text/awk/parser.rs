//! The awk grammar: a recursive-descent parser from tokens to the [`ast`],
//! with gawk's precedence (assignment, `?:`, `||`, `&&`, `in`, `~`,
//! comparisons, `| getline`, concatenation, additive, multiplicative,
//! unary, `^`, increments, `$`), and names resolved to slots.

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
        self.program.functions.push(Function { name: name.to_string(), params: 0, param_names: Vec::new(), body: Vec::new(), defined: false });
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
                return Err(ParseError::new(format!("function `{name}': cannot use function name as parameter name"), self.tok.start, Style::Error));
            }
            if locals.insert(param.clone(), params.len()).is_some() {
                return Err(ParseError::new(format!("function `{name}': parameter #{} `{param}' duplicates parameter #{}", params.len() + 1, locals[&param] + 1), self.tok.start, Style::Error));
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

    fn block(&mut self) -> PResult<Block> {
        self.expect_op("{")?;
        let mut stmts = Vec::new();
        self.skip_terminators()?;
        while !self.is_op("}") {
            if self.tok.tok == Tok::Eof {
                return self.error();
            }
            let start = self.tok.start;
            stmts.push((start, self.statement()?));
            self.skip_terminators()?;
        }
        self.advance()?;
        Ok(stmts)
    }

    /// Ends a simple statement: `;`, newline, or before `}`/EOF.
    fn end_simple(&mut self) -> PResult<()> {
        if self.is_op(";") || self.tok.tok == Tok::Newline {
            self.advance()?;
            Ok(())
        } else if self.is_op("}") || self.tok.tok == Tok::Eof {
            Ok(())
        } else {
            self.error()
        }
    }

    fn body(&mut self) -> PResult<Stmt> {
        self.skip_newlines()?;
        if self.is_op(";") {
            self.advance()?;
            return Ok(Stmt::Nop);
        }
        self.statement()
    }

    fn loop_body(&mut self) -> PResult<Stmt> {
        self.in_loop += 1;
        let body = self.body();
        self.in_loop -= 1;
        body
    }

    fn statement(&mut self) -> PResult<Stmt> {
        self.depth += 1;
        let result = if self.depth > MAX_NESTING { Err(self.too_deep()) } else { self.statement_inner() };
        self.depth -= 1;
        result
    }

    fn statement_inner(&mut self) -> PResult<Stmt> {
        let stmt = match self.tok.tok.clone() {
            Tok::Op("{") => return Ok(Stmt::Block(self.block()?)),
            Tok::Op(";") => {
                self.advance()?;
                return Ok(Stmt::Nop);
            }
            Tok::Key("if") => {
                self.advance()?;
                self.expect_op("(")?;
                let cond = self.expr()?;
                self.expect_op(")")?;
                let then = self.body()?;
                self.skip_terminators()?;
                if self.is_key("else") {
                    self.advance()?;
                    let other = self.body()?;
                    return Ok(Stmt::If(cond, Box::new(then), Some(Box::new(other))));
                }
                return Ok(Stmt::If(cond, Box::new(then), None));
            }
            Tok::Key("while") => {
                self.advance()?;
                self.expect_op("(")?;
                let cond = self.expr()?;
                self.expect_op(")")?;
                if self.is_op(";") {
                    self.advance()?;
                    return Ok(Stmt::While(cond, Box::new(Stmt::Nop)));
                }
                let body = self.loop_body()?;
                return Ok(Stmt::While(cond, Box::new(body)));
            }
            Tok::Key("do") => {
                self.advance()?;
                let body = self.loop_body()?;
                self.skip_terminators()?;
                if !self.is_key("while") {
                    return self.error();
                }
                self.advance()?;
                self.expect_op("(")?;
                let cond = self.expr()?;
                self.expect_op(")")?;
                Stmt::Do(Box::new(body), cond)
            }
            Tok::Key("for") => return self.for_statement(),
            Tok::Key("next") => {
                self.advance()?;
                Stmt::Next
            }
            Tok::Key("nextfile") => {
                self.advance()?;
                Stmt::NextFile
            }
            Tok::Key("break") => {
                let at = self.tok.start;
                self.advance()?;
                if self.in_loop == 0 {
                    return Err(ParseError::new("`break' is not allowed outside a loop or switch".into(), at, Style::ErrorTwice));
                }
                Stmt::Break
            }
            Tok::Key("continue") => {
                let at = self.tok.start;
                self.advance()?;
                if self.in_loop == 0 {
                    return Err(ParseError::new("`continue' is not allowed outside a loop".into(), at, Style::ErrorTwice));
                }
                Stmt::Continue
            }
            Tok::Key("exit") => {
                self.advance()?;
                let value = if self.simple_end() { None } else { Some(self.expr()?) };
                Stmt::Exit(value)
            }
            Tok::Key("return") => {
                let at = self.tok.start;
                self.advance()?;
                if !self.in_function {
                    return Err(ParseError::new("`return' used outside function context".into(), at, Style::Caret));
                }
                let value = if self.simple_end() { None } else { Some(self.expr()?) };
                Stmt::Return(value)
            }
            Tok::Key("delete") => {
                self.advance()?;
                let name = match self.tok.tok.clone() {
                    Tok::Name(name) => name,
                    _ => return self.error(),
                };
                let var = self.var(&name);
                self.advance()?;
                if self.is_op("[") {
                    self.advance()?;
                    let subs = self.expr_list()?;
                    self.expect_op("]")?;
                    Stmt::Delete(var, Some(subs))
                } else {
                    Stmt::Delete(var, None)
                }
            }
            Tok::Key(kind @ ("print" | "printf")) => {
                self.advance()?;
                let args = self.print_args()?;
                if kind == "printf" && args.is_empty() {
                    return self.error();
                }
                let redirect = self.redirect()?;
                if kind == "print" {
                    Stmt::Print(args, redirect)
                } else {
                    Stmt::Printf(args, redirect)
                }
            }
            _ => Stmt::Expr(self.expr()?),
        };
        self.end_simple()?;
        Ok(stmt)
    }

    fn simple_end(&self) -> bool {
        self.is_op(";") || self.is_op("}") || matches!(self.tok.tok, Tok::Newline | Tok::Eof)
    }

    fn for_statement(&mut self) -> PResult<Stmt> {
        self.advance()?;
        self.expect_op("(")?;
        if let Tok::Name(name) = self.tok.tok.clone() {
            if self.peek()? == &Tok::Key("in") {
                // `for (k in a)` unless more follows `a` (`for (k in a == 1; ...)` is rare).
                self.advance()?;
                self.advance()?;
                if let Tok::Name(array) = self.tok.tok.clone() {
                    if self.peek()? == &Tok::Op(")") {
                        let var = self.var(&name);
                        let array = self.var(&array);
                        self.advance()?;
                        self.advance()?;
                        let body = self.loop_body()?;
                        return Ok(Stmt::ForIn(LValue::Var(var), array, Box::new(body)));
                    }
                }
                return self.error();
            }
        }
        let init = if self.is_op(";") { None } else { Some(Box::new(self.simple_statement()?)) };
        self.expect_op(";")?;
        self.skip_newlines()?;
        let cond = if self.is_op(";") { None } else { Some(self.expr()?) };
        self.expect_op(";")?;
        self.skip_newlines()?;
        let step = if self.is_op(")") { None } else { Some(Box::new(self.simple_statement()?)) };
        self.expect_op(")")?;
        if self.is_op(";") {
            self.advance()?;
            return Ok(Stmt::For(init, cond, step, Box::new(Stmt::Nop)));
        }
        let body = self.loop_body()?;
        Ok(Stmt::For(init, cond, step, Box::new(body)))
    }

    fn simple_statement(&mut self) -> PResult<Stmt> {
        Ok(Stmt::Expr(self.expr()?))
    }

    fn print_args(&mut self) -> PResult<Vec<Expr>> {
        if self.simple_end() || self.is_op(">") || self.is_op(">>") || self.is_op("|") {
            return Ok(Vec::new());
        }
        let mut args = vec![self.expr_no_gt()?];
        if args.len() == 1 && matches!(args[0], Expr::Group(_)) && !self.is_op(",") {
            if let Some(Expr::Group(list)) = args.pop() {
                return Ok(list);
            }
        }
        while self.is_op(",") {
            self.advance()?;
            self.skip_newlines()?;
            args.push(self.expr_no_gt()?);
        }
        Ok(args)
    }

    fn redirect(&mut self) -> PResult<Option<(Redirect, Expr)>> {
        let kind = match self.tok.tok {
            Tok::Op(">") => Redirect::File,
            Tok::Op(">>") => Redirect::Append,
            Tok::Op("|") => Redirect::Pipe,
            Tok::Op("|&") => {
                return Err(ParseError::new("coprocesses (`|&') are not supported in the sandbox".into(), self.tok.start, Style::Error))
            }
            _ => return Ok(None),
        };
        self.advance()?;
        let target = self.concat(true)?;
        Ok(Some((kind, target)))
    }

    fn expr_list(&mut self) -> PResult<Vec<Expr>> {
        let mut list = vec![self.expr()?];
        while self.is_op(",") {
            self.advance()?;
            self.skip_newlines()?;
            list.push(self.expr()?);
        }
        Ok(list)
    }

    /// An expression.
    pub fn expr(&mut self) -> PResult<Expr> {
        self.ternary(false)
    }

    fn expr_no_gt(&mut self) -> PResult<Expr> {
        self.ternary(true)
    }

    fn ternary(&mut self, no_gt: bool) -> PResult<Expr> {
        let cond = self.or(no_gt)?;
        if self.is_op("?") {
            self.advance()?;
            self.skip_newlines()?;
            let yes = self.ternary(no_gt)?;
            self.skip_newlines()?;
            self.expect_op(":")?;
            self.skip_newlines()?;
            let no = self.ternary(no_gt)?;
            return Ok(Expr::Cond(Box::new(cond), Box::new(yes), Box::new(no)));
        }
        if let Tok::Op(op @ ("=" | "+=" | "-=" | "*=" | "/=" | "%=" | "^=")) = self.tok.tok {
            let Some(lvalue) = to_lvalue(cond) else {
                return self.error();
            };
            self.advance()?;
            self.skip_newlines()?;
            let value = self.ternary(no_gt)?;
            let op = match op {
                "+=" => Some(BinOp::Add),
                "-=" => Some(BinOp::Sub),
                "*=" => Some(BinOp::Mul),
                "/=" => Some(BinOp::Div),
                "%=" => Some(BinOp::Mod),
                "^=" => Some(BinOp::Pow),
                _ => None,
            };
            return Ok(Expr::Assign(Box::new(lvalue), op, Box::new(value)));
        }
        Ok(cond)
    }

    fn or(&mut self, no_gt: bool) -> PResult<Expr> {
        let mut left = self.and(no_gt)?;
        while self.is_op("||") {
            self.advance()?;
            self.skip_newlines()?;
            let right = self.and(no_gt)?;
            left = Expr::Or(Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn and(&mut self, no_gt: bool) -> PResult<Expr> {
        let mut left = self.in_expr(no_gt)?;
        while self.is_op("&&") {
            self.advance()?;
            self.skip_newlines()?;
            let right = self.in_expr(no_gt)?;
            left = Expr::And(Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn in_expr(&mut self, no_gt: bool) -> PResult<Expr> {
        let mut left = self.matching(no_gt)?;
        while self.is_key("in") && !self.no_in {
            self.advance()?;
            let Tok::Name(name) = self.tok.tok.clone() else {
                return self.error();
            };
            let array = self.var(&name);
            self.advance()?;
            let subs = match left {
                Expr::Group(list) => list,
                other => vec![other],
            };
            left = Expr::In(subs, array);
        }
        Ok(left)
    }

    fn matching(&mut self, no_gt: bool) -> PResult<Expr> {
        let mut left = self.comparison(no_gt)?;
        loop {
            let negate = match self.tok.tok {
                Tok::Op("~") => false,
                Tok::Op("!~") => true,
                _ => return Ok(left),
            };
            self.lexer.want_regex = true;
            self.advance()?;
            self.lexer.want_regex = false;
            let right = self.comparison(no_gt)?;
            left = Expr::Match(Box::new(left), Box::new(right), !negate);
        }
    }

    fn comparison(&mut self, no_gt: bool) -> PResult<Expr> {
        let left = self.pipe_getline(no_gt)?;
        let op = match self.tok.tok {
            Tok::Op("<") => BinOp::Lt,
            Tok::Op("<=") => BinOp::Le,
            Tok::Op("==") => BinOp::Eq,
            Tok::Op("!=") => BinOp::Ne,
            Tok::Op(">=") => BinOp::Ge,
            Tok::Op(">") if !no_gt => BinOp::Gt,
            _ => return Ok(left),
        };
        self.advance()?;
        let right = self.pipe_getline(no_gt)?;
        Ok(Expr::Binary(op, Box::new(left), Box::new(right)))
    }

    fn pipe_getline(&mut self, no_gt: bool) -> PResult<Expr> {
        let mut left = self.concat(no_gt)?;
        while self.is_op("|") && self.peek()? == &Tok::Key("getline") {
            self.advance()?;
            self.advance()?;
            let target = self.getline_target()?;
            left = Expr::Getline(GetlineSource::Command(Box::new(left)), target);
        }
        Ok(left)
    }

    fn getline_target(&mut self) -> PResult<Option<Box<LValue>>> {
        match self.tok.tok {
            Tok::Name(_) | Tok::Op("$") => {
                let target = self.incdec()?;
                match to_lvalue(target) {
                    Some(lvalue) => Ok(Some(Box::new(lvalue))),
                    None => self.error(),
                }
            }
            _ => Ok(None),
        }
    }

    fn concat(&mut self, no_gt: bool) -> PResult<Expr> {
        let mut left = self.additive()?;
        loop {
            let operand = matches!(
                self.tok.tok,
                Tok::Num(_) | Tok::Str(_) | Tok::Regex(_) | Tok::Name(_) | Tok::FuncName(_) | Tok::Builtin(_) | Tok::Op("$" | "(" | "++" | "--")
            );
            if !operand || (no_gt && self.is_key("in")) {
                break;
            }
            let right = self.additive()?;
            left = Expr::Binary(BinOp::Concat, Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn additive(&mut self) -> PResult<Expr> {
        let mut left = self.multiplicative()?;
        loop {
            let op = match self.tok.tok {
                Tok::Op("+") => BinOp::Add,
                Tok::Op("-") => BinOp::Sub,
                _ => return Ok(left),
            };
            self.advance()?;
            let right = self.multiplicative()?;
            left = Expr::Binary(op, Box::new(left), Box::new(right));
        }
    }

    fn multiplicative(&mut self) -> PResult<Expr> {
        let mut left = self.unary()?;
        loop {
            let op = match self.tok.tok {
                Tok::Op("*") => BinOp::Mul,
                Tok::Op("/") => BinOp::Div,
                Tok::Op("%") => BinOp::Mod,
                _ => return Ok(left),
            };
            self.advance()?;
            let right = self.unary()?;
            left = Expr::Binary(op, Box::new(left), Box::new(right));
        }
    }

    fn unary(&mut self) -> PResult<Expr> {
        self.depth += 1;
        let result = if self.depth > MAX_NESTING { Err(self.too_deep()) } else { self.unary_inner() };
        self.depth -= 1;
        result
    }

    fn unary_inner(&mut self) -> PResult<Expr> {
        match self.tok.tok {
            Tok::Op("!") => {
                self.advance()?;
                Ok(Expr::Not(Box::new(self.unary()?)))
            }
            Tok::Op("-") => {
                self.advance()?;
                Ok(Expr::Neg(Box::new(self.unary()?)))
            }
            Tok::Op("+") => {
                self.advance()?;
                Ok(Expr::Plus(Box::new(self.unary()?)))
            }
            _ => self.power(),
        }
    }

    fn power(&mut self) -> PResult<Expr> {
        let base = self.incdec()?;
        if self.is_op("^") {
            self.advance()?;
            // Right-associative, and the exponent may carry a sign.
            let exponent = match self.tok.tok {
                Tok::Op("-") => {
                    self.advance()?;
                    Expr::Neg(Box::new(self.power_operand()?))
                }
                Tok::Op("+") => {
                    self.advance()?;
                    Expr::Plus(Box::new(self.power_operand()?))
                }
                Tok::Op("!") => {
                    self.advance()?;
                    Expr::Not(Box::new(self.power_operand()?))
                }
                _ => self.power_operand()?,
            };
            return Ok(Expr::Binary(BinOp::Pow, Box::new(base), Box::new(exponent)));
        }
        Ok(base)
    }

    fn power_operand(&mut self) -> PResult<Expr> {
        self.power()
    }

    fn incdec(&mut self) -> PResult<Expr> {
        if let Tok::Op(op @ ("++" | "--")) = self.tok.tok {
            self.advance()?;
            let target = self.incdec()?;
            let Some(lvalue) = to_lvalue(target) else {
                return self.error();
            };
            return Ok(Expr::PreIncr(Box::new(lvalue), op == "++"));
        }
        let primary = self.primary()?;
        if let Tok::Op(op @ ("++" | "--")) = self.tok.tok {
            if matches!(primary, Expr::Var(_) | Expr::Index(..) | Expr::Field(_)) {
                self.advance()?;
                let Some(lvalue) = to_lvalue(primary) else {
                    return self.error();
                };
                return Ok(Expr::PostIncr(Box::new(lvalue), op == "++"));
            }
        }
        Ok(primary)
    }

    fn regex_index(&mut self, text: Vec<u8>, at: usize) -> usize {
        if let Some(index) = self.regexes.iter().position(|r| *r == text) {
            return index;
        }
        self.program.regex_offsets.push(at);
        self.regexes.push(text);
        self.regexes.len() - 1
    }

    fn primary(&mut self) -> PResult<Expr> {
        self.depth += 1;
        let result = if self.depth > MAX_NESTING { Err(self.too_deep()) } else { self.primary_inner() };
        self.depth -= 1;
        result
    }

    fn too_deep(&self) -> ParseError {
        ParseError::new("expression or statement nesting too deep".into(), self.tok.start, Style::Caret)
    }

    fn primary_inner(&mut self) -> PResult<Expr> {
        let token = self.tok.clone();
        match token.tok {
            Tok::Num(n) => {
                self.advance()?;
                Ok(Expr::Num(n))
            }
            Tok::Str(s) => {
                self.advance()?;
                Ok(Expr::Str(s))
            }
            Tok::Regex(text) => {
                self.advance()?;
                Ok(Expr::Regex(self.regex_index(text, token.start)))
            }
            Tok::Op("$") => {
                self.advance()?;
                let inner = match self.tok.tok {
                    Tok::Op("-") => {
                        self.advance()?;
                        Expr::Neg(Box::new(self.incdec_primary()?))
                    }
                    Tok::Op("+") => {
                        self.advance()?;
                        self.incdec_primary()?
                    }
                    Tok::Op("!") => {
                        self.advance()?;
                        Expr::Not(Box::new(self.incdec_primary()?))
                    }
                    _ => self.incdec_primary()?,
                };
                Ok(Expr::Field(Box::new(inner)))
            }
            Tok::Op("(") => {
                self.advance()?;
                self.skip_newlines()?;
                let save = self.no_in;
                self.no_in = false;
                let list = self.expr_list();
                self.no_in = save;
                let mut list = list?;
                self.skip_newlines()?;
                self.expect_op(")")?;
                if list.len() == 1 {
                    return Ok(list.pop().unwrap_or(Expr::Num(0.0)));
                }
                if !self.is_key("in") && !matches!(self.tok.tok, Tok::Op(">" | ">>" | "|" | ";" | "}") | Tok::Newline | Tok::Eof) {
                    return self.error();
                }
                Ok(Expr::Group(list))
            }
            Tok::Op("-") => {
                self.advance()?;
                Ok(Expr::Neg(Box::new(self.unary()?)))
            }
            Tok::Op("+") => {
                self.advance()?;
                Ok(Expr::Plus(Box::new(self.unary()?)))
            }
            Tok::Op("!") => {
                self.advance()?;
                Ok(Expr::Not(Box::new(self.unary()?)))
            }
            Tok::Op("++" | "--") => self.incdec(),
            Tok::Key("getline") => {
                self.advance()?;
                let target = self.getline_target()?;
                if self.is_op("<") {
                    self.advance()?;
                    let file = self.incdec_primary()?;
                    return Ok(Expr::Getline(GetlineSource::File(Box::new(file)), target));
                }
                Ok(Expr::Getline(GetlineSource::Main, target))
            }
            Tok::Name(name) => {
                self.advance()?;
                let var = self.var(&name);
                if self.is_op("[") {
                    self.advance()?;
                    self.skip_newlines()?;
                    let subs = self.expr_list()?;
                    self.skip_newlines()?;
                    self.expect_op("]")?;
                    return Ok(Expr::Index(var, subs));
                }
                Ok(Expr::Var(var))
            }
            Tok::FuncName(name) => {
                let at = self.tok.start;
                self.advance()?;
                self.expect_op("(")?;
                self.skip_newlines()?;
                let args = if self.is_op(")") { Vec::new() } else { self.expr_list()? };
                self.skip_newlines()?;
                self.expect_op(")")?;
                let index = self.function_index(&name);
                self.calls.push((index, args.len(), at));
                Ok(Expr::Call(index, args))
            }
            Tok::Builtin(name) => self.builtin(&name),
            _ => self.error(),
        }
    }

    /// The operand of `$` and of `getline <`: a primary, or a prefix increment.
    fn incdec_primary(&mut self) -> PResult<Expr> {
        if self.is_op("++") || self.is_op("--") {
            return self.incdec();
        }
        self.primary()
    }

    fn builtin(&mut self, name: &str) -> PResult<Expr> {
        let at = self.tok.start;
        self.advance()?;
        let builtin = builtin_of(name);
        if !self.is_op("(") {
            if builtin == Builtin::Length {
                return Ok(Expr::Builtin(Builtin::Length, Vec::new()));
            }
            return self.error();
        }
        self.advance()?;
        self.skip_newlines()?;
        let mut args = Vec::new();
        if !self.is_op(")") {
            loop {
                args.push(self.expr()?);
                self.skip_newlines()?;
                if self.is_op(",") {
                    self.advance()?;
                    self.skip_newlines()?;
                } else {
                    break;
                }
            }
        }
        self.expect_op(")")?;
        let (min, max) = arity(builtin);
        if args.len() < min || args.len() > max {
            return Err(ParseError::new(format!("{name}: called with {} arguments", args.len()), at, Style::Error));
        }
        Ok(Expr::Builtin(builtin, args))
    }
}

fn to_lvalue(expr: Expr) -> Option<LValue> {
    match expr {
        Expr::Var(var) => Some(LValue::Var(var)),
        Expr::Index(var, subs) => Some(LValue::Index(var, subs)),
        Expr::Field(inner) => Some(LValue::Field(inner)),
        _ => None,
    }
}

fn builtin_of(name: &str) -> Builtin {
    match name {
        "length" => Builtin::Length,
        "substr" => Builtin::Substr,
        "index" => Builtin::Index,
        "split" => Builtin::Split,
        "sub" => Builtin::Sub,
        "gsub" => Builtin::Gsub,
        "gensub" => Builtin::Gensub,
        "match" => Builtin::Match,
        "sprintf" => Builtin::Sprintf,
        "tolower" => Builtin::Tolower,
        "toupper" => Builtin::Toupper,
        "int" => Builtin::Int,
        "sqrt" => Builtin::Sqrt,
        "exp" => Builtin::Exp,
        "log" => Builtin::Log,
        "sin" => Builtin::Sin,
        "cos" => Builtin::Cos,
        "atan2" => Builtin::Atan2,
        "rand" => Builtin::Rand,
        "srand" => Builtin::Srand,
        "systime" => Builtin::Systime,
        "strftime" => Builtin::Strftime,
        "mktime" => Builtin::Mktime,
        "asort" => Builtin::Asort,
        "asorti" => Builtin::Asorti,
        "patsplit" => Builtin::Patsplit,
        "and" => Builtin::And,
        "or" => Builtin::Or,
        "xor" => Builtin::Xor,
        "lshift" => Builtin::Lshift,
        "rshift" => Builtin::Rshift,
        "compl" => Builtin::Compl,
        "strtonum" => Builtin::Strtonum,
        "typeof" => Builtin::Typeof,
        "isarray" => Builtin::Isarray,
        "close" => Builtin::Close,
        "fflush" => Builtin::Fflush,
        _ => Builtin::System,
    }
}

fn arity(builtin: Builtin) -> (usize, usize) {
    use Builtin::*;
    match builtin {
        Length => (0, 1),
        Substr => (2, 3),
        Index | Atan2 | Lshift | Rshift => (2, 2),
        Split | Patsplit => (2, 4),
        Sub | Gsub => (2, 3),
        Gensub => (3, 4),
        Match => (2, 3),
        Sprintf => (1, usize::MAX),
        Tolower | Toupper | Int | Sqrt | Exp | Log | Sin | Cos | Compl | Strtonum | Typeof | Isarray | System => (1, 1),
        Rand | Systime => (0, 0),
        Srand => (0, 1),
        Strftime => (0, 3),
        Mktime => (1, 2),
        Asort | Asorti => (1, 3),
        And | Or | Xor => (2, usize::MAX),
        Close => (1, 2),
        Fflush => (0, 1),
    }
}
