//! What `find`'s evaluation and `-printf` share: the node being visited and
//! the state the walk carries between nodes.

use crate::calendar::Zone;
use crate::commands::users::Accounts;
use crate::fs::Metadata;
use std::collections::BTreeMap;

/// The node being visited.
pub struct Node {
    /// The path as printed (`./a/x.txt`).
    pub shown: String,
    /// The absolute path.
    pub path: String,
    /// The metadata tests see (of the link itself unless following).
    pub metadata: Metadata,
    /// Depth below the starting point.
    pub depth: usize,
    /// The starting point this node was reached from.
    pub start: String,
}

impl Node {
    /// The last component of the shown path (`%f`, `-name`).
    pub fn name(&self) -> &str {
        crate::commands::file::basename::base_name(&self.shown)
    }
}

/// Commands of `-exec ... {} +`, gathered until the end of the walk.
pub struct Batch {
    /// The command words before `{}`.
    pub argv: Vec<String>,
    /// The paths gathered so far.
    pub paths: Vec<String>,
}

/// What the walk carries between nodes.
pub struct State {
    /// Output not yet written.
    pub out: String,
    /// `-prune` was true at this node.
    pub prune: bool,
    /// `-quit` was reached.
    pub quit: bool,
    /// The exit status so far.
    pub status: i32,
    /// `-exec +` batches by id.
    pub batches: BTreeMap<usize, Batch>,
    /// Now, for `-mtime` and friends.
    pub now: f64,
    /// The zone for `-printf` times.
    pub zone: Zone,
    /// Names for `-printf %u` and `-nouser`.
    pub accounts: Accounts,
    /// Standard output was closed (stop at once with 141).
    pub broken_pipe: bool,
}
