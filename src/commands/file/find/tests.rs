//! `find` behaviour checked against GNU findutils 4.9 (in name order).

use crate::commands::file::fixtures::{exists, run, set_mtime, tree};

fn sample() -> crate::fs::MemoryFs {
    tree(&["a/", "a/b/", "a/x.txt=xx", "a/b/y.TXT", "z"])
}

#[test]
fn default_and_names() {
    let fs = sample();
    assert_eq!(run(&fs, &["find"]).stdout, ".\n./a\n./a/b\n./a/b/y.TXT\n./a/x.txt\n./z\n");
    assert_eq!(run(&fs, &["find", ".", "-name", "*.txt"]).stdout, "./a/x.txt\n");
    assert_eq!(run(&fs, &["find", "a", "-iname", "*.txt"]).stdout, "a/b/y.TXT\na/x.txt\n");
    assert_eq!(run(&fs, &["find", "a/", "-name", "b"]).stdout, "a/b\n");
    assert_eq!(run(&fs, &["find", ".", "-path", "./a/*", "-type", "f"]).stdout, "./a/b/y.TXT\n./a/x.txt\n");
    assert_eq!(run(&fs, &["find", ".", "-name", "x*", "-o", "-name", "z"]).stdout, "./a/x.txt\n./z\n");
    assert_eq!(run(&fs, &["find", ".", "!", "-name", "*.*", "-type", "f"]).stdout, "./z\n");
    assert_eq!(run(&fs, &["find", ".", "-not", "-type", "d"]).stdout, "./a/b/y.TXT\n./a/x.txt\n./z\n");
}

#[test]
fn types_depths_and_regex() {
    let fs = sample();
    assert_eq!(run(&fs, &["find", ".", "-type", "d"]).stdout, ".\n./a\n./a/b\n");
    assert_eq!(run(&fs, &["find", ".", "-type", "f,d", "-name", "b"]).stdout, "./a/b\n");
    assert_eq!(run(&fs, &["find", ".", "-maxdepth", "1"]).stdout, ".\n./a\n./z\n");
    assert_eq!(run(&fs, &["find", ".", "-mindepth", "2", "-type", "f"]).stdout, "./a/b/y.TXT\n./a/x.txt\n");
    assert_eq!(run(&fs, &["find", ".", "-regex", ".*\\.txt"]).stdout, "./a/x.txt\n");
    assert_eq!(run(&fs, &["find", ".", "-iregex", ".*\\.txt"]).stdout, "./a/b/y.TXT\n./a/x.txt\n");
    assert_eq!(run(&fs, &["find", ".", "-regextype", "posix-extended", "-regex", ".*(x|z)(\\.txt)?"]).stdout, "./a/x.txt\n./z\n");
    assert_eq!(run(&fs, &["find", ".", "-depth"]).stdout, "./a/b/y.TXT\n./a/b\n./a/x.txt\n./a\n./z\n.\n");
}

#[test]
fn prune_and_grouping() {
    let fs = sample();
    assert_eq!(run(&fs, &["find", ".", "(", "-name", "a", "-prune", ")", "-o", "-print"]).stdout, ".\n./z\n");
    assert_eq!(run(&fs, &["find", ".", "-name", "b", "-prune", "-o", "-type", "f", "-print"]).stdout, "./a/x.txt\n./z\n");
    assert_eq!(run(&fs, &["find", ".", "-type", "f", "-print", "-quit"]).stdout, "./a/b/y.TXT\n");
}

#[test]
fn sizes_and_empty() {
    let fs = sample();
    assert_eq!(run(&fs, &["find", "a", "-size", "-1k"]).stdout, "a/b/y.TXT\n");
    assert_eq!(run(&fs, &["find", "a", "-size", "0"]).stdout, "a/b/y.TXT\n");
    assert_eq!(run(&fs, &["find", "a", "-type", "f", "-size", "2c"]).stdout, "a/x.txt\n");
    assert_eq!(run(&fs, &["find", "a", "-size", "+1k"]).stdout, "a\na/b\n");
    assert_eq!(run(&fs, &["find", ".", "-empty"]).stdout, "./a/b/y.TXT\n./z\n");
}

