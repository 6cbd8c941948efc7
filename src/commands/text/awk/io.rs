//! awk's streams: reading records (by a byte, a regex, or paragraphs)
//! from the main input, files and commands, and the output redirections
//! (`>` `>>` to files, `|` to commands run in the sandbox at `close`).

use super::regex::Cache;
use super::value::Str;
use crate::fs::{FileHandle, OpenOptions};
use crate::io::{Capture, Fd, FileStream, Stream, READ_CHUNK};
use crate::regex::Regex;
use crate::utility::Invocation;
use std::cell::Cell as StdCell;
use std::collections::HashMap;
use std::rc::Rc;

/// How `RS` ends records.
#[derive(Clone)]
pub enum RsMode {
    /// One byte (`RS` of one character).
    Byte(u8),
    /// Blank lines (`RS=""`).
    Paragraph,
    /// A regex (longer `RS`).
    Regex(Rc<Regex>),
}

/// A buffered record reader over a stream.
pub struct Reader {
    fd: Fd,
    buf: Vec<u8>,
    pos: usize,
    eof: bool,
}

/// What ended a record (`RT`), without allocating for one byte.
pub enum Terminator {
    /// One byte (`RS` of one character).
    Byte(u8),
    /// Several bytes (regex or paragraph separators), or none at the end.
    Bytes(Vec<u8>),
}

impl Terminator {
    /// The terminator's bytes.
    pub fn as_slice(&self) -> &[u8] {
        match self {
            Terminator::Byte(b) => std::slice::from_ref(b),
            Terminator::Bytes(bytes) => bytes,
        }
    }
}

/// One record and its terminator.
pub struct Record {
    /// The record text.
    pub text: Str,
    /// What ended it (`RT`).
    pub terminator: Terminator,
}

impl Reader {
    /// A reader of `fd`.
    pub fn new(fd: Fd) -> Reader {
        Reader { fd, buf: Vec::new(), pos: 0, eof: false }
    }

    async fn fill(&mut self) -> bool {
        if self.eof {
            return false;
        }
        if self.pos > 0 && self.pos * 2 >= self.buf.len() {
            self.buf.drain(..self.pos);
            self.pos = 0;
        }
        match self.fd.read(READ_CHUNK).await {
            Ok(chunk) if !chunk.is_empty() => {
                self.buf.extend_from_slice(&chunk);
                true
            }
            _ => {
                self.eof = true;
                false
            }
        }
    }

    /// The next record, `None` at end of input.
    pub async fn next_record(&mut self, rs: &RsMode) -> Option<Record> {
        match rs {
            RsMode::Byte(delimiter) => {
                let mut searched = 0;
                loop {
                    let rest = &self.buf[self.pos + searched..];
                    if let Some(at) = memchr::memchr(*delimiter, rest) {
                        let end = self.pos + searched + at;
                        let text: Str = Str::from(&self.buf[self.pos..end]);
                        self.pos = end + 1;
                        return Some(Record { text, terminator: Terminator::Byte(*delimiter) });
                    }
                    searched = self.buf.len() - self.pos;
                    if !self.fill().await {
                        return self.rest();
                    }
                }
            }
            RsMode::Paragraph => {
                loop {
                    while self.pos < self.buf.len() && self.buf[self.pos] == b'\n' {
                        self.pos += 1;
                    }
                    if self.pos < self.buf.len() || !self.fill().await {
                        break;
                    }
                }
                loop {
                    let rest = &self.buf[self.pos..];
                    if let Some(at) = memchr::memmem::find(rest, b"\n\n") {
                        let mut end = at + 2;
                        while end < rest.len() && rest[end] == b'\n' {
                            end += 1;
                        }
                        if end < rest.len() || self.eof {
                            let text: Str = Str::from(&rest[..at]);
                            let terminator = rest[at..end].to_vec();
                            self.pos += end;
                            return Some(Record { text, terminator: Terminator::Bytes(terminator) });
                        }
                    }
                    if !self.fill().await {
                        let rest = &self.buf[self.pos..];
                        if rest.is_empty() {
                            return None;
                        }
                        let trimmed = rest.len() - rest.iter().rev().take_while(|&&c| c == b'\n').count();
                        let text: Str = Str::from(&rest[..trimmed]);
                        let terminator = rest[trimmed..].to_vec();
                        self.pos = self.buf.len();
                        return Some(Record { text, terminator: Terminator::Bytes(terminator) });
                    }
                }
            }
            RsMode::Regex(regex) => loop {
                let rest = &self.buf[self.pos..];
                if let Ok(Some((start, end))) = regex.find_at(rest, 0) {
                    if end > start && (end < rest.len() || self.eof) {
                        let text: Str = Str::from(&rest[..start]);
                        let terminator = rest[start..end].to_vec();
                        self.pos += end;
                        return Some(Record { text, terminator: Terminator::Bytes(terminator) });
                    }
                }
                if !self.fill().await {
                    let rest = &self.buf[self.pos..];
                    if let Ok(Some((start, end))) = regex.find_at(rest, 0) {
                        if end > start {
                            let text: Str = Str::from(&rest[..start]);
                            let terminator = rest[start..end].to_vec();
                            self.pos += end;
                            return Some(Record { text, terminator: Terminator::Bytes(terminator) });
                        }
                    }
                    return self.rest();
                }
            },
        }
    }

