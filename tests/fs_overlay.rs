//! The copy-on-write overlay: an in-memory upper layer over a lower
//! filesystem that never changes.

mod fs_support;

use fs_support::*;
use std::rc::Rc;
use wabash::executor::block_on;
use wabash::fs::overlay::OverlayFs;
use wabash::fs::readonly::ReadOnlyFs;
use wabash::fs::{Credentials, Fs, FsError, MemoryFs};

/// A lower tree (read-only) with a project, and an overlay on it.
fn overlay() -> (OverlayFs, MemoryFs) {
    let lower = user_fs();
    block_on(lower.create_dir("/home/user/project", 0o755)).unwrap();
    block_on(lower.create_dir("/home/user/project/src", 0o755)).unwrap();
    write(&lower, "/home/user/project/README", b"lower readme").unwrap();
    write(&lower, "/home/user/project/src/a.rs", b"a").unwrap();
    write(&lower, "/home/user/project/src/b.rs", b"b").unwrap();
    block_on(lower.symlink("src/a.rs", "/home/user/project/alink")).unwrap();
    write(&lower.with_credentials(Credentials::ROOT), "/etc/config", b"root's").unwrap();
    let upper = MemoryFs::new(Rc::new(wabash::host::FixedHost::default()), USER.uid, USER.gid);
    let fs = OverlayFs::new(upper, Rc::new(ReadOnlyFs::new(Rc::new(lower.clone()))));
    (fs, lower)
}

#[test]
fn reads_come_from_the_lower_layer() {
    let (fs, _lower) = overlay();
    assert_eq!(read(&fs, "/home/user/project/README").unwrap(), b"lower readme");
    assert_eq!(read(&fs, "/home/user/project/alink").unwrap(), b"a");
    assert_eq!(names(&fs, "/home/user/project").unwrap(), vec!["README", "alink", "src"]);
    assert!(fs.upper().changes_since(&fs.upper().checkpoint()).is_empty());
}

#[test]
fn writes_copy_up_and_leave_the_lower_layer_alone() {
    let (fs, lower) = overlay();
    append(&fs, "/home/user/project/README", b" + upper").unwrap();
    assert_eq!(read(&fs, "/home/user/project/README").unwrap(), b"lower readme + upper");
    assert_eq!(read(&lower, "/home/user/project/README").unwrap(), b"lower readme");
    write(&fs, "/home/user/project/src/c.rs", b"c").unwrap();
    assert_eq!(names(&fs, "/home/user/project/src").unwrap(), vec!["a.rs", "b.rs", "c.rs"]);
    assert_eq!(read(&lower, "/home/user/project/src/c.rs"), Err(FsError::NotFound));
    // Copy-up keeps the lower attributes.
    let meta = block_on(fs.metadata("/home/user/project/src")).unwrap();
    assert_eq!((meta.uid, meta.mode), (USER.uid, 0o755));
}

#[test]
fn deletes_leave_whiteouts() {
    let (fs, lower) = overlay();
    block_on(fs.remove_file("/home/user/project/src/a.rs")).unwrap();
    assert_eq!(read(&fs, "/home/user/project/src/a.rs"), Err(FsError::NotFound));
    assert_eq!(read(&fs, "/home/user/project/alink"), Err(FsError::NotFound));
    assert_eq!(names(&fs, "/home/user/project/src").unwrap(), vec!["b.rs"]);
    assert_eq!(fs.whiteouts(), vec!["/home/user/project/src/a.rs"]);
    assert_eq!(read(&lower, "/home/user/project/src/a.rs").unwrap(), b"a");
    // A new file of the same name shows the new contents.
    write(&fs, "/home/user/project/src/a.rs", b"new a").unwrap();
    assert_eq!(read(&fs, "/home/user/project/src/a.rs").unwrap(), b"new a");
}

#[test]
fn a_directory_removed_and_made_again_starts_empty() {
    let (fs, _lower) = overlay();
    assert_eq!(block_on(fs.remove_dir("/home/user/project/src")), Err(FsError::DirectoryNotEmpty));
    block_on(fs.remove_file("/home/user/project/src/a.rs")).unwrap();
    block_on(fs.remove_file("/home/user/project/src/b.rs")).unwrap();
    block_on(fs.remove_dir("/home/user/project/src")).unwrap();
    assert_eq!(block_on(fs.metadata("/home/user/project/src")), Err(FsError::NotFound));
    block_on(fs.create_dir("/home/user/project/src", 0o700)).unwrap();
    assert!(names(&fs, "/home/user/project/src").unwrap().is_empty());
    assert_eq!(block_on(fs.metadata("/home/user/project/src")).unwrap().mode, 0o700);
}