#[test]
fn times_perms_owners() {
    let fs = sample();
    set_mtime(&fs, "z", 1_704_067_200_000.0 - 3.0 * 86_400_000.0);
    assert_eq!(run(&fs, &["find", ".", "-mtime", "+2"]).stdout, "./z\n");
    assert_eq!(run(&fs, &["find", ".", "-mtime", "3"]).stdout, "./z\n");
    assert_eq!(run(&fs, &["find", ".", "-type", "f", "-mtime", "-1"]).stdout, "./a/b/y.TXT\n./a/x.txt\n");
    assert_eq!(run(&fs, &["find", ".", "-mmin", "+60"]).stdout, "./z\n");
    assert_eq!(run(&fs, &["find", ".", "-newer", "z", "-type", "f"]).stdout, "./a/b/y.TXT\n./a/x.txt\n");
    assert_eq!(run(&fs, &["find", ".", "-type", "f", "-newermt", "2023-12-30"]).stdout, "./a/b/y.TXT\n./a/x.txt\n");
    assert_eq!(run(&fs, &["find", ".", "-type", "f", "!", "-newermt", "2 days ago"]).stdout, "./z\n");
    assert_eq!(run(&fs, &["find", ".", "-newermm", "z", "-name", "x*"]).stdout, "./a/x.txt\n");
    assert_eq!(run(&fs, &["find", ".", "-newermt", "bad"]).stderr, "find: I cannot figure out how to interpret 'bad' as a date or time\n");
    crate::executor::block_on(crate::fs::Fs::set_mode(&fs, "/home/user/z", 0o755)).unwrap();
    assert_eq!(run(&fs, &["find", ".", "-type", "f", "-perm", "755"]).stdout, "./z\n");
    assert_eq!(run(&fs, &["find", ".", "-type", "f", "-perm", "-u+x"]).stdout, "./z\n");
    assert_eq!(run(&fs, &["find", ".", "-type", "f", "-perm", "/o+x"]).stdout, "./z\n");
    assert_eq!(run(&fs, &["find", ".", "-type", "f", "-executable"]).stdout, "./z\n");
    assert_eq!(run(&fs, &["find", "z", "-user", "user", "-group", "user"]).stdout, "z\n");
    assert_eq!(run(&fs, &["find", "z", "-uid", "0"]).stdout, "");
}

#[test]
fn printf_and_print0() {
    let fs = sample();
    assert_eq!(
        run(&fs, &["find", "a", "-printf", "%P|%f|%h|%d|%y|%m|%k\\n"]).stdout,
        "|a|.|0|d|755|4\nb|b|a|1|d|755|4\nb/y.TXT|y.TXT|a/b|2|f|644|0\nx.txt|x.txt|a|1|f|644|4\n"
    );
    assert_eq!(run(&fs, &["find", "a/x.txt", "-printf", "%s %u %g %M %TY-%Tm %-5f|\\n"]).stdout, "2 user user -rw-r--r-- 2024-01 x.txt|\n");
    assert_eq!(
        run(&fs, &["find", "a/x.txt", "-printf", "%T@ %t\\n"]).stdout,
        "1704067200.0000000000 Mon Jan  1 00:00:00.0000000000 2024\n"
    );
    assert_eq!(run(&fs, &["find", ".", "-name", "z", "-print0"]).stdout, "./z\0");
}

#[test]
fn exec_and_delete() {
    let fs = sample();
    assert_eq!(run(&fs, &["find", "a", "-type", "f", "-exec", "basename", "{}", ";"]).stdout, "y.TXT\nx.txt\n");
    assert_eq!(run(&fs, &["find", "a", "-type", "f", "-exec", "basename", "-a", "{}", "+"]).stdout, "y.TXT\nx.txt\n");
    assert_eq!(
        run(&fs, &["find", "a", "-type", "f", "-exec", "basename", "{}", ";", "-print"]).stdout,
        "y.TXT\na/b/y.TXT\nx.txt\na/x.txt\n"
    );
    let out = run(&fs, &["find", "z", "-exec", "nope", "{}", ";"]);
    assert_eq!((out.stderr.as_str(), out.status), ("find: 'nope': No such file or directory\n", 0));
    let out = run(&fs, &["find", "z", "-exec", "nope", "{}", "+"]);
    assert_eq!((out.stderr.as_str(), out.status), ("find: 'nope': No such file or directory\n", 1));
    let out = run(&fs, &["find", ".", "-name", "b", "-delete"]);
    assert_eq!((out.stderr.as_str(), out.status), ("find: cannot delete './a/b': Directory not empty\n", 1));
    assert_eq!(run(&fs, &["find", ".", "-name", "*.txt", "-delete", "-print"]).stdout, "./a/x.txt\n");
    assert!(!exists(&fs, "a/x.txt"));
    run(&fs, &["find", "a", "-delete"]);
    assert!(!exists(&fs, "a"));
}

