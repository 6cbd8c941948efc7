//! Finds `--help` and `--version` on a command line the way the real tool's
//! option parser would meet them: in order, skipping the arguments of the
//! options its usage text lists, accepting unique prefixes (`--hel`), and
//! giving up at `--`, at an option the text does not list (the command then
//! reports it), or, for tools that stop there, at the first operand.

use super::listing::{line_options, listed_options};
use crate::commands::options::HasArg;

/// What the command line asks for instead of the command's work.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Request {
    /// `--help`: print the usage text.
    Help,
    /// `--version`: print the version lines.
    Version,
}

/// How a tool's option parser reaches `--help`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scan {
    /// getopt with permutation: anywhere before `--` (`ls -l --help`).
    Permute,
    /// getopt stopping at the first operand (`env`, `timeout`, `tr`).
    Stop,
    /// Only as the first argument (`expr --help`).
    First,
    /// Any argument at all (`find . -name x --help`).
    Anywhere,
}

/// Looks for `--help`/`--version` in `args` (without the command name).
pub fn scan(text: &str, mode: Scan, args: &[String]) -> Option<Request> {
    match mode {
        Scan::First => args.first().and_then(|word| exact(word)),
        Scan::Anywhere => args.iter().find_map(|word| exact(word)),
        Scan::Permute | Scan::Stop if !args.iter().any(|word| may_ask(word)) => None,
        Scan::Permute | Scan::Stop => scan_getopt(text, mode == Scan::Stop, args),
    }
}

/// True when `word` could ask for help or the version: `--h...`, `--v...`,
/// or a short cluster with a letter tools use for them (`-V`, `-h`, `-v`,
/// `-?`). Most command lines have none, and skip reading the usage text.
fn may_ask(word: &str) -> bool {
    match word.strip_prefix("--") {
        Some(long) => long.starts_with(['h', 'v']),
        None => word.starts_with('-') && word[1..].contains(['h', 'V', 'v', '?']),
    }
}

/// `--help` or `--version` written out in full.
fn exact(word: &str) -> Option<Request> {
    match word {
        "--help" => Some(Request::Help),
        "--version" => Some(Request::Version),
        _ => None,
    }
}

/// The getopt-style walk for [`Scan::Permute`] and [`Scan::Stop`].
fn scan_getopt(text: &str, stop_at_operand: bool, args: &[String]) -> Option<Request> {
    let listed = listed_options(text);
    let mut longs: Vec<(String, HasArg)> =
        listed.iter().filter(|l| l.is_long()).map(|l| (l.spelling[2..].to_string(), l.has_arg)).collect();
    for name in ["help", "version"] {
        if !longs.iter().any(|(long, _)| long == name) {
            longs.push((name.to_string(), HasArg::No));
        }
    }
    let (help_letters, version_letters) = (aliases(text, "--help"), aliases(text, "--version"));
    let mut index = 0;
    while let Some(word) = args.get(index) {
        index += 1;
        if word == "--" {
            return None;
        }
        if let Some(body) = word.strip_prefix("--") {
            let (name, attached) = match body.split_once('=') {
                Some((name, _)) => (name, true),
                None => (body, false),
            };
            let (long, has_arg) = resolve_long(&longs, name)?;
            match long {
                "help" | "version" if attached => return None,
                "help" => return Some(Request::Help),
                "version" => return Some(Request::Version),
                _ => {}
            }
            if has_arg == HasArg::Required && !attached {
                index += 1;
            }
            continue;
        }
        let is_cluster = word.len() > 1 && word.starts_with('-') && !word[1..].starts_with(|c: char| c.is_ascii_digit());
        if !is_cluster {
            if stop_at_operand {
                return None;
            }
            continue;
        }
        for (offset, letter) in word[1..].char_indices() {
            if help_letters.contains(&letter) {
                return Some(Request::Help);
            }
            if version_letters.contains(&letter) {
                return Some(Request::Version);
            }
            let spelling = format!("-{letter}");
            let has_arg = listed.iter().find(|l| l.spelling == spelling)?.has_arg;
            if has_arg != HasArg::No {
                let rest_empty = word.len() <= 1 + offset + letter.len_utf8();
                if has_arg == HasArg::Required && rest_empty {
                    index += 1;
                }
                break;
            }
        }
    }
    None
}

/// The long option `name` names, exactly or as a unique prefix; `None` when
/// unknown or ambiguous (the command reports it).
fn resolve_long<'a>(longs: &'a [(String, HasArg)], name: &str) -> Option<(&'a str, HasArg)> {
    if let Some((long, has_arg)) = longs.iter().find(|(long, _)| long == name) {
        return Some((long, *has_arg));
    }
    let mut matches = longs.iter().filter(|(long, _)| long.starts_with(name));
    let first = matches.next()?;
    match matches.next() {
        None => Some((&first.0, first.1)),
        Some(_) => None,
    }
}

/// The short letters listed on the same line as `long` (`-V, --version`).
fn aliases(text: &str, long: &str) -> Vec<char> {
    let mut letters = Vec::new();
    for line in text.lines() {
        let options = line_options(line);
        if options.iter().any(|l| l.spelling == long) {
            letters.extend(options.iter().filter(|l| !l.is_long()).filter_map(|l| l.spelling.chars().nth(1)));
        }
    }
    letters
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "Usage: x\n  -a, --all        all\n  -t, --sep=SEP    separator\n      --hide=PAT   hide\n  -V, --version    version\n      --help       help\n";

    fn run(mode: Scan, words: &[&str]) -> Option<Request> {
        let args: Vec<String> = words.iter().map(|w| w.to_string()).collect();
        scan(TEXT, mode, &args)
    }

    #[test]
    fn finds_help_as_getopt_would() {
        assert_eq!(run(Scan::Permute, &["--help"]), Some(Request::Help));
        assert_eq!(run(Scan::Permute, &["-a", "file", "--help"]), Some(Request::Help));
        assert_eq!(run(Scan::Permute, &["--hel"]), Some(Request::Help));
        assert_eq!(run(Scan::Permute, &["--h"]), None, "ambiguous with --hide");
        assert_eq!(run(Scan::Permute, &["-aV"]), Some(Request::Version));
        assert_eq!(run(Scan::Permute, &["--vers", "--help"]), Some(Request::Version));
    }

    #[test]
    fn skips_option_arguments_and_stops_where_getopt_stops() {
        assert_eq!(run(Scan::Permute, &["-t", "--help"]), None);
        assert_eq!(run(Scan::Permute, &["-t", "--help", "--version"]), Some(Request::Version));
        assert_eq!(run(Scan::Permute, &["--sep", "--help"]), None);
        assert_eq!(run(Scan::Permute, &["--sep=:", "--help"]), Some(Request::Help));
        assert_eq!(run(Scan::Permute, &["-t:", "--help"]), Some(Request::Help));
        assert_eq!(run(Scan::Permute, &["--", "--help"]), None);
        assert_eq!(run(Scan::Permute, &["-q", "--help"]), None, "the command reports -q");
        assert_eq!(run(Scan::Permute, &["--help=1"]), None);
        assert_eq!(run(Scan::Stop, &["x", "--help"]), None);
        assert_eq!(run(Scan::Stop, &["-a", "--help"]), Some(Request::Help));
        assert_eq!(run(Scan::First, &["1", "--help"]), None);
        assert_eq!(run(Scan::First, &["--version"]), Some(Request::Version));
        assert_eq!(run(Scan::Anywhere, &[".", "-name", "--help"]), Some(Request::Help));
    }
}
