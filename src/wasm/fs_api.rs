//! The rest of `bash.fs` on [`WasmSandbox`]: `stat`/`lstat`, `rm`,
//! `rename`, `readdir` with types, and `changes()` since a checkpoint. The
//! host acts with full rights (as root), like the other file methods.

use super::error::fs_error;
use super::run::{self, RunId};
use super::sandbox::WasmSandbox;
use crate::fs::{FileType, Fs, FsError, FsResult, Metadata};
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// `stat` as the wrapper returns it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct StatOutput {
    #[serde(rename = "type")]
    kind: &'static str,
    size: f64,
    mode: u32,
    nlink: f64,
    uid: u32,
    gid: u32,
    ino: f64,
    atime_ms: f64,
    mtime_ms: f64,
    ctime_ms: f64,
}

/// One entry of `readdir(path, { withFileTypes: true })`.
#[derive(Serialize)]
struct EntryOutput {
    name: String,
    #[serde(rename = "type")]
    kind: &'static str,
}

/// `changes()`: the sorted paths created, modified and deleted.
#[derive(Serialize)]
struct ChangesOutput {
    created: Vec<String>,
    modified: Vec<String>,
    deleted: Vec<String>,
}

/// The name the wrapper uses for a node's kind.
fn kind_name(file_type: FileType) -> &'static str {
    match file_type {
        FileType::File => "file",
        FileType::Directory => "directory",
        FileType::Symlink => "symlink",
        FileType::CharDevice => "device",
        FileType::Fifo => "fifo",
    }
}

fn stat_output(meta: &Metadata) -> StatOutput {
    StatOutput {
        kind: kind_name(meta.file_type),
        size: meta.size as f64,
        mode: meta.mode,
        nlink: meta.nlink as f64,
        uid: meta.uid,
        gid: meta.gid,
        ino: meta.ino as f64,
        atime_ms: meta.atime,
        mtime_ms: meta.mtime,
        ctime_ms: meta.ctime,
    }
}

fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::new())
        .map_err(|error| super::error::js_error(super::error::INTERNAL, &format!("cannot convert: {error}")))
}

/// Removes `path` and, when it is a directory, everything below it
/// (without following symlinks).
async fn remove_tree(fs: &dyn Fs, path: &str) -> FsResult<()> {
    let meta = fs.symlink_metadata(path).await?;
    if !meta.is_dir() {
        return fs.remove_file(path).await;
    }
    // Depth-first without recursion: directories are removed once empty.
    let mut stack = vec![(path.to_string(), false)];
    while let Some((dir, listed)) = stack.pop() {
        if listed {
            fs.remove_dir(&dir).await?;
            continue;
        }
        stack.push((dir.clone(), true));
        for entry in fs.read_dir(&dir).await? {
            let child = crate::fs::path::join(&dir, &entry.name);
            if entry.file_type == FileType::Directory {
                stack.push((child, false));
            } else {
                fs.remove_file(&child).await?;
            }
        }
    }
    Ok(())
}

#[wasm_bindgen]
impl WasmSandbox {
    /// `stat` (following symlinks) or `lstat` of a path.
    pub fn stat(&self, path: String, follow: bool) -> RunId {
        let (fs, path) = self.resolve_as_root(&path);
        run::spawn(async move {
            let meta = if follow { fs.metadata(&path).await } else { fs.symlink_metadata(&path).await };
            let meta = meta.map_err(|error| fs_error(error, if follow { "stat" } else { "lstat" }, &path))?;
            to_js(&stat_output(&meta))
        })
    }

    /// Removes a file, or a directory (empty, or with `recursive` its whole
    /// tree); with `force` a missing path is not an error.
    pub fn rm(&self, path: String, recursive: bool, force: bool) -> RunId {
        let (fs, path) = self.resolve_as_root(&path);
        run::spawn(async move {
            let outcome = match fs.symlink_metadata(&path).await {
                Err(FsError::NotFound) if force => Ok(()),
                Err(error) => Err(error),
                Ok(meta) if meta.is_dir() && !recursive => Err(FsError::IsADirectory),
                Ok(_) => remove_tree(fs.as_ref(), &path).await,
            };
            outcome.map_err(|error| fs_error(error, "rm", &path))?;
            Ok(JsValue::UNDEFINED)
        })
    }

    /// Renames a file or directory (replacing a file at the target, as `rename(2)`).
    pub fn rename(&self, from: String, to: String) -> RunId {
        let (fs, from) = self.resolve_as_root(&from);
        let (_, to) = self.resolve_as_root(&to);
        run::spawn(async move {
            fs.rename(&from, &to).await.map_err(|error| fs_error(error, "rename", &from))?;
            Ok(JsValue::UNDEFINED)
        })
    }

    /// The entries of a directory with their kinds, sorted by name.
    #[wasm_bindgen(js_name = readdirTypes)]
    pub fn readdir_types(&self, path: String) -> RunId {
        let (fs, path) = self.resolve_as_root(&path);
        run::spawn(async move {
            let mut entries = fs.read_dir(&path).await.map_err(|error| fs_error(error, "scandir", &path))?;
            entries.sort_by(|a, b| a.name.cmp(&b.name));
            let out: Vec<EntryOutput> = entries.into_iter().map(|e| EntryOutput { name: e.name, kind: kind_name(e.file_type) }).collect();
            to_js(&out)
        })
    }

    /// Paths created, modified and deleted since the last `checkpoint()`
    /// (or since the sandbox was made); a run that has already finished.
    #[wasm_bindgen(js_name = changesNow)]
    pub fn changes_now(&self) -> RunId {
        let changes = self.changes_since_checkpoint();
        run::settled(to_js(&ChangesOutput { created: changes.created, modified: changes.modified, deleted: changes.deleted }))
    }

    /// Makes now the point `changes()` compares with; a finished run.
    #[wasm_bindgen(js_name = checkpointNow)]
    pub fn checkpoint_now(&self) -> RunId {
        self.set_checkpoint();
        run::settled(Ok(JsValue::UNDEFINED))
    }
}
