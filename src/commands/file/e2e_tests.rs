//! End-to-end checks of the file utilities through the whole sandbox
//! (parser, interpreter, pipelines), with its default `LANG=C.UTF-8`.

use crate::executor::block_on;
use crate::host::{FixedHost, Host};
use crate::sandbox::{ExecOptions, Sandbox, SandboxOptions};
use std::rc::Rc;

fn sandbox() -> Sandbox {
    let host: Rc<dyn Host> = Rc::new(FixedHost::default());
    block_on(Sandbox::new(SandboxOptions::default(), host))
}

fn exec(sandbox: &mut Sandbox, script: &str) -> (String, String, i32) {
    let result = block_on(sandbox.exec(script, ExecOptions::default()));
    (result.stdout_text(), result.stderr_text(), result.exit_code)
}

#[test]
fn make_list_copy_move_remove() {
    let mut sb = sandbox();
    let script = "mkdir -p a/b && echo hi > a/b/f && cp -r a c && mv c/b/f c/b/g && ls -R c && rm -r a && ls";
    assert_eq!(exec(&mut sb, script), ("c:\nb\n\nc/b:\ng\nc\n".into(), String::new(), 0));
}

#[test]
fn find_exec_runs_builtins_and_pipes() {
    let mut sb = sandbox();
    exec(&mut sb, "mkdir -p d/e; touch d/x.txt d/e/y.txt d/z.log");
    assert_eq!(exec(&mut sb, "find d -name '*.txt' -exec echo found {} \\;").0, "found d/e/y.txt\nfound d/x.txt\n");
    assert_eq!(exec(&mut sb, "(cd d && find . -type f -execdir basename {} ';')").0, "y.txt\nx.txt\nz.log\n");
    assert_eq!(exec(&mut sb, "find d -type f -name '*.log' | cat").0, "d/z.log\n");
}

#[test]
fn messages_follow_the_utf8_locale() {
    let mut sb = sandbox();
    let (_, stderr, status) = exec(&mut sb, "mkdir /tmp");
    assert_eq!((stderr.as_str(), status), ("mkdir: cannot create directory \u{2018}/tmp\u{2019}: File exists\n", 1));
    assert_eq!(exec(&mut sb, "rm nope").1, "rm: cannot remove 'nope': No such file or directory\n");
    assert_eq!(exec(&mut sb, "find nope").1, "find: \u{2018}nope\u{2019}: No such file or directory\n");
    assert_eq!(exec(&mut sb, "LANG=C mkdir /tmp").1, "mkdir: cannot create directory '/tmp': File exists\n");
}

#[test]
fn ls_long_in_the_sandbox() {
    let mut sb = sandbox();
    let (stdout, _, status) = exec(&mut sb, "printf abc > f; ls -l f; stat -c '%U:%G %s %a' f");
    assert_eq!(status, 0);
    assert_eq!(stdout, "-rw-r--r-- 1 user user 3 Jan  1 00:00 f\nuser:user 3 644\n");
}

/// Recursive walkers must survive the deepest tree the path limit allows.
#[test]
fn deep_trees_do_not_exhaust_the_stack() {
    let fs = crate::commands::file::fixtures::tree(&[]);
    let mut path = String::from("/home/user/t");
    block_on(crate::fs::Fs::create_dir(&fs, &path, 0o755)).unwrap();
    let mut depth = 0;
    while path.len() < 4000 {
        path.push_str("/a");
        if block_on(crate::fs::Fs::create_dir(&fs, &path, 0o755)).is_err() {
            break;
        }
        depth += 1;
    }
    assert!(depth > 100, "only {depth} levels");
    use crate::commands::file::fixtures::run;
    for args in [
        &["find", "t", "-name", "zzz"][..],
        &["du", "-s", "t"],
        &["ls", "-R", "t"],
        &["chmod", "-R", "755", "t"],
        &["tree", "-d", "--noreport", "t"],
        &["cp", "-r", "t", "u"],
        &["chown", "-R", "user", "u"],
        &["ls", "-lR", "u"],
        &["du", "-a", "u"],
        &["find", "u", "-delete"],
        &["rm", "-r", "t"],
    ] {
        let out = run(&fs, args);
        assert!(out.status == 0 || out.status == 1, "{args:?}: {}", out.stderr.lines().next().unwrap_or(""));
    }
}
