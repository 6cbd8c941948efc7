//! The `ls -l` long format: mode, links, owner, group, size, date and name
//! columns padded per listing as GNU pads them, and the `-i`/`-s` prefixes.

use super::entry::{indicator_of, time_of, Entry};
use super::Settings;
use crate::calendar::strftime;
use crate::commands::format::{human_size, kib_blocks, mode_string};
use crate::fs::FileType;

/// Half of GNU's average Gregorian year: older (or future) times show the year.
const SIX_MONTHS_MS: f64 = 15_778_476_000.0;

/// Column widths of the `-i` and `-s` prefixes.
pub struct PrefixWidths {
    inode: usize,
    blocks: usize,
}

/// A byte count or block count as `-s`/`total` print it (`-h` aware).
pub fn size_text(settings: &Settings, bytes: u64, kib: u64) -> String {
    match (settings.human, &settings.block_size) {
        (Some(si), _) => human_size(bytes, si),
        (None, Some((unit, suffix))) => format!("{}{suffix}", bytes.div_ceil(*unit)),
        (None, None) => kib.to_string(),
    }
}

fn blocks_text(settings: &Settings, entry: &Entry) -> String {
    let kib = kib_blocks(&entry.metadata);
    size_text(settings, kib * 1024, kib)
}

/// Widths of the inode and block columns over a listing.
pub fn prefix_widths(settings: &Settings, entries: &[Entry]) -> PrefixWidths {
    let inode = if settings.inode { entries.iter().map(|e| e.metadata.ino.to_string().len()).max().unwrap_or(0) } else { 0 };
    let blocks = if settings.blocks { entries.iter().map(|e| blocks_text(settings, e).len()).max().unwrap_or(0) } else { 0 };
    PrefixWidths { inode, blocks }
}

/// Appends the `-i` and `-s` columns of one entry.
pub fn push_prefix(settings: &Settings, entry: &Entry, widths: &PrefixWidths, out: &mut String) {
    if settings.inode {
        out.push_str(&format!("{:>w$} ", entry.metadata.ino, w = widths.inode));
    }
    if settings.blocks {
        out.push_str(&format!("{:>w$} ", blocks_text(settings, entry), w = widths.blocks));
    }
}

/// The device numbers of the sandbox's character devices, as Linux numbers them.
fn device_numbers(path: &str) -> (u32, u32) {
    match path.rsplit('/').next().unwrap_or("") {
        "null" => (1, 3),
        "zero" => (1, 5),
        "random" => (1, 8),
        "urandom" => (1, 9),
        _ => (0, 0),
    }
}

/// The date column in the chosen `--time-style`.
pub fn date_text(settings: &Settings, millis: f64) -> String {
    let recent = millis > settings.now - SIX_MONTHS_MS && millis <= settings.now + 1000.0;
    let format = match settings.time_style.as_str() {
        "full-iso" => "%Y-%m-%d %H:%M:%S.%N %z".to_string(),
        "long-iso" => "%Y-%m-%d %H:%M".to_string(),
        "iso" if recent => "%m-%d %H:%M".to_string(),
        "iso" => "%Y-%m-%d ".to_string(),
        custom if custom.starts_with('+') => {
            let body = &custom[1..];
            match body.split_once('\n') {
                Some((old, new)) => if recent { new } else { old }.to_string(),
                None => body.to_string(),
            }
        }
        _ if recent => "%b %e %H:%M".to_string(),
        _ => "%b %e  %Y".to_string(),
    };
    strftime(millis, &format, &settings.zone)
}

/// Appends the long-format lines of a listing.
pub fn render_long(settings: &Settings, entries: &[Entry], out: &mut String) {
    struct Row {
        mode: String,
        links: String,
        owner: String,
        group: String,
        size: String,
        date: String,
    }
    let rows: Vec<Row> = entries
        .iter()
        .map(|entry| {
            let m = &entry.metadata;
            let size = if m.file_type == FileType::CharDevice {
                let (major, minor) = device_numbers(&entry.path);
                format!("{major}, {minor}")
            } else {
                match (settings.human, &settings.block_size) {
                    (Some(si), _) => human_size(m.size, si),
                    (None, Some((unit, suffix))) => format!("{}{suffix}", m.size.div_ceil(*unit)),
                    (None, None) => m.size.to_string(),
                }
            };
            let (owner, group) = if settings.numeric {
                (m.uid.to_string(), m.gid.to_string())
            } else {
                (settings.accounts.users.name(m.uid), settings.accounts.groups.name(m.gid))
            };
            Row {
                mode: mode_string(m.file_type, m.mode),
                links: m.nlink.to_string(),
                owner,
                group,
                size,
                date: date_text(settings, time_of(m, settings.time_field)),
            }
        })
        .collect();
    let width = |f: &dyn Fn(&Row) -> usize| rows.iter().map(f).max().unwrap_or(0);
    let links_w = width(&|r| r.links.len());
    let owner_w = width(&|r| r.owner.len());
    let group_w = width(&|r| r.group.len());
    let size_w = width(&|r| r.size.len());
    let prefix = prefix_widths(settings, entries);
    for (entry, row) in entries.iter().zip(&rows) {
        push_prefix(settings, entry, &prefix, out);
        out.push_str(&format!("{} {:>links_w$} ", row.mode, row.links));
        if !settings.no_owner {
            out.push_str(&format!("{:<owner_w$} ", row.owner));
        }
        if !settings.no_group {
            out.push_str(&format!("{:<group_w$} ", row.group));
        }
        out.push_str(&format!("{:>size_w$} {} {}", row.size, row.date, super::shown_name(settings, &entry.name)));
        if let Some(target) = &entry.link_target {
            out.push_str(" -> ");
            out.push_str(&super::shown_name(settings, target));
            if let (Some(full), Some(meta)) = (settings.classify, &entry.target_metadata) {
                out.push_str(indicator_of(meta.file_type, meta.mode, full));
            }
        } else if let Some(full) = settings.classify {
            out.push_str(indicator_of(entry.metadata.file_type, entry.metadata.mode, full));
        }
        out.push('\n');
    }
}
