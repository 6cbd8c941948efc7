//! Physical path resolution for filesystems assembled from others (the
//! mount table, the overlay, host-backed directories). They cannot hand the
//! whole walk to one inner filesystem, because a symlink or a `..` may lead
//! from one part into another, so they walk here component by component
//! over a [`RawTree`]: a `lstat` and `readlink` of canonical paths (absolute,
//! without symlinks, `.` or `..`). The rules are those of the in-memory
//! walk: search permission on every directory, symlinks followed up to
//! Linux's 40, `..` never above `/`, trailing `/` requiring a directory.

use super::path::{validate, MAX_PATH_LEN};
use super::perm::{Access, Credentials};
use super::{FileType, FsError, FsResult, Metadata};
use crate::fs::memory::MAX_SYMLINK_FOLLOWS;
use async_trait::async_trait;

/// The two questions a walk asks of a tree, about canonical paths only.
#[async_trait(?Send)]
pub trait RawTree {
    /// `lstat` of a canonical path.
    async fn raw_lstat(&self, path: &str) -> FsResult<Metadata>;

    /// The target of the symlink at a canonical path.
    async fn raw_readlink(&self, path: &str) -> FsResult<String>;
}

/// Where a walk led.
#[derive(Debug, Clone, PartialEq)]
pub struct Resolved {
    /// The canonical path reached (`/` for the root).
    pub path: String,
    /// Its metadata, `None` when only the final component is missing.
    pub meta: Option<Metadata>,
    /// The path ended with `/`: the result must be a directory.
    pub dir_required: bool,
    /// The path ended with `.` or `..` (or was `/`): it names a directory
    /// by a name that cannot be created, removed or renamed.
    pub dot: bool,
}

impl Resolved {
    /// The metadata, or ENOENT.
    pub fn existing(&self) -> FsResult<&Metadata> {
        self.meta.as_ref().ok_or(FsError::NotFound)
    }

    /// The parent directory's canonical path (`/` for `/`).
    pub fn parent(&self) -> &str {
        match self.path.rfind('/') {
            Some(0) | None => "/",
            Some(index) => self.path.get(..index).unwrap_or("/"),
        }
    }
}

/// Pops the last component of a canonical path kept without the leading
/// `/` of the root (the empty string is `/`).
fn pop_component(canonical: &mut String) {
    match canonical.rfind('/') {
        Some(index) => canonical.truncate(index),
        None => canonical.clear(),
    }
}

fn as_path(canonical: &str) -> &str {
    if canonical.is_empty() {
        "/"
    } else {
        canonical
    }
}

/// Walks `path` over `tree` as `user`. With `follow_last`, a final symlink
/// is followed (a trailing `/` always follows it). `max_depth` bounds the
/// directory levels below `/`.
pub async fn resolve<T: RawTree + ?Sized>(
    tree: &T,
    path: &str,
    follow_last: bool,
    user: Credentials,
    max_depth: usize,
) -> FsResult<Resolved> {
    validate(path)?;
    if !path.starts_with('/') {
        return Err(FsError::InvalidArgument);
    }
    let dir_required = path.len() > 1 && path.ends_with('/');
    let follow_final = follow_last || dir_required;
    // Segments still to read, last first: the path, then symlink targets.
    let mut segments: Vec<(String, usize)> = vec![(path.to_string(), 0)];
    let mut canonical = String::new();
    let mut dir_meta = tree.raw_lstat("/").await?;
    let mut follows = 0usize;
    let mut dot = true;
    loop {
        let Some((component, is_last)) = next(&mut segments) else {
            return Ok(Resolved { path: as_path(&canonical).to_string(), meta: Some(dir_meta), dir_required, dot });
        };
        if dir_meta.file_type != FileType::Directory {
            return Err(FsError::NotADirectory);
        }
        if !user.allows_meta(Access::EXECUTE, &dir_meta) {
            return Err(FsError::PermissionDenied);
        }
        match component.as_str() {
            "." => {
                dot = true;
                continue;
            }
            ".." => {
                dot = true;
                pop_component(&mut canonical);
                dir_meta = tree.raw_lstat(as_path(&canonical)).await?;
                continue;
            }
            _ => {}
        }
        dot = false;
        let mut candidate = String::with_capacity(canonical.len() + 1 + component.len());
        candidate.push_str(&canonical);
        candidate.push('/');
        candidate.push_str(&component);
        if candidate.len() > MAX_PATH_LEN {
            return Err(FsError::NameTooLong);
        }
        if candidate.matches('/').count() > max_depth {
            return Err(FsError::NameTooLong);
        }
        let meta = match tree.raw_lstat(&candidate).await {
            Ok(meta) => meta,
            Err(FsError::NotFound) if is_last => {
                return Ok(Resolved { path: candidate, meta: None, dir_required, dot: false });
            }
            Err(error) => return Err(error),
        };
        if meta.file_type == FileType::Symlink && (!is_last || follow_final) {
            follows += 1;
            if follows > MAX_SYMLINK_FOLLOWS {
                return Err(FsError::TooManyLinks);
            }
            let target = tree.raw_readlink(&candidate).await?;
            if target.is_empty() {
                return Err(FsError::NotFound);
            }
            if target.starts_with('/') {
                canonical.clear();
                dir_meta = tree.raw_lstat("/").await?;
            }
            dot = true;
            segments.push((target, 0));
            continue;
        }
        if is_last {
            if dir_required && meta.file_type != FileType::Directory {
                return Err(FsError::NotADirectory);
            }
            return Ok(Resolved { path: candidate, meta: Some(meta), dir_required, dot: false });
        }
        canonical = candidate;
        dir_meta = meta;
    }
}

/// The next component and whether it is the last one of all segments.
fn next(segments: &mut Vec<(String, usize)>) -> Option<(String, bool)> {
    let component = loop {
        let (text, pos) = segments.last_mut()?;
        let rest = text.get(*pos..).unwrap_or("");
        let skipped = rest.len() - rest.trim_start_matches('/').len();
        let start = *pos + skipped;
        let rest = text.get(start..).unwrap_or("");
        if rest.is_empty() {
            segments.pop();
            continue;
        }
        let len = rest.find('/').unwrap_or(rest.len());
        let component = rest.get(..len).unwrap_or("").to_string();
        *pos = start + len;
        break component;
    };
    let is_last = segments.iter().all(|(text, pos)| text.get(*pos..).unwrap_or("").trim_matches('/').is_empty());
    Some((component, is_last))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn components_come_in_order_with_the_last_marked() {
        let mut segments = vec![("/a//b/".to_string(), 0)];
        assert_eq!(next(&mut segments), Some(("a".to_string(), false)));
        assert_eq!(next(&mut segments), Some(("b".to_string(), true)));
        assert_eq!(next(&mut segments), None);
    }

    #[test]
    fn parents_of_canonical_paths() {
        let resolved = |path: &str| Resolved { path: path.to_string(), meta: None, dir_required: false, dot: false };
        assert_eq!(resolved("/a/b").parent(), "/a");
        assert_eq!(resolved("/a").parent(), "/");
        assert_eq!(resolved("/").parent(), "/");
    }
}
