//! `bc` (GNU bc 1.07): reads its files, then standard input, and runs each
//! line (or function definition) as soon as it is complete. `-l` loads the
//! math library and sets `scale` to 20. Runaway loops stop at the run's bc
//! step budget with an error naming it.

mod code;
mod lex;
mod mathlib;
mod parse;
mod vm;

use crate::commands::common::{open_input, Input};
use crate::commands::options::{parse, Long, Spec};
use crate::commands::text::input::read_all;
use crate::host::LocalFuture;
use crate::utility::{Invocation, StepKind, StepLimitError};
use parse::{Item, Parser};
use vm::{Machine, Stop};

const SPEC: Spec = Spec::new("ilqsw", &[
    Long::flag("interactive", "i"),
    Long::flag("mathlib", "l"),
    Long::flag("quiet", "q"),
    Long::flag("standard", "s"),
    Long::flag("warn", "w"),
]);

/// GNU bc's usage text, printed after a bad option.
pub const USAGE: &str = "usage: bc [options] [file ...]\n  -h  --help         print this usage and exit\n  -i  --interactive  force interactive mode\n  -l  --mathlib      use the predefined math routines\n  -q  --quiet        don't print initial banner\n  -s  --standard     non-standard bc constructs are errors\n  -w  --warn         warn about non-standard bc constructs\n  -v  --version      print version information and exit\n";

async fn flush(ctx: &Invocation<'_>, machine: &mut Machine) -> Result<(), i32> {
    if !machine.err.is_empty() {
        let _ = ctx.stderr.write(&machine.err).await;
        machine.err.clear();
    }
    if !machine.out.is_empty() {
        let result = ctx.stdout.write(&machine.out).await;
        machine.out.clear();
        if let Err(error) = result {
            return Err(ctx.write_failed(error).await);
        }
    }
    Ok(())
}

async fn run_bc(ctx: &Invocation<'_>, files: &[String], mathlib: bool) -> i32 {
    // The inputs, read up to the first that cannot be opened.
    let mut src = Vec::new();
    let mut inputs: Vec<(usize, String)> = Vec::new();
    let mut missing = None;
    for name in files {
        let Ok(stream) = open_input(ctx, &Input::File(name.clone())).await else {
            missing = Some(name.clone());
            break;
        };
        let Ok(data) = read_all(&stream).await else {
            missing = Some(name.clone());
            break;
        };
        inputs.push((src.len(), name.clone()));
        src.extend_from_slice(&data);
    }
    if missing.is_none() {
        inputs.push((src.len(), "(standard_in)".to_string()));
        if let Ok(data) = read_all(&ctx.stdin).await {
            src.extend_from_slice(&data);
        }
    }
    let line_len = match ctx.env_var("BC_LINE_LENGTH") {
        Some(value) => {
            let n = atoi(value);
            if n < 3 && n != 0 {
                70
            } else {
                n.max(0) as usize
            }
        }
        None => 70,
    };
    let mut machine = Machine::new(line_len, mathlib);
    machine.max_digits = ctx.shell.size_limits().max_string_bytes;
    let mut parser = Parser::new(&src, &inputs);
    loop {
        let item = parser.next_item();
        for message in parser.messages.drain(..) {
            machine.err.extend_from_slice(message.as_bytes());
        }
        match item {
            Item::Code(code) => {
                let mut charge = |steps: u64| match ctx.shell.charge_steps(StepKind::Bc, steps) {
                    Ok(()) => Ok(()),
                    Err(StepLimitError::Limit(message)) => Err(Stop::Limit(message)),
                    Err(StepLimitError::Interrupted) => Err(Stop::Interrupted),
                };
                match machine.run(code, &mut charge) {
                    Ok(()) | Err(Stop::Error) => {}
                    Err(Stop::Halt) => {
                        return flush(ctx, &mut machine).await.err().unwrap_or(0);
                    }
                    Err(Stop::Limit(message)) => {
                        let _ = flush(ctx, &mut machine).await;
                        ctx.report(&message).await;
                        return 1;
                    }
                    Err(Stop::Interrupted) => {
                        let _ = flush(ctx, &mut machine).await;
                        return 130;
                    }
                }
            }
            Item::Function(function) => machine.define(function),
            Item::Discarded => {}
            Item::Quit | Item::Eof => break,
            Item::Fatal(message) => {
                machine.err.extend_from_slice(message.as_bytes());
                machine.err.push(b'\n');
                let _ = flush(ctx, &mut machine).await;
                return 0;
            }
        }
        if let Err(status) = flush(ctx, &mut machine).await {
            return status;
        }
    }
    if let Err(status) = flush(ctx, &mut machine).await {
        return status;
    }
    if let Some(name) = missing {
        let _ = ctx.stderr.write(format!("File {name} is unavailable.\n").as_bytes()).await;
        return 1;
    }
    0
}

/// C's `atoi`: leading blanks, a sign, digits; 0 when none.
fn atoi(text: &str) -> i64 {
    let text = text.trim_start();
    let (neg, rest) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let mut value: i64 = 0;
    for b in rest.bytes().take_while(u8::is_ascii_digit) {
        value = value.saturating_mul(10).saturating_add(i64::from(b - b'0'));
    }
    if neg {
        -value
    } else {
        value
    }
}

/// Runs `bc [-ilqsw] [FILE]...`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let args = ctx.args.get(1..).unwrap_or(&[]).to_vec();
        let parsed = match parse(&SPEC, &args) {
            Ok(parsed) => parsed,
            Err(error) => {
                ctx.report(&error.message()).await;
                let _ = ctx.stdout.write(USAGE.as_bytes()).await;
                return 1;
            }
        };
        run_bc(ctx, &parsed.operands, parsed.has("l")).await
    })
}
