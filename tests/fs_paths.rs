//! Path rules of the in-memory filesystem: NUL and length limits, the depth
//! limit, `..` at the root and through symlinks, symlink loops, trailing
//! slashes.

mod fs_support;

use fs_support::*;
use wabash::executor::block_on;
use wabash::fs::memory::FsLimits;
use wabash::fs::{Fs, FsError, OpenOptions};

#[test]
fn nul_bytes_are_invalid_and_long_names_too_long() {
    let fs = user_fs();
    assert_eq!(write(&fs, "/tmp/a\0b", b""), Err(FsError::InvalidArgument));
    assert_eq!(block_on(fs.metadata("/tmp/file.txt\0.jpg")), Err(FsError::InvalidArgument));
    let long = format!("/tmp/{}", "x".repeat(256));
    assert_eq!(write(&fs, &long, b""), Err(FsError::NameTooLong));
    write(&fs, &format!("/tmp/{}", "x".repeat(255)), b"").unwrap();
    let deep = format!("/tmp{}", "/a".repeat(2100));
    assert_eq!(block_on(fs.metadata(&deep)), Err(FsError::NameTooLong));
    assert_eq!(block_on(fs.symlink(&"y".repeat(4097), "/tmp/l")), Err(FsError::NameTooLong));
    assert_eq!(block_on(fs.metadata("relative")), Err(FsError::InvalidArgument));
}

#[test]
fn the_depth_limit_stops_deep_trees_and_deep_moves() {
    let limits = FsLimits { max_depth: 4, ..FsLimits::default() };
    let fs = user_fs_with(host(), limits);
    block_on(fs.create_dir("/home/user/a", 0o755)).unwrap();
    block_on(fs.create_dir("/home/user/a/b", 0o755)).unwrap();
    assert_eq!(block_on(fs.create_dir("/home/user/a/b/c", 0o755)), Err(FsError::NameTooLong));
    assert_eq!(write(&fs, "/home/user/a/b/f", b""), Err(FsError::NameTooLong));
    block_on(fs.create_dir("/tmp/x", 0o755)).unwrap();
    block_on(fs.create_dir("/tmp/x/y", 0o755)).unwrap();
    // /home/user/a/x/y would be five levels deep.
    assert_eq!(block_on(fs.rename("/tmp/x", "/home/user/a/x")), Err(FsError::NameTooLong));
    assert!(block_on(fs.metadata("/tmp/x/y")).unwrap().is_dir());
    block_on(fs.rename("/tmp/x/y", "/home/user/a/y")).unwrap();
}

#[test]
fn dot_dot_never_climbs_above_the_root() {
    let fs = user_fs();
    write(&fs, "/tmp/f", b"x").unwrap();
    assert_eq!(read(&fs, "/../../../tmp/f").unwrap(), b"x");
    assert_eq!(read(&fs, "/tmp/../../../../tmp/./f").unwrap(), b"x");
    assert_eq!(block_on(fs.metadata("/..")).unwrap().ino, block_on(fs.metadata("/")).unwrap().ino);
    assert_eq!(read(&fs, "/../etc/shadow"), Err(FsError::NotFound));
}

#[test]
fn dot_dot_is_physical_after_a_symlink() {
    let fs = user_fs();
    block_on(fs.create_dir("/home/user/real", 0o755)).unwrap();
    block_on(fs.create_dir("/home/user/real/sub", 0o755)).unwrap();
    write(&fs, "/home/user/real/marker", b"real parent").unwrap();
    block_on(fs.symlink("/home/user/real/sub", "/tmp/link")).unwrap();
    // link/.. is the parent of the link's target, not /tmp.
    assert_eq!(read(&fs, "/tmp/link/../marker"), Ok(b"real parent".to_vec()));
    block_on(fs.symlink("../user/real", "/home/user/rel")).unwrap();
    assert_eq!(read(&fs, "/home/user/rel/marker").unwrap(), b"real parent");
}

#[test]
fn symlink_loops_are_too_many_levels() {
    let fs = user_fs();
    block_on(fs.symlink("/tmp/b", "/tmp/a")).unwrap();
    block_on(fs.symlink("/tmp/a", "/tmp/b")).unwrap();
    let error = read(&fs, "/tmp/a").unwrap_err();
    assert_eq!(error, FsError::TooManyLinks);
    assert_eq!(error.to_string(), "Too many levels of symbolic links");
    block_on(fs.symlink("self", "/tmp/self")).unwrap();
    assert_eq!(block_on(fs.metadata("/tmp/self/x")), Err(FsError::TooManyLinks));
    // lstat and readlink do not follow, and removing the link works.
    assert!(block_on(fs.symlink_metadata("/tmp/a")).unwrap().is_symlink());
    assert_eq!(block_on(fs.read_link("/tmp/a")).unwrap(), "/tmp/b");
    block_on(fs.remove_file("/tmp/a")).unwrap();
}