#[test]
fn errors() {
    let fs = sample();
    let out = run(&fs, &["find", "nope"]);
    assert_eq!((out.stderr.as_str(), out.status), ("find: 'nope': No such file or directory\n", 1));
    assert_eq!(run(&fs, &["find", ".", "-bogus"]).stderr, "find: unknown predicate `-bogus'\n");
    assert_eq!(run(&fs, &["find", ".", "-name"]).stderr, "find: missing argument to `-name'\n");
    assert_eq!(run(&fs, &["find", ".", "-type", "q"]).stderr, "find: Unknown argument to -type: q\n");
    assert_eq!(run(&fs, &["find", ".", "-exec", "echo"]).stderr, "find: missing argument to `-exec'\n");
    assert_eq!(
        run(&fs, &["find", ".", "-maxdepth", "x"]).stderr,
        "find: Expected a positive decimal integer argument to -maxdepth, but got 'x'\n"
    );
    assert_eq!(run(&fs, &["find", ".", "-mtime", "x"]).stderr, "find: invalid argument `x' to `-mtime'\n");
    assert_eq!(run(&fs, &["find", ".", "-size", "3q"]).stderr, "find: invalid -size type `q'\n");
    assert_eq!(
        run(&fs, &["find", ".", "(", "-name", "a"]).stderr,
        "find: invalid expression; I was expecting to find a ')' somewhere but did not see one.\n"
    );
    assert_eq!(run(&fs, &["find", ".", "-name", "a", ")"]).stderr, "find: you have too many ')'\n");
    assert_eq!(run(&fs, &["find", ".", "-newer", "nope"]).stderr, "find: 'nope': No such file or directory\n");
    assert_eq!(run(&fs, &["find", ".", "-user", "bob"]).stderr, "find: 'bob' is not the name of a known user\n");
    assert_eq!(run(&fs, &["find", ".", "-perm", "999"]).stderr, "find: invalid mode '999'\n");
    assert_eq!(run(&fs, &["find", ".", "-ok", "rm", "{}", ";"]).status, 1);
}

#[test]
fn symlinks() {
    let fs = tree(&["d/", "d/f", "l -> d"]);
    assert_eq!(run(&fs, &["find", "l"]).stdout, "l\n");
    assert_eq!(run(&fs, &["find", "-L", "l"]).stdout, "l\nl/f\n");
    assert_eq!(run(&fs, &["find", "-H", "l", "-type", "f"]).stdout, "l/f\n");
    assert_eq!(run(&fs, &["find", ".", "-type", "l"]).stdout, "./l\n");
    assert_eq!(run(&fs, &["find", ".", "-xtype", "d"]).stdout, ".\n./d\n./l\n");
    assert_eq!(run(&fs, &["find", ".", "-lname", "d"]).stdout, "./l\n");
}

/// A rough scale check (run with `--ignored`): 50,000 files in 500 directories.
#[test]
#[ignore]
fn walks_fifty_thousand_files() {
    let fs = tree(&[]);
    for d in 0..500 {
        let dir = format!("/home/user/t/d{d}");
        crate::executor::block_on(crate::fs::Fs::create_dir(&fs, "/home/user/t", 0o755)).ok();
        crate::executor::block_on(crate::fs::Fs::create_dir(&fs, &dir, 0o755)).unwrap();
        for f in 0..100 {
            crate::executor::block_on(crate::fs::Fs::write_file(&fs, &format!("{dir}/f{f}.txt"), b"x")).unwrap();
        }
    }
    let out = run(&fs, &["find", "t", "-name", "*.txt"]);
    assert_eq!(out.stdout.lines().count(), 50_000);
    let out = run(&fs, &["find", "t", "-type", "f", "-printf", "%s\\n"]);
    assert_eq!(out.stdout.lines().count(), 50_000);
}
