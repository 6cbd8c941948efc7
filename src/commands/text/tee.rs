//! `tee`: copy standard input to standard output and to files (`-a`
//! appends), chunk by chunk as it arrives. `-i` is accepted (no signals
//! reach the sandbox); `-p`/`--output-error` keep writing to the files when
//! standard output is a closed pipe.

use crate::commands::options::{parse_or_report, report_invalid_argument, Long, Spec};
use crate::commands::text::input::open_output;
use crate::host::LocalFuture;
use crate::io::{Fd, IoError, READ_CHUNK};
use crate::utility::Invocation;

const SPEC: Spec =
    Spec::new("aip", &[Long::flag("append", "a"), Long::flag("ignore-interrupts", "i"), Long::optional("output-error", "output-error")]);

/// One destination and whether it still takes writes.
struct Destination {
    name: String,
    stream: Fd,
    open: bool,
}

/// Runs `tee [OPTION]... [FILE]...`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let parsed = match parse_or_report(ctx, &SPEC, 1).await {
            Ok(parsed) => parsed,
            Err(status) => return status,
        };
        let mut keep_going_on_pipe = parsed.has("p");
        if let Some(mode) = parsed.value("output-error") {
            match mode {
                "warn" | "warn-nopipe" | "exit" | "exit-nopipe" => keep_going_on_pipe = mode.ends_with("nopipe"),
                _ => {
                    let groups: &[&[&str]] = &[&["warn"], &["warn-nopipe"], &["exit"], &["exit-nopipe"]];
                    report_invalid_argument(ctx, mode, "--output-error", groups).await;
                    return 1;
                }
            }
        } else if parsed.has("output-error") {
            keep_going_on_pipe = true;
        }
        let append = parsed.has("a");
        let mut status = 0;
        let mut destinations = vec![Destination { name: String::new(), stream: ctx.stdout.clone(), open: true }];
        for name in &parsed.operands {
            match open_output(ctx, name, append).await {
                Ok(stream) => destinations.push(Destination { name: name.clone(), stream, open: true }),
                Err(error) => {
                    ctx.report(&format!("{name}: {error}")).await;
                    status = 1;
                }
            }
        }
        loop {
            let chunk = match ctx.stdin.read(READ_CHUNK).await {
                Ok(chunk) => chunk,
                Err(error) => {
                    ctx.report(&format!("read error: {error}")).await;
                    return 1;
                }
            };
            if chunk.is_empty() {
                return status;
            }
            for (index, destination) in destinations.iter_mut().enumerate() {
                if !destination.open {
                    continue;
                }
                match destination.stream.write(&chunk).await {
                    Ok(()) => {}
                    Err(IoError::BrokenPipe) if index == 0 && !keep_going_on_pipe => return crate::utility::STATUS_SIGPIPE,
                    Err(IoError::BrokenPipe) if index == 0 => destination.open = false,
                    Err(error) => {
                        let name = if index == 0 { "'standard output'" } else { destination.name.as_str() };
                        ctx.report(&format!("{name}: {error}")).await;
                        destination.open = false;
                        status = 1;
                    }
                }
            }
            if destinations.iter().all(|d| !d.open) {
                return status;
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use crate::commands::test_support::{new_fs, run_utility};

    #[test]
    fn copies_to_files() {
        let fs = new_fs();
        let out = run_utility(&fs, &["tee", "f"], b"hi\n");
        assert_eq!(out.stdout, "hi\n");
        run_utility(&fs, &["tee", "-a", "f"], b"more\n");
        assert_eq!(run_utility(&fs, &["cat", "f"], b"").stdout, "hi\nmore\n");
    }
}
