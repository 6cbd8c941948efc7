//! `stat`: show file status in GNU's default layout, `-t` terse form, or a
//! `-c`/`--format`/`--printf` format (`%n %N %s %b %B %o %a %A %f %F %u %U
//! %g %G %i %h %d %D %x %X %y %Y %z %Z %w %W %m %t %T %%`), with `-L`;
//! `-f` (file system status) is in [`super::statfs`].

use super::stat_format::{expand, unescape};
use crate::calendar::{strftime, Zone};
use crate::commands::format::{kib_blocks, mode_string, quote, Field};
use crate::commands::options::{parse_or_report, report_usage, Long, Spec};
use crate::commands::users::Accounts;
use crate::fs::{FileType, Metadata};
use crate::host::LocalFuture;
use crate::utility::{write_failure_status, Invocation};

const SPEC: Spec = Spec::new(
    "Lc:ft",
    &[
        Long::flag("dereference", "L"),
        Long::required("format", "c"),
        Long::required("printf", "printf"),
        Long::flag("file-system", "f"),
        Long::flag("terse", "t"),
        Long::optional("cached", "cached"),
    ],
);

const DEFAULT: &str = "  File: %N\n  Size: %-10s\tBlocks: %-10b IO Block: %-6o %F\nDevice: %Hd,%Ld\tInode: %-11i Links: %h\nAccess: (%04a/%10.10A)  Uid: (%5u/%8U)   Gid: (%5g/%8G)\nAccess: %x\nModify: %y\nChange: %z\n Birth: %w\n";
const TERSE: &str = "%n %s %b %f %u %g %D %i %h %t %T %X %Y %Z %W %o\n";

/// What a format is applied to.
struct Subject<'a> {
    name: &'a str,
    metadata: &'a Metadata,
    link_target: Option<String>,
    accounts: &'a Accounts,
    zone: &'a Zone,
    default_layout: bool,
}

/// The `%F` name of a file type.
pub fn type_name(metadata: &Metadata) -> &'static str {
    match metadata.file_type {
        FileType::File if metadata.size == 0 => "regular empty file",
        FileType::File => "regular file",
        FileType::Directory => "directory",
        FileType::Symlink => "symbolic link",
        FileType::CharDevice => "character special file",
        FileType::Fifo => "fifo",
    }
}

fn type_bits(file_type: FileType) -> u32 {
    match file_type {
        FileType::File => 0o100000,
        FileType::Directory => 0o040000,
        FileType::Symlink => 0o120000,
        FileType::CharDevice => 0o020000,
        FileType::Fifo => 0o010000,
    }
}

/// Seconds since the epoch with `precision` fractional digits (`%.3Y`).
fn epoch_text(millis: f64, precision: Option<usize>) -> String {
    let seconds = (millis / 1000.0).floor();
    match precision {
        None | Some(0) => format!("{}", seconds as i64),
        Some(digits) => {
            let nanos = ((millis - seconds * 1000.0) * 1_000_000.0).round() as u64;
            let fraction = format!("{nanos:09}");
            format!("{}.{}", seconds as i64, fraction.get(..digits.min(9)).unwrap_or(""))
        }
    }
}

/// Expands one conversion; `None` for an unknown letter.
fn conversion(subject: &Subject<'_>, letter: char, precision: Option<usize>, modifier: Option<char>) -> Option<Field> {
    let m = subject.metadata;
    let full_time = |millis: f64| strftime(millis, "%Y-%m-%d %H:%M:%S.%N %z", subject.zone);
    let numeric = Field::Decimal;
    Some(match letter {
        'n' => Field::Text(subject.name.to_string()),
        'N' => {
            let name = if subject.default_layout { subject.name.to_string() } else { quote(subject.name) };
            match &subject.link_target {
                Some(target) if subject.default_layout => Field::Text(format!("{name} -> {target}")),
                Some(target) => Field::Text(format!("{name} -> {}", quote(target))),
                None => Field::Text(name),
            }
        }
        's' => Field::Signed(i64::try_from(m.size).unwrap_or(i64::MAX)),
        'b' => numeric(kib_blocks(m) * 2),
        'B' => numeric(512),
        'o' => numeric(4096),
        'a' => Field::Octal(u64::from(m.mode & 0o7777)),
        'A' => Field::Text(mode_string(m.file_type, m.mode)),
        'f' => Field::Hex(u64::from(type_bits(m.file_type) | m.mode)),
        'F' => Field::Text(type_name(m).to_string()),
        'u' => numeric(u64::from(m.uid)),
        'U' => Field::Text(subject.accounts.users.name(m.uid)),
        'g' => numeric(u64::from(m.gid)),
        'G' => Field::Text(subject.accounts.groups.name(m.gid)),
        'i' => numeric(m.ino),
        'h' => numeric(m.nlink),
        'd' if modifier == Some('H') => numeric(m.dev >> 8),
        'd' if modifier == Some('L') => numeric(m.dev & 0xff),
        'd' => numeric(m.dev),
        'D' => Field::Hex(m.dev),
        't' | 'T' => Field::Hex(0),
        'x' => Field::Text(full_time(m.atime)),
        'y' => Field::Text(full_time(m.mtime)),
        'z' => Field::Text(full_time(m.ctime)),
        'w' => Field::Text("-".to_string()),
        'X' => Field::Text(epoch_text(m.atime, precision)),
        'Y' => Field::Text(epoch_text(m.mtime, precision)),
        'Z' => Field::Text(epoch_text(m.ctime, precision)),
        'W' => Field::Text("0".to_string()),
        'm' => Field::Text("/".to_string()),
        'C' => Field::Text("?".to_string()),
        _ => return None,
    })
}

