//! `rm`: remove files and (with `-r`) directory trees, with `-f`, `-i`, `-I`,
//! `-d`, `-v` and GNU's `--preserve-root` failsafe.

use super::prompt::ask;
use crate::commands::format::quote;
use crate::commands::options::{parse_or_report, report_invalid_argument, report_usage, Long, Spec};
use crate::fs::{FileType, FsError, Metadata};
use crate::host::LocalFuture;
use crate::utility::Invocation;

const SPEC: Spec = Spec::new(
    "fiIdrRv",
    &[
        Long::flag("force", "f"),
        Long::optional("interactive", "interactive"),
        Long::flag("dir", "d"),
        Long::flag("recursive", "r"),
        Long::flag("verbose", "v"),
        Long::flag("preserve-root", "preserve-root"),
        Long::flag("no-preserve-root", "no-preserve-root"),
        Long::flag("one-file-system", "one-file-system"),
    ],
);

/// How prompting is done.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Interactive {
    Never,
    Once,
    Always,
}

struct Settings {
    force: bool,
    interactive: Interactive,
    dirs: bool,
    recursive: bool,
    verbose: bool,
    preserve_root: bool,
}

/// Runs `rm [OPTION]... FILE...`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let parsed = match parse_or_report(ctx, &SPEC, 1).await {
            Ok(parsed) => parsed,
            Err(status) => return status,
        };
        let mut settings =
            Settings { force: false, interactive: Interactive::Never, dirs: false, recursive: false, verbose: false, preserve_root: true };
        for (key, value) in &parsed.options {
            match *key {
                "f" => (settings.force, settings.interactive) = (true, Interactive::Never),
                "i" => (settings.force, settings.interactive) = (false, Interactive::Always),
                "I" => (settings.force, settings.interactive) = (false, Interactive::Once),
                "interactive" => {
                    settings.interactive = match value.as_deref() {
                        None | Some("always") | Some("yes") => Interactive::Always,
                        Some("once") => Interactive::Once,
                        Some("never") | Some("no") | Some("none") => Interactive::Never,
                        Some(other) => {
                            let groups: &[&[&str]] = &[&["never", "no", "none"], &["once"], &["always", "yes"]];
                            report_invalid_argument(ctx, other, "--interactive", groups).await;
                            return 1;
                        }
                    }
                }
                "d" => settings.dirs = true,
                "r" | "R" => settings.recursive = true,
                "v" => settings.verbose = true,
                "preserve-root" => settings.preserve_root = true,
                "no-preserve-root" => settings.preserve_root = false,
                _ => {}
            }
        }
        if parsed.operands.is_empty() {
            if settings.force {
                return 0;
            }
            report_usage(ctx, "missing operand").await;
            return 1;
        }
        if settings.interactive == Interactive::Once && (settings.recursive || parsed.operands.len() > 3) {
            let question = if settings.recursive {
                let count = parsed.operands.len();
                let noun = if count == 1 { "argument" } else { "arguments" };
                format!("remove {count} {noun} recursively? ")
            } else {
                format!("remove {} arguments? ", parsed.operands.len())
            };
            if !ask(ctx, &question).await {
                return 0;
            }
        }
        let mut ok = true;
        for name in &parsed.operands {
            ok &= remove_operand(ctx, &settings, name).await;
        }
        i32::from(!ok)
    })
}

/// Removes one command-line operand; false on any failure.
async fn remove_operand(ctx: &Invocation<'_>, settings: &Settings, name: &str) -> bool {
    let base = name.trim_end_matches('/').rsplit('/').next().unwrap_or("");
    let path = ctx.resolve(name);
    let metadata = match ctx.fs.symlink_metadata(&path).await {
        Ok(metadata) => metadata,
        Err(FsError::NotFound) if settings.force => return true,
        Err(error) => {
            ctx.report(&format!("cannot remove {}: {error}", quote(name))).await;
            return false;
        }
    };
    if base == "." || base == ".." {
        ctx.report(&format!("refusing to remove '.' or '..' directory: skipping {}", quote(name))).await;
        return false;
    }
    if settings.recursive && settings.preserve_root && crate::fs::path::normalize("/", &path) == "/" && metadata.is_dir() {
        ctx.report("it is dangerous to operate recursively on '/'").await;
        ctx.report("use --no-preserve-root to override this failsafe").await;
        return false;
    }
    remove_node(ctx, settings, name, &path, metadata).await
}

