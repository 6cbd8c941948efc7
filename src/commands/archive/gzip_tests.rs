//! Unit tests of `gzip`, `gunzip` and `zcat`; messages recorded from GNU gzip 1.12.

use super::gzip_format::compress;
use super::test_bytes::run_bytes;
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

fn read(fs: &MemoryFs, name: &str) -> Option<Vec<u8>> {
    block_on(fs.read_file(&format!("/home/user/{name}"))).ok()
}

#[test]
fn gzip_replaces_file_and_gunzip_restores_it() {
    let fs = fs_with(&[("g.txt", b"hello\n")]);
    assert_eq!(run(&fs, &["gzip", "g.txt"], b""), (String::new(), String::new(), 0));
    assert!(read(&fs, "g.txt").is_none());
    let packed = read(&fs, "g.txt.gz").unwrap();
    assert_eq!(packed.len(), 32);
    assert_eq!(&packed[..4], &[0x1f, 0x8b, 8, 8]);
    assert_eq!(&packed[4..8], &1_704_067_200u32.to_le_bytes());
    assert_eq!(run(&fs, &["gunzip", "g.txt.gz"], b"").2, 0);
    assert_eq!(read(&fs, "g.txt").unwrap(), b"hello\n");
    assert!(read(&fs, "g.txt.gz").is_none());
}

#[test]
fn keep_stdout_and_no_name() {
    let fs = fs_with(&[("g.txt", b"hello\n")]);
    assert_eq!(run(&fs, &["gzip", "-k", "g.txt"], b"").2, 0);
    assert!(read(&fs, "g.txt").is_some() && read(&fs, "g.txt.gz").is_some());
    let (out, _, status) = run_bytes(&fs, &["gzip", "-n", "-c", "g.txt"], b"");
    assert_eq!(status, 0);
    assert_eq!(out, compress(b"hello\n", 6, None, 0));
    assert_eq!(run(&fs, &["zcat", "g.txt.gz"], b"").0, "hello\n");
    assert_eq!(run(&fs, &["zcat", "g.txt"], b"").1, "\ngzip: g.txt: not in gzip format\n");
    block_on(fs.remove_file("/home/user/g.txt")).unwrap();
    assert_eq!(run(&fs, &["zcat", "g.txt"], b"").0, "hello\n");
    assert_eq!(run(&fs, &["gunzip", "-c", "g.txt.gz"], b"").0, "hello\n");
    assert_eq!(run(&fs, &["gzip", "-dc", "g.txt.gz"], b"").0, "hello\n");
    assert!(read(&fs, "g.txt.gz").is_some());
}

#[test]
fn levels_set_the_extra_flags() {
    let fs = fs_with(&[("g.txt", b"hello\n")]);
    let fast = run_bytes(&fs, &["gzip", "-1", "-c", "g.txt"], b"").0;
    assert_eq!(fast[8], 4);
    let best = run_bytes(&fs, &["gzip", "--best", "-c", "g.txt"], b"").0;
    assert_eq!(best[8], 2);
    assert_eq!(best[9], 3);
}

#[test]
fn stdin_to_stdout_round_trip() {
    let fs = new_fs();
    let packed = compress(b"hi\n", 6, None, 0);
    assert_eq!(run(&fs, &["gzip", "-d"], &packed).0, "hi\n");
    assert_eq!(run(&fs, &["zcat"], &packed).0, "hi\n");
    let (_, err, status) = run(&fs, &["gzip", "-d"], b"");
    assert_eq!((err.as_str(), status), ("\ngzip: stdin: unexpected end of file\n", 1));
    assert_eq!(run(&fs, &["gzip", "-d", "-f", "-c"], b"x").0, "x");
}

#[test]
fn warnings_give_status_two() {
    let fs = fs_with(&[("g.txt", b"hello\n"), ("g.txt.gz", b"old")]);
    let (_, err, status) = run(&fs, &["gzip", "g.txt"], b"");
    assert_eq!((err.as_str(), status), ("gzip: g.txt.gz already exists;\tnot overwritten\n", 2));
    assert_eq!(run(&fs, &["gzip", "-f", "g.txt"], b"").2, 0);
    let (_, err, status) = run(&fs, &["gzip", "g.txt.gz"], b"");
    assert_eq!((err.as_str(), status), ("gzip: g.txt.gz already has .gz suffix -- unchanged\n", 0));
    block_on(fs.create_dir("/home/user/dd", 0o755)).unwrap();
    let (_, err, status) = run(&fs, &["gzip", "dd"], b"");
    assert_eq!((err.as_str(), status), ("gzip: dd is a directory -- ignored\n", 2));
    assert_eq!(run(&fs, &["gzip", "-q", "dd"], b""), (String::new(), String::new(), 2));
    block_on(fs.write_file("/home/user/plain", b"x")).unwrap();
    let (_, err, status) = run(&fs, &["gunzip", "plain"], b"");
    assert_eq!((err.as_str(), status), ("gzip: plain: unknown suffix -- ignored\n", 2));
}

