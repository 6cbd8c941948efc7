//! Statements: blocks, `if`/loops/`for in`, simple statements, `print`
//! and `printf` with their redirections.

use super::{PResult, ParseError, Parser, Style, MAX_NESTING};
use crate::commands::text::awk::ast::*;
use crate::commands::text::awk::lexer::Tok;

impl<'a> Parser<'a> {
    pub(super) fn block(&mut self) -> PResult<Block> {
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
    pub(super) fn end_simple(&mut self) -> PResult<()> {
        if self.is_op(";") || self.tok.tok == Tok::Newline {
            self.advance()?;
            Ok(())
        } else if self.is_op("}") || self.tok.tok == Tok::Eof {
            Ok(())
        } else {
            self.error()
        }
    }

    pub(super) fn body(&mut self) -> PResult<Stmt> {
        self.skip_newlines()?;
        if self.is_op(";") {
            self.advance()?;
            return Ok(Stmt::Nop);
        }
        self.statement()
    }

    pub(super) fn loop_body(&mut self) -> PResult<Stmt> {
        self.in_loop += 1;
        let body = self.body();
        self.in_loop -= 1;
        body
    }

    pub(super) fn statement(&mut self) -> PResult<Stmt> {
        self.depth += 1;
        let result = if self.depth > MAX_NESTING { Err(self.too_deep()) } else { self.statement_inner() };
        self.depth -= 1;
        result
    }

    pub(super) fn statement_inner(&mut self) -> PResult<Stmt> {
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
            Tok::Key("switch") => return self.switch_statement(),
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
                if self.in_loop == 0 && self.in_switch == 0 {
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
                let value = match self.typed_regex()? {
                    Some(regex) => Some(regex),
                    None if self.simple_end() => None,
                    None => Some(self.expr()?),
                };
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

    pub(super) fn simple_end(&self) -> bool {
        self.is_op(";") || self.is_op("}") || matches!(self.tok.tok, Tok::Newline | Tok::Eof)
    }

    pub(super) fn for_statement(&mut self) -> PResult<Stmt> {
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

    pub(super) fn simple_statement(&mut self) -> PResult<Stmt> {
        Ok(Stmt::Expr(self.expr()?))
    }

    pub(super) fn print_args(&mut self) -> PResult<Vec<Expr>> {
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

    pub(super) fn redirect(&mut self) -> PResult<Option<(Redirect, Expr)>> {
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
}
