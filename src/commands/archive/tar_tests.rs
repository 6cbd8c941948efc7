//! Unit tests of `tar`; messages recorded from GNU tar 1.34.

use super::gzip_format::compress;
use super::tar_reader::read_all;
use super::test_bytes::{fs_with, run_bytes};
use crate::commands::test_support::run_utility;
use crate::executor::block_on;
use crate::fs::{Fs, MemoryFs};

fn run(fs: &MemoryFs, args: &[&str], stdin: &[u8]) -> (String, String, i32) {
    let out = run_utility(fs, args, stdin);
    (out.stdout, out.stderr, out.status)
}

fn read(fs: &MemoryFs, name: &str) -> Option<Vec<u8>> {
    block_on(fs.read_file(&format!("/home/user/{name}"))).ok()
}

fn tree() -> MemoryFs {
    let fs = fs_with(&[("d/", b""), ("d/sub/", b""), ("d/f.txt", b"hello\n")]);
    block_on(fs.symlink("f.txt", "/home/user/d/link")).unwrap();
    fs
}

#[test]
fn create_then_list() {
    let fs = tree();
    assert_eq!(run(&fs, &["tar", "cf", "a.tar", "d"], b""), (String::new(), String::new(), 0));
    let archive = read(&fs, "a.tar").unwrap();
    assert_eq!(archive.len(), 10240);
    assert_eq!(&archive[257..265], b"ustar  \0");
    assert_eq!(run(&fs, &["tar", "tf", "a.tar"], b"").0, "d/\nd/f.txt\nd/link\nd/sub/\n");
    assert_eq!(run(&fs, &["tar", "-tf", "a.tar"], b"").0, "d/\nd/f.txt\nd/link\nd/sub/\n");
    assert_eq!(run(&fs, &["tar", "--list", "--file=a.tar"], b"").0, "d/\nd/f.txt\nd/link\nd/sub/\n");
    let (out, _, _) = run(&fs, &["tar", "tvf", "a.tar"], b"");
    assert_eq!(
        out,
        "drwxr-xr-x user/user         0 2024-01-01 00:00 d/\n-rw-r--r-- user/user         6 2024-01-01 00:00 d/f.txt\nlrwxrwxrwx user/user         0 2024-01-01 00:00 d/link -> f.txt\ndrwxr-xr-x user/user         0 2024-01-01 00:00 d/sub/\n"
    );
    assert_eq!(run(&fs, &["tar", "cvf", "b.tar", "d"], b"").0, "d/\nd/f.txt\nd/link\nd/sub/\n");
}

#[test]
fn members_and_wildcards() {
    let fs = tree();
    run(&fs, &["tar", "cf", "a.tar", "d"], b"");
    assert_eq!(run(&fs, &["tar", "tf", "a.tar", "d/sub"], b"").0, "d/sub/\n");
    assert_eq!(run(&fs, &["tar", "tf", "a.tar", "--wildcards", "d/*.txt"], b"").0, "d/f.txt\n");
    let (_, err, status) = run(&fs, &["tar", "tf", "a.tar", "nothere"], b"");
    assert_eq!(err, "tar: nothere: Not found in archive\ntar: Exiting with failure status due to previous errors\n");
    assert_eq!(status, 2);
    let (_, err, _) = run(&fs, &["tar", "tf", "a.tar", "d/*"], b"");
    assert_eq!(
        err,
        "tar: Pattern matching characters used in file names\ntar: Use --wildcards to enable pattern matching, or --no-wildcards to suppress this warning\ntar: d/*: Not found in archive\ntar: Exiting with failure status due to previous errors\n"
    );
}

#[test]
fn excludes() {
    let fs = tree();
    run(&fs, &["tar", "cf", "a.tar", "--exclude=sub", "--exclude", "*.txt", "d"], b"");
    assert_eq!(run(&fs, &["tar", "tf", "a.tar"], b"").0, "d/\nd/link\n");
    run(&fs, &["tar", "cf", "b.tar", "--exclude=d/f*", "d"], b"");
    assert_eq!(run(&fs, &["tar", "tf", "b.tar"], b"").0, "d/\nd/link\nd/sub/\n");
    run(&fs, &["tar", "cf", "c.tar", "d"], b"");
    assert_eq!(run(&fs, &["tar", "tf", "c.tar", "--exclude=link"], b"").0, "d/\nd/f.txt\nd/sub/\n");
}

