//! The jq parser: program text to an [`Ast`], by precedence climbing, with
//! names resolved against the scope as it goes (see [`super::ast`]).

use super::ast::{Assign, Ast, Def, Op, Part, Pattern, Target, VarRef};
use super::builtins::native_index;
use super::lex::{describe, Lexer, Tok};
use super::value::{Map, Value};
use std::rc::Rc;

/// A compile error: jq's message without the `jq: error: ` prefix.
#[derive(Debug)]
pub struct CompileError(pub String);

#[derive(Clone)]
enum Entry {
    Var(Rc<str>),
    Func(Rc<str>, usize),
    Param(Rc<str>),
    Label(Rc<str>),
}

/// The parsed program's shared parts: top-level definitions and global variables.
#[derive(Default)]
pub struct Program {
    /// Top-level definitions (the prelude's, the modules' and the program's).
    pub defs: Vec<Option<Rc<Def>>>,
    /// The top-level functions in scope: name, arity and index into `defs`.
    globals: Vec<(Rc<str>, usize, usize)>,
    /// The global variables in scope: name and index into `values`.
    vars: Vec<(Rc<str>, usize)>,
    /// Values of the global variables (`$ENV`, `--arg` values, data modules), by index.
    pub values: Vec<Value>,
}

/// A top-level function a module defines: name, arity and index into the definitions.
pub type Export = (Rc<str>, usize, usize);

/// The module directives at the head of a program or module.
#[derive(Default)]
pub struct Header {
    /// `module {...};` metadata.
    pub meta: Option<Value>,
    /// The `import`/`include` directives, in order.
    pub deps: Vec<Dep>,
    /// Where the body starts.
    pub body: usize,
}

/// One `import` or `include` directive.
pub struct Dep {
    /// The module's relative path.
    pub relpath: String,
    /// The `as` name (without `$`), none for `include`.
    pub alias: Option<Rc<str>>,
    /// `import "x" as $name`: a JSON data file.
    pub is_data: bool,
    /// The directive as `modulemeta` shows it: metadata, `as`, `is_data`, `relpath`.
    pub info: Value,
}

impl Program {
    /// Declares a global variable with its value and returns its index.
    pub fn declare_global(&mut self, name: &str, value: Value) -> usize {
        self.values.push(value);
        let index = self.values.len() - 1;
        self.vars.push((Rc::from(name), index));
        index
    }

    /// Makes global variable `index` visible as `$name` too.
    pub fn bind_var(&mut self, name: &str, index: usize) {
        self.vars.push((Rc::from(name), index));
    }

    /// Makes a module's function visible as `name`.
    pub fn bind_fn(&mut self, name: Rc<str>, arity: usize, index: usize) {
        self.globals.push((name, arity, index));
    }

    /// How many names are in scope, to [`Program::reset`] to after a module.
    pub fn mark(&self) -> (usize, usize) {
        (self.globals.len(), self.vars.len())
    }

    /// Forgets the names bound since `mark`.
    pub fn reset(&mut self, mark: (usize, usize)) {
        self.globals.truncate(mark.0);
        self.vars.truncate(mark.1);
    }
}

/// A parser over one program text.
pub struct Parser<'a> {
    lx: Lexer,
    peeked: Option<(Tok, usize, usize)>,
    scope: Vec<Entry>,
    prog: &'a mut Program,
    text: String,
    errors: Vec<String>,
    /// In the prelude: calls not yet resolvable, by name and arity.
    pending: Option<Vec<(Rc<str>, usize)>>,
    /// Where the term being parsed started (for `not defined` messages).
    token_start: usize,
    /// How many definition bodies enclose the current position.
    def_depth: usize,
    /// The file name messages and `$__loc__` give.
    origin: Rc<str>,
    /// Only definitions have been read at this level of the program (or
    /// module): a `def` here is a top-level function.
    at_top: bool,
    /// Parsing a `reduce`/`foreach` source: `as` ends it, it binds nothing.
    in_source: bool,
}

type R<T> = Result<T, CompileError>;

const PIPE: u8 = 1;
const COMMA: u8 = 2;
const ALT: u8 = 3;
const ASSIGN: u8 = 4;
const OR: u8 = 5;
const AND: u8 = 6;
const CMP: u8 = 7;
const ADD: u8 = 8;
const MUL: u8 = 9;

fn binary(tok: &Tok) -> Option<(u8, &'static str)> {
    let Tok::Punct(p) = tok else {
        if let Tok::Ident(name) = tok {
            return match &**name {
                "or" => Some((OR, "or")),
                "and" => Some((AND, "and")),
                _ => None,
            };
        }
        return None;
    };
    let prec = match *p {
        "|" => PIPE,
        "," => COMMA,
        "//" => ALT,
        "=" | "|=" | "+=" | "-=" | "*=" | "/=" | "%=" | "//=" => ASSIGN,
        "==" | "!=" | "<" | "<=" | ">" | ">=" => CMP,
        "+" | "-" => ADD,
        "*" | "/" | "%" => MUL,
        _ => return None,
    };
    Some((prec, p))
}

