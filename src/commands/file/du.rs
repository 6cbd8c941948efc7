//! `du`: disk usage of trees (`-s -a -c -h -k -m -b -d N --max-depth
//! --apparent-size --si -L -0 --exclude`), counting each inode once.

use super::glob::matches;
use crate::commands::format::{human_size, kib_blocks, quote, quote_locale};
use crate::commands::options::{parse_or_report, report_usage, Long, Spec};
use crate::host::LocalFuture;
use crate::utility::{write_failure_status, Invocation};
use std::collections::HashSet;

const SPEC: Spec = Spec::new(
    "sachkmbd:LPx0SB:D",
    &[
        Long::flag("summarize", "s"),
        Long::flag("all", "a"),
        Long::flag("total", "c"),
        Long::flag("human-readable", "h"),
        Long::flag("si", "si"),
        Long::flag("bytes", "b"),
        Long::required("max-depth", "d"),
        Long::flag("apparent-size", "apparent"),
        Long::flag("dereference", "L"),
        Long::flag("no-dereference", "P"),
        Long::flag("one-file-system", "x"),
        Long::flag("null", "0"),
        Long::flag("separate-dirs", "S"),
        Long::required("block-size", "B"),
        Long::required("exclude", "exclude"),
        Long::flag("dereference-args", "D"),
    ],
);

struct Settings {
    all: bool,
    max_depth: Option<usize>,
    apparent: bool,
    unit: u64,
    human: Option<bool>,
    follow: bool,
    separate: bool,
    one_file_system: bool,
    end: char,
    exclude: Vec<String>,
}

impl Settings {
    fn size_text(&self, bytes: u64) -> String {
        match self.human {
            Some(si) => human_size(bytes, si),
            None => bytes.div_ceil(self.unit.max(1)).to_string(),
        }
    }
}

/// Runs `du [OPTION]... [FILE]...`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let parsed = match parse_or_report(ctx, &SPEC, 1).await {
            Ok(parsed) => parsed,
            Err(status) => return status,
        };
        let mut settings = Settings {
            all: false,
            max_depth: None,
            apparent: false,
            unit: 1024,
            human: None,
            follow: false,
            separate: false,
            one_file_system: false,
            end: '\n',
            exclude: Vec::new(),
        };
        let mut summarize = false;
        for (key, value) in &parsed.options {
            let value = value.clone().unwrap_or_default();
            match *key {
                "s" => summarize = true,
                "a" => settings.all = true,
                "h" => settings.human = Some(false),
                "si" => settings.human = Some(true),
                "k" => (settings.unit, settings.human) = (1024, None),
                "m" => (settings.unit, settings.human) = (1 << 20, None),
                "b" => (settings.unit, settings.apparent, settings.human) = (1, true, None),
                "apparent" => settings.apparent = true,
                "L" => settings.follow = true,
                "S" => settings.separate = true,
                "x" => settings.one_file_system = true,
                "0" => settings.end = '\0',
                "exclude" => settings.exclude.push(value),
                "B" => match parse_block_size(&value) {
                    Some(unit) => (settings.unit, settings.human) = (unit, None),
                    None => {
                        ctx.report(&format!("invalid -B argument {}", quote(&value))).await;
                        return 1;
                    }
                },
                "d" => match value.parse() {
                    Ok(depth) => settings.max_depth = Some(depth),
                    Err(_) => {
                        ctx.report(&format!("invalid maximum depth {}", quote_locale(ctx, &value))).await;
                        return 1;
                    }
                },
                _ => {}
            }
        }
        if summarize {
            if settings.max_depth.is_some_and(|d| d != 0) {
                ctx.report("cannot both summarize and show all entries").await;
                return 1;
            }
            settings.max_depth = Some(0);
        }
        if summarize && settings.all {
            report_usage(ctx, "cannot both summarize and show all entries").await;
            return 1;
        }
        let names: Vec<String> = if parsed.operands.is_empty() { vec![".".into()] } else { parsed.operands.clone() };
        let mut tally = Tally { seen: HashSet::new(), out: String::new() };
        let mut status = 0;
        let mut total = 0;
        for name in &names {
            let path = ctx.resolve(name);
            match measure(ctx, &settings, name, path, 0, &mut tally, None).await {
                Ok(bytes) => total += bytes,
                Err(()) => status = 1,
            }
            if tally.out.len() > 32 * 1024 {
                if let Err(error) = ctx.write_out(tally.out.as_bytes()).await {
                    return write_failure_status(error);
                }
                tally.out.clear();
            }
        }
        if parsed.has("c") {
            tally.out.push_str(&format!("{}\ttotal{}", settings.size_text(total), settings.end));
        }
        match ctx.write_out(tally.out.as_bytes()).await {
            Ok(()) => status,
            Err(error) => write_failure_status(error),
        }
    })
}

/// `-B` sizes: a number with an optional `K`, `M`, `G` suffix (or `KB`...).
fn parse_block_size(text: &str) -> Option<u64> {
    let digits: String = text.chars().take_while(|c| c.is_ascii_digit()).collect();
    let suffix = &text[digits.len()..];
    let number: u64 = if digits.is_empty() { 1 } else { digits.parse().ok()? };
    let multiplier: u64 = match suffix {
        "" => 1,
        "K" | "KiB" => 1 << 10,
        "M" | "MiB" => 1 << 20,
        "G" | "GiB" => 1 << 30,
        "KB" => 1000,
        "MB" => 1_000_000,
        "GB" => 1_000_000_000,
        _ => return None,
    };
    number.checked_mul(multiplier).filter(|n| *n > 0)
}

