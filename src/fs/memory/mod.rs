//! The in-memory filesystem: an inode table of directories, files, symlinks
//! and devices, walked physically (symlinks followed up to Linux's limit of
//! 40, `..` taken along the real parent chain), with Linux permission
//! checks for the view's user, quotas, and host-clock timestamps.
//!
//! A [`MemoryFs`] is a view of a shared tree: cloning it, or asking for
//! [`MemoryFs::with_credentials`], gives another view of the same tree.

mod attrs;
mod changes;
mod delta;
mod entries;
mod handle;
mod lookup;
mod node;
mod ops;
pub mod quota;
mod rename;
mod snapshot;

pub use changes::{Changes, Checkpoint};
pub use delta::{Delta, RECORD_HEAD_LEN};
pub use node::Device;
pub use quota::{FsLimits, Usage};

use super::perm::{Access, Credentials};
use super::{FsError, FsResult, Metadata};
use crate::host::Host;
use node::{Node, NodeKind, NodeMap, State, ROOT};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

/// The device number of the in-memory filesystem.
const DEVICE_ID: u64 = 0x2a;
/// Symlinks followed in one lookup before ELOOP, as Linux.
pub(crate) const MAX_SYMLINK_FOLLOWS: usize = 40;
/// Access times older than this are refreshed on read even when newer than
/// the modification time (Linux `relatime`).
const RELATIME_WINDOW_MS: f64 = 24.0 * 3600.0 * 1000.0;

/// The in-memory filesystem. Cloning shares the same tree and user.
#[derive(Clone)]
pub struct MemoryFs {
    state: Rc<RefCell<State>>,
    host: Rc<dyn Host>,
    user: Credentials,
}

impl std::fmt::Debug for MemoryFs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MemoryFs").field("nodes", &self.state.borrow().nodes.len()).field("user", &self.user).finish()
    }
}

impl MemoryFs {
    /// An empty filesystem (just `/`, owned by root, mode 0755) whose
    /// operations run as `uid`/`gid`, timed by `host`, with default limits.
    pub fn new(host: Rc<dyn Host>, uid: u32, gid: u32) -> Self {
        Self::with_limits(host, Credentials { uid, gid }, FsLimits::default())
    }

    /// An empty filesystem with the given user and limits.
    pub fn with_limits(host: Rc<dyn Host>, user: Credentials, limits: FsLimits) -> Self {
        let now = host.now_millis();
        let mut nodes = NodeMap::default();
        nodes.insert(ROOT, root_node(now));
        let random_state = host.random_seed() | 1;
        let state = State {
            nodes,
            next_ino: ROOT + 1,
            limits,
            usage: Usage::default(),
            random_state,
            generation: 0,
            epoch: 0,
            open: Default::default(),
            orphans: Vec::new(),
            tracking: None,
        };
        MemoryFs { state: Rc::new(RefCell::new(state)), host, user }
    }

    /// Another view of the same tree whose operations run as `user`
    /// (`Credentials::ROOT` to build the layout or copy up overlay files).
    pub fn with_credentials(&self, user: Credentials) -> MemoryFs {
        MemoryFs { state: self.state.clone(), host: self.host.clone(), user }
    }

    /// The user this view's operations run as.
    pub fn credentials(&self) -> Credentials {
        self.user
    }

    /// The limits in force.
    pub fn limits(&self) -> FsLimits {
        self.state.borrow().limits
    }

    /// Changes the limits; usage already over a new limit stays, but nothing
    /// more may be added until it is back under.
    pub fn set_limits(&self, limits: FsLimits) {
        self.state.borrow_mut().limits = limits;
    }

    /// What the tree uses now (files freed when their last handle closes
    /// count until then, as on Linux).
    pub fn usage(&self) -> Usage {
        let mut state = self.state.borrow_mut();
        state.sweep_orphans();
        state.usage
    }

    /// The number of live inodes, including `/` and open unlinked files.
    pub fn inode_count(&self) -> usize {
        self.state.borrow().nodes.len()
    }

    /// Creates a character device node at `path` (used to build `/dev`).
    pub fn create_device(&self, path: &str, device: Device) -> FsResult<()> {
        self.create_node(path, NodeKind::Device(device), 0o666).map(|_| ())
    }

    fn now(&self) -> f64 {
        self.host.now_millis()
    }

    /// Metadata of a live inode.
    fn metadata_of(state: &State, ino: u64) -> FsResult<Metadata> {
        let node = state.node(ino)?;
        let size = match &node.kind {
            NodeKind::File(bytes) => bytes.len() as u64,
            NodeKind::Directory { .. } => 4096,
            NodeKind::Symlink(target) => target.len() as u64,
            NodeKind::Device(_) => 0,
        };
        Ok(Metadata {
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
        })
    }

    /// Checks `access` on a node for this view's user.
    fn check(&self, node: &Node, access: Access) -> FsResult<()> {
        if self.user.allows(access, node.mode, node.uid, node.gid, node.is_dir()) {
            Ok(())
        } else {
            Err(FsError::PermissionDenied)
        }
    }

    /// Refreshes an access time as Linux `relatime` does.
    fn touch_atime(node: &mut Node, now: f64) {
        if node.atime <= node.mtime || node.atime <= node.ctime || now - node.atime >= RELATIME_WINDOW_MS {
            node.atime = now;
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

/// A fresh `/`.
fn root_node(now: f64) -> Node {
    Node {
        kind: NodeKind::Directory { entries: BTreeMap::new(), parent: ROOT },
        mode: 0o755,
        uid: 0,
        gid: 0,
        nlink: 2,
        atime: now,
        mtime: now,
        ctime: now,
        changed: 0,
    }
}
