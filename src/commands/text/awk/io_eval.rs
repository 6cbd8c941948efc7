//! Evaluating the expressions that do I/O: every form of `getline`,
//! `close`, `fflush`, `system`, calls of functions that print, and the
//! operators around them.

use super::ast::{Builtin, Expr, GetlineSource, LValue};
use super::eval::bool_value;
use super::indirect::Target;
use super::interp::{EResult, Interp, Stop};
use super::io::{Io, Reader};
use super::value::{Str, Value};
use super::vars::{NR, RT};
use crate::utility::Invocation;

/// Evaluates `expr`, which does I/O somewhere inside.
pub async fn eval_io<'p>(it: &mut Interp<'p>, ctx: &mut Invocation<'_>, expr: &'p Expr) -> EResult<Value> {
    match expr {
        Expr::Getline(source, target) => getline(it, ctx, source, target.as_deref()).await,
        Expr::Builtin(builtin @ (Builtin::Close | Builtin::Fflush | Builtin::System), args) => io_builtin(it, ctx, *builtin, args).await,
        Expr::Call(index, args) => call(it, ctx, *index, args).await,
        Expr::Indirect(var, args) => match it.indirect_target(ctx, *var, args.len())? {
            Target::User(index) => call(it, ctx, index, args).await,
            Target::Builtin(builtin @ (Builtin::Close | Builtin::Fflush | Builtin::System)) => io_builtin(it, ctx, builtin, args).await,
            Target::Builtin(builtin) => it.builtin(ctx, builtin, args),
        },
        Expr::Assign(target, op, value) => {
            let value = it.value(ctx, value).await?;
            it.assign(ctx, target, *op, value)
        }
        Expr::Append(var, tail) => {
            let head = it.get_var(*var)?;
            let tail = it.value(ctx, tail).await?;
            it.append(*var, head, &tail)
        }
        Expr::Binary(op, a, b) => {
            let a = it.value(ctx, a).await?;
            let b = it.value(ctx, b).await?;
            it.binary(*op, &a, &b)
        }
        Expr::And(a, b) => Ok(bool_value(it.value(ctx, a).await?.truthy() && it.value(ctx, b).await?.truthy())),
        Expr::Or(a, b) => Ok(bool_value(it.value(ctx, a).await?.truthy() || it.value(ctx, b).await?.truthy())),
        Expr::Not(a) => Ok(bool_value(!it.value(ctx, a).await?.truthy())),
        Expr::Neg(a) => Ok(Value::Num(-it.value(ctx, a).await?.num())),
        Expr::Plus(a) => Ok(Value::Num(it.value(ctx, a).await?.num())),
        Expr::Cond(c, a, b) => {
            if it.value(ctx, c).await?.truthy() {
                it.value(ctx, a).await
            } else {
                it.value(ctx, b).await
            }
        }
        Expr::Match(subject, pattern, positive) => {
            let subject = it.value(ctx, subject).await?;
            let regex = match &**pattern {
                Expr::Regex(index) | Expr::TypedRegex(index, _) => it.literal(*index)?,
                other => {
                    let value = it.value(ctx, other).await?;
                    it.dynamic_regex(&value)?
                }
            };
            let text = it.to_str(&subject);
            Ok(bool_value(regex.is_match(&text).unwrap_or(false) == *positive))
        }
        Expr::Field(index) => {
            let index = it.value(ctx, index).await?.num();
            it.field(index)
        }
        Expr::Builtin(builtin, args) if args.iter().all(|a| !matches!(a, Expr::Var(_) | Expr::Index(..))) => {
            // A value-only built-in whose arguments do I/O: evaluate them first.
            let mut values = Vec::with_capacity(args.len());
            for arg in args {
                values.push(it.value(ctx, arg).await?);
            }
            let constants: Vec<Expr> = values
                .into_iter()
                .map(|v| match v {
                    Value::Num(n) => Expr::Num(n),
                    other => Expr::Str(it.to_str(&other)),
                })
                .collect();
            super::builtins::call_owned(it, ctx, *builtin, constants)
        }
        _ => Err(Stop::Fatal("getline, close or system is not supported in this position".into())),
    }
}

