//! Which file a section of a patch changes: the names of its headers with
//! `-p N` leading components stripped (or all directories without `-p`),
//! the existing one with the fewest components, shortest base name and
//! shortest name, as GNU patch picks; and whether a side of the patch says
//! the file does not exist (`/dev/null`, or a timestamp at the epoch).

use super::parse::FilePatch;
use super::Run;

/// The file a section patches.
pub enum Target {
    /// An existing file.
    Found(String),
    /// A file the patch creates.
    Create(String),
    /// No file to patch.
    Missing,
}

/// `name` with `strip` leading components removed; `None` when it has
/// fewer. Without `-p`, only the base name is kept.
pub fn strip_name(name: &str, strip: Option<usize>) -> Option<String> {
    let Some(count) = strip else {
        let base = name.rsplit('/').next().unwrap_or(name);
        return (!base.is_empty()).then(|| base.to_string());
    };
    let mut rest = name;
    for _ in 0..count {
        let slash = rest.find('/')?;
        rest = rest.get(slash..).unwrap_or("").trim_start_matches('/');
    }
    (!rest.is_empty()).then(|| rest.to_string())
}

/// True when side `side` (0 old, 1 new, after `reverse`) of the section
/// says the file does not exist.
pub fn says_nonexistent(file: &FilePatch, reverse: bool, side: usize) -> bool {
    let side = if reverse { 1 - side } else { side };
    let name = file.names.get(side).and_then(|n| n.as_deref());
    if name == Some("/dev/null") {
        return true;
    }
    let time = file.times.get(side).map(String::as_str).unwrap_or("");
    is_epoch(time.trim())
}

/// True when `text` (`1970-01-01 00:00:00.000000000 +0000`) is the epoch.
fn is_epoch(text: &str) -> bool {
    let mut parts = text.split_whitespace();
    let (Some(date), Some(time)) = (parts.next(), parts.next()) else { return false };
    let zone = parts.next().unwrap_or("+0000");
    let numbers = |text: &str, separator: char| -> Option<Vec<i64>> { text.split(separator).map(|p| p.parse::<i64>().ok()).collect() };
    let Some(day) = numbers(date, '-') else { return false };
    let (clock, fraction) = time.split_once('.').unwrap_or((time, "0"));
    let Some(clock) = numbers(clock, ':') else { return false };
    if fraction.trim_end_matches('0').chars().any(|c| c != '0') || day.len() != 3 || clock.len() != 3 {
        return false;
    }
    let sign = if zone.starts_with('-') { -1 } else { 1 };
    let digits = zone.trim_start_matches(['+', '-']);
    let Ok(zone_number) = digits.parse::<i64>() else { return false };
    let offset = sign * (zone_number / 100 * 3600 + zone_number % 100 * 60);
    let (month, day_of_month) = (day[1] as u32, day[2] as u32);
    let seconds =
        crate::calendar::civil::to_timestamp(day[0], month, day_of_month, clock[0] as u32, clock[1] as u32, clock[2] as u32, offset);
    seconds == 0
}

/// Decides which file `file` patches.
pub async fn choose_target(run: &Run<'_, '_>, file: &FilePatch, reverse: bool) -> Target {
    if let Some(target) = run.settings.target.clone() {
        return Target::Found(target);
    }
    let candidates: Vec<String> = file
        .names
        .iter()
        .flatten()
        .filter(|name| name.as_str() != "/dev/null")
        .filter_map(|name| strip_name(name, run.settings.strip))
        .collect();
    let mut best: Option<&String> = None;
    for name in &candidates {
        let exists = matches!(run.ctx.fs.metadata(&run.path(name)).await, Ok(meta) if !meta.is_dir());
        if !exists {
            continue;
        }
        let key = |n: &String| (n.matches('/').count(), n.rsplit('/').next().map_or(0, str::len), n.len());
        if best.is_none_or(|current| key(name) < key(current)) {
            best = Some(name);
        }
    }
    if let Some(name) = best {
        return Target::Found(name.clone());
    }
    if says_nonexistent(file, reverse, 0) {
        let sides = if reverse { [0usize, 1] } else { [1, 0] };
        for side in sides {
            let name = file.names.get(side).and_then(|n| n.as_deref()).filter(|n| *n != "/dev/null");
            if let Some(stripped) = name.and_then(|n| strip_name(n, run.settings.strip)) {
                return Target::Create(stripped);
            }
        }
    }
    Target::Missing
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stripping_and_epochs() {
        assert_eq!(strip_name("a/b/c", Some(1)).as_deref(), Some("b/c"));
        assert_eq!(strip_name("a//b", Some(1)).as_deref(), Some("b"));
        assert_eq!(strip_name("/x/y", Some(1)).as_deref(), Some("x/y"));
        assert_eq!(strip_name("a", Some(1)), None);
        assert_eq!(strip_name("s/d/f", None).as_deref(), Some("f"));
        assert!(is_epoch("1970-01-01 00:00:00.000000000 +0000"));
        assert!(is_epoch("1969-12-31 19:00:00.000000000 -0500"));
        assert!(!is_epoch("2024-01-01 00:00:00.000000000 +0000"));
    }
}
