//! `mktemp`: create a uniquely named file or directory from a template
//! (`-d -p DIR -t -u -q --suffix --tmpdir`), names drawn from the host seed.

use crate::commands::format::quote_locale;
use crate::commands::options::{parse_or_report, report_usage, Long, Spec};
use crate::fs::{FsError, OpenOptions};
use crate::host::LocalFuture;
use crate::utility::{write_failure_status, Invocation};

const SPEC: Spec = Spec::new(
    "dp:tuq",
    &[
        Long::flag("directory", "d"),
        Long::optional("tmpdir", "p"),
        Long::flag("dry-run", "u"),
        Long::flag("quiet", "q"),
        Long::required("suffix", "suffix"),
    ],
);

const ALPHABET: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// A small generator for name characters (splitmix64).
struct Names(u64);

impl Names {
    fn next_char(&mut self) -> char {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        ALPHABET.get((z % ALPHABET.len() as u64) as usize).map(|&b| b as char).unwrap_or('x')
    }
}

/// Runs `mktemp [OPTION]... [TEMPLATE]`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let parsed = match parse_or_report(ctx, &SPEC, 1).await {
            Ok(parsed) => parsed,
            Err(status) => return status,
        };
        if parsed.operands.len() > 1 {
            report_usage(ctx, "too many templates").await;
            return 1;
        }
        let quiet = parsed.has("q");
        let given = parsed.operands.first().cloned();
        let mut template = given.clone().unwrap_or_else(|| "tmp.XXXXXXXXXX".to_string());
        let mut suffix = parsed.value("suffix").unwrap_or("").to_string();
        if parsed.value("suffix").is_none() {
            let trailing = template.len() - template.trim_end_matches(|c| c != 'X').len();
            if trailing > 0 {
                suffix = template[template.len() - trailing..].to_string();
                template.truncate(template.len() - trailing);
            }
        }
        if suffix.contains('/') {
            ctx.report(&format!("invalid suffix {}, contains directory separator", quote_locale(ctx, &suffix))).await;
            return 1;
        }
        let x_count = template.len() - template.trim_end_matches('X').len();
        if x_count < 3 {
            let shown = format!("{template}{suffix}");
            ctx.report(&format!("too few X's in template {}", quote_locale(ctx, &shown))).await;
            return 1;
        }
        let tmpdir_env = ctx.env_var("TMPDIR").filter(|v| !v.is_empty()).unwrap_or("/tmp").to_string();
        let use_dir = given.is_none() || parsed.has("t") || parsed.has("p");
        let directory = match parsed.options.iter().rev().find(|(k, _)| *k == "p") {
            Some((_, Some(dir))) if !dir.is_empty() => dir.clone(),
            _ => tmpdir_env,
        };
        if use_dir && parsed.has("t") && template.contains('/') {
            ctx.report(&format!("invalid template, {}; with --tmpdir, it may not be absolute", quote_locale(ctx, &template))).await;
            return 1;
        }
        let prefix = if use_dir && !template.starts_with('/') { super::copy::join_name(&directory, &template) } else { template.clone() };
        let stem = &prefix[..prefix.len() - x_count];
        let seed = ctx.host.random_seed() ^ (ctx.host.now_millis() as u64).rotate_left(17);
        let mut names = Names(seed);
        let make_dir = parsed.has("d");
        for _attempt in 0..100 {
            let random: String = (0..x_count).map(|_| names.next_char()).collect();
            let candidate = format!("{stem}{random}{suffix}");
            let path = ctx.resolve(&candidate);
            let result = if parsed.has("u") {
                if ctx.fs.symlink_metadata(&path).await.is_ok() {
                    Err(FsError::AlreadyExists)
                } else {
                    Ok(())
                }
            } else if make_dir {
                match ctx.fs.create_dir(&path, 0o700).await {
                    Ok(()) => ctx.fs.set_mode(&path, 0o700).await,
                    Err(error) => Err(error),
                }
            } else {
                let options = OpenOptions { write: true, create: true, exclusive: true, mode: 0o600, ..Default::default() };
                ctx.fs.open(&path, options).await.map(|_| ())
            };
            match result {
                Ok(()) => {
                    return match ctx.write_out(format!("{candidate}\n").as_bytes()).await {
                        Ok(()) => 0,
                        Err(error) => write_failure_status(error),
                    };
                }
                Err(FsError::AlreadyExists) => continue,
                Err(error) => {
                    if !quiet {
                        let kind = if make_dir { "directory" } else { "file" };
                        let shown = format!("{prefix}{suffix}");
                        ctx.report(&format!("failed to create {kind} via template {}: {error}", quote_locale(ctx, &shown))).await;
                    }
                    return 1;
                }
            }
        }
        if !quiet {
            ctx.report(&format!("failed to create file via template {}: {}", quote_locale(ctx, &prefix), FsError::AlreadyExists)).await;
        }
        1
    })
}

#[cfg(test)]
mod tests {
    use crate::commands::file::fixtures::{exists, mode, run, tree};

    #[test]
    fn creates_unique_names() {
        let fs = tree(&["d/"]);
        let first = run(&fs, &["mktemp"]).stdout;
        let second = run(&fs, &["mktemp"]).stdout;
        assert!(first.starts_with("/tmp/tmp.") && first.len() == "/tmp/tmp.XXXXXXXXXX\n".len());
        assert_ne!(first, second);
        assert_eq!(mode(&fs, first.trim_end()), 0o600);
        let dir = run(&fs, &["mktemp", "-d"]).stdout;
        assert_eq!(mode(&fs, dir.trim_end()), 0o700);
        let local = run(&fs, &["mktemp", "d/x.XXXX"]).stdout;
        assert!(local.starts_with("d/x.") && exists(&fs, local.trim_end()));
        let suffixed = run(&fs, &["mktemp", "--suffix=.txt", "x.XXX"]).stdout;
        assert!(suffixed.starts_with("x.") && suffixed.ends_with(".txt\n"));
        let in_dir = run(&fs, &["mktemp", "-p", "/home/user/d"]).stdout;
        assert!(in_dir.starts_with("/home/user/d/tmp."));
        assert!(run(&fs, &["mktemp", "-t", "abc.XXXX"]).stdout.starts_with("/tmp/abc."));
        let dry = run(&fs, &["mktemp", "-u"]).stdout;
        assert!(!exists(&fs, dry.trim_end()));
    }

    #[test]
    fn errors() {
        let fs = tree(&[]);
        assert_eq!(run(&fs, &["mktemp", "foo"]).stderr, "mktemp: too few X's in template 'foo'\n");
        assert_eq!(run(&fs, &["mktemp", "fooXX"]).stderr, "mktemp: too few X's in template 'fooXX'\n");
        let out = run(&fs, &["mktemp", "/nope/tmp.XXX"]);
        assert_eq!(
            (out.stderr.as_str(), out.status),
            ("mktemp: failed to create file via template '/nope/tmp.XXX': No such file or directory\n", 1)
        );
        assert_eq!(run(&fs, &["mktemp", "-q", "/nope/tmp.XXX"]).stderr, "");
        assert_eq!(run(&fs, &["mktemp", "XXX/foo"]).stderr, "mktemp: invalid suffix '/foo', contains directory separator\n");
    }
}