fn arith(p: &str) -> Option<Op> {
    Some(match p {
        "+" | "+=" => Op::Add,
        "-" | "-=" => Op::Sub,
        "*" | "*=" => Op::Mul,
        "/" | "/=" => Op::Div,
        "%" | "%=" => Op::Mod,
        "==" => Op::Eq,
        "!=" => Op::Ne,
        "<" => Op::Lt,
        "<=" => Op::Le,
        ">" => Op::Gt,
        ">=" => Op::Ge,
        _ => return None,
    })
}

const KEYWORDS: &[&str] = &[
    "def", "if", "then", "elif", "else", "end", "as", "reduce", "foreach", "try", "catch", "label", "import", "include", "module", "and", "or",
    "__loc__",
];

impl<'a> Parser<'a> {
    /// A parser over `text` adding to `prog`.
    pub fn new(text: &str, prog: &'a mut Program) -> Self {
        Parser {
            lx: Lexer::new(text),
            peeked: None,
            scope: Vec::new(),
            prog,
            text: text.to_string(),
            errors: Vec::new(),
            pending: None,
            token_start: 0,
            def_depth: 0,
            origin: Rc::from("<top-level>"),
            at_top: true,
            in_source: false,
        }
    }

    /// Names the file being parsed (a module's path), for messages and `$__loc__`.
    pub fn set_origin(&mut self, origin: &str) {
        self.origin = Rc::from(origin);
    }

    /// Continues at character `pos` (after a [`Header`]).
    pub fn resume(&mut self, pos: usize) {
        self.lx.pos = pos;
        self.peeked = None;
    }

    fn peek(&mut self) -> &Tok {
        if self.peeked.is_none() {
            let before = self.lx.pos;
            let (tok, start) = self.lx.next();
            let after = self.lx.pos;
            self.lx.pos = before;
            self.peeked = Some((tok, start, after));
        }
        match &self.peeked {
            Some((tok, _, _)) => tok,
            None => &Tok::Eof,
        }
    }

    fn bump(&mut self) -> Tok {
        self.peek();
        match self.peeked.take() {
            Some((tok, _, after)) => {
                self.lx.pos = after;
                tok
            }
            None => Tok::Eof,
        }
    }

    fn unexpected<T>(&mut self) -> R<T> {
        let tok = self.peek().clone();
        let start = match (&tok, &self.peeked) {
            (Tok::Eof, _) => self.lx.src.len().saturating_sub(1),
            (_, Some((_, start, _))) => *start,
            _ => self.lx.pos,
        };
        Err(self.located(&format!("syntax error, unexpected {} (Unix shell quoting issues?)", describe(&tok)), start))
    }

    fn fail<T>(&mut self, message: &str) -> R<T> {
        let pos = self.lx.pos;
        Err(self.located(message, pos))
    }

    /// jq's message form: the message, the line, and the line's text padded
    /// to the error's column.
    fn located(&self, message: &str, offset: usize) -> CompileError {
        let offset = offset.min(self.lx.src.len());
        let before = self.lx.src.get(..offset).unwrap_or(&[]);
        let line = 1 + before.iter().filter(|c| **c == '\n').count();
        let line_start = before.iter().rposition(|c| *c == '\n').map(|i| i + 1).unwrap_or(0);
        let line_end =
            self.lx.src.get(offset..).and_then(|r| r.iter().position(|c| *c == '\n')).map(|i| i + offset).unwrap_or(self.lx.src.len());
        let text: String = self.lx.src.get(line_start..line_end).unwrap_or(&[]).iter().collect();
        let pad = " ".repeat(offset - line_start);
        let _ = &self.text;
        CompileError(format!("{message} at {}, line {line}:\n{text}{pad}", self.origin))
    }

    fn not_defined(&mut self, what: &str) -> CompileError {
        let start = self.token_start;
        self.located(&format!("{what} is not defined"), start)
    }

    fn is_punct(&mut self, p: &str) -> bool {
        matches!(self.peek(), Tok::Punct(q) if *q == p)
    }

    fn is_word(&mut self, w: &str) -> bool {
        matches!(self.peek(), Tok::Ident(name) if &**name == w)
    }

    fn expect(&mut self, p: &str) -> R<()> {
        if self.is_punct(p) {
            self.bump();
            Ok(())
        } else {
            self.unexpected()
        }
    }

    fn expect_word(&mut self, w: &str) -> R<()> {
        if self.is_word(w) {
            self.bump();
            Ok(())
        } else {
            self.unexpected()
        }
    }

    /// Parses the prelude: definitions only, all made global.
    pub fn parse_defs(&mut self) -> R<()> {
        self.pending = Some(Vec::new());
        while self.is_word("def") {
            self.bump();
            self.def()?;
        }
        if *self.peek() != Tok::Eof {
            return self.unexpected();
        }
        let pending = self.pending.take().unwrap_or_default();
        let globals = self.prog.globals.clone();
        let mut missing = None;
        for def in self.prog.defs.iter_mut().flatten() {
            let Some(def) = Rc::get_mut(def) else { continue };
            super::ast::visit_calls(&mut def.body, &mut |t| {
                if let Target::Pending(i) = *t {
                    if let Some((name, arity)) = pending.get(i) {
                        match globals.iter().rev().find(|(n, a, _)| n == name && a == arity) {
                            Some((_, _, index)) => *t = Target::Global(*index),
                            None => missing = Some(format!("{name}/{arity}")),
                        }
                    }
                }
            });
        }
        if let Some(m) = missing {
            return Err(self.not_defined(&m));
        }
        Ok(())
    }

