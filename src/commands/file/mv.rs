//! `mv`: rename or move files and directories (`-f -i -n -u -v -T -t -b -S`),
//! copying and removing when the target lies on another mount.

use super::backup::{from_options, make_backup, Backup};
use super::copy::{backup_note, copy_node, is_inside, plan, CopyOptions, Dereference};
use super::prompt::ask;
use crate::commands::format::quote;
use crate::commands::options::{parse_or_report, Long, Spec};
use crate::fs::FsError;
use crate::host::LocalFuture;
use crate::utility::Invocation;

const SPEC: Spec = Spec::new(
    "finuvTt:bS:",
    &[
        Long::flag("force", "f"),
        Long::flag("interactive", "i"),
        Long::flag("no-clobber", "n"),
        Long::optional("update", "u"),
        Long::flag("verbose", "v"),
        Long::flag("no-target-directory", "T"),
        Long::required("target-directory", "t"),
        Long::optional("backup", "b"),
        Long::required("suffix", "S"),
        Long::flag("strip-trailing-slashes", "strip"),
    ],
);

#[derive(Clone, Copy, PartialEq, Eq)]
enum Overwrite {
    Force,
    Ask,
    Never,
}

/// Runs `mv [OPTION]... SOURCE... DEST`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let parsed = match parse_or_report(ctx, &SPEC, 1).await {
            Ok(parsed) => parsed,
            Err(status) => return status,
        };
        let mut overwrite = Overwrite::Force;
        let mut update = false;
        for (key, value) in &parsed.options {
            match *key {
                "f" => overwrite = Overwrite::Force,
                "i" => overwrite = Overwrite::Ask,
                "n" => overwrite = Overwrite::Never,
                "u" => update = value.as_deref() != Some("all"),
                _ => {}
            }
        }
        let verbose = parsed.has("v");
        let backup = match from_options(ctx, &parsed).await {
            Ok(backup) => backup,
            Err(status) => return status,
        };
        let settings = Settings { overwrite, update, verbose, backup };
        let pairs = match plan(ctx, &parsed.operands, parsed.value("t"), parsed.has("T")).await {
            Ok(pairs) => pairs,
            Err(status) => return status,
        };
        let mut ok = true;
        for (source, dest) in &pairs {
            ok &= move_one(ctx, source, dest, &settings).await;
        }
        i32::from(!ok)
    })
}

/// The choices of one `mv` run.
struct Settings {
    overwrite: Overwrite,
    update: bool,
    verbose: bool,
    backup: Option<Backup>,
}

async fn move_one(ctx: &Invocation<'_>, source: &str, dest: &str, settings: &Settings) -> bool {
    let source_path = ctx.resolve(source);
    let dest_path = ctx.resolve(dest);
    let metadata = match ctx.fs.symlink_metadata(&source_path).await {
        Ok(metadata) => metadata,
        Err(error) => {
            ctx.report(&format!("cannot stat {}: {error}", quote(source))).await;
            return false;
        }
    };
    let existing = ctx.fs.symlink_metadata(&dest_path).await.ok();
    if let Some(existing) = &existing {
        if existing.ino == metadata.ino && existing.dev == metadata.dev {
            ctx.report(&format!("{} and {} are the same file", quote(source), quote(dest))).await;
            return false;
        }
        if metadata.is_dir() && !existing.is_dir() {
            ctx.report(&format!("cannot overwrite non-directory {} with directory {}", quote(dest), quote(source))).await;
            return false;
        }
        if !metadata.is_dir() && existing.is_dir() {
            ctx.report(&format!("cannot overwrite directory {} with non-directory", quote(dest))).await;
            return false;
        }
        match settings.overwrite {
            Overwrite::Never => return true,
            Overwrite::Ask if !ask(ctx, &format!("overwrite {}? ", quote(dest))).await => return true,
            _ => {}
        }
        if settings.update && existing.mtime >= metadata.mtime {
            return true;
        }
    }
    let mut backed_up = None;
    if let (Some(backup), Some(_)) = (&settings.backup, &existing) {
        match make_backup(ctx, backup, dest).await {
            Ok(name) => backed_up = Some(name),
            Err(()) => return false,
        }
    }
    if metadata.is_dir() && is_inside(&source_path, &dest_path) {
        ctx.report(&format!("cannot move {} to a subdirectory of itself, {}", quote(source), quote(dest))).await;
        return false;
    }
    match ctx.fs.rename(&source_path, &dest_path).await {
        Ok(()) => {}
        Err(FsError::CrossDevice) => {
            if !move_across(ctx, source, dest).await {
                return false;
            }
        }
        Err(error) => {
            ctx.report(&format!("cannot move {} to {}: {error}", quote(source), quote(dest))).await;
            return false;
        }
    }
    if settings.verbose {
        let note = backup_note(backed_up.as_deref());
        let _ = ctx.write_out(format!("renamed {} -> {}{note}\n", quote(source), quote(dest)).as_bytes()).await;
    }
    true
}

/// Moves across mounts: copy everything with its attributes, then remove the source.
async fn move_across(ctx: &Invocation<'_>, source: &str, dest: &str) -> bool {
    let mut options = CopyOptions::new(0);
    options.recursive = true;
    options.dereference = Dereference::Never;
    (options.preserve_mode, options.preserve_owner, options.preserve_times) = (true, true, true);
    if !copy_node(ctx, &options, source, dest, true).await {
        return false;
    }
    super::remove::remove_tree(ctx, source).await
}

#[cfg(test)]
mod tests {
    use crate::commands::file::fixtures::{exists, read, run, tree};

    #[test]
    fn renames_and_moves() {
        let fs = tree(&["d/", "d/sub/", "x=x", "y=y", "t/", "t/d/", "t/d/k", "yy/"]);
        assert_eq!(run(&fs, &["mv"]).stderr, "mv: missing file operand\nTry 'mv --help' for more information.\n");
        assert_eq!(run(&fs, &["mv", "nope", "z"]).stderr, "mv: cannot stat 'nope': No such file or directory\n");
        assert_eq!(run(&fs, &["mv", "-v", "x", "z"]).stdout, "renamed 'x' -> 'z'\n");
        assert!(!exists(&fs, "x") && read(&fs, "z").as_deref() == Some("x"));
        assert_eq!(run(&fs, &["mv", "d", "d/sub"]).stderr, "mv: cannot move 'd' to a subdirectory of itself, 'd/sub/d'\n");
        assert_eq!(run(&fs, &["mv", "d", "t"]).stderr, "mv: cannot move 'd' to 't/d': Directory not empty\n");
        assert_eq!(run(&fs, &["mv", "yy", "y"]).stderr, "mv: cannot overwrite non-directory 'y' with directory 'yy'\n");
        assert_eq!(run(&fs, &["mv", "z", "y", "q"]).stderr, "mv: target 'q': No such file or directory\n");
        assert_eq!(run(&fs, &["mv", "-n", "z", "y"]).status, 0);
        assert_eq!(read(&fs, "y").as_deref(), Some("y"));
        run(&fs, &["mv", "z", "y"]);
        assert_eq!(read(&fs, "y").as_deref(), Some("x"));
        run(&fs, &["mv", "y", "yy"]);
        assert!(exists(&fs, "yy/y"));
        run(&fs, &["mv", "-t", "t", "yy"]);
        assert!(exists(&fs, "t/yy/y"));
        assert_eq!(run(&fs, &["mv", "t/yy/y", "t/yy/y"]).stderr, "mv: 't/yy/y' and 't/yy/y' are the same file\n");
    }
}
