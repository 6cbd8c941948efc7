//! `less` and `more`: the sandbox has no terminal, so both behave as they
//! do when their output is not one: they copy their files (or standard
//! input) to standard output; `more` puts a `::::` header before each file. Options are accepted and ignored.

use crate::commands::common::{copy_to_stdout, open_input, Input};
use crate::host::LocalFuture;
use crate::utility::Invocation;

async fn page(ctx: &Invocation<'_>, headers: bool) -> i32 {
    let mut files: Vec<String> = Vec::new();
    let mut options_done = false;
    for arg in ctx.args.iter().skip(1) {
        if !options_done && arg == "--" {
            options_done = true;
        } else if !options_done && (arg.starts_with('-') || arg.starts_with('+')) && arg.len() > 1 {
            continue;
        } else {
            files.push(arg.clone());
        }
    }
    if files.is_empty() {
        return match copy_to_stdout(ctx, &ctx.stdin).await {
            Ok(()) => 0,
            Err(status) => status,
        };
    }
    for name in &files {
        let stream = match open_input(ctx, &Input::File(name.clone())).await {
            Ok(stream) => stream,
            Err(error) => {
                if headers {
                    ctx.report(&format!("cannot open {name}: {error}")).await;
                } else {
                    // less reports an unreadable file on its output.
                    let _ = ctx.stdout.write(format!("{name}: {error}\n").as_bytes()).await;
                }
                continue;
            }
        };
        if headers {
            let header = format!("::::::::::::::\n{name}\n::::::::::::::\n");
            if let Err(error) = ctx.write_out(header.as_bytes()).await {
                return ctx.write_failed(error).await;
            }
        }
        if let Err(status) = copy_to_stdout(ctx, &stream).await {
            return status;
        }
    }
    0
}

/// Runs `less [options] [FILE]...` as `cat`.
pub fn run_less<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move { page(ctx, false).await })
}

/// Runs `more [options] [FILE]...` as `cat` with headers between files.
pub fn run_more<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move { page(ctx, true).await })
}
