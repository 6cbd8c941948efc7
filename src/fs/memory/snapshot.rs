//! Snapshots: the whole tree as bytes, and back.
//!
//! The format is versioned and self-describing, little-endian throughout:
//!
//! ```text
//! magic "WABASHFS"  version u32 (1)  node count u64
//! per node: ino u64, kind u8 (0 file, 1 directory, 2 symlink, 3 device),
//!           mode u32, uid u32, gid u32, atime f64, mtime f64, ctime f64, then
//!   file:      length u64, bytes
//!   directory: entry count u32, per entry: name length u16, name, ino u64
//!   symlink:   length u32, target
//!   device:    u8 (0 null, 1 zero, 2 random, 3 full)
//! checksum u64 (FNV-1a of everything before it)
//! ```
//!
//! The first node is `/`. A node named by several entries is a hard link.
//! [`MemoryFs::restore`] checks everything (bounds, names, that directories
//! form one tree, quotas) before it replaces the tree; bad input is an
//! error, never a panic.

use super::node::{Device, Node, NodeKind, NodeMap, ROOT};
use super::quota::Usage;
use super::MemoryFs;
use crate::fs::path::MAX_COMPONENT_LEN;
use crate::fs::{FsError, FsResult};
use std::collections::{BTreeMap, HashMap};

const MAGIC: &[u8; 8] = b"WABASHFS";
const VERSION: u32 = 1;

fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for byte in bytes {
        hash = (hash ^ u64::from(*byte)).wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

/// A bounds-checked reader over snapshot bytes.
struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, len: usize) -> FsResult<&'a [u8]> {
        let end = self.pos.checked_add(len).ok_or(FsError::InvalidArgument)?;
        let out = self.bytes.get(self.pos..end).ok_or(FsError::InvalidArgument)?;
        self.pos = end;
        Ok(out)
    }

    fn array<const N: usize>(&mut self) -> FsResult<[u8; N]> {
        self.take(N)?.try_into().map_err(|_| FsError::InvalidArgument)
    }

    fn u8(&mut self) -> FsResult<u8> {
        Ok(self.array::<1>()?[0])
    }

    fn u16(&mut self) -> FsResult<u16> {
        Ok(u16::from_le_bytes(self.array()?))
    }

    fn u32(&mut self) -> FsResult<u32> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    fn u64(&mut self) -> FsResult<u64> {
        Ok(u64::from_le_bytes(self.array()?))
    }

    fn f64(&mut self) -> FsResult<f64> {
        Ok(f64::from_le_bytes(self.array()?))
    }

    fn len(&mut self, len: u64) -> FsResult<&'a [u8]> {
        self.take(usize::try_from(len).map_err(|_| FsError::InvalidArgument)?)
    }
}

/// Appends one node record (see the module documentation).
pub(super) fn encode_node(out: &mut Vec<u8>, ino: u64, node: &Node) {
    out.extend_from_slice(&ino.to_le_bytes());
    let kind = match node.kind {
        NodeKind::File(_) => 0u8,
        NodeKind::Directory { .. } => 1,
        NodeKind::Symlink(_) => 2,
        NodeKind::Device(_) => 3,
    };
    out.push(kind);
    for value in [node.mode, node.uid, node.gid] {
        out.extend_from_slice(&value.to_le_bytes());
    }
    for time in [node.atime, node.mtime, node.ctime] {
        out.extend_from_slice(&time.to_le_bytes());
    }
    match &node.kind {
        NodeKind::File(bytes) => {
            out.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
            out.extend_from_slice(bytes);
        }
        NodeKind::Directory { entries, .. } => {
            out.extend_from_slice(&(entries.len() as u32).to_le_bytes());
            for (name, child) in entries {
                out.extend_from_slice(&(name.len() as u16).to_le_bytes());
                out.extend_from_slice(name.as_bytes());
                out.extend_from_slice(&child.to_le_bytes());
            }
        }
        NodeKind::Symlink(target) => {
            out.extend_from_slice(&(target.len() as u32).to_le_bytes());
            out.extend_from_slice(target.as_bytes());
        }
        NodeKind::Device(device) => out.push(match device {
            Device::Null => 0,
            Device::Zero => 1,
            Device::Random => 2,
            Device::Full => 3,
        }),
    }
}

