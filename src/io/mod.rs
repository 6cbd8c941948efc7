//! Byte streams behind file descriptors: pipes, open files, captured output
//! and fixed input. A [`Stream`] is an open file description; the shell's fd
//! table maps numbers to shared streams, so `2>&1` makes two numbers share one.

pub mod pipe;

use crate::fs::{FileHandle, FsError};
use pipe::{PipeReader, PipeWriter};
use std::cell::{Cell, RefCell};
use std::fmt;
use std::rc::Rc;

/// Why a read or write on a stream failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IoError {
    /// EPIPE: the reading end of a pipe is closed.
    BrokenPipe,
    /// EBADF: the stream is not open in this direction.
    BadDescriptor,
    /// The filesystem refused the operation.
    Fs(FsError),
    /// The output limit of the run was reached.
    OutputLimit,
}

impl fmt::Display for IoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IoError::BrokenPipe => f.write_str("Broken pipe"),
            IoError::BadDescriptor => f.write_str("Bad file descriptor"),
            IoError::Fs(error) => write!(f, "{error}"),
            IoError::OutputLimit => f.write_str("output limit exceeded"),
        }
    }
}

impl From<FsError> for IoError {
    fn from(error: FsError) -> Self {
        IoError::Fs(error)
    }
}

/// Receives output bytes as they are produced (the host's `onStdout`).
pub trait OutputSink {
    /// Called with each chunk written.
    fn write(&self, data: &[u8]);
}

/// Captured output: the bytes written so far, with an optional live sink and
/// a byte limit shared by the whole run.
pub struct Capture {
    /// Everything written so far.
    pub bytes: RefCell<Vec<u8>>,
    sink: Option<Rc<dyn OutputSink>>,
    limit: usize,
    overflowed: Cell<bool>,
}

impl Capture {
    /// A capture that keeps at most `limit` bytes and forwards to `sink`.
    pub fn new(limit: usize, sink: Option<Rc<dyn OutputSink>>) -> Rc<Self> {
        Rc::new(Capture { bytes: RefCell::new(Vec::new()), sink, limit, overflowed: Cell::new(false) })
    }

    /// True once a write was refused for going past the limit (the shell
    /// then reports the limit: a cut is never silent).
    pub fn overflowed(&self) -> bool {
        self.overflowed.get()
    }

    /// The byte limit.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// Takes the captured bytes, leaving the capture empty.
    pub fn take(&self) -> Vec<u8> {
        std::mem::take(&mut self.bytes.borrow_mut())
    }
}

/// An open file on the filesystem with its own offset.
pub struct FileStream {
    /// The open node.
    pub handle: Rc<dyn FileHandle>,
    /// The current offset (ignored for appends).
    pub offset: Cell<u64>,
    /// Whether reading is allowed.
    pub readable: bool,
    /// Whether writing is allowed.
    pub writable: bool,
}

/// An open file description.
pub enum Stream {
    /// The read end of a pipe (`cmd |` to the next stage).
    PipeReader(PipeReader),
    /// The write end of a pipe.
    PipeWriter(PipeWriter),
    /// A file opened by a redirection.
    File(FileStream),
    /// Output collected in memory (command substitution, the run's stdout).
    Capture(Rc<Capture>),
    /// Fixed input (here-documents, here-strings, the run's stdin) and a read position.
    Input(Rc<[u8]>, Cell<usize>),
    /// `/dev/null`-like: reads are empty, writes vanish.
    Null,
}

/// A shared reference to an open file description.
pub type Fd = Rc<Stream>;

/// Largest chunk a single read returns.
pub const READ_CHUNK: usize = 64 * 1024;

impl Stream {
    /// A stream of fixed input bytes.
    pub fn input(bytes: impl Into<Rc<[u8]>>) -> Fd {
        Rc::new(Stream::Input(bytes.into(), Cell::new(0)))
    }