    /// Parses the `module` and `import`/`include` directives at the head.
    pub fn parse_header(&mut self) -> R<Header> {
        let mut header = Header::default();
        if self.is_word("module") {
            let start = self.peeked.as_ref().map(|p| p.1).unwrap_or(self.lx.pos);
            self.bump();
            let meta = self.exp(PIPE)?;
            header.meta = Some(self.metadata(&meta, start)?);
            self.expect(";")?;
        }
        while self.is_word("import") || self.is_word("include") {
            let start = self.peeked.as_ref().map(|p| p.1).unwrap_or(self.lx.pos);
            let import = self.is_word("import");
            self.bump();
            let is_string = *self.peek() == Tok::Quote;
            let path_start = self.peeked.as_ref().map(|p| p.1).unwrap_or(self.lx.pos);
            if !is_string {
                return self.unexpected();
            }
            self.bump();
            let relpath = match &self.string_body(None)? {
                Ast::Lit(Value::Str(s)) => s.to_string(),
                _ => return Err(self.located("Import path must be constant", path_start)),
            };
            let mut alias = None;
            let mut is_data = false;
            if import {
                self.expect_word("as")?;
                if let Tok::Ident(name) = self.peek().clone() {
                    if KEYWORDS.contains(&&*name) {
                        let start = self.peeked.as_ref().map(|p| p.1).unwrap_or(self.lx.pos);
                        let message = format!(
                            "syntax error, unexpected {}, expecting IDENT or BINDING (Unix shell quoting issues?)",
                            describe(&Tok::Ident(name))
                        );
                        return Err(self.located(&message, start));
                    }
                }
                match self.bump() {
                    Tok::Ident(name) => alias = Some(name),
                    Tok::Var(name) => {
                        alias = Some(name);
                        is_data = true;
                    }
                    _ => return self.unexpected(),
                }
            }
            let mut info = Map::new();
            if !self.is_punct(";") {
                let meta = self.exp(PIPE)?;
                if let Value::Obj(m) = &self.metadata(&meta, start)? {
                    info = (**m).clone();
                }
            }
            self.expect(";")?;
            if let Some(a) = &alias {
                info.insert(Rc::from("as"), Value::Str(a.clone()));
            }
            info.insert(Rc::from("is_data"), Value::Bool(is_data));
            info.insert(Rc::from("relpath"), Value::str(&relpath));
            header.deps.push(Dep { relpath, alias, is_data, info: Value::Obj(Rc::new(info)) });
        }
        header.body = self.peeked.as_ref().map(|p| p.1).unwrap_or(self.lx.pos);
        Ok(header)
    }

    /// Checks module metadata: a constant object.
    fn metadata(&self, meta: &Ast, start: usize) -> R<Value> {
        match constant(meta) {
            Some(v @ Value::Obj(_)) => Ok(v),
            Some(_) => Err(self.located("Module metadata must be an object", start)),
            None => Err(self.located("Module metadata must be constant", start)),
        }
    }

    /// Parses a module's body: definitions only. Returns the functions it
    /// defines; with `lenient`, names it cannot resolve are not errors
    /// (`modulemeta` only lists the definitions).
    pub fn parse_library(&mut self, lenient: bool) -> R<Vec<Export>> {
        let first = self.prog.globals.len();
        while self.is_word("def") {
            self.bump();
            self.def()?;
        }
        if *self.peek() != Tok::Eof {
            self.exp(PIPE)?;
            if *self.peek() != Tok::Eof {
                return self.unexpected_expecting_eof();
            }
            return Err(CompileError(
                "jq: error: library should only have function definitions, not a main expression\n<unknown location>".to_string(),
            ));
        }
        if let (false, Some(first)) = (lenient, self.errors.first()) {
            return Err(CompileError(first.clone()));
        }
        Ok(self.prog.globals.get(first..).unwrap_or(&[]).to_vec())
    }

    fn unexpected_expecting_eof<T>(&mut self) -> R<T> {
        let tok = self.peek().clone();
        let start = self.peeked.as_ref().map(|p| p.1).unwrap_or(self.lx.pos);
        let message = format!("syntax error, unexpected {}, expecting end of file (Unix shell quoting issues?)", describe(&tok));
        Err(self.located(&message, start))
    }

    /// Parses a whole main program (after its [`Header`]).
    pub fn parse_main(&mut self) -> R<Ast> {
        if self.is_word("import") || self.is_word("include") || self.is_word("module") {
            return self.unexpected_expecting_eof();
        }
        if *self.peek() == Tok::Eof {
            return Ok(Ast::Identity);
        }
        let ast = self.exp(PIPE)?;
        if *self.peek() != Tok::Eof {
            return self.unexpected_expecting_eof();
        }
        if let Some(first) = self.errors.first() {
            return Err(CompileError(first.clone()));
        }
        Ok(ast)
    }