    fn rest(&mut self) -> Option<Record> {
        if self.pos >= self.buf.len() {
            return None;
        }
        let text: Str = Str::from(&self.buf[self.pos..]);
        self.pos = self.buf.len();
        Some(Record { text, terminator: Terminator::Bytes(Vec::new()) })
    }
}

/// Where an output redirection goes.
pub enum Sink {
    /// A file (opened at first use).
    File(Fd),
    /// Standard output (`/dev/stdout`, `-`).
    Stdout,
    /// Standard error.
    Stderr,
    /// A command run at `close` with the collected text as its input.
    Pipe,
}

/// An open output redirection.
pub struct Output {
    /// Where it goes.
    pub sink: Sink,
    /// Text not yet written.
    pub data: Vec<u8>,
}

/// All of awk's streams.
pub struct Io {
    /// How records end.
    pub rs: RsMode,
    /// The main input being read.
    pub main: Option<Reader>,
    /// The next `ARGV` index to look at.
    pub next_arg: usize,
    /// Whether a file operand was seen (else standard input is read).
    pub saw_file: bool,
    /// The main input is exhausted.
    pub main_done: bool,
    /// `getline < file` readers.
    pub files: HashMap<Vec<u8>, Reader>,
    /// `cmd | getline` readers.
    pub commands: HashMap<Vec<u8>, Reader>,
    /// The exit statuses of the `cmd | getline` commands.
    pub command_status: HashMap<Vec<u8>, i32>,
    /// Output redirections, in opening order.
    pub outputs: Vec<(Vec<u8>, Output)>,
    /// Standard output not yet written.
    pub out: Vec<u8>,
}

/// Output is handed on in blocks this large.
pub const FLUSH_AT: usize = 32 * 1024;

impl Io {
    /// Fresh streams.
    pub fn new() -> Io {
        Io {
            rs: RsMode::Byte(b'\n'),
            main: None,
            next_arg: 1,
            saw_file: false,
            main_done: false,
            files: HashMap::new(),
            commands: HashMap::new(),
            command_status: HashMap::new(),
            outputs: Vec::new(),
            out: Vec::new(),
        }
    }

    /// Applies a new `RS`.
    pub fn set_rs(&mut self, rs: &[u8], cache: &mut Cache, fold: bool) -> Result<(), String> {
        self.rs = match rs {
            b"" => RsMode::Paragraph,
            [b] => RsMode::Byte(*b),
            _ => RsMode::Regex(cache.get(rs, fold)?),
        };
        Ok(())
    }

    /// Writes buffered standard output.
    pub async fn flush_stdout(&mut self, ctx: &Invocation<'_>) -> Result<(), i32> {
        if self.out.is_empty() {
            return Ok(());
        }
        let written = ctx.write_out(&self.out).await;
        self.out.clear();
        match written {
            Ok(()) => Ok(()),
            Err(error) => Err(ctx.write_failed(error).await),
        }
    }

