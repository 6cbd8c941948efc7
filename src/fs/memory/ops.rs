//! The [`Fs`] trait for [`MemoryFs`]: lookups, opening, listing, creating
//! and removing. Renames, links and attribute changes live in
//! `rename.rs` and `attrs.rs`.

use super::handle::MemoryHandle;
use super::node::{NodeKind, ROOT};
use super::MemoryFs;
use crate::fs::perm::Access;
use crate::fs::{DirEntry, FileHandle, Fs, FsError, FsResult, Metadata, OpenOptions, SpaceInfo};
use async_trait::async_trait;
use std::collections::BTreeMap;
use std::rc::Rc;

impl MemoryFs {
    fn stat_path(&self, path: &str, follow: bool) -> FsResult<Metadata> {
        let state = self.state.borrow();
        let ino = self.lookup(&state, path, follow)?.existing()?;
        Self::metadata_of(&state, ino)
    }

    fn open_path(&self, path: &str, options: OpenOptions) -> FsResult<Rc<dyn FileHandle>> {
        let now = self.now();
        let mut guard = self.state.borrow_mut();
        let state = &mut *guard;
        state.sweep_orphans();
        let exclusive = options.create && options.exclusive;
        let lookup = self.lookup(state, path, !exclusive)?;
        let ino = match lookup.node {
            Some(_) if exclusive => return Err(FsError::AlreadyExists),
            Some(ino) => {
                let node = state.node(ino)?;
                let mut wanted = Access::EXISTS;
                if options.read {
                    wanted = wanted | Access::READ;
                }
                if options.write {
                    wanted = wanted | Access::WRITE;
                }
                match &node.kind {
                    NodeKind::Directory { .. } if options.write || options.create => return Err(FsError::IsADirectory),
                    NodeKind::Symlink(_) => return Err(FsError::TooManyLinks),
                    _ => {}
                }
                self.check(node, wanted)?;
                if options.truncate && options.write {
                    if let NodeKind::File(bytes) = &node.kind {
                        let old_len = bytes.len() as u64;
                        let generation = state.bump();
                        let node = state.node_mut(ino)?;
                        if let NodeKind::File(bytes) = &mut node.kind {
                            *bytes = Vec::new();
                        }
                        node.mtime = now;
                        node.ctime = now;
                        node.changed = generation;
                        state.usage.resize(old_len, 0);
                    }
                }
                ino
            }
            None if options.create => {
                if lookup.dir_required {
                    return Err(FsError::IsADirectory);
                }
                self.insert_new(state, &lookup, NodeKind::File(Vec::new()), options.mode, now)?
            }
            None => return Err(FsError::NotFound),
        };
        let token = match state.open.get(&ino).and_then(std::rc::Weak::upgrade) {
            Some(token) => token,
            None => {
                let token = Rc::new(());
                state.open.insert(ino, Rc::downgrade(&token));
                token
            }
        };
        if state.open.len() > 4096 && state.open.len() % 1024 == 0 {
            state.open.retain(|_, token| token.strong_count() > 0);
        }
        let epoch = state.epoch;
        Ok(Rc::new(MemoryHandle { fs: self.clone(), ino, options, epoch, _token: token }))
    }

    fn list_dir(&self, path: &str) -> FsResult<Vec<DirEntry>> {
        let now = self.now();
        let mut state = self.state.borrow_mut();
        let ino = self.lookup(&state, path, true)?.existing()?;
        let node = state.node(ino)?;
        let Some(entries) = node.entries() else {
            return Err(FsError::NotADirectory);
        };
        self.check(node, Access::READ)?;
        let list = entries
            .iter()
            .filter_map(|(name, child)| {
                let file_type = state.nodes.get(child)?.file_type();
                Some(DirEntry { name: name.clone(), file_type, ino: *child })
            })
            .collect();
        if let Ok(node) = state.node_attrs_mut(ino) {
            MemoryFs::touch_atime(node, now);
        }
        Ok(list)
    }

    fn make_dir(&self, path: &str, mode: u32) -> FsResult<()> {
        let kind = NodeKind::Directory { entries: BTreeMap::new(), parent: ROOT };
        self.create_node(path, kind, mode).map(|_| ())
    }