#[test]
fn extract_restores_files_links_and_times() {
    let fs = tree();
    run(&fs, &["tar", "cf", "a.tar", "d"], b"");
    block_on(fs.create_dir("/home/user/x", 0o755)).unwrap();
    assert_eq!(run(&fs, &["tar", "xvf", "a.tar", "-C", "x"], b""), ("d/\nd/f.txt\nd/link\nd/sub/\n".into(), String::new(), 0));
    assert_eq!(read(&fs, "x/d/f.txt").unwrap(), b"hello\n");
    assert_eq!(block_on(fs.read_link("/home/user/x/d/link")).unwrap(), "f.txt");
    let metadata = block_on(fs.metadata("/home/user/x/d/sub")).unwrap();
    assert!(metadata.is_dir());
    assert_eq!(metadata.mtime, 1_704_067_200_000.0);
    let (_, err, status) = run(&fs, &["tar", "xkf", "a.tar", "-C", "x"], b"");
    assert_eq!(
        err,
        "tar: d/f.txt: Cannot open: File exists\ntar: d/link: Cannot create symlink to 'f.txt': File exists\ntar: Exiting with failure status due to previous errors\n"
    );
    assert_eq!(status, 2);
    block_on(fs.write_file("/home/user/x/d/f.txt", b"changed")).unwrap();
    assert_eq!(run(&fs, &["tar", "xf", "a.tar", "-C", "x"], b"").2, 0);
    assert_eq!(read(&fs, "x/d/f.txt").unwrap(), b"hello\n");
}

#[test]
fn extract_options() {
    let fs = tree();
    run(&fs, &["tar", "cf", "a.tar", "d"], b"");
    assert_eq!(run(&fs, &["tar", "xOf", "a.tar", "d/f.txt"], b"").0, "hello\n");
    assert_eq!(run(&fs, &["tar", "xf", "a.tar", "-O", "d/f.txt", "-v"], b"").0, "d/f.txt\nhello\n");
    block_on(fs.create_dir("/home/user/s", 0o755)).unwrap();
    assert_eq!(run(&fs, &["tar", "xf", "a.tar", "-C", "s", "--strip-components=1"], b"").2, 0);
    assert_eq!(read(&fs, "s/f.txt").unwrap(), b"hello\n");
    assert!(block_on(fs.metadata("/home/user/s/sub")).unwrap().is_dir());
    let (_, err, status) = run(&fs, &["tar", "xf", "a.tar", "-C", "nodir"], b"");
    assert_eq!(
        (err.as_str(), status),
        ("tar: nodir: Cannot open: No such file or directory\ntar: Error is not recoverable: exiting now\n", 2)
    );
    block_on(fs.remove_file("/home/user/d/f.txt")).unwrap();
    assert_eq!(run(&fs, &["tar", "xf", "a.tar", "d/f.txt"], b"").2, 0);
    assert_eq!(read(&fs, "d/f.txt").unwrap(), b"hello\n");
}

#[test]
fn gzip_archives() {
    let fs = tree();
    assert_eq!(run(&fs, &["tar", "czf", "a.tgz", "d"], b"").2, 0);
    let packed = read(&fs, "a.tgz").unwrap();
    assert_eq!(&packed[..2], &[0x1f, 0x8b]);
    assert_eq!(run(&fs, &["tar", "tzf", "a.tgz"], b"").0, "d/\nd/f.txt\nd/link\nd/sub/\n");
    assert_eq!(run(&fs, &["tar", "tf", "a.tgz"], b"").0, "d/\nd/f.txt\nd/link\nd/sub/\n");
    let (_, err, status) = run(&fs, &["tar", "tf", "-"], &packed);
    assert_eq!((err.as_str(), status), ("tar: Archive is compressed. Use -z option\ntar: Error is not recoverable: exiting now\n", 2));
    assert_eq!(run(&fs, &["tar", "tzf", "-"], &packed).0, "d/\nd/f.txt\nd/link\nd/sub/\n");
    run(&fs, &["tar", "cf", "a.tar", "d"], b"");
    let (_, err, status) = run(&fs, &["tar", "tzf", "a.tar"], b"");
    assert_eq!(err, "\ngzip: stdin: not in gzip format\ntar: Child returned status 1\ntar: Error is not recoverable: exiting now\n");
    assert_eq!(status, 2);
    assert_eq!(run(&fs, &["tar", "-caf", "b.tar.gz", "d"], b"").2, 0);
    assert_eq!(&read(&fs, "b.tar.gz").unwrap()[..2], &[0x1f, 0x8b]);
}

#[test]
fn stdout_and_stdin_archives() {
    let fs = tree();
    let (archive, err, status) = run_bytes(&fs, &["tar", "cvf", "-", "d"], b"");
    assert_eq!((err.as_str(), status), ("d/\nd/f.txt\nd/link\nd/sub/\n", 0));
    let entries = read_all(&archive).unwrap();
    assert_eq!(entries.len(), 4);
    assert_eq!(run(&fs, &["tar", "t"], &archive).0, "d/\nd/f.txt\nd/link\nd/sub/\n");
    let (gz, _, _) = run_bytes(&fs, &["tar", "czf", "-", "d"], b"");
    assert_eq!(gz, compress(&archive, 6, None, 0));
    let (plain, _, _) = run_bytes(&fs, &["tar", "cf", "-", "-C", "d", "f.txt"], b"");
    assert_eq!(read_all(&plain).unwrap()[0].0.name, "f.txt");
}

