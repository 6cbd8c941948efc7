//! `readlink` (`-f -e -m -n -z -v -q -s`) and `realpath` (`-e -m -s -z -q
//! -L -P --relative-to --relative-base`).

use crate::commands::options::{parse_or_report, report_usage, Long, Spec};
use crate::fs::canonical::{canonicalize, is_under, relative_to, Existence};
use crate::fs::path::normalize;
use crate::host::LocalFuture;
use crate::utility::{write_failure_status, Invocation};

const READLINK: Spec = Spec::new(
    "femnqsvz",
    &[
        Long::flag("canonicalize", "f"),
        Long::flag("canonicalize-existing", "e"),
        Long::flag("canonicalize-missing", "m"),
        Long::flag("no-newline", "n"),
        Long::flag("quiet", "q"),
        Long::flag("silent", "s"),
        Long::flag("verbose", "v"),
        Long::flag("zero", "z"),
    ],
);

const REALPATH: Spec = Spec::new(
    "EemLPqsz",
    &[
        Long::flag("canonicalize", "E"),
        Long::flag("canonicalize-existing", "e"),
        Long::flag("canonicalize-missing", "m"),
        Long::flag("logical", "L"),
        Long::flag("physical", "P"),
        Long::flag("quiet", "q"),
        Long::flag("strip", "s"),
        Long::flag("no-symlinks", "s"),
        Long::flag("zero", "z"),
        Long::required("relative-to", "relative-to"),
        Long::required("relative-base", "relative-base"),
    ],
);

/// Runs `readlink [OPTION]... FILE...`.
pub fn run_readlink<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let parsed = match parse_or_report(ctx, &READLINK, 1).await {
            Ok(parsed) => parsed,
            Err(status) => return status,
        };
        if parsed.operands.is_empty() {
            report_usage(ctx, "missing operand").await;
            return 1;
        }
        let mut existence = None;
        let mut verbose = false;
        for (key, _) in &parsed.options {
            match *key {
                "f" => existence = Some(Existence::AllButLast),
                "e" => existence = Some(Existence::All),
                "m" => existence = Some(Existence::None),
                "v" => verbose = true,
                "q" | "s" => verbose = false,
                _ => {}
            }
        }
        let zero = parsed.has("z");
        let no_newline = parsed.has("n") && parsed.operands.len() == 1;
        let mut status = 0;
        let mut out = String::new();
        for name in &parsed.operands {
            let path = ctx.resolve(name);
            let result = match existence {
                Some(existence) => canonicalize(ctx.fs.as_ref(), &path, existence).await,
                None => ctx.fs.read_link(&path).await,
            };
            match result {
                Ok(text) => {
                    out.push_str(&text);
                    if !no_newline {
                        out.push(if zero { '\0' } else { '\n' });
                    }
                }
                Err(error) => {
                    if verbose {
                        ctx.report_fs(name, error).await;
                    }
                    status = 1;
                }
            }
        }
        match ctx.write_out(out.as_bytes()).await {
            Ok(()) => status,
            Err(error) => write_failure_status(error),
        }
    })
}

/// Runs `realpath [OPTION]... FILE...`.
pub fn run_realpath<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let parsed = match parse_or_report(ctx, &REALPATH, 1).await {
            Ok(parsed) => parsed,
            Err(status) => return status,
        };
        if parsed.operands.is_empty() {
            report_usage(ctx, "missing operand").await;
            return 1;
        }
        let mut existence = Existence::AllButLast;
        for (key, _) in &parsed.options {
            match *key {
                "E" => existence = Existence::AllButLast,
                "e" => existence = Existence::All,
                "m" => existence = Existence::None,
                _ => {}
            }
        }
        let lexical = parsed.has("s");
        let quiet = parsed.has("q");
        let end = if parsed.has("z") { '\0' } else { '\n' };
        let resolve = |ctx: &Invocation<'_>, name: &str| {
            let path = ctx.resolve(name);
            let fs = ctx.fs.clone();
            async move {
                if lexical {
                    let normal = normalize("/", &path);
                    if existence == Existence::All && !fs.exists(&normal).await {
                        return Err(crate::fs::FsError::NotFound);
                    }
                    return Ok(normal);
                }
                canonicalize(fs.as_ref(), &path, existence).await
            }
        };
        let relative_to_dir = match parsed.value("relative-to") {
            Some(dir) => match resolve(ctx, dir).await {
                Ok(dir) => Some(dir),
                Err(error) => {
                    ctx.report_fs(dir, error).await;
                    return 1;
                }
            },
            None => None,
        };
        let relative_base = match parsed.value("relative-base") {
            Some(dir) => match resolve(ctx, dir).await {
                Ok(dir) => Some(dir),
                Err(error) => {
                    ctx.report_fs(dir, error).await;
                    return 1;
                }
            },
            None => None,
        };
        let mut status = 0;
        let mut out = String::new();
        for name in &parsed.operands {
            match resolve(ctx, name).await {
                Ok(path) => {
                    let shown = match (&relative_to_dir, &relative_base) {
                        (Some(to), Some(base)) if is_under(&path, base) && is_under(to, base) => relative_to(&path, to),
                        (Some(to), None) => relative_to(&path, to),
                        (None, Some(base)) if is_under(&path, base) => relative_to(&path, base),
                        _ => path,
                    };
                    out.push_str(&shown);
                    out.push(end);
                }
                Err(error) => {
                    if !quiet {
                        ctx.report_fs(name, error).await;
                    }
                    status = 1;
                }
            }
        }
        match ctx.write_out(out.as_bytes()).await {
            Ok(()) => status,
            Err(error) => write_failure_status(error),
        }
    })
}

