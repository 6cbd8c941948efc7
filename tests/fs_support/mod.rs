//! Helpers shared by the filesystem tests: a fixed-clock host, filesystems
//! for root and for the sandbox user, and short synchronous wrappers.
#![allow(dead_code)]

use std::rc::Rc;
use wabash::executor::block_on;
use wabash::fs::memory::FsLimits;
use wabash::fs::{Credentials, Fs, FsResult, MemoryFs, OpenOptions};
use wabash::host::{FixedHost, Host};

/// The sandbox user.
pub const USER: Credentials = Credentials { uid: 1000, gid: 1000 };
/// Another unprivileged user.
pub const OTHER: Credentials = Credentials { uid: 1001, gid: 1001 };

/// A host whose clock the test advances.
pub fn host() -> Rc<FixedHost> {
    Rc::new(FixedHost::new(1_000_000.0, 7))
}

/// A filesystem with `/home/user` (the user's), a sticky `/tmp`, and `/etc`
/// (root's); returns the user's view.
pub fn user_fs_with(host: Rc<FixedHost>, limits: FsLimits) -> MemoryFs {
    let host: Rc<dyn Host> = host;
    let fs = MemoryFs::with_limits(host, USER, limits);
    let root = fs.with_credentials(Credentials::ROOT);
    for dir in ["/home", "/home/user", "/tmp", "/etc"] {
        block_on(root.create_dir(dir, 0o755)).unwrap();
    }
    block_on(root.set_mode("/tmp", 0o1777)).unwrap();
    block_on(root.set_owner("/home/user", Some(USER.uid), Some(USER.gid))).unwrap();
    fs
}

/// [`user_fs_with`] with default limits and a fresh host.
pub fn user_fs() -> MemoryFs {
    user_fs_with(host(), FsLimits::default())
}

/// Writes a whole file (creating it 0644).
pub fn write(fs: &dyn Fs, path: &str, data: &[u8]) -> FsResult<()> {
    block_on(fs.write_file(path, data))
}

/// Appends to a file (creating it 0644).
pub fn append(fs: &dyn Fs, path: &str, data: &[u8]) -> FsResult<()> {
    block_on(async {
        let handle = fs.open(path, OpenOptions::write_append(0o644)).await?;
        handle.write_at(0, data).await.map(|_| ())
    })
}

/// Reads a whole file.
pub fn read(fs: &dyn Fs, path: &str) -> FsResult<Vec<u8>> {
    block_on(fs.read_file(path))
}

/// The names in a directory.
pub fn names(fs: &dyn Fs, path: &str) -> FsResult<Vec<String>> {
    Ok(block_on(fs.read_dir(path))?.into_iter().map(|e| e.name).collect())
}
