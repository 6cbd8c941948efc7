//! A host abort (`Host::interrupted`) ends a run as SIGINT would: the INT
//! trap (else the TERM trap) runs first, then the EXIT trap; status 130.

use std::cell::Cell;
use std::rc::Rc;
use wabash::executor::block_on;
use wabash::host::{FixedHost, Host, LocalFuture};
use wabash::{ExecOptions, Sandbox, SandboxOptions};

/// A host whose user presses Ctrl-C during the first `sleep`.
struct AbortingHost {
    inner: FixedHost,
    aborted: Cell<bool>,
}

impl Host for AbortingHost {
    fn now_millis(&self) -> f64 {
        self.inner.now_millis()
    }

    fn random_seed(&self) -> u64 {
        self.inner.random_seed()
    }

    fn sleep(&self, millis: f64) -> LocalFuture<'_, ()> {
        self.aborted.set(true);
        self.inner.sleep(millis)
    }

    fn interrupted(&self) -> bool {
        self.aborted.get()
    }
}

fn exec(script: &str) -> (String, i32) {
    let host = Rc::new(AbortingHost { inner: FixedHost::default(), aborted: Cell::new(false) });
    let mut sandbox = block_on(Sandbox::new(SandboxOptions::default(), host));
    let result = block_on(sandbox.exec(script, ExecOptions::default()));
    (result.stdout_text(), result.exit_code)
}

#[test]
fn an_abort_runs_the_int_trap_then_the_exit_trap() {
    let script = "trap 'echo int' INT; trap 'echo exit' EXIT; sleep 1; while :; do :; done; echo never";
    assert_eq!(exec(script), ("int\nexit\n".to_string(), 130));
}

#[test]
fn the_term_trap_runs_when_there_is_no_int_trap() {
    let script = "trap 'echo term' TERM; sleep 1; while :; do :; done";
    assert_eq!(exec(script), ("term\n".to_string(), 130));
}

#[test]
fn an_exit_in_the_trap_sets_the_status() {
    let script = "trap 'echo bye; exit 3' INT; sleep 1; for ((;;)); do :; done";
    assert_eq!(exec(script), ("bye\n".to_string(), 3));
}

#[test]
fn without_traps_the_run_just_ends() {
    assert_eq!(exec("sleep 1; while :; do :; done"), (String::new(), 130));
}

#[test]
fn a_loop_in_a_pipeline_stage_ends_too() {
    let script = "trap 'echo int' INT; sleep 1; while :; do :; done | while :; do :; done";
    assert_eq!(exec(script).1, 130);
}

#[test]
fn an_aborted_pipeline_ends_with_130_whatever_its_last_stage_said() {
    assert_eq!(exec("sleep 1 | cat; echo never"), (String::new(), 130));
    assert_eq!(exec("set -o pipefail; sleep 1 | true; echo never"), (String::new(), 130));
    assert_eq!(exec("shopt -s lastpipe; sleep 1 | cat; echo never"), (String::new(), 130));
}

#[test]
fn the_shell_running_the_pipeline_runs_its_int_trap_once() {
    let script = "trap 'echo int' INT; trap 'echo exit' EXIT; sleep 1 | cat | cat; echo never";
    assert_eq!(exec(script), ("int\nexit\n".to_string(), 130));
}

#[test]
fn a_subshell_with_its_own_int_trap_runs_it_and_so_does_its_parent() {
    let script = "trap 'echo parent' INT; (trap 'echo child' INT; sleep 1; echo never); echo never";
    assert_eq!(exec(script), ("child\nparent\n".to_string(), 130));
}

#[test]
fn a_command_substitution_ends_its_shell_too() {
    assert_eq!(exec("trap 'echo int' INT; x=$(sleep 1; echo never); echo never $x"), ("int\n".to_string(), 130));
}

#[test]
fn an_abort_during_the_last_command_still_answers() {
    assert_eq!(exec("trap 'echo int' INT; trap 'echo exit' EXIT; sleep 1"), ("int\nexit\n".to_string(), 130));
}
