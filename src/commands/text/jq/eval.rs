//! The jq evaluator: walks the [`Ast`] for one input, handing each output
//! (with its path, when paths are tracked for `path(f)` and assignments) to
//! a callback. Errors, `break` and budget stops travel back as [`Flow`].

use super::ast::{Assign, Ast, Def, Part, Pattern, Target, VarRef};
use super::builtins::{call_native, format_value};
use super::json::{dump_short, to_json, truncate};
use super::ops::{binop, index_value, slice_value};
use super::parse::Program;
use super::paths::{delpaths, getpath, set_owned};
use super::value::{Map, Value};
use crate::utility::{ShellServices, StepKind, StepLimitError};
use std::rc::Rc;

/// A path into a value, when paths are being tracked.
pub type P = Option<Rc<Vec<Value>>>;

/// Why evaluation stopped early.
#[derive(Debug)]
pub enum Flow {
    /// A jq error with its value (`error(v)` or a runtime error's message).
    Err(Value),
    /// `break $label` to the label with this id.
    Break(u64),
    /// An error raised downstream of a `try` body, passing through it.
    Down(Box<Flow>),
    /// A budget or the host stopped the run: the message, or `None` when interrupted.
    Stop(Option<String>),
    /// `halt` / `halt_error`: the status and what to print.
    Halt(i32, Option<Value>),
}

/// The result of evaluating: `Ok` when all outputs were produced.
pub type Res = Result<(), Flow>;

/// Builds an error flow from a message.
pub fn err(msg: impl Into<String>) -> Flow {
    Flow::Err(Value::Str(Rc::from(msg.into().as_str())))
}

/// An environment: a chain of frames.
pub type Env<'p> = Option<Rc<Frame<'p>>>;

/// What one frame binds.
pub enum Bind<'p> {
    /// A variable's value.
    Var(Value),
    /// A local definition.
    Func(&'p Def),
    /// A closure parameter: its argument and the caller's environment.
    Param(&'p Ast, Env<'p>),
    /// A label's id.
    Label(u64),
}

/// One frame of an environment.
pub struct Frame<'p> {
    parent: Env<'p>,
    bind: Bind<'p>,
}

/// Pushes a frame.
pub fn push<'p>(env: &Env<'p>, bind: Bind<'p>) -> Env<'p> {
    Some(Rc::new(Frame { parent: env.clone(), bind }))
}

fn walk<'e, 'p>(env: &'e Env<'p>, hops: usize) -> Option<&'e Rc<Frame<'p>>> {
    let mut frame = env.as_ref()?;
    for _ in 0..hops {
        frame = frame.parent.as_ref()?;
    }
    Some(frame)
}

/// The output callback.
pub type Out<'a, 'p> = dyn FnMut(&mut Cx<'p>, Value, P) -> Res + 'a;

/// Where `input`/`inputs` read from.
pub trait Inputs {
    /// The next input value, an error message for bad JSON, or `None` at the end.
    fn next_input(&mut self) -> Option<Result<Value, String>>;
    /// The name of the file being read (`input_filename`).
    fn filename(&self) -> Value;
    /// The current line (`input_line_number`).
    fn line(&self) -> usize;
    /// Where the last input was read, as error messages name it (`<stdin>:3`).
    fn location(&self) -> String;
}

/// The evaluation context of one run.
pub struct Cx<'p> {
    /// The program's definitions.
    pub prog: &'p Program,
    /// Values of the global variables.
    pub globals: Vec<Value>,
    /// The shell, for the step budget.
    pub shell: &'p dyn ShellServices,
    /// Steps not yet charged.
    pending: u64,
    /// Current nesting of evaluation.
    pub depth: usize,
    next_label: u64,
    /// The input source.
    pub inputs: &'p mut dyn Inputs,
    /// What `debug`/`stderr` wrote, to flush after each output.
    pub stderr: Vec<u8>,
    /// The host clock, in milliseconds since the epoch (`now`).
    pub now_millis: f64,
    /// The environment (`$ENV`, `env`).
    pub env_value: Value,
    /// The module search path, for `modulemeta` and `get_search_list`.
    pub library: Rc<super::modules::Library>,
    /// The path a computed value carries while paths are tracked: using it
    /// as a path is jq's "Invalid path expression" error.
    pub bad_path: Rc<Vec<Value>>,
}

