//! Unit tests of the hash utilities; expectations recorded from GNU
//! coreutils 9.1.

use crate::commands::test_support::{new_fs, run_utility};
use crate::executor::block_on;
use crate::fs::{Fs, MemoryFs};

fn fs_with(files: &[(&str, &[u8])]) -> MemoryFs {
    let fs = new_fs();
    for (name, data) in files {
        block_on(fs.write_file(&format!("/home/user/{name}"), data)).unwrap();
    }
    fs
}

fn run(fs: &MemoryFs, args: &[&str], stdin: &[u8]) -> (String, String, i32) {
    let out = run_utility(fs, args, stdin);
    (out.stdout, out.stderr, out.status)
}

const HELLO_MD5: &str = "b1946ac92492d2347c6235b4d2611184";

#[test]
fn md5sum_prints_digest_lines() {
    let fs = fs_with(&[("a.txt", b"hello\n")]);
    assert_eq!(run(&fs, &["md5sum", "a.txt"], b"").0, format!("{HELLO_MD5}  a.txt\n"));
    assert_eq!(run(&fs, &["md5sum", "-b", "a.txt"], b"").0, format!("{HELLO_MD5} *a.txt\n"));
    assert_eq!(run(&fs, &["md5sum", "--tag", "a.txt"], b"").0, format!("MD5 (a.txt) = {HELLO_MD5}\n"));
    assert_eq!(run(&fs, &["md5sum"], b"hello").0, "5d41402abc4b2a76b9719d911017c592  -\n");
    assert_eq!(run(&fs, &["md5sum", "-z", "a.txt"], b"").0, format!("{HELLO_MD5}  a.txt\0"));
}

#[test]
fn sha_family_digests() {
    let fs = fs_with(&[("a.txt", b"hello\n")]);
    assert_eq!(run(&fs, &["sha1sum", "a.txt"], b"").0, "f572d396fae9206628714fb2ce00f72e94f2258f  a.txt\n");
    assert_eq!(
        run(&fs, &["sha256sum", "--tag", "a.txt"], b"").0,
        "SHA256 (a.txt) = 5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03\n"
    );
    let sha512 = run(&fs, &["sha512sum", "a.txt"], b"").0;
    assert!(sha512.starts_with(
        "e7c22b994c59d9cf2b48e549b1e24666636045930d3da7c1acb299d1c3b7f931f94aae41edda2c2b207a36e10f8bcb8d45223e54878f5b316e7ce3b6bc019629"
    ));
    assert_eq!(run(&fs, &["sha224sum"], b"").0, "d14a028c2a3a2bc9476102bb288234c415a2b01f828ea62ac5b3e42f  -\n");
    assert_eq!(run(&fs, &["sha384sum"], b"").0.len(), 96 + 4);
}

#[test]
fn md5sum_reports_missing_files_and_directories() {
    let fs = fs_with(&[("a.txt", b"hello\n")]);
    let (out, err, status) = run(&fs, &["md5sum", "a.txt", "missing"], b"");
    assert_eq!(out, format!("{HELLO_MD5}  a.txt\n"));
    assert_eq!(err, "md5sum: missing: No such file or directory\n");
    assert_eq!(status, 1);
    let (_, err, status) = run(&fs, &["md5sum", "."], b"");
    assert_eq!((err.as_str(), status), ("md5sum: .: Is a directory\n", 1));
    let (_, err, _) = run(&fs, &["md5sum", "we\\ird"], b"");
    assert_eq!(err, "md5sum: 'we\\ird': No such file or directory\n");
}

#[test]
fn md5sum_escapes_odd_names() {
    let fs = fs_with(&[("we\\ird", b"")]);
    assert_eq!(run(&fs, &["md5sum", "we\\ird"], b"").0, "\\d41d8cd98f00b204e9800998ecf8427e  we\\\\ird\n");
}

#[test]
fn md5sum_rejects_bad_options() {
    let fs = new_fs();
    let (_, err, status) = run(&fs, &["md5sum", "-Q"], b"");
    assert_eq!(err, "md5sum: invalid option -- 'Q'\nTry 'md5sum --help' for more information.\n");
    assert_eq!(status, 1);
    let (_, err, status) = run(&fs, &["md5sum", "--status", "x"], b"");
    assert_eq!(err, "md5sum: the --status option is meaningful only when verifying checksums\nTry 'md5sum --help' for more information.\n");
    assert_eq!(status, 1);
    let (_, err, _) = run(&fs, &["md5sum", "-c", "--tag", "x"], b"");
    assert_eq!(err.lines().next(), Some("md5sum: the --tag option is meaningless when verifying checksums"));
    let (_, err, _) = run(&fs, &["md5sum", "-c", "-b", "x"], b"");
    assert_eq!(err.lines().next(), Some("md5sum: the --binary and --text options are meaningless when verifying checksums"));
    let (_, err, _) = run(&fs, &["md5sum", "-c", "-z", "x"], b"");
    assert_eq!(err.lines().next(), Some("md5sum: the --zero option is not supported when verifying checksums"));
}