    fn unlink(&self, path: &str) -> FsResult<()> {
        let now = self.now();
        let mut state = self.state.borrow_mut();
        state.sweep_orphans();
        let lookup = self.lookup(&state, path, false)?;
        let ino = lookup.existing()?;
        if state.node(ino)?.is_dir() || lookup.is_dot() {
            return Err(FsError::IsADirectory);
        }
        self.check_remove(&state, lookup.parent, ino)?;
        Self::unlink_entry(&mut state, lookup.parent, &lookup.name, now)
    }

    fn rmdir(&self, path: &str) -> FsResult<()> {
        let now = self.now();
        let mut state = self.state.borrow_mut();
        let lookup = self.lookup(&state, path, false)?;
        let ino = lookup.existing()?;
        if ino == ROOT {
            return Err(FsError::Busy);
        }
        match lookup.name.as_ref() {
            "." => return Err(FsError::InvalidArgument),
            ".." => return Err(FsError::DirectoryNotEmpty),
            _ => {}
        }
        match state.node(ino)?.entries() {
            None => return Err(FsError::NotADirectory),
            Some(entries) if !entries.is_empty() => return Err(FsError::DirectoryNotEmpty),
            Some(_) => {}
        }
        self.check_remove(&state, lookup.parent, ino)?;
        Self::unlink_entry(&mut state, lookup.parent, &lookup.name, now)
    }

    fn check_access(&self, path: &str, access: Access) -> FsResult<()> {
        let state = self.state.borrow();
        let ino = self.lookup(&state, path, true)?.existing()?;
        self.check(state.node(ino)?, access)
    }
}

#[async_trait(?Send)]
impl Fs for MemoryFs {
    async fn metadata(&self, path: &str) -> FsResult<Metadata> {
        self.stat_path(path, true)
    }

    async fn symlink_metadata(&self, path: &str) -> FsResult<Metadata> {
        self.stat_path(path, false)
    }

    async fn open(&self, path: &str, options: OpenOptions) -> FsResult<Rc<dyn FileHandle>> {
        self.open_path(path, options)
    }

    async fn read_dir(&self, path: &str) -> FsResult<Vec<DirEntry>> {
        self.list_dir(path)
    }

    async fn create_dir(&self, path: &str, mode: u32) -> FsResult<()> {
        self.make_dir(path, mode)
    }

    async fn remove_file(&self, path: &str) -> FsResult<()> {
        self.unlink(path)
    }

    async fn remove_dir(&self, path: &str) -> FsResult<()> {
        self.rmdir(path)
    }

    async fn rename(&self, from: &str, to: &str) -> FsResult<()> {
        self.rename_path(from, to)
    }

    async fn symlink(&self, target: &str, link: &str) -> FsResult<()> {
        crate::fs::path::validate(target)?;
        if target.is_empty() {
            return Err(FsError::NotFound);
        }
        self.create_node(link, NodeKind::Symlink(target.to_string()), 0o777).map(|_| ())
    }

    async fn hard_link(&self, existing: &str, new: &str) -> FsResult<()> {
        self.link_path(existing, new)
    }

    async fn read_link(&self, path: &str) -> FsResult<String> {
        let state = self.state.borrow();
        let ino = self.lookup(&state, path, false)?.existing()?;
        match &state.node(ino)?.kind {
            NodeKind::Symlink(target) => Ok(target.clone()),
            _ => Err(FsError::InvalidArgument),
        }
    }

    async fn set_mode(&self, path: &str, mode: u32) -> FsResult<()> {
        self.chmod_path(path, mode)
    }

    async fn set_owner(&self, path: &str, uid: Option<u32>, gid: Option<u32>) -> FsResult<()> {
        self.chown_path(path, uid, gid)
    }

    async fn set_times(&self, path: &str, atime: Option<f64>, mtime: Option<f64>) -> FsResult<()> {
        self.utimes_path(path, atime, mtime)
    }

    async fn access(&self, path: &str, access: Access) -> FsResult<()> {
        self.check_access(path, access)
    }

    fn space(&self) -> Option<SpaceInfo> {
        let usage = self.usage();
        let limits = self.limits();
        Some(SpaceInfo {
            total_bytes: limits.max_total_bytes,
            used_bytes: usage.bytes,
            total_nodes: limits.max_files.saturating_add(limits.max_dirs),
            used_nodes: usage.files + usage.dirs,
        })
    }
}
