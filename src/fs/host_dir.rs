//! Host-backed directories: a tree the embedding host supplies lazily (a
//! directory of the user's machine, an object store, a zip in the browser),
//! seen read-only through the [`Fs`] trait. Put it under an
//! [`crate::fs::overlay::OverlayFs`] to let the sandbox change it in memory,
//! or mount it read-only.
//!
//! The host implements the small [`HostDirectory`] trait. It is only ever
//! asked about canonical paths relative to its own root: absolute, no `.`,
//! `..`, empty or NUL components, symlinks already resolved here. So the
//! host side needs no path logic of its own beyond mapping such a path under
//! its root, and cannot be tricked into leaving it.

use super::perm::{Access, Credentials};
use super::readonly::{change_error, create_error, open_error};
use super::walk::{resolve, RawTree};
use super::{DirEntry, FileHandle, FileType, Fs, FsError, FsResult, Metadata, OpenOptions};
use async_trait::async_trait;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// The most bytes asked of the host in one read.
const HOST_READ_MAX: usize = 1 << 20;

/// What the host tells about one node (as `lstat`: a symlink is reported
/// as a symlink).
#[derive(Debug, Clone, PartialEq)]
pub struct HostStat {
    /// File, directory or symlink (other kinds are shown as empty files).
    pub file_type: FileType,
    /// Size in bytes.
    pub size: u64,
    /// Permission bits (`0o7777` mask).
    pub mode: u32,
    /// Last modification, milliseconds since the epoch.
    pub mtime: f64,
}

/// One name in a host directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostEntry {
    /// The entry's name (entries with `/`, NUL, `.` or `..` are ignored).
    pub name: String,
    /// Its kind, without following symlinks.
    pub file_type: FileType,
}

/// A tree the host supplies. Paths are canonical and absolute within the
/// tree (`/` is its root). Errors are [`FsError`]s: ENOENT for a missing
/// name, EIO when the host could not answer.
#[async_trait(?Send)]
pub trait HostDirectory {
    /// `lstat` of `path`.
    async fn stat(&self, path: &str) -> FsResult<HostStat>;

    /// The entries of directory `path`, in any order.
    async fn list(&self, path: &str) -> FsResult<Vec<HostEntry>>;

    /// Up to `len` bytes of file `path` from `offset`; empty at the end.
    async fn read(&self, path: &str, offset: u64, len: usize) -> FsResult<Vec<u8>>;

    /// The target of symlink `path`.
    async fn read_link(&self, path: &str) -> FsResult<String> {
        let _ = path;
        Err(FsError::InvalidArgument)
    }
}

/// A read-only [`Fs`] over a [`HostDirectory`]. Every node appears owned by
/// the configured user; inode numbers are given out on first sight and kept.
pub struct HostDirFs {
    dir: Rc<dyn HostDirectory>,
    owner: Credentials,
    user: Credentials,
    dev: u64,
    inodes: RefCell<HashMap<String, u64>>,
    /// Answers already given by the host, when caching is on.
    stats: RefCell<HashMap<String, FsResult<HostStat>>>,
    cache: bool,
}

impl HostDirFs {
    /// A view of `dir` whose nodes belong to `owner`, walked as `user`.
    pub fn new(dir: Rc<dyn HostDirectory>, owner: Credentials, user: Credentials) -> Self {
        HostDirFs { dir, owner, user, dev: 0x300, inodes: RefCell::new(HashMap::new()), stats: RefCell::new(HashMap::new()), cache: true }
    }

    /// Turns caching of the host's `stat` answers on (the default: a path
    /// walk then asks the host about each directory once) or off (for a
    /// host tree that changes while the sandbox runs).
    pub fn with_cache(mut self, cache: bool) -> Self {
        self.cache = cache;
        self
    }

    /// Forgets cached `stat` answers (after the host tree changed).
    pub fn clear_cache(&self) {
        self.stats.borrow_mut().clear();
    }

    async fn stat(&self, path: &str) -> FsResult<HostStat> {
        if let Some(answer) = self.stats.borrow().get(path) {
            return answer.clone();
        }
        let answer = self.dir.stat(path).await;
        if self.cache && matches!(answer, Ok(_) | Err(FsError::NotFound)) {
            self.stats.borrow_mut().insert(path.to_string(), answer.clone());
        }
        answer
    }

    fn inode(&self, path: &str) -> u64 {
        let mut inodes = self.inodes.borrow_mut();
        let next = inodes.len() as u64 + 1;
        *inodes.entry(path.to_string()).or_insert(next)
    }

    fn to_metadata(&self, path: &str, stat: &HostStat) -> Metadata {
        let file_type = match stat.file_type {
            FileType::Directory | FileType::Symlink => stat.file_type,
            _ => FileType::File,
        };
        Metadata {
            file_type,
            mode: stat.mode & 0o7777,
            size: stat.size,
            nlink: if file_type == FileType::Directory { 2 } else { 1 },
            uid: self.owner.uid,
            gid: self.owner.gid,
            ino: self.inode(path),
            dev: self.dev,
            atime: stat.mtime,
            mtime: stat.mtime,
            ctime: stat.mtime,
        }
    }

    async fn walk(&self, path: &str, follow: bool) -> FsResult<super::walk::Resolved> {
        resolve(self, path, follow, self.user, 4096).await
    }
}

/// True for a name a host may report.
fn valid_name(name: &str) -> bool {
    !name.is_empty() && name != "." && name != ".." && !name.contains(['/', '\0']) && name.len() <= super::path::MAX_COMPONENT_LEN
}

