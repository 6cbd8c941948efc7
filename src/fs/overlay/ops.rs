//! The [`Fs`] trait for [`OverlayFs`]: each operation walks the merged
//! tree, checks permissions against the merged metadata, copies up what it
//! is about to change, then changes the upper layer.

use super::{Layer, OverlayFs};
use crate::fs::perm::Access;
use crate::fs::{DirEntry, FileHandle, FileType, Fs, FsError, FsResult, Metadata, OpenOptions, SpaceInfo};
use async_trait::async_trait;
use std::rc::Rc;

impl OverlayFs {
    /// Resolves `path` for an attribute change and copies it up when it is
    /// a lower node; `owner_only` refuses users who do not own it (EPERM).
    async fn prepare_change(&self, path: &str, owner_only: bool) -> FsResult<String> {
        let resolved = self.walk(path, true).await?;
        let meta = resolved.existing()?;
        if owner_only && !self.user.owns(meta.uid) {
            return Err(FsError::NotPermitted);
        }
        self.copy_up(&resolved.path).await?;
        Ok(resolved.path)
    }

    /// Resolves `path` for creating a name: EEXIST when it exists, else the
    /// canonical path after checking and copying up its directory.
    async fn prepare_create(&self, path: &str) -> FsResult<String> {
        let resolved = self.walk(path, false).await?;
        if resolved.meta.is_some() {
            return Err(FsError::AlreadyExists);
        }
        let parent = resolved.parent().to_string();
        self.check_dir_write(&parent).await?;
        self.ensure_upper_dirs(&parent).await?;
        Ok(resolved.path)
    }

    /// Whether the lower layer has a node at `path` that shows through.
    async fn lower_has(&self, path: &str) -> bool {
        self.lower_meta(path).await.is_some()
    }
}

#[async_trait(?Send)]
impl Fs for OverlayFs {
    async fn metadata(&self, path: &str) -> FsResult<Metadata> {
        self.walk(path, true).await?.existing().cloned()
    }

    async fn symlink_metadata(&self, path: &str) -> FsResult<Metadata> {
        self.walk(path, false).await?.existing().cloned()
    }

    async fn open(&self, path: &str, options: OpenOptions) -> FsResult<Rc<dyn FileHandle>> {
        let exclusive = options.create && options.exclusive;
        let resolved = self.walk(path, !exclusive).await?;
        let Some(meta) = resolved.meta.clone() else {
            if !options.create {
                return Err(FsError::NotFound);
            }
            if resolved.dir_required {
                return Err(FsError::IsADirectory);
            }
            let parent = resolved.parent().to_string();
            self.check_dir_write(&parent).await?;
            self.ensure_upper_dirs(&parent).await?;
            return self.upper.open(&resolved.path, options).await;
        };
        if exclusive {
            return Err(FsError::AlreadyExists);
        }
        match self.find(&resolved.path).await? {
            Layer::Upper(_) => self.upper.open(&resolved.path, options).await,
            Layer::Lower(_) => {
                let mut wanted = Access::EXISTS;
                if options.read {
                    wanted = wanted | Access::READ;
                }
                if options.write {
                    wanted = wanted | Access::WRITE;
                }
                if meta.is_dir() && options.write {
                    return Err(FsError::IsADirectory);
                }
                if !self.user.allows_meta(wanted, &meta) {
                    return Err(FsError::PermissionDenied);
                }
                if options.write {
                    self.copy_up(&resolved.path).await?;
                    return self.upper.open(&resolved.path, options).await;
                }
                self.lower.open(&resolved.path, OpenOptions { read: options.read, ..OpenOptions::default() }).await
            }
        }
    }

    async fn read_dir(&self, path: &str) -> FsResult<Vec<DirEntry>> {
        let resolved = self.walk(path, true).await?;
        let meta = resolved.existing()?;
        if meta.file_type != FileType::Directory {
            return Err(FsError::NotADirectory);
        }
        if !self.user.allows_meta(Access::READ, meta) {
            return Err(FsError::PermissionDenied);
        }
        self.merged_entries(&resolved.path).await
    }

    async fn create_dir(&self, path: &str, mode: u32) -> FsResult<()> {
        let canonical = self.prepare_create(path).await?;
        self.upper.create_dir(&canonical, mode).await
    }

    async fn remove_file(&self, path: &str) -> FsResult<()> {
        let resolved = self.walk(path, false).await?;
        let meta = resolved.existing()?;
        if meta.is_dir() || resolved.dot {
            return Err(FsError::IsADirectory);
        }
        self.check_remove(resolved.parent(), meta).await?;
        let in_lower = self.lower_has(&resolved.path).await;
        if let Layer::Upper(_) = self.find(&resolved.path).await? {
            self.upper_root.remove_file(&resolved.path).await?;
        }
        if in_lower {
            self.whiteout(&resolved.path);
        }
        Ok(())
    }

