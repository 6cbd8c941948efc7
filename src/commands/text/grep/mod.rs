//! `grep`, `egrep`, `fgrep`: print the lines that match patterns, with GNU
//! grep's options, messages and exit statuses (0 selected, 1 none, 2 error).

mod prefilter;
mod search;
mod walk;

use crate::commands::common::Input;
use crate::commands::options::{parse, Long, Spec};
use crate::commands::text::input::read_all;
use crate::host::LocalFuture;
use crate::regex::{Regex, Syntax};
use crate::utility::Invocation;

const LONGS: &[Long] = &[
    Long::flag("extended-regexp", "E"),
    Long::flag("fixed-strings", "F"),
    Long::flag("basic-regexp", "G"),
    Long::flag("perl-regexp", "P"),
    Long::required("regexp", "e"),
    Long::required("file", "f"),
    Long::flag("ignore-case", "i"),
    Long::flag("no-ignore-case", "no-ignore-case"),
    Long::flag("word-regexp", "w"),
    Long::flag("line-regexp", "x"),
    Long::flag("null-data", "z"),
    Long::flag("no-messages", "s"),
    Long::flag("invert-match", "v"),
    Long::flag("version", "V"),
    Long::flag("help", "help"),
    Long::required("max-count", "m"),
    Long::flag("byte-offset", "b"),
    Long::flag("line-number", "n"),
    Long::flag("line-buffered", "line-buffered"),
    Long::flag("with-filename", "H"),
    Long::flag("no-filename", "h"),
    Long::required("label", "label"),
    Long::flag("only-matching", "o"),
    Long::flag("quiet", "q"),
    Long::flag("silent", "q"),
    Long::required("binary-files", "binary-files"),
    Long::flag("text", "a"),
    Long::required("directories", "d"),
    Long::required("devices", "D"),
    Long::flag("recursive", "r"),
    Long::flag("dereference-recursive", "R"),
    Long::required("include", "include"),
    Long::required("exclude", "exclude"),
    Long::required("exclude-dir", "exclude-dir"),
    Long::required("exclude-from", "exclude-from"),
    Long::flag("files-without-match", "L"),
    Long::flag("files-with-matches", "l"),
    Long::flag("count", "c"),
    Long::flag("null", "Z"),
    Long::required("before-context", "B"),
    Long::required("after-context", "A"),
    Long::required("context", "C"),
    Long::required("group-separator", "group-separator"),
    Long::flag("no-group-separator", "no-group-separator"),
    Long::optional("color", "color"),
    Long::optional("colour", "color"),
    Long::flag("binary", "U"),
];

const SPEC: Spec = Spec::new("EFGPe:f:iywxzsvVm:bnHhoqaId:D:rRLlcZB:A:C:U", LONGS);

const USAGE: &str = "Usage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n";

/// What to do with a file holding NUL bytes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum BinaryFiles {
    /// Report `binary file matches` instead of lines.
    Binary,
    /// Treat it as text (`-a`).
    Text,
    /// Treat it as not matching (`-I`).
    WithoutMatch,
}

/// Which file names `-l` / `-L` print.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum ListFiles {
    /// `-l`.
    Matching,
    /// `-L`.
    NonMatching,
}

