//! `sed`: the GNU stream editor. The script is parsed once into a program
//! ([`script`]), then run line by line over the inputs ([`exec`]), in place
//! with `-i` on the sandbox filesystem.

mod exec;
mod parse;
mod replace;
mod script;
mod source;

use crate::commands::options::{parse as parse_options, Long, Spec};
use crate::commands::text::input::read_all;
use crate::host::LocalFuture;
use crate::utility::Invocation;
use exec::{Machine, Settings, Stop};
use parse::{parse_script, Chunk, Origin};
use source::Source;

const LONGS: &[Long] = &[
    Long::flag("quiet", "n"),
    Long::flag("silent", "n"),
    Long::required("expression", "e"),
    Long::required("file", "f"),
    Long::optional("in-place", "i"),
    Long::required("line-length", "l"),
    Long::flag("null-data", "z"),
    Long::flag("zero-terminated", "z"),
    Long::flag("regexp-extended", "E"),
    Long::flag("separate", "s"),
    Long::flag("unbuffered", "u"),
    Long::flag("posix", "posix"),
    Long::flag("debug", "debug"),
    Long::flag("sandbox", "sandbox"),
    Long::flag("follow-symlinks", "follow-symlinks"),
    Long::flag("help", "help"),
    Long::flag("version", "version"),
];

const SPEC: Spec = Spec::new("nrEe:f:i::l:szu", LONGS);

const USAGE: &str = "Usage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...\n";

/// The options of one run.
struct Run {
    chunks: Vec<Chunk>,
    extended: bool,
    sandbox: bool,
    quiet: bool,
    separate: bool,
    in_place: Option<String>,
    delimiter: u8,
    line_wrap: usize,
    operands: Vec<String>,
}

/// Runs `sed [OPTION]... SCRIPT [FILE]...`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let run = match configure(ctx).await {
            Ok(run) => run,
            Err(status) => return status,
        };
        let program = match parse_script(&run.chunks, run.extended, run.sandbox) {
            Ok(program) => program,
            Err(error) => {
                ctx.report(&error.0).await;
                return error.1;
            }
        };
        let settings = Settings {
            quiet: run.quiet || program.quiet,
            delimiter: run.delimiter,
            line_wrap: run.line_wrap,
            collect: run.in_place.is_some(),
        };
        if run.in_place.is_some() && run.operands.is_empty() {
            ctx.report("no input files").await;
            return 4;
        }
        let mut machine = Machine::new(&program, settings);
        let names = if run.operands.is_empty() { vec!["-".to_string()] } else { run.operands.clone() };
        let mut failed = false;
        let mut outcome: Result<(), Stop> = Ok(());
        if run.separate || run.in_place.is_some() {
            for name in names {
                if let Some(suffix) = &run.in_place {
                    match ctx.fs.metadata(&ctx.resolve(&name)).await {
                        Ok(meta) if meta.is_file() => {}
                        Ok(_) => {
                            ctx.report(&format!("couldn't edit {name}: not a regular file")).await;
                            outcome = Err(Stop::Failed(4));
                            break;
                        }
                        Err(error) => {
                            ctx.report(&format!("can't read {name}: {error}")).await;
                            failed = true;
                            continue;
                        }
                    }
                    machine.reset_lines(true);
                    let mut source = Source::new(vec![name.clone()], run.delimiter);
                    outcome = machine.run(ctx, &mut source).await;
                    let edited = std::mem::take(&mut machine.out);
                    if let Err(status) = write_in_place(ctx, &name, suffix, &edited).await {
                        outcome = Err(Stop::Failed(status));
                    }
                } else {
                    machine.reset_lines(false);
                    let mut source = Source::new(vec![name], run.delimiter);
                    outcome = machine.run(ctx, &mut source).await;
                    failed |= source.failed;
                }
                if outcome.is_err() {
                    break;
                }
            }
        } else {
            let mut source = Source::new(names, run.delimiter);
            outcome = machine.run(ctx, &mut source).await;
            failed |= source.failed;
        }
        let pending = std::mem::take(&mut machine.out);
        let mut status = match outcome {
            Ok(()) => i32::from(failed) * 2,
            Err(Stop::Quit(code)) => code,
            Err(Stop::Failed(code)) => code,
            Err(Stop::Error(message, code)) => {
                let _ = ctx.write_out(&pending).await;
                ctx.report(&message).await;
                return code;
            }
        };
        if run.in_place.is_none() {
            if let Err(error) = ctx.write_out(&pending).await {
                status = crate::utility::write_failure_status(error);
            }
        }
        for (name, data) in &machine.written {
            if name != "/dev/stdout" && name != "/dev/stderr" {
                if let Err(error) = ctx.fs.write_file(&ctx.resolve(name), data).await {
                    ctx.report(&format!("couldn't open file {name}: {error}")).await;
                    status = 4;
                }
            }
        }
        status
    })
}

