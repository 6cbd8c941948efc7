//! `install`: copy files and set their mode (`-m`, default 0755), create
//! directories (`-d`), leading directories (`-D`), `-t DIR`, `-T`, `-v`,
//! `-p`, backups (`-b`, `-S`), and accept `-o`/`-g`/`-s`/`-c` as GNU does.

use super::backup::from_options;
use super::copy::{copy_node, plan, CopyOptions};
use super::mode::ModeChange;
use crate::commands::format::{quote, quote_locale};
use crate::commands::options::{parse_or_report, report_usage, Long, Spec};
use crate::fs::FsError;
use crate::host::LocalFuture;
use crate::utility::Invocation;

const SPEC: Spec = Spec::new(
    "cdDm:o:g:pst:TvCbS:",
    &[
        Long::flag("directory", "d"),
        Long::required("mode", "m"),
        Long::required("owner", "o"),
        Long::required("group", "g"),
        Long::flag("preserve-timestamps", "p"),
        Long::flag("strip", "s"),
        Long::required("target-directory", "t"),
        Long::flag("no-target-directory", "T"),
        Long::flag("verbose", "v"),
        Long::flag("compare", "C"),
        Long::optional("backup", "b"),
        Long::required("suffix", "S"),
    ],
);

/// Creates `name` and its missing parents, announcing each with `-v`.
async fn make_dirs(ctx: &Invocation<'_>, name: &str, mode: u32, verbose: bool) -> Result<(), (String, FsError)> {
    let mut prefix = if name.starts_with('/') { "/".to_string() } else { String::new() };
    let parts: Vec<&str> = name.split('/').filter(|p| !p.is_empty()).collect();
    for (index, part) in parts.iter().enumerate() {
        if !prefix.is_empty() && !prefix.ends_with('/') {
            prefix.push('/');
        }
        prefix.push_str(part);
        let path = ctx.resolve(&prefix);
        match ctx.fs.metadata(&path).await {
            Ok(m) if m.is_dir() => continue,
            Ok(_) => return Err((prefix, FsError::AlreadyExists)),
            Err(_) => {}
        }
        let this_mode = if index + 1 == parts.len() { mode } else { 0o755 };
        if verbose {
            let _ = ctx.write_out(format!("install: creating directory {}\n", quote(&prefix)).as_bytes()).await;
        }
        ctx.fs.create_dir(&path, this_mode).await.map_err(|e| (prefix.clone(), e))?;
        let _ = ctx.fs.set_mode(&path, this_mode).await;
    }
    Ok(())
}

/// Runs `install [OPTION]... SOURCE... DEST` or `install -d DIRECTORY...`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let parsed = match parse_or_report(ctx, &SPEC, 1).await {
            Ok(parsed) => parsed,
            Err(status) => return status,
        };
        let mode = match parsed.value("m") {
            None => 0o755,
            Some(text) => match ModeChange::parse(text) {
                Some(change) => change.apply(0o755, false, 0),
                None => {
                    ctx.report(&format!("invalid mode {}", quote_locale(ctx, text))).await;
                    return 1;
                }
            },
        };
        let verbose = parsed.has("v");
        if parsed.has("d") {
            if parsed.operands.is_empty() {
                report_usage(ctx, "missing file operand").await;
                return 1;
            }
            let mut status = 0;
            for name in &parsed.operands {
                if let Err((shown, error)) = make_dirs(ctx, name, mode, verbose).await {
                    ctx.report(&format!("cannot create directory {}: {error}", quote(&shown))).await;
                    status = 1;
                }
            }
            return status;
        }
        if parsed.has("D") {
            let parent = match (parsed.value("t"), parsed.operands.last()) {
                (Some(dir), _) => Some(dir.to_string()),
                (None, Some(last)) if parsed.operands.len() >= 2 => {
                    let dir = super::basename::dir_name(last).to_string();
                    (dir != ".").then_some(dir)
                }
                _ => None,
            };
            if let Some(parent) = parent {
                if let Err((shown, error)) = make_dirs(ctx, &parent, 0o755, verbose).await {
                    ctx.report(&format!("cannot create directory {}: {error}", quote(&shown))).await;
                    return 1;
                }
            }
        }
        let backup = match from_options(ctx, &parsed).await {
            Ok(backup) => backup,
            Err(status) => return status,
        };
        let pairs = match plan(ctx, &parsed.operands, parsed.value("t"), parsed.has("T")).await {
            Ok(pairs) => pairs,
            Err(status) => return status,
        };
        let mut options = CopyOptions::new(ctx.shell.umask());
        options.backup = backup;
        options.verbose = verbose;
        options.preserve_times = parsed.has("p");
        let mut status = 0;
        for (source, dest) in &pairs {
            let source_is_dir = ctx.fs.metadata(&ctx.resolve(source)).await.is_ok_and(|m| m.is_dir());
            if source_is_dir {
                ctx.report(&format!("omitting directory {}", quote(source))).await;
                status = 1;
                continue;
            }
            let dest_path = ctx.resolve(dest);
            // install replaces the destination rather than writing into it
            // (or, with a backup, moves it aside first).
            if options.backup.is_none() && ctx.fs.symlink_metadata(&dest_path).await.is_ok_and(|m| !m.is_dir()) {
                let _ = ctx.fs.remove_file(&dest_path).await;
            }
            if !copy_node(ctx, &options, source, dest, true).await {
                status = 1;
                continue;
            }
            if let Err(error) = ctx.fs.set_mode(&dest_path, mode).await {
                ctx.report(&format!("failed to change mode of {}: {error}", quote(dest))).await;
                status = 1;
            }
        }
        status
    })
}

#[cfg(test)]
mod tests {
    use crate::commands::file::fixtures::{exists, mode, read, run, tree};

    #[test]
    fn installs() {
        let fs = tree(&["f=hi\n", "a/"]);
        assert_eq!(run(&fs, &["install"]).stderr, "install: missing file operand\nTry 'install --help' for more information.\n");
        assert_eq!(
            run(&fs, &["install", "f"]).stderr,
            "install: missing destination file operand after 'f'\nTry 'install --help' for more information.\n"
        );
        run(&fs, &["install", "f", "g"]);
        assert_eq!((mode(&fs, "g"), read(&fs, "g").as_deref()), (0o755, Some("hi\n")));
        run(&fs, &["install", "-m", "644", "f", "h"]);
        assert_eq!(mode(&fs, "h"), 0o644);
        run(&fs, &["install", "-d", "a/b/c"]);
        assert_eq!(mode(&fs, "a/b/c"), 0o755);
        run(&fs, &["install", "-D", "f", "x/y/z"]);
        assert!(exists(&fs, "x/y/z"));
        assert_eq!(run(&fs, &["install", "-v", "f", "v"]).stdout, "'f' -> 'v'\n");
        run(&fs, &["install", "-t", "a", "f"]);
        assert!(exists(&fs, "a/f"));
        assert_eq!(run(&fs, &["install", "nope", "q"]).stderr, "install: cannot stat 'nope': No such file or directory\n");
        assert_eq!(run(&fs, &["install", "-m", "bad", "f", "q"]).stderr, "install: invalid mode 'bad'\n");
        assert_eq!(run(&fs, &["install", "-dv", "m/n"]).stdout, "install: creating directory 'm'\ninstall: creating directory 'm/n'\n");
        assert_eq!(
            run(&fs, &["install", "-Dv", "f", "p/q/r"]).stdout,
            "install: creating directory 'p'\ninstall: creating directory 'p/q'\n'f' -> 'p/q/r'\n"
        );
    }
}
