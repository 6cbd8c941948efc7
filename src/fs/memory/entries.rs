//! Adding and removing directory entries in the inode table, with the
//! permission, sticky-bit, depth and quota checks that guard them.

use super::lookup::Lookup;
use super::node::{Node, NodeKind, State};
use super::MemoryFs;
use crate::fs::perm::Access;
use crate::fs::{FsError, FsResult};
use std::collections::BTreeMap;

impl MemoryFs {
    /// Checks that this user may add or remove names in directory `dir`.
    pub(crate) fn check_dir_write(&self, state: &State, dir: u64) -> FsResult<()> {
        let node = state.node(dir)?;
        self.check(node, Access::WRITE | Access::EXECUTE)
    }

    /// Checks that this user may remove (or rename away) entry `ino` of `dir`:
    /// write and search on the directory, and the sticky-bit rule.
    pub(crate) fn check_remove(&self, state: &State, dir: u64, ino: u64) -> FsResult<()> {
        self.check_dir_write(state, dir)?;
        let dir_node = state.node(dir)?;
        let entry = state.node(ino)?;
        if self.user.may_unlink_in(dir_node.mode, dir_node.uid, entry.uid) {
            Ok(())
        } else {
            Err(FsError::NotPermitted)
        }
    }

    /// Creates a node of `kind` at `path` (the final symlink not followed).
    pub(crate) fn create_node(&self, path: &str, kind: NodeKind, mode: u32) -> FsResult<u64> {
        let now = self.now();
        let mut state = self.state.borrow_mut();
        state.sweep_orphans();
        let lookup = self.lookup(&state, path, false)?;
        if lookup.node.is_some() {
            return Err(FsError::AlreadyExists);
        }
        if lookup.dir_required && !matches!(kind, NodeKind::Directory { .. }) {
            return Err(FsError::NotFound);
        }
        self.insert_new(&mut state, &lookup, kind, mode, now)
    }

    /// Adds a new node named by a lookup that found nothing.
    pub(crate) fn insert_new(&self, state: &mut State, lookup: &Lookup<'_>, kind: NodeKind, mode: u32, now: f64) -> FsResult<u64> {
        if lookup.is_dot() {
            return Err(FsError::AlreadyExists);
        }
        self.check_dir_write(state, lookup.parent)?;
        let is_dir = matches!(kind, NodeKind::Directory { .. });
        let bytes = match &kind {
            NodeKind::Symlink(target) => target.len() as u64,
            NodeKind::File(data) => data.len() as u64,
            _ => 0,
        };
        state.usage.check_new(&state.limits, is_dir, bytes)?;
        let parent = state.node(lookup.parent)?;
        // A set-group-id directory hands its group (and, to directories, the bit) down.
        let (gid, mut mode) = if parent.mode & 0o2000 != 0 {
            (parent.gid, if is_dir { (mode & 0o7777) | 0o2000 } else { mode & 0o7777 })
        } else {
            (self.user.gid, mode & 0o7777)
        };
        if !is_dir && !self.user.is_root() && !self.user.in_group(gid) {
            mode &= !0o2000;
        }
        let generation = state.bump();
        let ino = state.next_ino;
        state.next_ino += 1;
        let kind = match kind {
            NodeKind::Directory { .. } => NodeKind::Directory { entries: BTreeMap::new(), parent: lookup.parent },
            other => other,
        };
        let node = Node {
            kind,
            mode,
            uid: self.user.uid,
            gid,
            nlink: if is_dir { 2 } else { 1 },
            atime: now,
            mtime: now,
            ctime: now,
            changed: generation,
        };
        state.usage.add_node(&node);
        state.insert_node(ino, node);
        let parent = state.node_mut(lookup.parent)?;
        if let Some(entries) = parent.entries_mut() {
            entries.insert(lookup.name.to_string(), ino);
        }
        parent.mtime = now;
        parent.ctime = now;
        if is_dir {
            parent.nlink += 1;
        }
        Ok(ino)
    }

    /// Removes the name `name` from `parent`, dropping the node when it was
    /// the last name (or keeping it for open handles).
    pub(crate) fn unlink_entry(state: &mut State, parent: u64, name: &str, now: f64) -> FsResult<()> {
        let parent_node = state.node_mut(parent)?;
        let removed = parent_node.entries_mut().and_then(|entries| entries.remove(name)).ok_or(FsError::NotFound)?;
        parent_node.mtime = now;
        parent_node.ctime = now;
        let node = state.node_attrs_mut(removed)?;
        if node.is_dir() {
            node.nlink = 0;
            if let Ok(parent_node) = state.node_mut(parent) {
                parent_node.nlink = parent_node.nlink.saturating_sub(1);
            }
        } else {
            node.nlink = node.nlink.saturating_sub(1);
            node.ctime = now;
        }
        state.bump();
        state.release_if_unlinked(removed);
        Ok(())
    }

    /// Levels of directories below `ino` (0 for a file or an empty directory).
    pub(crate) fn subtree_height(state: &State, ino: u64) -> usize {
        let mut height = 0;
        let mut stack = vec![(ino, 0usize)];
        while let Some((at, level)) = stack.pop() {
            height = height.max(level);
            if let Some(entries) = state.nodes.get(&at).and_then(Node::entries) {
                for child in entries.values() {
                    if state.nodes.get(child).is_some_and(Node::is_dir) {
                        stack.push((*child, level + 1));
                    }
                }
            }
        }
        height
    }
}
