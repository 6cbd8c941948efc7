//! A deterministic fuzz run that needs no fuzzer: thousands of inputs made
//! by mutating and splicing the case table's sources. Parsing must never
//! panic, and whatever parses must print back to source that parses to
//! the same tree.

mod parse_support;

use parse_support::{read_cases, round_trip_with};
use std::collections::HashMap;
use wabash::syntax::{parse, ParseOptions};

/// Fragments that are special to the parser, spliced into inputs.
const FRAGMENTS: [&str; 40] = [
    "$(", ")", "((", "))", "$((", "${", "}", "{", "\"", "'", "`", "\\", "\n", ";", ";;", "&", "|", "&&", "||", "<<EOF\n", "\nEOF\n",
    "<<-'E'\n", "[[", "]]", "=~", "(", "!", "@(", "*(", "$'", "\\\n", "#", "=", "+=", "[", "]", "~", ",", "..", "<(",
];

/// A small xorshift generator: the run is the same every time.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

/// The nearest char boundary at or before `index`.
fn boundary(text: &str, mut index: usize) -> usize {
    index = index.min(text.len());
    while !text.is_char_boundary(index) {
        index -= 1;
    }
    index
}

fn mutate(rng: &mut Rng, sources: &[String]) -> String {
    let mut text = sources[rng.below(sources.len())].clone();
    for _ in 0..1 + rng.below(4) {
        let at = boundary(&text, rng.below(text.len() + 1));
        match rng.below(5) {
            0 => text.insert_str(at, FRAGMENTS[rng.below(FRAGMENTS.len())]),
            1 => {
                let end = boundary(&text, at + rng.below(8));
                text.replace_range(at..end, "");
            }
            2 => {
                let other = &sources[rng.below(sources.len())];
                let from = boundary(other, rng.below(other.len() + 1));
                let to = boundary(other, from + rng.below(other.len() - from + 1));
                text.insert_str(at, &other[from..to]);
            }
            3 => {
                let end = boundary(&text, at + rng.below(16));
                let piece = text[at..end].to_string();
                text.insert_str(end, &piece);
            }
            _ => {
                let other = &sources[rng.below(sources.len())];
                text.push('\n');
                text.push_str(other);
            }
        }
    }
    text
}

/// True when a backslash-newline stands right after a non-blank: bash
/// joins such lines before it tokenizes, which the parser does not do yet
/// inside a word (a known gap: `local x\<newline>y=1` reads as two words
/// to bash's tokenizer but `x` and `y=1` glued to it here), so those inputs
/// are only checked for panics.
fn has_mid_word_continuation(input: &str) -> bool {
    input.as_bytes().windows(3).any(|w| w[1] == b'\\' && w[2] == b'\n' && !matches!(w[0], b' ' | b'\t' | b'\n'))
}

#[test]
fn mutated_inputs_never_panic_and_round_trip() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/parse/cases.txt");
    let sources: Vec<String> = read_cases(path).into_iter().map(|case| case.source).collect();
    let runs: usize = std::env::var("FUZZ_RUNS").ok().and_then(|n| n.parse().ok()).unwrap_or(4000);
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut aliases = HashMap::new();
    aliases.insert("ll".to_string(), "ls -l".to_string());
    aliases.insert("iff".to_string(), "if true; then".to_string());
    let mut failures = Vec::new();
    let mut parsed = 0;
    for run in 0..runs {
        let input = mutate(&mut rng, &sources);
        let options = ParseOptions {
            extglob: run % 3 == 0,
            aliases: if run % 5 == 0 { aliases.clone() } else { HashMap::new() },
            ..ParseOptions::default()
        };
        let outcome = std::panic::catch_unwind(|| {
            let ok = parse(&input, &options).is_ok();
            let trip =
                if options.aliases.is_empty() && !has_mid_word_continuation(&input) { round_trip_with(&input, &options) } else { Ok(()) };
            (ok, trip)
        });
        match outcome {
            Err(_) => failures.push(format!("panic on {input:?}")),
            Ok((ok, trip)) => {
                parsed += usize::from(ok);
                if let Err(problem) = trip {
                    failures.push(format!("round trip of {input:?}: {problem}"));
                }
            }
        }
    }
    println!("fuzz: {runs} inputs, {parsed} parsed, {} failures", failures.len());
    let shown: Vec<&String> = failures.iter().take(15).collect();
    assert!(
        failures.is_empty(),
        "{} failures, first ones:\n{}",
        failures.len(),
        shown.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n")
    );
}

