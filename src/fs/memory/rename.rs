//! `rename(2)` and `link(2)` on the inode table, with Linux's rules: a file
//! replaces a file, a directory replaces an empty directory, a directory
//! never moves into its own subtree, and the sticky bit and
//! `protected_hardlinks` rules apply to users other than root.

use super::node::{NodeKind, ROOT};
use super::MemoryFs;
use crate::fs::perm::Access;
use crate::fs::{FsError, FsResult};

impl MemoryFs {
    /// Renames `from` to `to` (neither final symlink followed).
    pub(crate) fn rename_path(&self, from: &str, to: &str) -> FsResult<()> {
        let now = self.now();
        let mut guard = self.state.borrow_mut();
        let state = &mut *guard;
        state.sweep_orphans();
        let source = self.lookup(state, from, false)?;
        let source_ino = source.existing()?;
        if source_ino == ROOT || source.is_dot() {
            return Err(FsError::Busy);
        }
        let target = self.lookup(state, to, false)?;
        if target.is_dot() || target.node == Some(ROOT) {
            return Err(FsError::Busy);
        }
        let source_is_dir = state.node(source_ino)?.is_dir();
        if target.dir_required && !source_is_dir {
            return Err(FsError::NotADirectory);
        }
        if target.node == Some(source_ino) {
            return Ok(());
        }
        if source_is_dir {
            // A directory may not move into itself or its own subtree.
            let mut walk = target.parent;
            loop {
                if walk == source_ino {
                    return Err(FsError::InvalidArgument);
                }
                match &state.node(walk)?.kind {
                    NodeKind::Directory { parent, .. } if walk != ROOT => walk = *parent,
                    _ => break,
                }
            }
        }
        self.check_remove(state, source.parent, source_ino)?;
        self.check_dir_write(state, target.parent)?;
        if source_is_dir && source.parent != target.parent {
            // Moving a directory rewrites its `..`: it must be writable.
            self.check(state.node(source_ino)?, Access::WRITE)?;
        }
        if let Some(existing) = target.node {
            let existing_node = state.node(existing)?;
            match (source_is_dir, existing_node.entries()) {
                (true, None) => return Err(FsError::NotADirectory),
                (false, Some(_)) => return Err(FsError::IsADirectory),
                (true, Some(entries)) if !entries.is_empty() => return Err(FsError::DirectoryNotEmpty),
                _ => {}
            }
            self.check_remove(state, target.parent, existing)?;
        }
        if source_is_dir && target.depth + Self::subtree_height(state, source_ino) > state.limits.max_depth {
            return Err(FsError::NameTooLong);
        }
        if target.node.is_some() {
            Self::unlink_entry(state, target.parent, &target.name, now)?;
        }
        if let Some(entries) = state.node_mut(source.parent)?.entries_mut() {
            entries.remove(source.name.as_ref());
        }
        if let Some(entries) = state.node_mut(target.parent)?.entries_mut() {
            entries.insert(target.name.to_string(), source_ino);
        }
        if source_is_dir {
            if let NodeKind::Directory { parent, .. } = &mut state.node_mut(source_ino)?.kind {
                *parent = target.parent;
            }
            if source.parent != target.parent {
                let old_parent = state.node_mut(source.parent)?;
                old_parent.nlink = old_parent.nlink.saturating_sub(1);
                state.node_mut(target.parent)?.nlink += 1;
            }
        }
        for dir in [source.parent, target.parent] {
            let node = state.node_mut(dir)?;
            node.mtime = now;
            node.ctime = now;
        }
        state.node_attrs_mut(source_ino)?.ctime = now;
        state.bump();
        Ok(())
    }

    /// Makes `new` another name of `existing` (a symlink is linked itself).
    pub(crate) fn link_path(&self, existing: &str, new: &str) -> FsResult<()> {
        let now = self.now();
        let mut guard = self.state.borrow_mut();
        let state = &mut *guard;
        let source = self.lookup(state, existing, false)?;
        let ino = source.existing()?;
        let node = state.node(ino)?;
        if node.is_dir() {
            return Err(FsError::NotPermitted);
        }
        let target = self.lookup(state, new, false)?;
        if target.node.is_some() || target.is_dot() {
            return Err(FsError::AlreadyExists);
        }
        if target.dir_required {
            return Err(FsError::NotFound);
        }
        self.check_dir_write(state, target.parent)?;
        // Linux's protected_hardlinks: only the owner links a file freely;
        // others need it to be a regular file they may read and write.
        let node = state.node(ino)?;
        if !self.user.owns(node.uid) && (!matches!(node.kind, NodeKind::File(_)) || self.check(node, Access::READ | Access::WRITE).is_err())
        {
            return Err(FsError::NotPermitted);
        }
        if let Some(entries) = state.node_mut(target.parent)?.entries_mut() {
            entries.insert(target.name.to_string(), ino);
        }
        let parent = state.node_mut(target.parent)?;
        parent.mtime = now;
        parent.ctime = now;
        let node = state.node_attrs_mut(ino)?;
        node.nlink += 1;
        node.ctime = now;
        state.bump();
        Ok(())
    }
}
