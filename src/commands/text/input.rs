//! Opening the inputs of the text utilities with each tool's error form, and
//! reading them line by line in chunks.

use crate::commands::common::{open_input, Input};
use crate::io::{Fd, READ_CHUNK};
use crate::utility::Invocation;

/// How a utility reports an input it cannot open.
#[derive(Clone, Copy)]
pub enum OpenError {
    /// `wc: x: No such file or directory`.
    Plain,
    /// `head: cannot open 'x' for reading: No such file or directory`.
    CannotOpen,
    /// `tac: failed to open 'x' for reading: No such file or directory`.
    FailedToOpen,
    /// util-linux's `rev: cannot open x: No such file or directory`.
    CannotOpenUnquoted,
}

/// The name of an input as messages show it.
pub fn input_name(input: &Input) -> &str {
    match input {
        Input::File(name) => name.as_str(),
        Input::Stdin => "-",
    }
}

/// Opens `input`, reporting a failure in the utility's form.
pub async fn open_or_report(ctx: &Invocation<'_>, input: &Input, style: OpenError) -> Option<Fd> {
    match open_input(ctx, input).await {
        Ok(stream) => Some(stream),
        Err(error) => {
            let name = input_name(input);
            let message = match style {
                OpenError::Plain => format!("{name}: {error}"),
                OpenError::CannotOpen => format!("cannot open {} for reading: {error}", crate::commands::format::quote(name)),
                OpenError::CannotOpenUnquoted => format!("cannot open {name}: {error}"),
                OpenError::FailedToOpen => format!("failed to open {} for reading: {error}", crate::commands::format::quote(name)),
            };
            ctx.report(&message).await;
            None
        }
    }
}

/// Reads a stream as records ended by `delimiter`, chunk by chunk, so a
/// reader that stops early never pulls the rest of the input.
pub struct LineReader {
    stream: Fd,
    delimiter: u8,
    buffer: Vec<u8>,
    start: usize,
    done: bool,
}

impl LineReader {
    /// A reader of `stream`'s records ended by `delimiter`.
    pub fn new(stream: Fd, delimiter: u8) -> LineReader {
        LineReader { stream, delimiter, buffer: Vec::new(), start: 0, done: false }
    }

    /// The input not yet returned, reading one chunk first when none is
    /// buffered (a look ahead, as grep's binary-file test needs).
    pub async fn peek_chunk(&mut self) -> Result<&[u8], ()> {
        if self.start >= self.buffer.len() && !self.done {
            let chunk = self.stream.read(READ_CHUNK).await.map_err(|_| ())?;
            if chunk.is_empty() {
                self.done = true;
            }
            self.buffer.extend_from_slice(&chunk);
        }
        Ok(self.buffer.get(self.start..).unwrap_or(&[]))
    }

    /// The input read but not yet returned (no read happens).
    pub fn buffered(&self) -> &[u8] {
        self.buffer.get(self.start..).unwrap_or(&[])
    }

    /// Skips `count` buffered bytes (whole records, found in [`LineReader::buffered`]).
    pub fn skip(&mut self, count: usize) {
        self.start = (self.start + count).min(self.buffer.len());
    }

    /// The next record with its delimiter (the last may lack one), `Ok(None)`
    /// at end of input, `Err(())` on a read error.
    pub async fn next_line(&mut self) -> Result<Option<Vec<u8>>, ()> {
        Ok(self.next_record().await?.map(<[u8]>::to_vec))
    }

    /// The next record, borrowed from the reader's buffer (no copy): with its
    /// delimiter, the last one maybe without; `Ok(None)` at end of input.
    pub async fn next_record(&mut self) -> Result<Option<&[u8]>, ()> {
        let mut scanned = self.start;
        loop {
            let pending = self.buffer.get(scanned..).unwrap_or(&[]);
            if let Some(offset) = memchr::memchr(self.delimiter, pending) {
                let start = self.start;
                let end = scanned + offset + 1;
                self.start = end;
                return Ok(self.buffer.get(start..end));
            }
            scanned = self.buffer.len();
            if self.done {
                if self.start >= self.buffer.len() {
                    return Ok(None);
                }
                let start = self.start;
                self.start = self.buffer.len();
                return Ok(self.buffer.get(start..));
            }
            if self.start > 0 {
                self.buffer.drain(..self.start);
                scanned -= self.start;
                self.start = 0;
            }
            let chunk = self.stream.read(READ_CHUNK).await.map_err(|_| ())?;
            if chunk.is_empty() {
                self.done = true;
            }
            if self.buffer.is_empty() {
                self.buffer = chunk;
            } else {
                self.buffer.extend_from_slice(&chunk);
            }
        }
    }
}

