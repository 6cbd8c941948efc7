//! Expressions, by gawk's precedence: assignment, `?:`, `||`, `&&`, `in`,
//! `~`, comparisons, `| getline`, concatenation, additive,
//! multiplicative, unary, `^`, increments, `$` and primaries.

use super::{PResult, ParseError, Parser, Style, MAX_NESTING};
use crate::commands::text::awk::vars::SPECIALS;
use crate::commands::text::awk::ast::*;
use crate::commands::text::awk::lexer::Tok;

impl<'a> Parser<'a> {
    pub(super) fn expr_list(&mut self) -> PResult<Vec<Expr>> {
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

    pub(super) fn expr_no_gt(&mut self) -> PResult<Expr> {
        self.ternary(true)
    }

    pub(super) fn ternary(&mut self, no_gt: bool) -> PResult<Expr> {
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
            let regex = if op == "=" { self.typed_regex()? } else { None };
            let value = match regex {
                Some(regex) => regex,
                None => self.ternary(no_gt)?,
            };
            let op = match op {
                "+=" => Some(BinOp::Add),
                "-=" => Some(BinOp::Sub),
                "*=" => Some(BinOp::Mul),
                "/=" => Some(BinOp::Div),
                "%=" => Some(BinOp::Mod),
                "^=" => Some(BinOp::Pow),
                _ => None,
            };
            if let (LValue::Var(var), None) = (&lvalue, op) {
                let ordinary = match var {
                    Var::Global(slot) => *slot >= SPECIALS.len(),
                    Var::Local(_) => true,
                };
                if ordinary {
                    return Ok(match strip_head(value, *var) {
                        Ok(tail) => Expr::Append(*var, Box::new(tail)),
                        Err(value) => Expr::Assign(Box::new(lvalue), op, Box::new(value)),
                    });
                }
            }
            return Ok(Expr::Assign(Box::new(lvalue), op, Box::new(value)));
        }
        Ok(cond)
    }

