//! The embedding API: a [`Sandbox`] owns a filesystem and a shell session
//! whose state (variables, functions, working directory) persists across
//! [`Sandbox::exec`] calls, as in one interactive bash session.

mod host_command;
mod overlay_export;
mod state;

pub use overlay_export::overlay_patch;
pub use state::RestoreError;

use crate::fs::{Fs, MemoryFs};
use crate::host::Host;
use crate::interp::{Limits, Shell, ShellConfig};
use crate::io::{Capture, OutputSink, Stream};
use std::rc::Rc;

/// How to build a sandbox.
#[derive(Default)]
pub struct SandboxOptions {
    /// Files to create before the first run: absolute or cwd-relative path and contents.
    pub files: Vec<(String, Vec<u8>)>,
    /// Environment variables (exported).
    pub env: Vec<(String, String)>,
    /// The initial working directory (default `/home/user`).
    pub cwd: Option<String>,
    /// Execution limits (defaults are generous enough for ordinary scripts).
    pub limits: Limits,
    /// Utilities added to (or replacing) the built-in registry.
    pub extra_utilities: Vec<crate::interp::Utility>,
    /// Filesystems mounted at absolute paths (host directories, read-only
    /// or copy-on-write views), as `(mount point, filesystem)`. The mount
    /// point and its parents are created in the root filesystem.
    pub mounts: Vec<(String, Rc<dyn Fs>)>,
}

/// Per-run options of [`Sandbox::exec`].
#[derive(Default)]
pub struct ExecOptions {
    /// Bytes the script reads as standard input.
    pub stdin: Vec<u8>,
    /// Variables exported for this run only.
    pub env: Vec<(String, String)>,
    /// The working directory for this run only.
    pub cwd: Option<String>,
    /// Positional parameters (`$1`...) for this run; the session's when `None`.
    pub args: Option<Vec<String>>,
    /// `$0` for this run (default `bash`).
    pub arg0: Option<String>,
    /// Receives standard output as it is produced.
    pub on_stdout: Option<Rc<dyn OutputSink>>,
    /// Receives standard error as it is produced.
    pub on_stderr: Option<Rc<dyn OutputSink>>,
    /// Standard input arriving from the host as the script reads it
    /// (after `stdin`'s bytes); `None` for just `stdin`.
    pub stdin_source: Option<Rc<dyn crate::host::InputSource>>,
}

/// The outcome of one run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExecResult {
    /// Everything the script wrote to standard output.
    pub stdout: Vec<u8>,
    /// Everything the script wrote to standard error.
    pub stderr: Vec<u8>,
    /// The exit status (`$?` after the script).
    pub exit_code: i32,
    /// True when the script ran `exit` (or a fatal error ended it) rather
    /// than reaching its end; an interactive host stops then.
    pub exited: bool,
    /// Host time the session's runs have used, this one included (what
    /// `max_session_duration_ms` counts), whole milliseconds rounded down:
    /// the host wakes a waiting run when the rest is spent.
    pub session_ms: u64,
    /// True when the `exit` builtin ended the script (not a fatal error):
    /// what makes an interactive shell leave.
    pub exit_called: bool,
}

impl ExecResult {
    /// Standard output as text (invalid UTF-8 replaced).
    pub fn stdout_text(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }

    /// Standard error as text (invalid UTF-8 replaced).
    pub fn stderr_text(&self) -> String {
        String::from_utf8_lossy(&self.stderr).into_owned()
    }
}

/// Writes `first`, then the host's chunks, into the script's standard
/// input pipe; stops at the source's end (the script then reads end of
/// file) or when the script closed its end.
async fn feed_stdin(first: Vec<u8>, source: Rc<dyn crate::host::InputSource>, writer: crate::io::pipe::PipeWriter) {
    if !first.is_empty() && writer.write(&first).await.is_err() {
        return;
    }
    while let Some(chunk) = source.next_chunk().await {
        if !chunk.is_empty() && writer.write(&chunk).await.is_err() {
            return;
        }
    }
}

/// True for a name a host command may have: a non-empty file name.
fn is_command_name(name: &str) -> bool {
    !name.is_empty() && name != "." && name != ".." && !name.contains(['/', '\0'])
}

/// The filesystem scripts see: `root` alone, or `root` with `mounts` on it.
/// A mount whose point is not a usable absolute path is left out (the
/// wrapper checks the points before it gets here).
async fn with_mounts(root: &MemoryFs, mounts: Vec<(String, Rc<dyn Fs>)>) -> Rc<dyn Fs> {
    if mounts.is_empty() {
        return Rc::new(root.clone());
    }
    let table = crate::fs::mount::MountFs::new(Rc::new(root.clone()), root.credentials());
    for (point, fs) in mounts {
        if crate::fs::layout::try_create_dir_with_parents(root, &point).await.is_ok() {
            let _ = table.mount(&point, fs);
        }
    }
    Rc::new(table)
}

