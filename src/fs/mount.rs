//! The mount table: a filesystem made of a root filesystem and others
//! mounted at paths, as Linux's. Paths are walked here across mounts (a
//! symlink may point into another mount; `..` from a mount's root leads
//! to the directory it is mounted on); each operation then goes to the
//! filesystem that owns the canonical path. Each mount has its own device
//! number; renames and hard links across mounts fail with EXDEV, and a mount
//! point cannot be removed or renamed (EBUSY).

use super::path::normalize;
use super::perm::{Access, Credentials};
use super::walk::{resolve, RawTree, Resolved};
use super::{DirEntry, FileHandle, FileType, Fs, FsError, FsResult, Metadata, OpenOptions, SpaceInfo};
use async_trait::async_trait;
use std::cell::RefCell;
use std::rc::Rc;

/// The first device number given to a mount.
const FIRST_MOUNT_DEVICE: u64 = 0x100;

/// One mounted filesystem.
#[derive(Clone)]
struct Mount {
    point: String,
    fs: Rc<dyn Fs>,
    dev: u64,
}

/// A root filesystem with others mounted on it.
pub struct MountFs {
    root: Rc<dyn Fs>,
    /// Longest mount point first, so the first match is the owner.
    mounts: RefCell<Vec<Mount>>,
    next_dev: std::cell::Cell<u64>,
    user: Credentials,
    max_depth: usize,
}

/// Which filesystem owns a canonical path, and the path within it.
struct Route<'a> {
    fs: Rc<dyn Fs>,
    inner: &'a str,
    /// The mount's device number; `None` for the root filesystem.
    dev: Option<u64>,
    /// The mount point owning the path (`/` for the root filesystem).
    point: String,
}

impl MountFs {
    /// A mount table over `root`, walking paths as `user` (the same user
    /// the inner filesystems run as).
    pub fn new(root: Rc<dyn Fs>, user: Credentials) -> Self {
        MountFs { root, mounts: RefCell::new(Vec::new()), next_dev: std::cell::Cell::new(FIRST_MOUNT_DEVICE), user, max_depth: 256 }
    }

    /// Sets the directory levels below `/` a walk may reach (ENAMETOOLONG
    /// past it; 256 by default).
    pub fn set_max_depth(&mut self, max_depth: usize) {
        self.max_depth = max_depth;
    }

    /// Mounts `fs` at `point` (an absolute path; its parent need not hold a
    /// directory of that name). EBUSY when something is mounted there.
    pub fn mount(&self, point: &str, fs: Rc<dyn Fs>) -> FsResult<()> {
        super::path::validate(point)?;
        if !point.starts_with('/') {
            return Err(FsError::InvalidArgument);
        }
        let point = normalize("/", point);
        if point == "/" {
            return Err(FsError::Busy);
        }
        let mut mounts = self.mounts.borrow_mut();
        if mounts.iter().any(|m| m.point == point) {
            return Err(FsError::Busy);
        }
        let dev = self.next_dev.get();
        self.next_dev.set(dev + 1);
        mounts.push(Mount { point, fs, dev });
        mounts.sort_by_key(|m| std::cmp::Reverse(m.point.len()));
        Ok(())
    }

    /// Removes the mount at `point`; EINVAL when nothing is mounted there,
    /// EBUSY while other mounts lie below it.
    pub fn unmount(&self, point: &str) -> FsResult<()> {
        let point = normalize("/", point);
        let mut mounts = self.mounts.borrow_mut();
        let index = mounts.iter().position(|m| m.point == point).ok_or(FsError::InvalidArgument)?;
        if mounts.iter().any(|m| is_below(&m.point, &point)) {
            return Err(FsError::Busy);
        }
        mounts.remove(index);
        Ok(())
    }

    /// The mount points, sorted.
    pub fn mount_points(&self) -> Vec<String> {
        let mut points: Vec<String> = self.mounts.borrow().iter().map(|m| m.point.clone()).collect();
        points.sort();
        points
    }