async fn eval_str<'p>(it: &mut Interp<'p>, ctx: &mut Invocation<'_>, expr: &'p Expr) -> EResult<Str> {
    let value = it.value(ctx, expr).await?;
    Ok(it.to_str(&value))
}

async fn getline<'p>(
    it: &mut Interp<'p>,
    ctx: &mut Invocation<'_>,
    source: &'p GetlineSource,
    target: Option<&'p LValue>,
) -> EResult<Value> {
    let record = match source {
        GetlineSource::Main => {
            let Some(record) = it.next_main_record(ctx).await? else {
                return Ok(Value::Num(0.0));
            };
            it.bump(NR);
            it.bump(super::vars::FNR);
            record
        }
        GetlineSource::File(file) => {
            let name = eval_str(it, ctx, file).await?;
            if !it.io.files.contains_key(name.as_ref()) {
                let text = String::from_utf8_lossy(&name).into_owned();
                let input = if text == "-" || text == "/dev/stdin" {
                    crate::commands::common::Input::Stdin
                } else {
                    crate::commands::common::Input::File(text)
                };
                match crate::commands::common::open_input(ctx, &input).await {
                    Ok(fd) => {
                        it.io.files.insert(name.to_vec(), Reader::new(fd));
                    }
                    Err(error) => {
                        it.set_plain(
                            super::vars::SPECIALS.iter().position(|s| *s == "ERRNO").unwrap_or(21),
                            Value::str(error.to_string().as_bytes()),
                        );
                        return Ok(Value::Num(-1.0));
                    }
                }
            }
            let rs = it.io.rs.clone();
            let Some(reader) = it.io.files.get_mut(name.as_ref()) else {
                return Ok(Value::Num(-1.0));
            };
            match reader.next_record(&rs).await {
                Some(record) => record,
                None => return Ok(Value::Num(0.0)),
            }
        }
        GetlineSource::Command(command) => {
            let command = eval_str(it, ctx, command).await?;
            if !it.io.commands.contains_key(command.as_ref()) {
                flush_all(it, ctx).await?;
                let limit = ctx.shell.size_limits().max_string_bytes;
                let (reader, status) = Io::run_for_input(ctx, &command, limit).await;
                it.io.commands.insert(command.to_vec(), reader);
                it.io.command_status.insert(command.to_vec(), status);
            }
            let rs = it.io.rs.clone();
            let Some(reader) = it.io.commands.get_mut(command.as_ref()) else {
                return Ok(Value::Num(-1.0));
            };
            match reader.next_record(&rs).await {
                Some(record) => record,
                None => return Ok(Value::Num(0.0)),
            }
        }
    };
    it.set_rt(record.terminator.as_slice());
    match target {
        None => it.set_record(record.text),
        Some(target) => {
            let resolved = it.resolve(ctx, target)?;
            it.resolved_set(resolved, Value::StrNum(record.text))?;
        }
    }
    Ok(Value::Num(1.0))
}

/// `close(name)`: ends a redirection or input; the status as gawk returns it.
pub async fn close(it: &mut Interp<'_>, ctx: &mut Invocation<'_>, name: &[u8]) -> EResult<Value> {
    if let Some(at) = it.io.outputs.iter().position(|(n, _)| n == name) {
        let status = it.io.close_output(ctx, at).await.map_err(Stop::Status)?;
        return Ok(Value::Num(f64::from(status)));
    }
    if it.io.commands.remove(name).is_some() {
        let status = it.io.command_status.remove(name).unwrap_or(0);
        return Ok(Value::Num(f64::from(status)));
    }
    if it.io.files.remove(name).is_some() {
        return Ok(Value::Num(0.0));
    }
    Ok(Value::Num(-1.0))
}

