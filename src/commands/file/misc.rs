//! Small file utilities: `sync` (nothing to flush in memory) and `shred`
//! (refused: overwriting in-memory bytes is meaningless).

use crate::commands::options::{parse_or_report, Long, Spec};
use crate::host::LocalFuture;
use crate::utility::Invocation;

/// Runs `sync`: the in-memory filesystem has nothing to flush.
pub fn run_sync<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        const SPEC: Spec = Spec::new("df", &[Long::flag("data", "d"), Long::flag("file-system", "f")]);
        match parse_or_report(ctx, &SPEC, 1).await {
            Ok(_) => 0,
            Err(status) => status,
        }
    })
}

/// Runs `shred`: refused, since files live in memory and overwriting them
/// protects nothing; `rm` removes them.
pub fn run_shred<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        ctx.report("refusing to shred: files in this sandbox live in memory, so overwriting them is meaningless; use rm").await;
        1
    })
}

#[cfg(test)]
mod tests {
    use crate::commands::file::fixtures::{run, tree};

    #[test]
    fn sync_and_shred() {
        let fs = tree(&["f=x"]);
        assert_eq!(run(&fs, &["sync"]).status, 0);
        let out = run(&fs, &["shred", "f"]);
        assert_eq!(out.status, 1);
        assert!(out.stderr.starts_with("shred: refusing to shred"));
    }
}
