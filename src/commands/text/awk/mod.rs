//! `awk`/`gawk`: the awk language as gawk 5 runs it. The program is
//! lexed and parsed once into an AST ([`parser`]), statements without I/O
//! are marked for a synchronous fast path ([`analysis`]), then the
//! interpreter ([`interp`], [`exec`], [`eval`]) runs it over the input
//! records, counting steps against the `maxAwkIterations` budget.

mod analysis;
mod ast;
mod builtins;
mod eval;
mod exec;
mod fields;
mod format;
mod indirect;
mod interp;
mod io;
mod io_eval;
mod lexer;
mod order;
mod parser;
mod random;
mod regex;
mod run;
mod sort;
mod source;
mod text;
mod value;
mod vars;

#[cfg(test)]
mod tests;

use crate::host::LocalFuture;
use crate::utility::Invocation;
use interp::{Interp, Stop};
use source::Sources;
use value::Value;
use vars::{Cell, ARGC, ARGV, ENVIRON, FILENAME, FNR, PROCINFO};

/// The parsed command line.
struct Options {
    sources: Sources,
    assignments: Vec<Vec<u8>>,
    field_separator: Option<Vec<u8>>,
    operands: Vec<String>,
}

/// Runs `awk [OPTION]... 'program' [FILE]...`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let name = ctx.name().rsplit('/').next().unwrap_or("awk").to_string();
        let options = match parse_options(ctx, &name).await {
            Ok(options) => options,
            Err(status) => return status,
        };
        let (mut program, regexes, warnings) = match parser::parse_program(&options.sources.text) {
            Ok(parsed) => parsed,
            Err(error) => {
                let (piece, line, text, column) = options.sources.locate(error.at);
                let line = if error.newline { line + 1 } else { line };
                let message = match error.style {
                    parser::Style::Fatal => format!("{name}: {piece}:{line}: fatal: {}\n", error.message),
                    parser::Style::Error => format!("{name}: {piece}:{line}: error: {}\n", error.message),
                    parser::Style::ErrorTwice => {
                        format!("{name}: {piece}:{line}: error: {0}\n{name}: {piece}:{line}: error: {0}\n", error.message)
                    }
                    parser::Style::Caret => {
                        let caret: String = text.iter().take(column).map(|&c| if c == b'\t' { '\t' } else { ' ' }).collect();
                        format!(
                            "{name}: {piece}:{line}: {}\n{name}: {piece}:{line}: {caret}^ {}\n",
                            String::from_utf8_lossy(&text),
                            error.message
                        )
                    }
                };
                let _ = ctx.stderr.write(message.as_bytes()).await;
                return if error.style == parser::Style::Fatal { 2 } else { 1 };
            }
        };
        for (index, text) in regexes.iter().enumerate() {
            if let Err(error) = regex::Cache::default().get(text, false) {
                let location = options.sources.location(program.regex_offsets.get(index).copied().unwrap_or(0));
                let mut message = format!("{name}: {location}: error: {error}: /{}/\n", String::from_utf8_lossy(text));
                let typed = program.typed_regexes.contains(&index);
                if typed {
                    message.push_str(&format!("{name}: {location}: fatal: could not make typed regex\n"));
                }
                let _ = ctx.stderr.write(message.as_bytes()).await;
                return if typed { 2 } else { 1 };
            }
        }
        for (offset, warning) in warnings {
            let text = format!("{name}: {}: warning: {warning}\n", options.sources.location(offset));
            let _ = ctx.stderr.write(text.as_bytes()).await;
        }
        analysis::mark_sync(&mut program);
        let mut interp = Interp::new(&program, regexes, io::Io::new());
        if let Err(message) = setup(&mut interp, ctx, &options, &name) {
            let _ = ctx.stderr.write(format!("{name}: fatal: {message}\n").as_bytes()).await;
            return 2;
        }
        let result = interp.run_program(ctx).await;
        let finished = interp.finish(ctx).await;
        report_warnings(&mut interp, ctx, &options.sources, &name).await;
        let status = match result {
            Ok(()) | Err(Stop::Exit) | Err(Stop::Next) | Err(Stop::NextFile) => interp.exit_status & 0xff,
            Err(Stop::Status(status)) => return status,
            Err(Stop::Fatal(message)) => {
                let text = match message.strip_prefix('\u{0}') {
                    Some(plain) if interp.located => format!("{name}: {}: fatal: {plain}\n", options.sources.location(interp.offset)),
                    Some(plain) => format!("{name}: fatal: {plain}\n"),
                    None => {
                        let location = options.sources.location(interp.offset);
                        let position = record_position(&interp);
                        format!("{name}: {location}: {position}fatal: {message}\n")
                    }
                };
                let _ = ctx.stderr.write(text.as_bytes()).await;
                2
            }
        };
        match finished {
            Err(failure) if status == 0 => failure,
            _ => status,
        }
    })
}

