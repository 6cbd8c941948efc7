//! Builtins that run shell text: `eval`, `source`/`.` and `exec`.

use super::{words, Arg};
use crate::host::LocalFuture;
use crate::interp::{Flow, Outcome, Shell};

/// `eval [arg...]`.
pub fn eval(shell: &mut Shell, args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        let args = words(&args);
        let first = match operands_start(shell, &args, "eval [arg ...]").await {
            Ok(first) => first,
            Err(status) => return Ok(status),
        };
        let text = args[first..].join(" ");
        if text.trim().is_empty() {
            return Ok(0);
        }
        if shell.nesting_depth() >= shell.limits.max_call_depth {
            // As bash with EVALNEST_MAX set: the error abandons the current line.
            let message = format!("eval: maximum eval nesting level exceeded ({})", shell.limits.max_call_depth);
            shell.report_error(&message).await;
            return Err(Flow::Abort(1));
        }
        // Bash numbers the text from the line its reader stands on: where the
        // `eval` command ends.
        let line = shell.source.line_of(shell.command_end.saturating_sub(1)).max(shell.current_line);
        let saved_prefix = std::mem::replace(&mut shell.syntax_prefix, format!("{}: eval", shell.error_prefix));
        shell.syntax_error = None;
        shell.eval_depth += 1;
        let result = shell.run_text_flow(&text, line).await;
        shell.eval_depth -= 1;
        shell.syntax_prefix = saved_prefix;
        match result {
            // A syntax error in eval'd text fails the eval; the shell goes on.
            Err(Flow::Exit(status)) if shell.syntax_error.take().is_some() => Ok(status),
            other => other,
        }
    })
}

/// `source file [args]` and `. file [args]`.
pub fn source(shell: &mut Shell, args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        let mut args = words(&args);
        let name = args[0].clone();
        let usage = format!("{name} filename [arguments]");
        let first = match operands_start(shell, &args, &usage).await {
            Ok(first) => first,
            Err(status) => return Ok(status),
        };
        args.drain(1..first);
        let Some(file) = args.get(1) else {
            shell.builtin_error(&name, "filename argument required").await;
            let _ = shell.write_fd(2, format!("{name}: usage: {usage}\n").as_bytes()).await;
            return Ok(2);
        };
        let path = match shell.source_path(file).await {
            Some(found) => crate::fs::path::join(&shell.cwd, &found),
            None => crate::fs::path::join(&shell.cwd, file),
        };
        let text = match shell.fs.read_file(&path).await {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(error) => {
                shell.report_error(&format!("{file}: {error}")).await;
                return Ok(1);
            }
        };
        if shell.nesting_depth() >= shell.limits.max_call_depth {
            // As bash with SOURCENEST_MAX set: the error abandons the current line.
            let message = format!("{file}: maximum source nesting level exceeded ({})", shell.limits.max_call_depth);
            shell.builtin_error(&name, &message).await;
            return Err(Flow::Abort(1));
        }
        let saved_positional = if args.len() > 2 { Some(std::mem::replace(&mut shell.positional, args[2..].to_vec())) } else { None };
        shell.source_depth += 1;
        let saved_prefix = std::mem::replace(&mut shell.error_prefix, std::rc::Rc::from(file.as_str()));
        let saved_syntax = std::mem::replace(&mut shell.syntax_prefix, file.clone());
        shell.syntax_error = None;
        let result = shell.run_text_flow(&text, 1).await;
        shell.error_prefix = saved_prefix;
        shell.syntax_prefix = saved_syntax;
        shell.source_depth -= 1;
        if let Some(positional) = saved_positional {
            shell.positional = positional;
        }
        match result {
            Err(Flow::Return(status)) => Ok(status),
            // A syntax error in the file fails the `source`; the shell goes on.
            Err(Flow::Exit(status)) if shell.syntax_error.take().is_some() => Ok(status),
            other => other,
        }
    })
}

/// Skips the `--` that ends the options of a builtin that takes none; any
/// other option is an error (reported with the usage, status 2).
async fn operands_start(shell: &mut Shell, args: &[String], usage: &str) -> Result<usize, i32> {
    let Some(first) = args.get(1) else { return Ok(1) };
    if first == "--" {
        return Ok(2);
    }
    if first.len() < 2 || !first.starts_with('-') {
        return Ok(1);
    }
    let option = if first.starts_with("--") { "--" } else { first.get(..2).unwrap_or(first) };
    shell.builtin_error(&args[0], &format!("{option}: invalid option")).await;
    let _ = shell.write_fd(2, format!("{}: usage: {usage}\n", args[0]).as_bytes()).await;
    Err(2)
}

impl Shell {
    /// Function calls, sourced files and `eval`s running inside one
    /// another: together they are bounded by the call-depth limit, which
    /// keeps the engine's native stack (small in wasm) from running out.
    pub(crate) fn nesting_depth(&self) -> usize {
        self.call_stack.len() + self.source_depth + self.eval_depth
    }

    /// Where `source` finds a name without a slash: the first regular file
    /// along `PATH` (`sourcepath`), else `None` (the name itself is used).
    async fn source_path(&self, file: &str) -> Option<String> {
        if file.contains('/') || self.options.get_shopt("sourcepath") != Some(true) {
            return None;
        }
        self.search_path_files(file).await
    }
}

/// `exec [command]`: with no command the redirections persist (the caller
/// keeps them); with a command it runs and the shell ends with its status.
pub fn exec(shell: &mut Shell, args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        let mut rest: Vec<Arg> = args[1..].to_vec();
        while let Some(Arg::Word(w)) = rest.first() {
            if w == "--" {
                rest.remove(0);
                break;
            }
            if w.starts_with('-') && w.len() > 1 {
                rest.remove(0);
                continue;
            }
            break;
        }
        if rest.is_empty() {
            return Ok(0);
        }
        let name = rest[0].text();
        let known = name.contains('/') || super::find(&name).is_some() || shell.functions.contains_key(&name);
        if !known && shell.search_path(&name).await.is_none() {
            shell.builtin_error("exec", &format!("{name}: not found")).await;
            return Err(Flow::Exit(127));
        }
        let status = match shell.dispatch(rest).await {
            Ok(status) => status,
            Err(Flow::Exit(status)) => status,
            Err(_) => shell.last_status,
        };
        Err(Flow::Exit(status))
    })
}
