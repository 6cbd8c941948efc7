//! The sandbox filesystem: the one [`Fs`] trait every builtin, command,
//! redirection and glob goes through, and its implementations.
//!
//! Paths given to an `Fs` are absolute (the shell joins relative paths to
//! its working directory first, without normalizing: `..` is resolved
//! physically by the filesystem) and are UTF-8 strings. Implementations
//! follow symbolic links (ELOOP after 40), check permissions against their
//! user, and enforce quotas. The trait is async so that host-backed layers
//! (directories supplied lazily by JavaScript) plug in beside the in-memory
//! one.
//!
//! - [`memory::MemoryFs`]: the in-memory tree, with quotas, change tracking
//!   and snapshots; [`layout`] builds the default sandbox tree in it.
//! - [`mount::MountFs`]: other filesystems mounted at paths.
//! - [`readonly::ReadOnlyFs`]: EROFS for every change.
//! - [`overlay::OverlayFs`]: a copy-on-write upper layer over any lower one.
//! - [`host_dir::HostDirFs`]: a read-only view of a [`host_dir::HostDirectory`]
//!   the host supplies.
//! - [`path`], [`perm`], [`walk`]: path rules, permission rules, and the
//!   path walk shared by the filesystems assembled from others.

pub mod canonical;
mod error;
pub mod host_dir;
pub mod layout;
pub mod memory;
pub mod mount;
pub mod overlay;
pub mod path;
pub mod perm;
pub mod readonly;
pub mod walk;

pub use error::{FsError, FsResult};
pub use memory::MemoryFs;
pub use perm::{Access, Credentials};

use async_trait::async_trait;
use std::rc::Rc;

/// The kind of a filesystem node, as `stat` reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FileType {
    /// A regular file holding bytes.
    File,
    /// A directory.
    Directory,
    /// A symbolic link holding a target path.
    Symlink,
    /// A character device (`/dev/null`, `/dev/zero`, `/dev/urandom`).
    CharDevice,
    /// A named pipe.
    Fifo,
}

/// What `stat` knows about a node.
#[derive(Debug, Clone, PartialEq)]
pub struct Metadata {
    /// The node's kind.
    pub file_type: FileType,
    /// Permission bits and set-id/sticky bits (`0o7777` mask), without the type.
    pub mode: u32,
    /// Size in bytes (a symlink's is the length of its target).
    pub size: u64,
    /// Number of hard links.
    pub nlink: u64,
    /// Owner user id.
    pub uid: u32,
    /// Owner group id.
    pub gid: u32,
    /// Inode number, unique within the filesystem.
    pub ino: u64,
    /// Device number of the filesystem (differs across mounts).
    pub dev: u64,
    /// Last access, milliseconds since the epoch.
    pub atime: f64,
    /// Last content change, milliseconds since the epoch.
    pub mtime: f64,
    /// Last status change, milliseconds since the epoch.
    pub ctime: f64,
}

impl Metadata {
    /// True for directories.
    pub fn is_dir(&self) -> bool {
        self.file_type == FileType::Directory
    }

    /// True for regular files.
    pub fn is_file(&self) -> bool {
        self.file_type == FileType::File
    }

    /// True for symbolic links (only from [`Fs::symlink_metadata`]).
    pub fn is_symlink(&self) -> bool {
        self.file_type == FileType::Symlink
    }
}

/// Space and node use of a filesystem, for `df`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SpaceInfo {
    /// The byte quota.
    pub total_bytes: u64,
    /// Bytes in use.
    pub used_bytes: u64,
    /// The node quota (files and directories).
    pub total_nodes: u64,
    /// Nodes in use.
    pub used_nodes: u64,
}

/// One entry of a directory listing (without `.` and `..`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DirEntry {
    /// The entry's name within its directory.
    pub name: String,
    /// The entry's kind, without following symlinks.
    pub file_type: FileType,
    /// The entry's inode number.
    pub ino: u64,
}

/// How to open a file, as the flags of `open(2)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct OpenOptions {
    /// O_RDONLY / O_RDWR: reading allowed.
    pub read: bool,
    /// O_WRONLY / O_RDWR: writing allowed.
    pub write: bool,
    /// O_APPEND: every write goes to the end.
    pub append: bool,
    /// O_CREAT: create the file when missing.
    pub create: bool,
    /// O_EXCL with O_CREAT: fail when it exists (noclobber, `mktemp`).
    pub exclusive: bool,
    /// O_TRUNC: empty the file on open.
    pub truncate: bool,
    /// Permission bits for a created file, after the caller applied its umask.
    pub mode: u32,
}

impl OpenOptions {
    /// Open for reading only (`< file`).
    pub fn read_only() -> Self {
        OpenOptions { read: true, ..Default::default() }
    }