/// How deep evaluation may nest before it stops with an error: well
/// within the stack (an unoptimized build's frames are several times
/// larger, about 6 KiB a level, and its test threads have 2 MiB).
pub const MAX_DEPTH: usize = if cfg!(debug_assertions) { 200 } else { 2000 };

const CHARGE_EVERY: u64 = 4096;

impl<'p> Cx<'p> {
    /// A context over `prog`.
    pub fn new(prog: &'p Program, shell: &'p dyn ShellServices, inputs: &'p mut dyn Inputs) -> Self {
        Cx {
            prog,
            globals: Vec::new(),
            shell,
            pending: 0,
            depth: 0,
            next_label: 0,
            inputs,
            stderr: Vec::new(),
            now_millis: 0.0,
            env_value: Value::Null,
            library: Rc::default(),
            bad_path: Rc::new(Vec::new()),
        }
    }

    /// Counts one step; charges the shell's budget now and then.
    pub fn step(&mut self) -> Res {
        self.pending += 1;
        if self.pending >= CHARGE_EVERY {
            self.flush_steps()?;
        }
        Ok(())
    }

    /// Charges the copying a large string or array result took, so loops
    /// that grow one (`reduce ... (""; . + "x")`) meet the budget in bounded
    /// time, and refuses strings beyond the size limit.
    pub fn charge_size(&mut self, v: &Value) -> Res {
        let work = match v {
            Value::Str(s) => {
                if s.len() > self.shell.size_limits().max_string_bytes {
                    return Err(Flow::Stop(Some(format!(
                        "jq: error: string too long (more than {} bytes)",
                        self.shell.size_limits().max_string_bytes
                    ))));
                }
                s.len() / 64
            }
            Value::Arr(a) => a.len() / 8,
            Value::Obj(o) => o.len() / 8,
            _ => 0,
        };
        if work > 0 {
            self.pending += work as u64;
            if self.pending >= CHARGE_EVERY {
                self.flush_steps()?;
            }
        }
        Ok(())
    }

    /// Charges the steps counted so far.
    pub fn flush_steps(&mut self) -> Res {
        let n = std::mem::take(&mut self.pending);
        match self.shell.charge_steps(StepKind::Jq, n) {
            Ok(()) => Ok(()),
            Err(StepLimitError::Limit(message)) => Err(Flow::Stop(Some(message))),
            Err(StepLimitError::Interrupted) => Err(Flow::Stop(None)),
        }
    }

