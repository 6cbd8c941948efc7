//! `rg`: ripgrep 13's common options over the sandbox filesystem, in its
//! non-terminal output format (`path:text`, `-n` for line numbers, no
//! colours, no headings), exit 0 (a match), 1 (none), 2 (an error).
//!
//! Unlike ripgrep, which searches files in parallel and prints them in
//! whatever order they finish, the walk is in name order, so the output is
//! what `rg --sort path` prints.

mod ignore;
mod json;
mod matcher;
mod options;
mod replace;
mod scan;
mod search;
mod types;
mod walk;

use crate::host::LocalFuture;
use crate::io::{Fd, Stream};
use crate::utility::{write_failure_status, Invocation};
use ignore::Rules;
use matcher::Matcher;
use search::{search_buffer, Origin, Printer};
use types::TypeFilter;

/// Everything a run needs, settled from the command line.
pub struct Config {
    /// The compiled patterns.
    pub matcher: Matcher,
    /// `-v`.
    pub invert: bool,
    /// `-c`.
    pub count: bool,
    /// `--count-matches`.
    pub count_matches: bool,
    /// `--include-zero`.
    pub include_zero: bool,
    /// `-l`.
    pub files_with_matches: bool,
    /// `--files-without-match`.
    pub files_without_match: bool,
    /// `-o`.
    pub only_matching: bool,
    /// `-q`.
    pub quiet: bool,
    /// `-n` (off by default, as ripgrep when not printing to a terminal).
    pub line_number: bool,
    /// `--column`.
    pub column: bool,
    /// `-b`.
    pub byte_offset: bool,
    /// `--vimgrep`.
    pub vimgrep: bool,
    /// Print the path before each line.
    pub with_filename: bool,
    /// `--heading`.
    pub heading: bool,
    /// `-A`.
    pub after: usize,
    /// `-B`.
    pub before: usize,
    /// `-m`.
    pub max_count: Option<u64>,
    /// `-0`: a NUL after each path.
    pub null: bool,
    /// `--json`.
    pub json: bool,
    /// `-a`.
    pub text: bool,
    /// `--binary` (`-uuu`): walked binary files are searched too.
    pub binary: bool,
    /// `-r`.
    pub replace: Option<String>,
    /// `--context-separator`.
    pub context_separator: String,
    /// `--hidden`.
    pub hidden: bool,
    /// `.ignore` and `.rgignore` are read.
    pub ignore_dot: bool,
    /// `.gitignore` and `.git/info/exclude` are read.
    pub ignore_vcs: bool,
    /// Ignore files above the searched directory are read.
    pub ignore_parents: bool,
    /// `.gitignore` applies only inside a git repository.
    pub require_git: bool,
    /// `--max-depth`.
    pub max_depth: Option<usize>,
    /// `-L`.
    pub follow: bool,
    /// `-g`/`--iglob`.
    pub overrides: Option<Rules>,
    /// `-t`/`-T`.
    pub types: TypeFilter,
    /// `--no-messages`.
    pub no_messages: bool,
}

impl Config {
    /// True when lines (not counts or names) are printed.
    pub fn printing_lines(&self) -> bool {
        !(self.quiet || self.count || self.count_matches || self.files_with_matches || self.files_without_match)
    }

    /// True when context lines are shown.
    pub fn uses_context(&self) -> bool {
        self.after > 0 || self.before > 0
    }

    /// True when some ignore file is read.
    pub fn ignores_any(&self) -> bool {
        self.ignore_dot || self.ignore_vcs
    }
}

/// What the run met.
#[derive(Default)]
struct Tally {
    matched: bool,
    errored: bool,
}

/// Runs `rg`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let setup = match options::configure(ctx).await {
            Ok(setup) => setup,
            Err(status) => return status,
        };
        let mut tally = Tally::default();
        let mut printer = Printer::default();
        let status = search_all(ctx, &setup.config, &setup.paths, setup.list_files, &mut printer, &mut tally).await;
        if let Err(status) = status {
            return status;
        }
        if setup.config.json && !setup.list_files {
            printer.out.extend_from_slice(json::summary(&printer).as_bytes());
        }
        if let Err(status) = flush(ctx, &mut printer).await {
            return status;
        }
        if tally.matched && setup.config.quiet {
            0
        } else if tally.errored {
            2
        } else if tally.matched {
            0
        } else {
            1
        }
    })
}

/// The input of one path operand.
enum Subject {
    Stdin,
    File(String),
    Directory(String, String),
}

