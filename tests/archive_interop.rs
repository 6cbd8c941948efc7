//! Archive interoperability with the GNU tools: archives made in the sandbox
//! are read by GNU tar, gzip and unzip, and theirs by the sandbox. Each test
//! skips (passes with a message) when the GNU tool is not installed.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::rc::Rc;
use wabash::executor::block_on;
use wabash::fs::{Fs, MemoryFs};
use wabash::host::{FixedHost, Host, LocalFuture};
use wabash::interp::{Invocation, Process, ProgramRequest, ShellServices};
use wabash::io::{Capture, Fd, Stream};

struct NoShell;

impl ShellServices for NoShell {
    fn run_command<'a>(&'a mut self, _argv: Vec<String>, _stdin: Fd, _stdout: Fd, _stderr: Fd) -> LocalFuture<'a, i32> {
        Box::pin(async { 127 })
    }
    fn umask(&self) -> u32 {
        0o022
    }
    fn command_exists(&self, _name: &str) -> bool {
        false
    }

    fn open_fd(&self, _fd: usize) -> Option<Fd> {
        None
    }

    fn run_program<'a>(&'a mut self, _request: ProgramRequest) -> LocalFuture<'a, i32> {
        Box::pin(async { 127 })
    }

    fn processes(&self) -> Vec<Process> {
        Vec::new()
    }
}

fn sandbox() -> MemoryFs {
    let host: Rc<dyn Host> = Rc::new(FixedHost::default());
    let fs = MemoryFs::new(host, 1000, 1000);
    block_on(wabash::fs::layout::create_default_layout(&fs, std::iter::empty()));
    fs
}

/// Runs one sandbox utility in /home/user; returns stdout bytes, stderr and status.
fn run(fs: &MemoryFs, args: &[&str], stdin: &[u8]) -> (Vec<u8>, String, i32) {
    let utility = wabash::commands::find(args[0]).expect("utility registered");
    let stdout = Capture::new(usize::MAX, None);
    let stderr = Capture::new(usize::MAX, None);
    let mut shell = NoShell;
    let mut invocation = Invocation {
        args: args.iter().map(|a| a.to_string()).collect(),
        stdin: Stream::input(stdin.to_vec()),
        stdout: Rc::new(Stream::Capture(stdout.clone())),
        stderr: Rc::new(Stream::Capture(stderr.clone())),
        fs: Rc::new(fs.clone()),
        host: Rc::new(FixedHost::default()),
        cwd: "/home/user".into(),
        env: Vec::new(),
        shell: &mut shell,
        program: args[0].to_string(),
    };
    let status = block_on((utility.run)(&mut invocation));
    (stdout.take(), String::from_utf8_lossy(&stderr.take()).into_owned(), status)
}

fn have(tool: &str) -> bool {
    let found = Command::new(tool).arg("--version").output().is_ok_and(|o| o.status.success() || !o.stdout.is_empty());
    if !found {
        eprintln!("SKIP: {tool} is not installed");
    }
    found
}

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("wabash-interop-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn sample_tree(fs: &MemoryFs) {
    block_on(fs.create_dir("/home/user/d", 0o755)).unwrap();
    block_on(fs.create_dir("/home/user/d/sub", 0o755)).unwrap();
    block_on(fs.write_file("/home/user/d/f.txt", b"hello\n")).unwrap();
    let long = format!("/home/user/d/sub/{}.txt", "n".repeat(120));
    block_on(fs.write_file(&long, b"long name\n")).unwrap();
    let big: Vec<u8> = (0..200_000u32).map(|i| (i % 251) as u8).collect();
    block_on(fs.write_file("/home/user/d/big.bin", &big)).unwrap();
    block_on(fs.symlink("f.txt", "/home/user/d/link")).unwrap();
}

fn tool(dir: &Path, program: &str, args: &[&str]) -> std::process::Output {
    Command::new(program).args(args).current_dir(dir).output().unwrap()
}

