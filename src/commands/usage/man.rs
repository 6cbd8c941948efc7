//! `man NAME...`: the sandbox has no manual pages, so `man` shows the
//! utility's usage text (its `--help`), marked as the sandbox's page.

use crate::commands::options::{parse_or_report, Spec};
use crate::host::LocalFuture;
use crate::utility::Invocation;

/// man's exit status when a page is missing (man-db's).
const NOT_FOUND: i32 = 16;

/// Runs `man`.
pub fn run_man<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(run(ctx))
}

async fn run(ctx: &mut Invocation<'_>) -> i32 {
    const SPEC: Spec = Spec::new("", &[]);
    let parsed = match parse_or_report(ctx, &SPEC, 2).await {
        Ok(parsed) => parsed,
        Err(status) => return status,
    };
    if parsed.operands.is_empty() {
        let _ = ctx.stderr.write(b"What manual page do you want?\nFor example, try 'man man'.\n").await;
        return 1;
    }
    let mut status = 0;
    for name in &parsed.operands {
        let Some(usage) = super::find(name).filter(|_| crate::commands::find(name).is_some() || name == "man") else {
            let _ = ctx.stderr.write(format!("No manual entry for {name}\n").as_bytes()).await;
            status = NOT_FOUND;
            continue;
        };
        let page = page(usage);
        if let Err(error) = ctx.write_out(page.as_bytes()).await {
            return ctx.write_failed(error).await;
        }
    }
    status
}

/// The page for one utility: a title line, the note, and the usage text.
fn page(usage: &super::Usage) -> String {
    let title = format!("{}(1)", usage.name.to_uppercase());
    let middle = "wabash usage page";
    let gap = 78usize.saturating_sub(title.len() * 2 + middle.len());
    let left = gap / 2;
    format!(
        "{title}{}{middle}{}{title}\n\nThis sandbox has no manual pages: this is the usage text of its {name} ({name} --help).\n\n{}",
        " ".repeat(left.max(1)),
        " ".repeat((gap - left).max(1)),
        usage.text,
        name = usage.name
    )
}
