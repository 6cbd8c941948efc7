//! bc's grammar: a recursive-descent parser that reads one top-level item
//! at a time (a line of statements or a function definition) and compiles
//! it to [`Inst`]s, counting GNU bc's code addresses as it goes.

use super::code::{BinOp, Function, Inst, Local, Op, Slot};
use super::lex::{LexError, Lexer, Tok};
use std::rc::Rc;

/// What one parse step produced.
pub enum Item {
    /// A line of statements to run.
    Code(Vec<Inst>),
    /// A function definition.
    Function(Function),
    /// `quit` was read: stop at once.
    Quit,
    /// The input ended.
    Eof,
    /// The item had errors (already reported); nothing to run.
    Discarded,
    /// A lexical error that ends bc (`EOF encountered in a comment.`).
    Fatal(String),
}

/// An expression tree, compiled after parsing so its GNU size is known.
enum Expr {
    Num(String),
    Load(Place),
    Assign(Place, Option<BinOp>, Box<Expr>),
    Step(Place, i8, bool),
    Neg(Box<Expr>),
    Not(Box<Expr>),
    Bin(BinOp, Box<Expr>, Box<Expr>),
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
    Call(Rc<str>, Vec<Arg>),
    Builtin(Op, Box<Expr>),
    Read,
    Paren(Box<Expr>),
}

enum Place {
    Slot(Slot),
    Elem(Rc<str>, Box<Expr>),
}

enum Arg {
    Value(Expr),
    Array(Rc<str>),
}

/// A syntax error: stop the item.
struct Syntax;

type PResult<T> = Result<T, Syntax>;

struct Loop {
    breaks: Vec<usize>,
    continue_to: Option<usize>,
}

/// The parser over one input, with the name used in its messages.
pub struct Parser<'a> {
    lex: Lexer<'a>,
    tok: Option<Tok>,
    /// Messages to print (in order) before running the item.
    pub messages: Vec<String>,
    code: Vec<Inst>,
    pc: u32,
    loops: Vec<Loop>,
    in_function: bool,
    item_error: bool,
    quit: bool,
    fatal: Option<String>,
    voids: Vec<String>,
}

fn assign_op(op: &str) -> Option<Option<BinOp>> {
    Some(match op {
        "=" => None,
        "+=" => Some(BinOp::Add),
        "-=" => Some(BinOp::Sub),
        "*=" => Some(BinOp::Mul),
        "/=" => Some(BinOp::Div),
        "%=" => Some(BinOp::Rem),
        "^=" => Some(BinOp::Pow),
        _ => return None,
    })
}

fn rel_op(op: &str) -> Option<BinOp> {
    Some(match op {
        "==" => BinOp::Eq,
        "!=" => BinOp::Ne,
        "<" => BinOp::Lt,
        "<=" => BinOp::Le,
        ">" => BinOp::Gt,
        ">=" => BinOp::Ge,
        _ => return None,
    })
}

impl<'a> Parser<'a> {
    /// A parser of `src`, made of `inputs` (start offset and name in messages each).
    pub fn new(src: &'a [u8], inputs: &'a [(usize, String)]) -> Self {
        Parser {
            lex: Lexer::new(src, inputs),
            tok: None,
            messages: Vec::new(),
            code: Vec::new(),
            pc: 0,
            loops: Vec::new(),
            in_function: false,
            item_error: false,
            quit: false,
            fatal: None,
            voids: Vec::new(),
        }
    }

    fn peek(&mut self) -> &Tok {
        if self.tok.is_none() {
            let tok = loop {
                match self.lex.next() {
                    Ok(tok) => break tok,
                    Err(LexError { message, fatal: true }) => {
                        self.fatal = Some(message);
                        break Tok::Eof;
                    }
                    Err(LexError { message, .. }) => {
                        self.error(&message);
                    }
                }
            };
            self.tok = Some(tok);
        }
        self.tok.as_ref().unwrap_or(&Tok::Eof)
    }

    fn bump(&mut self) -> Tok {
        self.peek();
        self.tok.take().unwrap_or(Tok::Eof)
    }

