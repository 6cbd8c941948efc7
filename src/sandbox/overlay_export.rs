//! A copy-on-write mount's changes as a unified patch, for the host to
//! review or apply to the real directory with `patch -p1`.

use crate::commands::unified_file_diff;
use crate::fs::overlay::{ChangeKind, OverlayFs};
use crate::fs::{FileType, FsResult};

/// The patch from the overlay's lower layer to its merged view: one
/// `diff -u` section per created, modified or deleted regular file, headed
/// `diff -ruN a/PATH b/PATH` with `/dev/null` for the missing side, paths
/// relative to the overlay's root. Directories, modes and symlinks are
/// not part of a patch (symlinks are listed in a `Symlink ...` line).
pub async fn overlay_patch(overlay: &OverlayFs) -> FsResult<Vec<u8>> {
    let mut out = Vec::new();
    for change in overlay.changes().await? {
        let relative = change.path.trim_start_matches('/');
        let (old_label, new_label) = match change.kind {
            ChangeKind::Created => ("/dev/null".to_string(), format!("b/{relative}")),
            ChangeKind::Deleted => (format!("a/{relative}"), "/dev/null".to_string()),
            ChangeKind::Modified => (format!("a/{relative}"), format!("b/{relative}")),
        };
        match change.file_type {
            FileType::File => {
                let old = if change.kind == ChangeKind::Created { Vec::new() } else { overlay.original_contents(&change.path).await? };
                let new = if change.kind == ChangeKind::Deleted { Vec::new() } else { overlay.current_contents(&change.path).await? };
                let section = unified_file_diff(&old, &new, &old_label, &new_label);
                if !section.is_empty() {
                    out.extend_from_slice(format!("diff -ruN a/{relative} b/{relative}\n").as_bytes());
                    out.extend_from_slice(&section);
                }
            }
            FileType::Symlink => {
                let target = String::from_utf8_lossy(&overlay.current_contents(&change.path).await?).into_owned();
                let line = match change.kind {
                    ChangeKind::Deleted => format!("Symlink {relative} deleted\n"),
                    _ => format!("Symlink {relative} -> {target}\n"),
                };
                out.extend_from_slice(line.as_bytes());
            }
            _ => {}
        }
    }
    Ok(out)
}
