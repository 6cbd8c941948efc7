//! Asking the user a yes/no question on standard error and reading the
//! answer from standard input (`rm -i`, `cp -i`, `mv -i`).

use crate::utility::Invocation;

/// Writes `NAME: question` to standard error and reads one line; true when
/// it starts with `y` or `Y`, as GNU's `yesno` decides.
pub async fn ask(ctx: &Invocation<'_>, question: &str) -> bool {
    let text = format!("{}: {question}", ctx.name());
    let _ = ctx.stderr.write(text.as_bytes()).await;
    let line = ctx.stdin.read_until(b'\n', 4096).await.unwrap_or_default();
    matches!(line.first(), Some(b'y') | Some(b'Y'))
}
