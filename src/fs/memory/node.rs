//! The inode table of the in-memory filesystem: nodes, their contents, and
//! the shared state every view of one tree points at.

use super::quota::{FsLimits, Usage};
use crate::fs::FileType;
use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasherDefault, Hasher};
use std::rc::Weak;

/// The inode number of `/`.
pub(crate) const ROOT: u64 = 1;

/// The character devices a [`super::MemoryFs`] can hold (under `/dev`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Device {
    /// `/dev/null`: reads are empty, writes vanish.
    Null,
    /// `/dev/zero`: reads give zero bytes, writes vanish.
    Zero,
    /// `/dev/urandom`: reads give pseudo-random bytes (bounded per read).
    Random,
    /// `/dev/full`: reads give zero bytes, writes fail with ENOSPC.
    Full,
}

/// The contents of one node.
#[derive(Debug, Clone)]
pub(crate) enum NodeKind {
    /// A regular file's bytes.
    File(Vec<u8>),
    /// A directory: its named children and its parent (itself for `/`).
    Directory { entries: BTreeMap<String, u64>, parent: u64 },
    /// A symbolic link's target text.
    Symlink(String),
    /// A character device.
    Device(Device),
}

/// One inode.
#[derive(Debug, Clone)]
pub(crate) struct Node {
    pub kind: NodeKind,
    pub mode: u32,
    pub uid: u32,
    pub gid: u32,
    pub nlink: u64,
    pub atime: f64,
    pub mtime: f64,
    pub ctime: f64,
    /// The change generation of the last content or attribute change.
    pub changed: u64,
}

impl Node {
    /// The node's kind as `stat` reports it.
    pub fn file_type(&self) -> FileType {
        match self.kind {
            NodeKind::File(_) => FileType::File,
            NodeKind::Directory { .. } => FileType::Directory,
            NodeKind::Symlink(_) => FileType::Symlink,
            NodeKind::Device(_) => FileType::CharDevice,
        }
    }

    /// True for directories.
    pub fn is_dir(&self) -> bool {
        matches!(self.kind, NodeKind::Directory { .. })
    }

    /// Bytes the node's contents count against the byte quota.
    pub fn charged_bytes(&self) -> u64 {
        match &self.kind {
            NodeKind::File(bytes) => bytes.len() as u64,
            NodeKind::Symlink(target) => target.len() as u64,
            _ => 0,
        }
    }

    /// The directory's entries, if it is one.
    pub fn entries(&self) -> Option<&BTreeMap<String, u64>> {
        match &self.kind {
            NodeKind::Directory { entries, .. } => Some(entries),
            _ => None,
        }
    }

    /// The directory's entries for changing, if it is one.
    pub fn entries_mut(&mut self) -> Option<&mut BTreeMap<String, u64>> {
        match &mut self.kind {
            NodeKind::Directory { entries, .. } => Some(entries),
            _ => None,
        }
    }
}

/// A hasher for inode numbers: they are small distinct integers, so one
/// multiply spreads them well and costs far less than SipHash.
#[derive(Default)]
pub(crate) struct InodeHasher(u64);

impl Hasher for InodeHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.0 = (self.0 ^ u64::from(*byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }

    fn write_u64(&mut self, value: u64) {
        self.0 = value.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// The inode table keyed by inode number.
pub(crate) type NodeMap = HashMap<u64, Node, BuildHasherDefault<InodeHasher>>;

/// Everything one tree holds; every [`super::MemoryFs`] view of the tree shares it.
#[derive(Debug)]
pub(crate) struct State {
    pub nodes: NodeMap,
    pub next_ino: u64,
    pub limits: FsLimits,
    pub usage: Usage,
    pub random_state: u64,
    /// Bumped on every change; nodes remember the value of their last one.
    pub generation: u64,
    /// Bumped by `restore`, so handles opened before it stop working.
    pub epoch: u64,
    /// Liveness tokens of open handles, by inode.
    pub open: HashMap<u64, Weak<()>, BuildHasherDefault<InodeHasher>>,
    /// Files with no names left that open handles still use.
    pub orphans: Vec<u64>,
    /// What changed since the last delta was taken, while a host keeps a
    /// copy of the tree ([`super::delta`]); `None` costs nothing.
    pub tracking: Option<super::delta::Tracking>,
}

impl State {
    /// The node `ino`, or ENOENT when it is gone.
    pub fn node(&self, ino: u64) -> crate::fs::FsResult<&Node> {
        self.nodes.get(&ino).ok_or(crate::fs::FsError::NotFound)
    }

    /// The node `ino` for changing, or ENOENT when it is gone.
    pub fn node_mut(&mut self, ino: u64) -> crate::fs::FsResult<&mut Node> {
        self.mark_changed(ino);
        self.nodes.get_mut(&ino).ok_or(crate::fs::FsError::NotFound)
    }

    /// The node `ino` for changing its attributes only (times, mode,
    /// owner), or ENOENT when it is gone.
    pub fn node_attrs_mut(&mut self, ino: u64) -> crate::fs::FsResult<&mut Node> {
        if let Some(tracking) = &mut self.tracking {
            tracking.attrs_changed(ino);
        }
        self.nodes.get_mut(&ino).ok_or(crate::fs::FsError::NotFound)
    }

    /// Records that node `ino`'s contents (or entries) change.
    pub fn mark_changed(&mut self, ino: u64) {
        if let Some(tracking) = &mut self.tracking {
            tracking.changed(ino);
        }
    }

    /// Adds a new node to the table.
    pub fn insert_node(&mut self, ino: u64, node: Node) {
        if let Some(tracking) = &mut self.tracking {
            tracking.born(ino);
        }
        self.nodes.insert(ino, node);
    }

    /// Starts a new change generation and returns it.
    pub fn bump(&mut self) -> u64 {
        self.generation += 1;
        self.generation
    }

    /// Frees an inode that has no names left, unless an open handle still
    /// uses it (then it waits in `orphans` until the last handle is gone).
    pub fn release_if_unlinked(&mut self, ino: u64) {
        let Some(node) = self.nodes.get(&ino) else {
            return;
        };
        if node.nlink > 0 && !node.is_dir() {
            return;
        }
        let in_use = self.open.get(&ino).is_some_and(|token| token.strong_count() > 0);
        if in_use && !node.is_dir() {
            if !self.orphans.contains(&ino) {
                self.orphans.push(ino);
            }
            return;
        }
        self.free(ino);
    }

    /// Removes an inode and gives its quota back.
    pub fn free(&mut self, ino: u64) {
        self.open.remove(&ino);
        if let Some(tracking) = &mut self.tracking {
            tracking.freed(ino);
        }
        if let Some(node) = self.nodes.remove(&ino) {
            self.usage.release(&node);
        }
    }

    /// Frees orphaned files whose last handle has been dropped.
    pub fn sweep_orphans(&mut self) {
        if self.orphans.is_empty() {
            return;
        }
        let orphans = std::mem::take(&mut self.orphans);
        for ino in orphans {
            let in_use = self.open.get(&ino).is_some_and(|token| token.strong_count() > 0);
            if in_use {
                self.orphans.push(ino);
            } else {
                self.free(ino);
            }
        }
    }
}