    /// Parses `name(params): body;` after `def`; returns the local
    /// definition when it is not global.
    fn def(&mut self) -> R<Option<Rc<Def>>> {
        if let Tok::Ident(name) = self.peek().clone() {
            if KEYWORDS.contains(&&*name) {
                let start = self.peeked.as_ref().map(|p| p.1).unwrap_or(self.lx.pos);
                let message = format!("syntax error, unexpected {}, expecting IDENT (Unix shell quoting issues?)", describe(&Tok::Ident(name)));
                return Err(self.located(&message, start));
            }
        }
        let name = match self.bump() {
            Tok::Ident(name) => name,
            _ => return self.unexpected(),
        };
        let mut params: Vec<(Rc<str>, bool)> = Vec::new();
        if self.is_punct("(") {
            self.bump();
            loop {
                match self.bump() {
                    Tok::Ident(p) => params.push((p, false)),
                    Tok::Var(p) => params.push((p, true)),
                    _ => return self.unexpected(),
                }
                if self.is_punct(";") {
                    self.bump();
                    continue;
                }
                self.expect(")")?;
                break;
            }
        }
        self.expect(":")?;
        let global = self.at_top && self.scope.is_empty() && self.def_depth == 0;
        let arity = params.len();
        let saved = self.scope.len();
        let mut slot = None;
        if global {
            self.prog.defs.push(None);
            let index = self.prog.defs.len() - 1;
            self.prog.globals.push((name.clone(), arity, index));
            slot = Some(index);
        } else {
            self.scope.push(Entry::Func(name.clone(), arity));
        }
        for (p, _) in &params {
            self.scope.push(Entry::Param(p.clone()));
        }
        for (p, is_var) in &params {
            if *is_var {
                self.scope.push(Entry::Var(p.clone()));
            }
        }
        self.def_depth += 1;
        let at_top = self.at_top;
        let body = self.exp(PIPE);
        self.at_top = at_top;
        self.def_depth -= 1;
        let body = body?;
        self.scope.truncate(saved);
        self.expect(";")?;
        let def = Rc::new(Def { name, params: params.iter().map(|(_, v)| *v).collect(), body });
        match slot {
            Some(index) => {
                if let Some(entry) = self.prog.defs.get_mut(index) {
                    *entry = Some(def);
                }
                Ok(None)
            }
            None => Ok(Some(def)),
        }
    }

    fn exp(&mut self, min: u8) -> R<Ast> {
        let mut lhs = self.prefix()?;
        loop {
            if self.is_punct("?") {
                self.bump();
                lhs = Ast::Try(Box::new(lhs), None);
                continue;
            }
            let tok = self.peek().clone();
            let Some((prec, op)) = binary(&tok) else { break };
            if prec < min {
                break;
            }
            self.bump();
            // `|` and `//` group to the right; assignments and comparisons do not chain.
            let next = if op == "|" || op == "//" { prec } else { prec + 1 };
            let rhs = self.exp(next)?;
            lhs = match op {
                "|" => Ast::Pipe(Box::new(lhs), Box::new(rhs)),
                "," => Ast::Comma(Box::new(lhs), Box::new(rhs)),
                "//" => Ast::Alt(Box::new(lhs), Box::new(rhs)),
                "and" => Ast::And(Box::new(lhs), Box::new(rhs)),
                "or" => Ast::Or(Box::new(lhs), Box::new(rhs)),
                "=" => Ast::Update(Assign::Set, Box::new(lhs), Box::new(rhs)),
                "|=" => Ast::Update(Assign::Modify, Box::new(lhs), Box::new(rhs)),
                "//=" => Ast::Update(Assign::Alt, Box::new(lhs), Box::new(rhs)),
                "+=" | "-=" | "*=" | "/=" | "%=" => Ast::Update(Assign::Arith(arith(op).unwrap_or(Op::Add)), Box::new(lhs), Box::new(rhs)),
                _ => Ast::Bin(arith(op).unwrap_or(Op::Add), Box::new(lhs), Box::new(rhs)),
            };
            if prec == ASSIGN || prec == CMP {
                if let Some((p2, _)) = binary(&self.peek().clone()) {
                    if p2 == prec {
                        return self.unexpected();
                    }
                }
            }
        }
        Ok(lhs)
    }