fn record_position(interp: &Interp<'_>) -> String {
    if interp.special(vars::NR).num() <= 0.0 {
        return String::new();
    }
    let filename = interp.to_str(&interp.special(FILENAME));
    let fnr = interp.to_str(&interp.special(FNR));
    format!("(FILENAME={} FNR={}) ", String::from_utf8_lossy(&filename), String::from_utf8_lossy(&fnr))
}

async fn report_warnings(interp: &mut Interp<'_>, ctx: &Invocation<'_>, sources: &Sources, name: &str) {
    for (offset, message) in std::mem::take(&mut interp.warnings) {
        let text = if offset == usize::MAX {
            format!("{name}: warning: {message}\n")
        } else {
            format!("{name}: {}: warning: {message}\n", sources.location(offset))
        };
        let _ = ctx.stderr.write(text.as_bytes()).await;
    }
}

fn setup(interp: &mut Interp<'_>, ctx: &Invocation<'_>, options: &Options, name: &str) -> Result<(), String> {
    if let Some(Cell::Arr(environ)) = interp.globals.get(ENVIRON) {
        let mut environ = environ.borrow_mut();
        for (key, value) in &ctx.env {
            environ.set(key.as_bytes(), Value::strnum(value.as_bytes()));
        }
    }
    if let Some(Cell::Arr(argv)) = interp.globals.get(ARGV) {
        let mut argv = argv.borrow_mut();
        argv.set(b"0", Value::str(name.as_bytes()));
        for (i, operand) in options.operands.iter().enumerate() {
            argv.set((i + 1).to_string().as_bytes(), Value::strnum(operand.as_bytes()));
        }
    }
    interp.set_plain(ARGC, Value::Num((options.operands.len() + 1) as f64));
    interp.max_string = ctx.shell.size_limits().max_string_bytes;
    if let Some(Cell::Arr(procinfo)) = interp.globals.get(PROCINFO) {
        let mut procinfo = procinfo.borrow_mut();
        procinfo.set(b"version", Value::str(b"5.2.1"));
        procinfo.set(b"platform", Value::str(b"posix"));
        procinfo.set(b"FS", Value::str(b"FS"));
        procinfo.set(b"strftime", Value::str(b"%a %b %e %H:%M:%S %Z %Y"));
    }
    if let Some(fs) = &options.field_separator {
        let fs = run::unescape(fs);
        interp.set_var(ast::Var::Global(vars::FS), Value::str(&fs)).map_err(stop_text)?;
    }
    for assignment in &options.assignments {
        let Some((var, value)) = run::assignment(assignment) else {
            let name = assignment.split(|&c| c == b'=').next().unwrap_or(assignment);
            return Err(format!("`{}' is not a legal variable name", String::from_utf8_lossy(name)));
        };
        interp.assign_operand(var, value).map_err(stop_text)?;
    }
    Ok(())
}