#[test]
fn create_errors() {
    let fs = tree();
    let (_, err, status) = run(&fs, &["tar", "cf", "c.tar", "missing"], b"");
    assert_eq!(err, "tar: missing: Cannot stat: No such file or directory\ntar: Exiting with failure status due to previous errors\n");
    assert_eq!(status, 2);
    let (_, err, status) = run(&fs, &["tar", "cf", "e.tar"], b"");
    assert_eq!(err, "tar: Cowardly refusing to create an empty archive\nTry 'tar --help' or 'tar --usage' for more information.\n");
    assert_eq!(status, 2);
    let (_, err, _) = run(&fs, &["tar", "cf", "self.tar", "."], b"");
    assert_eq!(err, "tar: ./self.tar: file is the archive; not dumped\n");
    let (_, err, status) = run(&fs, &["tar", "cf", "abs.tar", "/home/user/d/f.txt"], b"");
    assert_eq!((err.as_str(), status), ("tar: Removing leading `/' from member names\n", 0));
    assert_eq!(run(&fs, &["tar", "tf", "abs.tar"], b"").0, "home/user/d/f.txt\n");
    let (_, err, status) = run(&fs, &["tar", "cf", "nodir/x.tar", "d"], b"");
    assert_eq!(err, "tar: nodir/x.tar: Cannot open: No such file or directory\ntar: Error is not recoverable: exiting now\n");
    assert_eq!(status, 2);
}

#[test]
fn usage_errors() {
    let fs = tree();
    let (_, err, status) = run(&fs, &["tar", "cxf", "a.tar"], b"");
    assert_eq!(err, "tar: You may not specify more than one '-Acdtrux', '--delete' or  '--test-label' option\nTry 'tar --help' or 'tar --usage' for more information.\n");
    assert_eq!(status, 2);
    let (_, err, status) = run(&fs, &["tar", "-Q"], b"");
    assert_eq!((err.as_str(), status), ("tar: invalid option -- 'Q'\nTry 'tar --help' or 'tar --usage' for more information.\n", 64));
    let (_, err, status) = run(&fs, &["tar", "--frob"], b"");
    assert_eq!(
        (err.as_str(), status),
        ("tar: unrecognized option '--frob'\nTry 'tar --help' or 'tar --usage' for more information.\n", 64)
    );
    let (_, err, status) = run(&fs, &["tar", "cf"], b"");
    assert_eq!(
        (err.as_str(), status),
        ("tar: Old option 'f' requires an argument.\nTry 'tar --help' or 'tar --usage' for more information.\n", 2)
    );
    let (_, err, _) = run(&fs, &["tar", "f", "x.tar"], b"");
    assert_eq!(err, "tar: You must specify one of the '-Acdtrux', '--delete' or '--test-label' options\nTry 'tar --help' or 'tar --usage' for more information.\n");
    let (_, err, status) = run(&fs, &["tar", "xf", "nope.tar"], b"");
    assert_eq!(
        (err.as_str(), status),
        ("tar: nope.tar: Cannot open: No such file or directory\ntar: Error is not recoverable: exiting now\n", 2)
    );
}

#[test]
fn bad_archives() {
    let fs = fs_with(&[("j.tar", b"junk"), ("zero.tar", b"")]);
    let (_, err, status) = run(&fs, &["tar", "tf", "j.tar"], b"");
    assert_eq!(
        (err.as_str(), status),
        ("tar: This does not look like a tar archive\ntar: Exiting with failure status due to previous errors\n", 2)
    );
    assert_eq!(run(&fs, &["tar", "tf", "zero.tar"], b"").2, 2);
    let zeros = vec![0u8; 10240];
    assert_eq!(run(&fs, &["tar", "tf", "-"], &zeros), (String::new(), String::new(), 0));
}

#[test]
fn refuses_dot_dot_members() {
    let mut archive = Vec::new();
    let entry = super::tar_format::Entry {
        name: "../evil".into(),
        kind: super::tar_format::Kind::File,
        mode: 0o644,
        uid: 0,
        gid: 0,
        uname: "root".into(),
        gname: "root".into(),
        mtime: 0,
        size: 1,
    };
    super::tar_format::write_header(&mut archive, &entry);
    archive.push(b'x');
    archive.resize(512 * 2, 0);
    archive.extend(super::tar_format::ending(archive.len() as u64));
    let fs = fs_with(&[]);
    let (_, err, status) = run(&fs, &["tar", "xf", "-"], &archive);
    assert_eq!(err, "tar: ../evil: Member name contains '..'\ntar: Exiting with failure status due to previous errors\n");
    assert_eq!(status, 2);
    assert!(block_on(fs.metadata("/home/evil")).is_err());
}

#[test]
fn hard_links_are_archived_once() {
    let fs = fs_with(&[("h/", b""), ("h/a", b"same")]);
    block_on(fs.hard_link("/home/user/h/a", "/home/user/h/b")).unwrap();
    run(&fs, &["tar", "cf", "h.tar", "h"], b"");
    let (out, _, _) = run(&fs, &["tar", "tvf", "h.tar"], b"");
    assert!(out.ends_with("h/b link to h/a\n"), "{out}");
    block_on(fs.create_dir("/home/user/out", 0o755)).unwrap();
    assert_eq!(run(&fs, &["tar", "xf", "h.tar", "-C", "out"], b"").2, 0);
    assert_eq!(read(&fs, "out/h/b").unwrap(), b"same");
}