async fn search_all(
    ctx: &Invocation<'_>,
    config: &Config,
    paths: &[String],
    list_files: bool,
    printer: &mut Printer,
    tally: &mut Tally,
) -> Result<(), i32> {
    let mut subjects = Vec::new();
    if paths.is_empty() {
        if !list_files && stdin_is_searchable(&ctx.stdin).await {
            subjects.push(Subject::Stdin);
        } else {
            subjects.push(Subject::Directory(".".to_string(), String::new()));
        }
    }
    for path in paths {
        if path == "-" {
            subjects.push(Subject::Stdin);
            continue;
        }
        match ctx.fs.metadata(&ctx.resolve(path)).await {
            Ok(meta) if meta.is_dir() => subjects.push(Subject::Directory(path.clone(), path.clone())),
            Ok(_) => subjects.push(Subject::File(path.clone())),
            Err(error) => {
                report(ctx, config, &format!("{path}: {error} (os error {})", error.errno())).await;
                tally.errored = true;
            }
        }
    }
    for subject in subjects {
        match subject {
            Subject::Stdin => {
                let data = ctx.stdin.read_to_end().await.unwrap_or_default();
                search_one(ctx, config, printer, tally, "<stdin>", &data, Origin::Explicit).await?;
            }
            Subject::File(path) => {
                if list_files {
                    list(config, printer, &path);
                    tally.matched = true;
                } else {
                    search_path(ctx, config, printer, tally, &path, &path, Origin::Explicit).await?;
                }
            }
            Subject::Directory(path, shown) => {
                let mut walk = walk::Walk::new(ctx, config, &path, &shown).await;
                let mut visited = 0usize;
                while let Some(found) = walk.next(ctx, config).await {
                    for message in walk.errors.drain(..) {
                        report(ctx, config, &message).await;
                        tally.errored = true;
                    }
                    if list_files {
                        list(config, printer, &found.shown);
                        tally.matched = true;
                    } else {
                        search_path(ctx, config, printer, tally, &found.path, &found.shown, Origin::Walked).await?;
                    }
                    visited += 1;
                    if visited % 256 == 0 {
                        flush(ctx, printer).await?;
                        if ctx.host.interrupted() {
                            return Err(130);
                        }
                        ctx.host.yield_now().await;
                    }
                    if tally.matched && config.quiet {
                        return Ok(());
                    }
                }
                for message in walk.errors.drain(..) {
                    report(ctx, config, &message).await;
                    tally.errored = true;
                }
            }
        }
        if tally.matched && config.quiet {
            return Ok(());
        }
    }
    Ok(())
}

fn list(config: &Config, printer: &mut Printer, shown: &str) {
    printer.out.extend_from_slice(shown.as_bytes());
    printer.out.push(if config.null { 0 } else { b'\n' });
}

/// ripgrep searches standard input when no path is given and it is a pipe
/// or a file; the sandbox's empty or absent input means "search `./`".
pub async fn stdin_is_searchable(stdin: &Fd) -> bool {
    match stdin.as_ref() {
        Stream::PipeReader(_) => true,
        Stream::File(file) => file.readable && file.handle.metadata().await.is_ok_and(|meta| meta.is_file()),
        Stream::Input(bytes, _) => !bytes.is_empty(),
        _ => false,
    }
}

async fn search_path(
    ctx: &Invocation<'_>,
    config: &Config,
    printer: &mut Printer,
    tally: &mut Tally,
    path: &str,
    shown: &str,
    origin: Origin,
) -> Result<(), i32> {
    let data = match ctx.fs.read_file(&ctx.resolve(path)).await {
        Ok(data) => data,
        Err(error) => {
            report(ctx, config, &format!("{shown}: {error} (os error {})", error.errno())).await;
            tally.errored = true;
            return Ok(());
        }
    };
    search_one(ctx, config, printer, tally, shown, &data, origin).await
}

async fn search_one(
    ctx: &Invocation<'_>,
    config: &Config,
    printer: &mut Printer,
    tally: &mut Tally,
    shown: &str,
    data: &[u8],
    origin: Origin,
) -> Result<(), i32> {
    match search_buffer(config, printer, shown, data, origin) {
        Ok(outcome) => tally.matched |= outcome.matched,
        Err(_) => {
            flush(ctx, printer).await?;
            report(ctx, config, &format!("{shown}: PCRE2: error matching: match limit exceeded")).await;
            tally.errored = true;
        }
    }
    if printer.out.len() >= 64 * 1024 {
        flush(ctx, printer).await?;
    }
    Ok(())
}

async fn flush(ctx: &Invocation<'_>, printer: &mut Printer) -> Result<(), i32> {
    if printer.out.is_empty() {
        return Ok(());
    }
    let data = std::mem::take(&mut printer.out);
    ctx.write_out(&data).await.map_err(|error| match write_failure_status(error) {
        1 => 2,
        other => other,
    })
}

/// Writes a message to standard error as ripgrep does: without a prefix.
async fn report(ctx: &Invocation<'_>, config: &Config, message: &str) {
    if !config.no_messages {
        let _ = ctx.stderr.write(format!("{message}\n").as_bytes()).await;
    }
}
