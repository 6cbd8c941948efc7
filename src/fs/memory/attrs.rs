//! `chmod(2)`, `chown(2)` and `utimensat(2)` on the inode table, with
//! Linux's ownership rules (EPERM for a user who may not make the change).

use super::MemoryFs;
use crate::fs::perm::Access;
use crate::fs::{FsError, FsResult};

impl MemoryFs {
    /// Sets permission bits: only the owner or root may.
    pub(crate) fn chmod_path(&self, path: &str, mode: u32) -> FsResult<()> {
        let now = self.now();
        let mut guard = self.state.borrow_mut();
        let state = &mut *guard;
        let ino = self.lookup(state, path, true)?.existing()?;
        let generation = state.generation + 1;
        let user = self.user;
        let node = state.node_attrs_mut(ino)?;
        if !user.owns(node.uid) {
            return Err(FsError::NotPermitted);
        }
        let mut mode = mode & 0o7777;
        // A user outside the file's group cannot give it set-group-id.
        if !user.is_root() && !user.in_group(node.gid) && !node.is_dir() {
            mode &= !0o2000;
        }
        node.mode = mode;
        node.ctime = now;
        node.changed = generation;
        state.generation = generation;
        Ok(())
    }

    /// Sets owner and/or group. Root may set anything; the owner may only
    /// give the file to a group they belong to.
    pub(crate) fn chown_path(&self, path: &str, uid: Option<u32>, gid: Option<u32>) -> FsResult<()> {
        let now = self.now();
        let mut guard = self.state.borrow_mut();
        let state = &mut *guard;
        let ino = self.lookup(state, path, true)?.existing()?;
        let generation = state.generation + 1;
        let user = self.user;
        let node = state.node_attrs_mut(ino)?;
        if !user.is_root() {
            let owner_ok = node.uid == user.uid && uid.is_none_or(|u| u == node.uid);
            let group_ok = gid.is_none_or(|g| g == node.gid || user.in_group(g));
            if !owner_ok || !group_ok {
                return Err(FsError::NotPermitted);
            }
        }
        if uid.is_none() && gid.is_none() {
            return Ok(());
        }
        if let Some(uid) = uid {
            node.uid = uid;
        }
        if let Some(gid) = gid {
            node.gid = gid;
        }
        if !node.is_dir() {
            // A change of owner drops set-user-id, and set-group-id of an
            // executable, as Linux does.
            node.mode &= !0o4000;
            if node.mode & 0o010 != 0 {
                node.mode &= !0o2000;
            }
        }
        node.ctime = now;
        node.changed = generation;
        state.generation = generation;
        Ok(())
    }

    /// Sets access and/or modification times. The owner (or root) may set
    /// any time; another user with write access may only set them to now.
    pub(crate) fn utimes_path(&self, path: &str, atime: Option<f64>, mtime: Option<f64>) -> FsResult<()> {
        let now = self.now();
        let mut guard = self.state.borrow_mut();
        let state = &mut *guard;
        let ino = self.lookup(state, path, true)?.existing()?;
        if atime.is_none() && mtime.is_none() {
            return Ok(());
        }
        let node = state.node(ino)?;
        if !self.user.owns(node.uid) {
            let to_now = atime.is_none_or(|t| t == now) && mtime.is_none_or(|t| t == now);
            if !to_now {
                return Err(FsError::NotPermitted);
            }
            self.check(node, Access::WRITE)?;
        }
        let generation = state.bump();
        let node = state.node_attrs_mut(ino)?;
        if let Some(atime) = atime {
            node.atime = atime;
        }
        if let Some(mtime) = mtime {
            node.mtime = mtime;
        }
        node.ctime = now;
        node.changed = generation;
        Ok(())
    }
}
