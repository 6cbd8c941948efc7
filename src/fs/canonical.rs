//! Canonical absolute paths with every symlink resolved, as `readlink -f -e
//! -m` and `realpath` compute them, and paths relative to a directory.

use super::{Fs, FsError};

/// How much of the path must exist.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Existence {
    /// `-e`: every component.
    All,
    /// `-f` (and `realpath`'s default): all but the last.
    AllButLast,
    /// `-m`: none.
    None,
}

/// Symlinks followed before ELOOP.
const MAX_FOLLOWS: usize = 40;

/// Resolves `path` (absolute) component by component.
pub async fn canonicalize(fs: &dyn Fs, path: &str, existence: Existence) -> Result<String, FsError> {
    let mut pending: Vec<String> = path.split('/').filter(|c| !c.is_empty()).rev().map(str::to_string).collect();
    let mut resolved: Vec<String> = Vec::new();
    let mut follows = 0;
    let mut missing = false;
    while let Some(component) = pending.pop() {
        match component.as_str() {
            "." => continue,
            ".." => {
                resolved.pop();
                continue;
            }
            _ => {}
        }
        let candidate = format!("/{}", resolved.iter().chain(std::iter::once(&component)).cloned().collect::<Vec<_>>().join("/"));
        if missing {
            if existence != Existence::None {
                return Err(FsError::NotFound);
            }
            resolved.push(component);
            continue;
        }
        match fs.symlink_metadata(&candidate).await {
            Ok(metadata) if metadata.is_symlink() => {
                follows += 1;
                if follows > MAX_FOLLOWS {
                    return Err(FsError::TooManyLinks);
                }
                let target = fs.read_link(&candidate).await?;
                if target.starts_with('/') {
                    resolved.clear();
                }
                pending.extend(target.split('/').filter(|c| !c.is_empty()).rev().map(str::to_string));
            }
            Ok(metadata) => {
                if !metadata.is_dir() && !pending.is_empty() {
                    if existence == Existence::None {
                        resolved.push(component);
                        missing = true;
                        continue;
                    }
                    return Err(FsError::NotADirectory);
                }
                resolved.push(component);
            }
            Err(FsError::NotFound) => {
                let last = pending.is_empty();
                match existence {
                    Existence::All => return Err(FsError::NotFound),
                    Existence::AllButLast if !last => return Err(FsError::NotFound),
                    _ => {}
                }
                resolved.push(component);
                missing = true;
            }
            Err(error) => return Err(error),
        }
    }
    Ok(format!("/{}", resolved.join("/")))
}

/// `path` relative to `base` (both absolute and canonical): `../../f`, `.`.
pub fn relative_to(path: &str, base: &str) -> String {
    let path_parts: Vec<&str> = path.split('/').filter(|c| !c.is_empty()).collect();
    let base_parts: Vec<&str> = base.split('/').filter(|c| !c.is_empty()).collect();
    let common = path_parts.iter().zip(&base_parts).take_while(|(a, b)| a == b).count();
    let mut parts: Vec<&str> = vec![".."; base_parts.len() - common];
    parts.extend(path_parts.iter().skip(common));
    if parts.is_empty() {
        ".".to_string()
    } else {
        parts.join("/")
    }
}

/// True when `path` equals `base` or lies below it.
pub fn is_under(path: &str, base: &str) -> bool {
    base == "/" || path == base || path.starts_with(&format!("{base}/"))
}
