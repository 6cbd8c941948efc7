//! One listed name with its metadata, and the per-type details `ls` shows.

use super::TimeField;
use crate::fs::{FileType, FsError, Metadata};
use crate::utility::Invocation;

/// A name to list and what `stat`/`lstat` said about it.
pub struct Entry {
    /// The name as shown (an operand as typed, or a directory entry's name).
    pub name: String,
    /// The absolute path.
    pub path: String,
    /// The metadata shown (of the link itself unless dereferenced).
    pub metadata: Metadata,
    /// A symlink's target text.
    pub link_target: Option<String>,
    /// The metadata of a symlink's target, when it resolves.
    pub target_metadata: Option<Metadata>,
}

impl Entry {
    /// True for directories and symlinks to directories.
    pub fn is_dir_like(&self) -> bool {
        self.metadata.is_dir() || self.target_metadata.as_ref().is_some_and(Metadata::is_dir)
    }
}

/// Loads an entry: `follow` dereferences a symlink (when its target exists
/// or `dereference` demands it, as with `-L`).
pub async fn load_entry(ctx: &Invocation<'_>, name: &str, path: &str, dereference: bool, follow: bool) -> Result<Entry, FsError> {
    let own = ctx.fs.symlink_metadata(path).await?;
    if !own.is_symlink() {
        return Ok(Entry { name: name.to_string(), path: path.to_string(), metadata: own, link_target: None, target_metadata: None });
    }
    let target = ctx.fs.metadata(path).await;
    if follow {
        match target {
            Ok(metadata) => {
                return Ok(Entry { name: name.to_string(), path: path.to_string(), metadata, link_target: None, target_metadata: None })
            }
            Err(error) if dereference => return Err(error),
            Err(_) => {}
        }
        let target = ctx.fs.metadata(path).await.ok();
        let link = ctx.fs.read_link(path).await.ok();
        return Ok(Entry { name: name.to_string(), path: path.to_string(), metadata: own, link_target: link, target_metadata: target });
    }
    let link = ctx.fs.read_link(path).await.ok();
    Ok(Entry { name: name.to_string(), path: path.to_string(), metadata: own, link_target: link, target_metadata: target.ok() })
}

/// The timestamp `-l` shows and `-t` sorts by.
pub fn time_of(metadata: &Metadata, field: TimeField) -> f64 {
    match field {
        TimeField::Modify => metadata.mtime,
        TimeField::Access => metadata.atime,
        TimeField::Change => metadata.ctime,
    }
}

/// The `-F` (`full`) or `-p` indicator for a node.
pub fn indicator_of(file_type: FileType, mode: u32, full: bool) -> &'static str {
    match file_type {
        FileType::Directory => "/",
        _ if !full => "",
        FileType::Symlink => "@",
        FileType::Fifo => "|",
        FileType::File if mode & 0o111 != 0 => "*",
        _ => "",
    }
}