async fn fflush(it: &mut Interp<'_>, ctx: &mut Invocation<'_>, target: Option<&[u8]>) -> EResult<Value> {
    match target {
        None => {
            flush_all(it, ctx).await?;
            Ok(Value::Num(0.0))
        }
        Some(name) if name == b"/dev/stdout" => {
            it.io.flush_stdout(ctx).await.map_err(Stop::Status)?;
            Ok(Value::Num(0.0))
        }
        Some(name) => match it.io.outputs.iter().position(|(n, _)| n == name) {
            Some(at) => {
                it.io.flush_output(ctx, at).await.map_err(Stop::Status)?;
                Ok(Value::Num(0.0))
            }
            None => Ok(Value::Num(-1.0)),
        },
    }
}

/// Writes standard output and every file redirection.
pub async fn flush_all(it: &mut Interp<'_>, ctx: &mut Invocation<'_>) -> EResult<()> {
    for at in 0..it.io.outputs.len() {
        it.io.flush_output(ctx, at).await.map_err(Stop::Status)?;
    }
    it.io.flush_stdout(ctx).await.map_err(Stop::Status)
}

impl Interp<'_> {
    /// Sets `RT`, reusing the value when it did not change.
    pub fn set_rt(&mut self, terminator: &[u8]) {
        if let Some(super::vars::Cell::Val(Value::StrNum(current))) = self.globals.get(RT) {
            if current.as_ref() == terminator {
                return;
            }
        }
        self.set_plain(RT, Value::StrNum(Str::from(terminator)));
    }
}

/// `close`, `fflush` and `system`, called directly or indirectly.
async fn io_builtin<'p>(it: &mut Interp<'p>, ctx: &mut Invocation<'_>, builtin: Builtin, args: &'p [Expr]) -> EResult<Value> {
    match builtin {
        Builtin::Close => {
            let Some(arg) = args.first() else {
                return Ok(Value::Uninit);
            };
            let name = eval_str(it, ctx, arg).await?;
            close(it, ctx, &name).await
        }
        Builtin::Fflush => {
            let target = match args.first() {
                Some(arg) => Some(eval_str(it, ctx, arg).await?),
                None => None,
            };
            fflush(it, ctx, target.as_deref()).await
        }
        _ => {
            let Some(arg) = args.first() else {
                return Ok(Value::Uninit);
            };
            let command = eval_str(it, ctx, arg).await?;
            flush_all(it, ctx).await?;
            let command = String::from_utf8_lossy(&command).into_owned();
            let status = ctx
                .shell
                .run_command(vec!["sh".into(), "-c".into(), command], ctx.stdin.clone(), ctx.stdout.clone(), ctx.stderr.clone())
                .await;
            Ok(Value::Num(f64::from(status)))
        }
    }
}

/// Calls user function `index`, whose body may do I/O.
async fn call<'p>(it: &mut Interp<'p>, ctx: &mut Invocation<'_>, index: usize, args: &'p [Expr]) -> EResult<Value> {
    let mut pre = Vec::with_capacity(args.len());
    for arg in args {
        if matches!(arg, Expr::Var(_)) {
            pre.push(None);
        } else {
            pre.push(Some(it.value(ctx, arg).await?));
        }
    }
    let frame = it.bind_args(ctx, index, args, &mut pre)?;
    let prog = it.prog;
    let Some(function) = prog.functions.get(index) else {
        return Ok(Value::Uninit);
    };
    it.frames.push(frame);
    it.depth += 1;
    let saved = it.current_function.replace(index);
    let result = it.exec_block_async(ctx, &function.body).await;
    it.current_function = saved;
    it.depth -= 1;
    it.frames.pop();
    match result? {
        super::exec::Flow::Return(value) => Ok(value),
        _ => Ok(Value::Uninit),
    }
}