#[test]
fn errors_give_status_one() {
    let fs = fs_with(&[("j.gz", b"junk")]);
    let (_, err, status) = run(&fs, &["gzip", "missing"], b"");
    assert_eq!((err.as_str(), status), ("gzip: missing: No such file or directory\n", 1));
    let (_, err, status) = run(&fs, &["zcat", "missing"], b"");
    assert_eq!((err.as_str(), status), ("gzip: missing.gz: No such file or directory\n", 1));
    let (_, err, status) = run(&fs, &["gunzip", "j.gz"], b"");
    assert_eq!((err.as_str(), status), ("\ngzip: j.gz: not in gzip format\n", 1));
    assert!(read(&fs, "j.gz").is_some() && read(&fs, "j").is_none());
    let (_, err, status) = run(&fs, &["gzip", "-t", "j.gz"], b"");
    assert_eq!((err.as_str(), status), ("\ngzip: j.gz: not in gzip format\n", 1));
    let (_, err, status) = run(&fs, &["gzip", "-Q"], b"");
    assert_eq!((err.as_str(), status), ("gzip: invalid option -- 'Q'\nTry `gzip --help' for more information.\n", 1));
}

#[test]
fn corrupt_members() {
    let mut truncated = compress(b"hello\n", 6, Some("g.txt"), 0);
    truncated.truncate(20);
    let mut crc = compress(b"hello\n", 6, Some("g.txt"), 0);
    crc[24] ^= 0xff;
    let mut garbage = compress(b"hello\n", 6, Some("g.txt"), 0);
    garbage.extend_from_slice(b"garbage");
    let fs = fs_with(&[("tr.gz", &truncated), ("crc.gz", &crc), ("tg.gz", &garbage)]);
    let (_, err, status) = run(&fs, &["zcat", "tr.gz"], b"");
    assert_eq!((err.as_str(), status), ("\ngzip: tr.gz: unexpected end of file\n", 1));
    let (out, err, status) = run(&fs, &["zcat", "crc.gz"], b"");
    assert_eq!((out.as_str(), err.as_str(), status), ("hello\n", "\ngzip: crc.gz: invalid compressed data--crc error\n", 1));
    let (out, err, status) = run(&fs, &["zcat", "tg.gz"], b"");
    assert_eq!(out, "hello\n");
    assert_eq!((err.as_str(), status), ("\ngzip: tg.gz: decompression OK, trailing garbage ignored\n", 2));
}

#[test]
fn verbose_messages() {
    let fs = fs_with(&[("g.txt", b"hello\n")]);
    let (_, err, _) = run(&fs, &["gzip", "-v", "g.txt"], b"");
    assert_eq!(err, "g.txt:\t-33.3% -- replaced with g.txt.gz\n");
    let (_, err, _) = run(&fs, &["gzip", "-tv", "g.txt.gz"], b"");
    assert_eq!(err, "g.txt.gz:\t OK\n");
    let (_, err, _) = run(&fs, &["gzip", "-dvc", "g.txt.gz"], b"");
    assert_eq!(err, "g.txt.gz:\t-33.3% -- replaced with stdout\n");
    let (_, err, _) = run(&fs, &["gunzip", "-v", "g.txt.gz"], b"");
    assert_eq!(err, "g.txt.gz:\t-33.3% -- replaced with g.txt\n");
}

#[test]
fn list_mode() {
    let fs = fs_with(&[("g.txt", b"hello\n"), ("empty", b"")]);
    run(&fs, &["gzip", "g.txt", "empty"], b"");
    let (out, _, status) = run(&fs, &["gzip", "-l", "g.txt.gz"], b"");
    assert_eq!(
        out,
        "         compressed        uncompressed  ratio uncompressed_name\n                 32                   6 -33.3% g.txt\n"
    );
    assert_eq!(status, 0);
    let (out, _, _) = run(&fs, &["gzip", "-l", "g.txt", "empty.gz"], b"");
    assert_eq!(
        out,
        "         compressed        uncompressed  ratio uncompressed_name\n                 32                   6 -33.3% g.txt\n                 26                   0   0.0% empty\n                 58                   6 -466.7% (totals)\n"
    );
    let (out, _, _) = run(&fs, &["zcat", "-lv", "g.txt.gz"], b"");
    assert_eq!(
        out,
        "method  crc     date  time           compressed        uncompressed  ratio uncompressed_name\ndefla 363a3020 Jan  1 00:00                  32                   6 -33.3% g.txt\n"
    );
}

