//! Open files of the in-memory filesystem. A handle addresses its inode, not
//! its path, so a file renamed or unlinked while open keeps working; a
//! liveness token keeps an unlinked file's bytes until the last handle goes.

use super::node::{Device, NodeKind};
use super::MemoryFs;
use crate::fs::{FileHandle, FsError, FsResult, Metadata, OpenOptions};
use async_trait::async_trait;
use std::rc::Rc;

/// The most one read of a device returns (bounds `/dev/zero` and `/dev/urandom`).
const DEVICE_READ_MAX: usize = 64 * 1024;

/// An open in-memory file.
pub(crate) struct MemoryHandle {
    pub fs: MemoryFs,
    pub ino: u64,
    pub options: OpenOptions,
    /// The tree's epoch when opened: a restore invalidates the handle.
    pub epoch: u64,
    /// Keeps the inode alive after its last name is removed.
    pub _token: Rc<()>,
}

impl MemoryHandle {
    fn check_epoch(&self) -> FsResult<()> {
        if self.fs.state.borrow().epoch == self.epoch {
            Ok(())
        } else {
            Err(FsError::BadDescriptor)
        }
    }
}

#[async_trait(?Send)]
impl FileHandle for MemoryHandle {
    async fn read_at(&self, offset: u64, len: usize) -> FsResult<Vec<u8>> {
        if !self.options.read {
            return Err(FsError::BadDescriptor);
        }
        self.check_epoch()?;
        let now = self.fs.now();
        let device = {
            let mut state = self.fs.state.borrow_mut();
            let node = state.node_attrs_mut(self.ino)?;
            match &node.kind {
                NodeKind::File(bytes) => {
                    let start = usize::try_from(offset).unwrap_or(usize::MAX).min(bytes.len());
                    let end = start.saturating_add(len).min(bytes.len());
                    let out = bytes.get(start..end).map(<[u8]>::to_vec).unwrap_or_default();
                    MemoryFs::touch_atime(node, now);
                    return Ok(out);
                }
                NodeKind::Directory { .. } => return Err(FsError::IsADirectory),
                NodeKind::Symlink(_) => return Err(FsError::InvalidArgument),
                NodeKind::Device(device) => *device,
            }
        };
        let len = len.min(DEVICE_READ_MAX);
        Ok(match device {
            Device::Null => Vec::new(),
            Device::Zero | Device::Full => vec![0; len],
            Device::Random => {
                let mut out = Vec::with_capacity(len + 8);
                while out.len() < len {
                    out.extend_from_slice(&self.fs.next_random().to_le_bytes());
                }
                out.truncate(len);
                out
            }
        })
    }

    async fn write_at(&self, offset: u64, data: &[u8]) -> FsResult<u64> {
        if !self.options.write {
            return Err(FsError::BadDescriptor);
        }
        self.check_epoch()?;
        let now = self.fs.now();
        let mut guard = self.fs.state.borrow_mut();
        let state = &mut *guard;
        state.sweep_orphans();
        let limits = state.limits;
        let generation = state.generation + 1;
        state.mark_changed(self.ino);
        let node = state.nodes.get_mut(&self.ino).ok_or(FsError::NotFound)?;
        match &mut node.kind {
            NodeKind::File(bytes) => {
                let old_len = bytes.len() as u64;
                let start = if self.options.append { old_len } else { offset };
                let end = start.checked_add(data.len() as u64).ok_or(FsError::FileTooLarge)?;
                if data.is_empty() {
                    return Ok(start);
                }
                let new_len = end.max(old_len);
                state.usage.check_resize(&limits, old_len, new_len)?;
                let (start_index, end_index) = match (usize::try_from(start), usize::try_from(end)) {
                    (Ok(s), Ok(e)) => (s, e),
                    _ => return Err(FsError::FileTooLarge),
                };
                if end_index > bytes.len() {
                    bytes.resize(end_index, 0);
                }
                if let Some(target) = bytes.get_mut(start_index..end_index) {
                    target.copy_from_slice(data);
                }
                node.mtime = now;
                node.ctime = now;
                node.changed = generation;
                state.generation = generation;
                state.usage.resize(old_len, new_len);
                Ok(end)
            }
            NodeKind::Device(Device::Full) if !data.is_empty() => Err(FsError::NoSpace),
            NodeKind::Device(_) => Ok(offset.saturating_add(data.len() as u64)),
            NodeKind::Directory { .. } => Err(FsError::IsADirectory),
            NodeKind::Symlink(_) => Err(FsError::InvalidArgument),
        }
    }

    async fn set_len(&self, len: u64) -> FsResult<()> {
        if !self.options.write {
            return Err(FsError::InvalidArgument);
        }
        self.check_epoch()?;
        let now = self.fs.now();
        self.fs.resize_file(self.ino, len, now)
    }

    async fn metadata(&self) -> FsResult<Metadata> {
        self.check_epoch()?;
        MemoryFs::metadata_of(&self.fs.state.borrow(), self.ino)
    }

    fn is_append(&self) -> bool {
        self.options.append
    }
}

impl MemoryFs {
    /// Cuts or extends a regular file to `len` bytes within the quotas
    /// (devices ignore it, as `truncate` on `/dev/null` does).
    pub(crate) fn resize_file(&self, ino: u64, len: u64, now: f64) -> FsResult<()> {
        let mut guard = self.state.borrow_mut();
        let state = &mut *guard;
        state.sweep_orphans();
        let limits = state.limits;
        let generation = state.generation + 1;
        state.mark_changed(ino);
        let node = state.nodes.get_mut(&ino).ok_or(FsError::NotFound)?;
        match &mut node.kind {
            NodeKind::File(bytes) => {
                let old_len = bytes.len() as u64;
                state.usage.check_resize(&limits, old_len, len)?;
                let new_len = usize::try_from(len).map_err(|_| FsError::FileTooLarge)?;
                bytes.resize(new_len, 0);
                if new_len < bytes.capacity() / 2 {
                    bytes.shrink_to_fit();
                }
                node.mtime = now;
                node.ctime = now;
                node.changed = generation;
                state.generation = generation;
                state.usage.resize(old_len, len);
                Ok(())
            }
            NodeKind::Directory { .. } => Err(FsError::IsADirectory),
            _ => Ok(()),
        }
    }
}
