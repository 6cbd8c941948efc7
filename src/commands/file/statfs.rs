//! File system status: `stat -f` (GNU's layout, `-t` and `-c` with `%n %i
//! %l %t %T %s %S %b %f %a %c %d`) and the numbers `df` shows, both taken
//! from the sandbox filesystem's quotas ([`crate::fs::Fs::space`]).

use super::stat_format::{expand, unescape};
use crate::commands::format::{quote, Field};
use crate::commands::options::Parsed;
use crate::fs::{Fs, SpaceInfo};
use crate::utility::{write_failure_status, Invocation};

/// The block size the sandbox filesystem reports.
pub const BLOCK_SIZE: u64 = 4096;
/// The longest file name component (as Linux's).
const NAME_MAX: u64 = 255;
/// The type the sandbox filesystem reports: an in-memory one, as tmpfs.
const TYPE_NAME: &str = "tmpfs";
/// tmpfs's magic number (`%t`).
const TYPE_MAGIC: u64 = 0x0102_1994;

const DEFAULT: &str = "  File: \"%n\"\n    ID: %-8i Namelen: %-7l Type: %T\nBlock size: %-10s Fundamental block size: %S\nBlocks: Total: %-10b Free: %-10f Available: %a\nInodes: Total: %-10c Free: %d\n";
const TERSE: &str = "%n %i %l %t %s %S %b %f %a %c %d\n";

/// The capacity reported when a filesystem states no quota (1 GiB, 1M nodes).
const FALLBACK: SpaceInfo = SpaceInfo { total_bytes: 1 << 30, used_bytes: 0, total_nodes: 1 << 20, used_nodes: 0 };

/// The quota and use of the sandbox filesystem.
pub fn space_of(fs: &dyn Fs) -> SpaceInfo {
    let space = fs.space().unwrap_or(FALLBACK);
    SpaceInfo { total_bytes: space.total_bytes.max(space.used_bytes), total_nodes: space.total_nodes.max(space.used_nodes), ..space }
}

/// Total, free (= available) blocks and total, free nodes.
fn counts(space: &SpaceInfo) -> (u64, u64, u64, u64) {
    let total = space.total_bytes / BLOCK_SIZE;
    let used = space.used_bytes.div_ceil(BLOCK_SIZE);
    (total, total.saturating_sub(used), space.total_nodes, space.total_nodes.saturating_sub(space.used_nodes))
}

/// One `stat -f` conversion.
fn conversion(name: &str, dev: u64, space: &SpaceInfo, letter: char) -> Option<Field> {
    let (blocks, free, nodes, free_nodes) = counts(space);
    // GNU prints the block counts and free inodes as signed numbers.
    let number = |value: u64| Some(Field::Decimal(value));
    let signed = |value: u64| Some(Field::Signed(i64::try_from(value).unwrap_or(i64::MAX)));
    match letter {
        'n' => Some(Field::Text(name.to_string())),
        'i' => Some(Field::Hex(dev)),
        'l' => number(NAME_MAX),
        't' => Some(Field::Hex(TYPE_MAGIC)),
        'T' => Some(Field::Text(TYPE_NAME.to_string())),
        's' | 'S' => number(BLOCK_SIZE),
        'b' => signed(blocks),
        'f' | 'a' => signed(free),
        'c' => number(nodes),
        'd' => signed(free_nodes),
        _ => None,
    }
}

/// Runs `stat -f [-t] [-c FORMAT] FILE...` once `stat` has parsed its options.
pub async fn run_file_system(ctx: &Invocation<'_>, parsed: &Parsed) -> i32 {
    let format = match (parsed.value("c"), parsed.value("printf")) {
        (_, Some(printf)) => unescape(printf),
        (Some(format), None) => format!("{format}\n"),
        (None, None) if parsed.has("t") => TERSE.to_string(),
        (None, None) => DEFAULT.to_string(),
    };
    let space = space_of(ctx.fs.as_ref());
    let mut status = 0;
    let mut out = String::new();
    for name in &parsed.operands {
        match ctx.fs.metadata(&ctx.resolve(name)).await {
            Ok(metadata) => out.push_str(&expand(&format, &|letter, _, _| conversion(name, metadata.dev, &space, letter))),
            Err(error) => {
                ctx.report(&format!("cannot read file system information for {}: {error}", quote(name))).await;
                status = 1;
            }
        }
    }
    match ctx.write_out(out.as_bytes()).await {
        Ok(()) => status,
        Err(error) => write_failure_status(error),
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::file::fixtures::{run, tree};

    #[test]
    fn file_system_status_from_the_quota() {
        let fs = tree(&["f=abc"]);
        let out = run(&fs, &["stat", "-f", "-c", "%n %l %T %t %s %b %c", "f"]).stdout;
        assert_eq!(out, "f 255 tmpfs 1021994 4096 131072 350000\n");
        let out = run(&fs, &["stat", "-f", "."]).stdout;
        assert!(out.starts_with("  File: \".\"\n    ID: "), "{out}");
        assert!(out.contains("Namelen: 255     Type: tmpfs\nBlock size: 4096       Fundamental block size: 4096\nBlocks: Total: 131072"));
        let out = run(&fs, &["stat", "-f", "nope"]);
        assert_eq!(
            (out.stderr.as_str(), out.status),
            ("stat: cannot read file system information for 'nope': No such file or directory\n", 1)
        );
    }
}
