//! Property tests: random operation sequences run on the in-memory
//! filesystem and on a plain model of a tree (names to inodes, inodes to
//! bytes). Every result must agree with the model, the invariants (quota
//! usage, link counts) must hold after every step, and a snapshot must
//! restore the same tree.

mod fs_support;

use fs_support::*;
use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::rc::Rc;
use wabash::executor::block_on;
use wabash::fs::{Fs, FsError, MemoryFs};

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
    Truncate(String, u64),
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Entry {
    Dir,
    File(u64),
}

/// The model: every path under `/w` and the contents of every file inode.
#[derive(Debug, Default, Clone)]
struct Model {
    entries: BTreeMap<String, Entry>,
    files: HashMap<u64, Vec<u8>>,
    next: u64,
    /// For the overlay: the paths of the lower layer, and the whiteouts.
    overlay: bool,
    lower: BTreeSet<String>,
    whiteouts: BTreeSet<String>,
}

impl Model {
    /// True when the overlay's lower layer shows through at `path`.
    fn lower_visible(&self, path: &str) -> bool {
        if !self.overlay || !self.lower.contains(path) {
            return false;
        }
        let mut at = path;
        loop {
            if self.whiteouts.contains(at) {
                return false;
            }
            match at.rfind('/') {
                Some(0) | None => return true,
                Some(i) => at = &at[..i],
            }
        }
    }

    fn hide(&mut self, path: &str) {
        if self.lower_visible(path) {
            self.whiteouts.insert(path.to_string());
        }
    }

    /// The error of walking to `path`'s parent, as Linux reports it.
    fn check_parent(&self, path: &str) -> Result<(), FsError> {
        let mut at = String::from("/w");
        for part in path.trim_start_matches("/w/").split('/').collect::<Vec<_>>().iter().rev().skip(1).rev() {
            at.push('/');
            at.push_str(part);
            match self.entries.get(&at) {
                None => return Err(FsError::NotFound),
                Some(Entry::File(_)) => return Err(FsError::NotADirectory),
                Some(Entry::Dir) => {}
            }
        }
        Ok(())
    }

    fn children(&self, dir: &str) -> impl Iterator<Item = (&String, &Entry)> {
        let prefix = format!("{dir}/");
        self.entries.iter().filter(move |(p, _)| p.starts_with(&prefix) && !p[prefix.len()..].contains('/'))
    }

    fn unlink_name(&mut self, path: &str) {
        if let Some(Entry::File(id)) = self.entries.remove(path) {
            if !self.entries.values().any(|e| *e == Entry::File(id)) {
                self.files.remove(&id);
            }
        }
    }

    fn write(&mut self, path: &str, data: &[u8], append: bool) -> Result<(), FsError> {
        self.check_parent(path)?;
        match self.entries.get(path).copied() {
            Some(Entry::Dir) => Err(FsError::IsADirectory),
            Some(Entry::File(id)) => {
                let file = self.files.entry(id).or_default();
                if !append {
                    file.clear();
                }
                file.extend_from_slice(data);
                Ok(())
            }
            None => {
                self.next += 1;
                self.entries.insert(path.to_string(), Entry::File(self.next));
                self.files.insert(self.next, data.to_vec());
                Ok(())
            }
        }
    }