    /// Finds or opens the redirection `name`; `Err` is gawk's message.
    pub async fn output(&mut self, ctx: &Invocation<'_>, name: &[u8], kind: super::ast::Redirect) -> Result<usize, String> {
        if let Some(at) = self.outputs.iter().position(|(n, _)| n == name) {
            return Ok(at);
        }
        let text = String::from_utf8_lossy(name).into_owned();
        let sink = match kind {
            super::ast::Redirect::Pipe => Sink::Pipe,
            _ if text == "/dev/stdout" || text == "-" => Sink::Stdout,
            _ if text == "/dev/stderr" => Sink::Stderr,
            _ => {
                if let Some(fd) = ctx.special_stream(&text) {
                    Sink::File(fd)
                } else {
                    let mode = 0o666 & !ctx.shell.umask();
                    let options = if kind == super::ast::Redirect::Append {
                        OpenOptions::write_append(mode)
                    } else {
                        OpenOptions::write_truncate(mode)
                    };
                    let handle: Rc<dyn FileHandle> = match ctx.fs.open(&ctx.resolve(&text), options).await {
                        Ok(handle) => handle,
                        Err(error) => return Err(format!("cannot redirect to `{text}': {error}")),
                    };
                    let offset =
                        if kind == super::ast::Redirect::Append { handle.metadata().await.map(|m| m.size).unwrap_or(0) } else { 0 };
                    Sink::File(Rc::new(Stream::File(FileStream { handle, offset: StdCell::new(offset), readable: false, writable: true })))
                }
            }
        };
        self.outputs.push((name.to_vec(), Output { sink, data: Vec::new() }));
        Ok(self.outputs.len() - 1)
    }

    /// Writes one output's pending text (pipes wait for `close`).
    pub async fn flush_output(&mut self, ctx: &Invocation<'_>, at: usize) -> Result<(), i32> {
        let Some((_, output)) = self.outputs.get_mut(at) else { return Ok(()) };
        let data = std::mem::take(&mut output.data);
        if data.is_empty() {
            return Ok(());
        }
        let result = match &output.sink {
            Sink::File(fd) => fd.write(&data).await,
            Sink::Stderr => ctx.stderr.write(&data).await,
            Sink::Stdout => {
                self.out.extend_from_slice(&data);
                Ok(())
            }
            Sink::Pipe => {
                output.data = data;
                Ok(())
            }
        };
        match result {
            Ok(()) => Ok(()),
            Err(error) => Err(ctx.write_failed(error).await),
        }
    }

    /// Closes output `at`: writes it, and runs a pipe's command; returns the
    /// command's status for pipes, 0 otherwise.
    pub async fn close_output(&mut self, ctx: &mut Invocation<'_>, at: usize) -> Result<i32, i32> {
        self.flush_output(ctx, at).await?;
        if at >= self.outputs.len() {
            return Ok(-1);
        }
        let (name, output) = self.outputs.remove(at);
        if let Sink::Pipe = output.sink {
            let command = String::from_utf8_lossy(&name).into_owned();
            let stdin = Stream::input(output.data);
            let status =
                ctx.shell.run_command(vec!["sh".into(), "-c".into(), command], stdin, ctx.stdout.clone(), ctx.stderr.clone()).await;
            return Ok(status);
        }
        Ok(0)
    }

    /// Runs `command` and returns a reader of its output.
    pub async fn run_for_input(ctx: &mut Invocation<'_>, command: &[u8], limit: usize) -> (Reader, i32) {
        let capture = Capture::new(limit, None);
        let stdout: Fd = Rc::new(Stream::Capture(capture.clone()));
        let command = String::from_utf8_lossy(command).into_owned();
        let status = ctx.shell.run_command(vec!["sh".into(), "-c".into(), command], ctx.stdin.clone(), stdout, ctx.stderr.clone()).await;
        (Reader::new(Stream::input(capture.take())), status)
    }
}

impl Default for Io {
    fn default() -> Self {
        Io::new()
    }
}
