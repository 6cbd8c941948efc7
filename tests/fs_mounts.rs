//! The mount table, the read-only wrapper and host-backed directories
//! (through an in-Rust fake of the host side).

mod fs_support;

use async_trait::async_trait;
use fs_support::*;
use std::cell::Cell;
use std::collections::BTreeMap;
use std::rc::Rc;
use wabash::executor::block_on;
use wabash::fs::host_dir::{HostDirFs, HostDirectory, HostEntry, HostStat};
use wabash::fs::mount::MountFs;
use wabash::fs::readonly::ReadOnlyFs;
use wabash::fs::{Access, Credentials, FileType, Fs, FsError, FsResult, MemoryFs, OpenOptions};
use wabash::host::Host;

fn memory(host: Rc<dyn Host>) -> MemoryFs {
    let fs = MemoryFs::new(host, USER.uid, USER.gid);
    block_on(fs.with_credentials(Credentials::ROOT).set_owner("/", Some(USER.uid), Some(USER.gid))).unwrap();
    fs
}

/// A root fs with `/mnt` and a second memory fs mounted at `/mnt/data`.
fn mounted() -> (MountFs, MemoryFs, MemoryFs) {
    let clock = host();
    let root = user_fs_with(clock.clone(), Default::default());
    let root_as_root = root.with_credentials(Credentials::ROOT);
    block_on(root_as_root.create_dir("/mnt", 0o755)).unwrap();
    let data = memory(clock);
    write(&data, "/inside.txt", b"mounted").unwrap();
    let table = MountFs::new(Rc::new(root.clone()), USER);
    table.mount("/mnt/data", Rc::new(data.clone())).unwrap();
    (table, root, data)
}

#[test]
fn mounted_files_are_reached_and_have_their_own_device() {
    let (table, root, _data) = mounted();
    assert_eq!(read(&table, "/mnt/data/inside.txt").unwrap(), b"mounted");
    write(&table, "/mnt/data/new", b"n").unwrap();
    write(&table, "/tmp/rootfile", b"r").unwrap();
    assert_eq!(read(&root, "/tmp/rootfile").unwrap(), b"r");
    assert_eq!(read(&root, "/mnt/data/new"), Err(FsError::NotFound));
    let root_dev = block_on(table.metadata("/tmp")).unwrap().dev;
    let mount_dev = block_on(table.metadata("/mnt/data/new")).unwrap().dev;
    assert_ne!(root_dev, mount_dev);
    assert_eq!(block_on(table.metadata("/mnt/data")).unwrap().dev, mount_dev);
    assert_eq!(names(&table, "/mnt").unwrap(), vec!["data"]);
    assert_eq!(names(&table, "/mnt/data").unwrap(), vec!["inside.txt", "new"]);
}

#[test]
fn dot_dot_from_a_mount_root_leads_to_the_parent_filesystem() {
    let (table, root, _data) = mounted();
    write(&root.with_credentials(Credentials::ROOT), "/mnt/beside", b"parent fs").unwrap();
    assert_eq!(read(&table, "/mnt/data/../beside").unwrap(), b"parent fs");
    assert_eq!(read(&table, "/mnt/data/../../../../mnt/beside").unwrap(), b"parent fs");
    // A symlink in the root fs into the mount, and an absolute one back out.
    block_on(table.symlink("/mnt/data", "/home/user/project")).unwrap();
    assert_eq!(read(&table, "/home/user/project/inside.txt").unwrap(), b"mounted");
    block_on(table.symlink("/mnt/beside", "/mnt/data/out")).unwrap();
    assert_eq!(read(&table, "/mnt/data/out").unwrap(), b"parent fs");
    block_on(table.symlink("..", "/mnt/data/up")).unwrap();
    assert_eq!(read(&table, "/mnt/data/up/beside").unwrap(), b"parent fs");
}

