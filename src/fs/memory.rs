//! The in-memory filesystem: an inode table of directories, files, symlinks
//! and devices, with physical path resolution (symlinks followed with the
//! Linux limit of 40, `..` walked on the real parent chain).

use super::path::validate;
use super::{DirEntry, FileHandle, FileType, Fs, FsError, FsResult, Metadata, OpenOptions};
use crate::host::Host;
use async_trait::async_trait;
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;

/// Symlinks followed in one lookup before ELOOP, as Linux.
const MAX_SYMLINK_FOLLOWS: usize = 40;
/// The device number of the in-memory filesystem.
const DEVICE_ID: u64 = 0x2a;

/// The contents of one node.
#[derive(Debug, Clone)]
enum NodeKind {
    File(Vec<u8>),
    Directory { entries: BTreeMap<String, u64>, parent: u64 },
    Symlink(String),
    Device(Device),
}

/// The character devices under `/dev`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Device {
    /// `/dev/null`: reads are empty, writes vanish.
    Null,
    /// `/dev/zero`: reads give zero bytes.
    Zero,
    /// `/dev/urandom`: reads give pseudo-random bytes.
    Random,
}

#[derive(Debug, Clone)]
struct Node {
    kind: NodeKind,
    mode: u32,
    uid: u32,
    gid: u32,
    nlink: u64,
    atime: f64,
    mtime: f64,
    ctime: f64,
}

impl Node {
    fn file_type(&self) -> FileType {
        match self.kind {
            NodeKind::File(_) => FileType::File,
            NodeKind::Directory { .. } => FileType::Directory,
            NodeKind::Symlink(_) => FileType::Symlink,
            NodeKind::Device(_) => FileType::CharDevice,
        }
    }
}

#[derive(Debug)]
struct State {
    nodes: HashMap<u64, Node>,
    next_ino: u64,
    uid: u32,
    gid: u32,
    random_state: u64,
}

const ROOT: u64 = 1;

/// The in-memory filesystem. Cloning shares the same tree.
#[derive(Clone)]
pub struct MemoryFs {
    state: Rc<RefCell<State>>,
    host: Rc<dyn Host>,
}

impl std::fmt::Debug for MemoryFs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MemoryFs").field("nodes", &self.state.borrow().nodes.len()).finish()
    }
}

/// Where a path leads: the parent directory, the final name, and the node
/// that name holds (if any).
struct Lookup {
    parent: u64,
    name: String,
    node: Option<u64>,
}

impl MemoryFs {
    /// An empty filesystem (just `/`), owned by `uid`/`gid`, timed by `host`.
    pub fn new(host: Rc<dyn Host>, uid: u32, gid: u32) -> Self {
        let now = host.now_millis();
        let mut nodes = HashMap::new();
        nodes.insert(
            ROOT,
            Node {
                kind: NodeKind::Directory { entries: BTreeMap::new(), parent: ROOT },
                mode: 0o755,
                uid: 0,
                gid: 0,
                nlink: 2,
                atime: now,
                mtime: now,
                ctime: now,
            },
        );
        let random_state = host.random_seed() | 1;
        MemoryFs {
            state: Rc::new(RefCell::new(State { nodes, next_ino: ROOT + 1, uid, gid, random_state })),
            host,
        }
    }

    fn now(&self) -> f64 {
        self.host.now_millis()
    }

    /// Creates a character device node at `path` (used to build `/dev`).
    pub fn create_device(&self, path: &str, device: Device) -> FsResult<()> {
        let lookup = self.lookup(path, false)?;
        if lookup.node.is_some() {
            return Err(FsError::AlreadyExists);
        }
        self.insert_node(lookup.parent, &lookup.name, NodeKind::Device(device), 0o666)?;
        Ok(())
    }

