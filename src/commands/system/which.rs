//! `which`: the path of each named command found in `PATH`, as Debian's
//! `which` prints it (`-a` for every match); status 1 when any is missing.

use crate::commands::common::{is_executable, DEFAULT_PATH};
use crate::host::LocalFuture;
use crate::utility::{write_failure_status, Invocation};

/// Runs `which [-a] NAME...`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let mut all = false;
        let mut names = Vec::new();
        for arg in ctx.args.iter().skip(1) {
            match arg.as_str() {
                "-a" => all = true,
                "-s" => {}
                other if other.starts_with('-') && other.len() > 1 => {
                    let _ = ctx.stderr.write(b"Usage: /usr/bin/which [-as] args\n").await;
                    return 2;
                }
                other => names.push(other.to_string()),
            }
        }
        if names.is_empty() {
            return 1;
        }
        let path = ctx.env_var("PATH").unwrap_or(DEFAULT_PATH).to_string();
        let mut status = 0;
        let mut out = String::new();
        for name in &names {
            let mut found = false;
            if name.contains('/') {
                if is_executable(ctx, &ctx.resolve(name)).await {
                    out.push_str(&format!("{name}\n"));
                    found = true;
                }
            } else {
                for dir in path.split(':') {
                    let dir = if dir.is_empty() { "." } else { dir };
                    let candidate = format!("{}/{name}", dir.trim_end_matches('/'));
                    if is_executable(ctx, &ctx.resolve(&candidate)).await {
                        out.push_str(&format!("{candidate}\n"));
                        found = true;
                        if !all {
                            break;
                        }
                    }
                }
            }
            if !found {
                status = 1;
            }
        }
        match ctx.write_out(out.as_bytes()).await {
            Ok(()) => status,
            Err(error) => write_failure_status(error),
        }
    })
}
