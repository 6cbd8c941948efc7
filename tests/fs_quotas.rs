//! Quotas of the in-memory filesystem: total bytes, file size, file and
//! directory counts, and usage kept right through every kind of change.

mod fs_support;

use fs_support::*;
use wabash::executor::block_on;
use wabash::fs::memory::{FsLimits, Usage};
use wabash::fs::{Fs, FsError, OpenOptions};

fn limited(limits: FsLimits) -> wabash::fs::MemoryFs {
    user_fs_with(host(), limits)
}

#[test]
fn total_bytes_are_limited_and_a_refused_write_changes_nothing() {
    let fs = limited(FsLimits { max_total_bytes: 100, ..FsLimits::default() });
    write(&fs, "/tmp/a", &[1; 60]).unwrap();
    assert_eq!(write(&fs, "/tmp/b", &[2; 50]), Err(FsError::NoSpace));
    assert_eq!(FsError::NoSpace.to_string(), "No space left on device");
    // The file was created empty, then the write was refused whole.
    assert_eq!(read(&fs, "/tmp/b").unwrap(), b"");
    assert_eq!(fs.usage().bytes, 60);
    write(&fs, "/tmp/b", &[2; 40]).unwrap();
    assert_eq!(fs.usage().bytes, 100);
    assert_eq!(append(&fs, "/tmp/b", b"x"), Err(FsError::NoSpace));
    // Overwriting in place needs no more room.
    block_on(async {
        let handle = fs.open("/tmp/a", OpenOptions { write: true, ..Default::default() }).await.unwrap();
        handle.write_at(10, &[9; 50]).await.unwrap();
        assert_eq!(handle.write_at(59, &[9; 2]).await, Err(FsError::NoSpace));
    });
    assert_eq!(fs.usage().bytes, 100);
}

#[test]
fn one_file_is_limited_in_size() {
    let fs = limited(FsLimits { max_file_size: 10, ..FsLimits::default() });
    assert_eq!(write(&fs, "/tmp/big", &[0; 11]), Err(FsError::FileTooLarge));
    write(&fs, "/tmp/ok", &[0; 10]).unwrap();
    block_on(async {
        let handle = fs.open("/tmp/ok", OpenOptions { write: true, ..Default::default() }).await.unwrap();
        assert_eq!(handle.set_len(11).await, Err(FsError::FileTooLarge));
        handle.set_len(3).await.unwrap();
        // A write far past the end would make a sparse file over the limit.
        assert_eq!(handle.write_at(100, b"x").await, Err(FsError::FileTooLarge));
    });
    assert_eq!(fs.usage().bytes, 3);
}

#[test]
fn file_and_directory_counts_are_limited() {
    let base = limited(FsLimits::default()).usage();
    let fs = limited(FsLimits { max_files: 2, max_dirs: base.dirs + 1, ..FsLimits::default() });
    write(&fs, "/tmp/1", b"").unwrap();
    block_on(fs.symlink("1", "/tmp/2")).unwrap();
    assert_eq!(write(&fs, "/tmp/3", b""), Err(FsError::NoSpace));
    assert_eq!(block_on(fs.symlink("1", "/tmp/3")), Err(FsError::NoSpace));
    // A hard link is a name, not a file.
    block_on(fs.hard_link("/tmp/1", "/tmp/3")).unwrap();
    block_on(fs.create_dir("/tmp/d", 0o755)).unwrap();
    assert_eq!(block_on(fs.create_dir("/tmp/e", 0o755)), Err(FsError::NoSpace));
    block_on(fs.remove_dir("/tmp/d")).unwrap();
    block_on(fs.create_dir("/tmp/e", 0o755)).unwrap();
    block_on(fs.remove_file("/tmp/2")).unwrap();
    write(&fs, "/tmp/4", b"").unwrap();
}

#[test]
fn usage_follows_unlink_truncate_overwrite_and_hard_links() {
    let fs = user_fs();
    let start = fs.usage();
    write(&fs, "/tmp/a", &[0; 1000]).unwrap();
    block_on(fs.hard_link("/tmp/a", "/tmp/b")).unwrap();
    assert_eq!(fs.usage().bytes, start.bytes + 1000);
    block_on(fs.remove_file("/tmp/a")).unwrap();
    assert_eq!(fs.usage().bytes, start.bytes + 1000, "the other name keeps the bytes");
    write(&fs, "/tmp/b", &[0; 10]).unwrap();
    assert_eq!(fs.usage().bytes, start.bytes + 10);
    block_on(fs.symlink("/tmp/b", "/tmp/link")).unwrap();
    assert_eq!(fs.usage().bytes, start.bytes + 16);
    write(&fs, "/tmp/c", &[0; 5]).unwrap();
    block_on(fs.rename("/tmp/c", "/tmp/b")).unwrap();
    assert_eq!(fs.usage().bytes, start.bytes + 11);
    block_on(fs.remove_file("/tmp/b")).unwrap();
    block_on(fs.remove_file("/tmp/link")).unwrap();
    assert_eq!(fs.usage(), start);
}

#[test]
fn an_unlinked_open_file_keeps_its_bytes_until_closed() {
    let fs = user_fs();
    let start = fs.usage();
    write(&fs, "/tmp/f", b"still here").unwrap();
    let handle = block_on(fs.open("/tmp/f", OpenOptions { read: true, write: true, ..Default::default() })).unwrap();
    block_on(fs.remove_file("/tmp/f")).unwrap();
    assert_eq!(block_on(fs.metadata("/tmp/f")), Err(FsError::NotFound));
    assert_eq!(block_on(handle.read_at(0, 100)).unwrap(), b"still here");
    block_on(handle.write_at(0, b"STILL")).unwrap();
    assert_eq!(block_on(handle.metadata()).unwrap().nlink, 0);
    assert_eq!(fs.usage().bytes, start.bytes + 10);
    drop(handle);
    assert_eq!(fs.usage(), start);
}

#[test]
fn usage_is_reported_for_df() {
    let fs = limited(FsLimits { max_total_bytes: 1 << 20, ..FsLimits::default() });
    write(&fs, "/tmp/f", &[0; 100]).unwrap();
    let space = fs.space().unwrap();
    assert_eq!(space.total_bytes, 1 << 20);
    assert_eq!(space.used_bytes, 100);
    let Usage { files, dirs, .. } = fs.usage();
    assert_eq!(space.used_nodes, files + dirs);
}
