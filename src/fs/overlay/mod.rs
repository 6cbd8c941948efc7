//! A copy-on-write overlay: an in-memory upper layer over any lower
//! filesystem, as Linux's overlayfs. Reads see the upper layer where it has
//! a name and the lower one elsewhere; directories present in both are
//! merged. Every change lands in the upper layer: a lower file is copied up
//! before it is written or its attributes change, and a deleted lower name
//! is hidden by a whiteout (which also hides everything below it, so a
//! directory removed and made again starts empty). Renaming a directory that
//! comes from the lower layer fails with EXDEV, as overlayfs does without
//! `redirect_dir`; `mv` then copies. [`OverlayFs::changes`] lists what
//! differs from the lower layer, for export.

mod changes;
mod ops;

pub use changes::{ChangeKind, OverlayChange};

use super::perm::{Access, Credentials};
use super::walk::{resolve, RawTree, Resolved};
use super::{FileType, Fs, FsError, FsResult, MemoryFs, Metadata, OpenOptions};
use async_trait::async_trait;
use std::cell::RefCell;
use std::collections::BTreeSet;
use std::rc::Rc;

/// The device number the overlay reports for every node.
const OVERLAY_DEVICE: u64 = 0x2b;
/// Added to lower-layer inode numbers so they never equal upper ones.
const LOWER_INODE_BIT: u64 = 1 << 48;

/// Which layer a merged name comes from, with its metadata.
#[derive(Debug, Clone)]
enum Layer {
    Upper(Metadata),
    Lower(Metadata),
}

impl Layer {
    fn meta(&self) -> &Metadata {
        match self {
            Layer::Upper(meta) | Layer::Lower(meta) => meta,
        }
    }
}

/// An in-memory upper layer over a lower filesystem.
pub struct OverlayFs {
    /// The upper layer as the sandbox user.
    upper: MemoryFs,
    /// The upper layer as root, for copy-up and checked changes.
    upper_root: MemoryFs,
    lower: Rc<dyn Fs>,
    /// Lower paths hidden by deletes, each with everything below it.
    whiteouts: RefCell<BTreeSet<String>>,
    user: Credentials,
    max_depth: usize,
    /// Whether `/` of the upper layer has taken the lower root's attributes.
    root_synced: std::cell::Cell<bool>,
}

impl OverlayFs {
    /// An overlay of `upper` (whose view's user the overlay runs as) on `lower`.
    pub fn new(upper: MemoryFs, lower: Rc<dyn Fs>) -> Self {
        let user = upper.credentials();
        let upper_root = upper.with_credentials(Credentials::ROOT);
        let max_depth = upper.limits().max_depth;
        OverlayFs {
            upper,
            upper_root,
            lower,
            whiteouts: RefCell::new(BTreeSet::new()),
            user,
            max_depth,
            root_synced: std::cell::Cell::new(false),
        }
    }

    /// The upper layer (what the sandbox changed).
    pub fn upper(&self) -> &MemoryFs {
        &self.upper
    }

    /// The whiteouts: lower paths deleted in the overlay, sorted.
    pub fn whiteouts(&self) -> Vec<String> {
        self.whiteouts.borrow().iter().cloned().collect()
    }

    /// Replaces the whiteouts (with [`OverlayFs::whiteouts`] and a snapshot
    /// of [`OverlayFs::upper`], this saves and restores a whole overlay).
    pub fn set_whiteouts(&self, paths: impl IntoIterator<Item = String>) {
        *self.whiteouts.borrow_mut() = paths.into_iter().collect();
    }

    /// True when the lower layer's `path` shows through (no whiteout on it
    /// or any directory above it).
    fn lower_visible(&self, path: &str) -> bool {
        let whiteouts = self.whiteouts.borrow();
        if whiteouts.is_empty() {
            return true;
        }
        let mut at = path;
        loop {
            if whiteouts.contains(at) {
                return false;
            }
            match at.rfind('/') {
                Some(0) | None => return true,
                Some(index) => at = at.get(..index).unwrap_or("/"),
            }
        }
    }

    fn whiteout(&self, path: &str) {
        self.whiteouts.borrow_mut().insert(path.to_string());
    }

    /// The merged node at canonical `path`.
    async fn find(&self, path: &str) -> FsResult<Layer> {
        match self.upper_root.symlink_metadata(path).await {
            Ok(mut meta) => {
                meta.dev = OVERLAY_DEVICE;
                Ok(Layer::Upper(meta))
            }
            Err(FsError::NotFound | FsError::NotADirectory) => match self.lower_meta(path).await {
                Some(meta) => Ok(Layer::Lower(meta)),
                None => Err(FsError::NotFound),
            },
            Err(error) => Err(error),
        }
    }

    /// The lower layer's node at `path`, if it shows through.
    async fn lower_meta(&self, path: &str) -> Option<Metadata> {
        if !self.lower_visible(path) {
            return None;
        }
        let mut meta = self.lower.symlink_metadata(path).await.ok()?;
        meta.dev = OVERLAY_DEVICE;
        meta.ino |= LOWER_INODE_BIT;
        Some(meta)
    }