    /// Reads up to `max` bytes; empty means end of file.
    pub async fn read(&self, max: usize) -> Result<Vec<u8>, IoError> {
        match self {
            Stream::PipeReader(reader) => Ok(reader.read(max).await),
            Stream::File(file) if file.readable => {
                let data = file.handle.read_at(file.offset.get(), max).await?;
                file.offset.set(file.offset.get() + data.len() as u64);
                Ok(data)
            }
            Stream::Input(bytes, position) => {
                let start = position.get();
                let end = (start + max).min(bytes.len());
                position.set(end);
                Ok(bytes[start..end].to_vec())
            }
            Stream::Null => Ok(Vec::new()),
            _ => Err(IoError::BadDescriptor),
        }
    }

    /// Reads through the first `delimiter` (included) or `max` bytes without
    /// consuming past it, so the next reader sees the rest.
    pub async fn read_until(&self, delimiter: u8, max: usize) -> Result<Vec<u8>, IoError> {
        match self {
            Stream::PipeReader(reader) => Ok(reader.read_until(delimiter, max).await),
            Stream::File(file) if file.readable => {
                let mut out = Vec::new();
                // Lines are mostly short: read a little first and more only
                // when no delimiter came, rather than 4 KiB per line.
                let mut want = 128;
                loop {
                    let chunk = file.handle.read_at(file.offset.get(), want).await?;
                    want = (want * 2).min(4096);
                    if chunk.is_empty() {
                        return Ok(out);
                    }
                    let room = max - out.len();
                    let take = match chunk.iter().take(room).position(|&b| b == delimiter) {
                        Some(index) => index + 1,
                        None => chunk.len().min(room),
                    };
                    out.extend_from_slice(&chunk[..take]);
                    file.offset.set(file.offset.get() + take as u64);
                    if out.last() == Some(&delimiter) || out.len() >= max {
                        return Ok(out);
                    }
                }
            }
            Stream::Input(bytes, position) => {
                let start = position.get();
                let rest = &bytes[start..];
                let limit = rest.len().min(max);
                let take = match rest[..limit].iter().position(|&b| b == delimiter) {
                    Some(index) => index + 1,
                    None => limit,
                };
                position.set(start + take);
                Ok(rest[..take].to_vec())
            }
            Stream::Null => Ok(Vec::new()),
            _ => Err(IoError::BadDescriptor),
        }
    }

    /// Reads everything to end of file.
    pub async fn read_to_end(&self) -> Result<Vec<u8>, IoError> {
        let mut out = Vec::new();
        loop {
            let chunk = self.read(READ_CHUNK).await?;
            if chunk.is_empty() {
                return Ok(out);
            }
            out.extend_from_slice(&chunk);
        }
    }

    /// Writes all of `data`.
    pub async fn write(&self, data: &[u8]) -> Result<(), IoError> {
        match self {
            Stream::PipeWriter(writer) => writer.write(data).await,
            Stream::File(file) if file.writable => {
                let end = file.handle.write_at(file.offset.get(), data).await?;
                file.offset.set(end);
                Ok(())
            }
            Stream::Capture(capture) => {
                let mut bytes = capture.bytes.borrow_mut();
                if bytes.len() + data.len() > capture.limit {
                    capture.overflowed.set(true);
                    return Err(IoError::OutputLimit);
                }
                bytes.extend_from_slice(data);
                drop(bytes);
                if let Some(sink) = &capture.sink {
                    sink.write(data);
                }
                Ok(())
            }
            Stream::Null => Ok(()),
            _ => Err(IoError::BadDescriptor),
        }
    }

    /// True when the stream can be read (for `read -u`, `<&N` checks).
    pub fn is_readable(&self) -> bool {
        match self {
            Stream::PipeReader(_) | Stream::Input(..) | Stream::Null => true,
            Stream::File(file) => file.readable,
            _ => false,
        }
    }

    /// True when the stream can be written.
    pub fn is_writable(&self) -> bool {
        match self {
            Stream::PipeWriter(_) | Stream::Capture(_) | Stream::Null => true,
            Stream::File(file) => file.writable,
            _ => false,
        }
    }
}
