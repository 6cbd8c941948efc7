//! Snapshots (the whole tree as bytes, restored later) and change tracking.

mod fs_support;

use fs_support::*;
use wabash::executor::block_on;
use wabash::fs::memory::FsLimits;
use wabash::fs::{Credentials, Fs, FsError, MemoryFs, OpenOptions};

fn sample() -> MemoryFs {
    let fs = user_fs();
    block_on(fs.create_dir("/home/user/dir", 0o750)).unwrap();
    write(&fs, "/home/user/dir/a.txt", b"alpha\n").unwrap();
    write(&fs, "/home/user/bin.dat", &[0, 159, 255, 10]).unwrap();
    block_on(fs.hard_link("/home/user/dir/a.txt", "/tmp/a-link")).unwrap();
    block_on(fs.symlink("../user/dir/a.txt", "/home/user/sym")).unwrap();
    block_on(fs.set_mode("/home/user/bin.dat", 0o600)).unwrap();
    block_on(fs.set_times("/home/user/bin.dat", Some(123.0), Some(456.0))).unwrap();
    let root = fs.with_credentials(Credentials::ROOT);
    root.create_device("/null", wabash::fs::memory::Device::Null).unwrap();
    fs
}

/// Every path with its metadata (inode numbers included) and contents.
fn listing(fs: &MemoryFs) -> Vec<(String, wabash::fs::Metadata, Vec<u8>)> {
    let root = fs.with_credentials(Credentials::ROOT);
    let mut out = Vec::new();
    let mut stack = vec!["/".to_string()];
    while let Some(dir) = stack.pop() {
        for entry in block_on(root.read_dir(&dir)).unwrap() {
            let path = if dir == "/" { format!("/{}", entry.name) } else { format!("{dir}/{}", entry.name) };
            // Contents first: reading refreshes the access time.
            let contents = if entry.file_type == wabash::fs::FileType::File { read(&root, &path).unwrap() } else { Vec::new() };
            let meta = block_on(root.symlink_metadata(&path)).unwrap();
            if meta.is_dir() {
                stack.push(path.clone());
            }
            out.push((path, meta, contents));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

#[test]
fn a_snapshot_restores_the_same_tree() {
    let fs = sample();
    let before = listing(&fs);
    let bytes = fs.snapshot();
    assert_eq!(&bytes[..8], b"WABASHFS");
    let usage = fs.usage();
    let copy = user_fs();
    copy.restore(&bytes).unwrap();
    assert_eq!(listing(&copy), before);
    assert_eq!(copy.usage(), usage);
    assert_eq!(copy.snapshot(), bytes);
    // Hard links stay links.
    write(&copy, "/tmp/a-link", b"changed").unwrap();
    assert_eq!(read(&copy, "/home/user/dir/a.txt").unwrap(), b"changed");
    // New nodes do not reuse restored inode numbers.
    write(&copy, "/tmp/new", b"").unwrap();
    let new_ino = block_on(copy.metadata("/tmp/new")).unwrap().ino;
    assert!(before.iter().all(|(_, meta, _)| meta.ino != new_ino));
}

#[test]
fn every_truncation_and_corruption_is_rejected_and_leaves_the_tree() {
    let fs = sample();
    let bytes = fs.snapshot();
    let target = user_fs();
    write(&target, "/tmp/keep", b"kept").unwrap();
    for len in 0..bytes.len() {
        assert_eq!(target.restore(&bytes[..len]), Err(FsError::InvalidArgument), "truncated to {len}");
    }
    for index in (0..bytes.len()).step_by(3) {
        let mut corrupt = bytes.clone();
        corrupt[index] ^= 0x41;
        assert!(target.restore(&corrupt).is_err(), "flipped byte {index}");
    }
    assert_eq!(read(&target, "/tmp/keep").unwrap(), b"kept");
}

/// Builds snapshot bytes with a valid checksum around a hand-made body.
fn sealed(body: &[u8]) -> Vec<u8> {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for byte in body {
        hash = (hash ^ u64::from(*byte)).wrapping_mul(0x0100_0000_01b3);
    }
    let mut out = body.to_vec();
    out.extend_from_slice(&hash.to_le_bytes());
    out
}

fn node_header(out: &mut Vec<u8>, ino: u64, kind: u8) {
    out.extend_from_slice(&ino.to_le_bytes());
    out.push(kind);
    for value in [0o755u32, 0, 0] {
        out.extend_from_slice(&value.to_le_bytes());
    }
    for _ in 0..3 {
        out.extend_from_slice(&0f64.to_le_bytes());
    }
}

fn directory(out: &mut Vec<u8>, ino: u64, entries: &[(&str, u64)]) {
    node_header(out, ino, 1);
    out.extend_from_slice(&(entries.len() as u32).to_le_bytes());
    for (name, child) in entries {
        out.extend_from_slice(&(name.len() as u16).to_le_bytes());
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(&child.to_le_bytes());
    }
}

fn snapshot_of(dirs: &[(u64, Vec<(&str, u64)>)]) -> Vec<u8> {
    let mut body = b"WABASHFS".to_vec();
    body.extend_from_slice(&1u32.to_le_bytes());
    body.extend_from_slice(&(dirs.len() as u64).to_le_bytes());
    for (ino, entries) in dirs {
        directory(&mut body, *ino, entries);
    }
    sealed(&body)
}

#[test]
fn well_sealed_but_malformed_trees_are_rejected() {
    let fs = user_fs();
    assert_eq!(fs.restore(&snapshot_of(&[(1, vec![("a", 2)]), (2, vec![])])), Ok(()));
    // A directory with two parents, a cycle off the tree, a missing child,
    // a bad name, the root as a child, an unnamed node.
    for bad in [
        snapshot_of(&[(1, vec![("a", 2), ("b", 2)]), (2, vec![])]),
        snapshot_of(&[(1, vec![]), (2, vec![("x", 3)]), (3, vec![("y", 2)])]),
        snapshot_of(&[(1, vec![("a", 9)])]),
        snapshot_of(&[(1, vec![("a/b", 2)]), (2, vec![])]),
        snapshot_of(&[(1, vec![("..", 2)]), (2, vec![])]),
        snapshot_of(&[(1, vec![("a", 2)]), (2, vec![("up", 1)])]),
        snapshot_of(&[(1, vec![]), (2, vec![])]),
        snapshot_of(&[(2, vec![])]),
    ] {
        assert_eq!(fs.restore(&bad), Err(FsError::InvalidArgument));
    }
    let mut wrong_version = b"WABASHFS".to_vec();
    wrong_version.extend_from_slice(&2u32.to_le_bytes());
    wrong_version.extend_from_slice(&0u64.to_le_bytes());
    assert_eq!(fs.restore(&sealed(&wrong_version)), Err(FsError::InvalidArgument));
}

#[test]
fn a_tree_over_the_quota_is_refused() {
    let fs = sample();
    let small = user_fs_with(host(), FsLimits { max_total_bytes: 4, ..FsLimits::default() });
    assert_eq!(small.restore(&fs.snapshot()), Err(FsError::NoSpace));
}

#[test]
fn handles_opened_before_a_restore_stop_working() {
    let fs = sample();
    let bytes = fs.snapshot();
    let handle = block_on(fs.open("/tmp/a-link", OpenOptions::read_only())).unwrap();
    fs.restore(&bytes).unwrap();
    assert_eq!(block_on(handle.read_at(0, 10)), Err(FsError::BadDescriptor));
}

#[test]
fn changes_since_a_checkpoint_are_reported_by_path() {
    let fs = sample();
    let checkpoint = fs.checkpoint();
    assert!(fs.changes_since(&checkpoint).is_empty());
    read(&fs, "/home/user/dir/a.txt").unwrap();
    assert!(fs.changes_since(&checkpoint).is_empty(), "reads change nothing");
    write(&fs, "/home/user/new.txt", b"n").unwrap();
    block_on(fs.create_dir("/home/user/newdir", 0o755)).unwrap();
    append(&fs, "/tmp/a-link", b"more").unwrap();
    block_on(fs.remove_file("/home/user/sym")).unwrap();
    block_on(fs.set_mode("/home/user/dir", 0o700)).unwrap();
    block_on(fs.rename("/home/user/bin.dat", "/home/user/moved.dat")).unwrap();
    let changes = fs.changes_since(&checkpoint);
    assert_eq!(changes.created, vec!["/home/user/moved.dat", "/home/user/new.txt", "/home/user/newdir"]);
    assert_eq!(changes.modified, vec!["/home/user/dir", "/home/user/dir/a.txt", "/tmp/a-link"]);
    assert_eq!(changes.deleted, vec!["/home/user/bin.dat", "/home/user/sym"]);
    let later = fs.checkpoint();
    assert!(fs.changes_since(&later).is_empty());
}

mod fuzz {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

        #[test]
        fn random_bytes_are_rejected(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
            let fs = user_fs();
            prop_assert!(fs.restore(&bytes).is_err());
        }

        /// Mutations of a real snapshot, re-sealed so the checksum passes:
        /// the decoder itself must refuse them or build a sound tree.
        #[test]
        fn resealed_mutations_never_break_the_tree(edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..6)) {
            let bytes = sample().snapshot();
            let mut body = bytes[..bytes.len() - 8].to_vec();
            for (index, value) in edits {
                let at = index.index(body.len());
                body[at] = value;
            }
            let fs = user_fs();
            if fs.restore(&sealed(&body)).is_ok() {
                // Whatever was accepted is a tree that lists, reads and snapshots again.
                let listed = listing(&fs);
                let again = user_fs();
                again.restore(&fs.snapshot()).unwrap();
                prop_assert_eq!(listing(&again).len(), listed.len());
            }
        }
    }
}
