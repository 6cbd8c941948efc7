//! `rmdir`: remove empty directories (`-p` parents, `-v`,
//! `--ignore-fail-on-non-empty`).

use crate::commands::format::quote;
use crate::commands::options::{parse_or_report, report_usage, Long, Spec};
use crate::fs::FsError;
use crate::host::LocalFuture;
use crate::utility::Invocation;

const SPEC: Spec =
    Spec::new("pv", &[Long::flag("parents", "p"), Long::flag("verbose", "v"), Long::flag("ignore-fail-on-non-empty", "ignore")]);

/// Runs `rmdir [-pv] DIR...`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let parsed = match parse_or_report(ctx, &SPEC, 1).await {
            Ok(parsed) => parsed,
            Err(status) => return status,
        };
        if parsed.operands.is_empty() {
            report_usage(ctx, "missing operand").await;
            return 1;
        }
        let (parents, verbose, ignore) = (parsed.has("p"), parsed.has("v"), parsed.has("ignore"));
        let mut status = 0;
        for name in &parsed.operands {
            let mut current = name.trim_end_matches('/').to_string();
            if current.is_empty() {
                current = name.clone();
            }
            let mut first = true;
            loop {
                if verbose {
                    let _ = ctx.write_out(format!("rmdir: removing directory, {}\n", quote(&current)).as_bytes()).await;
                }
                match ctx.fs.remove_dir(&ctx.resolve(&current)).await {
                    Ok(()) => {}
                    Err(FsError::DirectoryNotEmpty) if ignore => break,
                    Err(error) => {
                        let what = if first { "" } else { "directory " };
                        ctx.report(&format!("failed to remove {what}{}: {error}", quote(&current))).await;
                        status = 1;
                        break;
                    }
                }
                first = false;
                if !parents {
                    break;
                }
                match current.rfind('/') {
                    Some(index) if index > 0 => {
                        current.truncate(index);
                        let trimmed = current.trim_end_matches('/').len();
                        current.truncate(trimmed);
                        if current.is_empty() {
                            break;
                        }
                    }
                    _ => break,
                }
            }
        }
        status
    })
}

#[cfg(test)]
mod tests {
    use crate::commands::file::fixtures::{exists, run, tree};

    #[test]
    fn removes_and_reports() {
        let fs = tree(&["a/", "a/b/", "f", "e/"]);
        let out = run(&fs, &["rmdir", "a"]);
        assert_eq!((out.stderr.as_str(), out.status), ("rmdir: failed to remove 'a': Directory not empty\n", 1));
        assert_eq!(run(&fs, &["rmdir", "f"]).stderr, "rmdir: failed to remove 'f': Not a directory\n");
        assert_eq!(run(&fs, &["rmdir", "nope"]).stderr, "rmdir: failed to remove 'nope': No such file or directory\n");
        assert_eq!(run(&fs, &["rmdir", "e"]).status, 0);
        assert!(!exists(&fs, "e"));
        assert_eq!(run(&fs, &["rmdir", "--ignore-fail-on-non-empty", "a"]).status, 0);
    }

    #[test]
    fn parents() {
        let fs = tree(&["p/", "p/q/", "p/q/r/", "a/", "a/b/", "a/b/c/", "a/b/x"]);
        let out = run(&fs, &["rmdir", "-pv", "p/q/r"]);
        assert_eq!(out.stdout, "rmdir: removing directory, 'p/q/r'\nrmdir: removing directory, 'p/q'\nrmdir: removing directory, 'p'\n");
        assert!(!exists(&fs, "p"));
        let out = run(&fs, &["rmdir", "-p", "a/b/c"]);
        assert_eq!(out.stderr, "rmdir: failed to remove directory 'a/b': Directory not empty\n");
        assert!(!exists(&fs, "a/b/c"));
    }
}
