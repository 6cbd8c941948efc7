//! `df`: the sandbox filesystem's quota and use, in GNU's table (columns
//! sized to their contents): `-h`, `-H`, `-k`, `-B SIZE`, `-i`, `-T`, `-P`,
//! `--total` and `--output[=FIELD,...]`.

use super::statfs::space_of;
use crate::commands::format::human_size;
use crate::commands::options::{parse_or_report, report_usage, Long, Spec};
use crate::fs::SpaceInfo;
use crate::host::LocalFuture;
use crate::utility::{write_failure_status, Invocation};

const SPEC: Spec = Spec::new(
    "hHkiTaPlx:t:B:v",
    &[
        Long::flag("human-readable", "h"),
        Long::flag("si", "H"),
        Long::flag("inodes", "i"),
        Long::flag("print-type", "T"),
        Long::flag("all", "a"),
        Long::flag("portability", "P"),
        Long::flag("local", "l"),
        Long::required("block-size", "B"),
        Long::required("type", "t"),
        Long::required("exclude-type", "x"),
        Long::optional("output", "output"),
        Long::flag("total", "total"),
        Long::flag("sync", "sync"),
        Long::flag("no-sync", "no-sync"),
    ],
);

/// The name the sandbox filesystem goes by, and its type.
const SOURCE: &str = "wabash";
const FS_TYPE: &str = "tmpfs";

const FIELDS: &[&str] = &["source", "fstype", "itotal", "iused", "iavail", "ipcent", "size", "used", "avail", "pcent", "file", "target"];

/// How sizes are shown.
#[derive(Clone, Copy)]
enum Units {
    /// Whole blocks of this many bytes.
    Blocks(u64),
    /// `-h` (powers of 1024) or `-H` (powers of 1000).
    Human { si: bool },
}

/// Parses a `-B`/`--block-size` size (`1K`, `M`, `512`, `1MB`).
pub fn block_size(text: &str) -> Option<u64> {
    let digits: String = text.chars().take_while(char::is_ascii_digit).collect();
    let suffix = text.get(digits.len()..).unwrap_or("");
    let number: u64 = if digits.is_empty() { 1 } else { digits.parse().ok()? };
    let (letter, si) = match suffix.as_bytes() {
        [] => return (number > 0).then_some(number),
        [l] | [l, b'i', b'B'] => (*l, false),
        [l, b'B'] => (*l, true),
        _ => return None,
    };
    let power = "KMGTPE".find((letter as char).to_ascii_uppercase())? as u32 + 1;
    let base: u64 = if si { 1000 } else { 1024 };
    number.checked_mul(base.checked_pow(power)?).filter(|&n| n > 0)
}

/// The header of a size column for `units`.
fn size_header(units: Units, portable: bool) -> String {
    match units {
        Units::Human { .. } => "Size".to_string(),
        Units::Blocks(1024) if portable => "1024-blocks".to_string(),
        Units::Blocks(size) => {
            let mut text = size.to_string();
            for (unit, letter) in [(1u64 << 30, 'G'), (1 << 20, 'M'), (1 << 10, 'K')] {
                if size % unit == 0 {
                    text = format!("{}{letter}", size / unit);
                    break;
                }
            }
            format!("{text}-blocks")
        }
    }
}

fn percent(used: u64, available: u64) -> String {
    let total = used + available;
    if total == 0 {
        "-".to_string()
    } else {
        format!("{}%", (used * 100).div_ceil(total))
    }
}

/// One row's cells by field name.
fn cell(field: &str, space: &SpaceInfo, units: Units, file: &str, total_row: bool) -> String {
    let used_bytes = space.used_bytes.div_ceil(1024) * 1024;
    let available_bytes = space.total_bytes.saturating_sub(used_bytes);
    let show = |bytes: u64| match units {
        Units::Blocks(size) => bytes.div_ceil(size).to_string(),
        Units::Human { si } => human_size(bytes, si),
    };
    let free_nodes = space.total_nodes.saturating_sub(space.used_nodes);
    match field {
        "source" if total_row => "total".to_string(),
        "source" => SOURCE.to_string(),
        "fstype" if total_row => "-".to_string(),
        "fstype" => FS_TYPE.to_string(),
        "itotal" => space.total_nodes.to_string(),
        "iused" => space.used_nodes.to_string(),
        "iavail" => free_nodes.to_string(),
        "ipcent" => percent(space.used_nodes, free_nodes),
        "size" => show(space.total_bytes),
        "used" => show(used_bytes),
        "avail" => show(available_bytes),
        "pcent" => percent(used_bytes, available_bytes),
        "file" if total_row => "-".to_string(),
        "file" => file.to_string(),
        "target" if total_row => "-".to_string(),
        _ => "/".to_string(),
    }
}

fn header(field: &str, units: Units, portable: bool) -> String {
    match field {
        "source" => "Filesystem",
        "fstype" => "Type",
        "itotal" => "Inodes",
        "iused" => "IUsed",
        "iavail" => "IFree",
        "ipcent" => "IUse%",
        "size" => return size_header(units, portable),
        "used" => "Used",
        "avail" if matches!(units, Units::Human { .. }) => "Avail",
        "avail" => "Available",
        "pcent" if portable => "Capacity",
        "pcent" => "Use%",
        "file" => "File",
        _ => "Mounted on",
    }
    .to_string()
}