fn stop_text(stop: Stop) -> String {
    match stop {
        Stop::Fatal(message) => message,
        _ => "error".into(),
    }
}

async fn parse_options(ctx: &mut Invocation<'_>, name: &str) -> Result<Options, i32> {
    let args: Vec<String> = ctx.args.get(1..).unwrap_or(&[]).to_vec();
    let mut options = Options { sources: Sources::default(), assignments: Vec::new(), field_separator: None, operands: Vec::new() };
    let mut have_program = false;
    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        if arg == "--" {
            break;
        }
        if !arg.starts_with('-') || arg == "-" {
            i -= 1;
            break;
        }
        if let Some(long) = arg.strip_prefix("--") {
            let (key, inline) = match long.split_once('=') {
                Some((k, v)) => (k, Some(v.to_string())),
                None => (long, None),
            };
            let takes = ["field-separator", "assign", "file", "source", "include", "load", "exec"];
            let matches: Vec<&str> = LONGS.iter().copied().filter(|l| l.starts_with(key)).collect();
            let key = match matches.iter().find(|l| **l == key) {
                Some(exact) => *exact,
                None if matches.len() == 1 => matches[0],
                _ => {
                    let _ = ctx.stderr.write(usage_text(name).as_bytes()).await;
                    return Err(1);
                }
            };
            let value = if takes.contains(&key) {
                match inline {
                    Some(v) => Some(v),
                    None if i < args.len() => {
                        i += 1;
                        Some(args[i - 1].clone())
                    }
                    None => {
                        let text = format!("{name}: option '--{key}' requires an argument\n");
                        let _ = ctx.stderr.write(text.as_bytes()).await;
                        let _ = ctx.stderr.write(usage_text(name).as_bytes()).await;
                        return Err(1);
                    }
                }
            } else {
                None
            };
            let short = match key {
                "field-separator" => 'F',
                "assign" => 'v',
                "file" => 'f',
                "source" => 'e',
                "include" | "load" => 'l',
                "exec" => 'E',
                "version" => 'V',
                "help" | "usage" => 'h',
                _ => '-',
            };
            if short != '-' {
                if let Some(status) = apply(ctx, &mut options, &mut have_program, name, short, value.unwrap_or_default()).await {
                    return Err(status);
                }
            }
            continue;
        }
        let flags: Vec<char> = arg.chars().skip(1).collect();
        let mut j = 0;
        while j < flags.len() {
            let flag = flags[j];
            j += 1;
            if "Fvfel".contains(flag) || flag == 'E' || flag == 'i' {
                let rest: String = flags[j..].iter().collect();
                let value = if !rest.is_empty() {
                    rest
                } else if i < args.len() {
                    i += 1;
                    args[i - 1].clone()
                } else {
                    let text = format!("{name}: option requires an argument -- {flag}\n");
                    let _ = ctx.stderr.write(text.as_bytes()).await;
                    let _ = ctx.stderr.write(usage_text(name).as_bytes()).await;
                    return Err(1);
                };
                if let Some(status) = apply(ctx, &mut options, &mut have_program, name, flag, value).await {
                    return Err(status);
                }
                break;
            }
            match flag {
                'V' | 'h' => {
                    if let Some(status) = apply(ctx, &mut options, &mut have_program, name, flag, String::new()).await {
                        return Err(status);
                    }
                }
                'b' | 'c' | 'C' | 'g' | 'I' | 'M' | 'N' | 'n' | 'O' | 'P' | 'r' | 's' | 'S' | 't' | 'd' | 'D' | 'o' | 'p' | 'L' => {
                    if matches!(flag, 'd' | 'D' | 'o' | 'p' | 'L') {
                        break;
                    }
                }
                _ => {
                    let _ = ctx.stderr.write(usage_text(name).as_bytes()).await;
                    return Err(1);
                }
            }
        }
    }
    let mut rest: Vec<String> = args.get(i..).unwrap_or(&[]).to_vec();
    if !have_program {
        if rest.is_empty() {
            let _ = ctx.stderr.write(usage_text(name).as_bytes()).await;
            return Err(1);
        }
        let program = rest.remove(0);
        if let Err(status) = add_program(ctx, &mut options, name, "cmd. line", program.as_bytes()).await {
            return Err(status);
        }
    }
    options.operands = rest;
    Ok(options)
}