    fn is_op(&mut self, op: &str) -> bool {
        matches!(self.peek(), Tok::Op(o) if *o == op)
    }

    fn is_key(&mut self, key: &str) -> bool {
        matches!(self.peek(), Tok::Key(k) if *k == key)
    }

    fn expect_op(&mut self, op: &str) -> PResult<()> {
        if self.is_op(op) {
            self.bump();
            Ok(())
        } else {
            Err(Syntax)
        }
    }

    /// Reports `message` at the current line and marks the item bad.
    fn error(&mut self, message: &str) {
        self.messages.push(format!("{} {}: {}\n", self.lex.file(), self.lex.line, message));
        self.item_error = true;
    }

    fn emit(&mut self, op: Op, size: u32) -> usize {
        self.pc += size;
        self.code.push(Inst { op, adr: self.pc });
        self.code.len() - 1
    }

    fn patch(&mut self, at: usize, target: usize) {
        if let Some(inst) = self.code.get_mut(at) {
            match &mut inst.op {
                Op::Jump(to) | Op::JumpZero(to) => *to = target,
                _ => {}
            }
        }
    }

    /// Parses and compiles the next top-level item.
    pub fn next_item(&mut self) -> Item {
        self.code.clear();
        self.pc = 0;
        self.item_error = false;
        self.loops.clear();
        let result = self.item();
        if self.quit {
            return Item::Quit;
        }
        if let Some(message) = self.fatal.take() {
            return Item::Fatal(message);
        }
        match result {
            Ok(Some(item)) => {
                if self.item_error {
                    Item::Discarded
                } else {
                    item
                }
            }
            Ok(None) => Item::Eof,
            Err(Syntax) => {
                // yacc's recovery: report, then drop the rest of the line.
                let at_newline = matches!(self.tok, Some(Tok::Newline));
                self.error("syntax error");
                if !at_newline && !matches!(self.tok, Some(Tok::Eof)) {
                    self.tok = None;
                    self.lex.skip_line();
                }
                self.tok = None;
                self.in_function = false;
                if self.quit {
                    return Item::Quit;
                }
                Item::Discarded
            }
        }
    }

    fn item(&mut self) -> PResult<Option<Item>> {
        if matches!(self.peek(), Tok::Eof) {
            return Ok(None);
        }
        if self.is_key("define") {
            return self.function().map(Some);
        }
        loop {
            if !self.is_op(";") && !matches!(self.peek(), Tok::Newline | Tok::Eof) {
                self.statement()?;
            }
            match self.peek() {
                Tok::Op(";") => {
                    self.bump();
                }
                Tok::Newline => {
                    self.bump();
                    break;
                }
                Tok::Eof => return Err(Syntax),
                _ => return Err(Syntax),
            }
            if self.quit {
                break;
            }
        }
        Ok(Some(Item::Code(std::mem::take(&mut self.code))))
    }

    fn skip_newlines(&mut self) {
        while matches!(self.peek(), Tok::Newline) {
            self.bump();
        }
    }