    fn apply(&mut self, op: &Op) -> Result<(), FsError> {
        match op {
            Op::Write(path, data) => self.write(path, data, false),
            Op::Append(path, data) => self.write(path, data, true),
            Op::Truncate(path, len) => {
                self.check_parent(path)?;
                match self.entries.get(path).copied() {
                    None => Err(FsError::NotFound),
                    Some(Entry::Dir) => Err(FsError::IsADirectory),
                    Some(Entry::File(id)) => {
                        self.files.entry(id).or_default().resize(*len as usize, 0);
                        Ok(())
                    }
                }
            }
            Op::Mkdir(path) => {
                self.check_parent(path)?;
                if self.entries.contains_key(path) {
                    return Err(FsError::AlreadyExists);
                }
                self.entries.insert(path.clone(), Entry::Dir);
                Ok(())
            }
            Op::Unlink(path) => {
                self.check_parent(path)?;
                match self.entries.get(path) {
                    None => Err(FsError::NotFound),
                    Some(Entry::Dir) => Err(FsError::IsADirectory),
                    Some(Entry::File(_)) => {
                        self.unlink_name(path);
                        self.hide(path);
                        Ok(())
                    }
                }
            }
            Op::Rmdir(path) => {
                self.check_parent(path)?;
                match self.entries.get(path) {
                    None => Err(FsError::NotFound),
                    Some(Entry::File(_)) => Err(FsError::NotADirectory),
                    Some(Entry::Dir) if self.children(path).next().is_some() => Err(FsError::DirectoryNotEmpty),
                    Some(Entry::Dir) => {
                        self.entries.remove(path);
                        self.hide(path);
                        Ok(())
                    }
                }
            }
            Op::Rename(from, to) => {
                self.check_parent(from)?;
                let source = *self.entries.get(from).ok_or(FsError::NotFound)?;
                self.check_parent(to)?;
                let target = self.entries.get(to).copied();
                if target == Some(source) && source != Entry::Dir || from == to {
                    return Ok(());
                }
                if source == Entry::Dir && to.starts_with(&format!("{from}/")) {
                    return Err(FsError::InvalidArgument);
                }
                match (source, target) {
                    (Entry::Dir, Some(Entry::File(_))) => return Err(FsError::NotADirectory),
                    (Entry::File(_), Some(Entry::Dir)) => return Err(FsError::IsADirectory),
                    (Entry::Dir, Some(Entry::Dir)) if self.children(to).next().is_some() => return Err(FsError::DirectoryNotEmpty),
                    _ => {}
                }
                if source == Entry::Dir && self.lower_visible(from) {
                    return Err(FsError::CrossDevice);
                }
                self.hide(from);
                if source == Entry::Dir {
                    self.hide(to);
                }
                if target.is_some() {
                    self.unlink_name(to);
                }
                let moved: Vec<(String, Entry)> = self
                    .entries
                    .iter()
                    .filter(|(p, _)| *p == from || p.starts_with(&format!("{from}/")))
                    .map(|(p, e)| (p.clone(), *e))
                    .collect();
                for (path, _) in &moved {
                    self.entries.remove(path);
                }
                for (path, entry) in moved {
                    self.entries.insert(format!("{to}{}", &path[from.len()..]), entry);
                }
                Ok(())
            }
            Op::Link(from, to) => {
                self.check_parent(from)?;
                let source = *self.entries.get(from).ok_or(FsError::NotFound)?;
                if source == Entry::Dir {
                    return Err(FsError::NotPermitted);
                }
                self.check_parent(to)?;
                if self.entries.contains_key(to) {
                    return Err(FsError::AlreadyExists);
                }
                self.entries.insert(to.clone(), source);
                Ok(())
            }
        }
    }
}

fn run(fs: &MemoryFs, op: &Op) -> Result<(), FsError> {
    run_on(fs, op)
}

fn run_on(fs: &dyn Fs, op: &Op) -> Result<(), FsError> {
    match op {
        Op::Write(path, data) => write(fs, path, data),
        Op::Append(path, data) => append(fs, path, data),
        Op::Mkdir(path) => block_on(fs.create_dir(path, 0o755)),
        Op::Unlink(path) => block_on(fs.remove_file(path)),
        Op::Rmdir(path) => block_on(fs.remove_dir(path)),
        Op::Rename(from, to) => block_on(fs.rename(from, to)),
        Op::Link(from, to) => block_on(fs.hard_link(from, to)),
        Op::Truncate(path, len) => block_on(async {
            let options = wabash::fs::OpenOptions { write: true, ..Default::default() };
            let handle = fs.open(path, options).await?;
            handle.set_len(*len).await
        }),
    }
}

