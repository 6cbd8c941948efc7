//! `ls`: list directory contents as GNU `ls` prints them to a pipe: one name
//! per line (or `-l` long format, `-m` commas, `-C`/`-x` columns), sorted
//! bytewise as under `LC_ALL=C`, with `-a -A -d -R -t -S -r -U -F -p -i -s
//! -h -L -u -c --full-time --time-style`.

mod columns;
mod entry;
mod long;

use crate::calendar::Zone;
use crate::commands::format::quote;
use crate::commands::options::{parse_or_report, report_invalid_argument, Long, Spec};
use crate::commands::users::Accounts;
use crate::fs::path::join;
use crate::host::LocalFuture;
use crate::utility::{write_failure_status, Invocation};
use entry::{load_entry, Entry};

const SPEC: Spec = Spec::new(
    "aAdRtSrUfFpiI:shlL1mCxnguocGHBNQqvw:T:",
    &[
        Long::flag("all", "a"),
        Long::flag("almost-all", "A"),
        Long::flag("directory", "d"),
        Long::flag("recursive", "R"),
        Long::flag("reverse", "r"),
        Long::flag("classify", "F"),
        Long::flag("human-readable", "h"),
        Long::flag("si", "si"),
        Long::flag("inode", "i"),
        Long::flag("size", "s"),
        Long::flag("dereference", "L"),
        Long::flag("numeric-uid-gid", "n"),
        Long::flag("no-group", "G"),
        Long::optional("color", "color"),
        Long::required("time-style", "time-style"),
        Long::flag("full-time", "full-time"),
        Long::required("sort", "sort"),
        Long::required("time", "time"),
        Long::flag("group-directories-first", "group-directories-first"),
        Long::required("ignore", "I"),
        Long::required("hide", "hide"),
        Long::flag("ignore-backups", "B"),
        Long::required("width", "w"),
        Long::optional("indicator-style", "indicator-style"),
        Long::required("quoting-style", "quoting-style"),
        Long::flag("literal", "N"),
        Long::flag("quote-name", "Q"),
        Long::required("block-size", "block-size"),
        Long::flag("escape", "b"),
        Long::flag("dereference-command-line", "H"),
    ],
);

/// How entries are ordered.
#[derive(Clone, Copy, PartialEq, Eq)]
enum SortKey {
    Name,
    Time,
    Size,
    Extension,
    Version,
    None,
}

/// How the listing is laid out.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Layout {
    OnePerLine,
    Long,
    Commas,
    /// `-C`: down columns.
    Columns,
    /// `-x`: across rows.
    Across,
}

/// Which timestamp `-l` shows and `-t` sorts by.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum TimeField {
    /// Modification time (default).
    Modify,
    /// Access time (`-u`).
    Access,
    /// Status change time (`-c`).
    Change,
}

/// Everything the command line decided.
pub struct Settings {
    all: bool,
    almost_all: bool,
    directory: bool,
    recursive: bool,
    reverse: bool,
    sort: SortKey,
    layout: Layout,
    /// `-F` (true) or `-p` (directories only) indicators.
    classify: Option<bool>,
    /// `-i`.
    pub inode: bool,
    /// `-s`.
    pub blocks: bool,
    /// `-h` / `--si` (base 1000 when true).
    pub human: Option<bool>,
    dereference: bool,
    /// `-n`.
    pub numeric: bool,
    /// `-g`: no owner column.
    pub no_owner: bool,
    /// `-o`/`-G`: no group column.
    pub no_group: bool,
    /// The time shown and sorted by.
    pub time_field: TimeField,
    /// The `--time-style` (`locale` when unset).
    pub time_style: String,
    ignore: Vec<String>,
    hide: Vec<String>,
    group_dirs: bool,
    /// `-Q`/`--quoting-style=c`: names in double quotes with C escapes.
    pub quote_names: bool,
    /// `--block-size=SIZE`: the unit of sizes and blocks, and the suffix
    /// shown after them (`M` for `--block-size=M`, none for `1M`).
    pub block_size: Option<(u64, String)>,
    /// The time zone for dates.
    pub zone: Zone,
    /// Now, for the six-month rule.
    pub now: f64,
    /// User and group names.
    pub accounts: Accounts,
    /// The line width for `-C`/`-x` (`-w`, `COLUMNS`, else 80).
    width: usize,
}