/// NUL bytes in names and words print back as they were read; a subscript
/// left open before a comment stays a plain word; a backquote inside a
/// double quote in `$((` is read whole (bash rejects the unclosed quote),
/// invalid arithmetic with quoted parentheses prints back as `$((`; a
/// here-document line ending in a backslash joins the next, so a delimiter
/// there does not end the body; a coprocess's simple command whose second
/// word is `{` prints its redirections first, so its first word does not
/// read back as the coprocess's name; an array element's `[key]` reads
/// across newlines, as bash reads it, so it prints back on one line; a
/// subscript in `${` ends no later than the `}` closing it, so a `]` on the
/// next line does not close it once the printer joins the lines.
#[test]
fn nul_bytes_round_trip() {
    let found_by_cargo_fuzz = "untilec[[ l\u{1}\0 #\0\0w})$ ]";
    let subscript_across_lines = "a[$\tindented0\0\n\tEOFdented\n\t$\\, F\\ ]=v";
    let backquote_in_arith = "ech\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0o $((a \"`ei\0\0\0\0\0\0\0\0\0\0\0o $((a \"`ei]))";
    let quoted_parens_in_arith = "echo $((a \"((\" ]))";
    let coproc_brace_word = "coproc k&>coproc {&>>}";
    let element_key_across_lines = "a=(x [3]=y [k\nb\nfa\n]+=z)";
    let subscript_past_brace = "[[x= cho ${!a[cat <<o}cho ${!a[cat <<o}k\n=  *.@7\0 ]]";
    let heredoc_continued = "ea%t << \\\ncch:o\n\n\n\n\n#\n\n\n\n\n\n\n\n\n\n\n\n\n\na%t << \\\ncch:o\n\n\n\n\n#\n\n\n\n\n\n\n\n\n\n\n a!b";
    for source in [
        "f\0() { :; }",
        "function f\0 { :; }",
        "echo a\0b",
        "x\0=1",
        "case \0 in \0) ;; esac",
        found_by_cargo_fuzz,
        subscript_across_lines,
        backquote_in_arith,
        quoted_parens_in_arith,
        heredoc_continued,
        coproc_brace_word,
        element_key_across_lines,
        subscript_past_brace,
    ] {
        if let Err(message) = parse_support::round_trip(source) {
            panic!("{source:?}: {message}");
        }
    }
    assert!(parse(backquote_in_arith, &ParseOptions::default()).is_err(), "bash: unexpected EOF looking for `\"'");
    assert!(parse(quoted_parens_in_arith, &ParseOptions::default()).is_ok());
}

/// With extglob on, `!(` starts a pattern word, not the reserved word `!`
/// (bash runs `!(x) y` as a command named by the pattern), so a printed
/// command whose first word is an extglob group reads back the same; and a
/// word in command position that opens a subscript reads to its `]` across
/// blanks, so the group inside `lc[ !(...) ]` stays literal (cargo-fuzz
/// finding).
#[test]
fn extglob_group_in_command_position_round_trips() {
    let extglob = ParseOptions { extglob: true, ..ParseOptions::default() };
    let found_by_cargo_fuzz = ">d\u{1e}!lc[ !(cho /\"a\"\0\0\0\0\0\0\0\u{1e}/a) ]]";
    for source in [found_by_cargo_fuzz, "!(a) b", "lc[ !(cho /\"a\"/a) ]]", "! (a)", "x | !(a)"] {
        for options in [&extglob, &ParseOptions::default()] {
            if let Err(message) = round_trip_with(source, options) {
                panic!("{source:?} (extglob {}): {message}", options.extglob);
            }
        }
    }
    assert!(parse("!(a) b", &extglob).is_ok());
    assert!(parse("!(a) b", &ParseOptions::default()).is_err(), "a negated subshell, then `b`");
    assert!(parse("lc[ !(cho /\"a\"/a) ]]", &ParseOptions::default()).is_ok());
    // An arithmetic expansion whose text holds an unbalanced `)` prints as `$[ ]`.
    // A case clause ending in a bare `time` prints with its `;` (`time ;;` is a syntax error).
    let bare_time_clause = "case $x in a|b) echo a&b;;+c) e&ho c\u{1}\0\0\0\0o other;time; esac";
    if let Err(message) = round_trip_with(bare_time_clause, &ParseOptions::default()) {
        panic!("{bare_time_clause:?}: {message}");
    }
    let arith_with_paren = "[+()f  &-f  R$[  r$[+()f ) &-f  r$&]]";
    if let Err(message) = round_trip_with(arith_with_paren, &extglob) {
        panic!("{arith_with_paren:?}: {message}");
    }
}