    fn function(&mut self) -> PResult<Item> {
        self.bump();
        let void = if self.is_key("void") {
            self.bump();
            true
        } else {
            false
        };
        let Tok::Name(name) = self.bump() else {
            return Err(Syntax);
        };
        self.expect_op("(")?;
        let mut params: Vec<Local> = Vec::new();
        if !self.is_op(")") {
            loop {
                let by_ref = self.is_op("*");
                if by_ref {
                    self.bump();
                }
                let Tok::Name(param) = self.bump() else {
                    return Err(Syntax);
                };
                let array = self.is_op("[");
                if array {
                    self.bump();
                    self.expect_op("]")?;
                } else if by_ref {
                    return Err(Syntax);
                }
                if params.iter().any(|p| &*p.name == param.as_str() && p.array == array) {
                    self.error("duplicate parameter names");
                }
                params.push(Local { name: param.into(), array, by_ref });
                if self.is_op(",") {
                    self.bump();
                    continue;
                }
                break;
            }
        }
        self.expect_op(")")?;
        self.skip_newlines();
        self.expect_op("{")?;
        self.skip_newlines();
        let mut autos: Vec<Local> = Vec::new();
        if self.is_key("auto") {
            self.bump();
            loop {
                let Tok::Name(auto) = self.bump() else {
                    return Err(Syntax);
                };
                let array = self.is_op("[");
                if array {
                    self.bump();
                    self.expect_op("]")?;
                }
                if autos.iter().chain(params.iter()).any(|p| &*p.name == auto.as_str() && p.array == array) {
                    self.error("duplicate auto variable names");
                }
                autos.push(Local { name: auto.into(), array, by_ref: false });
                if self.is_op(",") {
                    self.bump();
                    continue;
                }
                break;
            }
            if self.is_op(";") || matches!(self.peek(), Tok::Newline) {
                self.bump();
            } else {
                return Err(Syntax);
            }
        }
        self.in_function = true;
        let body = self.statement_list();
        self.in_function = false;
        body?;
        self.expect_op("}")?;
        self.emit(Op::ReturnZero, 2);
        self.voids.retain(|v| *v != name);
        if void {
            self.voids.push(name.clone());
        }
        Ok(Item::Function(Function { name: name.into(), params, autos, code: std::mem::take(&mut self.code), void }))
    }

    /// Statements separated by newlines or `;`, up to a `}`.
    fn statement_list(&mut self) -> PResult<()> {
        loop {
            match self.peek() {
                Tok::Newline | Tok::Op(";") => {
                    self.bump();
                }
                Tok::Op("}") => return Ok(()),
                Tok::Eof => return Err(Syntax),
                _ => {
                    self.statement()?;
                    if !matches!(self.peek(), Tok::Newline | Tok::Op(";") | Tok::Op("}")) {
                        return Err(Syntax);
                    }
                }
            }
            if self.quit {
                return Ok(());
            }
        }
    }

    fn statement(&mut self) -> PResult<()> {
        match self.peek().clone() {
            Tok::Str(text) => {
                self.bump();
                let size = text.len() as u32 + 2;
                self.emit(Op::WriteStr(text.into()), size);
            }
            Tok::Op("{") => {
                self.bump();
                self.statement_list()?;
                self.expect_op("}")?;
            }
            Tok::Key("quit") => {
                self.bump();
                self.quit = true;
            }
            Tok::Key("halt") => {
                self.bump();
                self.emit(Op::Halt, 1);
            }
            Tok::Key("limits") => {
                self.bump();
                self.emit(Op::Limits, 0);
            }
            Tok::Key("warranty") => {
                self.bump();
            }
            Tok::Key("break") => {
                self.bump();
                if self.loops.is_empty() {
                    self.error("Break outside a for/while");
                    return Ok(());
                }
                let at = self.emit(Op::Jump(0), 3);
                if let Some(l) = self.loops.last_mut() {
                    l.breaks.push(at);
                }
            }
            Tok::Key("continue") => {
                self.bump();
                match self.loops.iter().rev().find_map(|l| l.continue_to) {
                    Some(target) => {
                        self.emit(Op::Jump(target), 3);
                    }
                    None => self.error("Continue outside a for"),
                }
            }
            Tok::Key("return") => {
                self.bump();
                if matches!(self.peek(), Tok::Newline | Tok::Eof | Tok::Op(";") | Tok::Op("}")) {
                    self.emit(Op::ReturnZero, 2);
                } else {
                    let expr = self.expr()?;
                    self.compile(&expr);
                    self.emit(Op::Return, 1);
                }
                if !self.in_function {
                    self.peek();
                    self.error("Return outside of a function.");
                }
            }
            Tok::Key("print") => {
                self.bump();
                loop {
                    if let Tok::Str(text) = self.peek().clone() {
                        self.bump();
                        let size = text.len() as u32 + 2;
                        self.emit(Op::PrintStr(text.into()), size);
                    } else {
                        let expr = self.expr()?;
                        self.compile(&expr);
                        self.emit(Op::PrintValue, 1);
                    }
                    if !self.is_op(",") {
                        break;
                    }
                    self.bump();
                }
            }
            Tok::Key("if") => {
                self.bump();
                self.expect_op("(")?;
                let cond = self.expr()?;
                self.expect_op(")")?;
                self.skip_newlines();
                self.compile(&cond);
                let skip = self.emit(Op::JumpZero(0), 3);
                self.statement()?;
                if self.is_key("else") {
                    self.bump();
                    let over = self.emit(Op::Jump(0), 3);
                    let here = self.code.len();
                    self.patch(skip, here);
                    self.skip_newlines();
                    self.statement()?;
                    let end = self.code.len();
                    self.patch(over, end);
                } else {
                    let here = self.code.len();
                    self.patch(skip, here);
                }
            }
            Tok::Key("while") => {
                self.bump();
                self.expect_op("(")?;
                let cond = self.expr()?;
                self.expect_op(")")?;
                self.skip_newlines();
                let top = self.code.len();
                self.compile(&cond);
                let exit = self.emit(Op::JumpZero(0), 3);
                self.loops.push(Loop { breaks: vec![exit], continue_to: Some(top) });
                let body = self.statement();
                self.emit(Op::Jump(top), 3);
                self.close_loop();
                body?;
            }
            Tok::Key("for") => self.for_statement()?,
            _ => {
                let expr = self.expr()?;
                let assign = matches!(expr, Expr::Assign(..));
                self.compile(&expr);
                if assign {
                    self.emit(Op::Pop, 1);
                } else {
                    self.emit(Op::Print, 1);
                }
            }
        }
        Ok(())
    }

