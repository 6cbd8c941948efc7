//! Running statements: the synchronous path for statements without I/O,
//! and the asynchronous path for `print`/`printf`, `getline`, `close`,
//! `system` and the functions that use them.

use super::analysis::expr_async;
use super::ast::{Block, CaseValue, Expr, LValue, Redirect, Stmt, Switch};
use super::interp::{EResult, Interp, Stop};
use super::io::{Sink, FLUSH_AT};
use super::value::Value;
use super::vars::{Cell, OFS, ORS};
use crate::host::LocalFuture;
use crate::utility::Invocation;

/// How a statement ended.
pub enum Flow {
    /// Go on.
    Normal,
    /// `break`.
    Break,
    /// `continue`.
    Continue,
    /// `return` with its value.
    Return(Value),
}

impl<'p> Interp<'p> {
    /// Runs a block without I/O.
    pub fn exec_block(&mut self, ctx: &Invocation<'_>, block: &'p Block) -> EResult<Flow> {
        for (offset, stmt) in block {
            self.offset = *offset;
            match self.exec(ctx, stmt)? {
                Flow::Normal => {}
                other => return Ok(other),
            }
        }
        Ok(Flow::Normal)
    }

    /// Runs one statement without I/O.
    pub fn exec(&mut self, ctx: &Invocation<'_>, stmt: &'p Stmt) -> EResult<Flow> {
        match stmt {
            Stmt::Sync(inner) => self.exec(ctx, inner),
            Stmt::Expr(e) => {
                self.eval(ctx, e)?;
                Ok(Flow::Normal)
            }
            Stmt::If(c, a, b) => {
                if self.eval(ctx, c)?.truthy() {
                    self.exec(ctx, a)
                } else if let Some(b) = b {
                    self.exec(ctx, b)
                } else {
                    Ok(Flow::Normal)
                }
            }
            Stmt::While(c, body) => {
                while self.eval(ctx, c)?.truthy() {
                    self.step(ctx)?;
                    match self.exec(ctx, body)? {
                        Flow::Break => break,
                        Flow::Return(v) => return Ok(Flow::Return(v)),
                        _ => {}
                    }
                }
                Ok(Flow::Normal)
            }
            Stmt::Do(body, c) => {
                loop {
                    self.step(ctx)?;
                    match self.exec(ctx, body)? {
                        Flow::Break => break,
                        Flow::Return(v) => return Ok(Flow::Return(v)),
                        _ => {}
                    }
                    if !self.eval(ctx, c)?.truthy() {
                        break;
                    }
                }
                Ok(Flow::Normal)
            }
            Stmt::For(init, cond, step, body) => {
                if let Some(init) = init {
                    self.exec(ctx, init)?;
                }
                loop {
                    if let Some(c) = cond {
                        if !self.eval(ctx, c)?.truthy() {
                            break;
                        }
                    }
                    self.step(ctx)?;
                    match self.exec(ctx, body)? {
                        Flow::Break => break,
                        Flow::Return(v) => return Ok(Flow::Return(v)),
                        _ => {}
                    }
                    if let Some(step) = step {
                        self.exec(ctx, step)?;
                    }
                }
                Ok(Flow::Normal)
            }
            Stmt::ForIn(var, array, body) => {
                let keys = self.for_in_keys(ctx, *array)?;
                for key in keys {
                    if !self.array(*array)?.borrow().contains(&key) {
                        continue;
                    }
                    self.step(ctx)?;
                    self.set_loop_var(ctx, var, Value::StrNum(key))?;
                    match self.exec(ctx, body)? {
                        Flow::Break => break,
                        Flow::Return(v) => return Ok(Flow::Return(v)),
                        _ => {}
                    }
                }
                Ok(Flow::Normal)
            }
            Stmt::Block(block) => self.exec_block(ctx, block),
            Stmt::Next => Err(Stop::Next),
            Stmt::NextFile => Err(Stop::NextFile),
            Stmt::Exit(value) => {
                if let Some(value) = value {
                    self.exit_status = self.eval(ctx, value)?.num() as i32;
                }
                Err(Stop::Exit)
            }
            Stmt::Return(value) => {
                let value = match value {
                    Some(e) => self.eval(ctx, e)?,
                    None => Value::Uninit,
                };
                Ok(Flow::Return(value))
            }
            Stmt::Break => Ok(Flow::Break),
            Stmt::Continue => Ok(Flow::Continue),
            Stmt::Delete(var, subs) => {
                match subs {
                    Some(subs) => {
                        let key = self.key(ctx, subs)?;
                        self.array(*var)?.borrow_mut().remove(&key);
                    }
                    None => self.array(*var)?.borrow_mut().clear(),
                }
                Ok(Flow::Normal)
            }
            Stmt::Nop => Ok(Flow::Normal),
            Stmt::Switch(switch) => {
                let subject = self.eval(ctx, &switch.subject)?;
                let Some(start) = self.switch_start(switch, &subject)? else {
                    return Ok(Flow::Normal);
                };
                for (offset, stmt) in switch.body.get(start..).unwrap_or(&[]) {
                    self.offset = *offset;
                    match self.exec(ctx, stmt)? {
                        Flow::Normal => {}
                        Flow::Break => break,
                        other => return Ok(other),
                    }
                }
                Ok(Flow::Normal)
            }
            Stmt::Print(..) | Stmt::Printf(..) => Err(Stop::Fatal("internal error: print outside an I/O context".into())),
        }
    }