#[test]
fn renames_and_links_across_mounts_are_cross_device() {
    let (table, _root, _data) = mounted();
    write(&table, "/tmp/f", b"x").unwrap();
    assert_eq!(block_on(table.rename("/tmp/f", "/mnt/data/f")), Err(FsError::CrossDevice));
    assert_eq!(block_on(table.hard_link("/tmp/f", "/mnt/data/f")), Err(FsError::CrossDevice));
    assert_eq!(FsError::CrossDevice.to_string(), "Invalid cross-device link");
    block_on(table.rename("/mnt/data/inside.txt", "/mnt/data/renamed")).unwrap();
    block_on(table.hard_link("/mnt/data/renamed", "/mnt/data/linked")).unwrap();
}

#[test]
fn mount_points_cannot_be_removed_or_renamed() {
    let (table, _root, _data) = mounted();
    assert_eq!(block_on(table.remove_dir("/mnt/data")), Err(FsError::Busy));
    assert_eq!(block_on(table.rename("/mnt/data", "/tmp/data")), Err(FsError::Busy));
    assert_eq!(block_on(table.rename("/mnt", "/tmp/mnt")), Err(FsError::Busy));
    assert_eq!(block_on(table.remove_dir("/mnt")), Err(FsError::DirectoryNotEmpty));
    assert_eq!(block_on(table.create_dir("/mnt/data", 0o755)), Err(FsError::AlreadyExists));
    assert_eq!(table.mount("/mnt/data", Rc::new(memory(host()))), Err(FsError::Busy));
    table.unmount("/mnt/data").unwrap();
    assert_eq!(read(&table, "/mnt/data/inside.txt"), Err(FsError::NotFound));
    assert_eq!(table.unmount("/mnt/data"), Err(FsError::InvalidArgument));
}

#[test]
fn a_read_only_mount_refuses_every_change() {
    let (table, _root, data) = mounted();
    block_on(data.create_dir("/sub", 0o755)).unwrap();
    table.unmount("/mnt/data").unwrap();
    table.mount("/mnt/data", Rc::new(ReadOnlyFs::new(Rc::new(data.clone())))).unwrap();
    let ro = "/mnt/data";
    assert_eq!(read(&table, "/mnt/data/inside.txt").unwrap(), b"mounted");
    assert_eq!(write(&table, "/mnt/data/inside.txt", b"x"), Err(FsError::ReadOnly));
    assert_eq!(FsError::ReadOnly.to_string(), "Read-only file system");
    assert_eq!(write(&table, "/mnt/data/new", b"x"), Err(FsError::ReadOnly));
    assert_eq!(write(&table, "/mnt/data/nodir/new", b"x"), Err(FsError::NotFound));
    assert_eq!(append(&table, "/mnt/data/inside.txt", b"x"), Err(FsError::ReadOnly));
    assert_eq!(block_on(table.create_dir(&format!("{ro}/d"), 0o755)), Err(FsError::ReadOnly));
    assert_eq!(block_on(table.create_dir(&format!("{ro}/sub"), 0o755)), Err(FsError::AlreadyExists));
    assert_eq!(block_on(table.remove_file(&format!("{ro}/inside.txt"))), Err(FsError::ReadOnly));
    assert_eq!(block_on(table.remove_file(&format!("{ro}/missing"))), Err(FsError::NotFound));
    assert_eq!(block_on(table.remove_dir(&format!("{ro}/sub"))), Err(FsError::ReadOnly));
    assert_eq!(block_on(table.rename(&format!("{ro}/inside.txt"), &format!("{ro}/x"))), Err(FsError::ReadOnly));
    assert_eq!(block_on(table.symlink("x", &format!("{ro}/l"))), Err(FsError::ReadOnly));
    assert_eq!(block_on(table.hard_link(&format!("{ro}/inside.txt"), &format!("{ro}/h"))), Err(FsError::ReadOnly));
    assert_eq!(block_on(table.set_mode(&format!("{ro}/inside.txt"), 0o777)), Err(FsError::ReadOnly));
    assert_eq!(block_on(table.set_owner(&format!("{ro}/inside.txt"), None, Some(1000))), Err(FsError::ReadOnly));
    assert_eq!(block_on(table.set_times(&format!("{ro}/inside.txt"), Some(1.0), None)), Err(FsError::ReadOnly));
    assert_eq!(block_on(table.access(&format!("{ro}/inside.txt"), Access::WRITE)), Err(FsError::ReadOnly));
    assert_eq!(block_on(table.access(&format!("{ro}/inside.txt"), Access::READ)), Ok(()));
    let handle = block_on(table.open(&format!("{ro}/inside.txt"), OpenOptions::read_only())).unwrap();
    assert_eq!(block_on(handle.write_at(0, b"x")), Err(FsError::BadDescriptor));
    assert_eq!(read(&data, "/inside.txt").unwrap(), b"mounted");
}