    fn close_loop(&mut self) {
        if let Some(l) = self.loops.pop() {
            let end = self.code.len();
            for at in l.breaks {
                self.patch(at, end);
            }
        }
    }

    fn opt_expr(&mut self, end: &str) -> PResult<Option<Expr>> {
        if self.is_op(end) {
            return Ok(None);
        }
        self.expr().map(Some)
    }

    fn for_statement(&mut self) -> PResult<()> {
        self.bump();
        self.expect_op("(")?;
        if let Some(init) = self.opt_expr(";")? {
            self.compile(&init);
            self.emit(Op::Pop, 1);
        }
        self.expect_op(";")?;
        let cond_at = self.code.len();
        match self.opt_expr(";")? {
            Some(cond) => self.compile(&cond),
            None => {
                self.emit(Op::Const("1".into()), 1);
            }
        }
        self.expect_op(";")?;
        let exit = self.emit(Op::JumpZero(0), 3);
        let to_body = self.emit(Op::Jump(0), 3);
        let incr_at = self.code.len();
        if let Some(incr) = self.opt_expr(")")? {
            self.compile(&incr);
            self.emit(Op::Pop, 1);
        }
        self.emit(Op::Jump(cond_at), 3);
        self.expect_op(")")?;
        self.skip_newlines();
        let body_at = self.code.len();
        self.patch(to_body, body_at);
        self.loops.push(Loop { breaks: vec![exit], continue_to: Some(incr_at) });
        let body = self.statement();
        self.emit(Op::Jump(incr_at), 3);
        self.close_loop();
        body
    }

    // ---- expressions ----

    fn expr(&mut self) -> PResult<Expr> {
        self.or_expr()
    }