    /// Where a `switch` body starts for `subject`: the first matching
    /// `case`, else `default`.
    fn switch_start(&mut self, switch: &Switch, subject: &Value) -> EResult<Option<usize>> {
        for (value, start) in &switch.cases {
            let matched = match value {
                CaseValue::Num(n) => self.equal(subject, &Value::Num(*n)),
                CaseValue::Str(s) => self.equal(subject, &Value::Str(s.clone())),
                CaseValue::Regex(index) => {
                    let regex = self.literal(*index)?;
                    let text = self.to_str(subject);
                    regex.is_match(&text).unwrap_or(false)
                }
            };
            if matched {
                return Ok(Some(*start));
            }
        }
        Ok(switch.default)
    }

    fn set_loop_var(&mut self, ctx: &Invocation<'_>, var: &LValue, value: Value) -> EResult<()> {
        let resolved = self.resolve(ctx, var)?;
        self.resolved_set(resolved, value)
    }

    /// The keys a `for (k in a)` visits, in `PROCINFO["sorted_in"]` order
    /// when set.
    pub fn for_in_keys(&mut self, ctx: &Invocation<'_>, array: super::ast::Var) -> EResult<Vec<super::value::Str>> {
        let array = self.array(array)?;
        match self.sorted_in() {
            Some(order) => super::sort::ordered_keys(self, ctx, &array, &order),
            None => Ok(super::order::gawk_order(array.borrow().keys())),
        }
    }

    fn sorted_in(&self) -> Option<Vec<u8>> {
        let Some(Cell::Arr(procinfo)) = self.globals.get(super::vars::PROCINFO) else {
            return None;
        };
        let procinfo = procinfo.borrow();
        let value = procinfo.get(b"sorted_in")?;
        Some(self.to_str(value).to_vec())
    }

    /// Runs a block that may do I/O.
    pub fn exec_block_async<'a>(&'a mut self, ctx: &'a mut Invocation<'_>, block: &'p Block) -> LocalFuture<'a, EResult<Flow>> {
        Box::pin(async move {
            self.located = true;
            for (offset, stmt) in block {
                self.offset = *offset;
                match self.exec_async(ctx, stmt).await? {
                    Flow::Normal => {}
                    other => return Ok(other),
                }
            }
            Ok(Flow::Normal)
        })
    }

