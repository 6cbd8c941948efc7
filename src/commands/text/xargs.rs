//! `xargs`: build command lines from the arguments read on standard input
//! (or `-a FILE`) and run them through the shell, one after the other
//! (`-P` is accepted; commands still run in turn). `-n`, `-L`, `-I`, `-0`,
//! `-d`, `-E`, `-r`, `-t`, `-x`, `-s`, and GNU's statuses: 123 when a
//! command failed, 124 when one exited 255, 125 when one was killed, 126
//! and 127 when it could not run.

use crate::commands::format::quote_locale;
use crate::commands::options::{parse, report_usage, Long, Parsed, Spec};
use crate::commands::text::xargs_input::{ItemReader, Splitting};
use crate::host::LocalFuture;
use crate::io::Stream;
use crate::utility::{Invocation, ProgramRequest, STATUS_SIGPIPE};
use std::rc::Rc;

const SPEC: Spec = Spec::new(
    "0a:d:E:e::I:i::L:l::n:oP:prs:tx",
    &[
        Long::required("arg-file", "a"),
        Long::required("delimiter", "d"),
        Long::optional("eof", "e"),
        Long::flag("exit", "x"),
        Long::flag("interactive", "p"),
        Long::required("max-args", "n"),
        Long::required("max-chars", "s"),
        Long::optional("max-lines", "l"),
        Long::required("max-procs", "P"),
        Long::flag("no-run-if-empty", "r"),
        Long::flag("null", "0"),
        Long::flag("open-tty", "o"),
        Long::required("process-slot-var", "process-slot-var"),
        Long::optional("replace", "i"),
        Long::flag("show-limits", "show-limits"),
        Long::flag("verbose", "t"),
    ],
)
.stopping();

/// The longest command line built by default, as GNU's usual limit.
const DEFAULT_MAX_CHARS: usize = 128 * 1024;

/// The command line's choices.
struct Settings {
    splitting: Splitting,
    max_args: Option<usize>,
    max_lines: Option<usize>,
    replace: Option<String>,
    eof: Option<String>,
    max_chars: usize,
    exit_on_size: bool,
    no_run_if_empty: bool,
    verbose: bool,
    arg_file: Option<String>,
}

/// Reads a `-d` delimiter: one byte, or an escape (`\n`, `\t`, `\0`,
/// `\x41`, `\101`).
fn delimiter(text: &str) -> Option<u8> {
    let bytes = text.as_bytes();
    match bytes {
        [single] => Some(*single),
        [b'\\', rest @ ..] => match rest {
            [b'a'] => Some(7),
            [b'b'] => Some(8),
            [b'f'] => Some(12),
            [b'n'] => Some(b'\n'),
            [b'r'] => Some(b'\r'),
            [b't'] => Some(b'\t'),
            [b'v'] => Some(11),
            [b'\\'] => Some(b'\\'),
            [b'x', hex @ ..] => u8::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok(),
            digits if !digits.is_empty() && digits.iter().all(|d| (b'0'..=b'7').contains(d)) => {
                u8::from_str_radix(std::str::from_utf8(digits).ok()?, 8).ok()
            }
            _ => None,
        },
        _ => None,
    }
}

/// Parses a positive count for `-n`, `-L`, `-s`, `-P`.
async fn count(ctx: &Invocation<'_>, option: &str, text: &str, minimum: usize) -> Result<usize, i32> {
    match text.parse::<i64>() {
        Ok(n) if n >= minimum as i64 => usize::try_from(n).map_err(|_| 1),
        Ok(_) => {
            report_usage(ctx, &format!("value {text} for -{option} option should be >= {minimum}")).await;
            Err(1)
        }
        Err(_) => {
            report_usage(ctx, &format!("invalid number \"{text}\" for -{option} option")).await;
            Err(1)
        }
    }
}

async fn settings(ctx: &Invocation<'_>) -> Result<(Settings, Vec<String>), i32> {
    let args = ctx.args.get(1..).unwrap_or(&[]).to_vec();
    let parsed = match parse(&SPEC, &args) {
        Ok(parsed) => parsed,
        Err(error) => {
            // GNU reads options in order: a bad count before the bad option
            // (`-n head -c 5`) is the error reported.
            if let Some(prefix) = (0..args.len()).rev().find_map(|k| parse(&SPEC, &args[..k]).ok()) {
                apply(ctx, &prefix).await?;
            }
            report_usage(ctx, &error.message()).await;
            return Err(1);
        }
    };
    let settings = apply(ctx, &parsed).await?;
    Ok((settings, parsed.operands))
}