/// A directory being emptied: its remaining entries, and whether any failed.
struct Frame {
    shown: String,
    path: String,
    entries: std::vec::IntoIter<crate::fs::DirEntry>,
    failed: bool,
}

/// What opening a directory for removal gave.
enum Opened {
    Frame(Frame),
    /// Declined at the `descend into` prompt: nothing to do, no failure.
    Skipped,
    Failed,
}

/// Removes a node, a directory tree depth first with an explicit stack (so
/// deep trees never grow the call stack); `shown` is its name in messages.
async fn remove_node(ctx: &Invocation<'_>, settings: &Settings, shown: &str, path: &str, metadata: Metadata) -> bool {
    if !metadata.is_dir() {
        return remove_leaf(ctx, settings, shown, path, &metadata).await;
    }
    let mut stack = match open_directory(ctx, settings, shown, path).await {
        Opened::Frame(frame) => vec![frame],
        Opened::Skipped => return true,
        Opened::Failed => return false,
    };
    let mut result = true;
    while let Some(frame) = stack.last_mut() {
        if let Some(entry) = frame.entries.next() {
            let child_shown = join_shown(&frame.shown, &entry.name);
            let child_path = crate::fs::path::join(&frame.path, &entry.name);
            let outcome = match ctx.fs.symlink_metadata(&child_path).await {
                Ok(child) if child.is_dir() => open_directory(ctx, settings, &child_shown, &child_path).await,
                Ok(child) => {
                    if remove_leaf(ctx, settings, &child_shown, &child_path, &child).await {
                        Opened::Skipped
                    } else {
                        Opened::Failed
                    }
                }
                Err(error) => {
                    ctx.report(&format!("cannot remove {}: {error}", quote(&child_shown))).await;
                    Opened::Failed
                }
            };
            match outcome {
                Opened::Frame(child) => stack.push(child),
                Opened::Skipped => {}
                Opened::Failed => {
                    if let Some(frame) = stack.last_mut() {
                        frame.failed = true;
                    }
                }
            }
            continue;
        }
        let Some(done) = stack.pop() else { break };
        let ok = !done.failed && finish_directory(ctx, settings, &done).await;
        match stack.last_mut() {
            Some(parent) => parent.failed |= !ok,
            None => result = ok,
        }
    }
    result
}

/// Reads a directory about to be emptied, after the checks and prompts GNU makes.
async fn open_directory(ctx: &Invocation<'_>, settings: &Settings, shown: &str, path: &str) -> Opened {
    let entries = match ctx.fs.read_dir(path).await {
        Ok(entries) => entries,
        Err(error) => {
            ctx.report(&format!("cannot remove {}: {error}", quote(shown))).await;
            return Opened::Failed;
        }
    };
    if !(settings.recursive || settings.dirs && entries.is_empty()) {
        let error = if settings.dirs { FsError::DirectoryNotEmpty } else { FsError::IsADirectory };
        ctx.report(&format!("cannot remove {}: {error}", quote(shown))).await;
        return Opened::Failed;
    }
    if !entries.is_empty()
        && settings.interactive == Interactive::Always
        && !ask(ctx, &format!("descend into directory {}? ", quote(shown))).await
    {
        return Opened::Skipped;
    }
    Opened::Frame(Frame { shown: shown.to_string(), path: path.to_string(), entries: entries.into_iter(), failed: false })
}

/// Removes an emptied directory.
async fn finish_directory(ctx: &Invocation<'_>, settings: &Settings, frame: &Frame) -> bool {
    if settings.interactive == Interactive::Always && !ask(ctx, &format!("remove directory {}? ", quote(&frame.shown))).await {
        return true;
    }
    if let Err(error) = ctx.fs.remove_dir(&frame.path).await {
        ctx.report(&format!("cannot remove {}: {error}", quote(&frame.shown))).await;
        return false;
    }
    if settings.verbose {
        let _ = ctx.write_out(format!("removed directory {}\n", quote(&frame.shown)).as_bytes()).await;
    }
    true
}

