//! Control builtins: `:`, `true`, `false`, `exit`, `logout`, `return`,
//! `break`, `continue`, `shift`.

use super::{words, Arg};
use crate::host::LocalFuture;
use crate::interp::{Flow, Outcome, Shell};

/// `:` and `true`: status 0.
pub fn colon(_shell: &mut Shell, _args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async { Ok(0) })
}

/// `true`.
pub fn true_(_shell: &mut Shell, _args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async { Ok(0) })
}

/// `false`.
pub fn false_(_shell: &mut Shell, _args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async { Ok(1) })
}

/// Parses the status argument of `exit`/`return`: `None` with an error reported.
async fn status_argument(shell: &mut Shell, name: &str, args: &[String]) -> Option<i32> {
    match args.get(1) {
        None => Some(shell.last_status),
        Some(text) => match text.trim().parse::<i64>() {
            Ok(n) => Some((n & 0xff) as i32),
            Err(_) => {
                shell.builtin_error(name, &format!("{text}: numeric argument required")).await;
                None
            }
        },
    }
}

/// `exit [n]`.
pub fn exit(shell: &mut Shell, args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        let args = words(&args);
        if args.len() > 2 {
            shell.builtin_error("exit", "too many arguments").await;
            return Err(Flow::Exit(1));
        }
        shell.exit_called = true;
        match status_argument(shell, "exit", &args).await {
            Some(status) => Err(Flow::Exit(status)),
            None => Err(Flow::Exit(2)),
        }
    })
}

/// `logout`: only valid in login shells.
pub fn logout(shell: &mut Shell, _args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        shell.builtin_error("logout", "not login shell: use `exit'").await;
        Ok(1)
    })
}

/// `return [n]`.
pub fn return_(shell: &mut Shell, args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        let args = words(&args);
        if shell.call_stack.is_empty() && shell.source_depth == 0 {
            shell.builtin_error("return", "can only `return' from a function or sourced script").await;
            return Ok(2);
        }
        if args.len() > 2 {
            shell.builtin_error("return", "too many arguments").await;
            return Ok(1);
        }
        match status_argument(shell, "return", &args).await {
            Some(status) => Err(Flow::Return(status)),
            None => Err(Flow::Return(2)),
        }
    })
}

async fn loop_count(shell: &mut Shell, name: &str, args: &[String]) -> Result<usize, Outcome> {
    if shell.loop_depth == 0 {
        shell.builtin_error(name, "only meaningful in a `for', `while', or `until' loop").await;
        return Err(Ok(0));
    }
    let count = match args.get(1) {
        None => 1,
        Some(text) => match text.parse::<i64>() {
            Ok(n) if n >= 1 => n as usize,
            Ok(_) => {
                // Bash then leaves every enclosing loop.
                shell.builtin_error(name, &format!("{text}: loop count out of range")).await;
                return Err(Err(Flow::Break(shell.loop_depth)));
            }
            Err(_) => {
                // A non-numeric count ends a non-interactive shell.
                shell.builtin_error(name, &format!("{text}: numeric argument required")).await;
                return Err(Err(Flow::Exit(128)));
            }
        },
    };
    Ok(count.min(shell.loop_depth))
}

/// `break [n]`.
pub fn break_(shell: &mut Shell, args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        match loop_count(shell, "break", &words(&args)).await {
            Ok(n) => Err(Flow::Break(n)),
            Err(outcome) => outcome,
        }
    })
}

/// `continue [n]`.
pub fn continue_(shell: &mut Shell, args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        match loop_count(shell, "continue", &words(&args)).await {
            Ok(n) => Err(Flow::Continue(n)),
            Err(outcome) => outcome,
        }
    })
}

/// `shift [n]`.
pub fn shift(shell: &mut Shell, args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        let args = words(&args);
        let count = match args.get(1) {
            None => 1,
            Some(text) => match text.parse::<i64>() {
                Ok(n) if n >= 0 => n as usize,
                Ok(_) => {
                    shell.builtin_error("shift", &format!("{text}: shift count out of range")).await;
                    return Ok(1);
                }
                Err(_) => {
                    shell.builtin_error("shift", &format!("{text}: numeric argument required")).await;
                    return Ok(1);
                }
            },
        };
        if count > shell.positional.len() {
            return Ok(1);
        }
        shell.positional.drain(..count);
        Ok(0)
    })
}