/// Runs `ls [OPTION]... [FILE]...`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let parsed = match parse_or_report(ctx, &SPEC, 2).await {
            Ok(parsed) => parsed,
            Err(status) => return status,
        };
        let mut settings = Settings {
            all: false,
            almost_all: false,
            directory: false,
            recursive: false,
            reverse: false,
            sort: SortKey::Name,
            layout: Layout::OnePerLine,
            classify: None,
            inode: false,
            blocks: false,
            human: None,
            dereference: false,
            numeric: false,
            no_owner: false,
            no_group: false,
            time_field: TimeField::Modify,
            time_style: "locale".into(),
            ignore: Vec::new(),
            hide: Vec::new(),
            group_dirs: false,
            quote_names: false,
            block_size: None,
            zone: crate::calendar::parse_tz(ctx.env_var("TZ")),
            now: ctx.host.now_millis(),
            accounts: Accounts::load(ctx.fs.as_ref()).await,
            width: ctx.env_var("COLUMNS").and_then(|c| c.parse().ok()).filter(|w| *w > 0).unwrap_or(80),
        };
        let mut sort_by_time_field = false;
        for (key, value) in &parsed.options {
            let value = value.clone().unwrap_or_default();
            match *key {
                "a" => (settings.all, settings.almost_all) = (true, false),
                "A" => (settings.almost_all, settings.all) = (true, false),
                "d" => settings.directory = true,
                "R" => settings.recursive = true,
                "r" => settings.reverse = true,
                "t" => settings.sort = SortKey::Time,
                "S" => settings.sort = SortKey::Size,
                "U" => settings.sort = SortKey::None,
                "f" => (settings.sort, settings.all) = (SortKey::None, true),
                "F" => settings.classify = Some(true),
                "Q" => settings.quote_names = true,
                "block-size" => match crate::commands::file::df::block_size(&value) {
                    Some(unit) => {
                        settings.block_size = Some((unit, block_suffix(&value)));
                        settings.human = None;
                    }
                    None => {
                        ctx.report(&format!("invalid --block-size argument {}", quote(&value))).await;
                        return 2;
                    }
                },
                "N" => settings.quote_names = false,
                "quoting-style" => settings.quote_names = value == "c",
                "p" => settings.classify = Some(false),
                "i" => settings.inode = true,
                "s" => settings.blocks = true,
                "h" => settings.human = Some(false),
                "si" => settings.human = Some(true),
                "l" => settings.layout = Layout::Long,
                "n" => (settings.numeric, settings.layout) = (true, Layout::Long),
                "g" => (settings.no_owner, settings.layout) = (true, Layout::Long),
                "o" => (settings.no_group, settings.layout) = (true, Layout::Long),
                "G" => settings.no_group = true,
                "1" => settings.layout = Layout::OnePerLine,
                "C" => settings.layout = Layout::Columns,
                "x" => settings.layout = Layout::Across,
                "w" => match value.parse::<usize>() {
                    Ok(width) => settings.width = if width == 0 { usize::MAX } else { width },
                    Err(_) => {
                        ctx.report(&format!("invalid line width: {}", crate::commands::format::quote_locale(ctx, &value))).await;
                        return 2;
                    }
                },
                "m" => settings.layout = Layout::Commas,
                "L" => settings.dereference = true,
                "u" => (settings.time_field, sort_by_time_field) = (TimeField::Access, true),
                "c" => (settings.time_field, sort_by_time_field) = (TimeField::Change, true),
                "I" => settings.ignore.push(value),
                "hide" => settings.hide.push(value),
                "B" => settings.ignore.extend(["*~".to_string(), ".*~".to_string()]),
                "group-directories-first" => settings.group_dirs = true,
                "full-time" => (settings.layout, settings.time_style) = (Layout::Long, "full-iso".into()),
                "time-style" => settings.time_style = value.strip_prefix("posix-").unwrap_or(&value).to_string(),
                "sort" => {
                    settings.sort = match value.as_str() {
                        "none" => SortKey::None,
                        "time" => SortKey::Time,
                        "size" => SortKey::Size,
                        "extension" => SortKey::Extension,
                        "version" => SortKey::Version,
                        "name" | "width" => SortKey::Name,
                        other => {
                            let groups: &[&[&str]] = &[&["none"], &["time"], &["size"], &["extension"], &["version"], &["width"]];
                            report_invalid_argument(ctx, other, "--sort", groups).await;
                            return 1;
                        }
                    }
                }
                "time" => {
                    settings.time_field = match value.as_str() {
                        "atime" | "access" | "use" => TimeField::Access,
                        "ctime" | "status" => TimeField::Change,
                        "mtime" | "modification" => TimeField::Modify,
                        other => {
                            let groups: &[&[&str]] =
                                &[&["atime", "access", "use"], &["ctime", "status"], &["mtime", "modification"], &["birth", "creation"]];
                            report_invalid_argument(ctx, other, "--time", groups).await;
                            return 1;
                        }
                    }
                }
                "indicator-style" => {
                    settings.classify = match value.as_str() {
                        "classify" => Some(true),
                        "slash" => Some(false),
                        _ => None,
                    }
                }
                "color" if !["", "never", "no", "none", "auto", "tty", "if-tty", "always", "yes", "force"].contains(&value.as_str()) => {
                    let groups: &[&[&str]] = &[&["always", "yes", "force"], &["never", "no", "none"], &["auto", "tty", "if-tty"]];
                    report_invalid_argument(ctx, &value, "--color", groups).await;
                    return 1;
                }
                _ => {}
            }
        }
        let style = settings.time_style.as_str();
        let valid_style = style.starts_with('+') || ["full-iso", "long-iso", "iso", "locale"].contains(&style);
        if settings.layout == Layout::Long && !valid_style {
            let q = |text: &str| crate::commands::format::quote_locale(ctx, text);
            let text = format!(
                "ls: invalid argument {} for {}\nValid arguments are:\n  - [posix-]full-iso\n  - [posix-]long-iso\n  - [posix-]iso\n  - [posix-]locale\n  - +FORMAT (e.g., +%H:%M) for a 'date'-style format\nTry 'ls --help' for more information.\n",
                q(style),
                q("time style")
            );
            let _ = ctx.stderr.write(text.as_bytes()).await;
            return 2;
        }
        // `-u`/`-c` sort by that time only without -l, as GNU does.
        if sort_by_time_field && settings.layout != Layout::Long && settings.sort == SortKey::Name {
            settings.sort = SortKey::Time;
        }
        list(ctx, &settings, &parsed.operands).await
    })
}