/// Lays out rows as GNU does: each column as wide as its widest cell (at
/// least 14 for the source, 5 for numbers), text left, numbers right.
fn table(fields: &[&str], rows: &[Vec<String>]) -> String {
    let minimum = |field: &str| match field {
        "source" => 14,
        "fstype" | "pcent" | "ipcent" | "file" => 4,
        "target" => 0,
        _ => 5,
    };
    let widths: Vec<usize> = fields
        .iter()
        .enumerate()
        .map(|(index, field)| {
            rows.iter().filter_map(|row| row.get(index)).map(|c| c.chars().count()).max().unwrap_or(0).max(minimum(field))
        })
        .collect();
    let mut out = String::new();
    for row in rows {
        let cells: Vec<String> = row
            .iter()
            .zip(fields.iter().zip(&widths))
            .enumerate()
            .map(|(index, (text, (field, &width)))| match *field {
                "source" | "fstype" | "file" | "target" if index + 1 == fields.len() => text.clone(),
                "source" | "fstype" | "file" | "target" => format!("{text:<width$}"),
                _ => format!("{text:>width$}"),
            })
            .collect();
        out.push_str(cells.join(" ").trim_end());
        out.push('\n');
    }
    out
}

/// Runs `df [OPTION]... [FILE]...`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let parsed = match parse_or_report(ctx, &SPEC, 1).await {
            Ok(parsed) => parsed,
            Err(status) => return status,
        };
        let mut units = Units::Blocks(1024);
        for (key, value) in &parsed.options {
            match *key {
                "h" => units = Units::Human { si: false },
                "H" => units = Units::Human { si: true },
                "k" => units = Units::Blocks(1024),
                "B" => match value.as_deref().and_then(block_size) {
                    Some(size) => units = Units::Blocks(size),
                    None => {
                        let text = value.clone().unwrap_or_default();
                        ctx.report(&format!("invalid --block-size argument {}", crate::commands::format::quote_locale(ctx, &text))).await;
                        return 1;
                    }
                },
                _ => {}
            }
        }
        let portable = parsed.has("P");
        let fields: Vec<&str> = match parsed.options.iter().rev().find(|(key, _)| *key == "output") {
            Some((_, list)) => {
                if let Some(option) = ["i", "T", "P"].iter().find(|key| parsed.has(key)) {
                    report_usage(ctx, &format!("options -{option} and --output are mutually exclusive")).await;
                    return 1;
                }
                let list = list.as_deref().unwrap_or("");
                if list.is_empty() {
                    FIELDS.to_vec()
                } else {
                    let mut chosen = Vec::new();
                    for name in list.split(',') {
                        let Some(field) = FIELDS.iter().find(|f| **f == name) else {
                            ctx.report(&format!("{}: unrecognized field", crate::commands::format::quote_locale(ctx, name))).await;
                            let _ = ctx.stderr.write(b"Try 'df --help' for more information.\n").await;
                            return 1;
                        };
                        if chosen.contains(field) {
                            ctx.report(&format!(
                                "option --output: field {} used more than once",
                                crate::commands::format::quote_locale(ctx, name)
                            ))
                            .await;
                            let _ = ctx.stderr.write(b"Try 'df --help' for more information.\n").await;
                            return 1;
                        }
                        chosen.push(*field);
                    }
                    chosen
                }
            }
            None => {
                let mut fields = vec!["source"];
                if parsed.has("T") {
                    fields.push("fstype");
                }
                if parsed.has("i") {
                    fields.extend(["itotal", "iused", "iavail", "ipcent"]);
                } else {
                    fields.extend(["size", "used", "avail", "pcent"]);
                }
                fields.push("target");
                fields
            }
        };
        let mut status = 0;
        let mut files = Vec::new();
        for name in &parsed.operands {
            match ctx.fs.metadata(&ctx.resolve(name)).await {
                Ok(_) => files.push(name.clone()),
                Err(error) => {
                    ctx.report(&format!("{name}: {error}")).await;
                    status = 1;
                }
            }
        }
        if !parsed.operands.is_empty() && files.is_empty() {
            return status;
        }
        let space = space_of(ctx.fs.as_ref());
        let mut rows = vec![fields.iter().map(|f| header(f, units, portable)).collect::<Vec<_>>()];
        let shown: Vec<String> = if files.is_empty() { vec!["-".to_string()] } else { files };
        for file in &shown {
            rows.push(fields.iter().map(|f| cell(f, &space, units, file, false)).collect());
        }
        if parsed.has("total") {
            rows.push(fields.iter().map(|f| cell(f, &space, units, "-", true)).collect());
        }
        match ctx.write_out(table(&fields, &rows).as_bytes()).await {
            Ok(()) => status,
            Err(error) => write_failure_status(error),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::block_size;
    use crate::commands::file::fixtures::{run, tree};

    #[test]
    fn block_sizes() {
        assert_eq!(block_size("1K"), Some(1024));
        assert_eq!(block_size("M"), Some(1 << 20));
        assert_eq!(block_size("1kB"), Some(1000));
        assert_eq!(block_size("512"), Some(512));
        assert_eq!(block_size("x"), None);
    }

    #[test]
    fn reports_the_quota() {
        let fs = tree(&["f=x"]);
        let out = run(&fs, &["df"]).stdout;
        assert!(out.starts_with("Filesystem     1K-blocks  Used Available Use% Mounted on\nwabash            524288 "), "{out}");
        assert!(run(&fs, &["df", "-h"]).stdout.starts_with("Filesystem      Size  Used Avail Use% Mounted on\nwabash          512M "));
        assert!(run(&fs, &["df", "-i"]).stdout.starts_with("Filesystem     Inodes IUsed  IFree IUse% Mounted on\nwabash         350000 "));
        assert_eq!(run(&fs, &["df", "--output=source,target", "f"]).stdout, "Filesystem     Mounted on\nwabash         /\n");
        let out = run(&fs, &["df", "nope"]);
        assert_eq!((out.stderr.as_str(), out.status), ("df: nope: No such file or directory\n", 1));
    }
}
