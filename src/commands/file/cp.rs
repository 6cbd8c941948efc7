//! `cp`: copy files and directory trees (`-r -R -a -p -f -i -n -u -v -T -t
//! -L -P -H -d -l -s -b -S`, `--preserve`, `--no-preserve`, `--parents`,
//! `--backup`).

use super::backup::from_options;
use super::copy::{copy_node, join_name, plan, CopyOptions, Dereference, LinkInstead};
use crate::commands::format::quote;
use crate::commands::options::{parse_or_report, report_usage, Long, Spec};
use crate::host::LocalFuture;
use crate::utility::Invocation;

const SPEC: Spec = Spec::new(
    "rRapfinuvTt:LPHdlsbxS:",
    &[
        Long::flag("recursive", "r"),
        Long::flag("archive", "a"),
        Long::optional("preserve", "preserve"),
        Long::required("no-preserve", "no-preserve"),
        Long::flag("force", "f"),
        Long::flag("interactive", "i"),
        Long::flag("no-clobber", "n"),
        Long::optional("update", "u"),
        Long::flag("verbose", "v"),
        Long::flag("no-target-directory", "T"),
        Long::required("target-directory", "t"),
        Long::flag("dereference", "L"),
        Long::flag("no-dereference", "P"),
        Long::flag("link", "l"),
        Long::flag("symbolic-link", "s"),
        Long::flag("remove-destination", "f"),
        Long::flag("one-file-system", "x"),
        Long::optional("backup", "b"),
        Long::optional("sparse", "sparse"),
        Long::optional("reflink", "reflink"),
        Long::flag("parents", "parents"),
        Long::required("suffix", "S"),
        Long::flag("strip-trailing-slashes", "strip"),
    ],
);

/// Runs `cp [OPTION]... SOURCE... DEST`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let parsed = match parse_or_report(ctx, &SPEC, 1).await {
            Ok(parsed) => parsed,
            Err(status) => return status,
        };
        let mut options = CopyOptions::new(ctx.shell.umask());
        let mut dereference = None;
        for (key, value) in &parsed.options {
            match *key {
                "r" | "R" => options.recursive = true,
                "a" => {
                    options.recursive = true;
                    dereference = Some(Dereference::Never);
                    (options.preserve_mode, options.preserve_owner, options.preserve_times) = (true, true, true);
                }
                "p" => (options.preserve_mode, options.preserve_owner, options.preserve_times) = (true, true, true),
                "preserve" => {
                    let list = value.as_deref().unwrap_or("mode,ownership,timestamps");
                    for item in list.split(',') {
                        match item {
                            "mode" => options.preserve_mode = true,
                            "ownership" => options.preserve_owner = true,
                            "timestamps" => options.preserve_times = true,
                            "all" => (options.preserve_mode, options.preserve_owner, options.preserve_times) = (true, true, true),
                            _ => {}
                        }
                    }
                }
                "no-preserve" => {
                    for item in value.as_deref().unwrap_or("").split(',') {
                        match item {
                            "mode" => options.preserve_mode = false,
                            "ownership" => options.preserve_owner = false,
                            "timestamps" => options.preserve_times = false,
                            "all" => (options.preserve_mode, options.preserve_owner, options.preserve_times) = (false, false, false),
                            _ => {}
                        }
                    }
                }
                "f" => (options.force, options.interactive, options.no_clobber) = (true, false, false),
                "i" => (options.interactive, options.no_clobber) = (true, false),
                "n" => (options.no_clobber, options.interactive) = (true, false),
                "u" => options.update = value.as_deref() != Some("all"),
                "v" => options.verbose = true,
                "L" => dereference = Some(Dereference::Always),
                "P" => dereference = Some(Dereference::Never),
                "H" => dereference = Some(Dereference::CommandLine),
                "d" => {
                    dereference = Some(Dereference::Never);
                }
                "l" => options.link = Some(LinkInstead::Hard),
                "s" => options.link = Some(LinkInstead::Symbolic),
                _ => {}
            }
        }
        options.dereference = dereference.unwrap_or(if options.recursive || options.link.is_some() {
            if options.link == Some(LinkInstead::Symbolic) || options.recursive {
                Dereference::Never
            } else {
                Dereference::Always
            }
        } else {
            Dereference::Always
        });
        options.backup = match from_options(ctx, &parsed).await {
            Ok(backup) => backup,
            Err(status) => return status,
        };
        let pairs = if parsed.has("parents") {
            match plan_parents(ctx, &options, &parsed.operands, parsed.value("t")).await {
                Ok(pairs) => pairs,
                Err(status) => return status,
            }
        } else {
            match plan(ctx, &parsed.operands, parsed.value("t"), parsed.has("T")).await {
                Ok(pairs) => pairs,
                Err(status) => return status,
            }
        };
        let mut ok = true;
        for (source, dest) in &pairs {
            ok &= copy_node(ctx, &options, source, dest, true).await;
        }
        i32::from(!ok)
    })
}