/// The usage text (the sandbox's shared one for `awk`/`gawk`).
fn usage_text(name: &str) -> String {
    let key = if name == "gawk" { "gawk" } else { "awk" };
    crate::commands::usage::find(key).map(|usage| crate::commands::usage::help_text(usage, name)).unwrap_or_default()
}

/// The `--version` text.
fn version_text(name: &str) -> String {
    let key = if name == "gawk" { "gawk" } else { "awk" };
    crate::commands::usage::find(key).map(crate::commands::usage::version_text).unwrap_or_default()
}

const LONGS: &[&str] = &[
    "field-separator",
    "assign",
    "file",
    "source",
    "include",
    "load",
    "exec",
    "version",
    "help",
    "usage",
    "posix",
    "traditional",
    "re-interval",
    "characters-as-bytes",
    "sandbox",
    "lint",
    "lint-old",
    "optimize",
    "no-optimize",
    "bignum",
    "use-lc-numeric",
    "non-decimal-data",
    "copyright",
    "gen-pot",
    "trace",
    "dump-variables",
    "debug",
    "pretty-print",
    "profile",
];

async fn add_program(ctx: &Invocation<'_>, options: &mut Options, name: &str, piece: &str, text: &[u8]) -> Result<(), i32> {
    let trimmed = text.iter().position(|c| !c.is_ascii_whitespace()).map_or(&text[..0], |at| &text[at..]);
    for directive in ["@include", "@load", "@namespace"] {
        if trimmed.starts_with(directive.as_bytes())
            || text.windows(directive.len() + 1).any(|w| w[0] == b'\n' && &w[1..] == directive.as_bytes())
        {
            let message = format!("{name}: {piece}:1: error: {directive} is not supported in the sandbox\n");
            let _ = ctx.stderr.write(message.as_bytes()).await;
            return Err(1);
        }
    }
    options.sources.add(piece, text);
    Ok(())
}

async fn apply(
    ctx: &mut Invocation<'_>,
    options: &mut Options,
    have_program: &mut bool,
    name: &str,
    flag: char,
    value: String,
) -> Option<i32> {
    match flag {
        'F' => options.field_separator = Some(value.into_bytes()),
        'v' => options.assignments.push(value.into_bytes()),
        'e' => {
            *have_program = true;
            if let Err(status) = add_program(ctx, options, name, "cmd. line", value.as_bytes()).await {
                return Some(status);
            }
        }
        'f' | 'E' => {
            *have_program = true;
            let data = if value == "-" || value == "/dev/stdin" {
                ctx.stdin.read_to_end().await.unwrap_or_default()
            } else {
                match ctx.fs.read_file(&ctx.resolve(&value)).await {
                    Ok(data) => data,
                    Err(error) => {
                        let text = format!("{name}: fatal: cannot open source file `{value}' for reading: {error}\n");
                        let _ = ctx.stderr.write(text.as_bytes()).await;
                        return Some(2);
                    }
                }
            };
            if let Err(status) = add_program(ctx, options, name, &value, &data).await {
                return Some(status);
            }
        }
        'l' | 'i' => {
            let text = format!("{name}: fatal: extensions and include files are not supported in the sandbox: `{value}'\n");
            let _ = ctx.stderr.write(text.as_bytes()).await;
            return Some(2);
        }
        'V' => {
            let _ = ctx.write_out(version_text(name).as_bytes()).await;
            return Some(0);
        }
        'h' => {
            let _ = ctx.write_out(usage_text(name).as_bytes()).await;
            return Some(0);
        }
        _ => {}
    }
    None
}