/// Checks the filesystem against the model and its own invariants.
fn check(fs: &MemoryFs, model: &Model, base: wabash::fs::memory::Usage) {
    let mut seen_ids = HashMap::new();
    for (path, entry) in &model.entries {
        let meta = block_on(fs.symlink_metadata(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
        match entry {
            Entry::Dir => {
                assert!(meta.is_dir(), "{path}");
                let subdirs = model.children(path).filter(|(_, e)| **e == Entry::Dir).count() as u64;
                assert_eq!(meta.nlink, 2 + subdirs, "{path} nlink");
                let mut listed = names(fs, path).unwrap();
                let mut expected: Vec<String> = model.children(path).map(|(p, _)| p.rsplit('/').next().unwrap().to_string()).collect();
                listed.sort();
                expected.sort();
                assert_eq!(listed, expected, "{path} entries");
            }
            Entry::File(id) => {
                let links = model.entries.values().filter(|e| **e == Entry::File(*id)).count() as u64;
                assert_eq!(meta.nlink, links, "{path} nlink");
                assert_eq!(&read(fs, path).unwrap(), &model.files[id], "{path} contents");
                let ino = *seen_ids.entry(*id).or_insert(meta.ino);
                assert_eq!(ino, meta.ino, "{path} is the same inode as its other names");
            }
        }
    }
    let usage = fs.usage();
    let bytes: u64 = model.files.values().map(|f| f.len() as u64).sum();
    assert_eq!(usage.bytes, base.bytes + bytes, "byte usage");
    assert_eq!(usage.files, base.files + model.files.len() as u64, "file count");
    let dirs = model.entries.values().filter(|e| **e == Entry::Dir).count() as u64;
    assert_eq!(usage.dirs, base.dirs + dirs, "directory count");
}

/// Checks a merged view against the model: names, kinds and contents.
fn check_view(fs: &dyn Fs, model: &Model) {
    for (path, entry) in &model.entries {
        let meta = block_on(fs.symlink_metadata(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
        match entry {
            Entry::Dir => {
                assert!(meta.is_dir(), "{path}");
                let listed = names(fs, path).unwrap();
                let mut expected: Vec<String> = model.children(path).map(|(p, _)| p.rsplit('/').next().unwrap().to_string()).collect();
                expected.sort();
                assert_eq!(listed, expected, "{path} entries");
            }
            Entry::File(id) => assert_eq!(&read(fs, path).unwrap(), &model.files[id], "{path} contents"),
        }
    }
    let top = names(fs, "/w").unwrap();
    let expected: Vec<String> = model.children("/w").map(|(p, _)| p.rsplit('/').next().unwrap().to_string()).collect();
    assert_eq!(top, expected, "/w entries");
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
        2 => path_strategy().prop_map(Op::Rmdir),
        2 => (path_strategy(), path_strategy()).prop_map(|(a, b)| Op::Rename(a, b)),
        1 => (path_strategy(), path_strategy()).prop_map(|(a, b)| Op::Link(a, b)),
        1 => (path_strategy(), 0u64..20).prop_map(|(p, n)| Op::Truncate(p, n)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn memory_fs_agrees_with_the_model(ops in prop::collection::vec(op_strategy(), 1..40)) {
        let fs = user_fs();
        let root = fs.with_credentials(wabash::fs::Credentials::ROOT);
        block_on(root.create_dir("/w", 0o755)).unwrap();
        block_on(root.set_owner("/w", Some(USER.uid), Some(USER.gid))).unwrap();
        let base = fs.usage();
        let checkpoint = fs.checkpoint();
        let mut model = Model::default();
        for op in &ops {
            let expected = model.apply(op);
            let actual = run(&fs, op);
            prop_assert_eq!(actual, expected, "{:?}", op);
            check(&fs, &model, base);
        }
        // Change tracking: everything under /w is new; /w itself may be modified.
        let changes = fs.changes_since(&checkpoint);
        let expected: Vec<String> = model.entries.keys().cloned().collect();
        prop_assert_eq!(changes.created, expected);
        prop_assert!(changes.deleted.is_empty());
        // A snapshot restores the same tree.
        let bytes = fs.snapshot();
        let copy = user_fs();
        copy.restore(&bytes).unwrap();
        check(&copy, &model, base);
        prop_assert_eq!(copy.snapshot(), bytes);
    }

    #[test]
    fn the_overlay_agrees_with_the_model(
        setup in prop::collection::vec(op_strategy().prop_filter("no lower hard links", |op| !matches!(op, Op::Link(..))), 0..25),
        ops in prop::collection::vec(op_strategy(), 1..30),
    ) {
        let lower = user_fs();
        let root = lower.with_credentials(wabash::fs::Credentials::ROOT);
        block_on(root.create_dir("/w", 0o755)).unwrap();
        block_on(root.set_owner("/w", Some(USER.uid), Some(USER.gid))).unwrap();
        let mut model = Model::default();
        for op in &setup {
            let _ = model.apply(op);
            let _ = run(&lower, op);
        }
        check(&lower, &model, user_fs().usage().with_w());
        let before = lower.snapshot();
        model.overlay = true;
        model.lower = model.entries.keys().cloned().collect();
        let upper = MemoryFs::new(Rc::new(wabash::host::FixedHost::default()), USER.uid, USER.gid);
        let lower_view: Rc<dyn Fs> = Rc::new(wabash::fs::readonly::ReadOnlyFs::new(Rc::new(lower.clone())));
        let overlay = wabash::fs::overlay::OverlayFs::new(upper, lower_view);
        for op in &ops {
            let expected = model.apply(op);
            let actual = run_on(&overlay, op);
            prop_assert_eq!(actual, expected, "{:?}", op);
            check_view(&overlay, &model);
        }
        prop_assert!(lower.snapshot() == before, "the lower layer never changes");
    }
}

trait WithW {
    fn with_w(self) -> Self;
}

impl WithW for wabash::fs::memory::Usage {
    /// The usage of a fresh test filesystem plus the `/w` directory.
    fn with_w(mut self) -> Self {
        self.dirs += 1;
        self
    }
}