    fn prefix(&mut self) -> R<Ast> {
        let tok = self.peek().clone();
        if !matches!(&tok, Tok::Ident(w) if &**w == "def") {
            self.at_top = false;
        }
        match &tok {
            Tok::Punct("-") => {
                self.bump();
                let e = self.exp(MUL)?;
                Ok(Ast::Neg(Box::new(e)))
            }
            Tok::Ident(w) if &**w == "def" => {
                self.bump();
                let saved = self.scope.len();
                let local = self.def()?;
                match local {
                    Some(def) => {
                        self.scope.truncate(saved);
                        self.scope.push(Entry::Func(def.name.clone(), def.params.len()));
                        let rest = self.exp(PIPE)?;
                        self.scope.truncate(saved);
                        Ok(Ast::Def(def, Box::new(rest)))
                    }
                    None => {
                        if self.is_word("import") || self.is_word("include") || self.is_word("module") {
                            return self.unexpected_expecting_eof();
                        }
                        self.exp(PIPE)
                    }
                }
            }
            Tok::Ident(w) if &**w == "reduce" || &**w == "foreach" => {
                let is_reduce = &**w == "reduce";
                self.bump();
                // The source runs to `as` (jq 1.8's grammar; 1.7.1 takes a term only).
                let outer = std::mem::replace(&mut self.in_source, true);
                let src = self.exp(ALT);
                self.in_source = outer;
                let src = src?;
                self.expect_word("as")?;
                let (pats, names) = self.patterns()?;
                self.expect("(")?;
                let init = self.exp(PIPE)?;
                self.expect(";")?;
                let saved = self.scope.len();
                for n in &names {
                    self.scope.push(Entry::Var(n.clone()));
                }
                let update = self.exp(PIPE)?;
                let mut extract = None;
                if !is_reduce && self.is_punct(";") {
                    self.bump();
                    extract = Some(Box::new(self.exp(PIPE)?));
                }
                self.scope.truncate(saved);
                self.expect(")")?;
                let n = names.len();
                let node = if is_reduce {
                    Ast::Reduce(Box::new(src), pats, n, Box::new(init), Box::new(update))
                } else {
                    Ast::Foreach(Box::new(src), pats, n, Box::new(init), Box::new(update), extract)
                };
                let node = self.postfix(node)?;
                self.maybe_bind(node)
            }
            Tok::Ident(w) if &**w == "if" => {
                self.bump();
                let node = self.if_rest()?;
                let node = self.postfix(node)?;
                self.maybe_bind(node)
            }
            Tok::Ident(w) if &**w == "try" => {
                self.bump();
                let body = self.exp(MUL + 1)?;
                let catch = if self.is_word("catch") {
                    self.bump();
                    Some(Box::new(self.exp(MUL + 1)?))
                } else {
                    None
                };
                Ok(Ast::Try(Box::new(body), catch))
            }
            Tok::Ident(w) if &**w == "label" => {
                self.bump();
                let Tok::Var(name) = self.bump() else {
                    return self.unexpected();
                };
                self.expect("|")?;
                self.scope.push(Entry::Label(name));
                let body = self.exp(PIPE)?;
                self.scope.pop();
                Ok(Ast::Label(Box::new(body)))
            }
            _ => {
                let term = self.postfix_term()?;
                self.maybe_bind(term)
            }
        }
    }

    /// `term as $x | body`, unless `as` ends a `reduce`/`foreach` source.
    fn maybe_bind(&mut self, term: Ast) -> R<Ast> {
        if self.in_source || !self.is_word("as") {
            return Ok(term);
        }
        self.bump();
        let (pats, names) = self.patterns()?;
        self.expect("|")?;
        let saved = self.scope.len();
        for n in &names {
            self.scope.push(Entry::Var(n.clone()));
        }
        let body = self.exp(PIPE)?;
        self.scope.truncate(saved);
        Ok(Ast::Bind(Box::new(term), pats, names.len(), Box::new(body)))
    }

    fn if_rest(&mut self) -> R<Ast> {
        let cond = self.exp(PIPE)?;
        self.expect_word("then")?;
        let then = self.exp(PIPE)?;
        let els = if self.is_word("elif") {
            self.bump();
            Some(Box::new(self.if_rest()?))
        } else if self.is_word("else") {
            self.bump();
            let e = self.exp(PIPE)?;
            self.expect_word("end")?;
            Some(Box::new(e))
        } else {
            self.expect_word("end")?;
            None
        };
        Ok(Ast::If(Box::new(cond), Box::new(then), els))
    }

    /// Parses `?//`-separated patterns; returns them with the variable names in slot order.
    fn patterns(&mut self) -> R<(Vec<Pattern>, Vec<Rc<str>>)> {
        let mut names = Vec::new();
        let mut pats = vec![self.pattern(&mut names)?];
        while self.is_punct("?//") {
            self.bump();
            pats.push(self.pattern(&mut names)?);
        }
        Ok((pats, names))
    }

    fn slot(names: &mut Vec<Rc<str>>, name: Rc<str>) -> usize {
        match names.iter().position(|n| *n == name) {
            Some(i) => i,
            None => {
                names.push(name);
                names.len() - 1
            }
        }
    }

    fn pattern(&mut self, names: &mut Vec<Rc<str>>) -> R<Pattern> {
        match self.bump() {
            Tok::Var(name) => Ok(Pattern::Var(Self::slot(names, name))),
            Tok::Punct("[") => {
                let mut items = Vec::new();
                loop {
                    items.push(self.pattern(names)?);
                    if self.is_punct(",") {
                        self.bump();
                        continue;
                    }
                    self.expect("]")?;
                    break;
                }
                Ok(Pattern::Array(items))
            }
            Tok::Punct("{") => {
                let mut members = Vec::new();
                loop {
                    let tok = self.bump();
                    let (key, var) = match tok {
                        Tok::Var(name) => (Ast::Lit(Value::Str(name.clone())), Some(Self::slot(names, name))),
                        Tok::Ident(name) => (Ast::Lit(Value::Str(name)), None),
                        Tok::Quote => (self.string_body(None)?, None),
                        Tok::Punct("(") => {
                            let e = self.exp(PIPE)?;
                            self.expect(")")?;
                            (e, None)
                        }
                        _ => return self.unexpected(),
                    };
                    let sub = if self.is_punct(":") {
                        self.bump();
                        Some(self.pattern(names)?)
                    } else {
                        if var.is_none() {
                            return self.unexpected();
                        }
                        None
                    };
                    members.push((key, var, sub));
                    if self.is_punct(",") {
                        self.bump();
                        continue;
                    }
                    self.expect("}")?;
                    break;
                }
                Ok(Pattern::Object(members))
            }
            _ => {
                self.lx.pos = self.lx.pos.saturating_sub(1);
                self.unexpected()
            }
        }
    }

