//! `timeout`: run a command and stop it when a duration passes.
//!
//! The command runs as a separate program whose host carries the deadline
//! ([`DeadlineHost`]): a command that never waits (a busy loop) is stopped
//! by the interpreter's and the utilities' interrupt checks, and one that
//! waits is raced against a host timer; when the timer wins, the command's
//! future is dropped. Under a fixed-clock host (where `sleep` only advances
//! the clock) a command that finishes after the deadline counts as timed
//! out too.

use super::deadline::DeadlineHost;
use super::sleep::parse_duration;
use crate::commands::format::quote_locale;
use crate::commands::options::{parse, report_usage, Long, Spec};
use crate::host::LocalFuture;
use crate::utility::{Invocation, ProgramRequest};
use std::future::Future;
use std::pin::pin;
use std::rc::Rc;
use std::task::Poll;

const LONGS: &[Long] = &[
    Long::required("signal", "s"),
    Long::required("kill-after", "k"),
    Long::flag("preserve-status", "preserve-status"),
    Long::flag("foreground", "foreground"),
    Long::flag("verbose", "v"),
];
const SPEC: Spec = Spec::new("s:k:v", LONGS).stopping();
/// The status `timeout` returns when the command timed out.
pub const STATUS_TIMED_OUT: i32 = 124;
const SIGNALS: [(&str, i32); 15] = [
    ("HUP", 1),
    ("INT", 2),
    ("QUIT", 3),
    ("KILL", 9),
    ("USR1", 10),
    ("SEGV", 11),
    ("USR2", 12),
    ("PIPE", 13),
    ("ALRM", 14),
    ("TERM", 15),
    ("CHLD", 17),
    ("CONT", 18),
    ("STOP", 19),
    ("TSTP", 20),
    ("WINCH", 28),
];

/// The number of a signal given by name (`TERM`, `SIGTERM`) or number.
pub fn signal_number(text: &str) -> Option<i32> {
    if let Ok(number) = text.parse::<i32>() {
        return (0..=64).contains(&number).then_some(number);
    }
    let upper = text.to_ascii_uppercase();
    let name = upper.strip_prefix("SIG").unwrap_or(&upper);
    SIGNALS.iter().find(|(n, _)| *n == name).map(|(_, number)| *number)
}

fn signal_name(number: i32) -> String {
    SIGNALS.iter().find(|(_, n)| *n == number).map_or_else(|| number.to_string(), |(name, _)| name.to_string())
}

/// Runs `timeout [-s SIGNAL] [-k DURATION] DURATION COMMAND [ARG]...`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let args = ctx.args.get(1..).unwrap_or(&[]).to_vec();
        let parsed = match parse(&SPEC, &args) {
            Ok(parsed) => parsed,
            Err(error) => {
                report_usage(ctx, &error.message()).await;
                return 125;
            }
        };
        let signal_text = parsed.value("s").unwrap_or("TERM").to_string();
        let Some(signal) = signal_number(&signal_text) else {
            report_usage(ctx, &format!("{}: invalid signal", quote_locale(ctx, &signal_text))).await;
            return 125;
        };
        if let Some(kill_after) = parsed.value("k") {
            if parse_duration(kill_after).is_none() {
                report_usage(ctx, &format!("invalid time interval {}", quote_locale(ctx, kill_after))).await;
                return 125;
            }
        }
        let [duration, command @ ..] = parsed.operands.as_slice() else {
            let _ = ctx.stderr.write(b"Try 'timeout --help' for more information.\n").await;
            return 125;
        };
        if command.is_empty() {
            let _ = ctx.stderr.write(b"Try 'timeout --help' for more information.\n").await;
            return 125;
        }
        let Some(mut millis) = parse_duration(duration) else {
            report_usage(ctx, &format!("invalid time interval {}", quote_locale(ctx, duration))).await;
            return 125;
        };
        if millis == 0.0 {
            // A duration of 0 disables the timeout.
            millis = f64::INFINITY;
        }
        let name = command.first().cloned().unwrap_or_default();
        if !crate::commands::common::program_exists(ctx, &name).await {
            let reason = if name.contains('/') && ctx.fs.metadata(&ctx.resolve(&name)).await.is_ok() {
                "Permission denied"
            } else {
                "No such file or directory"
            };
            ctx.report(&format!("failed to run command {}: {reason}", quote_locale(ctx, &name))).await;
            return if reason == "Permission denied" { 126 } else { 127 };
        }
        let host = ctx.host.clone();
        let deadline = host.now_millis() + millis;
        let mut request = ProgramRequest::new(command.to_vec(), ctx.stdin.clone(), ctx.stdout.clone(), ctx.stderr.clone());
        let mut _watch = None;
        if millis.is_finite() {
            let (deadline_host, watch) = DeadlineHost::new(host.clone(), deadline);
            request.host = Some(Rc::new(deadline_host));
            _watch = Some(watch);
        }
        let finished = {
            let mut child = pin!(ctx.shell.run_program(request));
            // The timer starts only once the command waits, so a command that
            // never waits does not move a fixed clock by the whole duration.
            let mut timer: Option<LocalFuture<'_, ()>> = None;
            std::future::poll_fn(|cx| {
                if let Poll::Ready(status) = child.as_mut().poll(cx) {
                    return Poll::Ready(Some(status));
                }
                if !millis.is_finite() {
                    return Poll::Pending;
                }
                let remaining = (deadline - host.now_millis()).max(0.0);
                let timer = timer.get_or_insert_with(|| host.sleep(remaining));
                if timer.as_mut().poll(cx).is_ready() {
                    return Poll::Ready(None);
                }
                Poll::Pending
            })
            .await
        };
        let timed_out = match finished {
            Some(_) if millis.is_finite() && host.now_millis() > deadline => true,
            Some(status) => return status,
            None => true,
        };
        if timed_out && parsed.has("v") {
            ctx.report(&format!("sending signal {} to command {}", signal_name(signal), quote_locale(ctx, &name))).await;
        }
        if parsed.has("preserve-status") || signal == 9 {
            128 + signal
        } else {
            STATUS_TIMED_OUT
        }
    })
}
