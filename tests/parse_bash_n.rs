//! Agreement with real bash: `tests/parse/bash_n.txt` holds what `bash -n
//! -c SOURCE` printed for each source (recorded by
//! `tests/parse/record_bash_n.sh`); the parser must accept what bash
//! accepts and reject the rest with the same message.

mod parse_support;

use parse_support::read_cases;
use wabash::syntax::{ParseOptions, Parser};

/// What our parser prints for `source` in bash's `-c` form (warnings
/// aside), reading on after the errors bash reads on after.
fn our_stderr(source: &str) -> String {
    let mut parser = Parser::new(source);
    let options = ParseOptions::default();
    let mut out = String::new();
    loop {
        match parser.next_line(&options) {
            Ok(Some(_)) => {}
            Ok(None) => return out.trim_end().to_string(),
            Err(error) => {
                out.push_str(&error.render("bash: -c"));
                if !parser.resume_after_error() {
                    return out.trim_end().to_string();
                }
            }
        }
    }
}

/// Bash's stderr without warnings (here-documents ended by end of file).
fn without_warnings(stderr: &str) -> String {
    stderr.lines().filter(|line| !line.contains(": warning: ")).collect::<Vec<_>>().join("\n")
}

#[test]
fn parser_agrees_with_bash_n() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/parse/bash_n.txt");
    let cases = read_cases(path);
    assert!(!cases.is_empty());
    let mut verdicts_agree = 0;
    let mut messages_agree = 0;
    let mut disagreements = Vec::new();
    for case in &cases {
        let expected = without_warnings(&case.expected);
        let got = our_stderr(&case.source);
        if expected.is_empty() == got.is_empty() {
            verdicts_agree += 1;
        }
        if expected == got {
            messages_agree += 1;
        } else {
            disagreements.push(format!("{:?}\n  bash: {expected:?}\n  ours: {got:?}", case.source));
        }
    }
    let total = cases.len();
    println!("bash -n agreement: verdicts {verdicts_agree}/{total}, messages {messages_agree}/{total}");
    if std::env::var_os("SHOW_DISAGREEMENTS").is_some() {
        println!("{}", disagreements.join("\n"));
    }
    let allowed = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/parse/bash_n_known.txt"))
        .ok()
        .and_then(|text| text.trim().parse::<usize>().ok())
        .unwrap_or(0);
    assert!(
        disagreements.len() <= allowed,
        "{} disagreements with bash (at most {allowed} known):\n{}",
        disagreements.len(),
        disagreements.join("\n")
    );
}
