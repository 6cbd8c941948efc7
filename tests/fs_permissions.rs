//! Permission checks of the in-memory filesystem, as Linux makes them for an
//! unprivileged user (checked against a real non-root user on Debian).

mod fs_support;

use fs_support::*;
use wabash::executor::block_on;
use wabash::fs::{Access, Credentials, Fs, FsError, OpenOptions};

#[test]
fn a_file_without_write_permission_cannot_be_written() {
    let fs = user_fs();
    write(&fs, "/home/user/f", b"a").unwrap();
    block_on(fs.set_mode("/home/user/f", 0o444)).unwrap();
    assert_eq!(write(&fs, "/home/user/f", b"x"), Err(FsError::PermissionDenied));
    assert_eq!(append(&fs, "/home/user/f", b"x"), Err(FsError::PermissionDenied));
    assert_eq!(read(&fs, "/home/user/f").unwrap(), b"a");
    assert_eq!(block_on(fs.access("/home/user/f", Access::WRITE)), Err(FsError::PermissionDenied));
    assert_eq!(block_on(fs.access("/home/user/f", Access::READ)), Ok(()));
    // The owner may still remove it: that needs the directory's write bit.
    block_on(fs.remove_file("/home/user/f")).unwrap();
}

#[test]
fn a_file_without_read_permission_cannot_be_read() {
    let fs = user_fs();
    write(&fs, "/home/user/f", b"secret").unwrap();
    block_on(fs.set_mode("/home/user/f", 0o200)).unwrap();
    assert_eq!(read(&fs, "/home/user/f"), Err(FsError::PermissionDenied));
    write(&fs, "/home/user/f", b"new").unwrap();
}

#[test]
fn root_bypasses_read_and_write_bits() {
    let fs = user_fs();
    let root = fs.with_credentials(Credentials::ROOT);
    write(&fs, "/home/user/f", b"a").unwrap();
    block_on(fs.set_mode("/home/user/f", 0o000)).unwrap();
    assert_eq!(read(&root, "/home/user/f").unwrap(), b"a");
    write(&root, "/home/user/f", b"b").unwrap();
    assert_eq!(block_on(root.access("/home/user/f", Access::EXECUTE)), Err(FsError::PermissionDenied));
    write(&root, "/etc/passwd", b"root:x:0:0::/root:/bin/sh\n").unwrap();
    assert_eq!(write(&fs, "/etc/passwd", b""), Err(FsError::PermissionDenied));
}

#[test]
fn creating_in_a_directory_needs_its_write_bit() {
    let fs = user_fs();
    block_on(fs.create_dir("/home/user/d", 0o755)).unwrap();
    write(&fs, "/home/user/d/old", b"").unwrap();
    block_on(fs.set_mode("/home/user/d", 0o555)).unwrap();
    assert_eq!(write(&fs, "/home/user/d/new", b""), Err(FsError::PermissionDenied));
    assert_eq!(block_on(fs.create_dir("/home/user/d/sub", 0o755)), Err(FsError::PermissionDenied));
    assert_eq!(block_on(fs.symlink("x", "/home/user/d/link")), Err(FsError::PermissionDenied));
    assert_eq!(block_on(fs.remove_file("/home/user/d/old")), Err(FsError::PermissionDenied));
    assert_eq!(block_on(fs.rename("/home/user/d/old", "/home/user/moved")), Err(FsError::PermissionDenied));
    // Existing files inside stay writable: that is their own bit.
    write(&fs, "/home/user/d/old", b"ok").unwrap();
    assert_eq!(write(&fs, "/newfile", b""), Err(FsError::PermissionDenied));
}

#[test]
fn listing_needs_read_and_traversing_needs_execute() {
    let fs = user_fs();
    block_on(fs.create_dir("/home/user/d", 0o755)).unwrap();
    write(&fs, "/home/user/d/f", b"x").unwrap();
    block_on(fs.set_mode("/home/user/d", 0o311)).unwrap();
    assert_eq!(names(&fs, "/home/user/d"), Err(FsError::PermissionDenied));
    assert_eq!(read(&fs, "/home/user/d/f").unwrap(), b"x");
    block_on(fs.set_mode("/home/user/d", 0o644)).unwrap();
    assert_eq!(names(&fs, "/home/user/d").unwrap(), vec!["f"]);
    assert_eq!(read(&fs, "/home/user/d/f"), Err(FsError::PermissionDenied));
    assert_eq!(block_on(fs.metadata("/home/user/d/f")), Err(FsError::PermissionDenied));
    assert_eq!(block_on(fs.metadata("/home/user/d/missing")), Err(FsError::PermissionDenied));
    // The directory itself can still be stat'ed and fixed.
    block_on(fs.metadata("/home/user/d")).unwrap();
    block_on(fs.set_mode("/home/user/d", 0o755)).unwrap();
}

#[test]
fn sticky_tmp_protects_other_users_files() {
    let fs = user_fs();
    let other = fs.with_credentials(OTHER);
    write(&other, "/tmp/theirs", b"x").unwrap();
    write(&fs, "/tmp/mine", b"y").unwrap();
    assert_eq!(block_on(fs.remove_file("/tmp/theirs")), Err(FsError::NotPermitted));
    assert_eq!(block_on(fs.rename("/tmp/theirs", "/tmp/stolen")), Err(FsError::NotPermitted));
    assert_eq!(block_on(fs.rename("/tmp/mine", "/tmp/theirs")), Err(FsError::NotPermitted));
    block_on(fs.rename("/tmp/mine", "/tmp/renamed")).unwrap();
    block_on(fs.remove_file("/tmp/renamed")).unwrap();
    block_on(other.remove_file("/tmp/theirs")).unwrap();
}

