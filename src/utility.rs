//! The contract between the shell and the utilities it runs (`ls`, `cat`,
//! `grep`...): what a utility receives when invoked, and how it reaches back
//! into the shell to run other commands (`find -exec`, `xargs`, `env`).
//!
//! This module sits below both the interpreter and the `commands` layer:
//! utilities import it and never the interpreter, and the shell gets their
//! table injected at construction, so it never names them.

use crate::fs::{Fs, FsError};
use crate::host::{Host, LocalFuture};
use crate::io::{Fd, IoError};
use std::rc::Rc;

/// The signature of a utility: runs with its invocation, returns the exit status.
pub type UtilityFn = for<'a> fn(&'a mut Invocation<'_>) -> LocalFuture<'a, i32>;

/// A named utility, as listed in the registry table.
#[derive(Clone, Copy)]
pub struct Utility {
    /// The command name (`ls`).
    pub name: &'static str,
    /// The implementation.
    pub run: UtilityFn,
}

/// What a utility may ask of the shell that runs it.
pub trait ShellServices {
    /// Runs `argv` as a command (function, builtin or utility) with the given
    /// standard streams and returns its status (`find -exec`, `xargs`, `env`).
    fn run_command<'a>(&'a mut self, argv: Vec<String>, stdin: Fd, stdout: Fd, stderr: Fd) -> LocalFuture<'a, i32>;

    /// The shell's file-creation mask (`umask`).
    fn umask(&self) -> u32;

    /// True when `name` would run as a command (`which`, `command -v`).
    fn command_exists(&self, name: &str) -> bool;

    /// The stream open on shell fd `fd`, for `/dev/fd/N` and `/dev/stdin`
    /// (process substitution hands commands such paths).
    fn open_fd(&self, fd: usize) -> Option<Fd>;

    /// Runs `request.argv` as a separate program (`env`, `timeout`, `find
    /// -execdir`): in a child of the shell with the request's environment,
    /// working directory and host; shell functions are not programs.
    fn run_program<'a>(&'a mut self, request: ProgramRequest) -> LocalFuture<'a, i32>;

    /// The sandbox's processes, for `ps`: the shell, then its running jobs.
    fn processes(&self) -> Vec<Process>;

    /// Counts `steps` units of a language interpreter's work (awk, jq, sed
    /// branch loops) against the run's budget for `kind`, and checks the
    /// run's time limit and the host's interrupt now and then. An error is
    /// the message naming the limit that stopped it (`awk iteration limit
    /// (10000000) exceeded`); the utility prints it and fails.
    fn charge_steps(&self, kind: StepKind, steps: u64) -> Result<(), StepLimitError> {
        let _ = (kind, steps);
        Ok(())
    }

    /// The size limits of the run (strings, output), for utilities that build
    /// large values in memory.
    fn size_limits(&self) -> SizeLimits {
        SizeLimits::default()
    }
}

/// Which step budget [`ShellServices::charge_steps`] charges.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StepKind {
    /// awk statements and loop iterations (`maxAwkIterations`).
    Awk,
    /// jq evaluation steps (`maxJqIterations`).
    Jq,
    /// sed commands run and branches taken (`maxSedIterations`).
    Sed,
    /// bc instructions run (`maxBcIterations`).
    Bc,
}

impl StepKind {
    /// The word the limit's message uses (`awk iteration limit`).
    pub fn label(self) -> &'static str {
        match self {
            StepKind::Awk => "awk",
            StepKind::Jq => "jq",
            StepKind::Sed => "sed",
            StepKind::Bc => "bc",
        }
    }
}

/// Why [`ShellServices::charge_steps`] stopped a utility.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StepLimitError {
    /// A budget or the run's time limit ran out; the message names it and its value.
    Limit(String),
    /// The host interrupted the run (abort signal, `timeout`): status 130 or the deadline's.
    Interrupted,
}

/// Size limits a utility honours when it builds large values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SizeLimits {
    /// Longest string, in bytes (`maxStringLength`).
    pub max_string_bytes: usize,
    /// Most elements in one array or collection (`maxArrayElements`).
    pub max_array_elements: usize,
}

impl Default for SizeLimits {
    fn default() -> Self {
        SizeLimits { max_string_bytes: 64 << 20, max_array_elements: 1_000_000 }
    }
}

/// A program for [`ShellServices::run_program`] to run.
pub struct ProgramRequest {
    /// The program and its arguments.
    pub argv: Vec<String>,
    /// The whole environment it gets; `None` keeps the shell's exported one.
    pub env: Option<Vec<(String, String)>>,
    /// Its working directory; `None` keeps the shell's.
    pub cwd: Option<String>,
    /// The host it sees (a `timeout` deadline); `None` keeps the shell's.
    pub host: Option<Rc<dyn Host>>,
    /// Standard input.
    pub stdin: Fd,
    /// Standard output.
    pub stdout: Fd,
    /// Standard error.
    pub stderr: Fd,
}

