//! `--mount HOSTDIR:SANDBOXDIR`: copies a host directory tree into the
//! sandbox before the script runs. The host side is only ever read; symbolic
//! links are skipped so a link cannot pull in files from outside the tree.

use std::path::{Path, PathBuf};
use wabash::fs::{layout, path, MemoryFs};

/// Most files one mount may copy.
const MAX_FILES: usize = 100_000;
/// Most bytes one mount may copy.
const MAX_BYTES: u64 = 512 << 20;

/// A host directory read into memory, ready to copy into a sandbox.
pub struct LoadedMount {
    /// Sandbox directories to create, parents first.
    directories: Vec<String>,
    /// Sandbox files and their contents.
    files: Vec<(String, Vec<u8>)>,
}

/// Reads the host directory named by `spec` (`HOSTDIR:SANDBOXDIR`).
pub fn load(spec: &str) -> Result<LoadedMount, String> {
    let (host, sandbox) = spec.rsplit_once(':').ok_or_else(|| format!("--mount {spec}: expected HOSTDIR:SANDBOXDIR"))?;
    if !sandbox.starts_with('/') {
        return Err(format!("--mount {spec}: the sandbox directory must be absolute"));
    }
    let root = path::normalize("/", sandbox);
    let mut loaded = LoadedMount { directories: vec![root.clone()], files: Vec::new() };
    let mut total = 0u64;
    let mut pending: Vec<(PathBuf, String)> = vec![(PathBuf::from(host), root)];
    while let Some((host_dir, sandbox_dir)) = pending.pop() {
        let mut entries: Vec<_> = read_dir(&host_dir)?;
        entries.sort_by_key(|entry| entry.file_name());
        for entry in entries {
            let name = entry.file_name().to_string_lossy().into_owned();
            let target = path::join(&sandbox_dir, &name);
            let kind = entry.file_type().map_err(|error| format!("{}: {error}", entry.path().display()))?;
            if kind.is_dir() {
                loaded.directories.push(target.clone());
                pending.push((entry.path(), target));
            } else if kind.is_file() {
                let bytes = std::fs::read(entry.path()).map_err(|error| format!("{}: {error}", entry.path().display()))?;
                total += bytes.len() as u64;
                if loaded.files.len() >= MAX_FILES || total > MAX_BYTES {
                    return Err(format!("--mount {spec}: more than {MAX_FILES} files or {MAX_BYTES} bytes"));
                }
                loaded.files.push((target, bytes));
            }
        }
    }
    Ok(loaded)
}

fn read_dir(dir: &Path) -> Result<Vec<std::fs::DirEntry>, String> {
    let iterator = std::fs::read_dir(dir).map_err(|error| format!("{}: {error}", dir.display()))?;
    iterator.collect::<Result<_, _>>().map_err(|error| format!("{}: {error}", dir.display()))
}

impl LoadedMount {
    /// Creates the directories and files in the sandbox filesystem, with
    /// the host's rights, owned by the sandbox user.
    pub async fn copy_into(&self, fs: &MemoryFs) -> Result<(), String> {
        for directory in &self.directories {
            layout::try_create_dir_with_parents(fs, directory).await.map_err(|error| format!("{directory}: {error}"))?;
        }
        for (file, bytes) in &self.files {
            layout::try_write_with_parents(fs, file, bytes).await.map_err(|error| format!("{file}: {error}"))?;
        }
        Ok(())
    }
}