    pub(super) fn or(&mut self, no_gt: bool) -> PResult<Expr> {
        let mut left = self.and(no_gt)?;
        while self.is_op("||") {
            self.advance()?;
            self.skip_newlines()?;
            let right = self.and(no_gt)?;
            left = Expr::Or(Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    pub(super) fn and(&mut self, no_gt: bool) -> PResult<Expr> {
        let mut left = self.in_expr(no_gt)?;
        while self.is_op("&&") {
            self.advance()?;
            self.skip_newlines()?;
            let right = self.in_expr(no_gt)?;
            left = Expr::And(Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    pub(super) fn in_expr(&mut self, no_gt: bool) -> PResult<Expr> {
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

    pub(super) fn matching(&mut self, no_gt: bool) -> PResult<Expr> {
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
            let right = match self.typed_regex()? {
                Some(regex) => regex,
                None => self.comparison(no_gt)?,
            };
            left = Expr::Match(Box::new(left), Box::new(right), !negate);
        }
    }

    pub(super) fn comparison(&mut self, no_gt: bool) -> PResult<Expr> {
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

    pub(super) fn pipe_getline(&mut self, no_gt: bool) -> PResult<Expr> {
        let mut left = self.concat(no_gt)?;
        while self.is_op("|") && self.peek()? == &Tok::Key("getline") {
            self.advance()?;
            self.advance()?;
            let target = self.getline_target()?;
            left = Expr::Getline(GetlineSource::Command(Box::new(left)), target);
        }
        Ok(left)
    }

    pub(super) fn getline_target(&mut self) -> PResult<Option<Box<LValue>>> {
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

    pub(super) fn concat(&mut self, no_gt: bool) -> PResult<Expr> {
        let mut left = self.additive()?;
        loop {
            let operand = matches!(
                self.tok.tok,
                Tok::Num(_)
                    | Tok::Str(_)
                    | Tok::Regex(_)
                    | Tok::Name(_)
                    | Tok::FuncName(_)
                    | Tok::Builtin(_)
                    | Tok::Indirect(_)
                    | Tok::Op("$" | "(" | "++" | "--" | "@")
            );
            if !operand || (no_gt && self.is_key("in")) {
                break;
            }
            let right = self.additive()?;
            left = Expr::Binary(BinOp::Concat, Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    pub(super) fn additive(&mut self) -> PResult<Expr> {
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

    pub(super) fn multiplicative(&mut self) -> PResult<Expr> {
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

    pub(super) fn unary(&mut self) -> PResult<Expr> {
        self.depth += 1;
        let result = if self.depth > MAX_NESTING { Err(self.too_deep()) } else { self.unary_inner() };
        self.depth -= 1;
        result
    }

    pub(super) fn unary_inner(&mut self) -> PResult<Expr> {
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

    pub(super) fn power(&mut self) -> PResult<Expr> {
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

    pub(super) fn power_operand(&mut self) -> PResult<Expr> {
        self.power()
    }

    pub(super) fn incdec(&mut self) -> PResult<Expr> {
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

    /// A typed regex constant `@/re/` where gawk allows one (the value of
    /// `=`, the right of `~`, an argument, `return`, a `case`).
    pub(super) fn typed_regex(&mut self) -> PResult<Option<Expr>> {
        let Tok::TypedRegex(text) = &self.tok.tok else {
            return Ok(None);
        };
        let text = text.clone();
        let at = self.tok.start;
        self.advance()?;
        let index = self.regex_index(text.clone(), at);
        self.program.typed_regexes.push(index);
        Ok(Some(Expr::TypedRegex(index, text.into())))
    }

    /// Call arguments: expressions or typed regexes, separated by commas.
    pub(super) fn call_args(&mut self) -> PResult<Vec<Expr>> {
        let mut list = Vec::new();
        loop {
            match self.typed_regex()? {
                Some(regex) => list.push(regex),
                None => list.push(self.expr()?),
            }
            if !self.is_op(",") {
                return Ok(list);
            }
            self.advance()?;
            self.skip_newlines()?;
        }
    }

    pub(super) fn regex_index(&mut self, text: Vec<u8>, at: usize) -> usize {
        if let Some(index) = self.regexes.iter().position(|r| *r == text) {
            return index;
        }
        self.program.regex_offsets.push(at);
        self.regexes.push(text);
        self.regexes.len() - 1
    }

    pub(super) fn primary(&mut self) -> PResult<Expr> {
        self.depth += 1;
        let result = if self.depth > MAX_NESTING { Err(self.too_deep()) } else { self.primary_inner() };
        self.depth -= 1;
        result
    }

    pub(super) fn too_deep(&self) -> ParseError {
        ParseError::new("expression or statement nesting too deep".into(), self.tok.start, Style::Caret)
    }

    pub(super) fn primary_inner(&mut self) -> PResult<Expr> {
        let token = self.tok.clone();
        match token.tok {
            Tok::Num(n) => {
                self.advance()?;
                Ok(Expr::Num(n))
            }
            Tok::Str(s) => {
                self.advance()?;
                Ok(Expr::Str(s.into()))
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
            Tok::Op("@") => {
                self.advance()?;
                self.error()
            }
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
            Tok::FuncName(name) => self.user_call(&name),
            Tok::Builtin(name) => self.builtin(&name),
            Tok::Indirect(name) => self.indirect_call(&name),
            _ => self.error(),
        }
    }

    /// The operand of `$` and of `getline <`: a primary, or a prefix increment.
    pub(super) fn incdec_primary(&mut self) -> PResult<Expr> {
        if self.is_op("++") || self.is_op("--") {
            return self.incdec();
        }
        self.primary()
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

/// For `v = v a b`: the concatenation after the leading `v` (`a b`), or the
/// expression back when it does not start so.
fn strip_head(expr: Expr, var: Var) -> Result<Expr, Expr> {
    let Expr::Binary(BinOp::Concat, left, right) = expr else {
        return Err(expr);
    };
    match *left {
        Expr::Var(head) if head == var => Ok(*right),
        inner @ Expr::Binary(BinOp::Concat, ..) => match strip_head(inner, var) {
            Ok(rest) => Ok(Expr::Binary(BinOp::Concat, Box::new(rest), right)),
            Err(inner) => Err(Expr::Binary(BinOp::Concat, Box::new(inner), right)),
        },
        other => Err(Expr::Binary(BinOp::Concat, Box::new(other), right)),
    }
}
