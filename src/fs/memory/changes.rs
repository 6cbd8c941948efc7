//! Change tracking: a [`Checkpoint`] records which node each path held and
//! the change generation; [`MemoryFs::changes_since`] compares the tree
//! with it and reports created, modified and deleted paths.

use super::node::{NodeKind, State, ROOT};
use super::MemoryFs;
use std::collections::HashMap;

/// A point to compare the tree with later.
#[derive(Debug, Clone)]
pub struct Checkpoint {
    generation: u64,
    epoch: u64,
    paths: HashMap<String, u64>,
}

/// What changed since a checkpoint; every list is sorted.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Changes {
    /// Paths that did not exist at the checkpoint.
    pub created: Vec<String>,
    /// Paths that existed and whose contents or attributes changed, or that
    /// now name a different node (replaced by a rename).
    pub modified: Vec<String>,
    /// Paths that existed at the checkpoint and exist no more.
    pub deleted: Vec<String>,
}

impl Changes {
    /// True when nothing changed.
    pub fn is_empty(&self) -> bool {
        self.created.is_empty() && self.modified.is_empty() && self.deleted.is_empty()
    }
}

/// Every path of the tree below `/` with its inode and change generation.
fn walk_tree(state: &State, mut visit: impl FnMut(&str, u64, u64)) {
    let mut stack: Vec<(String, u64)> = vec![(String::new(), ROOT)];
    while let Some((prefix, dir)) = stack.pop() {
        let Some(node) = state.nodes.get(&dir) else {
            continue;
        };
        let NodeKind::Directory { entries, .. } = &node.kind else {
            continue;
        };
        for (name, child) in entries {
            let path = format!("{prefix}/{name}");
            let Some(child_node) = state.nodes.get(child) else {
                continue;
            };
            visit(&path, *child, child_node.changed);
            if child_node.is_dir() {
                stack.push((path, *child));
            }
        }
    }
}

impl MemoryFs {
    /// Records the current tree to compare with later.
    pub fn checkpoint(&self) -> Checkpoint {
        let state = self.state.borrow();
        let mut paths = HashMap::new();
        walk_tree(&state, |path, ino, _| {
            paths.insert(path.to_string(), ino);
        });
        Checkpoint { generation: state.generation, epoch: state.epoch, paths }
    }

    /// What changed since `checkpoint`. A directory counts as modified when
    /// its own attributes changed, not when entries came or went (those are
    /// reported by their own paths). After a [`MemoryFs::restore`] every
    /// surviving path counts as modified.
    pub fn changes_since(&self, checkpoint: &Checkpoint) -> Changes {
        let state = self.state.borrow();
        let restored = state.epoch != checkpoint.epoch;
        let mut changes = Changes::default();
        let mut seen = 0usize;
        walk_tree(&state, |path, ino, changed| match checkpoint.paths.get(path) {
            None => changes.created.push(path.to_string()),
            Some(old) => {
                seen += 1;
                if restored || *old != ino || changed > checkpoint.generation {
                    changes.modified.push(path.to_string());
                }
            }
        });
        if seen < checkpoint.paths.len() {
            let mut current = std::collections::HashSet::new();
            walk_tree(&state, |path, _, _| {
                current.insert(path.to_string());
            });
            changes.deleted = checkpoint.paths.keys().filter(|path| !current.contains(*path)).cloned().collect();
        }
        changes.created.sort();
        changes.modified.sort();
        changes.deleted.sort();
        changes
    }
}