    fn route<'a>(&self, canonical: &'a str) -> Route<'a> {
        for mount in self.mounts.borrow().iter() {
            if canonical == mount.point {
                return Route { fs: mount.fs.clone(), inner: "/", dev: Some(mount.dev), point: mount.point.clone() };
            }
            if is_below(canonical, &mount.point) {
                let inner = canonical.get(mount.point.len()..).unwrap_or("/");
                return Route { fs: mount.fs.clone(), inner, dev: Some(mount.dev), point: mount.point.clone() };
            }
        }
        Route { fs: self.root.clone(), inner: canonical, dev: None, point: "/".to_string() }
    }

    fn is_mount_point(&self, canonical: &str) -> bool {
        self.mounts.borrow().iter().any(|m| m.point == canonical)
    }

    fn has_mounts_below(&self, canonical: &str) -> bool {
        self.mounts.borrow().iter().any(|m| is_below(&m.point, canonical))
    }

    async fn walk(&self, path: &str, follow_last: bool) -> FsResult<Resolved> {
        resolve(self, path, follow_last, self.user, self.max_depth).await
    }
}

/// True when `path` lies strictly below directory `dir`.
fn is_below(path: &str, dir: &str) -> bool {
    if dir == "/" {
        return path.len() > 1 && path.starts_with('/');
    }
    path.len() > dir.len() && path.starts_with(dir) && path.as_bytes().get(dir.len()) == Some(&b'/')
}

fn with_dev(mut meta: Metadata, dev: Option<u64>) -> Metadata {
    if let Some(dev) = dev {
        meta.dev = dev;
    }
    meta
}

#[async_trait(?Send)]
impl RawTree for MountFs {
    async fn raw_lstat(&self, path: &str) -> FsResult<Metadata> {
        let route = self.route(path);
        let meta = route.fs.symlink_metadata(route.inner).await?;
        Ok(with_dev(meta, route.dev))
    }

    async fn raw_readlink(&self, path: &str) -> FsResult<String> {
        let route = self.route(path);
        route.fs.read_link(route.inner).await
    }
}

#[async_trait(?Send)]
impl Fs for MountFs {
    async fn metadata(&self, path: &str) -> FsResult<Metadata> {
        self.walk(path, true).await?.existing().cloned()
    }

    async fn symlink_metadata(&self, path: &str) -> FsResult<Metadata> {
        self.walk(path, false).await?.existing().cloned()
    }

    async fn open(&self, path: &str, options: OpenOptions) -> FsResult<Rc<dyn FileHandle>> {
        let resolved = self.walk(path, !(options.create && options.exclusive)).await?;
        if resolved.meta.is_none() {
            if !options.create {
                return Err(FsError::NotFound);
            }
            if resolved.dir_required {
                return Err(FsError::IsADirectory);
            }
        }
        let route = self.route(&resolved.path);
        route.fs.open(route.inner, options).await
    }

    async fn read_dir(&self, path: &str) -> FsResult<Vec<DirEntry>> {
        let resolved = self.walk(path, true).await?;
        let route = self.route(&resolved.path);
        let mut entries = route.fs.read_dir(route.inner).await?;
        let children: Vec<Mount> = self
            .mounts
            .borrow()
            .iter()
            .filter(|m| super::path::split_parent(&m.point).is_some_and(|(parent, _)| parent == resolved.path))
            .cloned()
            .collect();
        for mount in children {
            let Some((_, name)) = super::path::split_parent(&mount.point) else {
                continue;
            };
            if entries.iter().any(|e| e.name == name) {
                entries.retain(|e| e.name != name);
            }
            let ino = mount.fs.symlink_metadata("/").await.map_or(0, |m| m.ino);
            entries.push(DirEntry { name: name.to_string(), file_type: FileType::Directory, ino });
        }
        entries.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(entries)
    }

    async fn create_dir(&self, path: &str, mode: u32) -> FsResult<()> {
        let resolved = self.walk(path, false).await?;
        if resolved.meta.is_some() {
            return Err(FsError::AlreadyExists);
        }
        let route = self.route(&resolved.path);
        route.fs.create_dir(route.inner, mode).await
    }