/// Runs `stat [OPTION]... FILE...`.
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
        if parsed.has("f") {
            return super::statfs::run_file_system(ctx, &parsed).await;
        }
        let (format, default_layout) = match (parsed.value("c"), parsed.value("printf")) {
            (_, Some(printf)) => (unescape(printf), false),
            (Some(format), None) => (format!("{format}\n"), false),
            (None, None) if parsed.has("t") => (TERSE.to_string(), false),
            (None, None) => (DEFAULT.to_string(), true),
        };
        let accounts = Accounts::load(ctx.fs.as_ref()).await;
        let zone = crate::calendar::parse_tz(ctx.env_var("TZ"));
        let dereference = parsed.has("L");
        let mut status = 0;
        let mut out = String::new();
        for name in &parsed.operands {
            let path = ctx.resolve(name);
            let result = if dereference { ctx.fs.metadata(&path).await } else { ctx.fs.symlink_metadata(&path).await };
            let metadata = match result {
                Ok(metadata) => metadata,
                Err(error) => {
                    ctx.report(&format!("cannot statx {}: {error}", quote(name))).await;
                    status = 1;
                    continue;
                }
            };
            let link_target = if metadata.is_symlink() { ctx.fs.read_link(&path).await.ok() } else { None };
            let subject = Subject { name, metadata: &metadata, link_target, accounts: &accounts, zone: &zone, default_layout };
            out.push_str(&expand(&format, &|letter, precision, modifier| conversion(&subject, letter, precision, modifier)));
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

    #[test]
    fn formats() {
        let fs = tree(&["f=hi\n", "l -> f", "d/", "e"]);
        assert_eq!(run(&fs, &["stat", "-c", "%n %s", "f", "d"]).stdout, "f 3\nd 4096\n");
        assert_eq!(run(&fs, &["stat", "--format=%n\\n", "f"]).stdout, "f\\n\n");
        assert_eq!(run(&fs, &["stat", "--printf=%n\\n", "f"]).stdout, "f\n");
        assert_eq!(run(&fs, &["stat", "-c", "%%|%a|%A|%F|%U|%G|%h", "f"]).stdout, "%|644|-rw-r--r--|regular file|user|user|1\n");
        assert_eq!(run(&fs, &["stat", "-c", "%04a %f %F", "d"]).stdout, "0755 41ed directory\n");
        assert_eq!(run(&fs, &["stat", "-c", "%F", "e"]).stdout, "regular empty file\n");
        assert_eq!(run(&fs, &["stat", "-c", "%N|%F", "l"]).stdout, "'l' -> 'f'|symbolic link\n");
        assert_eq!(run(&fs, &["stat", "-L", "-c", "%F", "l"]).stdout, "regular file\n");
        assert_eq!(run(&fs, &["stat", "-c", "%y|%Y|%.3Y", "f"]).stdout, "2024-01-01 00:00:00.000000000 +0000|1704067200|1704067200.000\n");
        assert_eq!(run(&fs, &["stat", "-c", "%10s|%-5n|", "f"]).stdout, "         3|f    |\n");
        assert_eq!(run(&fs, &["stat", "-c", "%b %B %o", "f"]).stdout, "8 512 4096\n");
        let out = run(&fs, &["stat", "nope"]);
        assert_eq!((out.stderr.as_str(), out.status), ("stat: cannot statx 'nope': No such file or directory\n", 1));
    }

    #[test]
    fn default_layout() {
        let fs = tree(&["f=hi\n"]);
        let out = run(&fs, &["stat", "f"]).stdout;
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.first().copied(), Some("  File: f"));
        assert_eq!(lines.get(1).copied(), Some("  Size: 3         \tBlocks: 8          IO Block: 4096   regular file"));
        assert!(lines.get(2).is_some_and(|l| l.starts_with("Device: 0,42\tInode: ") && l.ends_with(" Links: 1")));
        assert_eq!(lines.get(3).copied(), Some("Access: (0644/-rw-r--r--)  Uid: ( 1000/    user)   Gid: ( 1000/    user)"));
        assert_eq!(lines.get(5).copied(), Some("Modify: 2024-01-01 00:00:00.000000000 +0000"));
        assert_eq!(lines.get(7).copied(), Some(" Birth: -"));
    }
}