/// A host directory kept in a map, counting the calls made to it.
#[derive(Default)]
struct FakeHostDir {
    files: BTreeMap<String, (FileType, Vec<u8>)>,
    calls: Cell<usize>,
}

impl FakeHostDir {
    fn with(entries: &[(&str, FileType, &[u8])]) -> Self {
        let mut files = BTreeMap::new();
        files.insert("/".to_string(), (FileType::Directory, Vec::new()));
        for (path, kind, data) in entries {
            files.insert(path.to_string(), (*kind, data.to_vec()));
        }
        FakeHostDir { files, calls: Cell::new(0) }
    }

    fn get(&self, path: &str) -> FsResult<&(FileType, Vec<u8>)> {
        self.calls.set(self.calls.get() + 1);
        assert!(path.starts_with('/') && !path.contains("/./") && !path.contains("..") && !path.contains("//"), "asked about {path}");
        self.files.get(path).ok_or(FsError::NotFound)
    }
}

#[async_trait(?Send)]
impl HostDirectory for FakeHostDir {
    async fn stat(&self, path: &str) -> FsResult<HostStat> {
        let (file_type, data) = self.get(path)?;
        let mode = if *file_type == FileType::Directory { 0o755 } else { 0o644 };
        Ok(HostStat { file_type: *file_type, size: data.len() as u64, mode, mtime: 42.0 })
    }

    async fn list(&self, path: &str) -> FsResult<Vec<HostEntry>> {
        self.get(path)?;
        let prefix = if path == "/" { "/".to_string() } else { format!("{path}/") };
        let mut out: Vec<HostEntry> = self
            .files
            .iter()
            .filter_map(|(p, (kind, _))| {
                let rest = p.strip_prefix(&prefix)?;
                (!rest.is_empty() && !rest.contains('/')).then(|| HostEntry { name: rest.to_string(), file_type: *kind })
            })
            .collect();
        out.push(HostEntry { name: "..".to_string(), file_type: FileType::Directory });
        out.push(HostEntry { name: "bad/name".to_string(), file_type: FileType::File });
        Ok(out)
    }

    async fn read(&self, path: &str, offset: u64, len: usize) -> FsResult<Vec<u8>> {
        let (_, data) = self.get(path)?;
        let start = (offset as usize).min(data.len());
        Ok(data[start..(start + len).min(data.len())].to_vec())
    }

    async fn read_link(&self, path: &str) -> FsResult<String> {
        let (kind, data) = self.get(path)?;
        if *kind != FileType::Symlink {
            return Err(FsError::InvalidArgument);
        }
        Ok(String::from_utf8_lossy(data).into_owned())
    }
}

fn host_dir() -> (Rc<FakeHostDir>, HostDirFs) {
    let fake = Rc::new(FakeHostDir::with(&[
        ("/README.md", FileType::File, b"# project\n"),
        ("/src", FileType::Directory, b""),
        ("/src/main.rs", FileType::File, b"fn main() {}\n"),
        ("/src/link", FileType::Symlink, b"../README.md"),
        ("/escape", FileType::Symlink, b"../../../../etc/passwd"),
    ]));
    let fs = HostDirFs::new(fake.clone(), USER, USER);
    (fake, fs)
}

