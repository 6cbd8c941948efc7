//! `ls` behaviour checked against GNU coreutils 9.1 output.

use crate::commands::file::fixtures::{run, set_mtime, tree};

fn sample() -> crate::fs::MemoryFs {
    tree(&["d/", "d/sub/", "d/a=hello\n", "b=hi\n", "lnk -> b", "broken -> nowhere", ".hid"])
}

#[test]
fn short_listing_and_hidden() {
    let fs = sample();
    assert_eq!(run(&fs, &["ls"]).stdout, "b\nbroken\nd\nlnk\n");
    assert_eq!(run(&fs, &["ls", "-a"]).stdout, ".\n..\n.hid\nb\nbroken\nd\nlnk\n");
    assert_eq!(run(&fs, &["ls", "-A"]).stdout, ".hid\nb\nbroken\nd\nlnk\n");
    assert_eq!(run(&fs, &["ls", "-p"]).stdout, "b\nbroken\nd/\nlnk\n");
    assert_eq!(run(&fs, &["ls", "-m"]).stdout, "b, broken, d, lnk\n");
    assert_eq!(run(&fs, &["ls", "-1", "d"]).stdout, "a\nsub\n");
    assert_eq!(run(&fs, &["ls", "-r"]).stdout, "lnk\nd\nbroken\nb\n");
}

#[test]
fn classify() {
    let fs = sample();
    run(&fs, &["chmod", "755", "b"]);
    crate::executor::block_on(crate::fs::Fs::set_mode(&fs, "/home/user/b", 0o755)).unwrap();
    assert_eq!(run(&fs, &["ls", "-F"]).stdout, "b*\nbroken@\nd/\nlnk@\n");
    assert_eq!(run(&fs, &["ls", "-F", "d/"]).stdout, "a\nsub/\n");
}

#[test]
fn operands_files_first_then_directories() {
    let fs = sample();
    assert_eq!(run(&fs, &["ls", "d", "b"]).stdout, "b\n\nd:\na\nsub\n");
    assert_eq!(run(&fs, &["ls", "-d", "d", "b"]).stdout, "b\nd\n");
    let out = run(&fs, &["ls", "nope", "b"]);
    assert_eq!(out.stdout, "b\n");
    assert_eq!(out.stderr, "ls: cannot access 'nope': No such file or directory\n");
    assert_eq!(out.status, 2);
}

#[test]
fn recursive() {
    let fs = sample();
    assert_eq!(run(&fs, &["ls", "-R", "d"]).stdout, "d:\na\nsub\n\nd/sub:\n");
    assert_eq!(run(&fs, &["ls", "-R"]).stdout, ".:\nb\nbroken\nd\nlnk\n\n./d:\na\nsub\n\n./d/sub:\n");
}

#[test]
fn long_format() {
    let fs = sample();
    let out = run(&fs, &["ls", "-l"]);
    assert_eq!(
        out.stdout,
        "total 8\n\
         -rw-r--r-- 1 user user    3 Jan  1 00:00 b\n\
         lrwxrwxrwx 1 user user    7 Jan  1 00:00 broken -> nowhere\n\
         drwxr-xr-x 3 user user 4096 Jan  1 00:00 d\n\
         lrwxrwxrwx 1 user user    1 Jan  1 00:00 lnk -> b\n"
    );
    assert_eq!(run(&fs, &["ls", "-ld", "d"]).stdout, "drwxr-xr-x 3 user user 4096 Jan  1 00:00 d\n");
    assert_eq!(run(&fs, &["ls", "-lL", "lnk"]).stdout, "-rw-r--r-- 1 user user 3 Jan  1 00:00 lnk\n");
    assert_eq!(run(&fs, &["ls", "-n", "b"]).stdout, "-rw-r--r-- 1 1000 1000 3 Jan  1 00:00 b\n");
    assert_eq!(run(&fs, &["ls", "-lo", "b"]).stdout, "-rw-r--r-- 1 user 3 Jan  1 00:00 b\n");
    assert_eq!(run(&fs, &["ls", "-lg", "b"]).stdout, "-rw-r--r-- 1 user 3 Jan  1 00:00 b\n");
    assert_eq!(run(&fs, &["ls", "-l", "/dev/null"]).stdout.get(0..13), Some("crw-rw-rw- 1 "));
}

