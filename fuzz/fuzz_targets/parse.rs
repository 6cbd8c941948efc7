//! Fuzz target: any input parses without panicking (with and without
//! extglob), and whatever parses prints back to source that parses to the
//! same tree.

#![no_main]

use libfuzzer_sys::fuzz_target;
use wabash::syntax::walk::clear_spans;
use wabash::syntax::{parse, print, ParseOptions, Parser};

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
            Err(error) => panic!("printed form {printed:?} of {source:?} fails: {error}"),
        };
        clear_spans(&mut first);
        clear_spans(&mut second);
        assert_eq!(first, second, "printed form {printed:?} of {source:?} parses differently");
    }
});
