//! The lines `tar -v` prints: a member name, or with `tv` (or `-vv`) GNU
//! tar's long form `-rw-r--r-- user/user  6 2024-01-01 00:00 d/f.txt`.

use super::tar_format::{Entry, Kind};
use crate::calendar::civil;

/// `ls -l`-style permission text of a member.
pub fn mode_text(entry: &Entry) -> String {
    let kind = match entry.kind {
        Kind::Directory => 'd',
        Kind::Symlink(_) => 'l',
        Kind::CharDevice => 'c',
        Kind::Fifo => 'p',
        Kind::HardLink(_) | Kind::File => '-',
        Kind::Other(_) => '-',
    };
    let mut text = String::with_capacity(10);
    text.push(kind);
    let mode = entry.mode;
    for (shift, special, set_char) in [(6, 0o4000, 's'), (3, 0o2000, 's'), (0, 0o1000, 't')] {
        let bits = (mode >> shift) & 7;
        text.push(if bits & 4 != 0 { 'r' } else { '-' });
        text.push(if bits & 2 != 0 { 'w' } else { '-' });
        let exec = bits & 1 != 0;
        text.push(match (mode & special != 0, exec) {
            (true, true) => set_char,
            (true, false) => set_char.to_ascii_uppercase(),
            (false, true) => 'x',
            (false, false) => '-',
        });
    }
    text
}

/// The long listing line of a member. `width` is GNU tar's growing column
/// width for owner, group and size (starting at 19).
pub fn long_line(entry: &Entry, width: &mut usize, offset: i64, numeric: bool) -> String {
    let owner = if entry.uname.is_empty() || numeric { entry.uid.to_string() } else { entry.uname.clone() };
    let group = if entry.gname.is_empty() || numeric { entry.gid.to_string() } else { entry.gname.clone() };
    let size = match entry.kind {
        Kind::File => entry.size.to_string(),
        Kind::CharDevice => "0,0".to_string(),
        _ => "0".to_string(),
    };
    let used = owner.len() + 1 + group.len() + 1 + size.len();
    if used > *width {
        *width = used;
    }
    let pad = " ".repeat(*width - used + 1);
    let when = civil::from_timestamp(entry.mtime, 0, offset);
    let mut line = format!(
        "{} {owner}/{group}{pad}{size} {:04}-{:02}-{:02} {:02}:{:02} {}",
        mode_text(entry),
        when.year,
        when.month,
        when.day,
        when.hour,
        when.minute,
        entry.name
    );
    match &entry.kind {
        Kind::Symlink(target) => line.push_str(&format!(" -> {target}")),
        Kind::HardLink(target) => line.push_str(&format!(" link to {target}")),
        _ => {}
    }
    line.push('\n');
    line
}

/// The offset of the local time zone (`TZ`) listings are shown in.
pub fn local_offset(ctx: &crate::utility::Invocation<'_>) -> i64 {
    crate::calendar::parse_tz(ctx.env_var("TZ")).offset
}