/// Lists the operands (`.` when none); returns the exit status.
async fn list(ctx: &Invocation<'_>, settings: &Settings, operands: &[String]) -> i32 {
    let defaulted = operands.is_empty();
    let names: Vec<String> = if defaulted { vec![".".to_string()] } else { operands.to_vec() };
    let mut status = 0;
    let mut files = Vec::new();
    let mut dirs = Vec::new();
    let follow_links = settings.dereference || !(settings.directory || settings.layout == Layout::Long || settings.classify == Some(true));
    for name in &names {
        let path = ctx.resolve(name);
        match load_entry(ctx, name, &path, settings.dereference, follow_links).await {
            Ok(entry) => {
                if entry.metadata.is_dir() && !settings.directory {
                    dirs.push(entry);
                } else {
                    files.push(entry);
                }
            }
            Err(error) => {
                ctx.report(&format!("cannot access {}: {error}", quote(name))).await;
                status = 2;
            }
        }
    }
    sort_entries(settings, &mut files);
    sort_entries(settings, &mut dirs);
    let mut out = String::new();
    if !files.is_empty() {
        render(settings, &files, false, &mut out);
    }
    let show_headers = settings.recursive || names.len() > 1;
    let mut first = files.is_empty();
    for dir in dirs {
        let code = list_directory(ctx, settings, &dir.name, &dir.path, show_headers, &mut first, &mut out).await;
        if code == crate::utility::STATUS_SIGPIPE {
            return code;
        }
        status = status.max(code);
        if out.len() > 64 * 1024 {
            if let Err(error) = ctx.write_out(out.as_bytes()).await {
                return write_failure_status(error);
            }
            out.clear();
        }
    }
    match ctx.write_out(out.as_bytes()).await {
        Ok(()) => status,
        Err(error) => write_failure_status(error),
    }
}

