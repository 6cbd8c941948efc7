//! `touch`: change file timestamps, creating missing files (`-a -m -c -d -r -t`).

use crate::calendar::civil::{days_from_civil, from_millis};
use crate::calendar::parse_date_millis;
use crate::calendar::Zone;
use crate::commands::format::{quote, quote_locale};
use crate::commands::options::{parse_or_report, report_invalid_argument, report_usage, Long, Spec};
use crate::fs::{FsError, OpenOptions};
use crate::host::LocalFuture;
use crate::utility::Invocation;

const SPEC: Spec = Spec::new(
    "acd:fhmr:t:",
    &[
        Long::flag("no-create", "c"),
        Long::required("date", "d"),
        Long::flag("no-dereference", "h"),
        Long::required("reference", "r"),
        Long::required("time", "time"),
    ],
);

/// Parses `[[CC]YY]MMDDhhmm[.ss]` in `zone`, as `touch -t` takes it.
pub fn parse_stamp(text: &str, now: f64, zone: &Zone) -> Option<f64> {
    let (main, seconds) = match text.split_once('.') {
        Some((main, secs)) if secs.len() == 2 => (main, secs.parse::<i64>().ok()?),
        Some(_) => return None,
        None => (text, 0),
    };
    if !main.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let field = |range: std::ops::Range<usize>| main.get(range).and_then(|s| s.parse::<i64>().ok());
    let (year, rest) = match main.len() {
        8 => (from_millis(now, zone.offset).year, 0),
        10 => {
            let yy = field(0..2)?;
            (if yy < 69 { 2000 + yy } else { 1900 + yy }, 2)
        }
        12 => (field(0..4)?, 4),
        _ => return None,
    };
    let month = field(rest..rest + 2)?;
    let day = field(rest + 2..rest + 4)?;
    let hour = field(rest + 4..rest + 6)?;
    let minute = field(rest + 6..rest + 8)?;
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) || hour > 23 || minute > 59 || seconds > 60 {
        return None;
    }
    let days = days_from_civil(year, month as u32, day as u32);
    Some(((days * 86_400 + hour * 3600 + minute * 60 + seconds - zone.offset) * 1000) as f64)
}

/// Runs `touch [OPTION]... FILE...`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let parsed = match parse_or_report(ctx, &SPEC, 1).await {
            Ok(parsed) => parsed,
            Err(status) => return status,
        };
        let zone = crate::calendar::parse_tz(ctx.env_var("TZ"));
        let now = ctx.host.now_millis();
        let (mut set_access, mut set_modify) = (false, false);
        let (mut atime, mut mtime) = (now, now);
        for (key, value) in &parsed.options {
            let value = value.as_deref().unwrap_or("");
            match *key {
                "a" => set_access = true,
                "m" => set_modify = true,
                "time" => match value {
                    "atime" | "access" | "use" => set_access = true,
                    "mtime" | "modify" => set_modify = true,
                    other => {
                        let groups: &[&[&str]] = &[&["atime", "access", "use"], &["mtime", "modify"]];
                        report_invalid_argument(ctx, other, "--time", groups).await;
                        return 1;
                    }
                },
                "d" => match parse_date_millis(value, now, &zone) {
                    Some(t) => (atime, mtime) = (t, t),
                    None => {
                        ctx.report(&format!("invalid date format {}", quote_locale(ctx, value))).await;
                        return 1;
                    }
                },
                "t" => match parse_stamp(value, now, &zone) {
                    Some(t) => (atime, mtime) = (t, t),
                    None => {
                        ctx.report(&format!("invalid date format {}", quote_locale(ctx, value))).await;
                        return 1;
                    }
                },
                "r" => match ctx.fs.metadata(&ctx.resolve(value)).await {
                    Ok(metadata) => (atime, mtime) = (metadata.atime, metadata.mtime),
                    Err(error) => {
                        ctx.report(&format!("failed to get attributes of {}: {error}", quote(value))).await;
                        return 1;
                    }
                },
                _ => {}
            }
        }
        if !set_access && !set_modify {
            (set_access, set_modify) = (true, true);
        }
        if parsed.operands.is_empty() {
            report_usage(ctx, "missing file operand").await;
            return 1;
        }
        let no_create = parsed.has("c");
        let umask = ctx.shell.umask();
        let mut status = 0;
        for name in &parsed.operands {
            let path = ctx.resolve(name);
            let result = match ctx.fs.metadata(&path).await {
                Ok(_) => Ok(()),
                Err(FsError::NotFound) if no_create => continue,
                Err(FsError::NotFound) => {
                    let options = OpenOptions { write: true, create: true, mode: 0o666 & !umask, ..Default::default() };
                    ctx.fs.open(&path, options).await.map(|_| ())
                }
                Err(error) => Err(error),
            };
            let result = match result {
                Ok(()) => {
                    let access = set_access.then_some(atime);
                    let modify = set_modify.then_some(mtime);
                    ctx.fs.set_times(&path, access, modify).await
                }
                Err(error) => Err(error),
            };
            if let Err(error) = result {
                ctx.report(&format!("cannot touch {}: {error}", quote(name))).await;
                status = 1;
            }
        }
        status
    })
}

