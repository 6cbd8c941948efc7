//! `env` and `printenv`: show the exported environment, or run a command
//! in a changed one (`env -i`, `-u NAME`, `NAME=VALUE`).
//!
//! The command runs as a separate program through the shell's
//! `run_program`, with the changed environment and directory handed over
//! as values (never as shell text).

use crate::commands::format::quote_locale;
use crate::commands::options::{parse, report_usage, Long, Spec};
use crate::host::LocalFuture;
use crate::utility::{write_failure_status, Invocation, ProgramRequest};

const ENV_LONGS: &[Long] =
    &[Long::flag("ignore-environment", "i"), Long::required("unset", "u"), Long::flag("null", "0"), Long::required("chdir", "C")];
const ENV_SPEC: Spec = Spec::new("iu:0C:", ENV_LONGS).stopping();
const PRINTENV_SPEC: Spec = Spec::new("0", &[Long::flag("null", "0")]);

/// The environment `env` hands on: the shell's (or none with `-i`), less
/// the `-u` names, plus the `NAME=VALUE` assignments in order.
fn changed_environment(base: &[(String, String)], clear: bool, unset: &[String], assignments: &[String]) -> Vec<(String, String)> {
    let mut env: Vec<(String, String)> = if clear { Vec::new() } else { base.to_vec() };
    env.retain(|(name, _)| !unset.contains(name));
    for assignment in assignments {
        let (name, value) = assignment.split_once('=').unwrap_or((assignment, ""));
        env.retain(|(existing, _)| existing != name);
        env.push((name.to_string(), value.to_string()));
    }
    env
}

/// Runs `env [-i] [-u NAME]... [NAME=VALUE]... [COMMAND [ARG]...]`.
pub fn run_env<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let args: Vec<String> =
            ctx.args.get(1..).unwrap_or(&[]).iter().map(|a| if a == "-" { "-i".to_string() } else { a.clone() }).collect();
        let parsed = match parse(&ENV_SPEC, &args) {
            Ok(parsed) => parsed,
            Err(error) => {
                report_usage(ctx, &error.message()).await;
                return 125;
            }
        };
        let clear = parsed.has("i");
        let unset: Vec<String> = parsed.options.iter().filter(|(k, _)| *k == "u").filter_map(|(_, v)| v.clone()).collect();
        let mut operands = parsed.operands.iter().peekable();
        let mut assignments = Vec::new();
        while let Some(word) = operands.next_if(|w| w.contains('=') && !w.starts_with('=')) {
            assignments.push(word.clone());
        }
        let command: Vec<String> = operands.cloned().collect();
        if parsed.has("0") && !command.is_empty() {
            report_usage(ctx, "cannot specify --null (-0) with command").await;
            return 125;
        }
        if command.is_empty() {
            let env = changed_environment(&ctx.env, clear, &unset, &assignments);
            let end = if parsed.has("0") { '\0' } else { '\n' };
            let text: String = env.iter().map(|(name, value)| format!("{name}={value}{end}")).collect();
            return match ctx.write_out(text.as_bytes()).await {
                Ok(()) => 0,
                Err(error) => write_failure_status(error),
            };
        }
        let name = command.first().cloned().unwrap_or_default();
        if !crate::commands::common::program_exists(ctx, &name).await {
            ctx.report(&format!("{}: No such file or directory", quote_locale(ctx, &name))).await;
            return 127;
        }
        let cwd = match parsed.value("C") {
            Some(dir) => {
                let path = ctx.resolve(dir);
                match ctx.fs.metadata(&path).await {
                    Ok(metadata) if metadata.is_dir() => Some(path),
                    Ok(_) => {
                        ctx.report(&format!("cannot change directory to {}: Not a directory", crate::commands::format::quote(dir))).await;
                        return 125;
                    }
                    Err(error) => {
                        ctx.report(&format!("cannot change directory to {}: {error}", crate::commands::format::quote(dir))).await;
                        return 125;
                    }
                }
            }
            None => None,
        };
        let changed = clear || !unset.is_empty() || !assignments.is_empty();
        let mut request = ProgramRequest::new(command, ctx.stdin.clone(), ctx.stdout.clone(), ctx.stderr.clone());
        request.env = changed.then(|| changed_environment(&ctx.env, clear, &unset, &assignments));
        request.cwd = cwd;
        ctx.shell.run_program(request).await
    })
}

/// Runs `printenv [-0] [NAME]...`.
pub fn run_printenv<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let args = ctx.args.get(1..).unwrap_or(&[]).to_vec();
        let parsed = match parse(&PRINTENV_SPEC, &args) {
            Ok(parsed) => parsed,
            Err(error) => {
                report_usage(ctx, &error.message()).await;
                return 2;
            }
        };
        let end = if parsed.has("0") { '\0' } else { '\n' };
        let mut text = String::new();
        let mut status = 0;
        if parsed.operands.is_empty() {
            for (name, value) in &ctx.env {
                text.push_str(&format!("{name}={value}{end}"));
            }
        } else {
            for name in &parsed.operands {
                match ctx.env_var(name) {
                    Some(value) if !name.contains('=') => text.push_str(&format!("{value}{end}")),
                    _ => status = 1,
                }
            }
        }
        match ctx.write_out(text.as_bytes()).await {
            Ok(()) => status,
            Err(error) => write_failure_status(error),
        }
    })
}
