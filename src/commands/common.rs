//! Helpers shared by utilities: reading the inputs named on the command line
//! (or standard input for none or `-`), writing with SIGPIPE semantics, and
//! finding programs in `PATH` (`which`, `env`, `timeout`, `find -exec`).

use crate::fs::{FsError, OpenOptions};
use crate::io::{Fd, READ_CHUNK};
use crate::utility::{write_failure_status, Invocation};

/// An input a utility reads: standard input or a named file.
pub enum Input {
    /// Standard input (no operands, or `-`).
    Stdin,
    /// A file, as named on the command line.
    File(String),
}

/// The inputs named by `operands`, standard input when there are none.
pub fn inputs(operands: &[String]) -> Vec<Input> {
    if operands.is_empty() {
        return vec![Input::Stdin];
    }
    operands.iter().map(|op| if op == "-" { Input::Stdin } else { Input::File(op.clone()) }).collect()
}

/// Opens an input as a stream. Directories give EISDIR, as `read(2)` would.
pub async fn open_input(ctx: &Invocation<'_>, input: &Input) -> Result<Fd, FsError> {
    match input {
        Input::Stdin => Ok(ctx.stdin.clone()),
        Input::File(name) => {
            if let Some(stream) = ctx.special_stream(name) {
                return Ok(stream);
            }
            let path = ctx.resolve(name);
            let metadata = ctx.fs.metadata(&path).await?;
            if metadata.is_dir() {
                return Err(FsError::IsADirectory);
            }
            let handle = ctx.fs.open(&path, OpenOptions::read_only()).await?;
            Ok(std::rc::Rc::new(crate::io::Stream::File(crate::io::FileStream {
                handle,
                offset: std::cell::Cell::new(0),
                readable: true,
                writable: false,
            })))
        }
    }
}

/// Copies a stream to standard output chunk by chunk. `Err(status)` when
/// the write failed (141 for a closed pipe).
pub async fn copy_to_stdout(ctx: &Invocation<'_>, source: &Fd) -> Result<(), i32> {
    loop {
        let chunk = match source.read(READ_CHUNK).await {
            Ok(chunk) => chunk,
            Err(_) => return Err(1),
        };
        if chunk.is_empty() {
            return Ok(());
        }
        ctx.write_out(&chunk).await.map_err(write_failure_status)?;
    }
}

/// The search path when `PATH` is unset.
pub const DEFAULT_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// True when `path` is an executable regular file.
pub async fn is_executable(ctx: &Invocation<'_>, path: &str) -> bool {
    match ctx.fs.metadata(path).await {
        Ok(metadata) => metadata.file_type == crate::fs::FileType::File && metadata.mode & 0o111 != 0,
        Err(_) => false,
    }
}

/// True when `name` is a program a process could run: a path to an
/// executable file, or an executable file in a `PATH` directory. Shell
/// functions and builtins without a file are not programs (`env f`,
/// `timeout 5 cd`, `find -exec f` fail as with GNU).
pub async fn program_exists(ctx: &Invocation<'_>, name: &str) -> bool {
    if name.is_empty() {
        return false;
    }
    if name.contains('/') {
        return is_executable(ctx, &ctx.resolve(name)).await;
    }
    let path = ctx.env_var("PATH").unwrap_or(DEFAULT_PATH).to_string();
    for dir in path.split(':') {
        let dir = if dir.is_empty() { "." } else { dir };
        if is_executable(ctx, &ctx.resolve(&format!("{}/{name}", dir.trim_end_matches('/')))).await {
            return true;
        }
    }
    false
}