#[test]
fn gnu_tar_reads_our_archives() {
    if !have("tar") {
        return;
    }
    let fs = sandbox();
    sample_tree(&fs);
    for (flags, file) in [("cf", "a.tar"), ("czf", "a.tgz")] {
        let (_, err, status) = run(&fs, &["tar", flags, file, "d"], b"");
        assert_eq!((err.as_str(), status), ("", 0));
        let dir = temp_dir(flags);
        std::fs::write(dir.join(file), block_on(fs.read_file(&format!("/home/user/{file}"))).unwrap()).unwrap();
        let listing = tool(&dir, "tar", &["tf", file]);
        assert!(listing.status.success(), "{}", String::from_utf8_lossy(&listing.stderr));
        let names = String::from_utf8_lossy(&listing.stdout).into_owned();
        assert!(names.contains("d/f.txt\n") && names.contains(&format!("d/sub/{}.txt", "n".repeat(120))));
        let extract = tool(&dir, "tar", &["xf", file]);
        assert!(extract.status.success(), "{}", String::from_utf8_lossy(&extract.stderr));
        assert!(extract.stderr.is_empty(), "{}", String::from_utf8_lossy(&extract.stderr));
        assert_eq!(std::fs::read(dir.join("d/f.txt")).unwrap(), b"hello\n");
        assert_eq!(std::fs::read(dir.join("d/big.bin")).unwrap(), block_on(fs.read_file("/home/user/d/big.bin")).unwrap());
        assert_eq!(std::fs::read_link(dir.join("d/link")).unwrap(), Path::new("f.txt"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn we_read_gnu_tar_archives() {
    if !have("tar") || !have("gzip") {
        return;
    }
    let dir = temp_dir("gnutar");
    std::fs::create_dir_all(dir.join("t/deep")).unwrap();
    std::fs::write(dir.join("t/a.txt"), b"from gnu\n").unwrap();
    let long = format!("t/deep/{}", "x".repeat(150));
    std::fs::write(dir.join(&long), b"long\n").unwrap();
    std::os::unix::fs::symlink("a.txt", dir.join("t/l")).unwrap();
    for (flags, file, format) in [
        ("cf", "g.tar", "--format=gnu"),
        ("czf", "g.tgz", "--format=gnu"),
        ("cf", "p.tar", "--format=posix"),
        ("cf", "u.tar", "--format=ustar"),
    ] {
        let made = tool(&dir, "tar", &[flags, file, format, "t"]);
        if !made.status.success() {
            // ustar cannot hold the long name; make it without that file.
            let made = tool(&dir, "tar", &[flags, file, format, "t/a.txt", "t/l"]);
            assert!(made.status.success());
        }
        let fs = sandbox();
        block_on(fs.write_file(&format!("/home/user/{file}"), &std::fs::read(dir.join(file)).unwrap())).unwrap();
        let (out, err, status) = run(&fs, &["tar", "xvf", file], b"");
        assert_eq!((err.as_str(), status), ("", 0), "{file}");
        assert!(String::from_utf8_lossy(&out).contains("t/a.txt"));
        assert_eq!(block_on(fs.read_file("/home/user/t/a.txt")).unwrap(), b"from gnu\n");
        assert_eq!(block_on(fs.read_link("/home/user/t/l")).unwrap(), "a.txt");
        if file != "u.tar" {
            assert_eq!(block_on(fs.read_file(&format!("/home/user/{long}"))).unwrap(), b"long\n", "{file}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn gzip_both_ways() {
    if !have("gzip") {
        return;
    }
    let dir = temp_dir("gzip");
    let data: Vec<u8> = (0..100_000u32).flat_map(|i| format!("line {i}\n").into_bytes()).collect();
    let fs = sandbox();
    block_on(fs.write_file("/home/user/data.txt", &data)).unwrap();
    for level in ["-1", "-6", "-9"] {
        let (packed, _, status) = run(&fs, &["gzip", level, "-c", "data.txt"], b"");
        assert_eq!(status, 0);
        std::fs::write(dir.join("ours.gz"), &packed).unwrap();
        let test = tool(&dir, "gzip", &["-t", "ours.gz"]);
        assert!(test.status.success(), "{}", String::from_utf8_lossy(&test.stderr));
        let out = tool(&dir, "gzip", &["-dc", "ours.gz"]);
        assert_eq!(out.stdout, data);
        let listed = tool(&dir, "gzip", &["-lN", "ours.gz"]);
        assert!(String::from_utf8_lossy(&listed.stdout).contains("data.txt"));
    }
    std::fs::write(dir.join("theirs"), &data).unwrap();
    assert!(tool(&dir, "gzip", &["-9", "theirs"]).status.success());
    let theirs = std::fs::read(dir.join("theirs.gz")).unwrap();
    let (out, err, status) = run(&fs, &["gzip", "-dc"], &theirs);
    assert_eq!((err.as_str(), status), ("", 0));
    assert_eq!(out, data);
    block_on(fs.write_file("/home/user/theirs.gz", &theirs)).unwrap();
    let (listing, _, _) = run(&fs, &["gzip", "-l", "theirs.gz"], b"");
    let gnu_listing = tool(&dir, "gzip", &["-l", "theirs.gz"]);
    assert_eq!(String::from_utf8_lossy(&listing), String::from_utf8_lossy(&gnu_listing.stdout));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn unzip_reads_our_zips() {
    if !have("unzip") {
        return;
    }
    let fs = sandbox();
    sample_tree(&fs);
    let (_, err, status) = run(&fs, &["zip", "-r", "-q", "-y", "a.zip", "d"], b"");
    assert_eq!((err.as_str(), status), ("", 0));
    let dir = temp_dir("unzip");
    std::fs::write(dir.join("a.zip"), block_on(fs.read_file("/home/user/a.zip")).unwrap()).unwrap();
    let test = tool(&dir, "unzip", &["-t", "a.zip"]);
    assert!(test.status.success(), "{}", String::from_utf8_lossy(&test.stdout));
    let extract = tool(&dir, "unzip", &["-q", "a.zip", "-d", "out"]);
    assert!(extract.status.success(), "{}", String::from_utf8_lossy(&extract.stderr));
    assert!(extract.stderr.is_empty(), "{}", String::from_utf8_lossy(&extract.stderr));
    assert_eq!(std::fs::read(dir.join("out/d/f.txt")).unwrap(), b"hello\n");
    assert_eq!(std::fs::read(dir.join("out/d/big.bin")).unwrap(), block_on(fs.read_file("/home/user/d/big.bin")).unwrap());
    assert_eq!(std::fs::read_link(dir.join("out/d/link")).unwrap(), Path::new("f.txt"));
    let ours = run(&fs, &["unzip", "-l", "a.zip"], b"").0;
    let theirs = tool(&dir, "unzip", &["-l", "a.zip"]);
    assert_eq!(String::from_utf8_lossy(&ours), String::from_utf8_lossy(&theirs.stdout));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn we_read_info_zip_archives() {
    if !have("zip") {
        return;
    }
    let dir = temp_dir("zip");
    std::fs::create_dir_all(dir.join("z/inner")).unwrap();
    std::fs::write(dir.join("z/a.txt"), b"from info-zip\n").unwrap();
    let text: Vec<u8> = (0..5000).flat_map(|i: i32| format!("row {i}\n").into_bytes()).collect();
    std::fs::write(dir.join("z/inner/rows"), &text).unwrap();
    assert!(tool(&dir, "zip", &["-q", "-r", "z.zip", "z"]).status.success());
    let fs = sandbox();
    block_on(fs.write_file("/home/user/z.zip", &std::fs::read(dir.join("z.zip")).unwrap())).unwrap();
    let (_, err, status) = run(&fs, &["unzip", "-q", "z.zip"], b"");
    assert_eq!((err.as_str(), status), ("", 0));
    assert_eq!(block_on(fs.read_file("/home/user/z/a.txt")).unwrap(), b"from info-zip\n");
    assert_eq!(block_on(fs.read_file("/home/user/z/inner/rows")).unwrap(), text);
    let (tested, _, status) = run(&fs, &["unzip", "-tq", "z.zip"], b"");
    assert_eq!(
        (String::from_utf8_lossy(&tested).into_owned(), status),
        ("No errors detected in compressed data of z.zip.\n".to_string(), 0)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