    /// Create or truncate for writing (`> file`).
    pub fn write_truncate(mode: u32) -> Self {
        OpenOptions { write: true, create: true, truncate: true, mode, ..Default::default() }
    }

    /// Create or append for writing (`>> file`).
    pub fn write_append(mode: u32) -> Self {
        OpenOptions { write: true, create: true, append: true, mode, ..Default::default() }
    }
}

/// An open file: reads and writes address the node, not the path, so a file
/// renamed or unlinked while open keeps working, as on Linux.
#[async_trait(?Send)]
pub trait FileHandle {
    /// Reads up to `len` bytes at `offset`; an empty result means end of file.
    async fn read_at(&self, offset: u64, len: usize) -> FsResult<Vec<u8>>;

    /// Writes `data` at `offset` (at the end when opened with append) and
    /// returns the offset just past the written bytes.
    async fn write_at(&self, offset: u64, data: &[u8]) -> FsResult<u64>;

    /// Cuts or extends the file to `len` bytes.
    async fn set_len(&self, len: u64) -> FsResult<()>;

    /// The node's current metadata.
    async fn metadata(&self) -> FsResult<Metadata>;

    /// True when every write goes to the end of the file.
    fn is_append(&self) -> bool;
}

/// The filesystem interface of the sandbox. All paths are absolute.
#[async_trait(?Send)]
pub trait Fs {
    /// `stat(2)`: metadata, following symlinks.
    async fn metadata(&self, path: &str) -> FsResult<Metadata>;

    /// `lstat(2)`: metadata of the link itself when `path` is a symlink.
    async fn symlink_metadata(&self, path: &str) -> FsResult<Metadata>;

    /// `open(2)`.
    async fn open(&self, path: &str, options: OpenOptions) -> FsResult<Rc<dyn FileHandle>>;

    /// The entries of a directory, sorted by name, without `.` and `..`.
    async fn read_dir(&self, path: &str) -> FsResult<Vec<DirEntry>>;

    /// `mkdir(2)` with permission bits (the caller applies its umask).
    async fn create_dir(&self, path: &str, mode: u32) -> FsResult<()>;

    /// `unlink(2)`: removes a file, symlink or device, never a directory.
    async fn remove_file(&self, path: &str) -> FsResult<()>;

    /// `rmdir(2)`: removes an empty directory.
    async fn remove_dir(&self, path: &str) -> FsResult<()>;

    /// `rename(2)`: replaces the target as Linux does (a file over a file, a
    /// directory over an empty directory).
    async fn rename(&self, from: &str, to: &str) -> FsResult<()>;

    /// `symlink(2)`: creates `link` pointing at `target` (not resolved now).
    async fn symlink(&self, target: &str, link: &str) -> FsResult<()>;

    /// `link(2)`: a new name for an existing file.
    async fn hard_link(&self, existing: &str, new: &str) -> FsResult<()>;

    /// `readlink(2)`: the target text of a symlink.
    async fn read_link(&self, path: &str) -> FsResult<String>;

    /// `chmod(2)`: sets the permission bits (`0o7777` mask), following symlinks.
    async fn set_mode(&self, path: &str, mode: u32) -> FsResult<()>;

    /// `chown(2)`: sets owner and/or group, following symlinks.
    async fn set_owner(&self, path: &str, uid: Option<u32>, gid: Option<u32>) -> FsResult<()>;

    /// `utimensat(2)`: sets access and/or modification times (ms since epoch).
    async fn set_times(&self, path: &str, atime: Option<f64>, mtime: Option<f64>) -> FsResult<()>;

    /// `access(2)`: succeeds when this filesystem's user may access `path`
    /// as asked (`test -r/-w/-x`), following symlinks; EROFS for a write
    /// check on a read-only filesystem. The default only checks existence.
    async fn access(&self, path: &str, access: Access) -> FsResult<()> {
        let _ = access;
        self.metadata(path).await.map(|_| ())
    }

    /// Quota and use for `df`; `None` when the filesystem cannot tell.
    fn space(&self) -> Option<SpaceInfo> {
        None
    }

    /// Reads a whole file.
    async fn read_file(&self, path: &str) -> FsResult<Vec<u8>> {
        let handle = self.open(path, OpenOptions::read_only()).await?;
        let mut out = Vec::new();
        loop {
            let chunk = handle.read_at(out.len() as u64, 1 << 20).await?;
            if chunk.is_empty() {
                return Ok(out);
            }
            out.extend_from_slice(&chunk);
        }
    }

    /// Creates or replaces a whole file (mode 0o644 when created).
    async fn write_file(&self, path: &str, data: &[u8]) -> FsResult<()> {
        let handle = self.open(path, OpenOptions::write_truncate(0o644)).await?;
        handle.write_at(0, data).await?;
        Ok(())
    }

    /// True when `path` exists (following symlinks).
    async fn exists(&self, path: &str) -> bool {
        self.metadata(path).await.is_ok()
    }
}
