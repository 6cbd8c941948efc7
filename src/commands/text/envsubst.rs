//! `envsubst` (GNU gettext): copies standard input, replacing `$NAME` and
//! `${NAME}` with the environment's values (empty when unset); with a
//! SHELL-FORMAT argument only the variables it names; `-v` lists them.

use crate::commands::options::{parse_or_report, Long, Spec};
use crate::commands::text::input::read_all;
use crate::host::LocalFuture;
use crate::utility::Invocation;

const SPEC: Spec = Spec::new("v", &[Long::flag("variables", "v")]);

/// The variable references in `text`: (start, end, name).
fn references(text: &[u8]) -> Vec<(usize, usize, String)> {
    let mut found = Vec::new();
    let mut i = 0;
    let is_start = |b: u8| b.is_ascii_alphabetic() || b == b'_';
    let is_name = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    while i < text.len() {
        if text[i] == b'$' {
            let braced = text.get(i + 1) == Some(&b'{');
            let begin = if braced { i + 2 } else { i + 1 };
            if text.get(begin).is_some_and(|&b| is_start(b)) {
                let mut end = begin;
                while end < text.len() && is_name(text[end]) {
                    end += 1;
                }
                if !braced {
                    found.push((i, end, String::from_utf8_lossy(&text[begin..end]).into_owned()));
                    i = end;
                    continue;
                }
                if text.get(end) == Some(&b'}') {
                    found.push((i, end + 1, String::from_utf8_lossy(&text[begin..end]).into_owned()));
                    i = end + 1;
                    continue;
                }
            }
        }
        i += 1;
    }
    found
}

/// Runs `envsubst [-v] [SHELL-FORMAT]`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let parsed = match parse_or_report(ctx, &SPEC, 1).await {
            Ok(parsed) => parsed,
            Err(status) => return status,
        };
        if parsed.operands.len() > 1 {
            ctx.report("too many arguments").await;
            let _ = ctx.stderr.write(b"Try 'envsubst --help' for more information.\n").await;
            return 1;
        }
        let allowed: Option<Vec<String>> =
            parsed.operands.first().map(|format| references(format.as_bytes()).into_iter().map(|(_, _, n)| n).collect());
        if parsed.has("v") {
            let Some(mut names) = allowed else {
                ctx.report("missing arguments").await;
                let _ = ctx.stderr.write(b"Try 'envsubst --help' for more information.\n").await;
                return 1;
            };
            names.dedup();
            let text: String = names.iter().map(|n| format!("{n}\n")).collect();
            return match ctx.write_out(text.as_bytes()).await {
                Ok(()) => 0,
                Err(error) => ctx.write_failed(error).await,
            };
        }
        let data = read_all(&ctx.stdin).await.unwrap_or_default();
        let mut out = Vec::with_capacity(data.len());
        let mut last = 0;
        for (start, end, name) in references(&data) {
            if allowed.as_ref().is_some_and(|names| !names.contains(&name)) {
                continue;
            }
            out.extend_from_slice(&data[last..start]);
            out.extend_from_slice(ctx.env_var(&name).unwrap_or("").as_bytes());
            last = end;
        }
        out.extend_from_slice(&data[last..]);
        match ctx.write_out(&out).await {
            Ok(()) => 0,
            Err(error) => ctx.write_failed(error).await,
        }
    })
}
