//! `chmod`: change permission bits, octal or symbolic (`-R -v -c -f
//! --reference`); a leading `-w`-style word is a mode, as GNU reads it.

use super::mode::ModeChange;
use crate::commands::format::{mode_string, quote, quote_locale};
use crate::commands::options::{parse_or_report, report_usage, Long, Spec};
use crate::host::LocalFuture;
use crate::utility::Invocation;

const SPEC: Spec = Spec::new(
    "Rvcf",
    &[
        Long::flag("recursive", "R"),
        Long::flag("verbose", "v"),
        Long::flag("changes", "c"),
        Long::flag("silent", "f"),
        Long::flag("quiet", "f"),
        Long::required("reference", "reference"),
        Long::flag("preserve-root", "preserve-root"),
        Long::flag("no-preserve-root", "no-preserve-root"),
    ],
);

/// True for a word like `-w` or `-rwx,g+s` that is a mode, not options
/// (`--` is the end of the options, never a mode).
fn looks_like_mode(word: &str) -> bool {
    word.len() > 1 && word != "--" && word.starts_with('-') && word[1..].chars().all(|c| "rwxXstugoa=+-,01234567".contains(c))
}

struct Settings {
    recursive: bool,
    verbose: bool,
    changes: bool,
    quiet: bool,
    umask: u32,
}

/// Runs `chmod [OPTION]... MODE[,MODE]... FILE...`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let mut args: Vec<String> = ctx.args.get(1..).unwrap_or(&[]).to_vec();
        let options_end = args.iter().position(|a| a == "--").unwrap_or(args.len());
        let mode_word = args[..options_end].iter().position(|a| looks_like_mode(a)).map(|index| args.remove(index));
        let name = ctx.name().to_string();
        let saved = std::mem::replace(&mut ctx.args, vec![name]);
        ctx.args.extend(args);
        let parsed = parse_or_report(ctx, &SPEC, 1).await;
        ctx.args = saved;
        let parsed = match parsed {
            Ok(parsed) => parsed,
            Err(status) => return status,
        };
        let mut operands = parsed.operands.clone();
        let change = if let Some(reference) = parsed.value("reference") {
            match ctx.fs.metadata(&ctx.resolve(reference)).await {
                Ok(metadata) => ModeChange::Octal(metadata.mode),
                Err(error) => {
                    ctx.report(&format!("failed to get attributes of {}: {error}", quote(reference))).await;
                    return 1;
                }
            }
        } else {
            let text = match mode_word {
                Some(word) => word,
                None if operands.is_empty() => {
                    report_usage(ctx, "missing operand").await;
                    return 1;
                }
                None => operands.remove(0),
            };
            match ModeChange::parse(&text) {
                Some(change) => {
                    if operands.is_empty() {
                        report_usage(ctx, &format!("missing operand after {}", quote_locale(ctx, &text))).await;
                        return 1;
                    }
                    change
                }
                None => {
                    report_usage(ctx, &format!("invalid mode: {}", quote_locale(ctx, &text))).await;
                    return 1;
                }
            }
        };
        if operands.is_empty() {
            report_usage(ctx, "missing operand").await;
            return 1;
        }
        let settings = Settings {
            recursive: parsed.has("R"),
            verbose: parsed.has("v"),
            changes: parsed.has("c"),
            quiet: parsed.has("f"),
            umask: ctx.shell.umask(),
        };
        let mut ok = true;
        for name in &operands {
            ok &= change_mode(ctx, &settings, &change, name).await;
        }
        i32::from(!ok)
    })
}

/// Changes `name` and, with `-R`, everything below it (pre-order, with an
/// explicit stack; symlinks met on the way are not followed).
async fn change_mode(ctx: &Invocation<'_>, settings: &Settings, change: &ModeChange, name: &str) -> bool {
    let mut pending = vec![(name.to_string(), true)];
    let mut ok = true;
    while let Some((name, top)) = pending.pop() {
        let (success, descend) = change_one(ctx, settings, change, &name, top).await;
        ok &= success;
        if descend {
            let entries = ctx.fs.read_dir(&ctx.resolve(&name)).await.unwrap_or_default();
            for entry in entries.iter().rev() {
                pending.push((super::copy::join_name(&name, &entry.name), false));
            }
        }
    }
    ok
}

