//! The directory layout a new sandbox starts with, as agents expect of a
//! Linux box: `/home/user`, `/tmp`, `/bin` and `/usr/bin` listing the
//! available commands, `/dev` devices, and `/etc` with sandbox values.

use super::memory::Device;
use super::{Fs, MemoryFs};

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

/// Creates every missing directory on the way to `path`, then writes it.
/// Used for host-supplied files; errors leave the file absent.
pub async fn write_with_parents(fs: &MemoryFs, path: &str, contents: &[u8]) {
    let mut prefix = String::new();
    let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
    for part in parts.iter().take(parts.len().saturating_sub(1)) {
        prefix.push('/');
        prefix.push_str(part);
        if !fs.exists(&prefix).await {
            let _ = fs.create_dir(&prefix, 0o755).await;
        }
    }
    let _ = fs.write_file(path, contents).await;
}

/// Builds the default layout; `commands` are listed in `/bin` and `/usr/bin`.
pub async fn create_default_layout<'n>(fs: &MemoryFs, commands: impl Iterator<Item = &'n str>) {
    for dir in ["/bin", "/usr", "/usr/bin", "/etc", "/dev", "/dev/fd", "/home", HOME, "/tmp", "/var", "/var/tmp"] {
        let _ = fs.create_dir(dir, 0o755).await;
    }
    let _ = fs.set_mode("/tmp", 0o1777).await;
    let _ = fs.set_mode("/var/tmp", 0o1777).await;
    let _ = fs.set_owner(HOME, Some(SANDBOX_UID), Some(SANDBOX_GID)).await;
    for (name, device) in [("null", Device::Null), ("zero", Device::Zero), ("urandom", Device::Random), ("random", Device::Random)] {
        let _ = fs.create_device(&format!("/dev/{name}"), device);
    }
    let script = b"#!/bin/bash\n# wabash built-in command: runs inside the sandbox.\n";
    for name in commands {
        for dir in ["/bin", "/usr/bin"] {
            let path = format!("{dir}/{name}");
            let _ = fs.write_file(&path, script).await;
            let _ = fs.set_mode(&path, 0o755).await;
        }
    }
    let passwd = format!("root:x:0:0:root:/root:/bin/bash\n{USER_NAME}:x:{SANDBOX_UID}:{SANDBOX_GID}:{USER_NAME}:{HOME}:/bin/bash\n");
    let _ = fs.write_file("/etc/passwd", passwd.as_bytes()).await;
    let group = format!("root:x:0:\n{USER_NAME}:x:{SANDBOX_GID}:\n");
    let _ = fs.write_file("/etc/group", group.as_bytes()).await;
    let _ = fs.write_file("/etc/hostname", format!("{HOST_NAME}\n").as_bytes()).await;
}
