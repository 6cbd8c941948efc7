//! The native `wabash` binary, for tests and benchmarks:
//!
//! ```text
//! wabash [--cwd DIR] [--env K=V]... [--mount HOSTDIR:SANDBOXDIR]...
//!        [-c SCRIPT [NAME [ARG...]] | FILE [ARG...]]
//! ```
//!
//! With neither `-c` nor `FILE` the script is read from standard input.
//! The script runs in a fresh sandbox; `--mount` copies a host directory into
//! it (the host directory is only read). The exit status is the script's.

#[path = "wabash/args.rs"]
mod args;
#[path = "wabash/host.rs"]
mod host;
#[path = "wabash/mount.rs"]
mod mount;

use std::io::{IsTerminal, Read, Write};
use std::rc::Rc;
use wabash::executor::block_on;
use wabash::io::OutputSink;
use wabash::{ExecOptions, Sandbox, SandboxOptions};

/// Writes the sandbox's output to one of the process's streams as it comes.
struct ProcessSink {
    stderr: bool,
}

impl OutputSink for ProcessSink {
    fn write(&self, data: &[u8]) {
        // A closed terminal or pipe is not the script's problem: drop the bytes.
        let _ = if self.stderr {
            std::io::stderr().write_all(data)
        } else {
            let mut stdout = std::io::stdout().lock();
            stdout.write_all(data).and_then(|_| stdout.flush())
        };
    }
}

fn main() {
    // The interpreter recurses (functions, substitutions); give it a large
    // stack so the engine's own depth limits fire first.
    let worker = std::thread::Builder::new().stack_size(256 << 20).spawn(|| match run() {
        Ok(code) => code,
        Err(message) => {
            eprintln!("wabash: {message}");
            2
        }
    });
    let code = worker.map(|handle| handle.join().unwrap_or(70)).unwrap_or(70);
    std::process::exit(code);
}

/// Parses the command line, builds the sandbox and runs the script.
fn run() -> Result<i32, String> {
    let invocation = args::parse(std::env::args().skip(1))?;
    if invocation.help {
        print!("{}", args::USAGE);
        return Ok(0);
    }
    let (script, stdin) = match &invocation.source {
        args::Source::Command(script) => (script.clone(), read_stdin_unless_terminal()?),
        args::Source::File(path) => match std::fs::read(path) {
            Ok(bytes) => (String::from_utf8_lossy(&bytes).into_owned(), read_stdin_unless_terminal()?),
            Err(error) => {
                // As bash reports a script it cannot open: status 127.
                eprintln!("wabash: {path}: {error}");
                return Ok(127);
            }
        },
        args::Source::Stdin => {
            let mut bytes = Vec::new();
            std::io::stdin().read_to_end(&mut bytes).map_err(|error| format!("stdin: {error}"))?;
            (String::from_utf8_lossy(&bytes).into_owned(), Vec::new())
        }
    };
    let mut mounts = Vec::new();
    for spec in &invocation.mounts {
        mounts.push(mount::load(spec)?);
    }
    let options = SandboxOptions { env: invocation.env.clone(), cwd: invocation.cwd.clone(), ..SandboxOptions::default() };
    let exit_code = block_on(async {
        let mut sandbox = Sandbox::new(options, Rc::new(host::SystemHost)).await;
        for loaded in &mounts {
            loaded.copy_into(sandbox.fs()).await?;
        }
        let options = ExecOptions {
            stdin,
            args: Some(invocation.args.clone()),
            on_stdout: Some(Rc::new(ProcessSink { stderr: false })),
            on_stderr: Some(Rc::new(ProcessSink { stderr: true })),
            ..ExecOptions::default()
        };
        Ok::<i32, String>(sandbox.exec(&script, options).await.exit_code)
    })?;
    Ok(exit_code)
}

/// The script's standard input: the process's, unless that is a terminal
/// (a `-c` script should not wait for typing it never asked for).
fn read_stdin_unless_terminal() -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    let stdin = std::io::stdin();
    if !stdin.is_terminal() {
        stdin.lock().read_to_end(&mut bytes).map_err(|error| format!("stdin: {error}"))?;
    }
    Ok(bytes)
}
