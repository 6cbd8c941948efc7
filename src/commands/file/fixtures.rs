//! Test fixtures for the file utilities: building trees in a fresh
//! filesystem and running utilities over it.

use crate::commands::test_support::{new_fs, run_utility, UtilityOutput};
use crate::executor::block_on;
use crate::fs::{Fs, MemoryFs};

/// A fresh filesystem with `entries` created under `/home/user`: a name
/// ending in `/` is a directory, `name -> target` a symlink, else a file
/// holding `name`'s contents after `=` (or nothing).
pub fn tree(entries: &[&str]) -> MemoryFs {
    let fs = new_fs();
    for entry in entries {
        let path = |name: &str| if name.starts_with('/') { name.to_string() } else { format!("/home/user/{name}") };
        if let Some((link, target)) = entry.split_once(" -> ") {
            block_on(fs.symlink(target, &path(link))).unwrap();
        } else if let Some(dir) = entry.strip_suffix('/') {
            block_on(fs.create_dir(&path(dir), 0o755)).unwrap();
        } else {
            let (name, contents) = entry.split_once('=').unwrap_or((entry, ""));
            block_on(fs.write_file(&path(name), contents.as_bytes())).unwrap();
        }
    }
    fs
}

/// Runs a utility over `fs` with empty input.
pub fn run(fs: &MemoryFs, args: &[&str]) -> UtilityOutput {
    run_utility(fs, args, b"")
}

/// The contents of a file, or `None` when it cannot be read.
pub fn read(fs: &MemoryFs, path: &str) -> Option<String> {
    let path = if path.starts_with('/') { path.to_string() } else { format!("/home/user/{path}") };
    block_on(fs.read_file(&path)).ok().map(|b| String::from_utf8_lossy(&b).into_owned())
}

/// True when `path` exists without following a final symlink.
pub fn exists(fs: &MemoryFs, path: &str) -> bool {
    let path = if path.starts_with('/') { path.to_string() } else { format!("/home/user/{path}") };
    block_on(fs.symlink_metadata(&path)).is_ok()
}

/// The permission bits of `path`.
pub fn mode(fs: &MemoryFs, path: &str) -> u32 {
    let path = if path.starts_with('/') { path.to_string() } else { format!("/home/user/{path}") };
    block_on(fs.symlink_metadata(&path)).map(|m| m.mode).unwrap_or(0)
}

/// Sets a node's modification time (ms since the epoch).
pub fn set_mtime(fs: &MemoryFs, path: &str, millis: f64) {
    let path = if path.starts_with('/') { path.to_string() } else { format!("/home/user/{path}") };
    block_on(fs.set_times(&path, Some(millis), Some(millis))).unwrap();
}
