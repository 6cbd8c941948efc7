//! `yes` against a pipe whose reader goes away, and against an output limit.

use crate::commands::test_support::new_fs;
use crate::fs::Fs;
use crate::host::{FixedHost, Host, LocalFuture};
use crate::io::{pipe::pipe, Capture, Fd, Stream};
use crate::utility::{Invocation, Process, ProgramRequest, ShellServices};
use std::rc::Rc;

struct NoShell;

impl ShellServices for NoShell {
    fn run_command<'a>(&'a mut self, _argv: Vec<String>, _stdin: Fd, _stdout: Fd, _stderr: Fd) -> LocalFuture<'a, i32> {
        Box::pin(async { 127 })
    }
    fn umask(&self) -> u32 {
        0o022
    }
    fn command_exists(&self, _name: &str) -> bool {
        false
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

fn invocation<'s>(shell: &'s mut NoShell, args: &[&str], stdout: Fd) -> Invocation<'s> {
    let fs: Rc<dyn Fs> = Rc::new(new_fs());
    let host: Rc<dyn Host> = Rc::new(FixedHost::default());
    Invocation {
        args: args.iter().map(|a| a.to_string()).collect(),
        stdin: Stream::input(Vec::new()),
        stdout,
        stderr: Rc::new(Stream::Null),
        fs,
        host,
        cwd: "/home/user".into(),
        env: Vec::new(),
        shell,
        program: args.first().map(|a| a.to_string()).unwrap_or_default(),
    }
}

#[test]
fn yes_stops_when_the_reader_closes() {
    let (reader, writer) = pipe();
    let mut shell = NoShell;
    let mut ctx = invocation(&mut shell, &["yes", "a", "b"], Rc::new(Stream::PipeWriter(writer)));
    let reader = Stream::PipeReader(reader);
    let head = async move {
        let first = reader.read_until(b'\n', 100).await.unwrap();
        drop(reader);
        first
    };
    let first = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let seen = first.clone();
    let statuses = crate::executor::block_on(crate::executor::join_all(vec![
        Box::pin(async move {
            *seen.borrow_mut() = head.await;
            0
        }),
        Box::pin(async { (crate::commands::system::yes::run)(&mut ctx).await }),
    ]));
    let results = (first.borrow().clone(), statuses[1]);
    assert_eq!(results.0, b"a b\n");
    assert_eq!(results.1, 141);
}

#[test]
fn yes_fails_at_the_output_limit() {
    let capture = Capture::new(100_000, None);
    let mut shell = NoShell;
    let mut ctx = invocation(&mut shell, &["yes"], Rc::new(Stream::Capture(capture.clone())));
    let status = crate::executor::block_on((crate::commands::system::yes::run)(&mut ctx));
    assert_eq!(status, 1);
    let bytes = capture.take();
    assert!(bytes.starts_with(b"y\ny\n") && bytes.len() <= 100_000);
}