/// Lists one directory (and, with `-R`, those below it, depth first with an
/// explicit stack) into `out`, writing it out as it grows.
async fn list_directory(
    ctx: &Invocation<'_>,
    settings: &Settings,
    shown: &str,
    path: &str,
    header: bool,
    first: &mut bool,
    out: &mut String,
) -> i32 {
    let mut pending = vec![(shown.to_string(), path.to_string(), header)];
    let mut status = 0;
    while let Some((shown, path, header)) = pending.pop() {
        let (shown, path) = (shown.as_str(), path.as_str());
        let listing = match ctx.fs.read_dir(path).await {
            Ok(listing) => listing,
            Err(error) => {
                ctx.report(&format!("cannot open directory {}: {error}", quote(shown))).await;
                status = 2;
                continue;
            }
        };
        if header {
            if !*first {
                out.push('\n');
            }
            out.push_str(shown);
            out.push_str(":\n");
        }
        *first = false;
        let mut entries = Vec::new();
        let mut names: Vec<String> = Vec::new();
        if settings.all {
            names.push(".".into());
            names.push("..".into());
        }
        for item in listing {
            let hidden = item.name.starts_with('.');
            if hidden && !settings.all && !settings.almost_all {
                continue;
            }
            if settings.ignore.iter().any(|pattern| super::glob::matches(pattern, &item.name)) {
                continue;
            }
            if !settings.all && !settings.almost_all && settings.hide.iter().any(|p| super::glob::matches(p, &item.name)) {
                continue;
            }
            names.push(item.name);
        }
        for name in names {
            let child_path = join(path, &name);
            match load_entry(ctx, &name, &child_path, settings.dereference, settings.dereference).await {
                Ok(entry) => entries.push(entry),
                Err(error) => {
                    ctx.report(&format!("cannot access {}: {error}", quote(&join(shown, &name)))).await;
                    status = 1;
                }
            }
        }
        sort_entries(settings, &mut entries);
        render(settings, &entries, true, out);
        if settings.recursive {
            for entry in entries.iter().rev() {
                if entry.metadata.is_dir() && entry.name != "." && entry.name != ".." {
                    let child_shown =
                        if shown.ends_with('/') { format!("{shown}{}", entry.name) } else { format!("{shown}/{}", entry.name) };
                    pending.push((child_shown, entry.path.clone(), true));
                }
            }
        }
        if out.len() > 64 * 1024 {
            if let Err(error) = ctx.write_out(out.as_bytes()).await {
                return write_failure_status(error);
            }
            out.clear();
        }
    }
    status
}

