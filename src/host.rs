//! Everything the engine asks of the world outside the sandbox.
//!
//! The engine never touches the real machine: no files, processes, sockets or
//! clocks. It asks its host, through the one [`Host`] trait, for the time, for
//! randomness, for the commands it defines itself (JS custom commands), and
//! (in later layers) for network fetches and host-backed mounts. Calls that may wait return futures, so the same engine
//! runs under a JS event loop (where nothing may block) and under a native
//! `block_on` in tests.

use std::cell::Cell;
use std::future::Future;
use std::pin::Pin;

pub mod fake_fetch;
pub mod fetch;

pub use fetch::{FetchError, FetchErrorKind, FetchRequest, FetchResponse, ResponseBody};

/// A boxed future that need not be `Send`: the engine is single-threaded.
pub type LocalFuture<'a, T> = Pin<Box<dyn Future<Output = T> + 'a>>;

/// The services a sandbox needs from whoever embeds it.
pub trait Host {
    /// Wall-clock time in milliseconds since the Unix epoch.
    fn now_millis(&self) -> f64;

    /// A 64-bit seed for the sandbox's pseudo-random generator (`$RANDOM`, `mktemp`).
    fn random_seed(&self) -> u64;

    /// Lets the embedding event loop run (timers, abort signals, output
    /// streaming). Called now and then by long-running scripts.
    fn yield_now(&self) -> LocalFuture<'_, ()> {
        Box::pin(async {})
    }

    /// Waits for `millis` milliseconds of real time (`sleep`).
    fn sleep(&self, millis: f64) -> LocalFuture<'_, ()>;

    /// True once the host has asked the running script to stop (an abort signal, Ctrl-C).
    fn interrupted(&self) -> bool {
        false
    }

    /// True when the interrupt is only a command's own deadline (`timeout`):
    /// that command stops, the rest of the run goes on.
    fn deadline_passed(&self) -> bool {
        false
    }

    /// The names of the commands the host defines (JS custom commands). The
    /// sandbox registers them beside its own utilities, once, when it is built.
    fn command_names(&self) -> Vec<String> {
        Vec::new()
    }

    /// True when the host's commands read their standard input themselves,
    /// as it arrives, through [`HostCommandShell::read_stdin`]; the engine
    /// then hands them none up front (`HostCommandCall::stdin` is empty).
    fn commands_stream_stdin(&self) -> bool {
        false
    }

    /// Runs one of the host's commands. `shell` lets the command run scripts
    /// back in the sandbox while it works (`ctx.exec`).
    fn run_command<'a>(&'a self, call: HostCommandCall, shell: &'a mut dyn HostCommandShell) -> LocalFuture<'a, HostCommandOutput> {
        let _ = shell;
        let name = call.argv.first().cloned().unwrap_or_default();
        Box::pin(async move { HostCommandOutput::failure(127, &format!("{name}: command not found")) })
    }

    /// Sends one HTTP request (`curl`, `wget`) and returns its response with
    /// the body still streaming; redirects are not followed here. A host
    /// without network refuses every request, which is the default.
    fn fetch(&self, request: FetchRequest) -> LocalFuture<'_, Result<FetchResponse, FetchError>> {
        let _ = request;
        Box::pin(async { Err(FetchError::network_disabled()) })
    }
}

/// One call of a command the host defines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostCommandCall {
    /// The arguments; `argv[0]` is the command's registered name.
    pub argv: Vec<String>,
    /// The command's whole standard input (read up to a limit before the call).
    pub stdin: Vec<u8>,
    /// The working directory (absolute).
    pub cwd: String,
    /// The exported environment, sorted by name.
    pub env: Vec<(String, String)>,
}

/// What a host command (or a script it ran back in the sandbox) produced.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HostCommandOutput {
    /// Standard output bytes.
    pub stdout: Vec<u8>,
    /// Standard error bytes.
    pub stderr: Vec<u8>,
    /// The exit status.
    pub status: i32,
}

impl HostCommandOutput {
    /// No output, status `status`, and `message` plus a newline on stderr.
    pub fn failure(status: i32, message: &str) -> Self {
        HostCommandOutput { stdout: Vec::new(), stderr: format!("{message}\n").into_bytes(), status }
    }
}

/// The sandbox as a running host command sees it.
pub trait HostCommandShell {
    /// Runs `script` as `bash -c SCRIPT` started by the command would: same
    /// working directory, exported variables and open file descriptors, with
    /// `stdin` as standard input; collects its output and status.
    fn exec(&mut self, script: String, stdin: Vec<u8>) -> LocalFuture<'_, HostCommandOutput>;

    /// The next chunk of the command's standard input, at most `max` bytes;
    /// empty at its end (or when it cannot be read).
    fn read_stdin(&mut self, max: usize) -> LocalFuture<'_, Vec<u8>> {
        let _ = max;
        Box::pin(async { Vec::new() })
    }

    /// Writes `data` to the command's standard output (or standard error)
    /// now, while it runs. `Err(status)` when the write failed: the status
    /// the command ends with (141 for a closed pipe, as SIGPIPE would).
    fn write_output(&mut self, stderr: bool, data: Vec<u8>) -> LocalFuture<'_, Result<(), i32>> {
        let _ = (stderr, data);
        Box::pin(async { Ok(()) })
    }
}

/// Bytes a host hands over as they arrive (a streamed standard input).
pub trait InputSource {
    /// The next chunk; `None` at the end. An empty chunk is skipped.
    fn next_chunk(&self) -> LocalFuture<'_, Option<Vec<u8>>>;
}

/// A host with a fixed, hand-advanced clock and a fixed seed, for tests and
/// reproducible runs. `sleep` advances the clock instead of waiting.
#[derive(Debug)]
pub struct FixedHost {
    now: Cell<f64>,
    seed: u64,
}

impl FixedHost {
    /// A host whose clock starts at `now_millis` and whose seed is `seed`.
    pub fn new(now_millis: f64, seed: u64) -> Self {
        FixedHost { now: Cell::new(now_millis), seed }
    }
}

impl Default for FixedHost {
    fn default() -> Self {
        // 2024-01-01T00:00:00Z: a stable, recent-looking default.
        FixedHost::new(1_704_067_200_000.0, 42)
    }
}

impl Host for FixedHost {
    fn now_millis(&self) -> f64 {
        self.now.get()
    }

    fn random_seed(&self) -> u64 {
        self.seed
    }

    fn sleep(&self, millis: f64) -> LocalFuture<'_, ()> {
        self.now.set(self.now.get() + millis.max(0.0));
        Box::pin(async {})
    }
}