/// A sandboxed shell session over its own in-memory filesystem.
pub struct Sandbox {
    fs: MemoryFs,
    shell: Shell,
}

impl Sandbox {
    /// Creates a sandbox with the default filesystem layout, the given files,
    /// environment and working directory.
    pub async fn new(options: SandboxOptions, host: Rc<dyn Host>) -> Sandbox {
        let fs = MemoryFs::new(host.clone(), crate::fs::layout::SANDBOX_UID, crate::fs::layout::SANDBOX_GID);
        let mut table: std::collections::BTreeMap<String, crate::interp::UtilityFn> = crate::commands::registry()
            .iter()
            .map(|u| (u.name.to_string(), crate::commands::usage::run_with_usage as crate::interp::UtilityFn))
            .collect();
        for utility in &options.extra_utilities {
            table.insert(utility.name.to_string(), utility.run);
        }
        for name in host.command_names() {
            if is_command_name(&name) {
                table.insert(name, host_command::run);
            }
        }
        let mut names: Vec<String> = table.keys().cloned().collect();
        // Builtins that also exist as programs on a GNU system.
        names.extend(["[", "echo", "false", "kill", "printf", "pwd", "test", "true"].map(String::from));
        crate::fs::layout::create_default_layout(&fs, names.iter().map(String::as_str)).await;
        let utilities = Rc::new(table);
        let cwd = options.cwd.unwrap_or_else(|| crate::fs::layout::HOME.to_string());
        for (path, contents) in &options.files {
            let absolute = crate::fs::path::normalize(&cwd, path);
            crate::fs::layout::write_with_parents(&fs, &absolute, contents).await;
        }
        let shared = with_mounts(&fs, options.mounts).await;
        let shell = Shell::new(ShellConfig { fs: shared, host, utilities, env: options.env, cwd, limits: options.limits });
        Sandbox { fs, shell }
    }

    /// Runs `script` and collects its output and status. Parse errors,
    /// missing commands and limit breaches are reported as bash reports them,
    /// on stderr with a status; the sandbox stays usable afterwards.
    pub async fn exec(&mut self, script: &str, options: ExecOptions) -> ExecResult {
        let limit = self.shell.limits().max_output_bytes;
        let stdout = Capture::new(limit, options.on_stdout);
        let stderr = Capture::new(limit, options.on_stderr);
        let (stdin, feeder) = match options.stdin_source {
            None => (Stream::input(options.stdin), None),
            Some(source) => {
                let (reader, writer) = crate::io::pipe::pipe();
                (Rc::new(Stream::PipeReader(reader)), Some(feed_stdin(options.stdin, source, writer)))
            }
        };
        if let Some(args) = options.args {
            self.shell.set_positional(args);
        }
        if let Some(arg0) = options.arg0 {
            self.shell.set_arg0(arg0);
        }
        self.shell.watch_output(stdout.clone(), stderr.clone());
        let run = self.shell.run_top_level(
            script,
            stdin,
            Rc::new(Stream::Capture(stdout.clone())),
            Rc::new(Stream::Capture(stderr.clone())),
            options.env,
            options.cwd,
        );
        let mut exit_code = match feeder {
            None => run.await,
            Some(feeder) => crate::executor::with_helper(Box::pin(run), Box::pin(feeder)).await,
        };
        let exit_called = self.shell.take_exit_called();
        let exited = self.shell.take_exited();
        let mut stderr_bytes = stderr.take();
        // The last command may have gone past the output limit with nothing
        // after it to notice: say so here (past the limit, a few bytes).
        if let Some(message) = self.shell.output_overflow() {
            let line = format!("bash: limit: {message}\n");
            if !stderr_bytes.ends_with(line.as_bytes()) {
                stderr_bytes.extend_from_slice(line.as_bytes());
            }
            exit_code = 126;
        }
        // Rounded down: a host that wakes the run from it wakes it late, never early.
        let session_ms = self.shell.session_elapsed_ms().max(0.0) as u64;
        ExecResult { stdout: stdout.take(), stderr: stderr_bytes, exit_code, exited, exit_called, session_ms }
    }

    /// The sandbox filesystem, for the host to read and write files directly.
    pub fn fs(&self) -> &MemoryFs {
        &self.fs
    }

    /// The shell session (variables, working directory), for inspection.
    pub fn shell(&self) -> &Shell {
        &self.shell
    }
}