#[test]
fn only_the_owner_changes_modes_and_only_root_gives_files_away() {
    let fs = user_fs();
    let other = fs.with_credentials(OTHER);
    write(&fs, "/tmp/f", b"x").unwrap();
    assert_eq!(block_on(other.set_mode("/tmp/f", 0o777)), Err(FsError::NotPermitted));
    assert_eq!(block_on(fs.set_owner("/tmp/f", Some(OTHER.uid), None)), Err(FsError::NotPermitted));
    assert_eq!(block_on(fs.set_owner("/tmp/f", None, Some(0))), Err(FsError::NotPermitted));
    assert_eq!(block_on(other.set_owner("/tmp/f", None, Some(OTHER.gid))), Err(FsError::NotPermitted));
    block_on(fs.set_owner("/tmp/f", Some(USER.uid), Some(USER.gid))).unwrap();
    let root = fs.with_credentials(Credentials::ROOT);
    block_on(root.set_owner("/tmp/f", Some(OTHER.uid), Some(OTHER.gid))).unwrap();
    let meta = block_on(fs.metadata("/tmp/f")).unwrap();
    assert_eq!((meta.uid, meta.gid), (OTHER.uid, OTHER.gid));
    assert_eq!(block_on(fs.set_times("/tmp/f", Some(5.0), Some(5.0))), Err(FsError::NotPermitted));
}

#[test]
fn chown_clears_set_user_id() {
    let fs = user_fs();
    let root = fs.with_credentials(Credentials::ROOT);
    write(&fs, "/tmp/f", b"x").unwrap();
    block_on(fs.set_mode("/tmp/f", 0o4755)).unwrap();
    block_on(root.set_owner("/tmp/f", Some(0), None)).unwrap();
    assert_eq!(block_on(fs.metadata("/tmp/f")).unwrap().mode, 0o755);
}

#[test]
fn touching_a_writable_file_of_another_user_sets_only_now() {
    let host = host();
    let fs = user_fs_with(host.clone(), Default::default());
    let other = fs.with_credentials(OTHER);
    write(&other, "/tmp/f", b"x").unwrap();
    block_on(other.set_mode("/tmp/f", 0o666)).unwrap();
    let now = 1_000_000.0;
    block_on(fs.set_times("/tmp/f", Some(now), Some(now))).unwrap();
    assert_eq!(block_on(fs.set_times("/tmp/f", Some(1.0), Some(1.0))), Err(FsError::NotPermitted));
    block_on(other.set_mode("/tmp/f", 0o644)).unwrap();
    assert_eq!(block_on(fs.set_times("/tmp/f", Some(now), Some(now))), Err(FsError::PermissionDenied));
}

#[test]
fn moving_a_directory_to_another_parent_needs_write_on_it() {
    let fs = user_fs();
    block_on(fs.create_dir("/home/user/d", 0o555)).unwrap();
    block_on(fs.create_dir("/home/user/e", 0o755)).unwrap();
    assert_eq!(block_on(fs.rename("/home/user/d", "/home/user/e/d")), Err(FsError::PermissionDenied));
    block_on(fs.rename("/home/user/d", "/home/user/d2")).unwrap();
}

#[test]
fn hard_links_to_other_users_files_need_read_and_write() {
    let fs = user_fs();
    let root = fs.with_credentials(Credentials::ROOT);
    write(&root, "/etc/shadow", b"x").unwrap();
    block_on(root.set_mode("/etc/shadow", 0o640)).unwrap();
    assert_eq!(block_on(fs.hard_link("/etc/shadow", "/tmp/s")), Err(FsError::NotPermitted));
    write(&fs, "/tmp/mine", b"x").unwrap();
    block_on(fs.set_mode("/tmp/mine", 0o400)).unwrap();
    block_on(fs.hard_link("/tmp/mine", "/tmp/mine2")).unwrap();
}

#[test]
fn opening_for_truncation_checks_before_changing() {
    let fs = user_fs();
    write(&fs, "/tmp/f", b"keep").unwrap();
    block_on(fs.set_mode("/tmp/f", 0o444)).unwrap();
    let result = block_on(fs.open("/tmp/f", OpenOptions::write_truncate(0o644)));
    assert_eq!(result.err(), Some(FsError::PermissionDenied));
    assert_eq!(read(&fs, "/tmp/f").unwrap(), b"keep");
}

#[test]
fn a_set_group_id_directory_hands_down_its_group() {
    let fs = user_fs();
    let root = fs.with_credentials(Credentials::ROOT);
    block_on(root.create_dir("/srv", 0o777)).unwrap();
    block_on(root.set_owner("/srv", Some(0), Some(50))).unwrap();
    block_on(root.set_mode("/srv", 0o2777)).unwrap();
    write(&fs, "/srv/f", b"").unwrap();
    block_on(fs.create_dir("/srv/d", 0o755)).unwrap();
    assert_eq!(block_on(fs.metadata("/srv/f")).unwrap().gid, 50);
    assert_eq!(block_on(fs.metadata("/srv/d")).unwrap().mode, 0o2755);
}
