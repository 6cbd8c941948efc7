//! Shared helpers of the parser tests: the case file format, the outcome
//! of parsing a source, and the round-trip check.

#![allow(dead_code)]

use wabash::syntax::walk::clear_spans;
use wabash::syntax::{parse, print, ParseOptions, Parser};

/// One case: a source and what parsing it gives.
#[derive(Debug, Clone)]
pub struct Case {
    /// The script.
    pub source: String,
    /// The printed form, or `!error: ` and the first line bash prints.
    pub expected: String,
}

/// Reads a case file: each case starts with a line `===`, then the
/// source, a line `---`, then the expected outcome.
pub fn read_cases(path: &str) -> Vec<Case> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut cases = Vec::new();
    let mut current: Option<(Vec<&str>, Option<Vec<&str>>)> = None;
    let mut finish = |current: Option<(Vec<&str>, Option<Vec<&str>>)>| {
        if let Some((source, expected)) = current {
            cases.push(Case { source: source.join("\n"), expected: expected.unwrap_or_default().join("\n") });
        }
    };
    for line in text.lines() {
        if line == "===" {
            finish(current.take());
            current = Some((Vec::new(), None));
            continue;
        }
        let Some((source, expected)) = current.as_mut() else {
            continue;
        };
        match expected {
            None if line == "---" => *expected = Some(Vec::new()),
            None => source.push(line),
            Some(lines) => lines.push(line),
        }
    }
    finish(current);
    cases
}

/// Writes cases in the format `read_cases` reads.
pub fn write_cases(path: &str, cases: &[Case]) {
    let mut out = String::new();
    for case in cases {
        out.push_str("===\n");
        out.push_str(&case.source);
        out.push_str("\n---\n");
        out.push_str(&case.expected);
        out.push('\n');
    }
    std::fs::write(path, out).unwrap_or_else(|e| panic!("writing {path}: {e}"));
}

/// What parsing `source` gives: the printed form, or the error.
pub fn outcome(source: &str) -> String {
    match parse(source, &ParseOptions::default()) {
        Ok(list) => print(&list).trim_end_matches('\n').to_string(),
        Err(error) => format!("!error: {}", error.render("bash: -c").lines().next().unwrap_or("")),
    }
}

/// Checks that the printed form of `source` parses to the same tree.
pub fn round_trip(source: &str) -> Result<(), String> {
    round_trip_with(source, &ParseOptions::default())
}

/// `round_trip` with options.
pub fn round_trip_with(source: &str, options: &ParseOptions) -> Result<(), String> {
    let Ok(mut first) = parse(source, options) else {
        return Ok(());
    };
    let mut parser = Parser::new(source);
    while let Ok(Some(_)) = parser.next_line(options) {}
    if !parser.warnings().is_empty() {
        return Ok(());
    }
    let printed = print(&first);
    let mut second = match parse(&printed, options) {
        Ok(list) => list,
        Err(error) => return Err(format!("printed form {printed:?} fails: {}", error.render("bash: -c"))),
    };
    clear_spans(&mut first);
    clear_spans(&mut second);
    if first != second {
        return Err(format!("printed form {printed:?} parses differently:\n{first:?}\n{second:?}"));
    }
    let reprinted = print(&second);
    if reprinted != printed {
        return Err(format!("printing is not stable: {printed:?} then {reprinted:?}"));
    }
    Ok(())
}