    /// Walks `path` physically. With `follow_last`, a symlink in the final
    /// position is followed too.
    fn lookup(&self, path: &str, follow_last: bool) -> FsResult<Lookup> {
        validate(path)?;
        if !path.starts_with('/') {
            return Err(FsError::InvalidArgument);
        }
        let state = self.state.borrow();
        let mut follows = 0usize;
        let mut pending: Vec<String> = components_reversed(path);
        let mut dir = ROOT;
        let mut last_name = String::from("/");
        let mut current: Option<u64> = Some(ROOT);
        let mut parent = ROOT;
        while let Some(part) = pending.pop() {
            let dir_node = match current {
                Some(ino) => ino,
                None => return Err(FsError::NotFound),
            };
            let entries = match &state.nodes[&dir_node].kind {
                NodeKind::Directory { entries, parent } => (entries, *parent),
                _ => return Err(FsError::NotADirectory),
            };
            dir = dir_node;
            if part == "." {
                parent = dir;
                last_name = ".".into();
                current = Some(dir);
                continue;
            }
            if part == ".." {
                parent = dir;
                last_name = "..".into();
                current = Some(entries.1);
                continue;
            }
            let child = entries.0.get(&part).copied();
            parent = dir;
            last_name = part;
            match child {
                Some(ino) => {
                    let is_last = pending.is_empty();
                    if let NodeKind::Symlink(target) = &state.nodes[&ino].kind {
                        if !is_last || follow_last {
                            follows += 1;
                            if follows > MAX_SYMLINK_FOLLOWS {
                                return Err(FsError::TooManyLinks);
                            }
                            let mut target_parts = components_reversed(target);
                            if target.starts_with('/') {
                                current = Some(ROOT);
                            } else {
                                current = Some(dir);
                            }
                            pending.append(&mut target_parts);
                            if pending.is_empty() {
                                last_name = "/".into();
                                parent = ROOT;
                            }
                            continue;
                        }
                    }
                    current = Some(ino);
                }
                None => {
                    if !pending.is_empty() {
                        return Err(FsError::NotFound);
                    }
                    current = None;
                }
            }
        }
        let _ = dir;
        Ok(Lookup { parent, name: last_name, node: current })
    }

    fn resolve(&self, path: &str, follow_last: bool) -> FsResult<u64> {
        self.lookup(path, follow_last)?.node.ok_or(FsError::NotFound)
    }

    fn metadata_of(&self, ino: u64) -> Metadata {
        let state = self.state.borrow();
        let node = &state.nodes[&ino];
        let size = match &node.kind {
            NodeKind::File(bytes) => bytes.len() as u64,
            NodeKind::Directory { .. } => 4096,
            NodeKind::Symlink(target) => target.len() as u64,
            NodeKind::Device(_) => 0,
        };
        Metadata {
            file_type: node.file_type(),
            mode: node.mode,
            size,
            nlink: node.nlink,
            uid: node.uid,
            gid: node.gid,
            ino,
            dev: DEVICE_ID,
            atime: node.atime,
            mtime: node.mtime,
            ctime: node.ctime,
        }
    }

    fn insert_node(&self, parent: u64, name: &str, kind: NodeKind, mode: u32) -> FsResult<u64> {
        if name == "." || name == ".." || name == "/" {
            return Err(FsError::AlreadyExists);
        }
        let now = self.now();
        let mut state = self.state.borrow_mut();
        let ino = state.next_ino;
        state.next_ino += 1;
        let is_dir = matches!(kind, NodeKind::Directory { .. });
        let (uid, gid) = (state.uid, state.gid);
        state.nodes.insert(
            ino,
            Node { kind, mode: mode & 0o7777, uid, gid, nlink: if is_dir { 2 } else { 1 }, atime: now, mtime: now, ctime: now },
        );
        let parent_node = state.nodes.get_mut(&parent).ok_or(FsError::NotFound)?;
        if let NodeKind::Directory { entries, .. } = &mut parent_node.kind {
            entries.insert(name.to_string(), ino);
        } else {
            return Err(FsError::NotADirectory);
        }
        parent_node.mtime = now;
        parent_node.ctime = now;
        if is_dir {
            parent_node.nlink += 1;
        }
        Ok(ino)
    }

    fn detach(&self, parent: u64, name: &str) {
        let now = self.now();
        let mut state = self.state.borrow_mut();
        let mut removed = None;
        if let Some(parent_node) = state.nodes.get_mut(&parent) {
            if let NodeKind::Directory { entries, .. } = &mut parent_node.kind {
                removed = entries.remove(name);
            }
            parent_node.mtime = now;
            parent_node.ctime = now;
        }
        let Some(ino) = removed else { return };
        let is_dir = matches!(state.nodes.get(&ino).map(|n| &n.kind), Some(NodeKind::Directory { .. }));
        if is_dir {
            if let Some(parent_node) = state.nodes.get_mut(&parent) {
                parent_node.nlink = parent_node.nlink.saturating_sub(1);
            }
            state.nodes.remove(&ino);
        } else if let Some(node) = state.nodes.get_mut(&ino) {
            node.nlink = node.nlink.saturating_sub(1);
            node.ctime = now;
            // An unlinked file lives on while open handles hold its inode number;
            // with no names left its bytes are reclaimed here.
            if node.nlink == 0 {
                state.nodes.remove(&ino);
            }
        }
    }

