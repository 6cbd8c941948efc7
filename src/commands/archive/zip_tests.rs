//! Unit tests of `zip` and `unzip`; output recorded from Info-ZIP zip 3.0 and unzip 6.0.

use super::test_bytes::fs_with;
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

fn nums() -> Vec<u8> {
    (1..=2000).flat_map(|i: i32| format!("{i}\n").into_bytes()).collect()
}

fn tree() -> MemoryFs {
    let nums = nums();
    fs_with(&[("d/", b""), ("d/sub/", b""), ("d/f.txt", b"hello\n"), ("d/nums", &nums)])
}

#[test]
fn zip_adds_recursively() {
    let fs = tree();
    let (out, err, status) = run(&fs, &["zip", "-r", "a.zip", "d"], b"");
    assert_eq!(
        out,
        "  adding: d/ (stored 0%)\n  adding: d/f.txt (stored 0%)\n  adding: d/nums (deflated 53%)\n  adding: d/sub/ (stored 0%)\n"
    );
    assert_eq!((err.as_str(), status), ("", 0));
    assert_eq!(&read(&fs, "a.zip").unwrap()[..4], b"PK\x03\x04");
    let (out, _, _) = run(&fs, &["zip", "-r", "a.zip", "d/f.txt"], b"");
    assert_eq!(out, "updating: d/f.txt (stored 0%)\n");
    assert_eq!(run(&fs, &["zip", "b.zip", "d"], b"").0, "  adding: d/ (stored 0%)\n");
    assert_eq!(run(&fs, &["zip", "-q", "-r", "c.zip", "d"], b""), (String::new(), String::new(), 0));
    assert_eq!(run(&fs, &["zip", "noext", "d/f.txt"], b"").2, 0);
    assert!(read(&fs, "noext.zip").is_some());
}

#[test]
fn zip_options() {
    let fs = tree();
    assert_eq!(
        run(&fs, &["zip", "-j", "j.zip", "d/f.txt", "d/nums"], b"").0,
        "  adding: f.txt (stored 0%)\n  adding: nums (deflated 53%)\n"
    );
    assert_eq!(run(&fs, &["zip", "-0", "s.zip", "d/nums"], b"").0, "  adding: d/nums (stored 0%)\n");
    let (out, _, _) = run(&fs, &["zip", "-r", "x.zip", "d", "-x", "*.txt"], b"");
    assert!(!out.contains("f.txt") && out.contains("d/nums"));
    run(&fs, &["zip", "-r", "e.zip", "d"], b"");
    assert_eq!(run(&fs, &["zip", "-d", "e.zip", "d/f.txt"], b"").0, "deleting: d/f.txt\n");
    assert_eq!(run(&fs, &["unzip", "-Z1", "e.zip"], b"").0, "d/\nd/nums\nd/sub/\n");
    assert_eq!(run(&fs, &["zip", "-q", "st.zip", "-"], b"junk").2, 0);
    assert_eq!(run(&fs, &["unzip", "-p", "st.zip"], b"").0, "junk");
}

#[test]
fn zip_errors() {
    let fs = tree();
    // Info-ZIP writes its warnings and errors to standard output.
    let (out, err, status) = run(&fs, &["zip", "y.zip", "d/f.txt", "missing"], b"");
    assert_eq!(out, "\tzip warning: name not matched: missing\n  adding: d/f.txt (stored 0%)\n");
    assert_eq!((err.as_str(), status), ("", 0));
    let (out, _, status) = run(&fs, &["zip", "x.zip", "missing"], b"");
    assert_eq!((out.as_str(), status), ("\tzip warning: name not matched: missing\n\nzip error: Nothing to do! (x.zip)\n", 12));
    block_on(fs.write_file("/home/user/j.zip", b"junk")).unwrap();
    let (out, _, status) = run(&fs, &["zip", "j.zip", "d/f.txt"], b"");
    assert!(out.ends_with("\nzip error: Zip file structure invalid (j.zip)\n"));
    assert_eq!(status, 3);
}

#[test]
fn unzip_lists() {
    let fs = tree();
    run(&fs, &["zip", "-r", "e.zip", "d"], b"");
    let (out, _, status) = run(&fs, &["unzip", "-l", "e.zip"], b"");
    assert_eq!(
        out,
        "Archive:  e.zip\n  Length      Date    Time    Name\n---------  ---------- -----   ----\n        0  2024-01-01 00:00   d/\n        6  2024-01-01 00:00   d/f.txt\n     8893  2024-01-01 00:00   d/nums\n        0  2024-01-01 00:00   d/sub/\n---------                     -------\n     8899                     4 files\n"
    );
    assert_eq!(status, 0);
    let (out, _, _) = run(&fs, &["unzip", "-l", "e.zip", "d/f.txt"], b"");
    assert!(out.ends_with("        6                     1 file\n"));
    let (out, _, _) = run(&fs, &["unzip", "-v", "e.zip"], b"");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[1], " Length   Method    Size  Cmpr    Date    Time   CRC-32   Name");
    assert_eq!(lines[3], "       0  Stored        0   0% 2024-01-01 00:00 00000000  d/");
    assert_eq!(lines[4], "       6  Stored        6   0% 2024-01-01 00:00 363a3020  d/f.txt");
    assert!(lines[5].starts_with("    8893  Defl:N "));
    assert!(lines[5].ends_with(" 2024-01-01 00:00 5af99da9  d/nums"));
    assert_eq!(lines[7], "--------          -------  ---                            -------");
    let (out, _, _) = run(&fs, &["unzip", "-qq", "-l", "e.zip"], b"");
    assert_eq!(out.lines().next(), Some("        0  2024-01-01 00:00   d/"));
}

