//! The parse case table (`tests/parse/cases.txt`): each case is a source
//! and its printed form (or the error bash prints for it); every printed
//! form must parse back to the same tree. `BLESS=1` rewrites the table
//! with what the parser does now (review the diff before committing).

mod parse_support;

use parse_support::{outcome, read_cases, round_trip, write_cases, Case};

#[test]
fn parse_cases_print_as_recorded_and_round_trip() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/parse/cases.txt");
    let cases = read_cases(path);
    assert!(cases.len() >= 500, "only {} cases", cases.len());
    let bless = std::env::var_os("BLESS").is_some();
    let mut failures = Vec::new();
    let mut blessed = Vec::new();
    for case in &cases {
        let got = outcome(&case.source);
        if let Err(problem) = round_trip(&case.source) {
            failures.push(format!("round trip of {:?}: {problem}", case.source));
        }
        if bless {
            blessed.push(Case { source: case.source.clone(), expected: got });
        } else if got != case.expected {
            failures.push(format!("{:?}\n  expected: {:?}\n  got:      {:?}", case.source, case.expected, got));
        }
    }
    if bless {
        write_cases(path, &blessed);
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}