fn check_fs() -> MemoryFs {
    let sums = format!("{HELLO_MD5}  a.txt\n9dd4e461268c8034f5c8564e155c67a6  b\ngarbage line\n");
    fs_with(&[("a.txt", b"hello\n"), ("b", b"y\n"), ("sums", sums.as_bytes())])
}

#[test]
fn check_mode_reports_ok_failed_and_warnings() {
    let fs = check_fs();
    let (out, err, status) = run(&fs, &["md5sum", "-c", "sums"], b"");
    assert_eq!(out, "a.txt: OK\nb: FAILED\n");
    assert_eq!(err, "md5sum: WARNING: 1 line is improperly formatted\nmd5sum: WARNING: 1 computed checksum did NOT match\n");
    assert_eq!(status, 1);
    let (out, _, _) = run(&fs, &["md5sum", "-c", "--quiet", "sums"], b"");
    assert_eq!(out, "b: FAILED\n");
    let (out, err, status) = run(&fs, &["md5sum", "-c", "--status", "sums"], b"");
    assert_eq!((out.as_str(), err.as_str(), status), ("", "", 1));
    let (_, err, _) = run(&fs, &["md5sum", "-c", "-w", "sums"], b"");
    assert!(err.starts_with("md5sum: sums: 3: improperly formatted MD5 checksum line\n"));
}

#[test]
fn check_mode_passes_good_lists() {
    let fs = check_fs();
    let good = format!("{HELLO_MD5}  a.txt\n");
    let (out, err, status) = run(&fs, &["md5sum", "-c"], good.as_bytes());
    assert_eq!((out.as_str(), err.as_str(), status), ("a.txt: OK\n", "", 0));
    let tagged = format!("MD5 (a.txt) = {HELLO_MD5}\n");
    assert_eq!(run(&fs, &["md5sum", "-c"], tagged.as_bytes()).0, "a.txt: OK\n");
    let binary = format!("{HELLO_MD5} *a.txt\n");
    assert_eq!(run(&fs, &["md5sum", "-c"], binary.as_bytes()).0, "a.txt: OK\n");
    let single = format!("{HELLO_MD5} a.txt\n");
    assert_eq!(run(&fs, &["md5sum", "-c"], single.as_bytes()).2, 0);
    let upper = format!("{}  a.txt\r\n", HELLO_MD5.to_uppercase());
    assert_eq!(run(&fs, &["md5sum", "-c"], upper.as_bytes()).0, "a.txt: OK\n");
    let (_, _, status) = run(&fs, &["md5sum", "-c", "--strict"], format!("{good}junk\n").as_bytes());
    assert_eq!(status, 1);
}

#[test]
fn check_mode_missing_files() {
    let fs = check_fs();
    let list = "d41d8cd98f00b204e9800998ecf8427e  missing\n";
    let (out, err, status) = run(&fs, &["md5sum", "-c"], list.as_bytes());
    assert_eq!(out, "missing: FAILED open or read\n");
    assert_eq!(err, "md5sum: missing: No such file or directory\nmd5sum: WARNING: 1 listed file could not be read\n");
    assert_eq!(status, 1);
    let (out, err, status) = run(&fs, &["md5sum", "-c", "--ignore-missing"], list.as_bytes());
    assert_eq!((out.as_str(), err.as_str(), status), ("", "md5sum: 'standard input': no file was verified\n", 1));
    let two = format!("{list}{list}");
    let (_, err, _) = run(&fs, &["md5sum", "-c"], two.as_bytes());
    assert!(err.ends_with("md5sum: WARNING: 2 listed files could not be read\n"));
    let (_, err, status) = run(&fs, &["md5sum", "-c", "nofile"], b"");
    assert_eq!((err.as_str(), status), ("md5sum: nofile: No such file or directory\n", 1));
}

#[test]
fn check_mode_without_valid_lines() {
    let fs = new_fs();
    let (_, err, status) = run(&fs, &["md5sum", "-c"], b"");
    assert_eq!(err, "md5sum: 'standard input': no properly formatted checksum lines found\n");
    assert_eq!(status, 1);
    let (_, err, _) = run(&fs, &["sha1sum", "-c"], format!("MD5 (a.txt) = {HELLO_MD5}\n").as_bytes());
    assert_eq!(err, "sha1sum: 'standard input': no properly formatted checksum lines found\n");
    let (_, err, _) = run(&fs, &["md5sum", "-c", "-w"], b"x\ny\n");
    assert_eq!(
        err,
        "md5sum: 'standard input': 1: improperly formatted MD5 checksum line\nmd5sum: 'standard input': 2: improperly formatted MD5 checksum line\nmd5sum: 'standard input': no properly formatted checksum lines found\n"
    );
}