#[test]
fn unzip_extracts() {
    let fs = tree();
    run(&fs, &["zip", "-r", "e.zip", "d"], b"");
    let (out, err, status) = run(&fs, &["unzip", "e.zip", "-d", "u"], b"");
    assert_eq!(
        out,
        "Archive:  e.zip\n   creating: u/d/\n extracting: u/d/f.txt               \n  inflating: u/d/nums                \n   creating: u/d/sub/\n"
    );
    assert_eq!((err.as_str(), status), ("", 0));
    assert_eq!(read(&fs, "u/d/nums").unwrap(), nums());
    assert_eq!(block_on(fs.metadata("/home/user/u/d/f.txt")).unwrap().mtime, 1_704_067_200_000.0);
    let (out, _, status) = run(&fs, &["unzip", "e.zip", "-d", "u"], b"");
    assert!(
        out.contains("replace u/d/f.txt? [y]es, [n]o, [A]ll, [N]one, [r]ename:  NULL\n(EOF or read error, treating as \"[N]one\" ...)\n")
    );
    assert_eq!(status, 1);
    block_on(fs.write_file("/home/user/u/d/f.txt", b"changed")).unwrap();
    let (out, _, status) = run(&fs, &["unzip", "-o", "e.zip", "-d", "u"], b"");
    assert!(out.contains(" extracting: u/d/f.txt"));
    assert_eq!((read(&fs, "u/d/f.txt").unwrap(), status), (b"hello\n".to_vec(), 0));
    block_on(fs.write_file("/home/user/u/d/f.txt", b"changed")).unwrap();
    assert_eq!(run(&fs, &["unzip", "-n", "-q", "e.zip", "-d", "u"], b"").2, 0);
    assert_eq!(read(&fs, "u/d/f.txt").unwrap(), b"changed");
    assert_eq!(run(&fs, &["unzip", "-q", "e.zip", "-x", "d/f*", "-d", "v"], b"").2, 0);
    assert!(read(&fs, "v/d/f.txt").is_none() && read(&fs, "v/d/nums").is_some());
    assert_eq!(run(&fs, &["unzip", "-p", "e.zip", "d/f.txt"], b"").0, "hello\n");
    assert_eq!(run(&fs, &["unzip", "-qj", "e.zip", "d/f.txt", "-d", "flat"], b"").2, 0);
    assert!(read(&fs, "flat/f.txt").is_some());
}

#[test]
fn unzip_tests_archives() {
    let fs = tree();
    run(&fs, &["zip", "-r", "e.zip", "d"], b"");
    let (out, _, status) = run(&fs, &["unzip", "-t", "e.zip"], b"");
    assert_eq!(
        out,
        "Archive:  e.zip\n    testing: d/                       OK\n    testing: d/f.txt                  OK\n    testing: d/nums                   OK\n    testing: d/sub/                   OK\nNo errors detected in compressed data of e.zip.\n"
    );
    assert_eq!(status, 0);
    assert_eq!(run(&fs, &["unzip", "-tq", "e.zip"], b"").0, "No errors detected in compressed data of e.zip.\n");
}

#[test]
fn unzip_errors() {
    let fs = tree();
    run(&fs, &["zip", "-r", "e.zip", "d"], b"");
    let (_, err, status) = run(&fs, &["unzip", "nope.zip"], b"");
    assert_eq!((err.as_str(), status), ("unzip:  cannot find or open nope.zip, nope.zip.zip or nope.zip.ZIP.\n", 9));
    let (_, err, status) = run(&fs, &["unzip", "e.zip", "nothere"], b"");
    assert_eq!((err.as_str(), status), ("caution: filename not matched:  nothere\n", 11));
    block_on(fs.write_file("/home/user/j.zip", b"junk")).unwrap();
    let (out, err, status) = run(&fs, &["unzip", "j.zip"], b"");
    assert_eq!(out, "Archive:  j.zip\n");
    assert!(err.starts_with("  End-of-central-directory signature not found."));
    assert!(
        err.ends_with("unzip:  cannot find zipfile directory in one of j.zip or\n        j.zip.zip, and cannot find j.zip.ZIP, period.\n")
    );
    assert_eq!(status, 9);
    let (_, err, status) = run(&fs, &["unzip", "-q", "e.zip", "-d", "no/such/dir"], b"");
    assert_eq!(
        (err.as_str(), status),
        ("checkdir:  cannot create extraction directory: no/such/dir\n           No such file or directory\n", 2)
    );
    assert_eq!(run(&fs, &["unzip", "-l", "e"], b"").2, 0);
}

#[test]
fn symlinks_with_y() {
    let fs = tree();
    block_on(fs.symlink("f.txt", "/home/user/d/link")).unwrap();
    assert_eq!(run(&fs, &["zip", "-y", "sy.zip", "d/link"], b"").0, "  adding: d/link (stored 0%)\n");
    let (out, _, _) = run(&fs, &["unzip", "sy.zip", "-d", "u6"], b"");
    assert_eq!(out, "Archive:  sy.zip\n    linking: u6/d/link               -> f.txt \nfinishing deferred symbolic links:\n  u6/d/link              -> f.txt\n");
    assert_eq!(block_on(fs.read_link("/home/user/u6/d/link")).unwrap(), "f.txt");
    run(&fs, &["zip", "fo.zip", "d/link"], b"");
    assert_eq!(run(&fs, &["unzip", "-p", "fo.zip"], b"").0, "hello\n");
}
