//! Physical path resolution over the inode table: one pass over the
//! components, searching each directory (which needs its execute bit),
//! following symlinks up to [`MAX_SYMLINK_FOLLOWS`], taking `..` along the
//! real parent chain (never above `/`) and enforcing the depth limit. The
//! common case (no symlinks) allocates nothing.

use super::node::{NodeKind, State, ROOT};
use super::{MemoryFs, MAX_SYMLINK_FOLLOWS};
use crate::fs::path::validate;
use crate::fs::perm::Access;
use crate::fs::{FsError, FsResult};
use std::borrow::Cow;

/// Where a path leads: the directory holding the final name, the name, and
/// the node it names (if any).
#[derive(Debug)]
pub(crate) struct Lookup<'p> {
    /// The directory the final component was looked up in.
    pub parent: u64,
    /// The final component (`.` when the path ends at a directory through
    /// `.`, `..`, `/` or a symlink to one).
    pub name: Cow<'p, str>,
    /// The node the name holds, if any.
    pub node: Option<u64>,
    /// The path ended with `/`: the result must be a directory.
    pub dir_required: bool,
    /// Directory levels below `/` of the final node's position.
    pub depth: usize,
}

impl Lookup<'_> {
    /// The node, or ENOENT.
    pub fn existing(&self) -> FsResult<u64> {
        self.node.ok_or(FsError::NotFound)
    }

    /// True when the final component is `.` or `..` (or the path is `/`).
    pub fn is_dot(&self) -> bool {
        self.name == "." || self.name == ".."
    }
}

/// The next non-empty component of `text` from byte `pos`: its range.
fn next_component(text: &str, pos: usize) -> Option<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut start = pos;
    while start < bytes.len() && bytes.get(start) == Some(&b'/') {
        start += 1;
    }
    if start >= bytes.len() {
        return None;
    }
    let end = text.get(start..).and_then(|rest| rest.find('/')).map_or(bytes.len(), |i| start + i);
    Some((start, end))
}

/// The components still to read: the path itself, then the targets of the
/// symlinks met on the way (only those allocate).
struct Cursor<'p> {
    base: &'p str,
    base_pos: usize,
    links: Vec<(String, usize)>,
}

impl Cursor<'_> {
    /// The text of segment `index` (0 is the path, then symlink targets).
    fn text(&self, index: usize) -> &str {
        match index.checked_sub(1) {
            None => self.base,
            Some(link) => self.links.get(link).map_or("", |(text, _)| text.as_str()),
        }
    }

    /// Moves past the next component: its segment and byte range.
    fn advance(&mut self) -> Option<(usize, usize, usize)> {
        while let Some((text, pos)) = self.links.last_mut() {
            if let Some((start, end)) = next_component(text, *pos) {
                *pos = end;
                return Some((self.links.len(), start, end));
            }
            self.links.pop();
        }
        let (start, end) = next_component(self.base, self.base_pos)?;
        self.base_pos = end;
        Some((0, start, end))
    }

    /// True when no component is left in any segment.
    fn is_exhausted(&self) -> bool {
        self.links.iter().all(|(text, pos)| next_component(text, *pos).is_none()) && next_component(self.base, self.base_pos).is_none()
    }
}

impl MemoryFs {
    /// Walks `path`. With `follow_last`, a symlink in the final position is
    /// followed too (a trailing `/` always follows it).
    pub(crate) fn lookup<'p>(&self, state: &State, path: &'p str, follow_last: bool) -> FsResult<Lookup<'p>> {
        validate(path)?;
        if !path.starts_with('/') {
            return Err(FsError::InvalidArgument);
        }
        let dir_required = path.len() > 1 && path.ends_with('/');
        let follow_final = follow_last || dir_required;
        let max_depth = state.limits.max_depth;
        let mut cursor = Cursor { base: path, base_pos: 0, links: Vec::new() };
        let mut current = ROOT;
        let mut depth = 0usize;
        let mut follows = 0usize;
        let mut result = Lookup { parent: ROOT, name: Cow::Borrowed("."), node: Some(ROOT), dir_required, depth: 0 };
        loop {
            let Some((seg_index, start, end)) = cursor.advance() else {
                // The path ended at a directory reached through `..`, `.`,
                // `/` or a symlink: it names `current` itself.
                result.node = Some(current);
                if result.name != "." && result.name != ".." {
                    result.parent = current;
                    result.name = Cow::Borrowed(".");
                }
                result.depth = depth;
                return Ok(result);
            };
            let is_last = cursor.is_exhausted();
            let dir = state.node(current)?;
            let Some(entries) = dir.entries() else {
                return Err(FsError::NotADirectory);
            };
            self.check(dir, Access::EXECUTE)?;
            let component: &str = cursor.text(seg_index).get(start..end).unwrap_or("");
            match component {
                "." => {
                    result = Lookup { parent: current, name: Cow::Borrowed("."), node: Some(current), dir_required, depth };
                    continue;
                }
                ".." => {
                    if let NodeKind::Directory { parent, .. } = &dir.kind {
                        result = Lookup { parent: current, name: Cow::Borrowed(".."), node: Some(*parent), dir_required, depth };
                        current = *parent;
                        depth = depth.saturating_sub(1);
                    }
                    continue;
                }
                _ => {}
            }
            let child = entries.get(component).copied();
            let name: Cow<'p, str> =
                if seg_index == 0 { Cow::Borrowed(path.get(start..end).unwrap_or("")) } else { Cow::Owned(component.to_string()) };
            let Some(ino) = child else {
                if !is_last {
                    return Err(FsError::NotFound);
                }
                if depth + 1 > max_depth {
                    return Err(FsError::NameTooLong);
                }
                return Ok(Lookup { parent: current, name, node: None, dir_required, depth: depth + 1 });
            };
            let node = state.node(ino)?;
            if let NodeKind::Symlink(target) = &node.kind {
                if !is_last || follow_final {
                    follows += 1;
                    if follows > MAX_SYMLINK_FOLLOWS {
                        return Err(FsError::TooManyLinks);
                    }
                    if target.is_empty() {
                        return Err(FsError::NotFound);
                    }
                    if target.starts_with('/') {
                        current = ROOT;
                        depth = 0;
                    }
                    result = Lookup { parent: current, name: Cow::Borrowed("."), node: Some(current), dir_required, depth };
                    cursor.links.push((target.clone(), 0));
                    continue;
                }
            }
            if depth + 1 > max_depth {
                return Err(FsError::NameTooLong);
            }
            if is_last {
                if dir_required && !node.is_dir() {
                    return Err(FsError::NotADirectory);
                }
                return Ok(Lookup { parent: current, name, node: Some(ino), dir_required, depth: depth + 1 });
            }
            current = ino;
            depth += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::next_component;

    #[test]
    fn components_skip_repeated_slashes() {
        assert_eq!(next_component("//a//bc/", 0), Some((2, 3)));
        assert_eq!(next_component("//a//bc/", 3), Some((5, 7)));
        assert_eq!(next_component("//a//bc/", 7), None);
        assert_eq!(next_component("", 0), None);
    }
}
