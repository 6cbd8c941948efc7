//! `rg`'s command line: the options, their clap-style error messages, and
//! the settings they make. Later options override earlier ones, as in
//! ripgrep (`--heading --no-heading`, `-i -s`).

use super::ignore::Rules;
use super::matcher::{CaseMode, MatchOptions, Matcher};
use super::types::{type_list, TypeFilter};
use super::Config;
use crate::commands::options::{parse, Long, OptionError, Spec};
use crate::utility::Invocation;

const LONGS: &[Long] = &[
    Long::required("after-context", "A"),
    Long::required("before-context", "B"),
    Long::required("context", "C"),
    Long::flag("text", "a"),
    Long::flag("byte-offset", "b"),
    Long::flag("count", "c"),
    Long::flag("count-matches", "count-matches"),
    Long::flag("include-zero", "include-zero"),
    Long::required("max-depth", "d"),
    Long::required("maxdepth", "d"),
    Long::required("regexp", "e"),
    Long::flag("fixed-strings", "F"),
    Long::required("file", "f"),
    Long::required("glob", "g"),
    Long::required("iglob", "iglob"),
    Long::flag("with-filename", "H"),
    Long::flag("no-filename", "I"),
    Long::flag("ignore-case", "i"),
    Long::flag("case-sensitive", "s"),
    Long::flag("smart-case", "S"),
    Long::required("threads", "j"),
    Long::flag("follow", "L"),
    Long::flag("files-with-matches", "l"),
    Long::flag("files-without-match", "files-without-match"),
    Long::required("max-count", "m"),
    Long::flag("line-number", "n"),
    Long::flag("no-line-number", "N"),
    Long::flag("only-matching", "o"),
    Long::flag("perl-regexp", "P"),
    Long::flag("pcre2", "P"),
    Long::flag("quiet", "q"),
    Long::required("replace", "r"),
    Long::required("type", "t"),
    Long::required("type-not", "T"),
    Long::flag("type-list", "type-list"),
    Long::required("type-add", "type-add"),
    Long::flag("unrestricted", "u"),
    Long::flag("invert-match", "v"),
    Long::flag("word-regexp", "w"),
    Long::flag("line-regexp", "x"),
    Long::flag("null", "0"),
    Long::flag("hidden", "hidden"),
    Long::flag("no-hidden", "no-hidden"),
    Long::flag("no-ignore", "no-ignore"),
    Long::flag("ignore", "ignore"),
    Long::flag("no-ignore-vcs", "no-ignore-vcs"),
    Long::flag("no-ignore-dot", "no-ignore-dot"),
    Long::flag("no-ignore-parent", "no-ignore-parent"),
    Long::flag("no-require-git", "no-require-git"),
    Long::flag("files", "files"),
    Long::flag("json", "json"),
    Long::flag("no-json", "no-json"),
    Long::flag("heading", "heading"),
    Long::flag("no-heading", "no-heading"),
    Long::flag("column", "column"),
    Long::flag("no-column", "no-column"),
    Long::required("sort", "sort"),
    Long::required("sortr", "sortr"),
    Long::required("sort-files", "sort-files"),
    Long::flag("vimgrep", "vimgrep"),
    Long::required("color", "color"),
    Long::required("colour", "color"),
    Long::required("context-separator", "context-separator"),
    Long::flag("no-messages", "no-messages"),
    Long::flag("binary", "binary"),
    Long::flag("no-binary", "no-binary"),
    Long::flag("version", "V"),
    Long::flag("help", "help"),
];

const SPEC: Spec = Spec::new("A:B:C:abcd:e:Ff:g:HIisSj:Llm:nNoPqr:t:T:uvwx0Vh", LONGS);

const USAGE: &str = "USAGE:
    
    rg [OPTIONS] PATTERN [PATH ...]
    rg [OPTIONS] -e PATTERN ... [PATH ...]
    rg [OPTIONS] -f PATTERNFILE ... [PATH ...]
    rg [OPTIONS] --files [PATH ...]
    rg [OPTIONS] --type-list
    command | rg [OPTIONS] PATTERN
    rg [OPTIONS] --help
    rg [OPTIONS] --version