#[test]
fn cksum_crc_and_sizes() {
    let fs = fs_with(&[("a.txt", b"hello\n")]);
    assert_eq!(run(&fs, &["cksum"], b"abc").0, "1219131554 3\n");
    assert_eq!(run(&fs, &["cksum"], b"").0, "4294967295 0\n");
    assert_eq!(run(&fs, &["cksum", "-"], b"abc").0, "1219131554 3 -\n");
    assert_eq!(run(&fs, &["cksum", "a.txt"], b"").0, "3015617425 6 a.txt\n");
    let (out, err, status) = run(&fs, &["cksum", "a.txt", "missing"], b"");
    assert_eq!(out, "3015617425 6 a.txt\n");
    assert_eq!((err.as_str(), status), ("cksum: missing: No such file or directory\n", 1));
}

#[test]
fn cksum_algorithms() {
    let fs = fs_with(&[("a.txt", b"hello\n")]);
    assert_eq!(run(&fs, &["cksum", "-a", "md5", "a.txt"], b"").0, format!("MD5 (a.txt) = {HELLO_MD5}\n"));
    assert_eq!(run(&fs, &["cksum", "-a", "md5", "--untagged", "a.txt"], b"").0, format!("{HELLO_MD5}  a.txt\n"));
    let (_, err, status) = run(&fs, &["cksum", "-a", "foo"], b"");
    assert!(err.starts_with("cksum: invalid argument 'foo' for '--algorithm'\nValid arguments are:\n  - 'bsd'\n"));
    assert!(err.ends_with("Try 'cksum --help' for more information.\n"));
    assert_eq!(status, 1);
    let (_, err, _) = run(&fs, &["cksum", "-c", "x"], b"");
    assert_eq!(err, "cksum: --check is not supported with --algorithm={bsd,sysv,crc}\n");
    let list = format!("MD5 (a.txt) = {HELLO_MD5}\n");
    assert_eq!(run(&fs, &["cksum", "-a", "md5", "-c"], list.as_bytes()).0, "a.txt: OK\n");
}

#[test]
fn base64_encodes_with_wrapping() {
    let fs = fs_with(&[("a.txt", b"hello\n")]);
    let long = b"hello world, this is long enough to wrap around the base64 line limit of seventy six chars";
    assert_eq!(
        run(&fs, &["base64"], long).0,
        "aGVsbG8gd29ybGQsIHRoaXMgaXMgbG9uZyBlbm91Z2ggdG8gd3JhcCBhcm91bmQgdGhlIGJhc2U2\nNCBsaW5lIGxpbWl0IG9mIHNldmVudHkgc2l4IGNoYXJz\n"
    );
    assert_eq!(run(&fs, &["base64", "-w", "0"], b"hi").0, "aGk=");
    assert_eq!(run(&fs, &["base64", "-w", "2"], b"abc").0, "YW\nJj\n");
    assert_eq!(run(&fs, &["base64", "--wrap=0", "a.txt"], b"").0, "aGVsbG8K");
    assert_eq!(run(&fs, &["base64"], b"").0, "");
}

#[test]
fn base64_decodes_like_gnu() {
    let fs = new_fs();
    assert_eq!(run(&fs, &["base64", "-d"], b"aGk=\n"), ("hi".into(), "".into(), 0));
    assert_eq!(run(&fs, &["base64", "-d"], b"YWJj\nZA==\n").0, "abcd");
    assert_eq!(run(&fs, &["base64", "-d"], b"YWJjZA==YQ==").0, "abcda");
    assert_eq!(run(&fs, &["base64", "-d"], b"aGk"), ("hi".into(), "base64: invalid input\n".into(), 1));
    assert_eq!(run(&fs, &["base64", "-d"], b"YW Jj"), ("a".into(), "base64: invalid input\n".into(), 1));
    assert_eq!(run(&fs, &["base64", "-d"], b"YQ"), ("a".into(), "base64: invalid input\n".into(), 1));
    assert_eq!(run(&fs, &["base64", "-d"], b"====").2, 1);
    assert_eq!(run(&fs, &["base64", "-d", "-i"], b"a!Gk="), ("hi".into(), "".into(), 0));
    assert_eq!(run(&fs, &["base64", "--decode"], b"YQ==\n\n").0, "a");
}

#[test]
fn base64_errors() {
    let fs = fs_with(&[("a.txt", b"x"), ("b", b"y")]);
    assert_eq!(run(&fs, &["base64", "missing"], b"").1, "base64: missing: No such file or directory\n");
    let (_, err, status) = run(&fs, &["base64", "-w", "x", "a.txt"], b"");
    assert_eq!((err.as_str(), status), ("base64: invalid wrap size: 'x'\n", 1));
    let (_, err, status) = run(&fs, &["base64", "a.txt", "b"], b"");
    assert_eq!((err.as_str(), status), ("base64: extra operand 'b'\nTry 'base64 --help' for more information.\n", 1));
}