#[test]
fn name_flag_restores_stored_name_and_time() {
    let packed = compress(b"data", 6, Some("original.txt"), 1_000_000);
    let fs = fs_with(&[("renamed.gz", &packed)]);
    assert_eq!(run(&fs, &["gunzip", "-N", "renamed.gz"], b"").2, 0);
    assert_eq!(read(&fs, "original.txt").unwrap(), b"data");
    let metadata = block_on(fs.metadata("/home/user/original.txt")).unwrap();
    assert_eq!(metadata.mtime, 1_000_000_000.0);
}

#[test]
fn custom_suffix_and_tgz() {
    let fs = fs_with(&[("h", b"hello\n")]);
    assert_eq!(run(&fs, &["gzip", "-S", ".z", "h"], b"").2, 0);
    assert!(read(&fs, "h.z").is_some());
    assert_eq!(run(&fs, &["gunzip", "-S", ".z", "h.z"], b"").2, 0);
    assert_eq!(read(&fs, "h").unwrap(), b"hello\n");
    let packed = compress(b"tar", 6, None, 0);
    block_on(fs.write_file("/home/user/x.tgz", &packed)).unwrap();
    assert_eq!(run(&fs, &["gunzip", "x.tgz"], b"").2, 0);
    assert_eq!(read(&fs, "x.tar").unwrap(), b"tar");
}

/// A filesystem whose byte quota is 1 MiB, holding a gzip, a tar.gz and a
/// zip of 2 MiB of zeros each.
fn bomb_fs() -> MemoryFs {
    let fs = fs_with(&[]);
    let zeros = vec![0u8; 2 << 20];
    block_on(fs.write_file("/home/user/bomb.gz", &compress(&zeros, 9, None, 0))).unwrap();
    block_on(fs.write_file("/home/user/big", &zeros[..1000])).unwrap();
    let (tar, _, _) = run_bytes(&fs, &["tar", "cf", "-", "big"], b"");
    let mut huge_tar = tar.clone();
    huge_tar.extend(std::iter::repeat_n(0u8, 2 << 20));
    block_on(fs.write_file("/home/user/bomb.tgz", &compress(&huge_tar, 9, None, 0))).unwrap();
    let entry = super::zip_format::ZipEntry::new("z".into(), &zeros, 9, 0, 0o100644);
    block_on(fs.write_file("/home/user/bomb.zip", &super::zip_format::write_archive(&[entry], 0))).unwrap();
    block_on(fs.remove_file("/home/user/big")).unwrap();
    fs.set_limits(crate::fs::memory::FsLimits { max_total_bytes: 1 << 20, ..fs.limits() });
    fs
}

#[test]
fn decompression_bombs_stream_and_stop_at_the_quota() {
    let fs = bomb_fs();
    // Expanding streams: a file stops at the filesystem's quota (and is
    // removed), a pipe takes everything, a tar ends at its zero blocks.
    let (out, err, status) = run(&fs, &["gzip", "-d", "bomb.gz"], b"");
    assert_eq!((out.as_str(), err.as_str(), status), ("", "gzip: bomb: No space left on device\n", 1));
    assert!(read(&fs, "bomb.gz").is_some() && read(&fs, "bomb").is_none());
    let (bytes, err, status) = run_bytes(&fs, &["zcat", "bomb.gz"], b"");
    assert_eq!((bytes.len(), err.as_str(), status), (2 << 20, "", 0));
    assert_eq!(run(&fs, &["tar", "xzf", "bomb.tgz"], b"").2, 0);
    assert_eq!(read(&fs, "big").map(|data| data.len()), Some(1000));
    let message = "decompressed data exceeds the sandbox limit (1048576 bytes)";
    let (_, err, status) = run(&fs, &["unzip", "-q", "bomb.zip"], b"");
    assert_eq!((err.contains(message), status), (true, 2));
    assert!(read(&fs, "z").is_none());
}