#[test]
fn forty_links_are_followed_and_the_forty_first_is_not() {
    let fs = user_fs();
    write(&fs, "/tmp/l0", b"end").unwrap();
    for i in 1..=41 {
        block_on(fs.symlink(&format!("l{}", i - 1), &format!("/tmp/l{i}"))).unwrap();
    }
    assert_eq!(read(&fs, "/tmp/l40").unwrap(), b"end");
    assert_eq!(read(&fs, "/tmp/l41"), Err(FsError::TooManyLinks));
}

#[test]
fn a_trailing_slash_requires_a_directory() {
    let fs = user_fs();
    write(&fs, "/tmp/file", b"x").unwrap();
    assert_eq!(block_on(fs.open("/tmp/file/", OpenOptions::read_only())).err(), Some(FsError::NotADirectory));
    assert_eq!(block_on(fs.metadata("/tmp/file/")), Err(FsError::NotADirectory));
    assert_eq!(block_on(fs.metadata("/tmp/file/.")), Err(FsError::NotADirectory));
    assert_eq!(block_on(fs.open("/tmp/new/", OpenOptions::write_truncate(0o644))).err(), Some(FsError::IsADirectory));
    block_on(fs.create_dir("/tmp/dir/", 0o755)).unwrap();
    assert!(block_on(fs.metadata("/tmp/dir/")).unwrap().is_dir());
    assert_eq!(block_on(fs.rename("/tmp/file", "/tmp/other/")), Err(FsError::NotADirectory));
    assert_eq!(block_on(fs.remove_file("/tmp/file/")), Err(FsError::NotADirectory));
    block_on(fs.symlink("/tmp/dir", "/tmp/dirlink")).unwrap();
    // lstat("link/") follows the link.
    assert!(block_on(fs.symlink_metadata("/tmp/dirlink/")).unwrap().is_dir());
}

#[test]
fn dangling_symlinks_are_created_through_unless_exclusive() {
    let fs = user_fs();
    block_on(fs.symlink("/tmp/target", "/tmp/dangling")).unwrap();
    assert_eq!(read(&fs, "/tmp/dangling"), Err(FsError::NotFound));
    let exclusive = OpenOptions { write: true, create: true, exclusive: true, mode: 0o644, ..Default::default() };
    assert_eq!(block_on(fs.open("/tmp/dangling", exclusive)).err(), Some(FsError::AlreadyExists));
    write(&fs, "/tmp/dangling", b"through").unwrap();
    assert_eq!(read(&fs, "/tmp/target").unwrap(), b"through");
}

#[test]
fn dot_names_cannot_be_created_or_removed() {
    let fs = user_fs();
    block_on(fs.create_dir("/tmp/d", 0o755)).unwrap();
    assert_eq!(block_on(fs.create_dir("/tmp/d/.", 0o755)), Err(FsError::AlreadyExists));
    assert_eq!(block_on(fs.create_dir("/", 0o755)), Err(FsError::AlreadyExists));
    assert_eq!(block_on(fs.remove_dir("/tmp/d/.")), Err(FsError::InvalidArgument));
    assert_eq!(block_on(fs.remove_dir("/tmp/d/..")), Err(FsError::DirectoryNotEmpty));
    let root = fs.with_credentials(wabash::fs::Credentials::ROOT);
    assert_eq!(block_on(root.remove_dir("/")), Err(FsError::Busy));
    assert_eq!(block_on(root.rename("/tmp/d/.", "/tmp/e")), Err(FsError::Busy));
    assert_eq!(block_on(fs.remove_file("/tmp/d")), Err(FsError::IsADirectory));
    assert_eq!(block_on(fs.remove_dir("/tmp")), Err(FsError::DirectoryNotEmpty));
}

#[test]
fn missing_and_non_directory_components() {
    let fs = user_fs();
    write(&fs, "/tmp/f", b"").unwrap();
    assert_eq!(write(&fs, "/tmp/nodir/f", b""), Err(FsError::NotFound));
    assert_eq!(write(&fs, "/tmp/f/g", b""), Err(FsError::NotADirectory));
    assert_eq!(block_on(fs.read_dir("/tmp/f")), Err(FsError::NotADirectory));
    assert_eq!(block_on(fs.read_link("/tmp/f")), Err(FsError::InvalidArgument));
    assert_eq!(block_on(fs.symlink("", "/tmp/empty")), Err(FsError::NotFound));
}

#[test]
fn opening_a_directory_reads_as_eisdir() {
    let fs = user_fs();
    let handle = block_on(fs.open("/tmp", OpenOptions::read_only())).unwrap();
    assert_eq!(block_on(handle.read_at(0, 10)), Err(FsError::IsADirectory));
    let create = OpenOptions { read: true, create: true, mode: 0o644, ..Default::default() };
    assert_eq!(block_on(fs.open("/tmp", create)).err(), Some(FsError::IsADirectory));
    assert_eq!(write(&fs, "/tmp", b""), Err(FsError::IsADirectory));
}
