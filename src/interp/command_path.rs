//! Finding commands along `PATH`, and the command hash table that `hash`
//! shows: a name found once is remembered (with a hit count) until `hash -r`
//! or until `PATH` changes, as bash does.

use super::Shell;
use std::collections::BTreeMap;

/// A remembered command location.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HashedCommand {
    /// The path as found (`PATH` entry joined with the name).
    pub path: String,
    /// How many times the entry was used.
    pub hits: u32,
}

/// The `PATH` of `command -p` and of bash's defaults.
pub const DEFAULT_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// The command hash table, valid for one value of `PATH`.
#[derive(Debug, Clone, Default)]
pub struct CommandHash {
    /// Entries by command name.
    pub entries: BTreeMap<String, HashedCommand>,
    /// The `PATH` the entries were found with.
    path_value: Option<String>,
}

impl CommandHash {
    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.entries.clear();
    }
}

impl Shell {
    /// The hash table, emptied first when `PATH` changed since it was filled.
    pub(super) fn command_hash(&mut self) -> &mut CommandHash {
        let path = self.var("PATH");
        if self.command_hash.path_value != path {
            self.command_hash.entries.clear();
            self.command_hash.path_value = path;
        }
        &mut self.command_hash
    }

    /// Searches `PATH` for `name`: the first executable regular file, else
    /// the first regular file (which then fails with "Permission denied").
    pub(super) async fn search_path(&self, name: &str) -> Option<String> {
        self.search_path_in(&self.var("PATH")?, name).await
    }

    /// [`Shell::search_path`] over the directories of `path`.
    pub(super) async fn search_path_in(&self, path: &str, name: &str) -> Option<String> {
        let mut fallback = None;
        for dir in path.split(':') {
            let candidate = path_candidate(dir, name);
            let absolute = crate::fs::path::join(&self.cwd, &candidate);
            let Ok(metadata) = self.fs.metadata(&absolute).await else { continue };
            if !metadata.is_file() {
                continue;
            }
            if metadata.mode & 0o111 != 0 {
                return Some(candidate);
            }
            fallback.get_or_insert(candidate);
        }
        fallback
    }

    /// The first regular file called `name` along `PATH`, executable or not
    /// (where `source` looks).
    pub(super) async fn search_path_files(&self, name: &str) -> Option<String> {
        let path = self.var("PATH")?;
        for dir in path.split(':') {
            let candidate = path_candidate(dir, name);
            let absolute = crate::fs::path::join(&self.cwd, &candidate);
            if matches!(self.fs.metadata(&absolute).await, Ok(m) if m.is_file()) {
                return Some(candidate);
            }
        }
        None
    }

    /// Every executable regular file called `name` along `PATH` (`type -a`).
    pub(super) async fn search_path_all(&self, name: &str) -> Vec<String> {
        let mut found = Vec::new();
        let Some(path) = self.var("PATH") else { return found };
        for dir in path.split(':') {
            let candidate = path_candidate(dir, name);
            let absolute = crate::fs::path::join(&self.cwd, &candidate);
            if matches!(self.fs.metadata(&absolute).await, Ok(m) if m.is_file() && m.mode & 0o111 != 0) {
                found.push(candidate);
            }
        }
        found
    }

    /// The path `name` runs from: the hash table's entry (its hit count
    /// goes up) or a `PATH` search whose result is remembered.
    pub(super) async fn find_command_path(&mut self, name: &str) -> Option<String> {
        if let Some(entry) = self.command_hash().entries.get_mut(name) {
            entry.hits += 1;
            return Some(entry.path.clone());
        }
        let path = self.search_path(name).await?;
        self.command_hash.entries.insert(name.to_string(), HashedCommand { path: path.clone(), hits: 1 });
        Some(path)
    }

    /// The hashed path of `name`, if any (without counting a hit).
    pub(super) fn hashed_path(&mut self, name: &str) -> Option<String> {
        self.command_hash().entries.get(name).map(|entry| entry.path.clone())
    }

    /// Remembers `path` for `name` with no hits (`hash -p`).
    pub(super) fn hash_command(&mut self, name: &str, path: String, hits: u32) {
        self.command_hash().entries.insert(name.to_string(), HashedCommand { path, hits });
    }
}

/// `dir/name` for one `PATH` entry (an empty entry is the current directory).
fn path_candidate(dir: &str, name: &str) -> String {
    let dir = if dir.is_empty() { "." } else { dir };
    if dir.ends_with('/') {
        format!("{dir}{name}")
    } else {
        format!("{dir}/{name}")
    }
}
