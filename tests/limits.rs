//! Execution limits through the whole sandbox: each breach is an error that
//! names the limit and its value, and the sandbox stays usable after it.

use std::rc::Rc;
use wabash::executor::block_on;
use wabash::host::FixedHost;
use wabash::interp::Limits;
use wabash::{ExecOptions, Sandbox, SandboxOptions};

fn sandbox_with(limits: Limits) -> Sandbox {
    block_on(Sandbox::new(SandboxOptions { limits, ..Default::default() }, Rc::new(FixedHost::default())))
}

fn run(sandbox: &mut Sandbox, script: &str) -> (String, String, i32) {
    let result = block_on(sandbox.exec(script, ExecOptions::default()));
    (result.stdout_text(), result.stderr_text(), result.exit_code)
}

#[test]
fn array_element_limit_holds_for_every_way_of_growing_an_array() {
    let scripts = [
        "a=(1 2 3 4 5 6)",
        "a=(); for i in 1 2 3 4 5 6 7; do a+=($i); done",
        "for i in 1 2 3 4 5 6 7; do a[i]=$i; done",
        "declare -A m; m=([a]=1 [b]=2 [c]=3 [d]=4 [e]=5 [f]=6)",
    ];
    for script in scripts {
        let mut sandbox = sandbox_with(Limits { max_array_elements: 5, ..Default::default() });
        let (_, stderr, _) = run(&mut sandbox, script);
        assert!(stderr.contains("array element limit (5) exceeded"), "{script}: {stderr}");
        assert_eq!(run(&mut sandbox, "echo still here").0, "still here\n");
    }
}

#[test]
fn arrays_within_the_limit_are_untouched() {
    let mut sandbox = sandbox_with(Limits { max_array_elements: 5, ..Default::default() });
    let (stdout, stderr, status) = run(&mut sandbox, "a=(1 2 3); a+=(4 5); a[2]=x; echo ${#a[@]} ${a[*]}");
    assert_eq!((stdout.as_str(), stderr.as_str(), status), ("5 1 2 x 4 5\n", "", 0));
}

#[test]
fn source_and_eval_nesting_count_against_the_call_depth() {
    let cases = [
        ("echo 'source ./self.sh' > self.sh; source ./self.sh", "source: ./self.sh: maximum source nesting level exceeded (20)"),
        ("x='eval \"$x\"'; eval \"$x\"", "eval: maximum eval nesting level exceeded (20)"),
        ("f() { eval f; }; f", "maximum function nesting level exceeded (20)"),
        ("echo 'f' > g.sh; f() { source ./g.sh; }; f", "maximum function nesting level exceeded (20)"),
    ];
    for (script, message) in cases {
        let mut sandbox = sandbox_with(Limits { max_call_depth: 20, ..Default::default() });
        let (_, stderr, status) = run(&mut sandbox, script);
        assert!(stderr.contains(message), "{script}: {stderr}");
        assert_eq!(status, 1, "{script}");
        assert_eq!(run(&mut sandbox, "f() { echo deep $1; }; f ok").0, "deep ok\n");
    }
}

#[test]
fn nesting_within_the_call_depth_runs() {
    let mut sandbox = sandbox_with(Limits { max_call_depth: 20, ..Default::default() });
    let script = "f() { if (( $1 < 6 )); then eval \"f $(( $1 + 1 ))\"; else echo reached $1; fi; }; f 0";
    assert_eq!(run(&mut sandbox, script).0, "reached 6\n");
}
