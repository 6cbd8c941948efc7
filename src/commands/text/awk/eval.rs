//! Evaluating expressions without I/O (the fast, synchronous path):
//! arithmetic, comparison by awk's strnum rules, concatenation, matching,
//! assignment to variables, elements and fields, and user function calls
//! whose bodies do no I/O.

use super::ast::{BinOp, Builtin, Expr, LValue, Var};
use super::indirect::Target;
use super::interp::{EResult, Frame, Interp, Stop};
use super::value::{Str, Value};
use super::vars::Cell;
use crate::utility::{Invocation, StepKind, StepLimitError};
use std::cmp::Ordering;
use std::rc::Rc;

/// How deep user functions may call (native stack protection).
pub const MAX_DEPTH: usize = 1000;

/// gawk's `x ^ y`: repeated squaring for integer exponents.
pub fn power(x: f64, y: f64) -> f64 {
    if y == y.trunc() && y.abs() < 9.0e18 {
        let n = y as i64;
        if n == 0 {
            return 1.0;
        }
        let positive = |mut x: f64, mut n: u64| {
            let mut mult = 1.0;
            while n > 1 {
                if n % 2 == 1 {
                    mult *= x;
                }
                x *= x;
                n /= 2;
            }
            mult * x
        };
        return if n > 0 { positive(x, n.unsigned_abs()) } else { 1.0 / positive(x, n.unsigned_abs()) };
    }
    x.powf(y)
}

/// Applies an arithmetic operator.
pub fn arith(op: BinOp, a: f64, b: f64) -> EResult<f64> {
    Ok(match op {
        BinOp::Add => a + b,
        BinOp::Sub => a - b,
        BinOp::Mul => a * b,
        BinOp::Div => {
            if b == 0.0 {
                return Err(Stop::Fatal("division by zero attempted".into()));
            }
            a / b
        }
        BinOp::Mod => {
            if b == 0.0 {
                return Err(Stop::Fatal("division by zero attempted in `%'".into()));
            }
            a % b
        }
        BinOp::Pow => power(a, b),
        _ => 0.0,
    })
}