    fn postfix_term(&mut self) -> R<Ast> {
        let t = self.term()?;
        self.postfix(t)
    }

    /// The suffixes after a term: `.name`, `[...]`, `?`.
    fn postfix(&mut self, mut t: Ast) -> R<Ast> {
        loop {
            let tok = self.peek().clone();
            match tok {
                Tok::Field(name) => {
                    self.bump();
                    t = Ast::Index(Box::new(t), Box::new(Ast::Lit(Value::Str(name))));
                }
                Tok::Punct(".") => {
                    // `t."name"` or `t.[...]`
                    let save = (self.lx.pos, self.peeked.clone());
                    self.bump();
                    if *self.peek() == Tok::Quote {
                        self.bump();
                        let key = self.string_body(None)?;
                        t = Ast::Index(Box::new(t), Box::new(key));
                    } else if self.is_punct("[") {
                        t = self.bracket_suffix(t)?;
                    } else {
                        self.lx.pos = save.0;
                        self.peeked = save.1;
                        return self.unexpected_after_dot();
                    }
                }
                Tok::Punct("[") => t = self.bracket_suffix(t)?,
                Tok::Punct("?") => {
                    self.bump();
                    t = Ast::Try(Box::new(t), None);
                }
                _ => break,
            }
        }
        Ok(t)
    }

    fn unexpected_after_dot<T>(&mut self) -> R<T> {
        self.bump();
        self.unexpected()
    }

    fn bracket_suffix(&mut self, t: Ast) -> R<Ast> {
        self.nested(|p| p.bracket_suffix_inner(t))
    }

    fn bracket_suffix_inner(&mut self, t: Ast) -> R<Ast> {
        self.expect("[")?;
        if self.is_punct("]") {
            self.bump();
            return Ok(Ast::Each(Box::new(t)));
        }
        if self.is_punct(":") {
            self.bump();
            let to = self.exp(PIPE)?;
            self.expect("]")?;
            return Ok(Ast::Slice(Box::new(t), None, Some(Box::new(to))));
        }
        let e = self.exp(PIPE)?;
        if self.is_punct(":") {
            self.bump();
            if self.is_punct("]") {
                self.bump();
                return Ok(Ast::Slice(Box::new(t), Some(Box::new(e)), None));
            }
            let to = self.exp(PIPE)?;
            self.expect("]")?;
            return Ok(Ast::Slice(Box::new(t), Some(Box::new(e)), Some(Box::new(to))));
        }
        self.expect("]")?;
        Ok(Ast::Index(Box::new(t), Box::new(e)))
    }

    fn term(&mut self) -> R<Ast> {
        self.at_top = false;
        let peeked = self.peek().clone();
        let usable = match &peeked {
            Tok::Num(..) | Tok::Quote | Tok::Format(_) | Tok::Field(_) | Tok::Var(_) => true,
            Tok::Punct(p) => matches!(*p, "." | ".." | "(" | "[" | "{"),
            Tok::Ident(name) => !KEYWORDS.contains(&&**name) || &**name == "__loc__",
            _ => false,
        };
        if !usable {
            return self.unexpected();
        }
        self.token_start = self.peeked.as_ref().map(|p| p.1).unwrap_or(self.lx.pos);
        let tok = self.bump();
        match tok {
            Tok::Num(n, text) => Ok(Ast::Lit(Value::Num(n, Some(text)))),
            Tok::Quote => self.string_body(None),
            Tok::Format(name) => {
                if *self.peek() == Tok::Quote {
                    self.bump();
                    return self.string_body(Some(name));
                }
                Ok(Ast::Format(name))
            }
            Tok::Field(name) => Ok(Ast::Index(Box::new(Ast::Identity), Box::new(Ast::Lit(Value::Str(name))))),
            Tok::Punct(".") => {
                if *self.peek() == Tok::Quote {
                    self.bump();
                    let key = self.string_body(None)?;
                    return Ok(Ast::Index(Box::new(Ast::Identity), Box::new(key)));
                }
                Ok(Ast::Identity)
            }
            Tok::Punct("..") => Ok(Ast::RecurseAll),
            Tok::Punct("(") => {
                let e = self.nested(|p| p.exp(PIPE))?;
                self.expect(")")?;
                Ok(e)
            }
            Tok::Punct("[") => {
                if self.is_punct("]") {
                    self.bump();
                    return Ok(Ast::Array(None));
                }
                let e = self.nested(|p| p.exp(PIPE))?;
                self.expect("]")?;
                Ok(Ast::Array(Some(Box::new(e))))
            }
            Tok::Punct("{") => self.nested(|p| p.object()),
            Tok::Var(name) => self.variable(&name),
            Tok::Ident(name) if &*name == "break" => {
                let Tok::Var(label) = self.bump() else {
                    return self.unexpected();
                };
                let found = self.scope.iter().rev().position(|e| matches!(e, Entry::Label(l) if *l == label));
                match found {
                    Some(hops) => Ok(Ast::Break(hops)),
                    None => Err(self.not_defined(&format!("$*label-{label}"))),
                }
            }
            Tok::Ident(name) if &*name == "true" || &*name == "false" => Ok(Ast::Lit(Value::Bool(&*name == "true"))),
            Tok::Ident(name) if &*name == "null" => Ok(Ast::Lit(Value::Null)),
            Tok::Ident(name) if !KEYWORDS.contains(&&*name) || &*name == "__loc__" => self.call(name),
            _ => self.unexpected(),
        }
    }

