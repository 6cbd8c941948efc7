//! The directory layout a new sandbox starts with, as agents expect of a
//! Linux box: `/home/user` (owned by the sandbox user), a sticky `/tmp`,
//! `/bin` and `/usr/bin` listing the available commands, `/dev` devices,
//! and `/etc` with sandbox values only. There is no `/proc`: nothing of the
//! host is ever shown.

use super::memory::Device;
use super::{Credentials, Fs, FsResult, MemoryFs};

/// The sandbox user's id (not root, so permission bits mean something).
pub const SANDBOX_UID: u32 = 1000;
/// The sandbox user's group id.
pub const SANDBOX_GID: u32 = 1000;
/// The sandbox user's name.
pub const USER_NAME: &str = "user";
/// The sandbox user's home directory and the default working directory.
pub const HOME: &str = "/home/user";
/// The sandbox's host name.
pub const HOST_NAME: &str = "sandbox";

/// The contents of `/etc/passwd`.
pub fn passwd() -> String {
    format!(
        "root:x:0:0:root:/root:/bin/bash\n\
         nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n\
         {USER_NAME}:x:{SANDBOX_UID}:{SANDBOX_GID}:{USER_NAME}:{HOME}:/bin/bash\n"
    )
}

/// The contents of `/etc/group`.
pub fn group() -> String {
    format!("root:x:0:\nnogroup:x:65534:\n{USER_NAME}:x:{SANDBOX_GID}:\n")
}

/// Creates every missing directory on the way to `path` (owned by the
/// filesystem's user), then writes the file, bypassing permission checks:
/// this is for files the host supplies. Errors leave the file absent.
pub async fn write_with_parents(fs: &MemoryFs, path: &str, contents: &[u8]) {
    let _ = try_write_with_parents(fs, path, contents).await;
}

/// [`write_with_parents`], reporting why the file could not be written
/// (a quota, a path rule, a file where a directory should be).
pub async fn try_write_with_parents(fs: &MemoryFs, path: &str, contents: &[u8]) -> FsResult<()> {
    let user = fs.credentials();
    let root = fs.with_credentials(Credentials::ROOT);
    if let Some((parent, _)) = super::path::split_parent(path) {
        try_create_dir_with_parents(fs, parent).await?;
    }
    let existed = root.exists(path).await;
    root.write_file(path, contents).await?;
    if !existed {
        root.set_owner(path, Some(user.uid), Some(user.gid)).await?;
    }
    Ok(())
}

/// Creates directory `path` and every missing one on the way (`mkdir -p`),
/// owned by the filesystem's user and bypassing permission checks: for
/// directories the host supplies (a host tree copied in, a mount point).
pub async fn try_create_dir_with_parents(fs: &MemoryFs, path: &str) -> FsResult<()> {
    let user = fs.credentials();
    let root = fs.with_credentials(Credentials::ROOT);
    let mut prefix = String::new();
    for part in path.split('/').filter(|p| !p.is_empty()) {
        prefix.push('/');
        prefix.push_str(part);
        if !root.exists(&prefix).await {
            root.create_dir(&prefix, 0o755).await?;
            root.set_owner(&prefix, Some(user.uid), Some(user.gid)).await?;
        }
    }
    Ok(())
}