#[test]
fn dates_and_styles() {
    let fs = tree(&["old", "new"]);
    set_mtime(&fs, "old", 1_577_836_800_000.0);
    assert_eq!(run(&fs, &["ls", "-l", "old"]).stdout, "-rw-r--r-- 1 user user 0 Jan  1  2020 old\n");
    assert_eq!(run(&fs, &["ls", "-l", "--time-style=long-iso", "old"]).stdout, "-rw-r--r-- 1 user user 0 2020-01-01 00:00 old\n");
    assert_eq!(run(&fs, &["ls", "-l", "--time-style=iso", "old"]).stdout, "-rw-r--r-- 1 user user 0 2020-01-01  old\n");
    assert_eq!(run(&fs, &["ls", "-l", "--time-style=iso", "new"]).stdout, "-rw-r--r-- 1 user user 0 01-01 00:00 new\n");
    assert_eq!(run(&fs, &["ls", "--full-time", "old"]).stdout, "-rw-r--r-- 1 user user 0 2020-01-01 00:00:00.000000000 +0000 old\n");
    assert_eq!(run(&fs, &["ls", "-l", "--time-style=+%s", "old"]).stdout, "-rw-r--r-- 1 user user 0 1577836800 old\n");
    assert_eq!(run(&fs, &["ls", "-t"]).stdout, "new\nold\n");
    assert_eq!(run(&fs, &["ls", "-tr"]).stdout, "old\nnew\n");
}

#[test]
fn sizes_blocks_human() {
    let fs = tree(&["big", "small=abc", "d/"]);
    crate::executor::block_on(crate::fs::Fs::write_file(&fs, "/home/user/big", &[b'x'; 5000])).unwrap();
    assert_eq!(run(&fs, &["ls", "-S"]).stdout, "big\nd\nsmall\n");
    assert_eq!(run(&fs, &["ls", "-s"]).stdout, "total 16\n8 big\n4 d\n4 small\n");
    assert_eq!(run(&fs, &["ls", "-sh", "big"]).stdout, "8.0K big\n");
    assert_eq!(
        run(&fs, &["ls", "-lh"]).stdout,
        "total 16K\n\
         -rw-r--r-- 1 user user 4.9K Jan  1 00:00 big\n\
         drwxr-xr-x 2 user user 4.0K Jan  1 00:00 d\n\
         -rw-r--r-- 1 user user    3 Jan  1 00:00 small\n"
    );
    let inode = run(&fs, &["ls", "-i", "small"]).stdout;
    assert!(inode.ends_with(" small\n") && inode.starts_with(|c: char| c.is_ascii_digit()));
}

#[test]
fn bad_options() {
    let fs = tree(&[]);
    let out = run(&fs, &["ls", "-Y"]);
    assert_eq!(out.stderr, "ls: invalid option -- 'Y'\nTry 'ls --help' for more information.\n");
    assert_eq!(out.status, 2);
    assert_eq!(run(&fs, &["ls", "--foo"]).stderr, "ls: unrecognized option '--foo'\nTry 'ls --help' for more information.\n");
    assert_eq!(run(&fs, &["ls", "--color=never"]).status, 0);
    assert_eq!(run(&fs, &["ls", "-I", "*.txt"]).status, 0);
}

#[test]
fn ignore_patterns() {
    let fs = tree(&["a.txt", "b.log", "c.txt"]);
    assert_eq!(run(&fs, &["ls", "-I", "*.txt"]).stdout, "b.log\n");
    assert_eq!(run(&fs, &["ls", "--hide=*.log"]).stdout, "a.txt\nc.txt\n");
}