/// Everything a search needs to know, settled from the command line.
pub struct Config {
    /// The compiled patterns; a line is selected when any matches.
    pub matchers: Vec<Regex>,
    /// A literal scan that skips lines the pattern cannot match.
    pub prefilter: Option<prefilter::Prefilter>,
    /// `-v`.
    pub invert: bool,
    /// `-c`.
    pub count: bool,
    /// `-l` / `-L`.
    pub list: Option<ListFiles>,
    /// `-o`.
    pub only_matching: bool,
    /// `-q`.
    pub quiet: bool,
    /// `-s`.
    pub no_messages: bool,
    /// `-n`.
    pub line_number: bool,
    /// `-b`.
    pub byte_offset: bool,
    /// Prefix output lines with the file name.
    pub with_filename: bool,
    /// Prefix the lines of files found under a directory with their names
    /// (the default with `-r` and one operand).
    pub names_in_directories: bool,
    /// The name standard input is shown as.
    pub label: String,
    /// `-r` (false) or `-R` (true), when recursing.
    pub recursive: Option<bool>,
    /// `-d skip`.
    pub skip_directories: bool,
    /// `--include` globs.
    pub include: Vec<String>,
    /// `--exclude` globs.
    pub exclude: Vec<String>,
    /// `--exclude-dir` globs.
    pub exclude_dir: Vec<String>,
    /// `-A`.
    pub after: usize,
    /// `-B`.
    pub before: usize,
    /// A context option was given (even `-A 0`): groups are separated.
    pub context_given: bool,
    /// The separator between context groups, `None` for none.
    pub group_separator: Option<String>,
    /// `-m`.
    pub max_count: Option<u64>,
    /// The line delimiter (`\n`, or NUL with `-z`).
    pub eol: u8,
    /// `-Z`: a NUL after file names.
    pub null_after_name: bool,
    /// `--binary-files`.
    pub binary: BinaryFiles,
}

/// Runs `grep`, `egrep` or `fgrep`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let (config, operands) = match configure(ctx).await {
            Ok(configured) => configured,
            Err(status) => return status,
        };
        walk::search_all(ctx, &config, &operands).await
    })
}

/// True when `word` is a short-option cluster whose last letter takes the
/// next word as its argument (`-e`, `-nA`).
fn wants_argument(word: &str) -> bool {
    let Some(letters) = word.strip_prefix('-').filter(|rest| !rest.starts_with('-')) else {
        return false;
    };
    let taking = |c: char| "efmABCdD".contains(c);
    match letters.char_indices().find(|(_, c)| taking(*c)) {
        Some((index, c)) => index + c.len_utf8() == letters.len(),
        None => false,
    }
}

/// Rewrites `-NUM` into `--context=NUM`, as grep reads it.
fn rewrite_context_digits(args: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut ended = false;
    for arg in args {
        let is_argument = out.last().is_some_and(|previous| wants_argument(previous));
        if !ended && !is_argument && arg.len() > 1 && arg.starts_with('-') && arg[1..].bytes().all(|b| b.is_ascii_digit()) {
            out.push(format!("--context={}", &arg[1..]));
        } else {
            ended |= arg == "--";
            out.push(arg.clone());
        }
    }
    out
}

async fn usage_error(ctx: &Invocation<'_>, message: Option<String>) -> i32 {
    let mut text = String::new();
    if let Some(message) = message {
        text.push_str(&format!("grep: {message}\n"));
    }
    text.push_str(USAGE);
    let _ = ctx.stderr.write(text.as_bytes()).await;
    2
}

async fn fatal(ctx: &Invocation<'_>, message: &str) -> i32 {
    ctx.report(message).await;
    2
}

/// Parses a context length (`-A`, `-B`, `-C`).
fn context_length(text: &str) -> Option<usize> {
    let value: u64 = text.parse().ok()?;
    Some(usize::try_from(value).unwrap_or(usize::MAX))
}