#[cfg(test)]
mod tests {
    use crate::commands::file::fixtures::{exists, run, tree};
    use crate::executor::block_on;
    use crate::fs::Fs;

    fn times(fs: &crate::fs::MemoryFs, name: &str) -> (f64, f64) {
        let metadata = block_on(fs.metadata(&format!("/home/user/{name}"))).unwrap();
        (metadata.atime, metadata.mtime)
    }

    #[test]
    fn creates_and_errors() {
        let fs = tree(&[]);
        assert_eq!(run(&fs, &["touch", "f"]).status, 0);
        assert!(exists(&fs, "f"));
        assert_eq!(crate::commands::file::fixtures::mode(&fs, "f"), 0o644);
        let out = run(&fs, &["touch", "x/y"]);
        assert_eq!((out.stderr.as_str(), out.status), ("touch: cannot touch 'x/y': No such file or directory\n", 1));
        assert_eq!(run(&fs, &["touch", "-c", "nope"]).status, 0);
        assert!(!exists(&fs, "nope"));
        assert_eq!(run(&fs, &["touch", "-d", "xyz", "f"]).stderr, "touch: invalid date format 'xyz'\n");
        assert_eq!(run(&fs, &["touch", "-t", "bad", "f"]).stderr, "touch: invalid date format 'bad'\n");
        assert_eq!(
            run(&fs, &["touch", "-r", "nope", "f"]).stderr,
            "touch: failed to get attributes of 'nope': No such file or directory\n"
        );
        assert_eq!(run(&fs, &["touch"]).stderr, "touch: missing file operand\nTry 'touch --help' for more information.\n");
    }

    #[test]
    fn sets_times() {
        let fs = tree(&["f", "g"]);
        run(&fs, &["touch", "-t", "200101011200.30", "f"]);
        assert_eq!(times(&fs, "f"), (978_350_430_000.0, 978_350_430_000.0));
        run(&fs, &["touch", "-t", "2001011200", "f"]);
        assert_eq!(times(&fs, "f").1, 1_577_880_000_000.0);
        run(&fs, &["touch", "-d", "2020-02-03 04:05:06", "f"]);
        assert_eq!(times(&fs, "f").1, 1_580_702_706_000.0);
        run(&fs, &["touch", "-m", "-d", "@100", "f"]);
        assert_eq!(times(&fs, "f"), (1_580_702_706_000.0, 100_000.0));
        run(&fs, &["touch", "-r", "f", "g"]);
        assert_eq!(times(&fs, "g"), times(&fs, "f"));
        run(&fs, &["touch", "-a", "-d", "@5", "g"]);
        assert_eq!(times(&fs, "g"), (5_000.0, 100_000.0));
    }
}