For more information try --help

";

/// The settings and operands of a run.
pub struct Setup {
    /// The settings.
    pub config: Config,
    /// The path operands.
    pub paths: Vec<String>,
    /// `--files`.
    pub list_files: bool,
}

/// Writes a clap-style error and returns status 2.
async fn clap_error(ctx: &Invocation<'_>, message: &str, with_usage: bool) -> i32 {
    let mut text = format!("error: {message}\n\n");
    if with_usage {
        text.push_str(USAGE);
    }
    let _ = ctx.stderr.write(text.as_bytes()).await;
    2
}

/// A plain error line (ripgrep's own, not clap's) and status 2.
async fn plain_error(ctx: &Invocation<'_>, message: &str) -> i32 {
    let _ = ctx.stderr.write(format!("{message}\n").as_bytes()).await;
    2
}

fn long_name(key: &str) -> &str {
    LONGS.iter().find(|long| long.key == key && long.name.len() > 1).map_or(key, |long| long.name)
}

fn number<T: std::str::FromStr>(key: &str, text: &str) -> Result<T, String> {
    text.parse::<T>().map_err(|_| {
        let reason = if text.is_empty() { "cannot parse integer from empty string" } else { "invalid digit found in string" };
        format!("Invalid value for '--{} <NUM>': {reason}", long_name(key))
    })
}

