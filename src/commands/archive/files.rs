//! Filesystem helpers the archive utilities share: writing a whole file
//! with a mode, and making the directories on the way to a path.

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