/// A function name with quoted parts keeps its source text, quotes and
/// all, so it prints back as written (the interpreter then refuses it, as
/// bash does); stored without its quotes it printed with a bare blank in
/// the name (cargo-fuzz finding).
#[test]
fn quoted_function_names_round_trip() {
    let found_by_cargo_fuzz = "functi'ou -'\0fe\0\0f() { echo; }";
    for source in [found_by_cargo_fuzz, "f'o o'() { echo; }", "f\"o\"() { :; }", "f\\ o() { :; }", "plain() { :; }"] {
        if let Err(message) = round_trip_with(source, &ParseOptions::default()) {
            panic!("{source:?}: {message}");
        }
    }
}

/// A subscript in command position ends where bash's quote-aware scan ends
/// it: a backslash inside double quotes passes the next byte and a
/// backquote inside double quotes runs to its own backquote, so the
/// printed form (which escapes a `"` inside such a backquote) reads back
/// the same (CI cargo-fuzz finding).
#[test]
fn subscripts_end_where_bash_ends_them() {
    let found_by_cargo_fuzz = "a[ $a == \"`*\" [ $a == \"`*\" ]]]]";
    for source in [found_by_cargo_fuzz, "a[ \"x\\\"]\" ]=1", "a[ `echo ]` ]=2", "a[ \"$(echo \"]\")\" ]=4", "x=${a[ \"]\" ]}"] {
        if let Err(message) = round_trip_with(source, &ParseOptions::default()) {
            panic!("{source:?}: {message}");
        }
        assert!(parse(source, &ParseOptions::default()).is_ok(), "{source:?} parses");
    }
}

/// A here-document body that does not parse as words (an unclosed
/// backquote or `${`) is kept for the run, as bash expands bodies only
/// then, and prints back as written.
#[test]
fn unparsable_heredoc_bodies_round_trip() {
    for source in ["cat <<EOF\nline `x\nEOF\n", "cat <<EOF\nline ${x\nEOF\necho after\n", "cat <<EOF\na `echo b` `c\nEOF\n"] {
        assert!(parse(source, &ParseOptions::default()).is_ok(), "{source:?} parses");
        if let Err(message) = parse_support::round_trip(source) {
            panic!("{source:?}: {message}");
        }
    }
}

/// A group in a regular expression after `=~` reads on across lines to
/// its `)`, as bash reads it, so an unclosed one is an error rather than
/// a word that ends at the newline (and prints back differently; CI
/// cargo-fuzz finding).
#[test]
fn regex_groups_read_across_lines() {
    let found_by_cargo_fuzz = "[[ $x =~ (a b)([\n]]";
    assert!(parse(found_by_cargo_fuzz, &ParseOptions::default()).is_err());
    for source in ["[[ $x =~ (a\nb) ]]", "[[ $x =~ (a|b) ]]"] {
        assert!(parse(source, &ParseOptions::default()).is_ok(), "{source:?} parses");
        if let Err(message) = parse_support::round_trip(source) {
            panic!("{source:?}: {message}");
        }
    }
}

/// A function named with an extglob operator character prints with a
/// blank before its `()`, which would otherwise open an extglob group when
/// extglob is on (CI cargo-fuzz finding).
#[test]
fn extglob_character_function_names_round_trip() {
    let extglob = ParseOptions { extglob: true, ..ParseOptions::default() };
    let found_by_cargo_fuzz = "(* \t() ( \0) )";
    for source in [found_by_cargo_fuzz, "f@ () { :; }", "x+ () ( a )"] {
        for options in [&extglob, &ParseOptions::default()] {
            if let Err(message) = round_trip_with(source, options) {
                panic!("{source:?} (extglob {}): {message}", options.extglob);
            }
        }
    }
}