/// Reads the command line; `Err(status)` when the run ends here (an error,
/// `--version`, `--type-list`).
pub async fn configure(ctx: &Invocation<'_>) -> Result<Setup, i32> {
    let args = ctx.args.get(1..).unwrap_or(&[]);
    let parsed = match parse(&SPEC, args) {
        Ok(parsed) => parsed,
        Err(error) => {
            let word = match &error {
                OptionError::Invalid(letter) | OptionError::MissingShort(letter) => format!("-{letter}"),
                OptionError::Unrecognized(word) => word.clone(),
                OptionError::MissingLong(name) | OptionError::UnexpectedArgument(name) => format!("--{name}"),
                OptionError::Ambiguous(name, _) => format!("--{name}"),
            };
            let message = match error {
                OptionError::MissingShort(_) | OptionError::MissingLong(_) => {
                    format!("The argument '{word} <VALUE>' requires a value but none was supplied")
                }
                _ => format!("Found argument '{word}' which wasn't expected, or isn't valid in this context"),
            };
            return Err(clap_error(ctx, &message, true).await);
        }
    };
    let mut patterns: Vec<String> = Vec::new();
    let mut patterns_given = false;
    let mut match_options = MatchOptions::default();
    let (mut after, mut before, mut context): (Option<usize>, Option<usize>, Option<usize>) = (None, None, None);
    let mut line_number = false;
    let mut with_filename: Option<bool> = None;
    let mut heading = false;
    let mut globs: Vec<String> = Vec::new();
    let mut iglobs: Vec<String> = Vec::new();
    let mut selected_types: Vec<String> = Vec::new();
    let mut negated_types: Vec<String> = Vec::new();
    let mut added_types: Vec<(String, Vec<String>)> = Vec::new();
    let mut unrestricted = 0;
    let mut flags = Flags::default();
    let mut show_type_list = false;
    for (key, value) in &parsed.options {
        let text = value.as_deref().unwrap_or("");
        let result: Result<(), String> = (|| {
            match *key {
                "A" => after = Some(number(key, text)?),
                "B" => before = Some(number(key, text)?),
                "C" => context = Some(number(key, text)?),
                "d" => flags.max_depth = Some(number(key, text)?),
                "m" => flags.max_count = Some(number(key, text)?),
                "j" => {
                    number::<usize>(key, text)?;
                }
                _ => flags.set(key, text),
            }
            Ok(())
        })();
        if let Err(message) = result {
            return Err(clap_error(ctx, &message, false).await);
        }
        match *key {
            "e" => {
                patterns.push(text.to_string());
                patterns_given = true;
            }
            "f" => {
                let data = if text == "-" {
                    ctx.stdin.read_to_end().await.unwrap_or_default()
                } else {
                    match ctx.fs.read_file(&ctx.resolve(text)).await {
                        Ok(data) => data,
                        Err(error) => return Err(plain_error(ctx, &format!("{text}: {error} (os error {})", error.errno())).await),
                    }
                };
                let content = String::from_utf8_lossy(&data);
                patterns.extend(content.lines().map(str::to_string));
                patterns_given = true;
            }
            "F" => match_options.fixed = true,
            "P" => match_options.perl = true,
            "w" => match_options.word = true,
            "x" => match_options.line = true,
            "i" => match_options.case = CaseMode::Insensitive,
            "s" => match_options.case = CaseMode::Sensitive,
            "S" => match_options.case = CaseMode::Smart,
            "n" => line_number = true,
            "N" => line_number = false,
            "H" => with_filename = Some(true),
            "I" => with_filename = Some(false),
            "heading" => heading = true,
            "no-heading" => heading = false,
            "g" => globs.push(text.to_string()),
            "iglob" => iglobs.push(text.to_string()),
            "t" => selected_types.push(text.to_string()),
            "T" => negated_types.push(text.to_string()),
            "type-add" => match text.split_once(':') {
                Some((name, glob)) if !name.is_empty() && !glob.starts_with("include:") => {
                    added_types.push((name.to_string(), vec![glob.to_string()]));
                }
                _ => return Err(plain_error(ctx, &format!("invalid definition (format is type:glob, e.g., html:*.html): {text}")).await),
            },
            "type-list" => show_type_list = true,
            "u" => unrestricted += 1,
            "V" => {
                let _ = ctx.write_out(b"ripgrep 13.0.0\n").await;
                return Err(0);
            }
            "help" | "h" => {
                let _ = ctx.write_out(format!("ripgrep 13.0.0\n\n{USAGE}").as_bytes()).await;
                return Err(0);
            }
            "color" if !matches!(text, "never" | "auto" | "always" | "ansi") => {
                let message = format!("'{text}' isn't a valid value for '--color <WHEN>'\n\t[possible values: never, auto, always, ansi]");
                return Err(clap_error(ctx, &message, true).await);
            }
            "sort" | "sortr" | "sort-files" if !matches!(text, "path" | "modified" | "accessed" | "created" | "none" | "") => {
                let message = format!(
                    "'{text}' isn't a valid value for '--{key} <SORTBY>'\n\t[possible values: path, modified, accessed, created, none]"
                );
                return Err(clap_error(ctx, &message, true).await);
            }
            _ => {}
        }
    }
    if show_type_list {
        let _ = ctx.write_out(type_list(&added_types).as_bytes()).await;
        return Err(0);
    }
    let mut paths = parsed.operands;
    if !patterns_given && !flags.files {
        if paths.is_empty() {
            let message = "The following required arguments were not provided:\n    <PATTERN>";
            return Err(clap_error(ctx, message, true).await);
        }
        patterns.push(paths.remove(0));
    }
    if unrestricted >= 1 {
        flags.no_ignore = true;
    }
    if unrestricted >= 2 {
        flags.hidden = true;
    }
    if unrestricted >= 3 {
        flags.binary = true;
    }
    let matcher = match Matcher::new(&patterns, &match_options) {
        Ok(matcher) => matcher,
        Err(message) => return Err(plain_error(ctx, &message).await),
    };
    let types = match TypeFilter::new(&selected_types, &negated_types, &added_types) {
        Ok(types) => types,
        Err(name) => return Err(plain_error(ctx, &format!("unrecognized file type: {name}")).await),
    };
    let overrides = match (globs.is_empty(), iglobs.is_empty()) {
        (true, true) => None,
        _ => {
            let mut all = globs.clone();
            all.extend(iglobs.iter().cloned());
            match Rules::overrides(&all, !iglobs.is_empty() && globs.is_empty()) {
                Ok(rules) => rules,
                Err(message) => return Err(plain_error(ctx, &message).await),
            }
        }
    };
    let single_file = paths.len() == 1 && {
        let path = paths.first().map(String::as_str).unwrap_or("");
        path == "-" || ctx.fs.metadata(&ctx.resolve(path)).await.is_ok_and(|meta| !meta.is_dir())
    };
    let searching_stdin = paths.is_empty() && !flags.files && super::stdin_is_searchable(&ctx.stdin).await;
    let vimgrep = flags.vimgrep;
    let config = Config {
        matcher,
        invert: flags.invert,
        count: flags.count,
        count_matches: flags.count_matches,
        include_zero: flags.include_zero,
        files_with_matches: flags.files_with_matches,
        files_without_match: flags.files_without_match,
        only_matching: flags.only_matching,
        quiet: flags.quiet,
        line_number: line_number || vimgrep || flags.column,
        column: flags.column || vimgrep,
        byte_offset: flags.byte_offset,
        vimgrep,
        with_filename: with_filename.unwrap_or(vimgrep || !(single_file || searching_stdin)),
        heading: heading && !vimgrep,
        after: after.or(context).unwrap_or(0),
        before: before.or(context).unwrap_or(0),
        max_count: flags.max_count,
        null: flags.null,
        json: flags.json,
        text: flags.text,
        binary: flags.binary,
        replace: flags.replace,
        context_separator: flags.context_separator.unwrap_or_else(|| "--".to_string()),
        hidden: flags.hidden,
        ignore_dot: !flags.no_ignore && !flags.no_ignore_dot,
        ignore_vcs: !flags.no_ignore && !flags.no_ignore_vcs,
        ignore_parents: !flags.no_ignore_parent,
        require_git: !flags.no_require_git,
        max_depth: flags.max_depth,
        follow: flags.follow,
        overrides,
        types,
        no_messages: flags.no_messages,
    };
    Ok(Setup { config, paths, list_files: flags.files })
}