impl Interp<'_> {
    /// Charges one step to the awk budget (checked in batches).
    pub fn step(&mut self, ctx: &Invocation<'_>) -> EResult<()> {
        self.pending_steps += 1;
        if self.pending_steps >= 1024 {
            let steps = std::mem::take(&mut self.pending_steps);
            match ctx.shell.charge_steps(StepKind::Awk, steps) {
                Ok(()) => {}
                Err(StepLimitError::Limit(message)) => return Err(Stop::Fatal(message)),
                Err(StepLimitError::Interrupted) => return Err(Stop::Status(130)),
            }
        }
        Ok(())
    }

    /// Compares two values by awk's rules.
    pub fn compare(&self, a: &Value, b: &Value) -> Ordering {
        if let (Some(x), Some(y)) = (a.is_numeric(), b.is_numeric()) {
            return x.partial_cmp(&y).unwrap_or_else(|| x.is_nan().cmp(&y.is_nan()));
        }
        let x = self.to_str(a);
        let y = self.to_str(b);
        x.as_ref().cmp(y.as_ref())
    }

    /// Applies a binary operator to two values.
    pub fn binary(&self, op: BinOp, a: &Value, b: &Value) -> EResult<Value> {
        Ok(match op {
            BinOp::Concat => {
                let x = self.to_str(a);
                let y = self.to_str(b);
                self.check_length(x.len() + y.len())?;
                let mut joined = Vec::with_capacity(x.len() + y.len());
                joined.extend_from_slice(&x);
                joined.extend_from_slice(&y);
                Value::Str(Str::from(joined))
            }
            BinOp::Lt => bool_value(self.compare(a, b) == Ordering::Less),
            BinOp::Le => bool_value(self.compare(a, b) != Ordering::Greater),
            BinOp::Gt => bool_value(self.compare(a, b) == Ordering::Greater),
            BinOp::Ge => bool_value(self.compare(a, b) != Ordering::Less),
            BinOp::Eq => bool_value(self.equal(a, b)),
            BinOp::Ne => bool_value(!self.equal(a, b)),
            _ => Value::Num(arith(op, a.num(), b.num())?),
        })
    }

    /// Finishes `v = v tail` given the value `v` had: the variable's own
    /// reference is dropped first, so a string only it holds grows in place.
    pub fn append(&mut self, var: Var, head: Value, tail: &Value) -> EResult<Value> {
        let tail = self.to_str(tail);
        let head = match head {
            Value::Str(s) | Value::StrNum(s) | Value::Regex(s) => s,
            other => self.to_str(&other),
        };
        self.check_length(head.len() + tail.len())?;
        drop(self.take_scalar(var));
        let joined = Str::append(head, &tail);
        self.set_var(var, Value::Str(joined.clone()))?;
        Ok(Value::Str(joined))
    }

    /// `a == b` by awk's rules.
    pub fn equal(&self, a: &Value, b: &Value) -> bool {
        if let (Some(x), Some(y)) = (a.is_numeric(), b.is_numeric()) {
            return x == y;
        }
        self.to_str(a) == self.to_str(b)
    }

    /// Evaluates an expression with no I/O.
    pub fn eval(&mut self, ctx: &Invocation<'_>, expr: &Expr) -> EResult<Value> {
        match expr {
            Expr::Num(n) => Ok(Value::Num(*n)),
            Expr::Str(s) => Ok(Value::Str(s.clone())),
            Expr::Regex(index) => {
                let regex = self.literal(*index)?;
                Ok(bool_value(regex.is_match(&self.record).unwrap_or(false)))
            }
            Expr::TypedRegex(_, text) => Ok(Value::Regex(text.clone())),
            Expr::Var(var) => self.get_var(*var),
            Expr::Index(var, subs) => {
                let key = self.key(ctx, subs)?;
                let array = self.array(*var)?;
                let value = array.borrow_mut().entry(&key).clone();
                Ok(value)
            }
            Expr::Field(index) => {
                let index = self.eval(ctx, index)?.num();
                self.field(index)
            }
            Expr::Assign(target, op @ Some(_), value) => {
                let value = Value::Num(self.eval_num(ctx, value)?);
                self.assign(ctx, target, *op, value)
            }
            Expr::Assign(target, op, value) => {
                let value = self.eval(ctx, value)?;
                self.assign(ctx, target, *op, value)
            }
            Expr::Append(var, tail) => {
                let head = self.get_var(*var)?;
                let tail = self.eval(ctx, tail)?;
                self.append(*var, head, &tail)
            }
            Expr::PreIncr(target, up) => {
                let resolved = self.resolve(ctx, target)?;
                let old = self.resolved_get(&resolved)?;
                let new = Value::Num(old.num() + if *up { 1.0 } else { -1.0 });
                self.resolved_set(resolved, new.clone())?;
                Ok(new)
            }
            Expr::PostIncr(target, up) => {
                let resolved = self.resolve(ctx, target)?;
                let old = self.resolved_get(&resolved)?.num();
                self.resolved_set(resolved, Value::Num(old + if *up { 1.0 } else { -1.0 }))?;
                Ok(Value::Num(old))
            }
            Expr::Binary(op @ (BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Mod | BinOp::Pow), a, b) => {
                let a = self.eval_num(ctx, a)?;
                let b = self.eval_num(ctx, b)?;
                Ok(Value::Num(arith(*op, a, b)?))
            }
            Expr::Binary(op, a, b) => {
                let a = self.eval(ctx, a)?;
                let b = self.eval(ctx, b)?;
                self.binary(*op, &a, &b)
            }
            Expr::And(a, b) => Ok(bool_value(self.eval(ctx, a)?.truthy() && self.eval(ctx, b)?.truthy())),
            Expr::Or(a, b) => Ok(bool_value(self.eval(ctx, a)?.truthy() || self.eval(ctx, b)?.truthy())),
            Expr::Not(a) => Ok(bool_value(!self.eval(ctx, a)?.truthy())),
            Expr::Neg(a) => Ok(Value::Num(-self.eval(ctx, a)?.num())),
            Expr::Plus(a) => Ok(Value::Num(self.eval(ctx, a)?.num())),
            Expr::Match(subject, pattern, positive) => {
                let subject = self.eval(ctx, subject)?;
                let regex = self.regex_operand(ctx, pattern)?;
                let text = self.to_str(&subject);
                let found = regex.is_match(&text).unwrap_or(false);
                Ok(bool_value(found == *positive))
            }
            Expr::Cond(c, a, b) => {
                if self.eval(ctx, c)?.truthy() {
                    self.eval(ctx, a)
                } else {
                    self.eval(ctx, b)
                }
            }
            Expr::In(subs, var) => {
                let key = self.key(ctx, subs)?;
                let array = self.array(*var)?;
                let found = array.borrow().contains(&key);
                Ok(bool_value(found))
            }
            Expr::Call(index, args) => self.call(ctx, *index, args),
            Expr::Builtin(builtin, args) => self.builtin(ctx, *builtin, args),
            Expr::Indirect(var, args) => match self.indirect_target(ctx, *var, args.len())? {
                Target::User(index) => self.call(ctx, index, args),
                Target::Builtin(builtin) => self.builtin(ctx, builtin, args),
            },
            Expr::Getline(..) => Err(Stop::Fatal("internal error: getline outside an I/O context".into())),
            Expr::Group(list) => {
                let values = list.iter().map(|e| self.eval(ctx, e)).collect::<EResult<Vec<_>>>()?;
                Ok(Value::Str(self.subscript(&values)))
            }
        }
    }

    /// Evaluates an expression for its number; a field is read where it
    /// is in the record (no string is made for it).
    fn eval_num(&mut self, ctx: &Invocation<'_>, expr: &Expr) -> EResult<f64> {
        if let Expr::Field(index) = expr {
            let index = self.eval(ctx, index)?.num();
            if let Some(n) = self.field_num(index) {
                return Ok(n);
            }
            return Ok(self.field(index)?.num());
        }
        Ok(self.eval(ctx, expr)?.num())
    }

    /// The compiled regex of a pattern operand (`/re/` or a dynamic string).
    pub fn regex_operand(&mut self, ctx: &Invocation<'_>, pattern: &Expr) -> EResult<Rc<crate::regex::Regex>> {
        match pattern {
            Expr::Regex(index) | Expr::TypedRegex(index, _) => self.literal(*index),
            other => {
                let value = self.eval(ctx, other)?;
                self.dynamic_regex(&value)
            }
        }
    }

    /// The subscript of `subs`.
    pub fn key(&mut self, ctx: &Invocation<'_>, subs: &[Expr]) -> EResult<Str> {
        if let [single] = subs {
            let value = self.eval(ctx, single)?;
            return Ok(self.subscript(std::slice::from_ref(&value)));
        }
        let values = subs.iter().map(|e| self.eval(ctx, e)).collect::<EResult<Vec<_>>>()?;
        Ok(self.subscript(&values))
    }

    /// Assigns `value` (combined by `op` with the old value) to `target`.
    pub fn assign(&mut self, ctx: &Invocation<'_>, target: &LValue, op: Option<BinOp>, value: Value) -> EResult<Value> {
        let resolved = self.resolve(ctx, target)?;
        let value = match op {
            None => value,
            Some(op) => {
                let old = self.resolved_get(&resolved)?;
                Value::Num(arith(op, old.num(), value.num())?)
            }
        };
        self.resolved_set(resolved, value.clone())?;
        Ok(value)
    }

    /// Works out which variable, element or field `target` names.
    pub fn resolve(&mut self, ctx: &Invocation<'_>, target: &LValue) -> EResult<Resolved> {
        Ok(match target {
            LValue::Var(var) => Resolved::Var(*var),
            LValue::Index(var, subs) => {
                let key = self.key(ctx, subs)?;
                Resolved::Element(*var, key)
            }
            LValue::Field(index) => Resolved::Field(self.eval(ctx, index)?.num()),
        })
    }

    /// Works out the target an expression names, `None` when it is not assignable.
    pub fn resolve_expr(&mut self, ctx: &Invocation<'_>, expr: &Expr) -> EResult<Option<Resolved>> {
        Ok(Some(match expr {
            Expr::Var(var) => Resolved::Var(*var),
            Expr::Index(var, subs) => {
                let key = self.key(ctx, subs)?;
                Resolved::Element(*var, key)
            }
            Expr::Field(index) => Resolved::Field(self.eval(ctx, index)?.num()),
            _ => return Ok(None),
        }))
    }

    /// The current value of a resolved target.
    pub fn resolved_get(&mut self, resolved: &Resolved) -> EResult<Value> {
        match resolved {
            Resolved::Var(var) => self.get_var(*var),
            Resolved::Element(var, key) => {
                let array = self.array(*var)?;
                let value = array.borrow_mut().entry(key).clone();
                Ok(value)
            }
            Resolved::Field(index) => self.field(*index),
        }
    }

    /// Stores into a resolved target.
    pub fn resolved_set(&mut self, resolved: Resolved, value: Value) -> EResult<()> {
        match resolved {
            Resolved::Var(var) => self.set_var(var, value),
            Resolved::Element(var, key) => {
                let array = self.array(var)?;
                array.borrow_mut().set(&key, value);
                Ok(())
            }
            Resolved::Field(index) => self.set_field(index, value),
        }
    }

    /// Builds the locals of a call to function `index`.
    pub fn bind_args(&mut self, ctx: &Invocation<'_>, index: usize, args: &[Expr], pre: &mut [Option<Value>]) -> EResult<Frame> {
        let prog = self.prog;
        let Some(function) = prog.functions.get(index) else {
            return Err(Stop::Fatal("function not defined".into()));
        };
        if self.depth >= MAX_DEPTH {
            return Err(Stop::Fatal(format!("function `{}': call nesting too deep (more than {MAX_DEPTH} levels)", function.name)));
        }
        let mut locals = Vec::with_capacity(function.params);
        for (i, arg) in args.iter().enumerate().take(function.params) {
            let wants_array = self.array_params.get(index).and_then(|p| p.get(i)).copied().unwrap_or(false);
            let cell = match arg {
                Expr::Var(var) if *var != Var::Global(super::vars::NF) => {
                    let cell = self.cell_ref(*var);
                    match cell {
                        Cell::Arr(array) => Cell::Arr(array.clone()),
                        Cell::Val(Value::Uninit) if wants_array => {
                            let array = super::vars::Array::new_ref();
                            *cell = Cell::Arr(array.clone());
                            Cell::Arr(array)
                        }
                        Cell::Val(value) => Cell::Val(value.clone()),
                    }
                }
                other => {
                    let value = match pre.get_mut(i).and_then(Option::take) {
                        Some(value) => value,
                        None => self.eval(ctx, other)?,
                    };
                    Cell::Val(value)
                }
            };
            locals.push(cell);
        }
        while locals.len() < function.params {
            locals.push(Cell::default());
        }
        Ok(Frame { locals })
    }

    /// Calls user function `index` (its body does no I/O).
    pub fn call(&mut self, ctx: &Invocation<'_>, index: usize, args: &[Expr]) -> EResult<Value> {
        let frame = self.bind_args(ctx, index, args, &mut [])?;
        let prog = self.prog;
        let Some(function) = prog.functions.get(index) else {
            return Ok(Value::Uninit);
        };
        self.frames.push(frame);
        self.depth += 1;
        let saved = self.current_function.replace(index);
        let result = self.exec_block(ctx, &function.body);
        self.current_function = saved;
        self.depth -= 1;
        self.frames.pop();
        match result? {
            super::exec::Flow::Return(value) => Ok(value),
            _ => Ok(Value::Uninit),
        }
    }

    /// Calls user function `index` (its body does no I/O) with values, as
    /// a sort comparison is called.
    pub fn call_values(&mut self, ctx: &Invocation<'_>, index: usize, values: Vec<Value>) -> EResult<Value> {
        let prog = self.prog;
        let Some(function) = prog.functions.get(index) else {
            return Ok(Value::Uninit);
        };
        if self.fn_async.get(index).copied().unwrap_or(false) {
            return Err(Stop::Fatal(format!("function `{}' does input or output, so it cannot be a sort comparison in the sandbox", function.name)));
        }
        if self.depth >= MAX_DEPTH {
            return Err(Stop::Fatal(format!("function `{}': call nesting too deep (more than {MAX_DEPTH} levels)", function.name)));
        }
        if values.len() > function.params {
            self.warnings.push((self.offset, format!("function `{}' called with more arguments than declared", function.name)));
        }
        let mut locals: Vec<Cell> = values.into_iter().take(function.params).map(Cell::Val).collect();
        locals.resize_with(function.params, Cell::default);
        self.frames.push(Frame { locals });
        self.depth += 1;
        let saved = self.current_function.replace(index);
        let result = self.exec_block(ctx, &function.body);
        self.current_function = saved;
        self.depth -= 1;
        self.frames.pop();
        match result? {
            super::exec::Flow::Return(value) => Ok(value),
            _ => Ok(Value::Uninit),
        }
    }

    /// Evaluates `args` of a built-in and runs it.
    pub fn builtin(&mut self, ctx: &Invocation<'_>, builtin: Builtin, args: &[Expr]) -> EResult<Value> {
        super::builtins::call(self, ctx, builtin, args)
    }
}

/// A target worked out for assignment.
pub enum Resolved {
    /// A variable.
    Var(Var),
    /// An array element.
    Element(Var, Str),
    /// A field.
    Field(f64),
}

/// 1 or 0.
pub fn bool_value(b: bool) -> Value {
    Value::Num(if b { 1.0 } else { 0.0 })
}