    /// Evaluates `ast` on `input`, handing each output to `out`.
    pub fn eval(&mut self, ast: &'p Ast, env: &Env<'p>, input: Value, path: P, out: &mut Out<'_, 'p>) -> Res {
        self.step()?;
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            self.depth -= 1;
            return Err(Flow::Stop(Some(format!("jq: error: evaluation nested too deeply (more than {MAX_DEPTH} levels)"))));
        }
        let r = self.eval_inner(ast, env, input, path, out);
        self.depth -= 1;
        r
    }

    fn eval_inner(&mut self, ast: &'p Ast, env: &Env<'p>, input: Value, path: P, out: &mut Out<'_, 'p>) -> Res {
        match ast {
            Ast::Identity => out(self, input, path),
            Ast::RecurseAll => self.recurse_all(input, path, out),
            Ast::Lit(v) => self.value_out(v.clone(), &path, out),
            Ast::Var(r) => {
                let v = match r {
                    VarRef::Global(i) => self.globals.get(*i).cloned().unwrap_or(Value::Null),
                    VarRef::Local(h) => match walk(env, *h).map(|f| &f.bind) {
                        Some(Bind::Var(v)) => v.clone(),
                        _ => Value::Null,
                    },
                };
                self.value_out(v, &path, out)
            }
            Ast::Str(fmt, parts) => {
                let fmt = fmt.clone();
                self.interpolate(parts, parts.len(), env, &input, fmt.as_deref(), String::new(), &path, out)
            }
            Ast::Format(name) => {
                let s = format_value(name, &input)?;
                self.value_out(s, &path, out)
            }
            Ast::Index(t, k) => {
                let input2 = input.clone();
                self.eval(k, env, input, None, &mut |cx, key, _| {
                    cx.eval(t, env, input2.clone(), path.clone(), &mut |cx, base, bpath| {
                        if cx.is_bad(&bpath) {
                            return Err(err(format!(
                                "Invalid path expression near attempt to access element {} of {}",
                                truncate(&to_json(&key), 15),
                                truncate(&to_json(&base), 30)
                            )));
                        }
                        let v = index_value(&base, &key)?;
                        let p = extend(&bpath, key.clone());
                        out(cx, v, p)
                    })
                })
            }
            Ast::Slice(t, from, to) => {
                let input2 = input.clone();
                self.opt_eval(to.as_deref(), env, input.clone(), &mut |cx, to_v| {
                    cx.opt_eval(from.as_deref(), env, input2.clone(), &mut |cx, from_v| {
                        let to_v = to_v.clone();
                        cx.eval(t, env, input2.clone(), path.clone(), &mut |cx, base, bpath| {
                            if cx.is_bad(&bpath) {
                                return Err(err(format!(
                                    "Invalid path expression near attempt to access element {} of {}",
                                    "{...}",
                                    truncate(&to_json(&base), 30)
                                )));
                            }
                            let v = slice_value(&base, &from_v, &to_v)?;
                            let mut key = Map::new();
                            key.insert(Rc::from("start"), from_v.clone());
                            key.insert(Rc::from("end"), to_v.clone());
                            let p = extend(&bpath, Value::Obj(Rc::new(key)));
                            out(cx, v, p)
                        })
                    })
                })
            }
            Ast::Each(t) => self.eval(t, env, input, path, &mut |cx, base, bpath| cx.each(base, bpath, out)),
            Ast::Try(body, catch) => {
                let r = self.eval(body, env, input, path, &mut |cx, v, p| out(cx, v, p).map_err(|e| Flow::Down(Box::new(e))));
                match r {
                    Ok(()) => Ok(()),
                    Err(Flow::Down(inner)) => Err(*inner),
                    Err(Flow::Err(e)) => match catch {
                        // `error(null)` caught by `?` or a catch body: jq 1.7 passes it.
                        Some(c) => self.eval(c, env, e, None, out),
                        None => Ok(()),
                    },
                    Err(other) => Err(other),
                }
            }
            Ast::Array(e) => {
                let mut items = Vec::new();
                if let Some(e) = e {
                    let most = self.shell.size_limits().max_array_elements.saturating_mul(8);
                    self.eval(e, env, input, None, &mut |_, v, _| {
                        if items.len() >= most {
                            return Err(Flow::Stop(Some(format!("jq: error: array too large (more than {most} elements)"))));
                        }
                        items.push(v);
                        Ok(())
                    })?;
                }
                self.value_out(Value::arr(items), &path, out)
            }
            Ast::Object(members) => self.object(members, 0, env, &input, Map::new(), &path, out),
            Ast::Neg(e) => self.eval(e, env, input, None, &mut |cx, v, _| match v {
                Value::Num(n, _) => cx.value_out(Value::num(-n), &path, out),
                other => Err(err(format!("{} ({}) cannot be negated", other.kind(), dump_short(&other)))),
            }),
            Ast::Pipe(a, b) => self.eval(a, env, input, path, &mut |cx, v, p| cx.eval(b, env, v, p, out)),
            Ast::Comma(a, b) => {
                self.eval(a, env, input.clone(), path.clone(), out)?;
                self.eval(b, env, input, path, out)
            }
            Ast::Bin(op, a, b) => {
                let op = *op;
                let input2 = input.clone();
                self.eval(b, env, input, None, &mut |cx, rhs, _| {
                    cx.eval(a, env, input2.clone(), None, &mut |cx, lhs, _| {
                        let v = binop(op, &lhs, &rhs)?;
                        cx.charge_size(&v)?;
                        cx.value_out(v, &path, out)
                    })
                })
            }
            Ast::And(a, b) | Ast::Or(a, b) => {
                let is_and = matches!(ast, Ast::And(..));
                let input2 = input.clone();
                self.eval(a, env, input, None, &mut |cx, l, _| {
                    if is_and != l.truthy() {
                        return cx.value_out(Value::Bool(!is_and), &path, out);
                    }
                    cx.eval(b, env, input2.clone(), None, &mut |cx, r, _| cx.value_out(Value::Bool(r.truthy()), &path, out))
                })
            }
            Ast::Alt(a, b) => {
                // jq 1.7.1 lets errors of the left side through.
                let mut any = false;
                self.eval(a, env, input.clone(), path.clone(), &mut |cx, v, p| {
                    if v.truthy() {
                        any = true;
                        out(cx, v, p)
                    } else {
                        Ok(())
                    }
                })?;
                if any {
                    return Ok(());
                }
                self.eval(b, env, input, path, out)
            }
            Ast::Update(kind, lhs, rhs) => self.update(*kind, lhs, rhs, env, input, &path, out),
            Ast::If(c, t, e) => {
                let input2 = input.clone();
                self.eval(c, env, input, None, &mut |cx, cond, _| {
                    if cond.truthy() {
                        cx.eval(t, env, input2.clone(), path.clone(), out)
                    } else {
                        match e {
                            Some(e) => cx.eval(e, env, input2.clone(), path.clone(), out),
                            None => out(cx, input2.clone(), path.clone()),
                        }
                    }
                })
            }
            Ast::Reduce(src, pats, n, init, update) => {
                let input2 = input.clone();
                self.eval(init, env, input, path.clone(), &mut |cx, start, spath| {
                    let mut state = Some((start, spath));
                    cx.eval(src, env, input2.clone(), None, &mut |cx, item, _| {
                        let (acc, apath) = state.take().unwrap_or((Value::Null, None));
                        // With one `$name` pattern (one binding) the state moves into
                        // the update, which may then change it in place.
                        let movable = matches!(pats.as_slice(), [Pattern::Var(_)]);
                        let mut acc = Some(acc);
                        let mut last = None;
                        cx.bind_patterns(pats, *n, env, item, &mut |cx, env2| {
                            last = None;
                            let acc = if movable { acc.take() } else { acc.clone() };
                            cx.eval(update, &env2, acc.unwrap_or(Value::Null), apath.clone(), &mut |_, v, p| {
                                last = Some((v, p));
                                Ok(())
                            })
                        })?;
                        state = Some(last.take().unwrap_or((Value::Null, None)));
                        Ok(())
                    })?;
                    match state.take() {
                        Some((v, p)) => out(cx, v, p),
                        None => Ok(()),
                    }
                })
            }
            Ast::Foreach(src, pats, n, init, update, extract) => {
                let input2 = input.clone();
                self.eval(init, env, input, path.clone(), &mut |cx, start, spath| {
                    let mut state = (start, spath);
                    cx.eval(src, env, input2.clone(), None, &mut |cx, item, _| {
                        cx.bind_patterns(pats, *n, env, item, &mut |cx, env2| {
                            let acc = state.clone();
                            cx.eval(update, &env2, acc.0, acc.1, &mut |cx, v, p| {
                                state = (v.clone(), p.clone());
                                match extract {
                                    Some(x) => cx.eval(x, &env2, v, p, out),
                                    None => out(cx, v, p),
                                }
                            })
                        })
                    })
                })
            }
            Ast::Bind(src, pats, n, body) => {
                let input2 = input.clone();
                self.eval(src, env, input, None, &mut |cx, v, _| {
                    cx.bind_patterns(pats, *n, env, v, &mut |cx, env2| cx.eval(body, &env2, input2.clone(), path.clone(), out))
                })
            }
            Ast::Label(body) => {
                self.next_label += 1;
                let id = self.next_label;
                let env2 = push(env, Bind::Label(id));
                match self.eval(body, &env2, input, path, out) {
                    Err(Flow::Break(b)) if b == id => Ok(()),
                    other => other,
                }
            }
            Ast::Break(h) => match walk(env, *h).map(|f| &f.bind) {
                Some(Bind::Label(id)) => Err(Flow::Break(*id)),
                _ => Err(err("break")),
            },
            Ast::Def(def, rest) => {
                let env2 = push(env, Bind::Func(def));
                self.eval(rest, &env2, input, path, out)
            }
            Ast::Call(target, args) => self.call(*target, args, env, input, path, out),
        }
    }

    /// Hands a computed value to `out`, or fails when a path is being tracked.
    pub fn value_out(&mut self, v: Value, path: &P, out: &mut Out<'_, 'p>) -> Res {
        if path.is_some() {
            let bad = Some(self.bad_path.clone());
            return out(self, v, bad);
        }
        out(self, v, None)
    }

    /// True when `path` marks a computed value, not a path.
    pub fn is_bad(&self, path: &P) -> bool {
        path.as_ref().is_some_and(|p| Rc::ptr_eq(p, &self.bad_path))
    }

    /// The path of an output of `path(f)`, or jq's error for a computed value.
    pub fn finish_path(&self, v: &Value, path: P) -> Result<Vec<Value>, Flow> {
        if self.is_bad(&path) {
            return Err(err(format!("Invalid path expression with result {}", truncate(&to_json(v), 30))));
        }
        Ok(path.map(|p| (*p).clone()).unwrap_or_default())
    }

    fn opt_eval(&mut self, e: Option<&'p Ast>, env: &Env<'p>, input: Value, out: &mut dyn FnMut(&mut Cx<'p>, Value) -> Res) -> Res {
        match e {
            Some(e) => self.eval(e, env, input, None, &mut |cx, v, _| out(cx, v)),
            None => out(self, Value::Null),
        }
    }

    /// `.[]` on one value.
    pub fn each(&mut self, base: Value, bpath: P, out: &mut Out<'_, 'p>) -> Res {
        if self.is_bad(&bpath) {
            return Err(err(format!("Invalid path expression near attempt to iterate through {}", truncate(&to_json(&base), 30))));
        }
        match &base {
            Value::Arr(a) => {
                for (i, v) in a.iter().enumerate() {
                    self.step()?;
                    out(self, v.clone(), extend(&bpath, Value::num(i as f64)))?;
                }
                Ok(())
            }
            Value::Obj(o) => {
                for (k, v) in o.iter() {
                    self.step()?;
                    out(self, v.clone(), extend(&bpath, Value::Str(k.clone())))?;
                }
                Ok(())
            }
            other => Err(err(format!("Cannot iterate over {} ({})", other.kind(), dump_short(other)))),
        }
    }

    fn recurse_all(&mut self, input: Value, path: P, out: &mut Out<'_, 'p>) -> Res {
        out(self, input.clone(), path.clone())?;
        match &input {
            Value::Arr(_) | Value::Obj(_) => {
                self.depth += 1;
                let r = self.each(input, path, &mut |cx, v, p| cx.recurse_all(v, p, out));
                self.depth -= 1;
                r
            }
            _ => Ok(()),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn interpolate(
        &mut self,
        parts: &'p [Part],
        upto: usize,
        env: &Env<'p>,
        input: &Value,
        fmt: Option<&str>,
        suffix: String,
        path: &P,
        out: &mut Out<'_, 'p>,
    ) -> Res {
        if upto == 0 {
            return self.value_out(Value::str(&suffix), path, out);
        }
        match parts.get(upto - 1) {
            Some(Part::Text(t)) => self.interpolate(parts, upto - 1, env, input, fmt, format!("{t}{suffix}"), path, out),
            Some(Part::Interp(e)) => self.eval(e, env, input.clone(), None, &mut |cx, v, _| {
                let text = match fmt {
                    Some(f) => match &format_value(f, &v)? {
                        Value::Str(s) => s.to_string(),
                        other => to_json(other),
                    },
                    None => match &v {
                        Value::Str(s) => s.to_string(),
                        other => to_json(other),
                    },
                };
                cx.interpolate(parts, upto - 1, env, input, fmt, format!("{text}{suffix}"), path, out)
            }),
            None => Ok(()),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn object(
        &mut self,
        members: &'p [(Ast, Ast)],
        i: usize,
        env: &Env<'p>,
        input: &Value,
        acc: Map,
        path: &P,
        out: &mut Out<'_, 'p>,
    ) -> Res {
        let Some((k, v)) = members.get(i) else {
            return self.value_out(Value::Obj(Rc::new(acc)), path, out);
        };
        self.eval(k, env, input.clone(), None, &mut |cx, key, _| {
            let key = match &key {
                Value::Str(s) => s.clone(),
                other => {
                    return Err(err(format!("Cannot use {} ({}) as object key", other.kind(), dump_short(other))));
                }
            };
            cx.eval(v, env, input.clone(), None, &mut |cx, val, _| {
                let mut next = acc.clone();
                next.insert(key.clone(), val);
                cx.object(members, i + 1, env, input, next, path, out)
            })
        })
    }

    fn call(&mut self, target: Target, args: &'p [Ast], env: &Env<'p>, input: Value, path: P, out: &mut Out<'_, 'p>) -> Res {
        match target {
            Target::Native(i) => call_native(self, i, args, env, input, path, out),
            Target::Pending(_) => Err(err("internal error: unresolved call")),
            Target::Param(h) => match walk(env, h).map(|f| &f.bind) {
                Some(Bind::Param(ast, cenv)) => {
                    let cenv = cenv.clone();
                    self.eval(ast, &cenv, input, path, out)
                }
                _ => Err(err("internal error: bad closure")),
            },
            Target::Global(i) => {
                let Some(Some(def)) = self.prog.defs.get(i) else {
                    return Err(err("internal error: bad definition"));
                };
                let def: &'p Def = def;
                self.enter_def(def, None, args, env, input, path, out)
            }
            Target::Local(h) => {
                let Some(frame) = walk(env, h) else {
                    return Err(err("internal error: bad definition"));
                };
                let Bind::Func(def) = frame.bind else {
                    return Err(err("internal error: bad definition"));
                };
                let base = Some(frame.clone());
                self.enter_def(def, base, args, env, input, path, out)
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn enter_def(
        &mut self,
        def: &'p Def,
        base: Env<'p>,
        args: &'p [Ast],
        env: &Env<'p>,
        input: Value,
        path: P,
        out: &mut Out<'_, 'p>,
    ) -> Res {
        let mut fenv = base;
        for a in args {
            fenv = push(&fenv, Bind::Param(a, env.clone()));
        }
        if def.params.iter().any(|v| *v) {
            self.bind_values(def, 0, args, env, fenv, input, path, out)
        } else {
            self.eval(&def.body, &fenv, input, path, out)
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn bind_values(
        &mut self,
        def: &'p Def,
        i: usize,
        args: &'p [Ast],
        env: &Env<'p>,
        fenv: Env<'p>,
        input: Value,
        path: P,
        out: &mut Out<'_, 'p>,
    ) -> Res {
        let Some(is_var) = def.params.get(i) else {
            return self.eval(&def.body, &fenv, input, path, out);
        };
        if !is_var {
            return self.bind_values(def, i + 1, args, env, fenv, input, path, out);
        }
        let Some(arg) = args.get(i) else {
            return Ok(());
        };
        let input2 = input.clone();
        self.eval(arg, env, input, None, &mut |cx, v, _| {
            let fenv2 = push(&fenv, Bind::Var(v));
            cx.bind_values(def, i + 1, args, env, fenv2, input2.clone(), path.clone(), out)
        })
    }

    /// Destructures `value` by the first pattern that works (`?//`), pushes
    /// the `n` variables and calls `body` with the new environment.
    pub fn bind_patterns(
        &mut self,
        pats: &'p [Pattern],
        n: usize,
        env: &Env<'p>,
        value: Value,
        body: &mut dyn FnMut(&mut Cx<'p>, Env<'p>) -> Res,
    ) -> Res {
        let count = pats.len();
        for (i, pat) in pats.iter().enumerate() {
            let mut slots = vec![Value::Null; n];
            let last = i + 1 == count;
            let mut results = Vec::new();
            let r = self.destructure(pat, env, &value, &mut slots, &mut results);
            let r = r.and_then(|()| {
                for slots in results {
                    let mut env2 = env.clone();
                    for v in slots {
                        env2 = push(&env2, Bind::Var(v));
                    }
                    if last {
                        body(self, env2)?;
                    } else {
                        body(self, env2).map_err(|e| match e {
                            Flow::Err(_) => e,
                            other => Flow::Down(Box::new(other)),
                        })?;
                    }
                }
                Ok(())
            });
            match r {
                Err(Flow::Err(e)) if !last => {
                    let _ = e;
                    continue;
                }
                Err(Flow::Down(inner)) if !last => return Err(*inner),
                other => return other,
            }
        }
        Ok(())
    }

    fn destructure(
        &mut self,
        pat: &'p Pattern,
        env: &Env<'p>,
        value: &Value,
        slots: &mut Vec<Value>,
        results: &mut Vec<Vec<Value>>,
    ) -> Res {
        // Patterns whose keys are generators multiply the bindings.
        let mut states = vec![slots.clone()];
        self.destructure_into(pat, env, value, &mut states)?;
        results.extend(states);
        Ok(())
    }

    fn destructure_into(&mut self, pat: &'p Pattern, env: &Env<'p>, value: &Value, states: &mut Vec<Vec<Value>>) -> Res {
        match pat {
            Pattern::Var(slot) => {
                for s in states.iter_mut() {
                    if let Some(x) = s.get_mut(*slot) {
                        *x = value.clone();
                    }
                }
                Ok(())
            }
            Pattern::Array(items) => {
                if !matches!(value, Value::Arr(_) | Value::Null) {
                    return Err(err(format!("Cannot index {} with number", value.kind())));
                }
                for (i, p) in items.iter().enumerate() {
                    let v = index_value(value, &Value::num(i as f64))?;
                    self.destructure_into(p, env, &v, states)?;
                }
                Ok(())
            }
            Pattern::Object(members) => {
                for (key, var, sub) in members {
                    let mut next = Vec::new();
                    for s in states.iter() {
                        // Key expressions see the variables bound so far.
                        let mut env2 = env.clone();
                        for v in s.iter() {
                            env2 = push(&env2, Bind::Var(v.clone()));
                        }
                        let mut keys = Vec::new();
                        self.eval(key, &env2, value.clone(), None, &mut |_, k, _| {
                            keys.push(k);
                            Ok(())
                        })?;
                        for k in keys {
                            if !matches!(k, Value::Str(_)) {
                                return Err(err(format!("Cannot index {} with {}", value.kind(), k.kind())));
                            }
                            let v = index_value(value, &k)?;
                            let mut st = vec![s.clone()];
                            if let Some(slot) = var {
                                if let Some(x) = st.first_mut().and_then(|s| s.get_mut(*slot)) {
                                    *x = v.clone();
                                }
                            }
                            if let Some(sub) = sub {
                                self.destructure_into(sub, env, &v, &mut st)?;
                            }
                            next.extend(st);
                        }
                    }
                    *states = next;
                }
                Ok(())
            }
        }
    }

    /// Collects the paths of `f` on `input`.
    pub fn collect_paths(&mut self, f: &'p Ast, env: &Env<'p>, input: Value) -> Result<Vec<Vec<Value>>, Flow> {
        let mut paths = Vec::new();
        self.eval(f, env, input, Some(Rc::new(Vec::new())), &mut |cx, v, p| {
            paths.push(cx.finish_path(&v, p)?);
            Ok(())
        })?;
        Ok(paths)
    }

    #[allow(clippy::too_many_arguments)]
    fn update(&mut self, kind: Assign, lhs: &'p Ast, rhs: &'p Ast, env: &Env<'p>, input: Value, path: &P, out: &mut Out<'_, 'p>) -> Res {
        match kind {
            Assign::Modify => {
                let paths = self.collect_paths(lhs, env, input.clone())?;
                let mut acc = input;
                let mut deletions = Vec::new();
                for p in paths {
                    self.step()?;
                    let old = getpath(&acc, &p)?;
                    let mut first = None;
                    let r = self.eval(rhs, env, old, None, &mut |_, v, _| {
                        first = Some(v);
                        Err(Flow::Break(u64::MAX))
                    });
                    match r {
                        Ok(()) | Err(Flow::Break(u64::MAX)) => {}
                        Err(e) => return Err(e),
                    }
                    match first {
                        Some(v) => acc = set_owned(acc, &p, v)?,
                        None => deletions.push(p),
                    }
                }
                if !deletions.is_empty() {
                    acc = delpaths(&acc, &deletions)?;
                }
                self.value_out(acc, path, out)
            }
            Assign::Set | Assign::Arith(_) | Assign::Alt => {
                if let Some(rv) = self.simple_value(rhs, env) {
                    // One value known without evaluating: the input is
                    // updated where it stands, in place when held only here.
                    let paths = self.collect_paths(lhs, env, input.clone())?;
                    let acc = self.assign_paths(kind, input, paths, &rv)?;
                    return self.value_out(acc, path, out);
                }
                let input2 = input.clone();
                self.eval(rhs, env, input, None, &mut |cx, rv, _| {
                    let paths = cx.collect_paths(lhs, env, input2.clone())?;
                    let acc = cx.assign_paths(kind, input2.clone(), paths, &rv)?;
                    cx.value_out(acc, path, out)
                })
            }
        }
    }

    /// `=`, `op=` and `//=` of `rv` at each of `paths` in `acc`.
    fn assign_paths(&mut self, kind: Assign, mut acc: Value, paths: Vec<Vec<Value>>, rv: &Value) -> Result<Value, Flow> {
        for p in paths {
            self.step()?;
            let v = match kind {
                Assign::Arith(op) => binop(op, &getpath(&acc, &p)?, rv)?,
                Assign::Alt => {
                    let old = getpath(&acc, &p)?;
                    if old.truthy() {
                        old
                    } else {
                        rv.clone()
                    }
                }
                _ => rv.clone(),
            };
            acc = set_owned(acc, &p, v)?;
        }
        Ok(acc)
    }

    /// The one value of a constant or a variable, without evaluating.
    fn simple_value(&self, ast: &Ast, env: &Env<'p>) -> Option<Value> {
        match ast {
            Ast::Lit(v) => Some(v.clone()),
            Ast::Var(VarRef::Global(i)) => self.globals.get(*i).cloned(),
            Ast::Var(VarRef::Local(h)) => match walk(env, *h).map(|f| &f.bind) {
                Some(Bind::Var(v)) => Some(v.clone()),
                _ => None,
            },
            _ => None,
        }
    }
}

/// `path` with `key` appended, when paths are tracked.
pub fn extend(path: &P, key: Value) -> P {
    path.as_ref().map(|p| {
        let mut v = Vec::with_capacity(p.len() + 1);
        v.extend(p.iter().cloned());
        v.push(key);
        Rc::new(v)
    })
}

/// The binary operators' error for dividing, used by `ops`.
pub fn type_error2(a: &Value, b: &Value, msg: &str) -> Flow {
    err(format!("{} ({}) and {} ({}) {}", a.kind(), dump_short(a), b.kind(), dump_short(b), msg))
}