fn decode_node(reader: &mut Reader<'_>) -> FsResult<(u64, Node)> {
    let ino = reader.u64()?;
    let kind_tag = reader.u8()?;
    let (mode, uid, gid) = (reader.u32()?, reader.u32()?, reader.u32()?);
    let (atime, mtime, ctime) = (reader.f64()?, reader.f64()?, reader.f64()?);
    if mode & !0o7777 != 0 || ![atime, mtime, ctime].iter().all(|t| t.is_finite()) {
        return Err(FsError::InvalidArgument);
    }
    let kind = match kind_tag {
        0 => {
            let len = reader.u64()?;
            NodeKind::File(reader.len(len)?.to_vec())
        }
        1 => {
            let count = reader.u32()?;
            let mut entries = BTreeMap::new();
            for _ in 0..count {
                let len = reader.u16()?;
                let name = std::str::from_utf8(reader.len(u64::from(len))?).map_err(|_| FsError::InvalidArgument)?;
                let valid =
                    !name.is_empty() && name.len() <= MAX_COMPONENT_LEN && name != "." && name != ".." && !name.contains(['/', '\0']);
                let child = reader.u64()?;
                if !valid || entries.insert(name.to_string(), child).is_some() {
                    return Err(FsError::InvalidArgument);
                }
            }
            NodeKind::Directory { entries, parent: ROOT }
        }
        2 => {
            let len = reader.u32()?;
            let target = std::str::from_utf8(reader.len(u64::from(len))?).map_err(|_| FsError::InvalidArgument)?;
            crate::fs::path::validate(target)?;
            if target.is_empty() {
                return Err(FsError::InvalidArgument);
            }
            NodeKind::Symlink(target.to_string())
        }
        3 => NodeKind::Device(match reader.u8()? {
            0 => Device::Null,
            1 => Device::Zero,
            2 => Device::Random,
            3 => Device::Full,
            _ => return Err(FsError::InvalidArgument),
        }),
        _ => return Err(FsError::InvalidArgument),
    };
    Ok((ino, Node { kind, mode, uid, gid, nlink: 0, atime, mtime, ctime, changed: 0 }))
}

/// Drops the nodes that no directory reachable from `/` names (and any
/// entry naming a node that is missing).
fn prune_unreachable(nodes: &mut NodeMap) {
    let mut reached = std::collections::HashSet::new();
    let mut stack = vec![ROOT];
    while let Some(ino) = stack.pop() {
        if !reached.insert(ino) {
            continue;
        }
        if let Some(entries) = nodes.get(&ino).and_then(Node::entries) {
            stack.extend(entries.values().copied().filter(|child| nodes.contains_key(child)));
        }
    }
    nodes.retain(|ino, _| reached.contains(ino));
    let present: std::collections::HashSet<u64> = nodes.keys().copied().collect();
    for node in nodes.values_mut() {
        if let Some(entries) = node.entries_mut() {
            entries.retain(|_, child| present.contains(child));
        }
    }
}

/// Links decoded nodes into a tree: sets parents and link counts, and
/// checks that every directory hangs once from the tree rooted at `/` and
/// that every other node has at least one name.
fn link_tree(nodes: &mut NodeMap, max_depth: usize) -> FsResult<()> {
    let mut references: HashMap<u64, u64> = HashMap::new();
    let mut parents: Vec<(u64, u64)> = Vec::new();
    let mut stack = vec![(ROOT, 0usize)];
    let mut visited_dirs = 0usize;
    while let Some((dir, depth)) = stack.pop() {
        visited_dirs += 1;
        let entries = nodes.get(&dir).and_then(Node::entries).ok_or(FsError::InvalidArgument)?;
        for child in entries.values() {
            let child_node = nodes.get(child).ok_or(FsError::InvalidArgument)?;
            let count = references.entry(*child).or_insert(0);
            *count += 1;
            if child_node.is_dir() {
                if *count > 1 || *child == ROOT || depth + 1 > max_depth {
                    return Err(FsError::InvalidArgument);
                }
                parents.push((*child, dir));
                stack.push((*child, depth + 1));
            }
        }
    }
    let dir_count = nodes.values().filter(|node| node.is_dir()).count();
    if visited_dirs != dir_count || references.len() + 1 != nodes.len() {
        // A directory outside the tree, or a node with no name.
        return Err(FsError::InvalidArgument);
    }
    for (child, parent) in parents {
        if let Some(NodeKind::Directory { parent: slot, .. }) = nodes.get_mut(&child).map(|n| &mut n.kind) {
            *slot = parent;
        }
    }
    let subdirs: HashMap<u64, u64> = nodes
        .iter()
        .filter_map(|(ino, node)| {
            node.entries().map(|entries| (*ino, entries.values().filter(|c| nodes.get(c).is_some_and(Node::is_dir)).count() as u64))
        })
        .collect();
    for (ino, node) in nodes.iter_mut() {
        node.nlink = if node.is_dir() { 2 + subdirs.get(ino).copied().unwrap_or(0) } else { references.get(ino).copied().unwrap_or(0) };
    }
    Ok(())
}