#[test]
fn renames_move_files_and_refuse_lower_directories() {
    let (fs, lower) = overlay();
    block_on(fs.rename("/home/user/project/README", "/home/user/README.old")).unwrap();
    assert_eq!(read(&fs, "/home/user/README.old").unwrap(), b"lower readme");
    assert_eq!(read(&fs, "/home/user/project/README"), Err(FsError::NotFound));
    assert_eq!(read(&lower, "/home/user/project/README").unwrap(), b"lower readme");
    assert_eq!(block_on(fs.rename("/home/user/project/src", "/home/user/src2")), Err(FsError::CrossDevice));
    block_on(fs.create_dir("/home/user/fresh", 0o755)).unwrap();
    write(&fs, "/home/user/fresh/f", b"f").unwrap();
    block_on(fs.rename("/home/user/fresh", "/home/user/project/fresh")).unwrap();
    assert_eq!(read(&fs, "/home/user/project/fresh/f").unwrap(), b"f");
}

#[test]
fn attribute_changes_copy_up_and_permissions_use_the_merged_view() {
    let (fs, lower) = overlay();
    block_on(fs.set_mode("/home/user/project/README", 0o600)).unwrap();
    assert_eq!(block_on(fs.metadata("/home/user/project/README")).unwrap().mode, 0o600);
    assert_eq!(block_on(lower.metadata("/home/user/project/README")).unwrap().mode, 0o644);
    assert_eq!(block_on(fs.set_mode("/etc/config", 0o666)), Err(FsError::NotPermitted));
    assert_eq!(write(&fs, "/etc/config", b"mine"), Err(FsError::PermissionDenied));
    assert_eq!(write(&fs, "/etc/new", b""), Err(FsError::PermissionDenied));
    assert_eq!(block_on(fs.remove_file("/etc/config")), Err(FsError::PermissionDenied));
    assert_eq!(read(&fs, "/etc/config").unwrap(), b"root's");
}

#[test]
fn hard_links_and_symlinks_land_in_the_upper_layer() {
    let (fs, _lower) = overlay();
    block_on(fs.hard_link("/home/user/project/src/b.rs", "/home/user/b-link")).unwrap();
    write(&fs, "/home/user/b-link", b"changed").unwrap();
    assert_eq!(read(&fs, "/home/user/project/src/b.rs").unwrap(), b"changed");
    block_on(fs.symlink("project/README", "/home/user/readme")).unwrap();
    assert_eq!(read(&fs, "/home/user/readme").unwrap(), b"lower readme");
    let changes = fs.upper().changes_since(&fs.upper().checkpoint());
    assert!(changes.is_empty());
}

#[test]
fn the_overlay_can_be_mounted_and_snapshotted_through_its_upper_layer() {
    let (fs, _lower) = overlay();
    let checkpoint = fs.upper().checkpoint();
    write(&fs, "/home/user/out.txt", b"result").unwrap();
    let changes = fs.upper().changes_since(&checkpoint);
    assert!(changes.created.contains(&"/home/user/out.txt".to_string()));
    let bytes = fs.upper().snapshot();
    let again = MemoryFs::new(Rc::new(wabash::host::FixedHost::default()), USER.uid, USER.gid);
    again.restore(&bytes).unwrap();
    assert_eq!(read(&again, "/home/user/out.txt").unwrap(), b"result");
}

#[test]
fn the_merged_root_has_the_lower_roots_attributes() {
    let (fs, lower) = overlay();
    let root = lower.with_credentials(Credentials::ROOT);
    block_on(root.set_owner("/", Some(USER.uid), Some(USER.gid))).unwrap();
    block_on(root.set_mode("/", 0o700)).unwrap();
    let meta = block_on(fs.metadata("/")).unwrap();
    assert_eq!((meta.uid, meta.mode), (USER.uid, 0o700));
    write(&fs, "/at-the-top", b"ok").unwrap();
}

#[test]
fn an_overlay_is_saved_as_upper_snapshot_plus_whiteouts() {
    let (fs, lower) = overlay();
    block_on(fs.remove_file("/home/user/project/README")).unwrap();
    write(&fs, "/home/user/project/NEW", b"new").unwrap();
    let (bytes, whiteouts) = (fs.upper().snapshot(), fs.whiteouts());
    let upper = MemoryFs::new(Rc::new(wabash::host::FixedHost::default()), USER.uid, USER.gid);
    upper.restore(&bytes).unwrap();
    let again = OverlayFs::new(upper, Rc::new(lower));
    again.set_whiteouts(whiteouts);
    assert_eq!(names(&again, "/home/user/project").unwrap(), vec!["NEW", "alink", "src"]);
}