    fn next_random(&self) -> u64 {
        let mut state = self.state.borrow_mut();
        // xorshift64*: fast, seeded by the host, good enough for /dev/urandom.
        let mut x = state.random_state;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        state.random_state = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

fn components_reversed(path: &str) -> Vec<String> {
    path.split('/').filter(|c| !c.is_empty()).rev().map(str::to_string).collect()
}

/// An open in-memory file.
struct MemoryHandle {
    fs: MemoryFs,
    ino: u64,
    options: OpenOptions,
}

#[async_trait(?Send)]
impl FileHandle for MemoryHandle {
    async fn read_at(&self, offset: u64, len: usize) -> FsResult<Vec<u8>> {
        if !self.options.read {
            return Err(FsError::BadDescriptor);
        }
        let device = {
            let state = self.fs.state.borrow();
            let node = state.nodes.get(&self.ino).ok_or(FsError::NotFound)?;
            match &node.kind {
                NodeKind::File(bytes) => {
                    let start = (offset as usize).min(bytes.len());
                    let end = start.saturating_add(len).min(bytes.len());
                    return Ok(bytes[start..end].to_vec());
                }
                NodeKind::Directory { .. } => return Err(FsError::IsADirectory),
                NodeKind::Symlink(_) => return Err(FsError::InvalidArgument),
                NodeKind::Device(device) => *device,
            }
        };
        let len = len.min(65536);
        Ok(match device {
            Device::Null => Vec::new(),
            Device::Zero => vec![0; len],
            Device::Random => {
                let mut out = Vec::with_capacity(len);
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
        let now = self.fs.now();
        let mut state = self.fs.state.borrow_mut();
        let node = state.nodes.get_mut(&self.ino).ok_or(FsError::NotFound)?;
        match &mut node.kind {
            NodeKind::File(bytes) => {
                let start = if self.options.append { bytes.len() } else { offset as usize };
                if start > bytes.len() {
                    bytes.resize(start, 0);
                }
                let end = start + data.len();
                if end > bytes.len() {
                    bytes.resize(end, 0);
                }
                bytes[start..end].copy_from_slice(data);
                node.mtime = now;
                node.ctime = now;
                Ok(end as u64)
            }
            NodeKind::Device(_) => Ok(offset + data.len() as u64),
            NodeKind::Directory { .. } => Err(FsError::IsADirectory),
            NodeKind::Symlink(_) => Err(FsError::InvalidArgument),
        }
    }

    async fn set_len(&self, len: u64) -> FsResult<()> {
        let now = self.fs.now();
        let mut state = self.fs.state.borrow_mut();
        let node = state.nodes.get_mut(&self.ino).ok_or(FsError::NotFound)?;
        if let NodeKind::File(bytes) = &mut node.kind {
            bytes.resize(len as usize, 0);
            node.mtime = now;
            node.ctime = now;
        }
        Ok(())
    }

    async fn metadata(&self) -> FsResult<Metadata> {
        if !self.fs.state.borrow().nodes.contains_key(&self.ino) {
            return Err(FsError::NotFound);
        }
        Ok(self.fs.metadata_of(self.ino))
    }

    fn is_append(&self) -> bool {
        self.options.append
    }
}

#[async_trait(?Send)]
impl Fs for MemoryFs {
    async fn metadata(&self, path: &str) -> FsResult<Metadata> {
        let ino = self.resolve(path, true)?;
        Ok(self.metadata_of(ino))
    }

    async fn symlink_metadata(&self, path: &str) -> FsResult<Metadata> {
        let ino = self.resolve(path, false)?;
        Ok(self.metadata_of(ino))
    }

    async fn open(&self, path: &str, options: OpenOptions) -> FsResult<Rc<dyn FileHandle>> {
        let lookup = self.lookup(path, true)?;
        let ino = match lookup.node {
            Some(ino) => {
                if options.create && options.exclusive {
                    return Err(FsError::AlreadyExists);
                }
                let mut state = self.state.borrow_mut();
                let node = state.nodes.get_mut(&ino).ok_or(FsError::NotFound)?;
                match &mut node.kind {
                    NodeKind::Directory { .. } if options.write => return Err(FsError::IsADirectory),
                    NodeKind::File(bytes) if options.truncate && options.write => {
                        if !bytes.is_empty() {
                            bytes.clear();
                            let now = self.host.now_millis();
                            node.mtime = now;
                            node.ctime = now;
                        }
                    }
                    _ => {}
                }
                ino
            }
            None if options.create => {
                if path.ends_with('/') {
                    return Err(FsError::IsADirectory);
                }
                self.insert_node(lookup.parent, &lookup.name, NodeKind::File(Vec::new()), options.mode)?
            }
            None => return Err(FsError::NotFound),
        };
        Ok(Rc::new(MemoryHandle { fs: self.clone(), ino, options }))
    }

    async fn read_dir(&self, path: &str) -> FsResult<Vec<DirEntry>> {
        let ino = self.resolve(path, true)?;
        let state = self.state.borrow();
        match &state.nodes[&ino].kind {
            NodeKind::Directory { entries, .. } => Ok(entries
                .iter()
                .map(|(name, child)| DirEntry { name: name.clone(), file_type: state.nodes[child].file_type(), ino: *child })
                .collect()),
            _ => Err(FsError::NotADirectory),
        }
    }

    async fn create_dir(&self, path: &str, mode: u32) -> FsResult<()> {
        let lookup = self.lookup(path, false)?;
        if lookup.node.is_some() {
            return Err(FsError::AlreadyExists);
        }
        self.insert_node(lookup.parent, &lookup.name, NodeKind::Directory { entries: BTreeMap::new(), parent: lookup.parent }, mode)?;
        Ok(())
    }

    async fn remove_file(&self, path: &str) -> FsResult<()> {
        let lookup = self.lookup(path, false)?;
        let ino = lookup.node.ok_or(FsError::NotFound)?;
        if matches!(self.state.borrow().nodes[&ino].kind, NodeKind::Directory { .. }) {
            return Err(FsError::IsADirectory);
        }
        self.detach(lookup.parent, &lookup.name);
        Ok(())
    }

    async fn remove_dir(&self, path: &str) -> FsResult<()> {
        let lookup = self.lookup(path, false)?;
        let ino = lookup.node.ok_or(FsError::NotFound)?;
        if ino == ROOT {
            return Err(FsError::Busy);
        }
        if lookup.name == "." {
            return Err(FsError::InvalidArgument);
        }
        match &self.state.borrow().nodes[&ino].kind {
            NodeKind::Directory { entries, .. } if !entries.is_empty() => return Err(FsError::DirectoryNotEmpty),
            NodeKind::Directory { .. } => {}
            _ => return Err(FsError::NotADirectory),
        }
        self.detach(lookup.parent, &lookup.name);
        Ok(())
    }

    async fn rename(&self, from: &str, to: &str) -> FsResult<()> {
        let source = self.lookup(from, false)?;
        let source_ino = source.node.ok_or(FsError::NotFound)?;
        let target = self.lookup(to, false)?;
        if target.node == Some(source_ino) {
            return Ok(());
        }
        let source_is_dir = self.metadata_of(source_ino).is_dir();
        // A directory may not move into itself or its own subtree.
        if source_is_dir {
            let state = self.state.borrow();
            let mut walk = target.parent;
            loop {
                if walk == source_ino {
                    return Err(FsError::InvalidArgument);
                }
                match &state.nodes[&walk].kind {
                    NodeKind::Directory { parent, .. } if *parent != walk => walk = *parent,
                    _ => break,
                }
            }
        }
        if let Some(existing) = target.node {
            let existing_meta = self.metadata_of(existing);
            match (source_is_dir, existing_meta.is_dir()) {
                (true, false) => return Err(FsError::NotADirectory),
                (false, true) => return Err(FsError::IsADirectory),
                (true, true) => {
                    if let NodeKind::Directory { entries, .. } = &self.state.borrow().nodes[&existing].kind {
                        if !entries.is_empty() {
                            return Err(FsError::DirectoryNotEmpty);
                        }
                    }
                }
                (false, false) => {}
            }
            self.detach(target.parent, &target.name);
        }
        let now = self.now();
        let mut state = self.state.borrow_mut();
        if let Some(NodeKind::Directory { entries, .. }) = state.nodes.get_mut(&source.parent).map(|n| &mut n.kind) {
            entries.remove(&source.name);
        }
        if let Some(NodeKind::Directory { entries, .. }) = state.nodes.get_mut(&target.parent).map(|n| &mut n.kind) {
            entries.insert(target.name.clone(), source_ino);
        }
        if source_is_dir {
            if let Some(NodeKind::Directory { parent, .. }) = state.nodes.get_mut(&source_ino).map(|n| &mut n.kind) {
                *parent = target.parent;
            }
            if source.parent != target.parent {
                if let Some(n) = state.nodes.get_mut(&source.parent) {
                    n.nlink = n.nlink.saturating_sub(1);
                }
                if let Some(n) = state.nodes.get_mut(&target.parent) {
                    n.nlink += 1;
                }
            }
        }
        for ino in [source.parent, target.parent] {
            if let Some(n) = state.nodes.get_mut(&ino) {
                n.mtime = now;
                n.ctime = now;
            }
        }
        if let Some(n) = state.nodes.get_mut(&source_ino) {
            n.ctime = now;
        }
        Ok(())
    }

    async fn symlink(&self, target: &str, link: &str) -> FsResult<()> {
        validate(target)?;
        let lookup = self.lookup(link, false)?;
        if lookup.node.is_some() {
            return Err(FsError::AlreadyExists);
        }
        self.insert_node(lookup.parent, &lookup.name, NodeKind::Symlink(target.to_string()), 0o777)?;
        Ok(())
    }

    async fn hard_link(&self, existing: &str, new: &str) -> FsResult<()> {
        let ino = self.resolve(existing, false)?;
        if self.metadata_of(ino).is_dir() {
            return Err(FsError::NotPermitted);
        }
        let lookup = self.lookup(new, false)?;
        if lookup.node.is_some() {
            return Err(FsError::AlreadyExists);
        }
        let now = self.now();
        let mut state = self.state.borrow_mut();
        if let Some(NodeKind::Directory { entries, .. }) = state.nodes.get_mut(&lookup.parent).map(|n| &mut n.kind) {
            entries.insert(lookup.name.clone(), ino);
        } else {
            return Err(FsError::NotADirectory);
        }
        if let Some(node) = state.nodes.get_mut(&ino) {
            node.nlink += 1;
            node.ctime = now;
        }
        Ok(())
    }

    async fn read_link(&self, path: &str) -> FsResult<String> {
        let ino = self.resolve(path, false)?;
        match &self.state.borrow().nodes[&ino].kind {
            NodeKind::Symlink(target) => Ok(target.clone()),
            _ => Err(FsError::InvalidArgument),
        }
    }

    async fn set_mode(&self, path: &str, mode: u32) -> FsResult<()> {
        let ino = self.resolve(path, true)?;
        let now = self.now();
        let mut state = self.state.borrow_mut();
        let node = state.nodes.get_mut(&ino).ok_or(FsError::NotFound)?;
        node.mode = mode & 0o7777;
        node.ctime = now;
        Ok(())
    }

    async fn set_owner(&self, path: &str, uid: Option<u32>, gid: Option<u32>) -> FsResult<()> {
        let ino = self.resolve(path, true)?;
        let now = self.now();
        let mut state = self.state.borrow_mut();
        let node = state.nodes.get_mut(&ino).ok_or(FsError::NotFound)?;
        if let Some(uid) = uid {
            node.uid = uid;
        }
        if let Some(gid) = gid {
            node.gid = gid;
        }
        node.ctime = now;
        Ok(())
    }

    async fn set_times(&self, path: &str, atime: Option<f64>, mtime: Option<f64>) -> FsResult<()> {
        let ino = self.resolve(path, true)?;
        let now = self.now();
        let mut state = self.state.borrow_mut();
        let node = state.nodes.get_mut(&ino).ok_or(FsError::NotFound)?;
        if let Some(atime) = atime {
            node.atime = atime;
        }
        if let Some(mtime) = mtime {
            node.mtime = mtime;
        }
        node.ctime = now;
        Ok(())
    }
}