/// The settings the parsed options give, or the status after reporting the
/// first bad value.
async fn apply(ctx: &Invocation<'_>, parsed: &Parsed) -> Result<Settings, i32> {
    let mut settings = Settings {
        splitting: Splitting::Words,
        max_args: None,
        max_lines: None,
        replace: None,
        eof: None,
        max_chars: DEFAULT_MAX_CHARS,
        exit_on_size: false,
        no_run_if_empty: false,
        verbose: false,
        arg_file: None,
    };
    for (key, value) in &parsed.options {
        let text = value.as_deref().unwrap_or("");
        match *key {
            "0" => settings.splitting = Splitting::Delimited(0),
            "d" => match delimiter(text) {
                Some(byte) => settings.splitting = Splitting::Delimited(byte),
                None => {
                    ctx.report(&format!("invalid input delimiter specification {text}: the delimiter must be either a single character or an escape sequence starting with \\.")).await;
                    return Err(1);
                }
            },
            "a" => settings.arg_file = Some(text.to_string()),
            "E" => settings.eof = Some(text.to_string()),
            "e" => settings.eof = value.clone().filter(|v| !v.is_empty()),
            "I" | "i" => {
                settings.replace = Some(if *key == "i" && value.is_none() { "{}".to_string() } else { text.to_string() });
                settings.max_lines = Some(1);
                settings.max_args = None;
            }
            "L" | "l" => {
                settings.max_lines = Some(if value.is_none() { 1 } else { count(ctx, "L", text, 1).await? });
                settings.max_args = None;
                settings.replace = None;
            }
            "n" => {
                settings.max_args = Some(count(ctx, "n", text, 1).await?);
                if settings.replace.is_none() {
                    settings.max_lines = None;
                }
            }
            "s" => settings.max_chars = count(ctx, "s", text, 1).await?,
            "P" => {
                count(ctx, "P", text, 0).await?;
            }
            "r" => settings.no_run_if_empty = true,
            "t" => settings.verbose = true,
            "x" => settings.exit_on_size = true,
            "p" => {
                ctx.report("interactive mode (-p) is not supported in the sandbox").await;
                return Err(1);
            }
            "show-limits" => {
                ctx.report("--show-limits is not supported in the sandbox").await;
                return Err(1);
            }
            _ => {}
        }
    }
    if settings.replace.is_some() && settings.splitting == Splitting::Words {
        settings.splitting = Splitting::Lines;
    }
    Ok(settings)
}

/// How running the commands went.
enum Stop {
    /// Keep going.
    Continue,
    /// Stop reading and exit with this status.
    Abort(i32),
}

/// Runs one command line; records a failure in `status`.
async fn execute(ctx: &mut Invocation<'_>, settings: &Settings, argv: Vec<String>, status: &mut i32) -> Stop {
    if settings.verbose {
        let words: Vec<String> = argv.iter().map(|word| shell_quote(word)).collect();
        let line = format!("{}\n", words.join(" "));
        let _ = ctx.stderr.write(line.as_bytes()).await;
    }
    let Some(program) = argv.first().cloned() else {
        return Stop::Continue;
    };
    // A program, never a shell function (`xargs f` fails as with GNU).
    if !crate::commands::common::program_exists(ctx, &program).await {
        ctx.report(&format!("{program}: No such file or directory")).await;
        return Stop::Abort(127);
    }
    let stdin = if settings.arg_file.is_some() { ctx.stdin.clone() } else { Rc::new(Stream::Null) };
    let (stdout, stderr) = (ctx.stdout.clone(), ctx.stderr.clone());
    let code = ctx.shell.run_program(ProgramRequest::new(argv, stdin, stdout, stderr)).await;
    match code {
        0 => Stop::Continue,
        255 => {
            ctx.report(&format!("{program}: exited with status 255; aborting")).await;
            Stop::Abort(124)
        }
        STATUS_SIGPIPE => {
            ctx.report(&format!("{program}: terminated by signal 13")).await;
            Stop::Abort(125)
        }
        126 | 127 => Stop::Abort(code),
        _ => {
            *status = 123;
            Stop::Continue
        }
    }
}

/// Quotes a word for `-t` output only when the shell would need it.
fn shell_quote(word: &str) -> String {
    let safe = |c: char| c.is_alphanumeric() || "%+,-./:=@_^".contains(c);
    if !word.is_empty() && word.chars().all(safe) {
        word.to_string()
    } else {
        crate::expand::quote_for_reuse(word)
    }
}

/// An argument as a command receives it: C strings end at a NUL byte.
fn argument(text: String) -> String {
    match text.find('\0') {
        Some(end) => text[..end].to_string(),
        None => text,
    }
}

/// The command for one batch of arguments.
fn command_line(settings: &Settings, initial: &[String], items: &[Vec<u8>]) -> Vec<String> {
    let texts = items.iter().map(|item| String::from_utf8_lossy(item).into_owned());
    let argv: Vec<String> = match &settings.replace {
        Some(pattern) => {
            let joined: Vec<String> = texts.collect();
            let value = joined.join(" ");
            initial.iter().map(|arg| if pattern.is_empty() { arg.clone() } else { arg.replace(pattern.as_str(), &value) }).collect()
        }
        None => initial.iter().cloned().chain(texts).collect(),
    };
    argv.into_iter().map(argument).collect()
}