/// Replaces `name` with its edited text, keeping a backup when `suffix`
/// is not empty (a `*` in it stands for the file's base name).
async fn write_in_place(ctx: &Invocation<'_>, name: &str, suffix: &str, edited: &[u8]) -> Result<(), i32> {
    let path = ctx.resolve(name);
    if !suffix.is_empty() {
        let backup = if suffix.contains('*') {
            let (directory, base) = match name.rfind('/') {
                Some(index) => (name.get(..=index).unwrap_or(""), name.get(index + 1..).unwrap_or(name)),
                None => ("", name),
            };
            let replaced = suffix.replace('*', base);
            if replaced.contains('/') {
                replaced
            } else {
                format!("{directory}{replaced}")
            }
        } else {
            format!("{name}{suffix}")
        };
        let original = ctx.fs.read_file(&path).await.unwrap_or_default();
        if let Err(error) = ctx.fs.write_file(&ctx.resolve(&backup), &original).await {
            ctx.report(&format!("cannot rename {name}: {error}")).await;
            return Err(4);
        }
    }
    if let Err(error) = ctx.fs.write_file(&path, edited).await {
        ctx.report(&format!("couldn't open temporary file {name}: {error}")).await;
        return Err(4);
    }
    Ok(())
}

async fn configure(ctx: &Invocation<'_>) -> Result<Run, i32> {
    let parsed = match parse_options(&SPEC, ctx.args.get(1..).unwrap_or(&[])) {
        Ok(parsed) => parsed,
        Err(error) => {
            let text = format!("sed: {}\n{USAGE}", error.message());
            let _ = ctx.stderr.write(text.as_bytes()).await;
            return Err(1);
        }
    };
    let mut run = Run {
        chunks: Vec::new(),
        extended: false,
        sandbox: false,
        quiet: false,
        separate: false,
        in_place: None,
        delimiter: b'\n',
        line_wrap: 70,
        operands: parsed.operands,
    };
    let mut expressions = 0;
    for (key, value) in &parsed.options {
        let text = value.as_deref().unwrap_or("");
        match *key {
            "n" => run.quiet = true,
            "r" | "E" => run.extended = true,
            "e" => {
                expressions += 1;
                run.chunks.push(Chunk { text: text.as_bytes().to_vec(), origin: Origin::Expression(expressions) });
            }
            "f" => {
                let data = if text == "-" {
                    read_all(&ctx.stdin).await.unwrap_or_default()
                } else {
                    match ctx.fs.read_file(&ctx.resolve(text)).await {
                        Ok(data) => data,
                        Err(error) => {
                            ctx.report(&format!("couldn't open file {text}: {error}")).await;
                            return Err(4);
                        }
                    }
                };
                let data = data.strip_suffix(b"\n").map(<[u8]>::to_vec).unwrap_or(data);
                run.chunks.push(Chunk { text: data, origin: Origin::File(text.to_string()) });
            }
            "i" => {
                run.in_place = Some(text.to_string());
                run.separate = true;
            }
            "l" => match text.parse::<usize>() {
                Ok(width) => run.line_wrap = width,
                Err(_) => {
                    ctx.report(&format!("invalid line length: {text}")).await;
                    return Err(1);
                }
            },
            "s" => run.separate = true,
            "sandbox" => run.sandbox = true,
            "z" => run.delimiter = 0,
            "help" => {
                let _ = ctx.write_out(USAGE.as_bytes()).await;
                return Err(0);
            }
            "version" => {
                let _ = ctx.write_out(b"sed (GNU sed) 4.9\n").await;
                return Err(0);
            }
            _ => {}
        }
    }
    if run.chunks.is_empty() {
        if run.operands.is_empty() {
            let _ = ctx.stderr.write(USAGE.as_bytes()).await;
            return Err(1);
        }
        let script = run.operands.remove(0);
        run.chunks.push(Chunk { text: script.into_bytes(), origin: Origin::Expression(1) });
    }
    Ok(run)
}

#[cfg(test)]
mod tests {
    use crate::commands::test_support::{new_fs, run_utility};

    #[test]
    fn endless_loops_hit_the_step_limit() {
        let out = run_utility(&new_fs(), &["sed", ":a;ba"], b"x\n");
        assert_eq!(out.status, 4);
        assert_eq!(out.stderr, "sed: sed iteration limit (1000000) exceeded\n");
    }

    #[test]
    fn list_form_wraps_and_escapes() {
        assert_eq!(super::exec::list_form(b"ab\tc\\\x01", 70), b"ab\\tc\\\\\\001$\n".to_vec());
        assert_eq!(super::exec::list_form(b"abcdef", 4), b"abc\\\ndef$\n".to_vec());
    }

    #[test]
    fn backtracking_budget_is_an_error_not_a_hang() {
        let hay = format!("{}\n", "a".repeat(3000));
        let out = run_utility(&new_fs(), &["sed", "-n", "/\\(a*\\)*b\\1/p"], hay.as_bytes());
        assert!(out.status == 0 || out.status == 4, "{out:?}");
    }
}
