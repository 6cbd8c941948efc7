//! awk through the whole sandbox: its step budget (`maxAwkIterations`, and
//! sed's `maxSedIterations`), deep recursion, output into a closed pipe,
//! and inputs of several megabytes, byte-safe.

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
fn endless_awk_programs_stop_at_the_iteration_limit() {
    let scripts = [
        "awk 'BEGIN { while (1); }'",
        "awk 'BEGIN { for (;;) x++ }'",
        "awk 'BEGIN { do { n++ } while (1) }'",
        "awk 'function f() { while (1) y++ } BEGIN { f() }'",
        "echo x | awk '{ while (1) print > \"/dev/null\" }'",
    ];
    for script in scripts {
        let mut sandbox = sandbox_with(Limits { max_awk_iterations: 10_000, ..Default::default() });
        let (_, stderr, status) = run(&mut sandbox, script);
        assert!(stderr.contains("awk iteration limit (10000) exceeded"), "{script}: {stderr}");
        assert_eq!(status, 2, "{script}");
        assert_eq!(run(&mut sandbox, "echo a b | awk '{print $2}'").0, "b\n");
    }
}

#[test]
fn programs_within_the_limit_run_to_the_end() {
    let mut sandbox = sandbox_with(Limits { max_awk_iterations: 10_000, ..Default::default() });
    let (stdout, stderr, status) = run(&mut sandbox, "awk 'BEGIN { for (i = 0; i < 5000; i++) s += i; print s }'");
    assert_eq!((stdout.as_str(), stderr.as_str(), status), ("12497500\n", "", 0));
}

#[test]
fn doubling_a_string_stops_at_the_string_limit() {
    let mut sandbox = sandbox_with(Limits { max_string_bytes: 1 << 20, ..Default::default() });
    let (_, stderr, status) = run(&mut sandbox, "awk 'BEGIN { s = \"x\"; while (1) s = s s }'");
    assert!(stderr.contains("string length limit (1048576 bytes) exceeded"), "{stderr}");
    assert_eq!(status, 2);
}

#[test]
fn sed_branch_loops_stop_at_their_own_limit() {
    let mut sandbox = sandbox_with(Limits { max_sed_iterations: 1_000, ..Default::default() });
    let (_, stderr, status) = run(&mut sandbox, "echo x | sed ':a;ba'");
    assert!(stderr.contains("sed iteration limit (1000) exceeded"), "{stderr}");
    assert_eq!(status, 4);
    assert_eq!(run(&mut sandbox, "echo x | sed s/x/y/").0, "y\n");
}

#[test]
fn endless_recursion_is_an_error_not_a_crash() {
    let outcome = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(|| {
            let mut sandbox = sandbox_with(Limits::default());
            let (_, stderr, status) = run(&mut sandbox, "awk 'function f(n) { return f(n + 1) } BEGIN { f(1) }'");
            let deep = run(&mut sandbox, "awk 'function d(n) { return n ? d(n - 1) + 1 : 0 } BEGIN { print d(500) }'");
            (stderr, status, deep.0)
        })
        .and_then(|h| h.join().map_err(|_| std::io::Error::other("panic")));
    let (stderr, status, deep) = outcome.unwrap_or_default();
    assert!(stderr.contains("call nesting too deep"), "{stderr}");
    assert_eq!(status, 2);
    assert_eq!(deep, "500\n");
}

#[test]
fn deeply_nested_source_is_a_syntax_error_not_a_crash() {
    let outcome = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(|| {
            let mut sandbox = sandbox_with(Limits::default());
            let nested = format!("awk 'BEGIN {{ x = {}1{} }}'", "(".repeat(5000), ")".repeat(5000));
            let braces = format!("awk 'BEGIN {}{}'", "{".repeat(5000), "}".repeat(5000));
            (run(&mut sandbox, &nested), run(&mut sandbox, &braces))
        })
        .and_then(|h| h.join().map_err(|_| std::io::Error::other("panic")));
    let ((_, nested, nested_status), (_, braces, braces_status)) = outcome.unwrap_or_default();
    assert!(nested.contains("nesting too deep"), "{nested}");
    assert!(braces.contains("nesting too deep"), "{braces}");
    assert_eq!((nested_status, braces_status), (1, 1));
}

#[test]
fn output_into_a_closed_pipe_ends_the_program() {
    let mut sandbox = sandbox_with(Limits::default());
    let (stdout, _, status) = run(&mut sandbox, "awk 'BEGIN { while (1) print \"y\" }' | head -n 2; echo ${PIPESTATUS[0]}");
    assert_eq!(stdout, "y\ny\n141\n");
    assert_eq!(status, 0);
}

#[test]
fn megabyte_inputs_stream_through() {
    let mut sandbox = sandbox_with(Limits::default());
    let make = "awk 'BEGIN { for (i = 1; i <= 150000; i++) printf \"%d %d host%d.example.com GET /index.html\\n\", i, i % 7, i % 13 }' > big.txt";
    assert_eq!(run(&mut sandbox, make).2, 0);
    let (size, _, _) = run(&mut sandbox, "wc -c < big.txt");
    assert!(size.trim().parse::<u64>().unwrap_or(0) > 5_000_000, "{size}");
    let (stdout, stderr, status) = run(&mut sandbox, "awk '{ s += $1; c[$2]++ } END { print s, c[3], NR }' big.txt");
    assert_eq!((stdout.as_str(), stderr.as_str(), status), ("11250075000 21429 150000\n", "", 0));
    let (stdout, _, _) = run(&mut sandbox, "awk -F. '$2 == \"example\" { n++ } END { print n }' big.txt");
    assert_eq!(stdout, "150000\n");
    let (stdout, _, _) = run(&mut sandbox, "awk 'NR % 50000 == 0 { print $3 }' big.txt | tr '\\n' ' '");
    assert_eq!(stdout, "host2.example.com host4.example.com host6.example.com ");
}

#[test]
fn a_long_line_and_invalid_utf8_pass_through() {
    let mut sandbox = sandbox_with(Limits::default());
    let (stdout, _, _) = run(&mut sandbox, "head -c 2000000 /dev/zero | tr '\\0' x | awk '{ print length($0) }'");
    assert_eq!(stdout, "2000000\n");
    let (stdout, _, _) = run(&mut sandbox, "printf 'a\\377\\376 b\\n' | awk '{ print $2, $1 }' | od -An -c");
    assert_eq!(stdout.split_whitespace().collect::<Vec<_>>(), ["b", "a", "377", "376", "\\n"]);
}
