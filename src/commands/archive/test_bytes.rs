//! A test harness like `test_support::run_utility` that keeps standard
//! output as bytes, for utilities that write binary data (`gzip -c`, `tar c`).

use crate::commands::test_support::new_fs;
use crate::fs::{Fs, MemoryFs};
use crate::host::{FixedHost, Host, LocalFuture};
use crate::io::{Capture, Fd, Stream};
use crate::utility::{Invocation, Process, ProgramRequest, ShellServices};
use std::rc::Rc;

struct Shell;

impl ShellServices for Shell {
    fn run_command<'a>(&'a mut self, _argv: Vec<String>, _stdin: Fd, _stdout: Fd, _stderr: Fd) -> LocalFuture<'a, i32> {
        Box::pin(async { 127 })
    }

    fn umask(&self) -> u32 {
        0o022
    }

    fn command_exists(&self, name: &str) -> bool {
        crate::commands::find(name).is_some()
    }

    fn open_fd(&self, _fd: usize) -> Option<Fd> {
        None
    }

    fn run_program<'a>(&'a mut self, _request: ProgramRequest) -> LocalFuture<'a, i32> {
        Box::pin(async { 127 })
    }

    fn processes(&self) -> Vec<Process> {
        Vec::new()
    }
}

/// Runs a utility over `fs` in `/home/user`; returns stdout bytes, stderr text and status.
pub fn run_bytes(fs: &MemoryFs, args: &[&str], stdin: &[u8]) -> (Vec<u8>, String, i32) {
    let stdout = Capture::new(usize::MAX, None);
    let stderr = Capture::new(usize::MAX, None);
    let Some(utility) = args.first().and_then(|name| crate::commands::find(name)) else {
        return (Vec::new(), String::new(), 127);
    };
    let mut shell = Shell;
    let fs: Rc<dyn Fs> = Rc::new(fs.clone());
    let host: Rc<dyn Host> = Rc::new(FixedHost::default());
    let mut invocation = Invocation {
        args: args.iter().map(|a| a.to_string()).collect(),
        stdin: Stream::input(stdin.to_vec()),
        stdout: Rc::new(Stream::Capture(stdout.clone())),
        stderr: Rc::new(Stream::Capture(stderr.clone())),
        fs,
        host,
        cwd: "/home/user".to_string(),
        env: Vec::new(),
        shell: &mut shell,
        program: args.first().map(|a| a.to_string()).unwrap_or_default(),
    };
    let status = crate::executor::block_on((utility.run)(&mut invocation));
    (stdout.take(), String::from_utf8_lossy(&stderr.take()).into_owned(), status)
}

/// A fresh filesystem holding `files` (relative to `/home/user`; a name
/// ending in `/` is a directory).
pub fn fs_with(files: &[(&str, &[u8])]) -> MemoryFs {
    let fs = new_fs();
    for (name, data) in files {
        let path = format!("/home/user/{name}");
        if let Some(dir) = path.strip_suffix('/') {
            crate::executor::block_on(fs.create_dir(dir, 0o755)).unwrap();
        } else {
            crate::executor::block_on(fs.write_file(&path, data)).unwrap();
        }
    }
    fs
}