async fn configure(ctx: &mut Invocation<'_>) -> Result<(Config, Vec<String>), i32> {
    let args = rewrite_context_digits(ctx.args.get(1..).unwrap_or(&[]));
    let parsed = match parse(&SPEC, &args) {
        Ok(parsed) => parsed,
        Err(error) => return Err(usage_error(ctx, Some(error.message())).await),
    };
    let mut syntax = Syntax::default();
    let mut matcher_kind = match ctx.name() {
        "egrep" => Some('E'),
        "fgrep" => Some('F'),
        _ => None,
    };
    // `egrep` and `fgrep` are `grep -E` and `grep -F`, and report as `grep`.
    if let Some(name) = ctx.args.first_mut() {
        *name = "grep".to_string();
    }
    let mut patterns: Vec<Vec<u8>> = Vec::new();
    let mut patterns_given = false;
    let mut config = Config {
        matchers: Vec::new(),
        prefilter: None,
        invert: false,
        count: false,
        list: None,
        only_matching: false,
        quiet: false,
        no_messages: false,
        line_number: false,
        byte_offset: false,
        with_filename: false,
        names_in_directories: false,
        label: "(standard input)".to_string(),
        recursive: None,
        skip_directories: false,
        include: Vec::new(),
        exclude: Vec::new(),
        exclude_dir: Vec::new(),
        after: 0,
        before: 0,
        context_given: false,
        group_separator: Some("--".to_string()),
        max_count: None,
        eol: b'\n',
        null_after_name: false,
        binary: BinaryFiles::Binary,
    };
    let (mut after, mut before, mut context): (Option<usize>, Option<usize>, Option<usize>) = (None, None, None);
    let mut filename: Option<bool> = None;
    for (key, value) in &parsed.options {
        let text = value.as_deref().unwrap_or("");
        match *key {
            "E" | "F" | "G" | "P" => {
                let kind = key.chars().next().unwrap_or('G');
                if matcher_kind.is_some_and(|old| old != kind) {
                    return Err(fatal(ctx, "conflicting matchers specified").await);
                }
                matcher_kind = Some(kind);
            }
            "e" => {
                patterns.extend(text.split('\n').map(|p| p.as_bytes().to_vec()));
                patterns_given = true;
            }
            "f" => {
                let data = if text == "-" {
                    read_all(&ctx.stdin).await.unwrap_or_default()
                } else {
                    match ctx.fs.read_file(&ctx.resolve(text)).await {
                        Ok(data) => data,
                        Err(error) => return Err(fatal(ctx, &format!("{text}: {error}")).await),
                    }
                };
                let mut lines: Vec<Vec<u8>> = data.split(|b| *b == b'\n').map(<[u8]>::to_vec).collect();
                if data.ends_with(b"\n") || data.is_empty() {
                    lines.pop();
                }
                patterns.extend(lines);
                patterns_given = true;
            }
            "i" | "y" => syntax.ignore_case = true,
            "no-ignore-case" => syntax.ignore_case = false,
            "w" => syntax.whole_word = true,
            "x" => syntax.whole_line = true,
            "z" => config.eol = 0,
            "s" => config.no_messages = true,
            "v" => config.invert = true,
            "V" => {
                let _ = ctx.write_out(b"grep (GNU grep) 3.8\n").await;
                return Err(0);
            }
            "help" => {
                let _ = ctx.write_out(b"Usage: grep [OPTION]... PATTERNS [FILE]...\nSearch for PATTERNS in each FILE.\n").await;
                return Err(0);
            }
            "m" => match text.parse::<i64>() {
                // A negative count means no limit.
                Ok(value) => config.max_count = u64::try_from(value).ok(),
                Err(_) => return Err(fatal(ctx, "invalid max count").await),
            },
            "b" => config.byte_offset = true,
            "n" => config.line_number = true,
            "H" => filename = Some(true),
            "h" => filename = Some(false),
            "label" => config.label = text.to_string(),
            "o" => config.only_matching = true,
            "q" => config.quiet = true,
            "binary-files" => {
                config.binary = match text {
                    "binary" => BinaryFiles::Binary,
                    "text" => BinaryFiles::Text,
                    "without-match" => BinaryFiles::WithoutMatch,
                    _ => return Err(fatal(ctx, "unknown binary-files type").await),
                }
            }
            "a" => config.binary = BinaryFiles::Text,
            "I" => config.binary = BinaryFiles::WithoutMatch,
            "d" => match text {
                "read" => {
                    config.recursive = None;
                    config.skip_directories = false;
                }
                "skip" => config.skip_directories = true,
                "recurse" => config.recursive = Some(false),
                _ => return Err(fatal(ctx, "unknown directories method").await),
            },
            "D" if text != "read" && text != "skip" => return Err(fatal(ctx, "unknown devices method").await),
            "r" => config.recursive = Some(config.recursive.unwrap_or(false)),
            "R" => config.recursive = Some(true),
            "include" => config.include.push(text.to_string()),
            "exclude" => config.exclude.push(text.to_string()),
            "exclude-dir" => config.exclude_dir.push(text.to_string()),
            "exclude-from" => match ctx.fs.read_file(&ctx.resolve(text)).await {
                Ok(data) => config.exclude.extend(String::from_utf8_lossy(&data).lines().filter(|l| !l.is_empty()).map(str::to_string)),
                Err(error) => return Err(fatal(ctx, &format!("{text}: {error}")).await),
            },
            "L" => config.list = Some(ListFiles::NonMatching),
            "l" => config.list = Some(ListFiles::Matching),
            "c" => config.count = true,
            "Z" => config.null_after_name = true,
            "A" | "B" | "C" => {
                let Some(length) = context_length(text) else {
                    return Err(fatal(ctx, &format!("{text}: invalid context length argument")).await);
                };
                match *key {
                    "A" => after = Some(length),
                    "B" => before = Some(length),
                    _ => context = Some(length),
                }
            }
            "group-separator" => config.group_separator = Some(text.to_string()),
            "no-group-separator" => config.group_separator = None,
            "color" if !matches!(text, "" | "never" | "auto" | "always" | "yes" | "no" | "force" | "none" | "tty" | "if-tty") => {
                return Err(usage_error(ctx, None).await);
            }
            _ => {}
        }
    }
    config.context_given = after.or(before).or(context).is_some();
    config.after = after.or(context).unwrap_or(0);
    config.before = before.or(context).unwrap_or(0);
    let mut operands = parsed.operands;
    if !patterns_given {
        if operands.is_empty() {
            return Err(usage_error(ctx, None).await);
        }
        let first = operands.remove(0);
        patterns.extend(first.split('\n').map(|p| p.as_bytes().to_vec()));
    }
    match matcher_kind {
        Some('E') => syntax.extended = true,
        Some('F') => syntax.fixed = true,
        Some('P') => syntax.perl = true,
        _ => {}
    }
    if syntax.perl && patterns.len() > 1 {
        return Err(fatal(ctx, "the -P option only supports a single pattern").await);
    }
    syntax.reject_bare_class = true;
    config.prefilter = prefilter::Prefilter::new(&patterns, &syntax);
    config.matchers = match Regex::any_of(&patterns, &syntax) {
        Ok(matchers) => matchers,
        Err(error) => return Err(fatal(ctx, &error.to_string()).await),
    };
    for matcher in &config.matchers {
        for warning in matcher.warnings() {
            ctx.report(&format!("warning: {warning}")).await;
        }
    }
    config.with_filename = filename.unwrap_or(operands.len() > 1);
    config.names_in_directories = filename.unwrap_or(config.recursive.is_some());
    Ok((config, operands))
}

