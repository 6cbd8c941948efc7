//! Small file utilities: `sync` (nothing to flush in memory), `shred`
//! (refused: overwriting in-memory bytes is meaningless) and `df` (the
//! sandbox filesystem's usage).

use crate::commands::format::{human_size, kib_blocks};
use crate::commands::options::{parse_or_report, Long, Spec};
use crate::host::LocalFuture;
use crate::interp::{write_failure_status, Invocation};

/// The capacity `df` reports when the filesystem states none (1 GiB).
const DEFAULT_CAPACITY_KIB: u64 = 1 << 20;

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

/// Sums the usage of everything below `path` (not crossing into `/dev`).
fn usage<'a>(ctx: &'a Invocation<'_>, path: String) -> LocalFuture<'a, (u64, u64)> {
    Box::pin(async move {
        let Ok(metadata) = ctx.fs.symlink_metadata(&path).await else { return (0, 0) };
        let mut kib = kib_blocks(&metadata);
        let mut inodes = 1;
        if metadata.is_dir() && path != "/dev" && path != "/proc" {
            for entry in ctx.fs.read_dir(&path).await.unwrap_or_default() {
                let (child_kib, child_inodes) = usage(ctx, crate::fs::path::join(&path, &entry.name)).await;
                kib += child_kib;
                inodes += child_inodes;
            }
        }
        (kib, inodes)
    })
}

/// Runs `df [-h] [-H] [-k] [-i] [-T] [FILE]...`: one line for the sandbox filesystem.
pub fn run_df<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        const SPEC: Spec = Spec::new(
            "hHkiTaPlx:t:B:",
            &[
                Long::flag("human-readable", "h"),
                Long::flag("si", "H"),
                Long::flag("inodes", "i"),
                Long::flag("print-type", "T"),
                Long::flag("all", "a"),
                Long::flag("portability", "P"),
                Long::flag("local", "l"),
                Long::optional("output", "output"),
                Long::flag("total", "total"),
            ],
        );
        let parsed = match parse_or_report(ctx, &SPEC, 1).await {
            Ok(parsed) => parsed,
            Err(status) => return status,
        };
        for name in &parsed.operands {
            if let Err(error) = ctx.fs.metadata(&ctx.resolve(name)).await {
                ctx.report(&format!("{}: {error}", crate::commands::format::quote(name))).await;
                return 1;
            }
        }
        let (used, inodes) = usage(ctx, "/".to_string()).await;
        let size = DEFAULT_CAPACITY_KIB.max(used);
        let available = size - used;
        let percent = if size == 0 { 0 } else { (used * 100).div_ceil(size) };
        let human = if parsed.has("h") {
            Some(false)
        } else if parsed.has("H") {
            Some(true)
        } else {
            None
        };
        let typed = parsed.has("T");
        let (header, row) = if parsed.has("i") {
            let total_inodes: u64 = 1 << 20;
            let free = total_inodes.saturating_sub(inodes);
            let ipercent = (inodes * 100).div_ceil(total_inodes);
            let type_col = if typed { " Type " } else { "" };
            (
                format!("Filesystem{type_col}  Inodes IUsed   IFree IUse% Mounted on"),
                format!("wabash{}    {total_inodes:>7} {inodes:>5} {free:>7} {ipercent:>4}% /", if typed { "     memfs" } else { "" }),
            )
        } else if let Some(si) = human {
            let show = |kib: u64| human_size(kib * 1024, si);
            let type_col = if typed { " Type " } else { "" };
            (
                format!("Filesystem{type_col}     Size  Used Avail Use% Mounted on"),
                format!(
                    "wabash{}        {:>5} {:>5} {:>5} {:>3}% /",
                    if typed { "     memfs" } else { "" },
                    show(size),
                    show(used),
                    show(available),
                    percent
                ),
            )
        } else {
            let type_col = if typed { " Type " } else { "" };
            (
                format!("Filesystem{type_col}     1K-blocks  Used Available Use% Mounted on"),
                format!("wabash{}        {size:>9} {used:>5} {available:>9} {percent:>3}% /", if typed { "     memfs" } else { "" }),
            )
        };
        match ctx.write_out(format!("{header}\n{row}\n").as_bytes()).await {
            Ok(()) => 0,
            Err(error) => write_failure_status(error),
        }
    })
}

#[cfg(test)]
mod tests {
    use crate::commands::file::fixtures::{run, tree};

    #[test]
    fn sync_shred_df() {
        let fs = tree(&["f=x"]);
        assert_eq!(run(&fs, &["sync"]).status, 0);
        let out = run(&fs, &["shred", "f"]);
        assert_eq!(out.status, 1);
        assert!(out.stderr.starts_with("shred: refusing to shred"));
        let out = run(&fs, &["df"]).stdout;
        assert!(out.starts_with("Filesystem     1K-blocks  Used Available Use% Mounted on\nwabash "));
        assert!(run(&fs, &["df", "-h"]).stdout.contains(" 1.0G "));
        assert_eq!(run(&fs, &["df", "nope"]).stderr, "df: 'nope': No such file or directory\n");
    }
}
