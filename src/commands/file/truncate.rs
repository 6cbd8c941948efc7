//! `truncate`: shrink or extend files to a size (`-s [+-<>/%]N[KMG]`, `-r
//! FILE`, `-c`, `-o`).

use crate::commands::format::{quote, quote_locale};
use crate::commands::options::{parse_or_report, report_usage, Long, Spec};
use crate::fs::{FsError, OpenOptions};
use crate::host::LocalFuture;
use crate::utility::Invocation;

const SPEC: Spec = Spec::new(
    "s:r:co",
    &[Long::required("size", "s"), Long::required("reference", "r"), Long::flag("no-create", "c"), Long::flag("io-blocks", "o")],
);

/// A GNU size with an optional suffix: `K` (1024), `KB` (1000), `KiB`, up to `E`.
pub fn parse_size(text: &str) -> Option<u64> {
    let digits_end = text.find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len());
    let (digits, suffix) = text.split_at(digits_end);
    if digits.is_empty() {
        return None;
    }
    let number: u64 = digits.parse().ok()?;
    let powers = ["", "K", "M", "G", "T", "P", "E"];
    let (letter, rest) = suffix.split_at(suffix.len().min(1));
    let power = powers.iter().position(|p| *p == letter.to_ascii_uppercase().as_str())? as u32;
    let base: u64 = match rest {
        "" | "iB" => 1024,
        "B" => 1000,
        _ => return None,
    };
    if letter == "k" && !rest.is_empty() {
        return None;
    }
    number.checked_mul(base.checked_pow(power)?)
}

/// Runs `truncate OPTION... FILE...`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let parsed = match parse_or_report(ctx, &SPEC, 1).await {
            Ok(parsed) => parsed,
            Err(status) => return status,
        };
        let size_text = parsed.value("s").map(str::to_string);
        let reference = parsed.value("r").map(str::to_string);
        if size_text.is_none() && reference.is_none() {
            let message = format!("you must specify either {} or {}", quote_locale(ctx, "--size"), quote_locale(ctx, "--reference"));
            report_usage(ctx, &message).await;
            return 1;
        }
        if parsed.operands.is_empty() {
            report_usage(ctx, "missing file operand").await;
            return 1;
        }
        let (mode, amount) = match &size_text {
            Some(text) => {
                let (mode, body) = match text.chars().next() {
                    Some(c @ ('+' | '-' | '<' | '>' | '/' | '%')) => (c, &text[1..]),
                    _ => ('=', text.as_str()),
                };
                // `-o`: the size counts I/O blocks of the sandbox's block size.
                let block = if parsed.has("o") { crate::commands::file::statfs::BLOCK_SIZE } else { 1 };
                match parse_size(body).and_then(|amount| amount.checked_mul(block)) {
                    Some(amount) => (mode, amount),
                    None => {
                        ctx.report(&format!("Invalid number: {}", quote_locale(ctx, text))).await;
                        return 1;
                    }
                }
            }
            None => ('=', 0),
        };
        let reference_size = match &reference {
            Some(name) => match ctx.fs.metadata(&ctx.resolve(name)).await {
                Ok(metadata) => Some(metadata.size),
                Err(error) => {
                    ctx.report(&format!("cannot stat {}: {error}", quote(name))).await;
                    return 1;
                }
            },
            None => None,
        };
        let no_create = parsed.has("c");
        let mut status = 0;
        for name in &parsed.operands {
            let path = ctx.resolve(name);
            let handle = match ctx.fs.metadata(&path).await {
                Err(FsError::NotFound) if no_create => continue,
                Ok(metadata) if metadata.is_dir() => Err(FsError::IsADirectory),
                _ => {
                    let options = OpenOptions { write: true, create: !no_create, mode: 0o666 & !ctx.shell.umask(), ..Default::default() };
                    ctx.fs.open(&path, options).await
                }
            };
            let handle = match handle {
                Ok(handle) => handle,
                Err(error) => {
                    ctx.report(&format!("cannot open {} for writing: {error}", quote(name))).await;
                    status = 1;
                    continue;
                }
            };
            let current = handle.metadata().await.map(|m| m.size).unwrap_or(0);
            let base = reference_size.filter(|_| size_text.is_none()).unwrap_or(amount);
            let target = match (mode, reference_size) {
                ('=', Some(reference)) if size_text.is_none() => reference,
                ('+', Some(reference)) => reference.saturating_add(amount),
                ('-', Some(reference)) => reference.saturating_sub(amount),
                ('=', _) => base,
                ('+', None) => current.saturating_add(amount),
                ('-', None) => current.saturating_sub(amount),
                ('<', _) => current.min(amount),
                ('>', _) => current.max(amount),
                ('/', _) if amount > 0 => current / amount * amount,
                ('%', _) if amount > 0 => current.div_ceil(amount).saturating_mul(amount),
                _ => {
                    ctx.report("division by zero").await;
                    return 1;
                }
            };
            if let Err(error) = handle.set_len(target).await {
                ctx.report(&format!("failed to truncate {} at {target} bytes: {error}", quote(name))).await;
                status = 1;
            }
        }
        status
    })
}

#[cfg(test)]
mod tests {
    use crate::commands::file::fixtures::{exists, run, tree};

    fn size(fs: &crate::fs::MemoryFs, name: &str) -> u64 {
        crate::executor::block_on(crate::fs::Fs::metadata(fs, &format!("/home/user/{name}"))).map(|m| m.size).unwrap_or(999)
    }

    #[test]
    fn sizes() {
        let fs = tree(&["d/"]);
        run(&fs, &["truncate", "-s", "10", "f"]);
        assert_eq!(size(&fs, "f"), 10);
        run(&fs, &["truncate", "-s", "+5", "f"]);
        assert_eq!(size(&fs, "f"), 15);
        run(&fs, &["truncate", "-s", "-3", "f"]);
        assert_eq!(size(&fs, "f"), 12);
        run(&fs, &["truncate", "-s", "<5", "f"]);
        assert_eq!(size(&fs, "f"), 5);
        run(&fs, &["truncate", "-s", "1K", "f"]);
        assert_eq!(size(&fs, "f"), 1024);
        run(&fs, &["truncate", "-s", "%1000", "f"]);
        assert_eq!(size(&fs, "f"), 2000);
        run(&fs, &["truncate", "-r", "f", "g"]);
        assert_eq!(size(&fs, "g"), 2000);
        run(&fs, &["truncate", "-c", "-s", "5", "nope"]);
        assert!(!exists(&fs, "nope"));
    }

    #[test]
    fn errors() {
        let fs = tree(&["d/", "f"]);
        assert_eq!(
            run(&fs, &["truncate", "f"]).stderr,
            "truncate: you must specify either '--size' or '--reference'\nTry 'truncate --help' for more information.\n"
        );
        assert_eq!(run(&fs, &["truncate", "-s", "x", "f"]).stderr, "truncate: Invalid number: 'x'\n");
        assert_eq!(
            run(&fs, &["truncate", "-s", "5", "nodir/f"]).stderr,
            "truncate: cannot open 'nodir/f' for writing: No such file or directory\n"
        );
        assert_eq!(run(&fs, &["truncate", "-s", "0", "d"]).stderr, "truncate: cannot open 'd' for writing: Is a directory\n");
    }
}
