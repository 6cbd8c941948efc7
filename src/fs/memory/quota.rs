//! Quotas of the in-memory filesystem: the configurable limits and the
//! running usage they are checked against. Every change that adds bytes or
//! nodes asks here first, so a refused change leaves nothing half done.

use super::node::{Node, NodeKind};
use crate::fs::{FsError, FsResult};

/// The limits one in-memory filesystem enforces. Breaching a byte or node
/// quota gives ENOSPC (`No space left on device`); a single file over
/// `max_file_size` gives EFBIG (`File too large`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FsLimits {
    /// Bytes of file contents and symlink targets, all files together.
    pub max_total_bytes: u64,
    /// Bytes of one regular file.
    pub max_file_size: u64,
    /// Nodes that are not directories (files, symlinks, devices).
    pub max_files: u64,
    /// Directories, not counting `/`.
    pub max_dirs: u64,
    /// Directory levels below `/` a path may reach (ENAMETOOLONG past it).
    pub max_depth: usize,
}

impl Default for FsLimits {
    fn default() -> Self {
        FsLimits { max_total_bytes: 512 << 20, max_file_size: 128 << 20, max_files: 250_000, max_dirs: 100_000, max_depth: 256 }
    }
}

/// What the tree currently uses, kept in step with every change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Usage {
    /// Bytes of file contents and symlink targets.
    pub bytes: u64,
    /// Nodes that are not directories.
    pub files: u64,
    /// Directories, not counting `/`.
    pub dirs: u64,
}

impl Usage {
    /// Checks that a new node of this kind with `bytes` of content fits.
    pub fn check_new(&self, limits: &FsLimits, is_dir: bool, bytes: u64) -> FsResult<()> {
        if is_dir {
            if self.dirs >= limits.max_dirs {
                return Err(FsError::NoSpace);
            }
        } else if self.files >= limits.max_files {
            return Err(FsError::NoSpace);
        }
        self.check_growth(limits, bytes)
    }

    /// Records a new node.
    pub(crate) fn add_node(&mut self, node: &Node) {
        if node.is_dir() {
            self.dirs += 1;
        } else {
            self.files += 1;
        }
        self.bytes += node.charged_bytes();
    }

    /// Checks that `extra` more bytes fit in the total.
    pub fn check_growth(&self, limits: &FsLimits, extra: u64) -> FsResult<()> {
        match self.bytes.checked_add(extra) {
            Some(total) if total <= limits.max_total_bytes => Ok(()),
            _ => Err(FsError::NoSpace),
        }
    }

    /// Checks that a file may become `new_len` bytes long from `old_len`.
    pub fn check_resize(&self, limits: &FsLimits, old_len: u64, new_len: u64) -> FsResult<()> {
        if new_len > limits.max_file_size && new_len > old_len {
            return Err(FsError::FileTooLarge);
        }
        if new_len > old_len {
            self.check_growth(limits, new_len - old_len)?;
        }
        Ok(())
    }

    /// Records a file going from `old_len` to `new_len` bytes.
    pub fn resize(&mut self, old_len: u64, new_len: u64) {
        self.bytes = self.bytes.saturating_sub(old_len).saturating_add(new_len);
    }

    /// Gives back what a freed node used.
    pub(crate) fn release(&mut self, node: &Node) {
        if matches!(node.kind, NodeKind::Directory { .. }) {
            self.dirs = self.dirs.saturating_sub(1);
        } else {
            self.files = self.files.saturating_sub(1);
        }
        self.bytes = self.bytes.saturating_sub(node.charged_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn growth_past_the_total_is_refused() {
        let limits = FsLimits { max_total_bytes: 10, ..FsLimits::default() };
        let usage = Usage { bytes: 8, files: 1, dirs: 0 };
        assert_eq!(usage.check_growth(&limits, 2), Ok(()));
        assert_eq!(usage.check_growth(&limits, 3), Err(FsError::NoSpace));
        assert_eq!(usage.check_growth(&limits, u64::MAX), Err(FsError::NoSpace));
    }

    #[test]
    fn a_file_over_the_size_limit_is_too_large() {
        let limits = FsLimits { max_file_size: 4, ..FsLimits::default() };
        let usage = Usage::default();
        assert_eq!(usage.check_resize(&limits, 0, 5), Err(FsError::FileTooLarge));
        assert_eq!(usage.check_resize(&limits, 9, 5), Ok(()));
    }

    #[test]
    fn node_counts_are_limited() {
        let limits = FsLimits { max_files: 1, max_dirs: 1, ..FsLimits::default() };
        let usage = Usage { bytes: 0, files: 1, dirs: 0 };
        assert_eq!(usage.check_new(&limits, false, 0), Err(FsError::NoSpace));
        assert_eq!(usage.check_new(&limits, true, 0), Ok(()));
    }
}
