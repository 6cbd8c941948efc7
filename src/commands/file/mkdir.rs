//! `mkdir`: make directories (`-p` parents, `-m` mode, `-v` verbose).

use super::mode::ModeChange;
use crate::commands::format::{quote, quote_locale};
use crate::commands::options::{parse_or_report, report_usage, Long, Spec};
use crate::fs::FsError;
use crate::host::LocalFuture;
use crate::utility::Invocation;

const SPEC: Spec = Spec::new(
    "pm:vZ",
    &[Long::flag("parents", "p"), Long::required("mode", "m"), Long::flag("verbose", "v"), Long::optional("context", "Z")],
);

/// Runs `mkdir [-pv] [-m MODE] DIR...`.
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
        let umask = ctx.shell.umask();
        let mode = match parsed.value("m") {
            None => 0o777 & !umask,
            Some(text) => match ModeChange::parse(text) {
                Some(change) => change.apply(0o777, true, umask),
                None => {
                    ctx.report(&format!("invalid mode {}", quote_locale(ctx, text))).await;
                    return 1;
                }
            },
        };
        let parents = parsed.has("p");
        let verbose = parsed.has("v");
        let mut status = 0;
        for name in &parsed.operands {
            let result =
                if parents { make_parents(ctx, name, mode, umask, verbose).await } else { make_one(ctx, name, mode, verbose).await };
            if let Err((shown, error)) = result {
                ctx.report(&format!("cannot create directory {}: {error}", quote_locale(ctx, &shown))).await;
                status = 1;
            }
        }
        status
    })
}

/// Creates one directory, setting `mode` exactly (as `mkdir -m` does after the umask).
async fn make_one(ctx: &Invocation<'_>, name: &str, mode: u32, verbose: bool) -> Result<(), (String, FsError)> {
    let path = ctx.resolve(name);
    ctx.fs.create_dir(&path, mode).await.map_err(|e| (name.to_string(), e))?;
    let _ = ctx.fs.set_mode(&path, mode).await;
    if verbose {
        let _ = ctx.write_out(format!("mkdir: created directory {}\n", quote(name)).as_bytes()).await;
    }
    Ok(())
}

/// Creates `name` and any missing parents; an existing directory is fine.
async fn make_parents(ctx: &Invocation<'_>, name: &str, mode: u32, umask: u32, verbose: bool) -> Result<(), (String, FsError)> {
    let components: Vec<&str> = name.split('/').filter(|c| !c.is_empty()).collect();
    let mut prefix = if name.starts_with('/') { String::from("/") } else { String::new() };
    for (index, component) in components.iter().enumerate() {
        if !prefix.is_empty() && !prefix.ends_with('/') {
            prefix.push('/');
        }
        prefix.push_str(component);
        let last = index + 1 == components.len();
        let path = ctx.resolve(&prefix);
        match ctx.fs.metadata(&path).await {
            Ok(metadata) if metadata.is_dir() => continue,
            Ok(_) if last => return Err((prefix, FsError::AlreadyExists)),
            Ok(_) => return Err((prefix, FsError::NotADirectory)),
            Err(FsError::NotFound) => {}
            Err(error) => return Err((prefix, error)),
        }
        let this_mode = if last { mode } else { (0o777 & !umask) | 0o300 };
        match ctx.fs.create_dir(&path, this_mode).await {
            Ok(()) => {
                let _ = ctx.fs.set_mode(&path, this_mode).await;
                if verbose {
                    let _ = ctx.write_out(format!("mkdir: created directory {}\n", quote(&prefix)).as_bytes()).await;
                }
            }
            Err(FsError::AlreadyExists) if !last => {}
            Err(error) => return Err((prefix, error)),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::commands::file::fixtures::{exists, mode, run, tree};

    #[test]
    fn creates_and_reports() {
        let fs = tree(&["f"]);
        assert_eq!(run(&fs, &["mkdir", "d"]).status, 0);
        assert!(exists(&fs, "d"));
        assert_eq!(mode(&fs, "d"), 0o755);
        let out = run(&fs, &["mkdir", "d"]);
        assert_eq!((out.stderr.as_str(), out.status), ("mkdir: cannot create directory 'd': File exists\n", 1));
        let out = run(&fs, &["mkdir", "no/x"]);
        assert_eq!(out.stderr, "mkdir: cannot create directory 'no/x': No such file or directory\n");
        let out = run(&fs, &["mkdir"]);
        assert_eq!(out.stderr, "mkdir: missing operand\nTry 'mkdir --help' for more information.\n");
    }

    #[test]
    fn parents_modes_verbose() {
        let fs = tree(&["ff"]);
        let out = run(&fs, &["mkdir", "-pv", "c/d"]);
        assert_eq!(out.stdout, "mkdir: created directory 'c'\nmkdir: created directory 'c/d'\n");
        assert_eq!(run(&fs, &["mkdir", "-p", "c/d"]).status, 0);
        assert_eq!(run(&fs, &["mkdir", "-p", "ff/x"]).stderr, "mkdir: cannot create directory 'ff': Not a directory\n");
        assert_eq!(run(&fs, &["mkdir", "-p", "ff"]).stderr, "mkdir: cannot create directory 'ff': File exists\n");
        run(&fs, &["mkdir", "-m", "700", "m7"]);
        assert_eq!(mode(&fs, "m7"), 0o700);
        run(&fs, &["mkdir", "-m", "u=rwx,g=rx", "m8"]);
        assert_eq!(mode(&fs, "m8"), 0o757);
        assert_eq!(run(&fs, &["mkdir", "-m", "bad", "m9"]).stderr, "mkdir: invalid mode 'bad'\n");
        assert_eq!(run(&fs, &["mkdir", "-p", "/home/user/abs/x"]).status, 0);
        assert!(exists(&fs, "abs/x"));
    }
}