impl MemoryFs {
    /// The whole tree as bytes (see the module documentation for the format).
    pub fn snapshot(&self) -> Vec<u8> {
        let state = self.state.borrow();
        let mut out = Vec::with_capacity(64 + state.usage.bytes as usize + state.nodes.len() * 64);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        // Only nodes reachable from `/`: unlinked files still open are not part of the tree.
        let mut order = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec![ROOT];
        while let Some(ino) = stack.pop() {
            if !seen.insert(ino) {
                continue;
            }
            order.push(ino);
            if let Some(entries) = state.nodes.get(&ino).and_then(Node::entries) {
                stack.extend(entries.values().rev().copied());
            }
        }
        out.extend_from_slice(&(order.len() as u64).to_le_bytes());
        for ino in order {
            if let Some(node) = state.nodes.get(&ino) {
                encode_node(&mut out, ino, node);
            }
        }
        let checksum = fnv1a(&out);
        out.extend_from_slice(&checksum.to_le_bytes());
        out
    }

    /// Replaces the whole tree with a snapshot. The bytes are checked first:
    /// corrupt or truncated input gives EINVAL, a tree over this
    /// filesystem's quotas gives ENOSPC, and either way the tree is left as
    /// it was. Handles opened before a successful restore stop working (EBADF).
    pub fn restore(&self, bytes: &[u8]) -> FsResult<()> {
        let body_len = bytes.len().checked_sub(8).ok_or(FsError::InvalidArgument)?;
        let (body, checksum) = bytes.split_at(body_len);
        let checksum: [u8; 8] = checksum.try_into().map_err(|_| FsError::InvalidArgument)?;
        if fnv1a(body) != u64::from_le_bytes(checksum) {
            return Err(FsError::InvalidArgument);
        }
        let mut reader = Reader { bytes: body, pos: 0 };
        if reader.take(8)? != MAGIC || reader.u32()? != VERSION {
            return Err(FsError::InvalidArgument);
        }
        let count = reader.u64()?;
        let mut nodes = NodeMap::default();
        for index in 0..count {
            let (ino, node) = decode_node(&mut reader)?;
            if ino == 0 || (index == 0) != (ino == ROOT) || nodes.insert(ino, node).is_some() {
                return Err(FsError::InvalidArgument);
            }
        }
        if reader.pos != body.len() {
            return Err(FsError::InvalidArgument);
        }
        self.install(nodes)
    }

    /// Replaces the whole tree with node records laid end to end, as a host
    /// keeps them from [`MemoryFs::take_delta`]: the same checks as
    /// [`MemoryFs::restore`], except that nodes no directory reaches are
    /// dropped rather than refused.
    pub fn restore_records(&self, bytes: &[u8]) -> FsResult<()> {
        let mut reader = Reader { bytes, pos: 0 };
        let mut nodes = NodeMap::default();
        while reader.pos < bytes.len() {
            let (ino, node) = decode_node(&mut reader)?;
            if ino == 0 || nodes.insert(ino, node).is_some() {
                return Err(FsError::InvalidArgument);
            }
        }
        prune_unreachable(&mut nodes);
        self.install(nodes)
    }

    /// Checks decoded nodes (one tree, quotas) and makes them the tree.
    fn install(&self, mut nodes: NodeMap) -> FsResult<()> {
        if !nodes.get(&ROOT).is_some_and(Node::is_dir) {
            return Err(FsError::InvalidArgument);
        }
        let limits = self.limits();
        let max_ino = nodes.keys().copied().max().unwrap_or(ROOT);
        link_tree(&mut nodes, limits.max_depth)?;
        let mut usage = Usage::default();
        for (ino, node) in &nodes {
            if *ino != ROOT {
                usage.add_node(node);
            }
            if let NodeKind::File(data) = &node.kind {
                if data.len() as u64 > limits.max_file_size {
                    return Err(FsError::FileTooLarge);
                }
            }
        }
        if usage.bytes > limits.max_total_bytes || usage.files > limits.max_files || usage.dirs > limits.max_dirs {
            return Err(FsError::NoSpace);
        }
        let next_ino = max_ino.checked_add(1).ok_or(FsError::InvalidArgument)?;
        let mut state = self.state.borrow_mut();
        state.nodes = nodes;
        state.usage = usage;
        state.next_ino = next_ino;
        state.open.clear();
        state.orphans.clear();
        state.epoch += 1;
        state.bump();
        if let Some(tracking) = &mut state.tracking {
            tracking.replace_all();
        }
        Ok(())
    }
}
