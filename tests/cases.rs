//! Runs every case file under `tests/cases` (recorded from real bash and
//! GNU tools) natively. Cases listed in `tests/cases/known-failures.txt` may
//! fail; any other failure fails the test, and a listed case that passes is
//! reported so the list can shrink.

mod support;

use std::collections::BTreeSet;
use std::path::Path;

#[test]
fn recorded_cases_match_bash() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases");
    let known: BTreeSet<String> = std::fs::read_to_string(root.join("known-failures.txt"))
        .unwrap_or_default()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect();
    let filter = std::env::var("CASE_FILTER").unwrap_or_default();
    let (mut passed, mut failed, mut known_failed, mut fixed) = (0, Vec::new(), 0, Vec::new());
    for file in support::cases::case_files(&root) {
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        for case in support::cases::parse(&file, &text) {
            if !filter.is_empty() && !case.id().contains(&filter) {
                continue;
            }
            let outcome = std::thread::Builder::new()
                .stack_size(16 << 20)
                .spawn({
                    let case = case.clone();
                    move || support::cases::run(&case)
                })
                .and_then(|h| h.join().map_err(|_| std::io::Error::other("panic")))
                .unwrap_or_else(|_| Err("the engine panicked".to_string()));
            match (outcome, known.contains(&case.id())) {
                (Ok(()), false) => passed += 1,
                (Ok(()), true) => {
                    passed += 1;
                    fixed.push(case.id());
                }
                (Err(_), true) => known_failed += 1,
                (Err(problem), false) => failed.push(format!("{}\n{problem}", case.id())),
            }
        }
    }
    for id in &fixed {
        println!("now passing (remove from known-failures.txt): {id}");
    }
    for failure in &failed {
        println!("FAIL {failure}\n");
    }
    println!("case files: {passed} passed, {} failed, {known_failed} known failures", failed.len());
    assert!(failed.is_empty(), "{} case(s) differ from bash", failed.len());
}