    async fn remove_file(&self, path: &str) -> FsResult<()> {
        let resolved = self.walk(path, false).await?;
        let meta = resolved.existing()?;
        if meta.is_dir() {
            return Err(FsError::IsADirectory);
        }
        let route = self.route(&resolved.path);
        route.fs.remove_file(route.inner).await
    }

    async fn remove_dir(&self, path: &str) -> FsResult<()> {
        let resolved = self.walk(path, false).await?;
        resolved.existing()?;
        if self.is_mount_point(&resolved.path) || resolved.path == "/" {
            return Err(FsError::Busy);
        }
        if self.has_mounts_below(&resolved.path) {
            return Err(FsError::DirectoryNotEmpty);
        }
        let route = self.route(&resolved.path);
        route.fs.remove_dir(route.inner).await
    }

    async fn rename(&self, from: &str, to: &str) -> FsResult<()> {
        let source = self.walk(from, false).await?;
        source.existing()?;
        let target = self.walk(to, false).await?;
        for path in [&source.path, &target.path] {
            if self.is_mount_point(path) || self.has_mounts_below(path) || path == "/" {
                return Err(FsError::Busy);
            }
        }
        let (from_route, to_route) = (self.route(&source.path), self.route(&target.path));
        if from_route.point != to_route.point {
            return Err(FsError::CrossDevice);
        }
        from_route.fs.rename(from_route.inner, to_route.inner).await
    }

    async fn symlink(&self, target: &str, link: &str) -> FsResult<()> {
        let resolved = self.walk(link, false).await?;
        if resolved.meta.is_some() {
            return Err(FsError::AlreadyExists);
        }
        let route = self.route(&resolved.path);
        route.fs.symlink(target, route.inner).await
    }

    async fn hard_link(&self, existing: &str, new: &str) -> FsResult<()> {
        let source = self.walk(existing, false).await?;
        source.existing()?;
        let target = self.walk(new, false).await?;
        if target.meta.is_some() {
            return Err(FsError::AlreadyExists);
        }
        let (from_route, to_route) = (self.route(&source.path), self.route(&target.path));
        if from_route.point != to_route.point {
            return Err(FsError::CrossDevice);
        }
        from_route.fs.hard_link(from_route.inner, to_route.inner).await
    }

    async fn read_link(&self, path: &str) -> FsResult<String> {
        let resolved = self.walk(path, false).await?;
        resolved.existing()?;
        let route = self.route(&resolved.path);
        route.fs.read_link(route.inner).await
    }

    async fn set_mode(&self, path: &str, mode: u32) -> FsResult<()> {
        let resolved = self.walk(path, true).await?;
        resolved.existing()?;
        let route = self.route(&resolved.path);
        route.fs.set_mode(route.inner, mode).await
    }

    async fn set_owner(&self, path: &str, uid: Option<u32>, gid: Option<u32>) -> FsResult<()> {
        let resolved = self.walk(path, true).await?;
        resolved.existing()?;
        let route = self.route(&resolved.path);
        route.fs.set_owner(route.inner, uid, gid).await
    }

    async fn set_times(&self, path: &str, atime: Option<f64>, mtime: Option<f64>) -> FsResult<()> {
        let resolved = self.walk(path, true).await?;
        resolved.existing()?;
        let route = self.route(&resolved.path);
        route.fs.set_times(route.inner, atime, mtime).await
    }

    async fn access(&self, path: &str, access: Access) -> FsResult<()> {
        let resolved = self.walk(path, true).await?;
        resolved.existing()?;
        let route = self.route(&resolved.path);
        route.fs.access(route.inner, access).await
    }

    fn space(&self) -> Option<SpaceInfo> {
        self.root.space()
    }
}

#[cfg(test)]
mod tests {
    use super::is_below;

    #[test]
    fn below_means_strictly_inside() {
        assert!(is_below("/mnt/a", "/mnt"));
        assert!(!is_below("/mnt", "/mnt"));
        assert!(!is_below("/mntx/a", "/mnt"));
        assert!(is_below("/a", "/"));
        assert!(!is_below("/", "/"));
    }
}
