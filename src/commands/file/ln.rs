//! `ln`: make hard or symbolic links (`-s -f -n -r -v -T -t -L -P -i -b -S`).

use super::backup::{from_options, make_backup, Backup};
use super::copy::into_directory;
use super::prompt::ask;
use crate::commands::format::quote;
use crate::commands::options::{parse_or_report, report_usage, Long, Spec};
use crate::fs::canonical::{canonicalize, relative_to, Existence};
use crate::fs::FsError;
use crate::host::LocalFuture;
use crate::utility::Invocation;

const SPEC: Spec = Spec::new(
    "sfnrvTt:LPibS:",
    &[
        Long::flag("symbolic", "s"),
        Long::flag("force", "f"),
        Long::flag("no-dereference", "n"),
        Long::flag("relative", "r"),
        Long::flag("verbose", "v"),
        Long::flag("no-target-directory", "T"),
        Long::required("target-directory", "t"),
        Long::flag("logical", "L"),
        Long::flag("physical", "P"),
        Long::flag("interactive", "i"),
        Long::optional("backup", "b"),
        Long::required("suffix", "S"),
    ],
);

struct Settings {
    backup: Option<Backup>,
    symbolic: bool,
    force: bool,
    interactive: bool,
    relative: bool,
    verbose: bool,
}

/// Runs `ln [OPTION]... TARGET... [LINK_NAME|DIRECTORY]`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let parsed = match parse_or_report(ctx, &SPEC, 1).await {
            Ok(parsed) => parsed,
            Err(status) => return status,
        };
        let backup = match from_options(ctx, &parsed).await {
            Ok(backup) => backup,
            Err(status) => return status,
        };
        let mut settings = Settings { backup, symbolic: false, force: false, interactive: false, relative: false, verbose: false };
        for (key, _) in &parsed.options {
            match *key {
                "s" => settings.symbolic = true,
                "f" => (settings.force, settings.interactive) = (true, false),
                "i" => (settings.interactive, settings.force) = (true, false),
                "r" => settings.relative = true,
                "v" => settings.verbose = true,
                _ => {}
            }
        }
        let no_dereference = parsed.has("n");
        let operands = &parsed.operands;
        let pairs: Vec<(String, String)> = if let Some(dir) = parsed.value("t") {
            operands.iter().map(|t| (t.clone(), into_directory(dir, t))).collect()
        } else {
            match operands.as_slice() {
                [] => {
                    report_usage(ctx, "missing file operand").await;
                    return 1;
                }
                [only] => vec![(only.clone(), into_directory(".", only))],
                [targets @ .., last] => {
                    let dest_path = ctx.resolve(last);
                    let is_dir = if parsed.has("T") {
                        false
                    } else if no_dereference {
                        ctx.fs.symlink_metadata(&dest_path).await.is_ok_and(|m| m.is_dir())
                    } else {
                        ctx.fs.metadata(&dest_path).await.is_ok_and(|m| m.is_dir())
                    };
                    if parsed.has("T") && operands.len() > 2 {
                        let extra = operands.get(2).cloned().unwrap_or_default();
                        report_usage(ctx, &format!("extra operand {}", quote(&extra))).await;
                        return 1;
                    }
                    if is_dir {
                        targets.iter().map(|t| (t.clone(), into_directory(last, t))).collect()
                    } else if targets.len() == 1 {
                        vec![(targets.first().cloned().unwrap_or_default(), last.clone())]
                    } else {
                        let error = match ctx.fs.metadata(&dest_path).await {
                            Ok(_) => format!("target {} is not a directory", quote(last)),
                            Err(error) => format!("target {}: {error}", quote(last)),
                        };
                        ctx.report(&error).await;
                        return 1;
                    }
                }
            }
        };
        let mut ok = true;
        for (target, link) in &pairs {
            ok &= make_link(ctx, &settings, target, link).await;
        }
        i32::from(!ok)
    })
}

