//! Fuzz target: any input parses without panicking (with and without
//! extglob), and whatever parses prints back to source that parses to the
//! same tree.
//!
//! A round-trip difference is a crash (so libFuzzer keeps the input), except
//! with `WABASH_FUZZ_ROUND_TRIP=report`, as CI runs it: then the first few
//! differences are printed and the run goes on, and only a panic of the
//! parser itself fails it.

#![no_main]

use libfuzzer_sys::fuzz_target;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;
use wabash::syntax::walk::clear_spans;
use wabash::syntax::{parse, print, ParseOptions, Parser};

/// How many round-trip differences a reporting run prints.
const MAX_REPORTED: usize = 5;

static REPORTED: AtomicUsize = AtomicUsize::new(0);

/// True when round-trip differences are reported rather than crashes.
fn report_only() -> bool {
    static MODE: OnceLock<bool> = OnceLock::new();
    *MODE.get_or_init(|| std::env::var("WABASH_FUZZ_ROUND_TRIP").is_ok_and(|mode| mode == "report"))
}

/// A printed form that does not parse back to the same tree.
fn round_trip_failed(message: String) {
    if !report_only() {
        panic!("{message}");
    }
    if REPORTED.fetch_add(1, Ordering::Relaxed) < MAX_REPORTED {
        eprintln!("round-trip difference: {message}");
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(source) = std::str::from_utf8(data) else {
        return;
    };
    for extglob in [false, true] {
        let options = ParseOptions { extglob, ..ParseOptions::default() };
        let Ok(mut first) = parse(source, &options) else {
            continue;
        };
        let mut parser = Parser::new(source);
        while let Ok(Some(_)) = parser.next_line(&options) {}
        let mid_word_continuation =
            source.as_bytes().windows(3).any(|w| w[1] == b'\\' && w[2] == b'\n' && !matches!(w[0], b' ' | b'\t' | b'\n'));
        if !parser.warnings().is_empty() || mid_word_continuation {
            continue;
        }
        let printed = print(&first);
        let mut second = match parse(&printed, &options) {
            Ok(list) => list,
            Err(error) => {
                round_trip_failed(format!("printed form {printed:?} of {source:?} fails: {error}"));
                continue;
            }
        };
        clear_spans(&mut first);
        clear_spans(&mut second);
        if first != second {
            round_trip_failed(format!("printed form {printed:?} of {source:?} parses differently"));
        }
    }
});
