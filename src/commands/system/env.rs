//! `env` and `printenv`: show the exported environment, or run a command
//! in a changed one (`env -i`, `-u NAME`, `NAME=VALUE`).
//!
//! The shell contract runs a command with the shell's own environment, so a
//! changed environment is applied by running the command through
//! `bash -c 'unset ...; export NAME=...; "$@"'`.

use crate::commands::hash::source::quote_value;
use crate::commands::options::{parse, report_usage, Long, Spec};
use crate::host::LocalFuture;
use crate::interp::{write_failure_status, Invocation};

const ENV_LONGS: &[Long] =
    &[Long::flag("ignore-environment", "i"), Long::required("unset", "u"), Long::flag("null", "0"), Long::required("chdir", "C")];
const ENV_SPEC: Spec = Spec::new("iu:0C:", ENV_LONGS).stopping();
const PRINTENV_SPEC: Spec = Spec::new("0", &[Long::flag("null", "0")]);

fn single_quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

fn is_name(text: &str) -> bool {
    let mut chars = text.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_') && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
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
            let mut env: Vec<(String, String)> = if clear { Vec::new() } else { ctx.env.clone() };
            env.retain(|(name, _)| !unset.contains(name));
            for assignment in &assignments {
                let (name, value) = assignment.split_once('=').unwrap_or((assignment, ""));
                env.retain(|(existing, _)| existing != name);
                env.push((name.to_string(), value.to_string()));
            }
            let end = if parsed.has("0") { '\0' } else { '\n' };
            let text: String = env.iter().map(|(name, value)| format!("{name}={value}{end}")).collect();
            return match ctx.write_out(text.as_bytes()).await {
                Ok(()) => 0,
                Err(error) => write_failure_status(error),
            };
        }
        let name = command.first().cloned().unwrap_or_default();
        if !ctx.shell.command_exists(&name) {
            ctx.report(&format!("{}: No such file or directory", quote_value(&name))).await;
            return 127;
        }
        let argv = if clear || !unset.is_empty() || !assignments.is_empty() || parsed.value("C").is_some() {
            let mut script = String::new();
            let mut names: Vec<&str> = if clear { ctx.env.iter().map(|(n, _)| n.as_str()).collect() } else { Vec::new() };
            names.extend(unset.iter().map(String::as_str));
            names.retain(|n| is_name(n));
            if !names.is_empty() {
                script.push_str(&format!("unset {}; ", names.join(" ")));
            }
            for assignment in &assignments {
                let (name, value) = assignment.split_once('=').unwrap_or((assignment, ""));
                if is_name(name) {
                    script.push_str(&format!("export {name}={}; ", single_quoted(value)));
                }
            }
            if let Some(dir) = parsed.value("C") {
                script.push_str(&format!("cd {} || exit 125; ", single_quoted(dir)));
            }
            // Without PATH the command is found as execvp would, along its default.
            script.push_str("if [ -n \"${PATH+set}\" ]; then \"$@\"; else command -p \"$@\"; fi");
            let mut argv = vec!["bash".to_string(), "-c".to_string(), script, "env".to_string()];
            argv.extend(command);
            argv
        } else {
            command
        };
        let (stdin, stdout, stderr) = (ctx.stdin.clone(), ctx.stdout.clone(), ctx.stderr.clone());
        ctx.shell.run_command(argv, stdin, stdout, stderr).await
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