#[cfg(test)]
mod tests {
    use crate::commands::file::fixtures::{run, tree};

    fn sample() -> crate::fs::MemoryFs {
        tree(&["d/", "d/sub/", "f", "dl -> d", "fl -> f", "loop -> loop", "broken -> nowhere"])
    }

    #[test]
    fn readlink_forms() {
        let fs = sample();
        assert_eq!(run(&fs, &["readlink", "fl"]).stdout, "f\n");
        let out = run(&fs, &["readlink", "f"]);
        assert_eq!((out.stdout.as_str(), out.stderr.as_str(), out.status), ("", "", 1));
        assert_eq!(run(&fs, &["readlink", "-v", "f"]).stderr, "readlink: f: Invalid argument\n");
        assert_eq!(run(&fs, &["readlink", "-f", "fl"]).stdout, "/home/user/f\n");
        assert_eq!(run(&fs, &["readlink", "-f", "nope"]).stdout, "/home/user/nope\n");
        let out = run(&fs, &["readlink", "-f", "nope/x"]);
        assert_eq!((out.stdout.as_str(), out.status), ("", 1));
        assert_eq!(run(&fs, &["readlink", "-e", "nope"]).status, 1);
        assert_eq!(run(&fs, &["readlink", "-m", "nope/x/../y"]).stdout, "/home/user/nope/y\n");
        assert_eq!(run(&fs, &["readlink", "-f", "dl/sub/.."]).stdout, "/home/user/d\n");
        assert_eq!(run(&fs, &["readlink", "-f", "loop"]).status, 1);
        assert_eq!(run(&fs, &["readlink", "-n", "fl"]).stdout, "f");
        assert_eq!(run(&fs, &["readlink", "fl", "f", "dl"]).stdout, "f\nd\n");
        assert_eq!(run(&fs, &["readlink"]).stderr, "readlink: missing operand\nTry 'readlink --help' for more information.\n");
    }

    #[test]
    fn realpath_forms() {
        let fs = sample();
        let out = run(&fs, &["realpath", "f", "nope"]);
        assert_eq!((out.stdout.as_str(), out.status), ("/home/user/f\n/home/user/nope\n", 0));
        let out = run(&fs, &["realpath", "nope/x"]);
        assert_eq!((out.stderr.as_str(), out.status), ("realpath: nope/x: No such file or directory\n", 1));
        assert_eq!(run(&fs, &["realpath", "-e", "nope"]).stderr, "realpath: nope: No such file or directory\n");
        assert_eq!(run(&fs, &["realpath", "-m", "nope/../x"]).stdout, "/home/user/x\n");
        assert_eq!(run(&fs, &["realpath", "-s", "dl/sub"]).stdout, "/home/user/dl/sub\n");
        assert_eq!(run(&fs, &["realpath", "dl/sub"]).stdout, "/home/user/d/sub\n");
        assert_eq!(run(&fs, &["realpath", "--relative-to=d/sub", "f"]).stdout, "../../f\n");
        assert_eq!(run(&fs, &["realpath", "--relative-to=/home/user", "/home/user"]).stdout, ".\n");
        assert_eq!(run(&fs, &["realpath", "--relative-base=/home", "f", "/etc"]).stdout, "user/f\n/etc\n");
        assert_eq!(run(&fs, &["realpath", "loop"]).stderr, "realpath: loop: Too many levels of symbolic links\n");
        assert_eq!(run(&fs, &["realpath", "broken"]).stdout, "/home/user/nowhere\n");
        assert_eq!(run(&fs, &["realpath", "-e", "broken"]).stderr, "realpath: broken: No such file or directory\n");
    }
}