/// Reads a whole stream; `Err(())` on a read error.
pub async fn read_all(stream: &Fd) -> Result<Vec<u8>, ()> {
    stream.read_to_end().await.map_err(|_| ())
}

/// Why [`read_all_within_budget`] stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HoldError {
    /// The stream could not be read.
    Read,
    /// Holding the input (times the caller's working factor) would leave
    /// the sandbox's memory budget: the tool says `memory exhausted`.
    MemoryExhausted,
}

/// Reads `stream` to its end for a tool that must hold all of it (`sort`,
/// `tac`), checking as it grows that `factor` times what it holds still
/// fits the sandbox's memory budget ([`crate::memory::reserve`]), so the
/// tool stops with its own error before the engine runs out.
pub async fn read_all_within_budget(stream: &Fd, factor: usize) -> Result<Vec<u8>, HoldError> {
    const STEP: usize = 1 << 20;
    let mut out = Vec::new();
    let mut checked = 0usize;
    loop {
        let chunk = stream.read(crate::io::READ_CHUNK).await.map_err(|_| HoldError::Read)?;
        if chunk.is_empty() {
            return Ok(out);
        }
        if out.len() + chunk.len() >= checked + STEP {
            // What is held now is counted by the allocator already; ask for
            // the next step's worth of growth, with the tool's overhead.
            let next = out.len().max(STEP).saturating_mul(factor);
            crate::memory::reserve(next).map_err(|_| HoldError::MemoryExhausted)?;
            checked = out.len() + chunk.len();
        }
        out.extend_from_slice(&chunk);
    }
}

/// Opens `name` for writing (created with the umask's mode, truncated or
/// appended to), or the shell's stream for `/dev/stdout` and friends.
pub async fn open_output(ctx: &Invocation<'_>, name: &str, append: bool) -> Result<Fd, crate::fs::FsError> {
    if let Some(stream) = ctx.special_stream(name) {
        return Ok(stream);
    }
    let path = ctx.resolve(name);
    if name == "/dev/null" {
        return Ok(std::rc::Rc::new(crate::io::Stream::Null));
    }
    let mode = 0o666 & !ctx.shell.umask();
    let options = if append { crate::fs::OpenOptions::write_append(mode) } else { crate::fs::OpenOptions::write_truncate(mode) };
    let handle = ctx.fs.open(&path, options).await?;
    let offset = if append { handle.metadata().await.map(|m| m.size).unwrap_or(0) } else { 0 };
    Ok(std::rc::Rc::new(crate::io::Stream::File(crate::io::FileStream {
        handle,
        offset: std::cell::Cell::new(offset),
        readable: false,
        writable: true,
    })))
}

/// Streams every input's records (each with its terminator, the last one
/// maybe without) through `transform`, which appends what to write. An
/// input that cannot be opened is reported in `style` and makes the status 1;
/// `Err(status)` when writing failed.
pub async fn transform_records(
    ctx: &Invocation<'_>,
    operands: &[String],
    terminator: u8,
    style: OpenError,
    mut transform: impl FnMut(&[u8], &mut Vec<u8>),
) -> Result<i32, i32> {
    let mut out = crate::commands::text::output::Output::new(ctx);
    let mut status = 0;
    let mut converted = Vec::new();
    for input in crate::commands::common::inputs(operands) {
        let Some(stream) = open_or_report(ctx, &input, style).await else {
            status = 1;
            continue;
        };
        let mut reader = LineReader::new(stream, terminator);
        loop {
            match reader.next_record().await {
                Ok(Some(record)) => {
                    converted.clear();
                    transform(record, &mut converted);
                    out.write(&converted).await?;
                }
                Ok(None) => break,
                Err(()) => {
                    status = 1;
                    break;
                }
            }
        }
    }
    out.flush().await?;
    Ok(status)
}