/// Changes one node; returns success and whether to descend into it.
async fn change_one(ctx: &Invocation<'_>, settings: &Settings, change: &ModeChange, name: &str, top: bool) -> (bool, bool) {
    let path = ctx.resolve(name);
    if !top {
        if let Ok(own) = ctx.fs.symlink_metadata(&path).await {
            if own.is_symlink() {
                return (true, false);
            }
        }
    }
    let metadata = match ctx.fs.metadata(&path).await {
        Ok(metadata) => metadata,
        Err(error) => {
            if !settings.quiet {
                ctx.report(&format!("cannot access {}: {error}", quote(name))).await;
            }
            if settings.verbose {
                let _ = ctx.write_out(format!("{} could not be accessed\n", quote(name)).as_bytes()).await;
            }
            return (false, false);
        }
    };
    let old = metadata.mode & 0o7777;
    let new = change.apply(old, metadata.is_dir(), settings.umask);
    let mut ok = true;
    if new != old {
        if let Err(error) = ctx.fs.set_mode(&path, new).await {
            if !settings.quiet {
                ctx.report(&format!("changing permissions of {}: {error}", quote(name))).await;
            }
            ok = false;
        }
    }
    if ok && (settings.verbose || (settings.changes && new != old)) {
        let show = |mode: u32| format!("{mode:04o} ({})", mode_string(metadata.file_type, mode).get(1..).unwrap_or(""));
        let line = if new != old {
            format!("mode of {} changed from {} to {}\n", quote(name), show(old), show(new))
        } else {
            format!("mode of {} retained as {}\n", quote(name), show(old))
        };
        let _ = ctx.write_out(line.as_bytes()).await;
    }
    (ok, settings.recursive && metadata.is_dir())
}

#[cfg(test)]
mod tests {
    use crate::commands::file::fixtures::{mode, run, tree};

    #[test]
    fn modes_and_messages() {
        let fs = tree(&["f", "d/", "d/e/", "d/e/x"]);
        assert_eq!(run(&fs, &["chmod"]).stderr, "chmod: missing operand\nTry 'chmod --help' for more information.\n");
        assert_eq!(run(&fs, &["chmod", "755"]).stderr, "chmod: missing operand after '755'\nTry 'chmod --help' for more information.\n");
        assert_eq!(run(&fs, &["chmod", "bad", "f"]).stderr, "chmod: invalid mode: 'bad'\nTry 'chmod --help' for more information.\n");
        let out = run(&fs, &["chmod", "644", "nope"]);
        assert_eq!((out.stderr.as_str(), out.status), ("chmod: cannot access 'nope': No such file or directory\n", 1));
        assert_eq!(run(&fs, &["chmod", "-f", "7", "nope"]).stderr, "");
        assert_eq!(run(&fs, &["chmod", "-v", "600", "f"]).stdout, "mode of 'f' changed from 0644 (rw-r--r--) to 0600 (rw-------)\n");
        assert_eq!(run(&fs, &["chmod", "-c", "600", "f"]).stdout, "");
        assert_eq!(run(&fs, &["chmod", "600", "f", "-v"]).stdout, "mode of 'f' retained as 0600 (rw-------)\n");
        run(&fs, &["chmod", "u+x,g-r", "f"]);
        assert_eq!(mode(&fs, "f"), 0o700);
        run(&fs, &["chmod", "-w", "f"]);
        assert_eq!(mode(&fs, "f"), 0o500);
        run(&fs, &["chmod", "-R", "700", "d"]);
        assert_eq!((mode(&fs, "d"), mode(&fs, "d/e"), mode(&fs, "d/e/x")), (0o700, 0o700, 0o700));
        run(&fs, &["chmod", "-R", "a+rX", "d"]);
        assert_eq!((mode(&fs, "d"), mode(&fs, "d/e/x")), (0o755, 0o755));
        run(&fs, &["chmod", "--reference=f", "d/e/x"]);
        assert_eq!(mode(&fs, "d/e/x"), 0o500);
    }
}