    async fn remove_dir(&self, path: &str) -> FsResult<()> {
        let resolved = self.walk(path, false).await?;
        let meta = resolved.existing()?;
        if resolved.path == "/" {
            return Err(FsError::Busy);
        }
        if resolved.dot {
            return Err(FsError::InvalidArgument);
        }
        if !meta.is_dir() {
            return Err(FsError::NotADirectory);
        }
        if !self.merged_entries(&resolved.path).await?.is_empty() {
            return Err(FsError::DirectoryNotEmpty);
        }
        self.check_remove(resolved.parent(), meta).await?;
        let in_lower = self.lower_has(&resolved.path).await;
        if let Layer::Upper(_) = self.find(&resolved.path).await? {
            self.upper_root.remove_dir(&resolved.path).await?;
        }
        if in_lower {
            self.whiteout(&resolved.path);
        }
        Ok(())
    }

    async fn rename(&self, from: &str, to: &str) -> FsResult<()> {
        let source = self.walk(from, false).await?;
        let source_meta = source.existing()?.clone();
        let target = self.walk(to, false).await?;
        if source.dot || target.dot || source.path == "/" || target.path == "/" {
            return Err(FsError::Busy);
        }
        if source.path == target.path {
            return Ok(());
        }
        let source_is_dir = source_meta.is_dir();
        if source_is_dir && target.path.starts_with(&source.path) && target.path.as_bytes().get(source.path.len()) == Some(&b'/') {
            return Err(FsError::InvalidArgument);
        }
        if target.dir_required && !source_is_dir {
            return Err(FsError::NotADirectory);
        }
        self.check_remove(source.parent(), &source_meta).await?;
        self.check_dir_write(target.parent()).await?;
        if let Some(existing) = &target.meta {
            if existing.ino == source_meta.ino {
                return Ok(());
            }
            match (source_is_dir, existing.is_dir()) {
                (true, false) => return Err(FsError::NotADirectory),
                (false, true) => return Err(FsError::IsADirectory),
                (true, true) if !self.merged_entries(&target.path).await?.is_empty() => return Err(FsError::DirectoryNotEmpty),
                _ => {}
            }
            self.check_remove(target.parent(), existing).await?;
        }
        let source_in_lower = self.lower_has(&source.path).await;
        if source_is_dir && source_in_lower {
            return Err(FsError::CrossDevice);
        }
        if source_is_dir
            && !self.user.is_root()
            && source.parent() != target.parent()
            && !self.user.allows_meta(Access::WRITE, &source_meta)
        {
            return Err(FsError::PermissionDenied);
        }
        self.copy_up(&source.path).await?;
        self.ensure_upper_dirs(target.parent()).await?;
        let target_in_lower = self.lower_has(&target.path).await;
        self.upper_root.rename(&source.path, &target.path).await?;
        if source_in_lower {
            self.whiteout(&source.path);
        }
        if source_is_dir && target_in_lower {
            self.whiteout(&target.path);
        }
        Ok(())
    }

    async fn symlink(&self, target: &str, link: &str) -> FsResult<()> {
        crate::fs::path::validate(target)?;
        let canonical = self.prepare_create(link).await?;
        self.upper.symlink(target, &canonical).await
    }

    async fn hard_link(&self, existing: &str, new: &str) -> FsResult<()> {
        let source = self.walk(existing, false).await?;
        if source.existing()?.is_dir() {
            return Err(FsError::NotPermitted);
        }
        let canonical = self.prepare_create(new).await?;
        self.copy_up(&source.path).await?;
        self.upper.hard_link(&source.path, &canonical).await
    }

    async fn read_link(&self, path: &str) -> FsResult<String> {
        let resolved = self.walk(path, false).await?;
        resolved.existing()?;
        match self.find(&resolved.path).await? {
            Layer::Upper(_) => self.upper_root.read_link(&resolved.path).await,
            Layer::Lower(_) => self.lower.read_link(&resolved.path).await,
        }
    }

    async fn set_mode(&self, path: &str, mode: u32) -> FsResult<()> {
        let canonical = self.prepare_change(path, true).await?;
        self.upper.set_mode(&canonical, mode).await
    }

    async fn set_owner(&self, path: &str, uid: Option<u32>, gid: Option<u32>) -> FsResult<()> {
        let canonical = self.prepare_change(path, true).await?;
        self.upper.set_owner(&canonical, uid, gid).await
    }

    async fn set_times(&self, path: &str, atime: Option<f64>, mtime: Option<f64>) -> FsResult<()> {
        let resolved = self.walk(path, true).await?;
        let meta = resolved.existing()?;
        if !self.user.owns(meta.uid) && !self.user.allows_meta(Access::WRITE, meta) {
            return Err(FsError::PermissionDenied);
        }
        self.copy_up(&resolved.path).await?;
        self.upper.set_times(&resolved.path, atime, mtime).await
    }

    async fn access(&self, path: &str, access: Access) -> FsResult<()> {
        let resolved = self.walk(path, true).await?;
        if self.user.allows_meta(access, resolved.existing()?) {
            Ok(())
        } else {
            Err(FsError::PermissionDenied)
        }
    }

    fn space(&self) -> Option<SpaceInfo> {
        self.upper.space()
    }
}
