//! Node attributes of the in-memory filesystem: times from the host clock
//! updated as Linux does, inode numbers, link counts, sizes, renames.

mod fs_support;

use fs_support::*;
use wabash::executor::block_on;
use wabash::fs::{FileType, Fs, FsError};
use wabash::host::Host;

#[test]
fn times_follow_reads_writes_and_attribute_changes() {
    let host = host();
    let fs = user_fs_with(host.clone(), Default::default());
    let tick = |ms: f64| block_on(host.sleep(ms));
    write(&fs, "/tmp/f", b"one").unwrap();
    let created = block_on(fs.metadata("/tmp/f")).unwrap();
    assert_eq!((created.atime, created.mtime, created.ctime), (1_000_000.0, 1_000_000.0, 1_000_000.0));
    tick(1000.0);
    append(&fs, "/tmp/f", b"two").unwrap();
    let written = block_on(fs.metadata("/tmp/f")).unwrap();
    assert_eq!((written.atime, written.mtime, written.ctime), (1_000_000.0, 1_001_000.0, 1_001_000.0));
    tick(1000.0);
    read(&fs, "/tmp/f").unwrap();
    let read_meta = block_on(fs.metadata("/tmp/f")).unwrap();
    assert_eq!(read_meta.atime, 1_002_000.0, "relatime: atime older than mtime is refreshed");
    tick(1000.0);
    read(&fs, "/tmp/f").unwrap();
    assert_eq!(block_on(fs.metadata("/tmp/f")).unwrap().atime, 1_002_000.0, "relatime: not again");
    block_on(fs.set_mode("/tmp/f", 0o600)).unwrap();
    let changed = block_on(fs.metadata("/tmp/f")).unwrap();
    assert_eq!((changed.mtime, changed.ctime), (1_001_000.0, 1_003_000.0));
    tick(1000.0);
    block_on(fs.rename("/tmp/f", "/tmp/g")).unwrap();
    assert_eq!(block_on(fs.metadata("/tmp/g")).unwrap().ctime, 1_004_000.0);
    assert_eq!(block_on(fs.metadata("/tmp")).unwrap().mtime, 1_004_000.0);
    block_on(fs.set_times("/tmp/g", Some(5.0), Some(6.0))).unwrap();
    let set = block_on(fs.metadata("/tmp/g")).unwrap();
    assert_eq!((set.atime, set.mtime, set.ctime), (5.0, 6.0, 1_004_000.0));
    tick(1000.0);
    // Truncating on open changes the times even when the file is empty.
    write(&fs, "/tmp/e", b"").unwrap();
    tick(1000.0);
    write(&fs, "/tmp/e", b"").unwrap();
    assert_eq!(block_on(fs.metadata("/tmp/e")).unwrap().mtime, 1_006_000.0);
}

#[test]
fn link_counts_of_directories_and_hard_links() {
    let fs = user_fs();
    block_on(fs.create_dir("/tmp/d", 0o755)).unwrap();
    assert_eq!(block_on(fs.metadata("/tmp/d")).unwrap().nlink, 2);
    block_on(fs.create_dir("/tmp/d/a", 0o755)).unwrap();
    block_on(fs.create_dir("/tmp/d/b", 0o755)).unwrap();
    assert_eq!(block_on(fs.metadata("/tmp/d")).unwrap().nlink, 4);
    block_on(fs.rename("/tmp/d/b", "/tmp/b")).unwrap();
    assert_eq!(block_on(fs.metadata("/tmp/d")).unwrap().nlink, 3);
    block_on(fs.remove_dir("/tmp/d/a")).unwrap();
    assert_eq!(block_on(fs.metadata("/tmp/d")).unwrap().nlink, 2);
    write(&fs, "/tmp/f", b"x").unwrap();
    block_on(fs.hard_link("/tmp/f", "/tmp/d/f2")).unwrap();
    let (a, b) = (block_on(fs.metadata("/tmp/f")).unwrap(), block_on(fs.metadata("/tmp/d/f2")).unwrap());
    assert_eq!((a.ino, a.nlink), (b.ino, 2));
    write(&fs, "/tmp/d/f2", b"shared").unwrap();
    assert_eq!(read(&fs, "/tmp/f").unwrap(), b"shared");
    assert_eq!(block_on(fs.hard_link("/tmp/d", "/tmp/dlink")), Err(FsError::NotPermitted));
    assert_eq!(block_on(fs.hard_link("/tmp/f", "/tmp/d/f2")), Err(FsError::AlreadyExists));
}

