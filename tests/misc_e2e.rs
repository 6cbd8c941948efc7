//! End-to-end checks of the archive, hash and system utilities through the
//! whole sandbox (parser, interpreter, pipes): streaming, SIGPIPE, nested
//! commands and environment changes.

use std::rc::Rc;
use wabash::executor::block_on;
use wabash::host::{FixedHost, Host, LocalFuture};
use wabash::{ExecOptions, Sandbox, SandboxOptions};

fn exec(script: &str) -> (String, String, i32) {
    let options = SandboxOptions { files: vec![("/home/user/d/f".into(), b"hi\n".to_vec())], ..Default::default() };
    let mut sandbox = block_on(Sandbox::new(options, Rc::new(FixedHost::default())));
    let result = block_on(sandbox.exec(script, ExecOptions::default()));
    (result.stdout_text(), result.stderr_text(), result.exit_code)
}

#[test]
fn yes_ends_with_its_reader() {
    let (out, _, status) = exec("yes | { read a; read b; echo \"$a$b\"; }; echo ${PIPESTATUS[0]}");
    assert_eq!((out.as_str(), status), ("yy\n141\n", 0));
}

#[test]
fn env_runs_commands_in_a_changed_environment() {
    assert_eq!(exec("env A=1 B='x y' printenv A B").0, "1\nx y\n");
    assert_eq!(exec("export C=3; env -u C printenv C; echo $?").0, "1\n");
    assert_eq!(exec("export C=3; env -i D=4 env").0, "D=4\n");
    assert_eq!(exec("env seq 2").0, "1\n2\n");
}

#[test]
fn timeout_and_sleep() {
    assert_eq!(exec("timeout 1 sleep 5; echo $?").0, "124\n");
    assert_eq!(exec("timeout 5 sleep 1; echo $?").0, "0\n");
    assert_eq!(exec("timeout 1 yes > /dev/null; echo $?").0, "124\n");
}

/// A host whose clock moves a millisecond each time it is read, so a busy
/// loop sees time pass.
struct TickingHost(std::cell::Cell<f64>);

impl Host for TickingHost {
    fn now_millis(&self) -> f64 {
        self.0.set(self.0.get() + 1.0);
        self.0.get()
    }

    fn random_seed(&self) -> u64 {
        1
    }

    fn sleep(&self, millis: f64) -> LocalFuture<'_, ()> {
        self.0.set(self.0.get() + millis.max(0.0));
        Box::pin(async {})
    }
}

#[test]
fn timeout_stops_commands_that_never_wait() {
    let mut sandbox = block_on(Sandbox::new(SandboxOptions::default(), Rc::new(TickingHost(std::cell::Cell::new(0.0)))));
    let script = "timeout 1 bash -c 'while :; do :; done'; echo $?; timeout 1 bash -c 'sleep 5; echo late'; echo $?; echo after";
    let result = block_on(sandbox.exec(script, ExecOptions::default()));
    assert_eq!((result.stdout_text().as_str(), result.exit_code), ("124\n124\nafter\n", 0));
}

#[test]
fn a_job_left_by_a_timed_out_command_cannot_hang_wait() {
    let (out, _, status) = exec("timeout 1 bash -c 'sleep 50 & sleep 30'; echo $?; wait; echo done");
    assert_eq!((out.as_str(), status), ("124\ndone\n", 0));
}

#[test]
fn programs_get_their_environment_and_directory_as_values() {
    assert_eq!(exec("env 'A=$(echo x); y' printenv A").0, "$(echo x); y\n");
    assert_eq!(exec("mkdir -p 'a b/c'; touch 'a b/c/g'; find . -name g -execdir pwd \\;").0, "/home/user/a b/c\n");
    assert_eq!(exec("f() { echo function; }; env f; echo $?").0, "127\n");
}

#[test]
fn ps_lists_the_sandbox_jobs_only() {
    let (out, _, _) = exec("sleep 9 & ps -o comm=");
    assert_eq!(out, "bash\nsleep\nps\n");
}

#[test]
fn archives_through_pipes() {
    let (out, err, status) = exec("tar czf - d | tar tzf -; tar cf - d | gzip -c | zcat | tar xOf - d/f");
    assert_eq!((out.as_str(), err.as_str(), status), ("d/\nd/f\nhi\n", "", 0));
    assert_eq!(exec("printf hello | gzip | gzip -d").0, "hello");
    assert_eq!(exec("printf hello | base64 | base64 -d").0, "hello");
    assert_eq!(exec("echo hi > f; sha256sum f > s; sha256sum -c s").0, "f: OK\n");
}

#[test]
fn date_uses_tz() {
    assert_eq!(exec("TZ=EST5 date -d @0").0, "Wed Dec 31 19:00:00 EST 1969\n");
    assert_eq!(exec("date -u +%F").0, "2024-01-01\n");
    assert_eq!(exec("seq 3 | while read n; do echo $n; done").0, "1\n2\n3\n");
}