/// Orders entries by the chosen key, then by name, then reversed with `-r`.
fn sort_entries(settings: &Settings, entries: &mut [Entry]) {
    let time = |entry: &Entry| entry::time_of(&entry.metadata, settings.time_field);
    match settings.sort {
        SortKey::None => {}
        SortKey::Name | SortKey::Version => entries.sort_by(|a, b| a.name.cmp(&b.name)),
        SortKey::Time => entries.sort_by(|a, b| time(b).total_cmp(&time(a)).then_with(|| a.name.cmp(&b.name))),
        SortKey::Size => entries.sort_by(|a, b| b.metadata.size.cmp(&a.metadata.size).then_with(|| a.name.cmp(&b.name))),
        SortKey::Extension => {
            let extension = |name: &str| name.rfind('.').filter(|&i| i > 0).map(|i| name[i..].to_string()).unwrap_or_default();
            entries.sort_by(|a, b| extension(&a.name).cmp(&extension(&b.name)).then_with(|| a.name.cmp(&b.name)));
        }
    }
    if settings.reverse && settings.sort != SortKey::None {
        entries.reverse();
    }
    if settings.group_dirs {
        entries.sort_by_key(|entry| !entry.is_dir_like());
    }
}

/// Appends the entries in the chosen layout; `total` adds `-l`/`-s`'s total line.
fn render(settings: &Settings, entries: &[Entry], total: bool, out: &mut String) {
    if total && (settings.layout == Layout::Long || settings.blocks) {
        let blocks: u64 = entries.iter().map(|e| crate::commands::format::kib_blocks(&e.metadata)).sum();
        out.push_str("total ");
        out.push_str(&long::size_text(settings, blocks * 1024, blocks));
        out.push('\n');
    }
    match settings.layout {
        Layout::Long => long::render_long(settings, entries, out),
        Layout::OnePerLine => {
            let widths = long::prefix_widths(settings, entries);
            for entry in entries {
                long::push_prefix(settings, entry, &widths, out);
                out.push_str(&shown_name(settings, &entry.name));
                out.push_str(indicator(settings, entry));
                out.push('\n');
            }
        }
        Layout::Columns | Layout::Across => {
            let names: Vec<String> =
                entries.iter().map(|e| format!("{}{}", shown_name(settings, &e.name), indicator(settings, e))).collect();
            columns::render_columns(&names, settings.width, settings.layout == Layout::Across, out);
        }
        Layout::Commas => {
            let parts: Vec<String> =
                entries.iter().map(|e| format!("{}{}", shown_name(settings, &e.name), indicator(settings, e))).collect();
            if !parts.is_empty() {
                out.push_str(&parts.join(", "));
                out.push('\n');
            }
        }
    }
}

/// The `ls -F` suffix of a node (`/`, `*`, `@`, `|`), also used by `tree -F`.
pub fn classify_suffix(file_type: crate::fs::FileType, mode: u32) -> &'static str {
    entry::indicator_of(file_type, mode, true)
}

/// The `-F`/`-p` suffix of an entry.
/// The suffix `--block-size` shows: none when the size starts with a digit,
/// else its unit (`K`, `M`; `kB` for `KB`).
fn block_suffix(text: &str) -> String {
    if text.starts_with(|c: char| c.is_ascii_digit()) {
        return String::new();
    }
    match text {
        "KB" | "kB" => "kB".to_string(),
        other => other.to_string(),
    }
}

/// A name as listed: as it is, or in C-style double quotes under `-Q`.
pub fn shown_name(settings: &Settings, name: &str) -> String {
    if !settings.quote_names {
        return name.to_string();
    }
    let mut text = String::from("\"");
    for c in name.chars() {
        match c {
            '"' => text.push_str("\\\""),
            '\\' => text.push_str("\\\\"),
            '\n' => text.push_str("\\n"),
            '\t' => text.push_str("\\t"),
            c if c.is_control() => text.push_str(&format!("\\{:03o}", c as u32)),
            c => text.push(c),
        }
    }
    text.push('"');
    text
}

fn indicator(settings: &Settings, entry: &Entry) -> &'static str {
    match settings.classify {
        None => "",
        Some(full) => entry::indicator_of(entry.metadata.file_type, entry.metadata.mode, full),
    }
}

#[cfg(test)]
mod tests;
