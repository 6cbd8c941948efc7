//! Path rules shared by the shell and every filesystem: joining a path to the
//! working directory and normalizing `.` and `..` lexically, where `..` never
//! climbs above `/`.

use super::{FsError, FsResult};

/// Longest allowed path component, in bytes (Linux NAME_MAX).
pub const MAX_COMPONENT_LEN: usize = 255;
/// Longest allowed path, in bytes (Linux PATH_MAX).
pub const MAX_PATH_LEN: usize = 4096;

/// Joins `path` to `cwd` when it is relative, without normalizing.
pub fn join(cwd: &str, path: &str) -> String {
    if path.starts_with('/') {
        path.to_string()
    } else if cwd.ends_with('/') {
        format!("{cwd}{path}")
    } else {
        format!("{cwd}/{path}")
    }
}

/// Resolves `path` against `cwd` and removes `.`, `..` and repeated slashes
/// lexically. `..` at the root stays at the root. Symlinks are not consulted:
/// the filesystem resolves them when it walks the result.
pub fn normalize(cwd: &str, path: &str) -> String {
    let joined = join(cwd, path);
    let mut parts: Vec<&str> = Vec::new();
    for part in joined.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            other => parts.push(other),
        }
    }
    let mut out = String::with_capacity(joined.len());
    for part in &parts {
        out.push('/');
        out.push_str(part);
    }
    if out.is_empty() {
        out.push('/');
    }
    out
}

/// Checks the Linux limits a path must meet before any lookup: no NUL byte
/// (EINVAL), no component over 255 bytes and no path over 4096 (ENAMETOOLONG).
pub fn validate(path: &str) -> FsResult<()> {
    // One pass over the bytes: this runs on every lookup.
    let mut component = 0usize;
    let mut too_long = path.len() > MAX_PATH_LEN;
    for byte in path.bytes() {
        match byte {
            0 => return Err(FsError::InvalidArgument),
            b'/' => component = 0,
            _ => {
                component += 1;
                too_long |= component > MAX_COMPONENT_LEN;
            }
        }
    }
    if too_long {
        return Err(FsError::NameTooLong);
    }
    Ok(())
}

/// Splits an absolute normalized path into its parent and final name;
/// `None` for `/`.
pub fn split_parent(path: &str) -> Option<(&str, &str)> {
    let trimmed = path.trim_end_matches('/');
    let slash = trimmed.rfind('/')?;
    let name = trimmed.get(slash + 1..)?;
    if name.is_empty() {
        return None;
    }
    let parent = if slash == 0 { "/" } else { trimmed.get(..slash)? };
    Some((parent, name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalizes_dots_and_never_leaves_root() {
        assert_eq!(normalize("/home/user", "../../../etc/./passwd"), "/etc/passwd");
        assert_eq!(normalize("/", ".."), "/");
        assert_eq!(normalize("/a/b", "c//d/"), "/a/b/c/d");
        assert_eq!(normalize("/a", "/x/../y"), "/y");
    }

    #[test]
    fn rejects_nul_and_long_names() {
        assert_eq!(validate("/a\0b"), Err(FsError::InvalidArgument));
        assert_eq!(validate(&format!("/{}", "x".repeat(256))), Err(FsError::NameTooLong));
        assert!(validate(&format!("/{}", "x".repeat(255))).is_ok());
    }

    #[test]
    fn splits_parent() {
        assert_eq!(split_parent("/a/b"), Some(("/a", "b")));
        assert_eq!(split_parent("/a"), Some(("/", "a")));
        assert_eq!(split_parent("/"), None);
    }
}
