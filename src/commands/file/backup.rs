//! Backups of files about to be replaced, for `cp`, `mv`, `ln` and
//! `install` (`-b`, `--backup[=CONTROL]`, `-S SUFFIX`), named as GNU names
//! them: `file~` (simple), `file.~N~` (numbered), or numbered only when
//! numbered backups already exist (existing, the default).

use crate::commands::format::quote;
use crate::commands::options::{report_invalid_argument, Parsed};
use crate::fs::FsError;
use crate::utility::Invocation;

/// How backups are named (`--backup=CONTROL`, `VERSION_CONTROL`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Control {
    /// `simple`, `never`: `file~`.
    Simple,
    /// `numbered`, `t`: `file.~N~`.
    Numbered,
    /// `existing`, `nil`: numbered if any numbered backup exists, else simple.
    Existing,
}

/// The backup choice of one run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Backup {
    /// The naming control.
    pub control: Control,
    /// The simple backup suffix (`-S`, `SIMPLE_BACKUP_SUFFIX`, `~`).
    pub suffix: String,
}

const GROUPS: &[&[&str]] = &[&["none", "off"], &["simple", "never"], &["existing", "nil"], &["numbered", "t"]];

/// The control a spelling names; `Ok(None)` for `none`/`off`. GNU accepts
/// any unambiguous prefix.
fn control_named(text: &str) -> Result<Option<Control>, ()> {
    let names = [
        ("none", None),
        ("off", None),
        ("simple", Some(Control::Simple)),
        ("never", Some(Control::Simple)),
        ("existing", Some(Control::Existing)),
        ("nil", Some(Control::Existing)),
        ("numbered", Some(Control::Numbered)),
        ("t", Some(Control::Numbered)),
    ];
    if let Some((_, control)) = names.iter().find(|(name, _)| *name == text) {
        return Ok(*control);
    }
    let mut matches = names.iter().filter(|(name, _)| !text.is_empty() && name.starts_with(text)).map(|(_, control)| *control);
    let first = matches.next().ok_or(())?;
    if matches.all(|other| other == first) {
        Ok(first)
    } else {
        Err(())
    }
}

/// Reads `-b`, `--backup[=CONTROL]` (option key `b`) and `-S SUFFIX` (key
/// `S`) from `parsed`. `Ok(None)` when no backups are wanted; `Err(status)`
/// after reporting a bad control.
pub async fn from_options(ctx: &Invocation<'_>, parsed: &Parsed) -> Result<Option<Backup>, i32> {
    let mut wanted = false;
    let mut named: Option<String> = None;
    let mut suffix: Option<String> = None;
    for (key, value) in &parsed.options {
        match *key {
            "b" => {
                wanted = true;
                if value.is_some() {
                    named = value.clone();
                }
            }
            "S" => {
                wanted = true;
                suffix = value.clone();
            }
            _ => {}
        }
    }
    if !wanted {
        return Ok(None);
    }
    let (text, option) = match named {
        Some(text) => (text, "backup type"),
        None => match ctx.env_var("VERSION_CONTROL") {
            Some(text) if !text.is_empty() => (text.to_string(), "$VERSION_CONTROL"),
            _ => ("existing".to_string(), "backup type"),
        },
    };
    let control = match control_named(&text) {
        Ok(control) => control,
        Err(()) => {
            report_invalid_argument(ctx, &text, option, GROUPS).await;
            return Err(1);
        }
    };
    let suffix = suffix
        .or_else(|| ctx.env_var("SIMPLE_BACKUP_SUFFIX").filter(|s| !s.is_empty() && !s.contains('/')).map(str::to_string))
        .unwrap_or_else(|| "~".to_string());
    Ok(control.map(|control| Backup { control, suffix }))
}

/// The highest `N` of the `name.~N~` entries in `entries`.
fn highest_number<'a>(name: &str, entries: impl Iterator<Item = &'a str>) -> Option<u64> {
    entries
        .filter_map(|entry| entry.strip_prefix(name)?.strip_prefix(".~")?.strip_suffix('~')?.parse::<u64>().ok())
        .filter(|&n| n > 0)
        .max()
}

/// The backup name for `dest` (as typed) under `backup`, looking at the
/// numbered backups beside it.
pub async fn backup_name(ctx: &Invocation<'_>, backup: &Backup, dest: &str) -> String {
    let (dir, name) = match dest.rfind('/') {
        Some(slash) => (dest.get(..=slash).unwrap_or(""), dest.get(slash + 1..).unwrap_or("")),
        None => ("", dest),
    };
    let simple = format!("{dest}{}", backup.suffix);
    if backup.control == Control::Simple {
        return simple;
    }
    let listing = ctx.fs.read_dir(&ctx.resolve(if dir.is_empty() { "." } else { dir })).await.unwrap_or_default();
    match highest_number(name, listing.iter().map(|entry| entry.name.as_str())) {
        Some(n) => format!("{dest}.~{}~", n + 1),
        None if backup.control == Control::Numbered => format!("{dest}.~1~"),
        None => simple,
    }
}

/// Renames the existing `dest` to its backup name; returns that name.
/// Reports a failure in the tool's words.
pub async fn make_backup(ctx: &Invocation<'_>, backup: &Backup, dest: &str) -> Result<String, ()> {
    let name = backup_name(ctx, backup, dest).await;
    let (from, to) = (ctx.resolve(dest), ctx.resolve(&name));
    if let Err(error) = ctx.fs.rename(&from, &to).await {
        let error = if error == FsError::CrossDevice { FsError::PermissionDenied } else { error };
        ctx.report(&format!("cannot backup {}: {error}", quote(dest))).await;
        return Err(());
    }
    Ok(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_and_prefixes() {
        assert_eq!(control_named("t"), Ok(Some(Control::Numbered)));
        assert_eq!(control_named("num"), Ok(Some(Control::Numbered)));
        assert_eq!(control_named("off"), Ok(None));
        assert_eq!(control_named("n"), Err(()));
        assert_eq!(control_named("bogus"), Err(()));
    }

    #[test]
    fn numbers_follow_the_highest() {
        let entries = ["f.~1~", "f.~12~", "f.~x~", "g.~40~", "f~"];
        assert_eq!(highest_number("f", entries.iter().copied()), Some(12));
        assert_eq!(highest_number("h", entries.iter().copied()), None);
    }
}
