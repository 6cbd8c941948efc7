//! Deltas: what changed in the tree since the last one was taken, in the
//! snapshot's node encoding, so a host can keep its own copy of the tree up
//! to date at a cost proportional to the change, and rebuild the tree from
//! that copy after the engine crashed ([`MemoryFs::restore_records`]).
//!
//! Tracking starts with the first [`MemoryFs::take_delta`], which returns
//! every node (a full delta); later ones return the nodes whose contents or
//! entries changed (whole records), those whose attributes alone changed
//! (record heads: the first [`RECORD_HEAD_LEN`] bytes of a record), and the
//! inode numbers freed. A node created and freed between two deltas appears
//! in neither.

use super::node::{Node, State, ROOT};
use super::snapshot::encode_node;
use super::MemoryFs;
use std::collections::HashSet;

/// Bytes at the start of every node record that hold its inode number,
/// kind, mode, owner and times (the part an attribute change rewrites).
pub const RECORD_HEAD_LEN: usize = 8 + 1 + 3 * 4 + 3 * 8;

/// What changed since the last delta.
#[derive(Debug, Default)]
pub(crate) struct Tracking {
    /// Nodes whose contents, entries or kind changed.
    content: HashSet<u64>,
    /// Nodes whose attributes alone changed.
    attrs: HashSet<u64>,
    /// Nodes created since the last delta.
    new: HashSet<u64>,
    /// Nodes that existed at the last delta and are gone.
    gone: HashSet<u64>,
    /// The whole tree was replaced: the next delta is a full one.
    replaced: bool,
}

impl Tracking {
    pub fn changed(&mut self, ino: u64) {
        self.content.insert(ino);
    }

    pub fn attrs_changed(&mut self, ino: u64) {
        self.attrs.insert(ino);
    }

    pub fn born(&mut self, ino: u64) {
        self.new.insert(ino);
        self.content.insert(ino);
    }

    pub fn freed(&mut self, ino: u64) {
        self.content.remove(&ino);
        self.attrs.remove(&ino);
        if !self.new.remove(&ino) {
            self.gone.insert(ino);
        }
    }

    /// Marks the whole tree as replaced (after a restore).
    pub fn replace_all(&mut self) {
        *self = Tracking { replaced: true, ..Tracking::default() };
    }
}

/// The changes between two deltas.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Delta {
    /// True when this delta holds every node and the host must drop its
    /// copy first (the first delta, or the first after a restore).
    pub full: bool,
    /// Whole node records, one after another.
    pub records: Vec<u8>,
    /// The length of each record in `records`.
    pub record_lengths: Vec<u32>,
    /// Record heads of nodes whose attributes alone changed.
    pub heads: Vec<u8>,
    /// Inode numbers of nodes that no longer exist.
    pub freed: Vec<u64>,
}

impl Delta {
    /// True when nothing changed.
    pub fn is_empty(&self) -> bool {
        !self.full && self.record_lengths.is_empty() && self.heads.is_empty() && self.freed.is_empty()
    }
}

/// True for a node the tree holds by a name (unlinked files that open
/// handles still use are not part of it).
fn in_tree(node: &Node) -> bool {
    node.is_dir() || node.nlink > 0
}

fn push_record(delta: &mut Delta, ino: u64, node: &Node) {
    let start = delta.records.len();
    encode_node(&mut delta.records, ino, node);
    delta.record_lengths.push((delta.records.len() - start) as u32);
}

impl MemoryFs {
    /// What changed since the last call (everything on the first call),
    /// and tracking from now on.
    pub fn take_delta(&self) -> Delta {
        let mut guard = self.state.borrow_mut();
        let state: &mut State = &mut guard;
        let tracking = state.tracking.take();
        state.tracking = Some(Tracking::default());
        let mut delta = Delta::default();
        match tracking {
            None => full_delta(state, &mut delta),
            Some(tracking) if tracking.replaced => full_delta(state, &mut delta),
            Some(tracking) => {
                let mut content: Vec<u64> = tracking.content.into_iter().collect();
                content.sort_unstable();
                for ino in content {
                    match state.nodes.get(&ino) {
                        Some(node) if in_tree(node) => push_record(&mut delta, ino, node),
                        // An unlinked file still open: gone from the tree.
                        Some(_) if !tracking.new.contains(&ino) => delta.freed.push(ino),
                        _ => {}
                    }
                }
                let mut attrs: Vec<u64> = tracking.attrs.into_iter().filter(|ino| !tracking.new.contains(ino)).collect();
                attrs.sort_unstable();
                for ino in attrs {
                    let Some(node) = state.nodes.get(&ino) else { continue };
                    if !in_tree(node) {
                        delta.freed.push(ino);
                        continue;
                    }
                    let mut record = Vec::with_capacity(RECORD_HEAD_LEN + 16);
                    encode_node(&mut record, ino, node);
                    delta.heads.extend_from_slice(record.get(..RECORD_HEAD_LEN).unwrap_or(&record));
                }
                delta.freed.extend(tracking.gone);
                delta.freed.sort_unstable();
                delta.freed.dedup();
            }
        }
        delta
    }
}

/// Every node of the tree, `/` first.
fn full_delta(state: &State, delta: &mut Delta) {
    delta.full = true;
    if let Some(root) = state.nodes.get(&ROOT) {
        push_record(delta, ROOT, root);
    }
    let mut inos: Vec<u64> = state.nodes.iter().filter(|(ino, node)| **ino != ROOT && in_tree(node)).map(|(ino, _)| *ino).collect();
    inos.sort_unstable();
    for ino in inos {
        if let Some(node) = state.nodes.get(&ino) {
            push_record(delta, ino, node);
        }
    }
}