    /// Runs one statement that may do I/O.
    pub fn exec_async<'a>(&'a mut self, ctx: &'a mut Invocation<'_>, stmt: &'p Stmt) -> LocalFuture<'a, EResult<Flow>> {
        Box::pin(async move {
            match stmt {
                Stmt::Sync(inner) => self.exec(ctx, inner),
                Stmt::Print(args, redirect) => {
                    self.print(ctx, args, redirect).await?;
                    Ok(Flow::Normal)
                }
                Stmt::Printf(args, redirect) => {
                    self.printf(ctx, args, redirect).await?;
                    Ok(Flow::Normal)
                }
                Stmt::Expr(e) => {
                    self.value(ctx, e).await?;
                    Ok(Flow::Normal)
                }
                Stmt::If(c, a, b) => {
                    if self.value(ctx, c).await?.truthy() {
                        self.exec_async(ctx, a).await
                    } else if let Some(b) = b {
                        self.exec_async(ctx, b).await
                    } else {
                        Ok(Flow::Normal)
                    }
                }
                Stmt::While(c, body) => {
                    while self.value(ctx, c).await?.truthy() {
                        self.step(ctx)?;
                        match self.exec_async(ctx, body).await? {
                            Flow::Break => break,
                            Flow::Return(v) => return Ok(Flow::Return(v)),
                            _ => {}
                        }
                    }
                    Ok(Flow::Normal)
                }
                Stmt::Do(body, c) => {
                    loop {
                        self.step(ctx)?;
                        match self.exec_async(ctx, body).await? {
                            Flow::Break => break,
                            Flow::Return(v) => return Ok(Flow::Return(v)),
                            _ => {}
                        }
                        if !self.value(ctx, c).await?.truthy() {
                            break;
                        }
                    }
                    Ok(Flow::Normal)
                }
                Stmt::For(init, cond, step, body) => {
                    if let Some(init) = init {
                        self.exec_async(ctx, init).await?;
                    }
                    loop {
                        if let Some(c) = cond {
                            if !self.value(ctx, c).await?.truthy() {
                                break;
                            }
                        }
                        self.step(ctx)?;
                        match self.exec_async(ctx, body).await? {
                            Flow::Break => break,
                            Flow::Return(v) => return Ok(Flow::Return(v)),
                            _ => {}
                        }
                        if let Some(step) = step {
                            self.exec_async(ctx, step).await?;
                        }
                    }
                    Ok(Flow::Normal)
                }
                Stmt::ForIn(var, array, body) => {
                    let keys = self.for_in_keys(ctx, *array)?;
                    for key in keys {
                        if !self.array(*array)?.borrow().contains(&key) {
                            continue;
                        }
                        self.step(ctx)?;
                        self.set_loop_var(ctx, var, Value::StrNum(key))?;
                        match self.exec_async(ctx, body).await? {
                            Flow::Break => break,
                            Flow::Return(v) => return Ok(Flow::Return(v)),
                            _ => {}
                        }
                    }
                    Ok(Flow::Normal)
                }
                Stmt::Block(block) => self.exec_block_async(ctx, block).await,
                Stmt::Switch(switch) => {
                    let subject = self.value(ctx, &switch.subject).await?;
                    let Some(start) = self.switch_start(switch, &subject)? else {
                        return Ok(Flow::Normal);
                    };
                    for (offset, stmt) in switch.body.get(start..).unwrap_or(&[]) {
                        self.offset = *offset;
                        match self.exec_async(ctx, stmt).await? {
                            Flow::Normal => {}
                            Flow::Break => break,
                            other => return Ok(other),
                        }
                    }
                    Ok(Flow::Normal)
                }
                Stmt::Exit(Some(value)) => {
                    self.exit_status = self.value(ctx, value).await?.num() as i32;
                    Err(Stop::Exit)
                }
                Stmt::Return(Some(value)) => Ok(Flow::Return(self.value(ctx, value).await?)),
                other => self.exec(ctx, other),
            }
        })
    }

    /// Runs a rule's action: like `exec_block_async`, but `print` and
    /// `printf` run without a boxed future each (an action runs per record).
    pub async fn exec_action(&mut self, ctx: &mut Invocation<'_>, block: &'p Block) -> EResult<Flow> {
        self.located = true;
        for (offset, stmt) in block {
            self.offset = *offset;
            let flow = match stmt {
                Stmt::Sync(inner) => self.exec(ctx, inner)?,
                Stmt::Print(args, redirect) => {
                    self.print(ctx, args, redirect).await?;
                    Flow::Normal
                }
                Stmt::Printf(args, redirect) => {
                    self.printf(ctx, args, redirect).await?;
                    Flow::Normal
                }
                other => self.exec_async(ctx, other).await?,
            };
            if !matches!(flow, Flow::Normal) {
                return Ok(flow);
            }
        }
        Ok(Flow::Normal)
    }

    /// Evaluates output arguments into the reused argument vector.
    async fn output_values(&mut self, ctx: &mut Invocation<'_>, args: &'p [Expr]) -> EResult<Vec<Value>> {
        let mut values = std::mem::take(&mut self.output_args);
        values.clear();
        for arg in args {
            values.push(self.value(ctx, arg).await?);
        }
        Ok(values)
    }

    /// Gives the argument vector back for the next statement.
    fn reuse_values(&mut self, mut values: Vec<Value>) {
        values.clear();
        self.output_args = values;
    }

    /// `print`: its arguments joined by `OFS`, then `ORS`; written straight
    /// onto standard output's buffer when not redirected.
    async fn print(&mut self, ctx: &mut Invocation<'_>, args: &'p [Expr], redirect: &'p Option<(Redirect, Expr)>) -> EResult<()> {
        let values = self.output_values(ctx, args).await?;
        let mut line = match redirect {
            None => std::mem::take(&mut self.io.out),
            Some(_) => Vec::new(),
        };
        if args.is_empty() {
            line.extend_from_slice(&self.record);
        } else {
            let ofs = self.to_str(&self.special(OFS));
            for (i, value) in values.iter().enumerate() {
                if i > 0 {
                    line.extend_from_slice(&ofs);
                }
                self.to_output(value, &mut line);
            }
        }
        line.extend_from_slice(&self.to_str(&self.special(ORS)));
        self.reuse_values(values);
        match redirect {
            None => {
                self.io.out = line;
                if self.io.out.len() >= FLUSH_AT {
                    self.io.flush_stdout(ctx).await.map_err(Stop::Status)?;
                }
                Ok(())
            }
            Some(_) => self.emit(ctx, redirect, line).await,
        }
    }