impl ProgramRequest {
    /// A request to run `argv` with the shell's environment, directory and
    /// host, and the given streams.
    pub fn new(argv: Vec<String>, stdin: Fd, stdout: Fd, stderr: Fd) -> Self {
        ProgramRequest { argv, env: None, cwd: None, host: None, stdin, stdout, stderr }
    }
}

/// One process of the sandbox, as `ps` lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Process {
    /// Its process id.
    pub pid: u32,
    /// Its parent's process id.
    pub parent_pid: u32,
    /// Its command line (`sleep 5`).
    pub command: String,
}

/// One invocation of a utility.
pub struct Invocation<'s> {
    /// The arguments, `args[0]` being the command name as typed.
    pub args: Vec<String>,
    /// Standard input.
    pub stdin: Fd,
    /// Standard output.
    pub stdout: Fd,
    /// Standard error.
    pub stderr: Fd,
    /// The sandbox filesystem.
    pub fs: Rc<dyn Fs>,
    /// The host (clock, randomness, sleep).
    pub host: Rc<dyn Host>,
    /// The working directory (absolute).
    pub cwd: String,
    /// The exported environment, sorted by name.
    pub env: Vec<(String, String)>,
    /// The shell, for running nested commands.
    pub shell: &'s mut dyn ShellServices,
    /// The registered utility being run: `cat` also when `args[0]` is
    /// another name for it (`hash -p /bin/cat kitty; kitty`).
    pub program: String,
}

/// The status a utility returns when a write hits a closed pipe (128 + SIGPIPE).
pub const STATUS_SIGPIPE: i32 = 141;

impl Invocation<'_> {
    /// The command name (`args[0]`).
    pub fn name(&self) -> &str {
        self.args.first().map(String::as_str).unwrap_or("")
    }

    /// Resolves `path` against the working directory (no normalization: the
    /// filesystem walks `..` physically).
    pub fn resolve(&self, path: &str) -> String {
        crate::fs::path::join(&self.cwd, path)
    }

    /// Writes to standard output.
    pub async fn write_out(&self, data: &[u8]) -> Result<(), IoError> {
        self.stdout.write(data).await
    }

    /// Writes `name: message\n` to standard error, as GNU tools report.
    pub async fn report(&self, message: &str) {
        let line = format!("{}: {}\n", self.name(), message);
        let _ = self.stderr.write(line.as_bytes()).await;
    }

    /// Writes `name: path: strerror\n` to standard error.
    pub async fn report_fs(&self, path: &str, error: FsError) {
        self.report(&format!("{path}: {error}")).await;
    }

    /// Opens `/dev/stdin`, `/dev/stdout`, `/dev/stderr` or `/dev/fd/N` as the
    /// shell's stream; `None` for any other path.
    pub fn special_stream(&self, path: &str) -> Option<Fd> {
        match path {
            "/dev/stdin" => Some(self.stdin.clone()),
            "/dev/stdout" => Some(self.stdout.clone()),
            "/dev/stderr" => Some(self.stderr.clone()),
            _ => {
                let n: usize = path.strip_prefix("/dev/fd/")?.parse().ok()?;
                match n {
                    0 => Some(self.stdin.clone()),
                    1 => Some(self.stdout.clone()),
                    2 => Some(self.stderr.clone()),
                    _ => self.shell.open_fd(n),
                }
            }
        }
    }

    /// Reports a failed write of the utility's output the way GNU tools do
    /// (`cat: write error: No space left on device`) and returns the exit
    /// status to end with: 141 for a closed pipe and 1 after the run's
    /// output limit (both silent here: SIGPIPE is quiet, and the shell
    /// reports the limit), 1 otherwise. A quota or a read-only file is never
    /// a silent failure.
    pub async fn write_failed(&self, error: IoError) -> i32 {
        self.write_failed_with(error, |error| format!("write error: {error}"), 1).await
    }

    /// Like [`Invocation::write_failed`], for tools whose words or status
    /// differ (`wc: write error`, `diff: standard output: ...` with status
    /// 2): `message` makes the text after `NAME: `, `status` is the status
    /// for errors other than a closed pipe.
    pub async fn write_failed_with(&self, error: IoError, message: impl FnOnce(&IoError) -> String, status: i32) -> i32 {
        match error {
            IoError::BrokenPipe => STATUS_SIGPIPE,
            IoError::OutputLimit => status,
            other => {
                self.report(&message(&other)).await;
                status
            }
        }
    }

    /// The value of an exported variable.
    pub fn env_var(&self, name: &str) -> Option<&str> {
        self.env.iter().find(|(key, _)| key == name).map(|(_, value)| value.as_str())
    }
}

/// Maps a failed write to the utility's exit status: 141 for a closed pipe
/// (the caller stops at once), 1 otherwise. Prints nothing: prefer
/// [`Invocation::write_failed`], which reports the error as GNU tools do.
pub fn write_failure_status(error: IoError) -> i32 {
    match error {
        IoError::BrokenPipe => STATUS_SIGPIPE,
        _ => 1,
    }
}
