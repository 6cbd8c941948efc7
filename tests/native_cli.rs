//! The native `wabash` binary as a user runs it: `-c`, script files with
//! arguments, scripts on stdin, `--cwd`, `--env`, `--mount` (never written).

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn wabash(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_wabash"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn wabash");
    child.stdin.take().expect("stdin").write_all(stdin.as_bytes()).expect("write stdin");
    child.wait_with_output().expect("wait for wabash")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A fresh host directory under the system temp dir, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let path = std::env::temp_dir().join(format!("wabash-native-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).expect("create temp dir");
        TempDir(path)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn usage_errors_are_status_2() {
    let output = wabash(&["--bogus"], "");
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(stderr(&output), "wabash: --bogus: invalid option\n");
    assert_eq!(wabash(&["--help"], "").status.code(), Some(0));
}

#[test]
fn missing_script_file_is_status_127() {
    let output = wabash(&["/no/such/script.sh"], "");
    assert_eq!(output.status.code(), Some(127));
    assert!(stderr(&output).starts_with("wabash: /no/such/script.sh: "));
}

#[test]
fn command_runs_and_returns_its_status() {
    let output = wabash(&["-c", "echo hi | cat"], "");
    assert_eq!(stdout(&output), "hi\n");
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(wabash(&["-c", "false"], "").status.code(), Some(1));
    assert_eq!(wabash(&["-c", "nosuchcommand"], "").status.code(), Some(127));
}

#[test]
fn command_gets_positional_parameters_and_stdin() {
    let output = wabash(&["-c", "echo \"$1|$2\"; cat", "name", "a b", "it's"], "piped\n");
    assert_eq!(stdout(&output), "a b|it's\npiped\n");
}

#[test]
fn script_on_stdin_and_options() {
    let output = wabash(&["--cwd", "/tmp", "--env", "A=1"], "pwd\necho $A\n");
    assert_eq!(stdout(&output), "/tmp\n1\n");
}

#[test]
fn mount_copies_in_and_never_writes_the_host() {
    let dir = TempDir::new("mount");
    std::fs::create_dir(dir.0.join("sub")).expect("mkdir");
    std::fs::write(dir.0.join("sub/a.txt"), "alpha\n").expect("write");
    let spec = format!("{}:/project", dir.0.display());
    let output = wabash(&["--mount", &spec, "-c", "cat /project/sub/a.txt; echo new > /project/sub/a.txt; echo x > /project/b.txt"], "");
    assert_eq!(stdout(&output), "alpha\n");
    assert_eq!(std::fs::read_to_string(dir.0.join("sub/a.txt")).expect("read"), "alpha\n");
    assert!(!dir.0.join("b.txt").exists());
}
