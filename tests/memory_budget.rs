//! Commands that must hold their data stop at the sandbox's memory budget
//! with their own error, and the session goes on. One test in its own
//! binary: the allocator's cap is process-wide.

use std::rc::Rc;
use wabash::executor::block_on;
use wabash::host::FixedHost;
use wabash::{ExecOptions, Sandbox, SandboxOptions};

#[test]
fn sort_and_tac_say_memory_exhausted_at_the_budget() {
    let mut sandbox = block_on(Sandbox::new(SandboxOptions::default(), Rc::new(FixedHost::default())));
    let mut run = |script: &str| {
        let result = block_on(sandbox.exec(script, ExecOptions::default()));
        (result.stdout_text(), result.stderr_text(), result.exit_code)
    };
    assert_eq!(run("x=kept; seq 1000 | sort -n | tail -1").0, "1000\n");
    // Room for the engine and a little more: sorting millions of lines cannot fit.
    wabash::memory::set_limit(wabash::memory::allocated() + wabash::memory::RESERVE + (24 << 20)).expect("limit");
    assert_eq!(
        run("seq 3000000 | sort | tail -1; echo \"status ${PIPESTATUS[1]}\""),
        ("status 2\n".to_string(), "sort: memory exhausted\n".to_string(), 0)
    );
    assert_eq!(run("seq 3000000 | tac | head -1; echo \"status ${PIPESTATUS[1]}\"").1, "tac: memory exhausted\n");
    // Small inputs still sort, and the session kept its state.
    assert_eq!(run("seq 5 | sort -rn | head -1; echo $x").0, "5\nkept\n");
    wabash::memory::set_limit(usize::MAX).expect("unlimited");
}