/// Writes `grep: NAME: message` unless `-s` silences file errors.
async fn report_file(ctx: &Invocation<'_>, config: &Config, name: &str, message: &str) {
    if !config.no_messages {
        ctx.report(&format!("{name}: {message}")).await;
    }
}

/// The name an input is shown as.
fn display_name(config: &Config, input: &Input) -> String {
    match input {
        Input::Stdin => config.label.clone(),
        Input::File(name) => name.clone(),
    }
}

/// Reports a write failure as grep does and returns its status (2).
async fn write_status(ctx: &Invocation<'_>, error: crate::io::IoError) -> i32 {
    ctx.write_failed_with(error, |error| format!("write error: {error}"), 2).await
}

#[cfg(test)]
mod tests {
    use crate::commands::test_support::{new_fs, run_utility};

    #[test]
    fn perl_backtracking_limit_is_an_error_naming_the_input() {
        let out = run_utility(&new_fs(), &["grep", "-P", "^(\\w+\\s?)*(?<=b)$"], b"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\n");
        assert_eq!(out.status, 2);
        assert_eq!(out.stderr, "grep: (standard input): exceeded PCRE's backtracking limit\n");
        let out = run_utility(&new_fs(), &["grep", "-oP", "(a)\\1"], b"xaa\n");
        assert_eq!((out.status, out.stdout.as_str()), (0, "aa\n"));
    }

    #[test]
    fn huge_repetitions_are_refused() {
        let out = run_utility(&new_fs(), &["grep", "-E", "((a{1000}){1000}){1000}"], b"a\n");
        assert_eq!(out.status, 2);
        assert_eq!(out.stderr, "grep: Regular expression too big\n");
    }
}