#[async_trait(?Send)]
impl RawTree for HostDirFs {
    async fn raw_lstat(&self, path: &str) -> FsResult<Metadata> {
        let stat = self.stat(path).await?;
        Ok(self.to_metadata(path, &stat))
    }

    async fn raw_readlink(&self, path: &str) -> FsResult<String> {
        self.dir.read_link(path).await
    }
}

/// An open host file: reads go to the host, bounded per call.
struct HostFileHandle {
    dir: Rc<dyn HostDirectory>,
    path: String,
    meta: Metadata,
}

#[async_trait(?Send)]
impl FileHandle for HostFileHandle {
    async fn read_at(&self, offset: u64, len: usize) -> FsResult<Vec<u8>> {
        if self.meta.is_dir() {
            return Err(FsError::IsADirectory);
        }
        // The file is as long as the host said: a host that answers past
        // its end (or ignores the offset) cannot make a read go on forever.
        let left = usize::try_from(self.meta.size.saturating_sub(offset)).unwrap_or(usize::MAX);
        let want = len.min(HOST_READ_MAX).min(left);
        if want == 0 {
            return Ok(Vec::new());
        }
        let mut data = self.dir.read(&self.path, offset, want).await?;
        data.truncate(want);
        Ok(data)
    }

    async fn write_at(&self, _offset: u64, _data: &[u8]) -> FsResult<u64> {
        Err(FsError::BadDescriptor)
    }

    async fn set_len(&self, _len: u64) -> FsResult<()> {
        Err(FsError::InvalidArgument)
    }

    async fn metadata(&self) -> FsResult<Metadata> {
        Ok(self.meta.clone())
    }

    fn is_append(&self) -> bool {
        false
    }
}

#[async_trait(?Send)]
impl Fs for HostDirFs {
    async fn metadata(&self, path: &str) -> FsResult<Metadata> {
        self.walk(path, true).await?.existing().cloned()
    }

    async fn symlink_metadata(&self, path: &str) -> FsResult<Metadata> {
        self.walk(path, false).await?.existing().cloned()
    }

    async fn open(&self, path: &str, options: OpenOptions) -> FsResult<Rc<dyn FileHandle>> {
        if options.write || options.create || options.truncate {
            if let Some(error) = open_error(self, path, options).await {
                return Err(error);
            }
        }
        let resolved = self.walk(path, true).await?;
        let meta = resolved.existing()?.clone();
        if options.read && !self.user.allows_meta(Access::READ, &meta) {
            return Err(FsError::PermissionDenied);
        }
        Ok(Rc::new(HostFileHandle { dir: self.dir.clone(), path: resolved.path, meta }))
    }

    async fn read_dir(&self, path: &str) -> FsResult<Vec<DirEntry>> {
        let resolved = self.walk(path, true).await?;
        let meta = resolved.existing()?;
        if !meta.is_dir() {
            return Err(FsError::NotADirectory);
        }
        if !self.user.allows_meta(Access::READ, meta) {
            return Err(FsError::PermissionDenied);
        }
        let mut entries: Vec<DirEntry> = Vec::new();
        for entry in self.dir.list(&resolved.path).await? {
            if !valid_name(&entry.name) || entries.iter().any(|e| e.name == entry.name) {
                continue;
            }
            let child = if resolved.path == "/" { format!("/{}", entry.name) } else { format!("{}/{}", resolved.path, entry.name) };
            let file_type = match entry.file_type {
                FileType::Directory | FileType::Symlink => entry.file_type,
                _ => FileType::File,
            };
            entries.push(DirEntry { name: entry.name, file_type, ino: self.inode(&child) });
        }
        entries.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(entries)
    }

    async fn create_dir(&self, path: &str, _mode: u32) -> FsResult<()> {
        Err(create_error(self, path).await)
    }

    async fn remove_file(&self, path: &str) -> FsResult<()> {
        Err(change_error(self, path, false).await)
    }

    async fn remove_dir(&self, path: &str) -> FsResult<()> {
        Err(change_error(self, path, false).await)
    }

    async fn rename(&self, from: &str, _to: &str) -> FsResult<()> {
        Err(change_error(self, from, false).await)
    }

    async fn symlink(&self, _target: &str, link: &str) -> FsResult<()> {
        Err(create_error(self, link).await)
    }

    async fn hard_link(&self, _existing: &str, new: &str) -> FsResult<()> {
        Err(create_error(self, new).await)
    }

    async fn read_link(&self, path: &str) -> FsResult<String> {
        let resolved = self.walk(path, false).await?;
        if resolved.existing()?.file_type != FileType::Symlink {
            return Err(FsError::InvalidArgument);
        }
        self.dir.read_link(&resolved.path).await
    }

    async fn set_mode(&self, path: &str, _mode: u32) -> FsResult<()> {
        Err(change_error(self, path, true).await)
    }

    async fn set_owner(&self, path: &str, _uid: Option<u32>, _gid: Option<u32>) -> FsResult<()> {
        Err(change_error(self, path, true).await)
    }

    async fn set_times(&self, path: &str, _atime: Option<f64>, _mtime: Option<f64>) -> FsResult<()> {
        Err(change_error(self, path, true).await)
    }

    async fn access(&self, path: &str, access: Access) -> FsResult<()> {
        let resolved = self.walk(path, true).await?;
        if access.contains(Access::WRITE) {
            return Err(FsError::ReadOnly);
        }
        if self.user.allows_meta(access, resolved.existing()?) {
            Ok(())
        } else {
            Err(FsError::PermissionDenied)
        }
    }
}