    fn or_expr(&mut self) -> PResult<Expr> {
        let mut left = self.and_expr()?;
        while self.is_op("||") {
            self.bump();
            let right = self.and_expr()?;
            left = Expr::Or(Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn and_expr(&mut self) -> PResult<Expr> {
        let mut left = self.not_expr()?;
        while self.is_op("&&") {
            self.bump();
            let right = self.not_expr()?;
            left = Expr::And(Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn not_expr(&mut self) -> PResult<Expr> {
        if self.is_op("!") {
            self.bump();
            let operand = self.not_expr()?;
            return Ok(Expr::Not(Box::new(operand)));
        }
        self.rel_expr()
    }

    fn rel_expr(&mut self) -> PResult<Expr> {
        let mut left = self.add_expr()?;
        loop {
            let op = match self.peek() {
                Tok::Op(o) => rel_op(o),
                _ => None,
            };
            let Some(op) = op else { break };
            self.bump();
            let right = self.add_expr()?;
            left = Expr::Bin(op, Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn add_expr(&mut self) -> PResult<Expr> {
        let mut left = self.mul_expr()?;
        loop {
            let op = if self.is_op("+") {
                BinOp::Add
            } else if self.is_op("-") {
                BinOp::Sub
            } else {
                break;
            };
            self.bump();
            let right = self.mul_expr()?;
            left = Expr::Bin(op, Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn mul_expr(&mut self) -> PResult<Expr> {
        let mut left = self.pow_expr()?;
        loop {
            let op = if self.is_op("*") {
                BinOp::Mul
            } else if self.is_op("/") {
                BinOp::Div
            } else if self.is_op("%") {
                BinOp::Rem
            } else {
                break;
            };
            self.bump();
            let right = self.pow_expr()?;
            left = Expr::Bin(op, Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn pow_expr(&mut self) -> PResult<Expr> {
        let base = self.unary()?;
        if self.is_op("^") {
            self.bump();
            let exponent = self.pow_expr()?;
            return Ok(Expr::Bin(BinOp::Pow, Box::new(base), Box::new(exponent)));
        }
        Ok(base)
    }

    fn unary(&mut self) -> PResult<Expr> {
        if self.is_op("-") {
            self.bump();
            let operand = self.unary()?;
            return Ok(Expr::Neg(Box::new(operand)));
        }
        if self.is_op("!") {
            self.bump();
            let operand = self.rel_expr()?;
            return Ok(Expr::Not(Box::new(operand)));
        }
        if self.is_op("++") || self.is_op("--") {
            let delta = if self.is_op("++") { 1 } else { -1 };
            self.bump();
            let place = self.place()?;
            return Ok(Expr::Step(place, delta, false));
        }
        self.primary()
    }

    /// A named expression (variable, element or special variable).
    fn place(&mut self) -> PResult<Place> {
        match self.bump() {
            Tok::Name(name) => {
                if self.is_op("[") {
                    self.bump();
                    let index = self.expr()?;
                    self.expect_op("]")?;
                    Ok(Place::Elem(name.into(), Box::new(index)))
                } else {
                    Ok(Place::Slot(Slot::Var(name.into())))
                }
            }
            Tok::Key("scale") => Ok(Place::Slot(Slot::Scale)),
            Tok::Key("ibase") => Ok(Place::Slot(Slot::Ibase)),
            Tok::Key("obase") => Ok(Place::Slot(Slot::Obase)),
            Tok::Key("last") => Ok(Place::Slot(Slot::Last)),
            _ => Err(Syntax),
        }
    }

    fn after_place(&mut self, place: Place) -> PResult<Expr> {
        if let Tok::Op(o) = self.peek() {
            if let Some(op) = assign_op(o) {
                self.bump();
                let value = self.expr()?;
                if matches!(&value, Expr::Call(name, _) if self.voids.iter().any(|v| **v == **name)) {
                    self.error("Assignment of a void expression");
                }
                return Ok(Expr::Assign(place, op, Box::new(value)));
            }
            if *o == "++" || *o == "--" {
                let delta = if *o == "++" { 1 } else { -1 };
                self.bump();
                return Ok(Expr::Step(place, delta, true));
            }
        }
        Ok(Expr::Load(place))
    }

    fn builtin_arg(&mut self) -> PResult<Expr> {
        self.expect_op("(")?;
        let arg = self.expr()?;
        self.expect_op(")")?;
        Ok(arg)
    }

    fn primary(&mut self) -> PResult<Expr> {
        match self.peek().clone() {
            Tok::Number(text) => {
                self.bump();
                Ok(Expr::Num(text))
            }
            Tok::Op("(") => {
                self.bump();
                let inner = self.expr()?;
                self.expect_op(")")?;
                Ok(Expr::Paren(Box::new(inner)))
            }
            Tok::Key("length") => {
                self.bump();
                Ok(Expr::Builtin(Op::Length, Box::new(self.builtin_arg()?)))
            }
            Tok::Key("sqrt") => {
                self.bump();
                Ok(Expr::Builtin(Op::Sqrt, Box::new(self.builtin_arg()?)))
            }
            Tok::Key("read") => {
                self.bump();
                self.expect_op("(")?;
                self.expect_op(")")?;
                Ok(Expr::Read)
            }
            Tok::Key("scale") => {
                self.bump();
                if self.is_op("(") {
                    return Ok(Expr::Builtin(Op::ScaleOf, Box::new(self.builtin_arg()?)));
                }
                self.after_place(Place::Slot(Slot::Scale))
            }
            Tok::Name(name) => {
                self.bump();
                if self.is_op("(") {
                    self.bump();
                    let args = self.call_args()?;
                    return Ok(Expr::Call(name.into(), args));
                }
                let place = if self.is_op("[") {
                    self.bump();
                    let index = self.expr()?;
                    self.expect_op("]")?;
                    Place::Elem(name.into(), Box::new(index))
                } else {
                    Place::Slot(Slot::Var(name.into()))
                };
                self.after_place(place)
            }
            Tok::Key("ibase" | "obase" | "last") => {
                let place = self.place()?;
                self.after_place(place)
            }
            _ => Err(Syntax),
        }
    }

    fn call_args(&mut self) -> PResult<Vec<Arg>> {
        let mut args = Vec::new();
        if self.is_op(")") {
            self.bump();
            return Ok(args);
        }
        loop {
            let array_name = match self.peek() {
                Tok::Name(name) => Some(name.clone()),
                _ => None,
            };
            let mut pushed = false;
            if let Some(name) = array_name {
                // `name[]` passes an array; otherwise it starts an expression.
                self.bump();
                if self.is_op("[") {
                    self.bump();
                    if self.is_op("]") {
                        self.bump();
                        args.push(Arg::Array(name.into()));
                        pushed = true;
                    } else {
                        let index = self.expr()?;
                        self.expect_op("]")?;
                        let first = self.after_place(Place::Elem(name.into(), Box::new(index)))?;
                        args.push(Arg::Value(self.continue_expr(first)?));
                        pushed = true;
                    }
                } else if self.is_op("(") {
                    self.bump();
                    let inner = self.call_args()?;
                    let first = Expr::Call(name.into(), inner);
                    args.push(Arg::Value(self.continue_expr(first)?));
                    pushed = true;
                } else {
                    let first = self.after_place(Place::Slot(Slot::Var(name.into())))?;
                    args.push(Arg::Value(self.continue_expr(first)?));
                    pushed = true;
                }
            }
            if !pushed {
                args.push(Arg::Value(self.expr()?));
            }
            if self.is_op(",") {
                self.bump();
                continue;
            }
            self.expect_op(")")?;
            return Ok(args);
        }
    }

    /// Continues an expression whose first operand is already parsed.
    fn continue_expr(&mut self, first: Expr) -> PResult<Expr> {
        let mut left = first;
        if self.is_op("^") {
            self.bump();
            let exponent = self.pow_expr()?;
            left = Expr::Bin(BinOp::Pow, Box::new(left), Box::new(exponent));
        }
        loop {
            let op = match self.peek() {
                Tok::Op("*") => BinOp::Mul,
                Tok::Op("/") => BinOp::Div,
                Tok::Op("%") => BinOp::Rem,
                _ => break,
            };
            self.bump();
            let right = self.pow_expr()?;
            left = Expr::Bin(op, Box::new(left), Box::new(right));
        }
        loop {
            let op = match self.peek() {
                Tok::Op("+") => BinOp::Add,
                Tok::Op("-") => BinOp::Sub,
                _ => break,
            };
            self.bump();
            let right = self.mul_expr()?;
            left = Expr::Bin(op, Box::new(left), Box::new(right));
        }
        loop {
            let op = match self.peek() {
                Tok::Op(o) => rel_op(o),
                _ => None,
            };
            let Some(op) = op else { break };
            self.bump();
            let right = self.add_expr()?;
            left = Expr::Bin(op, Box::new(left), Box::new(right));
        }
        while self.is_op("&&") {
            self.bump();
            let right = self.not_expr()?;
            left = Expr::And(Box::new(left), Box::new(right));
        }
        while self.is_op("||") {
            self.bump();
            let right = self.and_expr()?;
            left = Expr::Or(Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    // ---- code generation ----

    fn load_place_index(&mut self, place: &Place) {
        if let Place::Elem(_, index) = place {
            self.compile(index);
        }
    }

    fn compile(&mut self, expr: &Expr) {
        match expr {
            Expr::Num(text) => {
                let size = if text == "0" || text == "1" { 1 } else { text.len() as u32 + 2 };
                self.emit(Op::Const(text.as_str().into()), size);
            }
            Expr::Load(Place::Slot(slot)) => {
                self.emit(Op::Load(slot.clone()), 2);
            }
            Expr::Load(Place::Elem(name, index)) => {
                self.compile(index);
                self.emit(Op::LoadElem(name.clone()), 2);
            }
            Expr::Assign(place, op, value) => {
                self.load_place_index(place);
                if let Some(op) = op {
                    match place {
                        Place::Slot(slot) => {
                            self.emit(Op::Load(slot.clone()), 2);
                        }
                        Place::Elem(name, _) => {
                            self.emit(Op::DupIndex, 1);
                            self.emit(Op::LoadElem(name.clone()), 2);
                        }
                    }
                    self.compile(value);
                    self.emit(Op::Bin(*op), 1);
                } else {
                    self.compile(value);
                }
                match place {
                    Place::Slot(slot) => self.emit(Op::Store(slot.clone()), 2),
                    Place::Elem(name, _) => self.emit(Op::StoreElem(name.clone()), 2),
                };
            }
            Expr::Step(place, delta, post) => match place {
                Place::Slot(slot) => {
                    self.emit(Op::Step { slot: slot.clone(), delta: *delta, post: *post }, 4);
                }
                Place::Elem(name, index) => {
                    self.compile(index);
                    let size = if *post { 6 } else { 5 };
                    self.emit(Op::StepElem { name: name.clone(), delta: *delta, post: *post }, size);
                }
            },
            Expr::Neg(operand) => {
                self.compile(operand);
                self.emit(Op::Neg, 1);
            }
            Expr::Not(operand) => {
                self.compile(operand);
                self.emit(Op::Not, 1);
            }
            Expr::Bin(op, left, right) => {
                self.compile(left);
                self.compile(right);
                self.emit(Op::Bin(*op), 1);
            }
            Expr::And(left, right) | Expr::Or(left, right) => {
                let is_and = matches!(expr, Expr::And(..));
                self.compile(left);
                if !is_and {
                    self.emit(Op::Not, 0);
                }
                let first = self.emit(Op::JumpZero(0), 5);
                self.compile(right);
                if !is_and {
                    self.emit(Op::Not, 0);
                }
                let second = self.emit(Op::JumpZero(0), 5);
                self.emit(Op::Const(if is_and { "1" } else { "0" }.into()), 1);
                let over = self.emit(Op::Jump(0), 0);
                let short = self.code.len();
                self.patch(first, short);
                self.patch(second, short);
                self.emit(Op::Const(if is_and { "0" } else { "1" }.into()), 0);
                let end = self.code.len();
                self.patch(over, end);
            }
            Expr::Call(name, args) => {
                let mut kinds = Vec::new();
                for arg in args {
                    match arg {
                        Arg::Value(value) => {
                            self.compile(value);
                            kinds.push(false);
                        }
                        Arg::Array(array) => {
                            self.emit(Op::PushArray(array.clone()), 3);
                            kinds.push(true);
                        }
                    }
                }
                let start = self.pc;
                self.emit(Op::Call { name: name.clone(), args: kinds.into(), start }, 3 + args.len() as u32);
            }
            Expr::Builtin(op, operand) => {
                self.compile(operand);
                self.emit(op.clone(), 2);
            }
            Expr::Read => {
                self.emit(Op::Read, 2);
            }
            Expr::Paren(inner) => self.compile(inner),
        }
    }
}