/// What a walk has gathered: the nodes counted (by device and inode, so a
/// hard link counts once) and the lines printed so far.
struct Tally {
    seen: HashSet<(u64, u64)>,
    out: String,
}

/// The usage of `name` (and, printed into the tally, of what lies below it).
fn measure<'a>(
    ctx: &'a Invocation<'_>,
    settings: &'a Settings,
    name: &'a str,
    path: String,
    depth: usize,
    tally: &'a mut Tally,
    start_device: Option<u64>,
) -> LocalFuture<'a, Result<u64, ()>> {
    Box::pin(async move {
        let metadata = if settings.follow { ctx.fs.metadata(&path).await } else { ctx.fs.symlink_metadata(&path).await };
        let metadata = match metadata {
            Ok(metadata) => metadata,
            Err(error) => {
                ctx.report(&format!("cannot access {}: {error}", quote(name))).await;
                return Err(());
            }
        };
        if depth == 0 && settings.exclude.iter().any(|pattern| matches(pattern, name) || matches(pattern, super::basename::base_name(name)))
        {
            // An operand matching --exclude is skipped like any other file.
            return Ok(0);
        }
        if settings.one_file_system && start_device.is_some_and(|device| device != metadata.dev) {
            return Ok(0);
        }
        if !tally.seen.insert((metadata.dev, metadata.ino)) {
            return Ok(0);
        }
        let own = if settings.apparent { metadata.size } else { kib_blocks(&metadata) * 1024 };
        let shows = settings.max_depth.is_none_or(|max| depth <= max);
        if !metadata.is_dir() {
            if (settings.all && shows) || depth == 0 {
                tally.out.push_str(&format!("{}\t{name}{}", settings.size_text(own), settings.end));
            }
            return Ok(own);
        }
        let mut total = own;
        let mut failed = false;
        match ctx.fs.read_dir(&path).await {
            Ok(entries) => {
                for entry in entries {
                    if settings.exclude.iter().any(|pattern| matches(pattern, &entry.name)) {
                        continue;
                    }
                    let child_name = super::copy::join_name(name, &entry.name);
                    let child_path = crate::fs::path::join(&path, &entry.name);
                    let device = Some(start_device.unwrap_or(metadata.dev));
                    match measure(ctx, settings, &child_name, child_path, depth + 1, tally, device).await {
                        Ok(bytes) if settings.separate && entry.file_type == crate::fs::FileType::Directory => {
                            let _ = bytes;
                        }
                        Ok(bytes) => total += bytes,
                        Err(()) => failed = true,
                    }
                }
            }
            Err(error) => {
                ctx.report(&format!("cannot read directory {}: {error}", quote(name))).await;
                failed = true;
            }
        }
        if shows {
            tally.out.push_str(&format!("{}\t{name}{}", settings.size_text(total), settings.end));
        }
        if failed {
            return Err(());
        }
        Ok(total)
    })
}

#[cfg(test)]
mod tests {
    use crate::commands::file::fixtures::{run, tree};

    fn sample() -> crate::fs::MemoryFs {
        let fs = tree(&["a/", "a/b/", "a/small=hi\n", "a/b/big"]);
        crate::executor::block_on(crate::fs::Fs::write_file(&fs, "/home/user/a/b/big", &[b'x'; 5000])).unwrap();
        fs
    }

    #[test]
    fn usage() {
        let fs = sample();
        assert_eq!(run(&fs, &["du", "a"]).stdout, "12\ta/b\n20\ta\n");
        assert_eq!(run(&fs, &["du", "-s", "a"]).stdout, "20\ta\n");
        assert_eq!(run(&fs, &["du", "-a", "a"]).stdout, "8\ta/b/big\n12\ta/b\n4\ta/small\n20\ta\n");
        assert_eq!(run(&fs, &["du", "-h", "a"]).stdout, "12K\ta/b\n20K\ta\n");
        assert_eq!(run(&fs, &["du", "-sh", "a"]).stdout, "20K\ta\n");
        assert_eq!(run(&fs, &["du", "-c", "a", "a/b"]).stdout, "12\ta/b\n20\ta\n20\ttotal\n");
        assert_eq!(run(&fs, &["du", "-d", "0", "a"]).stdout, "20\ta\n");
        assert_eq!(run(&fs, &["du", "--max-depth=1", "a"]).stdout, "12\ta/b\n20\ta\n");
        assert_eq!(run(&fs, &["du", "--apparent-size", "a"]).stdout, "9\ta/b\n13\ta\n");
        assert_eq!(run(&fs, &["du", "-b", "a"]).stdout, "9096\ta/b\n13195\ta\n");
        assert_eq!(run(&fs, &["du", "-sm", "a"]).stdout, "1\ta\n");
        assert_eq!(run(&fs, &["du", "-a", "a/small"]).stdout, "4\ta/small\n");
        assert_eq!(run(&fs, &["du", "-shc", "a", "a"]).stdout, "20K\ta\n20K\ttotal\n");
        assert_eq!(run(&fs, &["du", "--apparent-size", "-h", "-s", "a"]).stdout, "13K\ta\n");
        let out = run(&fs, &["du", "nope"]);
        assert_eq!((out.stderr.as_str(), out.status), ("du: cannot access 'nope': No such file or directory\n", 1));
    }
}
