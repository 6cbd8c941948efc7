//! A read-only view of another filesystem: every read passes through, every
//! change fails with EROFS (`Read-only file system`) — after the checks
//! Linux makes first, so a missing directory is still ENOENT and an
//! existing name still EEXIST.

use super::perm::Access;
use super::{DirEntry, FileHandle, Fs, FsError, FsResult, Metadata, OpenOptions, SpaceInfo};
use async_trait::async_trait;
use std::rc::Rc;

/// A filesystem that refuses every change.
pub struct ReadOnlyFs {
    inner: Rc<dyn Fs>,
}

impl ReadOnlyFs {
    /// A read-only view of `inner`.
    pub fn new(inner: Rc<dyn Fs>) -> Self {
        ReadOnlyFs { inner }
    }
}

/// The error for creating `path` on a read-only filesystem: EEXIST when it
/// exists, ENOENT (or ENOTDIR) when its directory does not, else EROFS.
pub(crate) async fn create_error(fs: &dyn Fs, path: &str) -> FsError {
    match fs.symlink_metadata(path).await {
        Ok(_) => FsError::AlreadyExists,
        Err(FsError::NotFound) => {
            let trimmed = path.trim_end_matches('/');
            let parent = match trimmed.rfind('/') {
                Some(0) | None => "/",
                Some(index) => trimmed.get(..index).unwrap_or("/"),
            };
            match fs.metadata(parent).await {
                Ok(meta) if meta.is_dir() => FsError::ReadOnly,
                Ok(_) => FsError::NotADirectory,
                Err(error) => error,
            }
        }
        Err(error) => error,
    }
}

/// The error for changing existing `path`: its lookup error, else EROFS.
pub(crate) async fn change_error(fs: &dyn Fs, path: &str, follow: bool) -> FsError {
    let found = if follow { fs.metadata(path).await } else { fs.symlink_metadata(path).await };
    match found {
        Ok(_) => FsError::ReadOnly,
        Err(error) => error,
    }
}

/// The error for `open` with options that may change the file, if any.
pub(crate) async fn open_error(fs: &dyn Fs, path: &str, options: OpenOptions) -> Option<FsError> {
    match fs.metadata(path).await {
        Ok(_) if options.create && options.exclusive => Some(FsError::AlreadyExists),
        Ok(meta) if meta.is_dir() && options.write => Some(FsError::IsADirectory),
        Ok(_) if options.write => Some(FsError::ReadOnly),
        Ok(_) => None,
        Err(FsError::NotFound) if options.create => Some(create_error(fs, path).await),
        Err(error) => Some(error),
    }
}

#[async_trait(?Send)]
impl Fs for ReadOnlyFs {
    async fn metadata(&self, path: &str) -> FsResult<Metadata> {
        self.inner.metadata(path).await
    }

    async fn symlink_metadata(&self, path: &str) -> FsResult<Metadata> {
        self.inner.symlink_metadata(path).await
    }

    async fn open(&self, path: &str, options: OpenOptions) -> FsResult<Rc<dyn FileHandle>> {
        if let Some(error) = open_error(self.inner.as_ref(), path, options).await {
            return Err(error);
        }
        let read_only = OpenOptions { read: options.read, ..OpenOptions::default() };
        self.inner.open(path, read_only).await
    }

    async fn read_dir(&self, path: &str) -> FsResult<Vec<DirEntry>> {
        self.inner.read_dir(path).await
    }

    async fn create_dir(&self, path: &str, _mode: u32) -> FsResult<()> {
        Err(create_error(self.inner.as_ref(), path).await)
    }

    async fn remove_file(&self, path: &str) -> FsResult<()> {
        match self.inner.symlink_metadata(path).await {
            Ok(meta) if meta.is_dir() => Err(FsError::IsADirectory),
            Ok(_) => Err(FsError::ReadOnly),
            Err(error) => Err(error),
        }
    }

    async fn remove_dir(&self, path: &str) -> FsResult<()> {
        match self.inner.symlink_metadata(path).await {
            Ok(meta) if !meta.is_dir() => Err(FsError::NotADirectory),
            Ok(_) => Err(FsError::ReadOnly),
            Err(error) => Err(error),
        }
    }

    async fn rename(&self, from: &str, _to: &str) -> FsResult<()> {
        Err(change_error(self.inner.as_ref(), from, false).await)
    }

    async fn symlink(&self, _target: &str, link: &str) -> FsResult<()> {
        Err(create_error(self.inner.as_ref(), link).await)
    }

    async fn hard_link(&self, existing: &str, new: &str) -> FsResult<()> {
        match self.inner.symlink_metadata(existing).await {
            Ok(_) => Err(create_error(self.inner.as_ref(), new).await),
            Err(error) => Err(error),
        }
    }

    async fn read_link(&self, path: &str) -> FsResult<String> {
        self.inner.read_link(path).await
    }

    async fn set_mode(&self, path: &str, _mode: u32) -> FsResult<()> {
        Err(change_error(self.inner.as_ref(), path, true).await)
    }

    async fn set_owner(&self, path: &str, _uid: Option<u32>, _gid: Option<u32>) -> FsResult<()> {
        Err(change_error(self.inner.as_ref(), path, true).await)
    }

    async fn set_times(&self, path: &str, _atime: Option<f64>, _mtime: Option<f64>) -> FsResult<()> {
        Err(change_error(self.inner.as_ref(), path, true).await)
    }

    async fn access(&self, path: &str, access: Access) -> FsResult<()> {
        self.inner.access(path, access).await?;
        if access.contains(Access::WRITE) {
            return Err(FsError::ReadOnly);
        }
        Ok(())
    }

    fn space(&self) -> Option<SpaceInfo> {
        self.inner.space()
    }
}
