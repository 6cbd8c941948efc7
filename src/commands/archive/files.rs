//! Filesystem helpers the archive utilities share: writing a whole file
//! with a mode, making the directories on the way to a path, and streaming
//! a file in and out a chunk at a time.

use crate::fs::{Fs, FsError, OpenOptions};
use crate::utility::Invocation;

/// Creates or truncates `path` (absolute) and writes `data`; a created file
/// gets `mode` less the shell's umask.
pub async fn write_whole(ctx: &Invocation<'_>, path: &str, data: &[u8], mode: u32) -> Result<(), FsError> {
    let mask = ctx.shell.umask();
    let handle = ctx.fs.open(path, OpenOptions::write_truncate(mode & !mask & 0o7777)).await?;
    handle.write_at(0, data).await?;
    Ok(())
}

/// Creates each missing directory on the way to `dir` (absolute), like
/// `mkdir -p`, with mode 0777 less the umask.
pub async fn create_dirs(fs: &dyn Fs, dir: &str, umask: u32) -> Result<(), FsError> {
    let mut prefix = String::new();
    for part in dir.split('/').filter(|p| !p.is_empty()) {
        prefix.push('/');
        prefix.push_str(part);
        match fs.metadata(&prefix).await {
            Ok(metadata) if metadata.is_dir() => continue,
            Ok(_) => return Err(FsError::NotADirectory),
            Err(FsError::NotFound) => match fs.create_dir(&prefix, 0o777 & !umask).await {
                Ok(()) | Err(FsError::AlreadyExists) => {}
                Err(error) => return Err(error),
            },
            Err(error) => return Err(error),
        }
    }
    Ok(())
}

/// The parent directory of an absolute path (`/` for top-level names).
pub fn parent_of(path: &str) -> &str {
    match path.trim_end_matches('/').rfind('/') {
        Some(0) | None => "/",
        Some(index) => path.get(..index).unwrap_or("/"),
    }
}

/// Opens `path` (absolute) for reading as a stream, read a chunk at a time.
pub async fn open_read(ctx: &Invocation<'_>, path: &str) -> Result<crate::io::Fd, FsError> {
    let handle = ctx.fs.open(path, OpenOptions::read_only()).await?;
    Ok(std::rc::Rc::new(crate::io::Stream::File(crate::io::FileStream {
        handle,
        offset: std::cell::Cell::new(0),
        readable: true,
        writable: false,
    })))
}

/// Where streamed output goes: standard output, a file being written from
/// its start, or nowhere (`gzip -t`).
pub enum Sink {
    /// Standard output.
    Stdout,
    /// An open file and the offset of the next write.
    File(std::rc::Rc<dyn crate::fs::FileHandle>, u64),
    /// Output is dropped.
    Discard,
}

/// Why a [`Sink`] could not take more bytes.
#[derive(Debug)]
pub enum SinkError {
    /// Standard output failed (a closed pipe, an output limit).
    Stdout(crate::io::IoError),
    /// The file could not be written (a quota, a full filesystem).
    File(FsError),
}

impl Sink {
    /// Creates or truncates `path` (absolute) for writing, with `mode` less
    /// the shell's umask.
    pub async fn create(ctx: &Invocation<'_>, path: &str, mode: u32) -> Result<Sink, FsError> {
        let mask = ctx.shell.umask();
        let handle = ctx.fs.open(path, OpenOptions::write_truncate(mode & !mask & 0o7777)).await?;
        Ok(Sink::File(handle, 0))
    }

    /// Writes all of `data`.
    pub async fn put(&mut self, ctx: &Invocation<'_>, data: &[u8]) -> Result<(), SinkError> {
        match self {
            Sink::Stdout => ctx.write_out(data).await.map_err(SinkError::Stdout),
            Sink::File(handle, offset) => {
                *offset = handle.write_at(*offset, data).await.map_err(SinkError::File)?;
                Ok(())
            }
            Sink::Discard => Ok(()),
        }
    }
}