/// Builds the default layout (as root); `commands` are listed in `/bin`
/// and `/usr/bin` as small executable stubs.
pub async fn create_default_layout<'n>(fs: &MemoryFs, commands: impl Iterator<Item = &'n str>) {
    let root = fs.with_credentials(Credentials::ROOT);
    let user = fs.credentials();
    for dir in [
        "/bin",
        "/usr",
        "/usr/bin",
        "/usr/local",
        "/usr/local/bin",
        "/etc",
        "/dev",
        "/dev/fd",
        "/home",
        HOME,
        "/root",
        "/tmp",
        "/var",
        "/var/tmp",
    ] {
        let _ = root.create_dir(dir, 0o755).await;
    }
    let _ = root.set_mode("/root", 0o700).await;
    let _ = root.set_mode("/tmp", 0o1777).await;
    let _ = root.set_mode("/var/tmp", 0o1777).await;
    let _ = root.set_owner(HOME, Some(user.uid), Some(user.gid)).await;
    for (name, device) in [("null", Device::Null), ("zero", Device::Zero), ("full", Device::Full), ("urandom", Device::Random), ("random", Device::Random)] {
        let _ = root.create_device(&format!("/dev/{name}"), device);
    }
    for (index, name) in ["stdin", "stdout", "stderr"].iter().enumerate() {
        let _ = root.symlink(&format!("/dev/fd/{index}"), &format!("/dev/{name}")).await;
    }
    let script = b"#!/bin/bash\n# wabash built-in command: runs inside the sandbox.\n";
    // The shell itself is a program too (`env bash`, `timeout 5 sh -c ...`).
    for name in commands.into_iter().chain(["bash", "sh"]) {
        for dir in ["/bin", "/usr/bin"] {
            let path = format!("{dir}/{name}");
            let _ = root.write_file(&path, script).await;
            let _ = root.set_mode(&path, 0o755).await;
        }
    }
    let _ = root.write_file("/etc/passwd", passwd().as_bytes()).await;
    let _ = root.write_file("/etc/group", group().as_bytes()).await;
    let _ = root.write_file("/etc/hostname", format!("{HOST_NAME}\n").as_bytes()).await;
    let _ = root.write_file("/etc/hosts", format!("127.0.0.1\tlocalhost\n127.0.1.1\t{HOST_NAME}\n").as_bytes()).await;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::executor::block_on;
    use crate::fs::FsError;
    use crate::host::FixedHost;
    use std::rc::Rc;

    fn layout() -> MemoryFs {
        let fs = MemoryFs::new(Rc::new(FixedHost::default()), SANDBOX_UID, SANDBOX_GID);
        block_on(create_default_layout(&fs, ["ls", "cat"].into_iter()));
        fs
    }

    #[test]
    fn home_belongs_to_the_user_and_tmp_is_sticky() {
        let fs = layout();
        let home = block_on(fs.metadata(HOME)).unwrap();
        assert_eq!((home.uid, home.gid), (SANDBOX_UID, SANDBOX_GID));
        assert_eq!(block_on(fs.metadata("/tmp")).unwrap().mode, 0o1777);
        assert!(block_on(fs.metadata("/bin/ls")).unwrap().mode & 0o111 != 0);
        assert_eq!(block_on(fs.metadata("/proc")), Err(FsError::NotFound));
    }

    #[test]
    fn etc_has_sandbox_values_and_is_not_writable_by_the_user() {
        let fs = layout();
        assert_eq!(block_on(fs.read_file("/etc/hostname")).unwrap(), b"sandbox\n");
        let passwd = String::from_utf8(block_on(fs.read_file("/etc/passwd")).unwrap()).unwrap();
        assert!(passwd.contains("user:x:1000:1000:user:/home/user:/bin/bash"));
        assert_eq!(block_on(fs.write_file("/etc/passwd", b"x")), Err(FsError::PermissionDenied));
        assert_eq!(block_on(fs.create_dir("/opt", 0o755)), Err(FsError::PermissionDenied));
    }

    #[test]
    fn host_files_are_written_with_parents_owned_by_the_user() {
        let fs = layout();
        block_on(try_write_with_parents(&fs, "/data/in/a.csv", b"1,2\n")).unwrap();
        block_on(try_create_dir_with_parents(&fs, "/project/sub")).unwrap();
        assert_eq!(block_on(fs.metadata("/project/sub")).unwrap().uid, SANDBOX_UID);
        let dir = block_on(fs.metadata("/data/in")).unwrap();
        assert_eq!(dir.uid, SANDBOX_UID);
        assert_eq!(block_on(fs.read_file("/data/in/a.csv")).unwrap(), b"1,2\n");
        assert_eq!(block_on(fs.metadata("/data/in/a.csv")).unwrap().uid, SANDBOX_UID);
    }

    #[test]
    fn devices_read_as_linux_ones() {
        let fs = layout();
        assert_eq!(block_on(fs.read_file("/dev/null")).unwrap(), b"");
        let handle = block_on(fs.open("/dev/zero", crate::fs::OpenOptions::read_only())).unwrap();
        assert_eq!(block_on(handle.read_at(0, 1 << 30)).unwrap().len(), 64 * 1024);
        let handle = block_on(fs.open("/dev/urandom", crate::fs::OpenOptions::read_only())).unwrap();
        let a = block_on(handle.read_at(0, 16)).unwrap();
        let b = block_on(handle.read_at(0, 16)).unwrap();
        assert_ne!(a, b);
        block_on(fs.write_file("/dev/null", b"gone")).unwrap();
    }
}