#[test]
fn a_host_directory_reads_lazily_and_never_hears_dot_dot() {
    let (fake, fs) = host_dir();
    assert_eq!(fake.calls.get(), 0);
    assert_eq!(read(&fs, "/src/main.rs").unwrap(), b"fn main() {}\n");
    assert_eq!(read(&fs, "/src/../src/./link").unwrap(), b"# project\n");
    assert_eq!(names(&fs, "/").unwrap(), vec!["README.md", "escape", "src"]);
    assert_eq!(block_on(fs.read_link("/src/link")).unwrap(), "../README.md");
    // `..` stops at the host directory's root: no way out of it.
    assert_eq!(read(&fs, "/escape"), Err(FsError::NotFound));
    assert_eq!(read(&fs, "/../../README.md").unwrap(), b"# project\n");
    let meta = block_on(fs.metadata("/src/main.rs")).unwrap();
    assert_eq!((meta.uid, meta.size, meta.mtime), (USER.uid, 13, 42.0));
    assert_eq!(meta.ino, block_on(fs.metadata("/src/main.rs")).unwrap().ino);
    // Stat answers are cached: a second walk asks the host nothing new.
    let calls = fake.calls.get();
    block_on(fs.metadata("/src/main.rs")).unwrap();
    assert_eq!(fake.calls.get(), calls);
}

#[test]
fn a_host_directory_is_read_only() {
    let (_fake, fs) = host_dir();
    assert_eq!(write(&fs, "/README.md", b"x"), Err(FsError::ReadOnly));
    assert_eq!(write(&fs, "/new", b"x"), Err(FsError::ReadOnly));
    assert_eq!(block_on(fs.create_dir("/src", 0o755)), Err(FsError::AlreadyExists));
    assert_eq!(block_on(fs.remove_file("/README.md")), Err(FsError::ReadOnly));
    assert_eq!(block_on(fs.rename("/README.md", "/x")), Err(FsError::ReadOnly));
    assert_eq!(block_on(fs.set_mode("/README.md", 0o600)), Err(FsError::ReadOnly));
}

#[test]
fn a_mounted_host_directory_escapes_only_into_the_sandbox() {
    let (table, root, _data) = mounted();
    let (_fake, host_fs) = host_dir();
    write(&root.with_credentials(Credentials::ROOT), "/etc/passwd", b"sandbox passwd").unwrap();
    table.mount("/project", Rc::new(host_fs)).unwrap();
    assert_eq!(read(&table, "/project/README.md").unwrap(), b"# project\n");
    // `..` out of the mount root reaches the sandbox's own /etc.
    assert_eq!(read(&table, "/project/escape").unwrap(), b"sandbox passwd");
    assert_eq!(write(&table, "/project/x", b""), Err(FsError::ReadOnly));
}

#[test]
fn an_overlay_of_a_host_directory_mounted_in_the_sandbox() {
    let (table, _root, _data) = mounted();
    let (_fake, host_fs) = host_dir();
    let upper = MemoryFs::new(Rc::new(wabash::host::FixedHost::default()), USER.uid, USER.gid);
    let overlay = wabash::fs::overlay::OverlayFs::new(upper, Rc::new(host_fs));
    table.mount("/project", Rc::new(overlay)).unwrap();
    append(&table, "/project/README.md", b"edited\n").unwrap();
    assert_eq!(read(&table, "/project/README.md").unwrap(), b"# project\nedited\n");
    block_on(table.remove_file("/project/src/main.rs")).unwrap();
    assert_eq!(names(&table, "/project/src").unwrap(), vec!["link"]);
    block_on(table.create_dir("/project/build", 0o755)).unwrap();
    write(&table, "/project/build/out", b"o").unwrap();
    assert_eq!(block_on(table.rename("/project/build/out", "/tmp/out")), Err(FsError::CrossDevice));
    assert_eq!(block_on(table.rename("/project/src", "/project/src2")), Err(FsError::CrossDevice));
    assert_eq!(names(&table, "/").unwrap(), vec!["etc", "home", "mnt", "project", "tmp"]);
}