/// The on/off options, each overriding the last.
#[derive(Default)]
struct Flags {
    invert: bool,
    count: bool,
    count_matches: bool,
    include_zero: bool,
    files_with_matches: bool,
    files_without_match: bool,
    only_matching: bool,
    quiet: bool,
    column: bool,
    byte_offset: bool,
    vimgrep: bool,
    null: bool,
    json: bool,
    text: bool,
    binary: bool,
    hidden: bool,
    no_ignore: bool,
    no_ignore_dot: bool,
    no_ignore_vcs: bool,
    no_ignore_parent: bool,
    no_require_git: bool,
    follow: bool,
    files: bool,
    no_messages: bool,
    max_depth: Option<usize>,
    max_count: Option<u64>,
    replace: Option<String>,
    context_separator: Option<String>,
}

impl Flags {
    fn set(&mut self, key: &str, text: &str) {
        match key {
            "v" => self.invert = true,
            "c" => self.count = true,
            "count-matches" => self.count_matches = true,
            "include-zero" => self.include_zero = true,
            "l" => self.files_with_matches = true,
            "files-without-match" => self.files_without_match = true,
            "o" => self.only_matching = true,
            "q" => self.quiet = true,
            "column" => self.column = true,
            "no-column" => self.column = false,
            "b" => self.byte_offset = true,
            "vimgrep" => self.vimgrep = true,
            "0" => self.null = true,
            "json" => self.json = true,
            "no-json" => self.json = false,
            "a" => self.text = true,
            "binary" => self.binary = true,
            "no-binary" => self.binary = false,
            "hidden" => self.hidden = true,
            "no-hidden" => self.hidden = false,
            "no-ignore" => self.no_ignore = true,
            "ignore" => self.no_ignore = false,
            "no-ignore-dot" => self.no_ignore_dot = true,
            "no-ignore-vcs" => self.no_ignore_vcs = true,
            "no-ignore-parent" => self.no_ignore_parent = true,
            "no-require-git" => self.no_require_git = true,
            "L" => self.follow = true,
            "files" => self.files = true,
            "no-messages" => self.no_messages = true,
            "r" => self.replace = Some(text.to_string()),
            "context-separator" => self.context_separator = Some(text.to_string()),
            _ => {}
        }
    }
}