/// `cp --parents SOURCE... DIRECTORY`: each source lands at
/// `DIRECTORY/SOURCE`, its missing parent directories made first (with the
/// source directories' modes; `-v` names each).
async fn plan_parents(
    ctx: &Invocation<'_>,
    options: &CopyOptions,
    operands: &[String],
    target_dir: Option<&str>,
) -> Result<Vec<(String, String)>, i32> {
    let (sources, target) = match (target_dir, operands) {
        (Some(dir), _) => (operands, dir.to_string()),
        (None, [sources @ .., target]) if !sources.is_empty() => (sources, target.clone()),
        (None, [only]) => {
            report_usage(ctx, &format!("missing destination file operand after {}", quote(only))).await;
            return Err(1);
        }
        (None, _) => {
            report_usage(ctx, "missing file operand").await;
            return Err(1);
        }
    };
    if sources.is_empty() {
        report_usage(ctx, "missing file operand").await;
        return Err(1);
    }
    if !ctx.fs.metadata(&ctx.resolve(&target)).await.is_ok_and(|m| m.is_dir()) {
        report_usage(ctx, "with --parents, the destination must be a directory").await;
        return Err(1);
    }
    let mut pairs = Vec::new();
    for source in sources {
        let relative = source.trim_start_matches('/');
        let mut made = target.clone();
        let mut typed = if source.starts_with('/') { "/".to_string() } else { String::new() };
        let components: Vec<&str> = relative.split('/').filter(|c| !c.is_empty()).collect();
        for component in components.iter().take(components.len().saturating_sub(1)) {
            typed.push_str(component);
            made = join_name(&made, component);
            let path = ctx.resolve(&made);
            if ctx.fs.metadata(&path).await.is_err() {
                let mode = ctx.fs.metadata(&ctx.resolve(&typed)).await.map_or(0o755, |m| m.mode & 0o7777);
                if let Err(error) = ctx.fs.create_dir(&path, mode & !options.umask).await {
                    ctx.report(&format!("cannot make directory {}: {error}", quote(&made))).await;
                    return Err(1);
                }
                if options.verbose {
                    let _ = ctx.write_out(format!("{typed} -> {made}\n").as_bytes()).await;
                }
            }
            typed.push('/');
        }
        pairs.push((source.clone(), join_name(&target, relative)));
    }
    Ok(pairs)
}

#[cfg(test)]
mod tests {
    use crate::commands::file::fixtures::{exists, mode, read, run, set_mtime, tree};
    use crate::commands::test_support::run_utility;

    fn sample() -> crate::fs::MemoryFs {
        tree(&["d/", "d/sub/", "d/f=a\n", "x=x\n", "y=y\n", "file"])
    }

    #[test]
    fn usage_errors() {
        let fs = sample();
        assert_eq!(run(&fs, &["cp"]).stderr, "cp: missing file operand\nTry 'cp --help' for more information.\n");
        assert_eq!(
            run(&fs, &["cp", "x"]).stderr,
            "cp: missing destination file operand after 'x'\nTry 'cp --help' for more information.\n"
        );
        assert_eq!(run(&fs, &["cp", "x", "y", "z"]).stderr, "cp: target 'z': No such file or directory\n");
        assert_eq!(run(&fs, &["cp", "x", "y", "file"]).stderr, "cp: target 'file' is not a directory\n");
        let out = run(&fs, &["cp", "-Q"]);
        assert_eq!((out.stderr.as_str(), out.status), ("cp: invalid option -- 'Q'\nTry 'cp --help' for more information.\n", 1));
    }

    #[test]
    fn files() {
        let fs = sample();
        assert_eq!(run(&fs, &["cp", "nope", "z"]).stderr, "cp: cannot stat 'nope': No such file or directory\n");
        assert_eq!(run(&fs, &["cp", "x", "z"]).status, 0);
        assert_eq!(read(&fs, "z").as_deref(), Some("x\n"));
        assert_eq!(run(&fs, &["cp", "-v", "x", "y"]).stdout, "'x' -> 'y'\n");
        assert_eq!(read(&fs, "y").as_deref(), Some("x\n"));
        run(&fs, &["cp", "x", "d"]);
        assert_eq!(read(&fs, "d/x").as_deref(), Some("x\n"));
        assert_eq!(run(&fs, &["cp", "x", "x"]).stderr, "cp: 'x' and 'x' are the same file\n");
        assert_eq!(run(&fs, &["cp", "x", "nodir/"]).stderr, "cp: cannot create regular file 'nodir/': Not a directory\n");
        assert_eq!(run(&fs, &["cp", "x", "d/sub/", "-v"]).stdout, "'x' -> 'd/sub/x'\n");
    }

