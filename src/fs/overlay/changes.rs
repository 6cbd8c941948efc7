//! What a copy-on-write overlay changed: every path whose node in the merged
//! view differs from the lower layer's original (created, modified or
//! deleted), and the files to export. The lower layer is never changed, so
//! this compares the merged view with it directly: only paths the upper
//! layer holds, and lower paths under a whiteout, can differ.

use super::{join, OverlayFs};
use crate::fs::{FileType, Fs, FsError, FsResult, Metadata};
use std::collections::BTreeMap;

/// How a path differs from the lower layer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangeKind {
    /// The lower layer has no node there.
    Created,
    /// Both have one, with other contents, kind, link target or mode.
    Modified,
    /// The lower layer has one and the merged view has none.
    Deleted,
}

/// One changed path of an overlay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OverlayChange {
    /// The canonical path within the overlay.
    pub path: String,
    /// How it changed.
    pub kind: ChangeKind,
    /// The node's kind now (for a deleted path, the kind it had).
    pub file_type: FileType,
}

impl OverlayFs {
    /// Every path whose node differs from the lower layer's, sorted by path.
    /// Changes of times alone do not count (a `touch` is not a change to export).
    pub async fn changes(&self) -> FsResult<Vec<OverlayChange>> {
        let mut found: BTreeMap<String, OverlayChange> = BTreeMap::new();
        let mut pending = vec!["/".to_string()];
        while let Some(dir) = pending.pop() {
            for entry in self.upper_root.read_dir(&dir).await? {
                let path = join(&dir, &entry.name);
                let upper = self.upper_root.symlink_metadata(&path).await?;
                if upper.is_dir() {
                    pending.push(path.clone());
                }
                let kind = match self.original(&path).await? {
                    None => Some(ChangeKind::Created),
                    Some(lower) => self.differs(&path, &upper, &lower).await?.then_some(ChangeKind::Modified),
                };
                if let Some(kind) = kind {
                    found.insert(path.clone(), OverlayChange { path, kind, file_type: upper.file_type });
                }
            }
        }
        for whiteout in self.whiteouts() {
            let mut pending = vec![whiteout];
            while let Some(path) = pending.pop() {
                let Some(lower) = self.original(&path).await? else { continue };
                if lower.is_dir() {
                    for entry in self.lower.read_dir(&path).await? {
                        pending.push(join(&path, &entry.name));
                    }
                }
                if !found.contains_key(&path) && self.upper_root.symlink_metadata(&path).await.is_err() {
                    found.insert(path.clone(), OverlayChange { path, kind: ChangeKind::Deleted, file_type: lower.file_type });
                }
            }
        }
        Ok(found.into_values().collect())
    }

    /// The lower layer's node at `path` as it was, whiteouts or not.
    async fn original(&self, path: &str) -> FsResult<Option<Metadata>> {
        match self.lower.symlink_metadata(path).await {
            Ok(meta) => Ok(Some(meta)),
            Err(FsError::NotFound | FsError::NotADirectory) => Ok(None),
            Err(error) => Err(error),
        }
    }

    /// True when the upper node at `path` differs from the lower one.
    async fn differs(&self, path: &str, upper: &Metadata, lower: &Metadata) -> FsResult<bool> {
        if upper.file_type != lower.file_type || upper.mode != lower.mode {
            return Ok(true);
        }
        match upper.file_type {
            FileType::File => {
                if upper.size != lower.size {
                    return Ok(true);
                }
                Ok(self.upper_root.read_file(path).await? != self.lower.read_file(path).await?)
            }
            FileType::Symlink => Ok(self.upper_root.read_link(path).await? != self.lower.read_link(path).await?),
            _ => Ok(false),
        }
    }

    /// The contents of `path` in the lower layer as it was (empty when it had none).
    pub async fn original_contents(&self, path: &str) -> FsResult<Vec<u8>> {
        match self.original(path).await? {
            Some(meta) if meta.is_file() => self.lower.read_file(path).await,
            Some(meta) if meta.is_symlink() => Ok(self.lower.read_link(path).await?.into_bytes()),
            _ => Ok(Vec::new()),
        }
    }

    /// The contents of `path` in the merged view (a symlink's target as
    /// bytes; empty for a missing path or a directory).
    pub async fn current_contents(&self, path: &str) -> FsResult<Vec<u8>> {
        match self.upper_root.symlink_metadata(path).await {
            Ok(meta) if meta.is_file() => self.upper_root.read_file(path).await,
            Ok(meta) if meta.is_symlink() => Ok(self.upper_root.read_link(path).await?.into_bytes()),
            _ => Ok(Vec::new()),
        }
    }
}