async fn make_link(ctx: &Invocation<'_>, settings: &Settings, target: &str, link: &str) -> bool {
    let link_path = ctx.resolve(link);
    let kind = if settings.symbolic { "symbolic link" } else { "hard link" };
    if !settings.symbolic {
        match ctx.fs.metadata(&ctx.resolve(target)).await {
            Ok(m) if m.is_dir() => {
                ctx.report(&format!("{target}: hard link not allowed for directory")).await;
                return false;
            }
            Ok(_) => {}
            Err(error) => {
                ctx.report(&format!("failed to access {}: {error}", quote(target))).await;
                return false;
            }
        }
    }
    let link_text = if settings.symbolic && settings.relative {
        let fs = ctx.fs.as_ref();
        let target_abs = canonicalize(fs, &ctx.resolve(target), Existence::None).await.unwrap_or_else(|_| ctx.resolve(target));
        let parent = super::basename::dir_name(&link_path).to_string();
        let parent_abs = canonicalize(fs, &parent, Existence::None).await.unwrap_or(parent);
        relative_to(&target_abs, &parent_abs)
    } else {
        target.to_string()
    };
    let mut backed_up = None;
    if let Ok(existing) = ctx.fs.symlink_metadata(&link_path).await {
        let replace = if settings.interactive {
            ask(ctx, &format!("replace {}? ", quote(link))).await
        } else {
            settings.force || settings.backup.is_some()
        };
        if !replace {
            if !settings.interactive {
                ctx.report(&format!("failed to create {kind} {}: {}", quote(link), FsError::AlreadyExists)).await;
                return false;
            }
            return true;
        }
        if existing.is_dir() {
            ctx.report(&format!("cannot overwrite directory {}", quote(link))).await;
            return false;
        }
        match &settings.backup {
            Some(backup) => match make_backup(ctx, backup, link).await {
                Ok(name) => backed_up = Some(name),
                Err(()) => return false,
            },
            None => {
                let _ = ctx.fs.remove_file(&link_path).await;
            }
        }
    }
    let result = if settings.symbolic {
        ctx.fs.symlink(&link_text, &link_path).await
    } else {
        ctx.fs.hard_link(&ctx.resolve(target), &link_path).await
    };
    if let Err(error) = result {
        ctx.report(&format!("failed to create {kind} {}: {error}", quote(link))).await;
        return false;
    }
    if settings.verbose {
        let arrow = if settings.symbolic { "->" } else { "=>" };
        let backup = backed_up.map(|name| format!("{} ~ ", quote(&name))).unwrap_or_default();
        let _ = ctx.write_out(format!("{backup}{} {arrow} {}\n", quote(link), quote(&link_text)).as_bytes()).await;
    }
    true
}

#[cfg(test)]
mod tests {
    use crate::commands::file::fixtures::{exists, run, tree};

    #[test]
    fn links() {
        let fs = tree(&["f", "g", "d/"]);
        assert_eq!(run(&fs, &["ln"]).stderr, "ln: missing file operand\nTry 'ln --help' for more information.\n");
        assert_eq!(run(&fs, &["ln", "f"]).stderr, "ln: failed to create hard link './f': File exists\n");
        assert_eq!(run(&fs, &["ln", "f", "h"]).status, 0);
        assert_eq!(run(&fs, &["ln", "f", "h"]).stderr, "ln: failed to create hard link 'h': File exists\n");
        assert_eq!(run(&fs, &["ln", "-s", "f", "s"]).status, 0);
        assert_eq!(run(&fs, &["ln", "-s", "f", "s"]).stderr, "ln: failed to create symbolic link 's': File exists\n");
        run(&fs, &["ln", "-sf", "g", "s"]);
        assert_eq!(run(&fs, &["readlink", "s"]).stdout, "g\n");
        assert_eq!(run(&fs, &["ln", "-sv", "f", "s2"]).stdout, "'s2' -> 'f'\n");
        assert_eq!(run(&fs, &["ln", "-v", "f", "h2"]).stdout, "'h2' => 'f'\n");
        assert_eq!(run(&fs, &["ln", "d", "dd"]).stderr, "ln: d: hard link not allowed for directory\n");
        assert_eq!(run(&fs, &["ln", "nope", "x"]).stderr, "ln: failed to access 'nope': No such file or directory\n");
        assert_eq!(run(&fs, &["ln", "-s", "a", "b", "c"]).stderr, "ln: target 'c': No such file or directory\n");
        run(&fs, &["ln", "-s", "f", "d"]);
        assert!(exists(&fs, "d/f"));
        run(&fs, &["ln", "-sr", "f", "d/rel"]);
        assert_eq!(run(&fs, &["readlink", "d/rel"]).stdout, "../f\n");
        run(&fs, &["ln", "-s", "d", "dl"]);
        run(&fs, &["ln", "-sfn", "f", "dl"]);
        assert_eq!(run(&fs, &["readlink", "dl"]).stdout, "f\n");
    }
}