/// Runs the command for `batch`; `Some(status)` when xargs must stop.
async fn run_batch(ctx: &mut Invocation<'_>, settings: &Settings, initial: &[String], batch: &[Vec<u8>], status: &mut i32) -> Option<i32> {
    let argv = command_line(settings, initial, batch);
    match execute(ctx, settings, argv, status).await {
        Stop::Abort(code) => Some(code),
        Stop::Continue => None,
    }
}

async fn xargs(ctx: &mut Invocation<'_>, settings: &Settings, operands: Vec<String>) -> i32 {
    let initial = if operands.is_empty() { vec!["echo".to_string()] } else { operands };
    let source = match &settings.arg_file {
        Some(name) => {
            let input =
                if name == "-" { crate::commands::common::Input::Stdin } else { crate::commands::common::Input::File(name.clone()) };
            match crate::commands::common::open_input(ctx, &input).await {
                Ok(stream) => stream,
                Err(error) => {
                    ctx.report(&format!("cannot open input file {}: {error}", quote_locale(ctx, name))).await;
                    return 1;
                }
            }
        }
        None => ctx.stdin.clone(),
    };
    let mut reader = ItemReader::new(source, settings.splitting);
    let base_size: usize = initial.iter().map(|a| a.len() + 1).sum();
    let mut status = 0;
    let mut batch: Vec<Vec<u8>> = Vec::new();
    let mut batch_size = base_size;
    let mut lines = 0;
    let mut ran_any = false;
    let mut warned_nul = false;
    loop {
        let item = match reader.next_item().await {
            Ok(item) => item,
            Err(error) => {
                if !batch.is_empty() {
                    if let Some(code) = run_batch(ctx, settings, &initial, &batch, &mut status).await {
                        return code;
                    }
                }
                ctx.report(error.message()).await;
                return 1;
            }
        };
        if reader.saw_nul && !warned_nul {
            warned_nul = true;
            ctx.report("WARNING: a NUL character occurred in the input.  It cannot be passed through in the argument list.  Did you mean to use the --null option?").await;
        }
        let Some(item) = item else { break };
        if settings.eof.as_deref().is_some_and(|eof| eof.as_bytes() == item.text.as_slice()) {
            break;
        }
        let item_size = item.text.len() + 1;
        if base_size + item_size > settings.max_chars {
            // What was gathered still runs before the refusal, unless `-x`.
            if !batch.is_empty() && !settings.exit_on_size {
                if let Some(code) = run_batch(ctx, settings, &initial, &batch, &mut status).await {
                    return code;
                }
            }
            ctx.report("argument line too long").await;
            return 1;
        }
        if !batch.is_empty() && batch_size + item_size > settings.max_chars && settings.replace.is_none() {
            if settings.exit_on_size && settings.max_args.is_some() {
                ctx.report("argument list too long").await;
                return 1;
            }
            ran_any = true;
            if let Some(code) = run_batch(ctx, settings, &initial, &std::mem::take(&mut batch), &mut status).await {
                return code;
            }
            batch_size = base_size;
            lines = 0;
        }
        batch_size += item_size;
        batch.push(item.text);
        if item.ends_line {
            lines += 1;
        }
        let full = settings.max_args.is_some_and(|n| batch.len() >= n) || settings.max_lines.is_some_and(|n| lines >= n);
        if full {
            ran_any = true;
            if let Some(code) = run_batch(ctx, settings, &initial, &std::mem::take(&mut batch), &mut status).await {
                return code;
            }
            batch_size = base_size;
            lines = 0;
        }
    }
    let run_empty = !ran_any && !settings.no_run_if_empty && settings.replace.is_none();
    if !batch.is_empty() || run_empty {
        if let Some(code) = run_batch(ctx, settings, &initial, &batch, &mut status).await {
            return code;
        }
    }
    status
}

/// Runs `xargs [OPTION]... [COMMAND [INITIAL-ARGS]...]`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let (settings, operands) = match settings(ctx).await {
            Ok(found) => found,
            Err(status) => return status,
        };
        xargs(ctx, &settings, operands).await
    })
}

#[cfg(test)]
mod tests {
    use crate::commands::test_support::{new_fs, run_utility};

    use crate::fs::Fs;

    #[test]
    fn builds_commands() {
        let fs = new_fs();
        crate::executor::block_on(fs.write_file("/home/user/a", b"A\n")).unwrap();
        crate::executor::block_on(fs.write_file("/home/user/b", b"B\n")).unwrap();
        let xargs = |args: &[&str], input: &str| run_utility(&fs, &[&["xargs"], args].concat(), input.as_bytes());
        assert_eq!(xargs(&["cat"], "a b\n").stdout, "A\nB\n");
        let out = xargs(&["-n", "1", "cat"], "a nofile b\n");
        assert_eq!((out.stdout.as_str(), out.status), ("A\nB\n", 123));
        assert_eq!(xargs(&["nonexistent"], "a\n").status, 127);
        assert_eq!(xargs(&["-n", "0"], "").status, 1);
    }
}
