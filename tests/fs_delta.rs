//! Property tests of filesystem deltas: random operation sequences with a
//! delta taken at random points, applied to a host-side copy of the tree
//! the way the JS wrapper keeps one; rebuilding a filesystem from that copy
//! must give exactly the tree the operations left (same snapshot bytes).

mod fs_support;

use fs_support::*;
use proptest::prelude::*;
use std::collections::BTreeMap;
use wabash::executor::block_on;
use wabash::fs::memory::{Delta, RECORD_HEAD_LEN};
use wabash::fs::{Fs, MemoryFs, OpenOptions};

const NAMES: [&str; 3] = ["a", "b", "c"];

#[derive(Debug, Clone)]
enum Op {
    Write(String, Vec<u8>),
    Append(String, Vec<u8>),
    Mkdir(String),
    Unlink(String),
    Rmdir(String),
    Rename(String, String),
    Link(String, String),
    Symlink(String, String),
    Chmod(String, u32),
    Read(String),
    /// Opens a file, unlinks it and writes through the open handle.
    WriteUnlinked(String),
    Tick,
    Delta,
}

/// The host-side copy: inode number to its whole record.
#[derive(Default)]
struct Copy {
    records: BTreeMap<u64, Vec<u8>>,
}

impl Copy {
    fn apply(&mut self, delta: &Delta) {
        if delta.full {
            self.records.clear();
        }
        let mut at = 0usize;
        for length in &delta.record_lengths {
            let record = &delta.records[at..at + *length as usize];
            at += *length as usize;
            self.records.insert(ino_of(record), record.to_vec());
        }
        assert_eq!(at, delta.records.len());
        assert_eq!(delta.heads.len() % RECORD_HEAD_LEN, 0);
        for head in delta.heads.chunks(RECORD_HEAD_LEN) {
            let record = self.records.get_mut(&ino_of(head)).expect("a head for a node the copy holds");
            record[..RECORD_HEAD_LEN].copy_from_slice(head);
        }
        for ino in &delta.freed {
            self.records.remove(ino);
        }
    }

    fn bytes(&self) -> Vec<u8> {
        self.records.values().flatten().copied().collect()
    }
}

fn ino_of(record: &[u8]) -> u64 {
    u64::from_le_bytes(record[..8].try_into().unwrap())
}

fn run(fs: &MemoryFs, host: &wabash::host::FixedHost, copy: &mut Copy, op: &Op) {
    let _ = match op {
        Op::Write(path, data) => write(fs, path, data),
        Op::Append(path, data) => append(fs, path, data),
        Op::Mkdir(path) => block_on(fs.create_dir(path, 0o755)),
        Op::Unlink(path) => block_on(fs.remove_file(path)),
        Op::Rmdir(path) => block_on(fs.remove_dir(path)),
        Op::Rename(from, to) => block_on(fs.rename(from, to)),
        Op::Link(from, to) => block_on(fs.hard_link(from, to)),
        Op::Symlink(target, path) => block_on(fs.symlink(target, path)),
        Op::Chmod(path, mode) => block_on(fs.set_mode(path, *mode)),
        Op::Read(path) => read(fs, path).map(|_| ()),
        Op::WriteUnlinked(path) => block_on(async {
            let handle = fs.open(path, OpenOptions::write_truncate(0o644)).await?;
            fs.remove_file(path).await?;
            handle.write_at(0, b"gone").await.map(|_| ())
        }),
        Op::Tick => {
            block_on(wabash::host::Host::sleep(host, 25.0 * 3600.0 * 1000.0));
            Ok(())
        }
        Op::Delta => {
            copy.apply(&fs.take_delta());
            Ok(())
        }
    };
}

fn path_strategy() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(NAMES.to_vec()), 1..=3).prop_map(|parts| format!("/w/{}", parts.join("/")))
}

