//! Terminal queries: `tty` (the sandbox never has one) and `clear` (the
//! escape sequence `clear` writes for an xterm-like terminal).

use crate::commands::format::quote_locale;
use crate::commands::options::{parse_or_report, report_usage, Long, Spec};
use crate::host::LocalFuture;
use crate::utility::{write_failure_status, Invocation};

const TTY_LONGS: &[Long] = &[Long::flag("silent", "s"), Long::flag("quiet", "s")];
const TTY_SPEC: Spec = Spec::new("s", TTY_LONGS);

/// Runs `tty [-s]`: prints `not a tty` and returns 1.
pub fn run_tty<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let parsed = match parse_or_report(ctx, &TTY_SPEC, 2).await {
            Ok(parsed) => parsed,
            Err(status) => return status,
        };
        if let Some(extra) = parsed.operands.first() {
            report_usage(ctx, &format!("extra operand {}", quote_locale(ctx, extra))).await;
            return 2;
        }
        if !parsed.has("s") {
            if let Err(error) = ctx.write_out(b"not a tty\n").await {
                return write_failure_status(error);
            }
        }
        1
    })
}

/// Runs `clear [-x]`.
pub fn run_clear<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        if ctx.env_var("TERM").is_some_and(|t| t == "dumb") {
            return 0;
        }
        let keep_scrollback = ctx.args.iter().skip(1).any(|a| a == "-x");
        let sequence: &[u8] = if keep_scrollback { b"\x1b[H\x1b[2J" } else { b"\x1b[H\x1b[2J\x1b[3J" };
        match ctx.write_out(sequence).await {
            Ok(()) => 0,
            Err(error) => write_failure_status(error),
        }
    })
}
