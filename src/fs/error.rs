//! Filesystem errors, as Linux errno values with the C library's messages.

use std::fmt;

/// Why a filesystem operation failed. Each variant is one Linux errno; its
/// `Display` is the `strerror` text GNU tools print (`No such file or directory`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FsError {
    /// ENOENT: the path, or a directory on it, does not exist.
    NotFound,
    /// ENOTDIR: a component used as a directory is not one.
    NotADirectory,
    /// EISDIR: a file operation was asked of a directory.
    IsADirectory,
    /// EEXIST: the target already exists.
    AlreadyExists,
    /// ENOTEMPTY: a directory to remove or replace still has entries.
    DirectoryNotEmpty,
    /// EACCES: the mode bits forbid it.
    PermissionDenied,
    /// EPERM: the operation is not permitted to this user at all.
    NotPermitted,
    /// EROFS: the path lies on a read-only mount.
    ReadOnly,
    /// ENOSPC: a quota (bytes, files, directories) would be exceeded.
    NoSpace,
    /// EFBIG: a single file would exceed the file-size quota.
    FileTooLarge,
    /// ELOOP: too many symbolic links were followed.
    TooManyLinks,
    /// ENAMETOOLONG: a component over 255 bytes or a path over 4096.
    NameTooLong,
    /// EINVAL: a bad argument (a NUL byte in a path, moving a directory into itself).
    InvalidArgument,
    /// EXDEV: a rename or link across mounts.
    CrossDevice,
    /// EBUSY: the target is a mount point or otherwise in use.
    Busy,
    /// EBADF: the file handle is not open for this operation.
    BadDescriptor,
    /// EIO: a host-backed layer failed to supply data.
    Io,
}

impl FsError {
    /// The Linux errno number, for tools that print or compare it.
    pub fn errno(self) -> i32 {
        match self {
            FsError::NotPermitted => 1,
            FsError::NotFound => 2,
            FsError::Io => 5,
            FsError::BadDescriptor => 9,
            FsError::PermissionDenied => 13,
            FsError::Busy => 16,
            FsError::AlreadyExists => 17,
            FsError::CrossDevice => 18,
            FsError::NotADirectory => 20,
            FsError::IsADirectory => 21,
            FsError::InvalidArgument => 22,
            FsError::FileTooLarge => 27,
            FsError::NoSpace => 28,
            FsError::ReadOnly => 30,
            FsError::NameTooLong => 36,
            FsError::DirectoryNotEmpty => 39,
            FsError::TooManyLinks => 40,
        }
    }

    /// The C library's `strerror` text for this error.
    pub fn message(self) -> &'static str {
        match self {
            FsError::NotFound => "No such file or directory",
            FsError::NotADirectory => "Not a directory",
            FsError::IsADirectory => "Is a directory",
            FsError::AlreadyExists => "File exists",
            FsError::DirectoryNotEmpty => "Directory not empty",
            FsError::PermissionDenied => "Permission denied",
            FsError::NotPermitted => "Operation not permitted",
            FsError::ReadOnly => "Read-only file system",
            FsError::NoSpace => "No space left on device",
            FsError::FileTooLarge => "File too large",
            FsError::TooManyLinks => "Too many levels of symbolic links",
            FsError::NameTooLong => "File name too long",
            FsError::InvalidArgument => "Invalid argument",
            FsError::CrossDevice => "Invalid cross-device link",
            FsError::Busy => "Device or resource busy",
            FsError::BadDescriptor => "Bad file descriptor",
            FsError::Io => "Input/output error",
        }
    }
}

impl fmt::Display for FsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for FsError {}

/// The result of a filesystem operation.
pub type FsResult<T> = Result<T, FsError>;