    /// `printf`: formatted straight onto standard output's buffer when not
    /// redirected.
    async fn printf(&mut self, ctx: &mut Invocation<'_>, args: &'p [Expr], redirect: &'p Option<(Redirect, Expr)>) -> EResult<()> {
        let values = self.output_values(ctx, args).await?;
        let result = match redirect {
            None => self.format_to_stdout(&values),
            Some(_) => self.format_values(&values).map(Some),
        };
        self.reuse_values(values);
        match result? {
            None if self.io.out.len() >= FLUSH_AT => self.io.flush_stdout(ctx).await.map_err(Stop::Status),
            None => Ok(()),
            Some(text) => self.emit(ctx, redirect, text).await,
        }
    }

    /// Formats `printf` arguments.
    pub fn format_values(&self, values: &[Value]) -> EResult<Vec<u8>> {
        let Some((format, rest)) = values.split_first() else {
            return Ok(Vec::new());
        };
        let format = self.to_str(format);
        let text = super::format::sprintf(&format, rest, &|v| self.to_str(v)).map_err(|e| Stop::Fatal(e.0))?;
        self.check_length(text.len())?;
        Ok(text)
    }

    /// Formats `printf` arguments straight onto standard output's buffer
    /// (`None`), the caller flushing it when full.
    fn format_to_stdout(&mut self, values: &[Value]) -> EResult<Option<Vec<u8>>> {
        let Some((format, rest)) = values.split_first() else {
            return Ok(None);
        };
        let format = self.to_str(format);
        let mut out = std::mem::take(&mut self.io.out);
        let before = out.len();
        let result = super::format::sprintf_into(&mut out, &format, rest, &|v| self.to_str(v));
        let length = out.len() - before;
        self.io.out = out;
        result.map_err(|e| Stop::Fatal(e.0))?;
        if let Err(error) = self.check_length(length) {
            self.io.out.truncate(before);
            return Err(error);
        }
        Ok(None)
    }

    /// Sends printed text to standard output or a redirection.
    async fn emit(&mut self, ctx: &mut Invocation<'_>, redirect: &'p Option<(Redirect, Expr)>, text: Vec<u8>) -> EResult<()> {
        let Some((kind, target)) = redirect else {
            self.io.out.extend_from_slice(&text);
            if self.io.out.len() >= FLUSH_AT {
                self.io.flush_stdout(ctx).await.map_err(Stop::Status)?;
            }
            return Ok(());
        };
        let name = self.value(ctx, target).await?;
        let name = self.to_str(&name);
        if name.is_empty() {
            let what = match kind {
                Redirect::Pipe => "expression for `|' redirection has null string value",
                Redirect::Append => "expression for `>>' redirection has null string value",
                Redirect::File => "expression for `>' redirection has null string value",
            };
            return Err(Stop::Fatal(what.into()));
        }
        let at = self.io.output(ctx, &name, *kind).await.map_err(Stop::Fatal)?;
        let Some((_, output)) = self.io.outputs.get_mut(at) else {
            return Ok(());
        };
        if matches!(output.sink, Sink::Stdout) {
            self.io.out.extend_from_slice(&text);
            if self.io.out.len() >= FLUSH_AT {
                self.io.flush_stdout(ctx).await.map_err(Stop::Status)?;
            }
            return Ok(());
        }
        output.data.extend_from_slice(&text);
        let immediate = matches!(output.sink, Sink::Stderr);
        let large = output.data.len() >= FLUSH_AT && !matches!(output.sink, Sink::Pipe);
        if immediate || large {
            self.io.flush_output(ctx, at).await.map_err(Stop::Status)?;
            if self.io.out.len() >= FLUSH_AT {
                self.io.flush_stdout(ctx).await.map_err(Stop::Status)?;
            }
        }
        Ok(())
    }

    /// Evaluates an expression, on the synchronous path when it does no I/O
    /// (no allocation for the future then).
    pub async fn value(&mut self, ctx: &mut Invocation<'_>, expr: &'p Expr) -> EResult<Value> {
        if expr_async(expr, &self.fn_async) {
            self.eval_async(ctx, expr).await
        } else {
            self.eval(ctx, expr)
        }
    }

    /// Evaluates an expression that may do I/O.
    pub fn eval_async<'a>(&'a mut self, ctx: &'a mut Invocation<'_>, expr: &'p Expr) -> LocalFuture<'a, EResult<Value>> {
        if !expr_async(expr, &self.fn_async) {
            let result = self.eval(ctx, expr);
            return Box::pin(std::future::ready(result));
        }
        Box::pin(async move { super::io_eval::eval_io(self, ctx, expr).await })
    }
}