    async fn walk(&self, path: &str, follow_last: bool) -> FsResult<Resolved> {
        if !self.root_synced.get() {
            // The merged `/` is the upper one: give it the lower root's
            // owner, mode and times once, before the first lookup.
            self.root_synced.set(true);
            if let Ok(meta) = self.lower.symlink_metadata("/").await {
                self.copy_attributes("/", &meta).await?;
            }
        }
        resolve(self, path, follow_last, self.user, self.max_depth).await
    }

    /// Checks that the user may add or remove names in directory `dir`.
    async fn check_dir_write(&self, dir: &str) -> FsResult<Metadata> {
        let meta = self.find(dir).await?.meta().clone();
        if !self.user.allows_meta(Access::WRITE | Access::EXECUTE, &meta) {
            return Err(FsError::PermissionDenied);
        }
        Ok(meta)
    }

    /// Checks that the user may remove the entry `entry` of directory `dir`.
    async fn check_remove(&self, dir: &str, entry: &Metadata) -> FsResult<()> {
        let dir_meta = self.check_dir_write(dir).await?;
        if self.user.may_unlink_in(dir_meta.mode, dir_meta.uid, entry.uid) {
            Ok(())
        } else {
            Err(FsError::NotPermitted)
        }
    }

    /// Makes every directory of `dir` (a merged directory) exist in the
    /// upper layer, with the lower layer's attributes.
    async fn ensure_upper_dirs(&self, dir: &str) -> FsResult<()> {
        if dir == "/" {
            return Ok(());
        }
        let mut end = 0;
        while end < dir.len() {
            end = dir.get(end + 1..).and_then(|rest| rest.find('/')).map_or(dir.len(), |i| end + 1 + i);
            let prefix = dir.get(..end).unwrap_or(dir);
            if self.upper_root.symlink_metadata(prefix).await.is_ok() {
                continue;
            }
            let meta = self.lower_meta(prefix).await.ok_or(FsError::NotFound)?;
            if meta.file_type != FileType::Directory {
                return Err(FsError::NotADirectory);
            }
            self.upper_root.create_dir(prefix, meta.mode).await?;
            self.copy_attributes(prefix, &meta).await?;
        }
        Ok(())
    }

    async fn copy_attributes(&self, path: &str, meta: &Metadata) -> FsResult<()> {
        self.upper_root.set_owner(path, Some(meta.uid), Some(meta.gid)).await?;
        self.upper_root.set_mode(path, meta.mode).await?;
        self.upper_root.set_times(path, Some(meta.atime), Some(meta.mtime)).await
    }

    /// Copies the lower node at `path` into the upper layer (contents and
    /// attributes); nothing to do when the upper layer has it already.
    async fn copy_up(&self, path: &str) -> FsResult<()> {
        let meta = match self.find(path).await? {
            Layer::Upper(_) => return Ok(()),
            Layer::Lower(meta) => meta,
        };
        let parent = super::path::split_parent(path).map_or("/", |(parent, _)| parent);
        self.ensure_upper_dirs(parent).await?;
        match meta.file_type {
            FileType::File => {
                let data = self.lower.read_file(path).await?;
                let handle = self
                    .upper_root
                    .open(path, OpenOptions { write: true, create: true, exclusive: true, mode: meta.mode, ..OpenOptions::default() })
                    .await?;
                if let Err(error) = handle.write_at(0, &data).await {
                    let _ = self.upper_root.remove_file(path).await;
                    return Err(error);
                }
                self.copy_attributes(path, &meta).await
            }
            FileType::Symlink => {
                let target = self.lower.read_link(path).await?;
                self.upper_root.symlink(&target, path).await
            }
            FileType::Directory => {
                self.upper_root.create_dir(path, meta.mode).await?;
                self.copy_attributes(path, &meta).await
            }
            FileType::CharDevice | FileType::Fifo => Err(FsError::NotPermitted),
        }
    }

    /// Every visible name in merged directory `path`, without permission checks.
    async fn merged_entries(&self, path: &str) -> FsResult<Vec<super::DirEntry>> {
        let mut entries = match self.upper_root.read_dir(path).await {
            Ok(entries) => entries,
            Err(FsError::NotFound | FsError::NotADirectory) => Vec::new(),
            Err(error) => return Err(error),
        };
        let lower_is_dir = self.lower_meta(path).await.is_some_and(|meta| meta.is_dir());
        if lower_is_dir {
            let lower = self.lower.read_dir(path).await.unwrap_or_default();
            for mut entry in lower {
                let child = join(path, &entry.name);
                if entries.iter().any(|e| e.name == entry.name) || !self.lower_visible(&child) {
                    continue;
                }
                entry.ino |= LOWER_INODE_BIT;
                entries.push(entry);
            }
            entries.sort_by(|a, b| a.name.cmp(&b.name));
        }
        Ok(entries)
    }
}

/// `dir/name` for a canonical directory.
fn join(dir: &str, name: &str) -> String {
    if dir == "/" {
        format!("/{name}")
    } else {
        format!("{dir}/{name}")
    }
}

#[async_trait(?Send)]
impl RawTree for OverlayFs {
    async fn raw_lstat(&self, path: &str) -> FsResult<Metadata> {
        Ok(self.find(path).await?.meta().clone())
    }

    async fn raw_readlink(&self, path: &str) -> FsResult<String> {
        match self.find(path).await? {
            Layer::Upper(_) => self.upper_root.read_link(path).await,
            Layer::Lower(_) => self.lower.read_link(path).await,
        }
    }
}
