//! Who the sandbox user is and what the mode bits let them do, with Linux's
//! rules: owner bits for the owner, group bits for the group, other bits for
//! the rest, and root passing every read and write check (and search of any
//! directory, and execution of any file with some execute bit).

use super::{FileType, Metadata};

/// The user and group an operation runs as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Credentials {
    /// The user id (0 is root).
    pub uid: u32,
    /// The primary group id.
    pub gid: u32,
}

/// The kinds of access a permission check asks for, as the `R_OK`, `W_OK`
/// and `X_OK` bits of `access(2)` (combine with `|`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Access(pub u32);

impl Access {
    /// Reading a file or listing a directory.
    pub const READ: Access = Access(4);
    /// Writing a file or changing a directory's entries.
    pub const WRITE: Access = Access(2);
    /// Executing a file or searching a directory.
    pub const EXECUTE: Access = Access(1);
    /// Existence only (`F_OK`).
    pub const EXISTS: Access = Access(0);

    /// True when every bit of `other` is asked for.
    pub fn contains(self, other: Access) -> bool {
        self.0 & other.0 == other.0
    }
}

impl std::ops::BitOr for Access {
    type Output = Access;

    fn bitor(self, other: Access) -> Access {
        Access(self.0 | other.0)
    }
}

impl Credentials {
    /// The superuser.
    pub const ROOT: Credentials = Credentials { uid: 0, gid: 0 };

    /// True for the superuser.
    pub fn is_root(self) -> bool {
        self.uid == 0
    }

    /// True when the user is a member of `gid`.
    pub fn in_group(self, gid: u32) -> bool {
        self.gid == gid
    }

    /// True when a node with these mode bits and owners allows `access`.
    pub fn allows(self, access: Access, mode: u32, uid: u32, gid: u32, is_dir: bool) -> bool {
        let wanted = access.0 & 0o7;
        if self.is_root() {
            // Root reads and writes anything; it may execute a file only when
            // some execute bit is set, and search any directory.
            return wanted & 1 == 0 || is_dir || mode & 0o111 != 0;
        }
        let bits = if self.uid == uid {
            (mode >> 6) & 0o7
        } else if self.in_group(gid) {
            (mode >> 3) & 0o7
        } else {
            mode & 0o7
        };
        bits & wanted == wanted
    }

    /// [`Credentials::allows`] for a node described by its metadata.
    pub fn allows_meta(self, access: Access, meta: &Metadata) -> bool {
        self.allows(access, meta.mode, meta.uid, meta.gid, meta.file_type == FileType::Directory)
    }

    /// True when the user owns the node or is root (chmod, utimes with times).
    pub fn owns(self, uid: u32) -> bool {
        self.is_root() || self.uid == uid
    }

    /// The sticky-directory rule: in a directory with the sticky bit, only
    /// the entry's owner, the directory's owner or root may remove or rename it.
    pub fn may_unlink_in(self, dir_mode: u32, dir_uid: u32, entry_uid: u32) -> bool {
        dir_mode & 0o1000 == 0 || self.is_root() || self.uid == dir_uid || self.uid == entry_uid
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const USER: Credentials = Credentials { uid: 1000, gid: 1000 };

    #[test]
    fn owner_group_and_other_bits_are_chosen_by_identity() {
        assert!(USER.allows(Access::READ, 0o400, 1000, 0, false));
        assert!(!USER.allows(Access::WRITE, 0o400, 1000, 0, false));
        assert!(USER.allows(Access::WRITE, 0o020, 0, 1000, false));
        // The owner class decides even when other bits would allow more.
        assert!(!USER.allows(Access::READ, 0o044, 1000, 1000, false));
        assert!(USER.allows(Access::READ | Access::EXECUTE, 0o005, 0, 0, false));
    }

    #[test]
    fn root_bypasses_read_and_write_but_not_missing_execute_bits() {
        let root = Credentials::ROOT;
        assert!(root.allows(Access::READ | Access::WRITE, 0, 1000, 1000, false));
        assert!(!root.allows(Access::EXECUTE, 0o644, 1000, 1000, false));
        assert!(root.allows(Access::EXECUTE, 0o100, 1000, 1000, false));
        assert!(root.allows(Access::EXECUTE, 0, 1000, 1000, true));
    }

    #[test]
    fn sticky_directories_protect_other_users_entries() {
        assert!(!USER.may_unlink_in(0o1777, 0, 1001));
        assert!(USER.may_unlink_in(0o1777, 0, 1000));
        assert!(USER.may_unlink_in(0o0777, 0, 1001));
        assert!(Credentials::ROOT.may_unlink_in(0o1777, 5, 6));
    }
}