/// Removes a file, symlink or device.
async fn remove_leaf(ctx: &Invocation<'_>, settings: &Settings, shown: &str, path: &str, metadata: &Metadata) -> bool {
    if settings.interactive == Interactive::Always {
        let kind = describe(metadata);
        if !ask(ctx, &format!("remove {kind} {}? ", quote(shown))).await {
            return true;
        }
    }
    if let Err(error) = ctx.fs.remove_file(path).await {
        ctx.report(&format!("cannot remove {}: {error}", quote(shown))).await;
        return false;
    }
    if settings.verbose {
        let _ = ctx.write_out(format!("removed {}\n", quote(shown)).as_bytes()).await;
    }
    true
}

/// `dir/name` for messages, keeping the operand's spelling.
pub fn join_shown(dir: &str, name: &str) -> String {
    if dir.ends_with('/') {
        format!("{dir}{name}")
    } else {
        format!("{dir}/{name}")
    }
}

/// The file kind as `rm -i` names it.
pub fn describe(metadata: &Metadata) -> &'static str {
    match metadata.file_type {
        FileType::File if metadata.size == 0 => "regular empty file",
        FileType::File => "regular file",
        FileType::Directory => "directory",
        FileType::Symlink => "symbolic link",
        FileType::CharDevice => "character special file",
        FileType::Fifo => "fifo",
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::file::fixtures::{exists, run, tree};
    use crate::commands::test_support::run_utility;

    #[test]
    fn files_dirs_and_errors() {
        let fs = tree(&["f", "d/", "d/e/", "d/e/x", "empty/"]);
        assert_eq!(run(&fs, &["rm", "d"]).stderr, "rm: cannot remove 'd': Is a directory\n");
        let out = run(&fs, &["rm", "nope"]);
        assert_eq!((out.stderr.as_str(), out.status), ("rm: cannot remove 'nope': No such file or directory\n", 1));
        assert_eq!(run(&fs, &["rm", "-f", "nope"]).status, 0);
        assert_eq!(run(&fs, &["rm", "-d", "d"]).stderr, "rm: cannot remove 'd': Directory not empty\n");
        assert_eq!(run(&fs, &["rm", "-d", "empty"]).status, 0);
        assert_eq!(run(&fs, &["rm", "-v", "f"]).stdout, "removed 'f'\n");
        let out = run(&fs, &["rm", "-rv", "d"]);
        assert_eq!(out.stdout, "removed 'd/e/x'\nremoved directory 'd/e'\nremoved directory 'd'\n");
        assert!(!exists(&fs, "d"));
        assert_eq!(run(&fs, &["rm"]).stderr, "rm: missing operand\nTry 'rm --help' for more information.\n");
        assert_eq!(run(&fs, &["rm", "-f"]).status, 0);
    }

    #[test]
    fn failsafes() {
        let fs = tree(&[]);
        let out = run(&fs, &["rm", "-rf", "/"]);
        assert_eq!(out.stderr, "rm: it is dangerous to operate recursively on '/'\nrm: use --no-preserve-root to override this failsafe\n");
        assert_eq!(out.status, 1);
        assert!(exists(&fs, "/etc/passwd"));
        assert_eq!(run(&fs, &["rm", "-r", "."]).stderr, "rm: refusing to remove '.' or '..' directory: skipping '.'\n");
        assert_eq!(run(&fs, &["rm", "-r", "./."]).stderr, "rm: refusing to remove '.' or '..' directory: skipping './.'\n");
    }

    #[test]
    fn bad_interactive_argument() {
        let out = run(&tree(&[]), &["rm", "--interactive=x", "f"]);
        assert_eq!(
            out.stderr,
            "rm: invalid argument 'x' for '--interactive'\nValid arguments are:\n  - 'never', 'no', 'none'\n  - 'once'\n  - 'always', 'yes'\nTry 'rm --help' for more information.\n"
        );
        assert_eq!(out.status, 1);
    }

    #[test]
    fn interactive() {
        let fs = tree(&["a=1", "b"]);
        let out = run_utility(&fs, &["rm", "-i", "a", "b"], b"n\ny\n");
        assert_eq!(out.stderr, "rm: remove regular file 'a'? rm: remove regular empty file 'b'? ");
        assert!(exists(&fs, "a") && !exists(&fs, "b"));
    }
}
