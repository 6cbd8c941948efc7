//! Running one utility in isolation, for unit tests of the commands layer:
//! a fresh in-memory filesystem, captured output, and a shell stand-in that
//! runs nested commands from the registry only.

use crate::fs::{Fs, MemoryFs};
use crate::host::{FixedHost, Host, LocalFuture};
use crate::io::{Capture, Fd, Stream};
use crate::utility::{Invocation, Process, ProgramRequest, ShellServices, StepKind, StepLimitError};
use std::rc::Rc;

/// What a utility run produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UtilityOutput {
    /// Standard output as text.
    pub stdout: String,
    /// Standard error as text.
    pub stderr: String,
    /// Exit status.
    pub status: i32,
}

/// A shell stand-in that runs registry utilities for nested commands.
struct RegistryShell {
    fs: Rc<dyn Fs>,
    host: Rc<dyn Host>,
    cwd: String,
    steps: std::cell::Cell<u64>,
}

impl ShellServices for RegistryShell {
    fn run_command<'a>(&'a mut self, argv: Vec<String>, stdin: Fd, stdout: Fd, stderr: Fd) -> LocalFuture<'a, i32> {
        Box::pin(async move {
            let Some(utility) = argv.first().and_then(|name| super::find(name)) else {
                return 127;
            };
            let (fs, host, cwd) = (self.fs.clone(), self.host.clone(), self.cwd.clone());
            let program = utility.name.to_string();
            let mut invocation = Invocation { args: argv, stdin, stdout, stderr, fs, host, cwd, env: Vec::new(), shell: self, program };
            (utility.run)(&mut invocation).await
        })
    }

    fn umask(&self) -> u32 {
        0o022
    }

    fn command_exists(&self, name: &str) -> bool {
        super::find(name).is_some()
    }

    fn open_fd(&self, _fd: usize) -> Option<Fd> {
        None
    }

    fn run_program<'a>(&'a mut self, request: ProgramRequest) -> LocalFuture<'a, i32> {
        Box::pin(async move {
            let ProgramRequest { argv, env, cwd, host, stdin, stdout, stderr } = request;
            let Some(utility) = argv.first().and_then(|name| super::find(name)) else {
                return 127;
            };
            let fs = self.fs.clone();
            let host = host.unwrap_or_else(|| self.host.clone());
            let cwd = cwd.unwrap_or_else(|| self.cwd.clone());
            let env = env.unwrap_or_default();
            let program = utility.name.to_string();
            let mut invocation = Invocation { args: argv, stdin, stdout, stderr, fs, host, cwd, env, shell: self, program };
            (utility.run)(&mut invocation).await
        })
    }

    fn processes(&self) -> Vec<Process> {
        vec![Process { pid: 1, parent_pid: 0, command: "bash".to_string() }]
    }

    fn charge_steps(&self, kind: StepKind, steps: u64) -> Result<(), StepLimitError> {
        let total = self.steps.get() + steps;
        self.steps.set(total);
        if total > TEST_STEP_LIMIT {
            return Err(StepLimitError::Limit(format!("{} iteration limit ({TEST_STEP_LIMIT}) exceeded", kind.label())));
        }
        Ok(())
    }
}

/// The awk/jq/sed step budget of a test run: small, so endless programs end fast.
pub const TEST_STEP_LIMIT: u64 = 1_000_000;

/// A fresh filesystem with `/home/user` and `/tmp`, owned by the sandbox user.
pub fn new_fs() -> MemoryFs {
    let host: Rc<dyn Host> = Rc::new(FixedHost::default());
    let fs = MemoryFs::new(host, crate::fs::layout::SANDBOX_UID, crate::fs::layout::SANDBOX_GID);
    crate::executor::block_on(crate::fs::layout::create_default_layout(&fs, super::registry().iter().map(|u| u.name)));
    fs
}

/// Runs `args` (the first being the utility name) in `/home/user` over `fs`
/// with `stdin`, and returns what it wrote and its status.
pub fn run_utility(fs: &MemoryFs, args: &[&str], stdin: &[u8]) -> UtilityOutput {
    run_utility_with_host(fs, Rc::new(FixedHost::default()), args, stdin)
}

/// Like [`run_utility`], with `host` as the utility's host (a scripted network).
pub fn run_utility_with_host(fs: &MemoryFs, host: Rc<dyn Host>, args: &[&str], stdin: &[u8]) -> UtilityOutput {
    let fs: Rc<dyn Fs> = Rc::new(fs.clone());
    let stdout = Capture::new(usize::MAX, None);
    let stderr = Capture::new(usize::MAX, None);
    let mut shell =
        RegistryShell { fs: fs.clone(), host: host.clone(), cwd: crate::fs::layout::HOME.to_string(), steps: Default::default() };
    let argv: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    let status = crate::executor::block_on(shell.run_command(
        argv,
        Stream::input(stdin.to_vec()),
        Rc::new(Stream::Capture(stdout.clone())),
        Rc::new(Stream::Capture(stderr.clone())),
    ));
    UtilityOutput {
        stdout: String::from_utf8_lossy(&stdout.take()).into_owned(),
        stderr: String::from_utf8_lossy(&stderr.take()).into_owned(),
        status,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cat_reads_files_and_reports_missing_ones() {
        let fs = new_fs();
        crate::executor::block_on(fs.write_file("/home/user/a.txt", b"hello\n")).unwrap();
        let out = run_utility(&fs, &["cat", "a.txt", "missing"], b"");
        assert_eq!(out.stdout, "hello\n");
        assert_eq!(out.stderr, "cat: missing: No such file or directory\n");
        assert_eq!(out.status, 1);
    }

    #[test]
    fn cat_copies_stdin() {
        let out = run_utility(&new_fs(), &["cat"], b"x\ny\n");
        assert_eq!(out.stdout, "x\ny\n");
        assert_eq!(out.status, 0);
    }
}