    #[test]
    fn no_clobber_update_interactive() {
        let fs = sample();
        assert_eq!(run(&fs, &["cp", "-n", "x", "y"]).status, 0);
        assert_eq!(read(&fs, "y").as_deref(), Some("y\n"));
        set_mtime(&fs, "x", 1000.0);
        run(&fs, &["cp", "-u", "x", "y"]);
        assert_eq!(read(&fs, "y").as_deref(), Some("y\n"));
        let out = run_utility(&fs, &["cp", "-i", "x", "y"], b"n\n");
        assert_eq!(out.stderr, "cp: overwrite 'y'? ");
        assert_eq!(read(&fs, "y").as_deref(), Some("y\n"));
        run_utility(&fs, &["cp", "-i", "x", "y"], b"y\n");
        assert_eq!(read(&fs, "y").as_deref(), Some("x\n"));
    }

    #[test]
    fn directories() {
        let fs = sample();
        let out = run(&fs, &["cp", "d", "e"]);
        assert_eq!((out.stderr.as_str(), out.status), ("cp: -r not specified; omitting directory 'd'\n", 1));
        assert_eq!(run(&fs, &["cp", "-r", "d", "e"]).status, 0);
        assert_eq!(read(&fs, "e/f").as_deref(), Some("a\n"));
        assert!(exists(&fs, "e/sub"));
        let out = run(&fs, &["cp", "-rv", "d", "e2"]);
        assert_eq!(out.stdout, "'d' -> 'e2'\n'd/f' -> 'e2/f'\n'd/sub' -> 'e2/sub'\n");
        run(&fs, &["cp", "-r", "d", "e"]);
        assert!(exists(&fs, "e/d/f"));
        assert_eq!(run(&fs, &["cp", "-r", "d", "d/sub"]).stderr, "cp: cannot copy a directory, 'd', into itself, 'd/sub/d'\n");
        assert_eq!(run(&fs, &["cp", "-r", "d", "x"]).stderr, "cp: cannot overwrite non-directory 'x' with directory 'd'\n");
        run(&fs, &["cp", "-rT", "d", "e3"]);
        assert!(exists(&fs, "e3/f"));
        run(&fs, &["mkdir", "t"]);
        run(&fs, &["cp", "-t", "t", "x", "y"]);
        assert!(exists(&fs, "t/x") && exists(&fs, "t/y"));
    }

    #[test]
    fn symlinks_and_preserve() {
        let fs = tree(&["d/", "d/f", "x=x", "dl -> d", "xl -> x"]);
        run(&fs, &["cp", "-r", "dl", "dl2"]);
        assert_eq!(run(&fs, &["readlink", "dl2"]).stdout, "d\n");
        assert_eq!(run(&fs, &["cp", "dl", "dl3"]).stderr, "cp: -r not specified; omitting directory 'dl'\n");
        run(&fs, &["cp", "-rL", "dl", "dl4"]);
        assert!(exists(&fs, "dl4/f"));
        run(&fs, &["cp", "xl", "xcopy"]);
        assert_eq!(read(&fs, "xcopy").as_deref(), Some("x"));
        crate::executor::block_on(crate::fs::Fs::set_mode(&fs, "/home/user/x", 0o600)).unwrap();
        set_mtime(&fs, "x", 5000.0);
        run(&fs, &["cp", "-p", "x", "px"]);
        assert_eq!(mode(&fs, "px"), 0o600);
        let stat = crate::executor::block_on(crate::fs::Fs::metadata(&fs, "/home/user/px")).unwrap();
        assert_eq!(stat.mtime, 5000.0);
        run(&fs, &["cp", "-s", "x", "sx"]);
        assert_eq!(run(&fs, &["readlink", "sx"]).stdout, "x\n");
        assert_eq!(run(&fs, &["cp", "-s", "x", "d/sx"]).stderr, "cp: d/sx: can make relative symbolic links only in current directory\n");
        run(&fs, &["cp", "-l", "x", "lx"]);
        let stat = crate::executor::block_on(crate::fs::Fs::metadata(&fs, "/home/user/x")).unwrap();
        assert_eq!(stat.nlink, 2);
    }
}