#[test]
fn inode_numbers_are_distinct_and_entries_typed() {
    let fs = user_fs();
    write(&fs, "/tmp/a", b"").unwrap();
    write(&fs, "/tmp/b", b"12345").unwrap();
    block_on(fs.symlink("a", "/tmp/l")).unwrap();
    let entries = block_on(fs.read_dir("/tmp")).unwrap();
    let kinds: Vec<(&str, FileType)> = entries.iter().map(|e| (e.name.as_str(), e.file_type)).collect();
    assert_eq!(kinds, vec![("a", FileType::File), ("b", FileType::File), ("l", FileType::Symlink)]);
    assert_ne!(entries[0].ino, entries[1].ino);
    assert_eq!(block_on(fs.metadata("/tmp/b")).unwrap().size, 5);
    assert_eq!(block_on(fs.symlink_metadata("/tmp/l")).unwrap().size, 1);
    assert_eq!(block_on(fs.metadata("/tmp/l")).unwrap().ino, entries[0].ino);
}

#[test]
fn renames_replace_as_linux_does() {
    let fs = user_fs();
    block_on(fs.create_dir("/tmp/d", 0o755)).unwrap();
    block_on(fs.create_dir("/tmp/e", 0o755)).unwrap();
    write(&fs, "/tmp/f", b"f").unwrap();
    write(&fs, "/tmp/e/inside", b"").unwrap();
    assert_eq!(block_on(fs.rename("/tmp/f", "/tmp/d")), Err(FsError::IsADirectory));
    assert_eq!(block_on(fs.rename("/tmp/d", "/tmp/f")), Err(FsError::NotADirectory));
    assert_eq!(block_on(fs.rename("/tmp/d", "/tmp/e")), Err(FsError::DirectoryNotEmpty));
    assert_eq!(block_on(fs.rename("/tmp/d", "/tmp/d/sub")), Err(FsError::InvalidArgument));
    assert_eq!(block_on(fs.rename("/tmp/missing", "/tmp/x")), Err(FsError::NotFound));
    block_on(fs.remove_file("/tmp/e/inside")).unwrap();
    block_on(fs.rename("/tmp/d", "/tmp/e")).unwrap();
    assert_eq!(block_on(fs.metadata("/tmp/d")), Err(FsError::NotFound));
    block_on(fs.hard_link("/tmp/f", "/tmp/f2")).unwrap();
    // Two names of one file: rename does nothing.
    block_on(fs.rename("/tmp/f", "/tmp/f2")).unwrap();
    assert!(block_on(fs.metadata("/tmp/f")).is_ok());
    block_on(fs.symlink("f", "/tmp/l")).unwrap();
    block_on(fs.rename("/tmp/l", "/tmp/l2")).unwrap();
    assert_eq!(block_on(fs.read_link("/tmp/l2")).unwrap(), "f");
}

#[test]
fn an_open_file_follows_its_node_through_a_rename() {
    let fs = user_fs();
    write(&fs, "/tmp/a", b"data").unwrap();
    let handle = block_on(fs.open("/tmp/a", wabash::fs::OpenOptions::read_only())).unwrap();
    block_on(fs.rename("/tmp/a", "/tmp/b")).unwrap();
    assert_eq!(block_on(handle.read_at(0, 10)).unwrap(), b"data");
    assert_eq!(block_on(handle.write_at(0, b"x")), Err(FsError::BadDescriptor));
}
