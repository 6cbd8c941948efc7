//! Parse limits: each limit stops the parse with an error that names it,
//! and deep nesting never overflows the stack (these run on threads with a
//! 256 KiB stack, smaller than wasm's).

use wabash::syntax::{parse, ParseErrorKind, ParseLimits, ParseOptions};

/// Parses `source` on a thread with a 256 KiB stack; returns the error text, if any.
fn parse_on_small_stack(source: String, options: ParseOptions) -> Result<(), String> {
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || parse(&source, &options).map(|_| ()).map_err(|e| e.render("bash: -c")))
        .expect("spawn")
        .join()
        .expect("parser thread crashed")
}

fn limit_error(source: String) -> String {
    match parse_on_small_stack(source, ParseOptions::default()) {
        Err(message) => message,
        Ok(()) => panic!("expected an error"),
    }
}

#[test]
fn ten_thousand_nested_arithmetic_parentheses_fail_cleanly() {
    let source = format!("echo $({}1{})", "(".repeat(10_000), ")".repeat(10_000));
    assert!(is_depth_error(&limit_error(source)));
}

#[test]
fn unclosed_nested_arithmetic_parentheses_fail_cleanly() {
    let source = format!("echo $({}", "(".repeat(10_000));
    let _ = limit_error(source);
}

#[test]
fn hundred_thousand_braces_fail_cleanly() {
    let _ = parse_on_small_stack("{".repeat(100_000), ParseOptions::default());
    let _ = parse_on_small_stack(format!("echo {}", "{".repeat(100_000)), ParseOptions::default());
    let source = format!("echo {}a,b{}", "{".repeat(10_000), "}".repeat(10_000));
    let _ = parse_on_small_stack(source, ParseOptions::default());
    let groups = format!("{}:{}", "{ ".repeat(10_000), "; }".repeat(10_000));
    assert!(is_depth_error(&limit_error(groups)));
}

#[test]
fn ten_thousand_nested_command_substitutions_fail_cleanly() {
    let source = format!("echo {}x{}", "$(".repeat(10_000), ")".repeat(10_000));
    assert!(is_depth_error(&limit_error(source)));
    let quoted = format!("echo {}x{}", "\"$(".repeat(10_000), ")\"".repeat(10_000));
    assert!(is_depth_error(&limit_error(quoted)));
    let params = format!("echo {}x{}", "${a:-".repeat(10_000), "}".repeat(10_000));
    assert!(is_depth_error(&limit_error(params)));
}

#[test]
fn other_deep_forms_fail_cleanly() {
    let forms = [
        format!("{}a{}", "( ".repeat(10_000), " )".repeat(10_000)),
        format!("{}a", "if a; then ".repeat(10_000)),
        format!("[[ {}a{} ]]", "( ".repeat(10_000), " )".repeat(10_000)),
        format!("[[ {}a ]]", "! ".repeat(10_000)),
        format!("echo $(( {}1 ))", "-".repeat(10_000)),
        format!("echo $(( {}1 ))", "- ".repeat(10_000)),
        format!("echo $(( {}1 ))", "!".repeat(10_000)),
        format!("echo $(( {} ))", "1?".repeat(10_000)),
        format!("echo $(( {}1 ))", "a=".repeat(10_000)),
        format!("echo $(( {}1 ))", "2**".repeat(10_000)),
        format!("echo {}", "`".repeat(10_000)),
        format!("echo {}x{}", "<(".repeat(10_000), ")".repeat(10_000)),
        format!("shopt -s extglob\necho {}x{}", "@(".repeat(10_000), ")".repeat(10_000)),
        format!("echo ${{a[{}1{}]}}", "$((".repeat(3_000), "))".repeat(3_000)),
    ];
    for source in forms {
        let _ = parse_on_small_stack(source, ParseOptions::default());
    }
}

#[test]
fn nesting_up_to_the_default_depth_parses_on_a_small_stack() {
    let depth = if cfg!(debug_assertions) { 4 } else { 100 };
    let sources = [
        format!("{}a{}", "{ ".repeat(depth), "; }".repeat(depth)),
        format!("echo {}x{}", "$(".repeat(depth), ")".repeat(depth)),
        format!("echo $(({}1{}))", "(".repeat(depth), ")".repeat(depth)),
        format!("{}a{}", "if a; then ".repeat(depth), "; fi".repeat(depth)),
    ];
    for source in sources {
        parse_on_small_stack(source.clone(), ParseOptions::default()).unwrap_or_else(|e| panic!("{source}: {e}"));
    }
}

#[test]
fn limits_name_themselves() {
    let options = |limits: ParseLimits| ParseOptions { limits, ..ParseOptions::default() };
    let input = parse("echo hello", &options(ParseLimits { max_input_bytes: 5, ..ParseLimits::default() }));
    assert!(matches!(input, Err(e) if matches!(&e.kind, ParseErrorKind::LimitExceeded(m) if m.contains("max_input_bytes"))));
    let tokens = parse("a b c d e f", &options(ParseLimits { max_tokens: 3, ..ParseLimits::default() }));
    assert!(matches!(tokens, Err(e) if matches!(&e.kind, ParseErrorKind::LimitExceeded(m) if m.contains("max_tokens"))));
    let depth = parse("{ { { a; }; }; }", &options(ParseLimits { max_depth: 2, ..ParseLimits::default() }));
    assert!(matches!(depth, Err(e) if matches!(&e.kind, ParseErrorKind::LimitExceeded(m) if m.contains("max_depth"))));
    let steps = parse("echo a b c d e f g", &options(ParseLimits { max_iterations: 5, ..ParseLimits::default() }));
    assert!(matches!(steps, Err(e) if matches!(&e.kind, ParseErrorKind::LimitExceeded(m) if m.contains("max_iterations"))));
}

/// True for the errors of the two nesting limits.
fn is_depth_error(message: &str) -> bool {
    message.contains("max_depth") || message.contains("max_stack_bytes")
}