fn op_strategy() -> impl Strategy<Value = Op> {
    let data = prop::collection::vec(any::<u8>(), 0..12);
    prop_oneof![
        3 => (path_strategy(), data.clone()).prop_map(|(p, d)| Op::Write(p, d)),
        1 => (path_strategy(), data).prop_map(|(p, d)| Op::Append(p, d)),
        3 => path_strategy().prop_map(Op::Mkdir),
        2 => path_strategy().prop_map(Op::Unlink),
        1 => path_strategy().prop_map(Op::Rmdir),
        2 => (path_strategy(), path_strategy()).prop_map(|(a, b)| Op::Rename(a, b)),
        1 => (path_strategy(), path_strategy()).prop_map(|(a, b)| Op::Link(a, b)),
        1 => (path_strategy(), path_strategy()).prop_map(|(a, b)| Op::Symlink(a, b)),
        1 => (path_strategy(), 0u32..0o1000).prop_map(|(p, m)| Op::Chmod(p, m | 0o700)),
        2 => path_strategy().prop_map(Op::Read),
        1 => path_strategy().prop_map(Op::WriteUnlinked),
        1 => Just(Op::Tick),
        3 => Just(Op::Delta),
    ]
}

fn fresh() -> (MemoryFs, std::rc::Rc<wabash::host::FixedHost>) {
    let clock = host();
    let fs = user_fs_with(clock.clone(), Default::default());
    let root = fs.with_credentials(wabash::fs::Credentials::ROOT);
    block_on(root.create_dir("/w", 0o755)).unwrap();
    block_on(root.set_owner("/w", Some(USER.uid), Some(USER.gid))).unwrap();
    (fs, clock)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn a_copy_kept_from_deltas_rebuilds_the_tree(ops in prop::collection::vec(op_strategy(), 1..60)) {
        let (fs, clock) = fresh();
        let mut copy = Copy::default();
        for op in &ops {
            run(&fs, &clock, &mut copy, op);
        }
        copy.apply(&fs.take_delta());
        let (rebuilt, _) = fresh();
        rebuilt.restore_records(&copy.bytes()).unwrap();
        prop_assert_eq!(rebuilt.snapshot(), fs.snapshot());
    }
}

#[test]
fn deltas_after_the_first_hold_only_what_changed() {
    let (fs, _) = fresh();
    write(&fs, "/w/big", &vec![7u8; 1 << 20]).unwrap();
    let first = fs.take_delta();
    assert!(first.full);
    assert!(first.records.len() > 1 << 20);
    let quiet = fs.take_delta();
    assert!(quiet.is_empty(), "{quiet:?}");
    write(&fs, "/w/small", b"x").unwrap();
    let second = fs.take_delta();
    assert!(!second.full);
    // The new file and its directory, not the megabyte next to it.
    assert_eq!(second.record_lengths.len(), 2);
    assert!(second.records.len() < 4096);
    block_on(fs.set_mode("/w/big", 0o600)).unwrap();
    let third = fs.take_delta();
    assert!(third.records.is_empty());
    assert_eq!(third.heads.len(), RECORD_HEAD_LEN);
    block_on(fs.remove_file("/w/small")).unwrap();
    let fourth = fs.take_delta();
    assert_eq!(fourth.freed.len(), 1);
}

#[test]
fn a_copy_missing_nodes_still_restores_what_it_reaches() {
    let (fs, _) = fresh();
    write(&fs, "/w/a", b"1").unwrap();
    let mut copy = Copy::default();
    copy.apply(&fs.take_delta());
    // Lose the record of /w: what only it reached is dropped, the rest stays.
    let w = block_on(fs.metadata("/w")).unwrap().ino;
    copy.records.remove(&w);
    let (rebuilt, _) = fresh();
    rebuilt.restore_records(&copy.bytes()).unwrap();
    assert!(block_on(rebuilt.metadata("/home/user")).is_ok());
    assert!(block_on(rebuilt.metadata("/w")).is_err());
    assert!(rebuilt.restore_records(b"garbage").is_err());
}