    /// Parses with `f` inside brackets, where `as` binds again.
    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> R<T>) -> R<T> {
        let outer = std::mem::replace(&mut self.in_source, false);
        let r = f(self);
        self.in_source = outer;
        r
    }

    fn variable(&mut self, name: &Rc<str>) -> R<Ast> {
        if &**name == "__loc__" {
            let mut m = Map::new();
            m.insert(Rc::from("file"), Value::Str(self.origin.clone()));
            m.insert(Rc::from("line"), Value::num(self.lx.line() as f64));
            return Ok(Ast::Lit(Value::Obj(Rc::new(m))));
        }
        if let Some(hops) = self.scope.iter().rev().position(|e| matches!(e, Entry::Var(v) if v == name)) {
            return Ok(Ast::Var(VarRef::Local(hops)));
        }
        if let Some((_, i)) = self.prog.vars.iter().rev().find(|(g, _)| g == name) {
            return Ok(Ast::Var(VarRef::Global(*i)));
        }
        let err = self.not_defined(&format!("${name}"));
        self.errors.push(err.0);
        Ok(Ast::Lit(Value::Null))
    }

    fn call(&mut self, name: Rc<str>) -> R<Ast> {
        let start = self.token_start;
        let mut args = Vec::new();
        if self.is_punct("(") {
            self.bump();
            loop {
                args.push(self.exp(PIPE)?);
                if self.is_punct(";") {
                    self.bump();
                    continue;
                }
                self.expect(")")?;
                break;
            }
        }
        let arity = args.len();
        let mut hops = 0;
        for entry in self.scope.iter().rev() {
            match entry {
                Entry::Func(n, a) if *n == name && *a == arity => return Ok(Ast::Call(Target::Local(hops), args)),
                Entry::Param(n) if *n == name && arity == 0 => return Ok(Ast::Call(Target::Param(hops), args)),
                _ => {}
            }
            hops += 1;
        }
        if let Some((_, _, index)) = self.prog.globals.iter().rev().find(|(n, a, _)| *n == name && *a == arity) {
            return Ok(Ast::Call(Target::Global(*index), args));
        }
        if let Some(index) = native_index(&name, arity) {
            return Ok(Ast::Call(Target::Native(index), args));
        }
        if let Some(pending) = &mut self.pending {
            pending.push((name, arity));
            return Ok(Ast::Call(Target::Pending(pending.len() - 1), args));
        }
        self.token_start = start;
        let err = self.not_defined(&format!("{name}/{arity}"));
        self.errors.push(err.0);
        Ok(Ast::Lit(Value::Null))
    }

    fn object(&mut self) -> R<Ast> {
        let mut members = Vec::new();
        if self.is_punct("}") {
            self.bump();
            return Ok(Ast::Object(members));
        }
        loop {
            let tok = self.bump();
            let (key, shorthand): (Ast, Option<Ast>) = match tok {
                Tok::Var(name) => {
                    let value = self.variable(&name)?;
                    if self.is_punct(":") {
                        // `{$k: v}`: the variable's value is the key.
                        (value, None)
                    } else {
                        let key = if &*name == "__loc__" { Rc::from("__loc__") } else { name };
                        (Ast::Lit(Value::Str(key)), Some(value))
                    }
                }
                Tok::Ident(name) => {
                    let short = Ast::Index(Box::new(Ast::Identity), Box::new(Ast::Lit(Value::Str(name.clone()))));
                    (Ast::Lit(Value::Str(name)), Some(short))
                }
                Tok::Num(_, text) => (Ast::Lit(Value::Str(Rc::from(text.as_str()))), None),
                Tok::Quote => {
                    let key = self.string_body(None)?;
                    (key, None)
                }
                Tok::Format(name) => {
                    if *self.peek() == Tok::Quote {
                        self.bump();
                        (self.string_body(Some(name))?, None)
                    } else {
                        (Ast::Format(name), None)
                    }
                }
                Tok::Punct("(") => {
                    let e = self.exp(PIPE)?;
                    self.expect(")")?;
                    (e, None)
                }
                _ => return self.unexpected(),
            };
            let value = if self.is_punct(":") {
                self.bump();
                self.object_value()?
            } else {
                match shorthand {
                    Some(v) => v,
                    None => {
                        if matches!(key, Ast::Str(..) | Ast::Lit(_)) {
                            // `{"a"}` and `{"\(x)"}` take `.[key]`.
                            let k = Box::new(self.reparse_key(&key)?);
                            Ast::Index(Box::new(Ast::Identity), k)
                        } else {
                            return self.unexpected();
                        }
                    }
                }
            };
            members.push((key, value));
            if self.is_punct(",") {
                self.bump();
                continue;
            }
            if !self.is_punct("}") {
                // bison names the one token it wanted here.
                let tok = self.peek().clone();
                let start = self.peeked.as_ref().map(|p| p.1).unwrap_or(self.lx.pos);
                let message = format!("syntax error, unexpected {}, expecting '}}' (Unix shell quoting issues?)", describe(&tok));
                return Err(self.located(&message, start));
            }
            self.bump();
            break;
        }
        Ok(Ast::Object(members))
    }

    fn reparse_key(&mut self, key: &Ast) -> R<Ast> {
        Ok(key.clone())
    }

    /// An object member's value: pipes of expressions without `,` (jq
    /// 1.8's grammar; 1.7.1 allows only terms, `-` and `|` here).
    fn object_value(&mut self) -> R<Ast> {
        let mut lhs = self.exp(ALT)?;
        while self.is_punct("|") {
            self.bump();
            let rhs = self.exp(ALT)?;
            lhs = Ast::Pipe(Box::new(lhs), Box::new(rhs));
        }
        Ok(lhs)
    }

    /// Reads a string literal after its opening quote.
    fn string_body(&mut self, format: Option<Rc<str>>) -> R<Ast> {
        self.peeked = None;
        let mut parts = Vec::new();
        let mut text = String::new();
        loop {
            let Some(c) = self.lx.at(0) else {
                return self.fail("syntax error, unexpected end of file (Unix shell quoting issues?)");
            };
            self.lx.pos += 1;
            match c {
                '"' => break,
                '\\' => {
                    let Some(e) = self.lx.at(0) else {
                        return self.fail("syntax error, unexpected end of file (Unix shell quoting issues?)");
                    };
                    self.lx.pos += 1;
                    match e {
                        'n' => text.push('\n'),
                        't' => text.push('\t'),
                        'r' => text.push('\r'),
                        'b' => text.push('\u{8}'),
                        'f' => text.push('\u{c}'),
                        '\\' => text.push('\\'),
                        '/' => text.push('/'),
                        '"' => text.push('"'),
                        'u' => {
                            let hex: String = (0..4).filter_map(|i| self.lx.at(i)).collect();
                            let Ok(unit) = u32::from_str_radix(&hex, 16) else {
                                return self.fail("syntax error, unexpected INVALID_CHARACTER (Unix shell quoting issues?)");
                            };
                            self.lx.pos += 4;
                            let mut c = char::from_u32(unit);
                            if (0xd800..0xdc00).contains(&unit) && self.lx.at(0) == Some('\\') && self.lx.at(1) == Some('u') {
                                let hex: String = (2..6).filter_map(|i| self.lx.at(i)).collect();
                                if let Ok(low) = u32::from_str_radix(&hex, 16) {
                                    if (0xdc00..0xe000).contains(&low) {
                                        self.lx.pos += 6;
                                        c = char::from_u32(0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00));
                                    }
                                }
                            }
                            text.push(c.unwrap_or('\u{fffd}'));
                        }
                        '(' => {
                            if !text.is_empty() {
                                parts.push(Part::Text(std::mem::take(&mut text)));
                            }
                            let e = self.nested(|p| p.exp(PIPE))?;
                            self.expect(")")?;
                            self.peeked = None;
                            parts.push(Part::Interp(e));
                        }
                        _ => {
                            return self.fail("syntax error, unexpected INVALID_CHARACTER (Unix shell quoting issues?)");
                        }
                    }
                }
                c => text.push(c),
            }
        }
        if !text.is_empty() || parts.is_empty() {
            parts.push(Part::Text(text));
        }
        if format.is_none() && parts.len() == 1 {
            if let Some(Part::Text(t)) = parts.first() {
                return Ok(Ast::Lit(Value::str(t)));
            }
        }
        Ok(Ast::Str(format, parts))
    }
}

/// The value of a constant expression (literals, and arrays and objects of
/// them), as jq folds module metadata.
fn constant(ast: &Ast) -> Option<Value> {
    match ast {
        Ast::Lit(v) => Some(v.clone()),
        Ast::Neg(e) => match constant(e)? {
            Value::Num(n, _) => Some(Value::num(-n)),
            _ => None,
        },
        Ast::Array(None) => Some(Value::arr(Vec::new())),
        Ast::Array(Some(e)) => {
            fn items(e: &Ast, out: &mut Vec<Value>) -> Option<()> {
                match e {
                    Ast::Comma(a, b) => {
                        items(a, out)?;
                        items(b, out)
                    }
                    _ => {
                        out.push(constant(e)?);
                        Some(())
                    }
                }
            }
            let mut out = Vec::new();
            items(e, &mut out)?;
            Some(Value::arr(out))
        }
        Ast::Object(members) => {
            let mut m = Map::new();
            for (k, v) in members {
                let Value::Str(k) = &constant(k)? else { return None };
                m.insert(k.clone(), constant(v)?);
            }
            Some(Value::Obj(Rc::new(m)))
        }
        _ => None,
    }
}
