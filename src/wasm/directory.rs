//! Host directories supplied by JavaScript: the adapter object behind a
//! mount (`nodeDirectory`, `mapDirectory`, or the host's own), seen by the
//! engine as a [`HostDirectory`], and the mounts built from the `mounts`
//! option (read-only, or copy-on-write with an in-memory upper layer).
//!
//! The adapter is `{ stat(path), list(path), read(path, offset, length),
//! readlink(path) }`, each returning a promise; paths are canonical and
//! relative to the adapter's root (`/` is the root). A rejection whose
//! `code` is an errno name (`ENOENT`...) becomes that error; anything else
//! is EIO.

use crate::fs::host_dir::{HostDirFs, HostDirectory, HostEntry, HostStat};
use crate::fs::overlay::OverlayFs;
use crate::fs::{Credentials, FileType, Fs, FsError, FsResult, MemoryFs};
use crate::host::Host;
use async_trait::async_trait;
use serde::Deserialize;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen]
extern "C" {
    /// A directory adapter object (see the module docs).
    pub type DirectoryObject;

    #[wasm_bindgen(method, catch)]
    fn stat(this: &DirectoryObject, path: &str) -> Result<js_sys::Promise, JsValue>;

    #[wasm_bindgen(method, catch)]
    fn list(this: &DirectoryObject, path: &str) -> Result<js_sys::Promise, JsValue>;

    #[wasm_bindgen(method, catch)]
    fn read(this: &DirectoryObject, path: &str, offset: f64, length: f64) -> Result<js_sys::Promise, JsValue>;

    #[wasm_bindgen(method, catch)]
    fn readlink(this: &DirectoryObject, path: &str) -> Result<js_sys::Promise, JsValue>;
}

/// `stat` as an adapter answers it.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct StatInput {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    size: f64,
    #[serde(default)]
    mode: Option<u32>,
    #[serde(default)]
    mtime_ms: f64,
}

/// One entry of `list`.
#[derive(Deserialize)]
struct EntryInput {
    name: String,
    #[serde(rename = "type")]
    kind: String,
}

fn file_type(kind: &str) -> FileType {
    match kind {
        "directory" => FileType::Directory,
        "symlink" => FileType::Symlink,
        _ => FileType::File,
    }
}

/// The filesystem error a rejection stands for.
fn error_of(value: &JsValue) -> FsError {
    let code = js_sys::Reflect::get(value, &JsValue::from_str("code")).ok().and_then(|code| code.as_string());
    match code.as_deref() {
        Some("ENOENT") => FsError::NotFound,
        Some("ENOTDIR") => FsError::NotADirectory,
        Some("EISDIR") => FsError::IsADirectory,
        Some("EACCES") => FsError::PermissionDenied,
        Some("EPERM") => FsError::NotPermitted,
        Some("ELOOP") => FsError::TooManyLinks,
        Some("ENAMETOOLONG") => FsError::NameTooLong,
        Some("EINVAL") => FsError::InvalidArgument,
        _ => FsError::Io,
    }
}

/// Awaits an adapter's promise; a throw or a rejection becomes an [`FsError`].
async fn answer(promise: Result<js_sys::Promise, JsValue>) -> FsResult<JsValue> {
    let promise = promise.map_err(|error| error_of(&error))?;
    JsFuture::from(promise).await.map_err(|error| error_of(&error))
}

/// A [`HostDirectory`] over a JS adapter object.
pub struct JsDirectory {
    object: DirectoryObject,
}

#[async_trait(?Send)]
impl HostDirectory for JsDirectory {
    async fn stat(&self, path: &str) -> FsResult<HostStat> {
        let value = answer(self.object.stat(path)).await?;
        let stat: StatInput = serde_wasm_bindgen::from_value(value).map_err(|_| FsError::Io)?;
        let file_type = file_type(&stat.kind);
        let default_mode = if file_type == FileType::File { 0o644 } else { 0o755 };
        let size = if stat.size.is_finite() && stat.size > 0.0 { stat.size as u64 } else { 0 };
        Ok(HostStat { file_type, size, mode: stat.mode.unwrap_or(default_mode) & 0o7777, mtime: stat.mtime_ms })
    }

    async fn list(&self, path: &str) -> FsResult<Vec<HostEntry>> {
        let value = answer(self.object.list(path)).await?;
        let entries: Vec<EntryInput> = serde_wasm_bindgen::from_value(value).map_err(|_| FsError::Io)?;
        Ok(entries.into_iter().map(|entry| HostEntry { file_type: file_type(&entry.kind), name: entry.name }).collect())
    }

    async fn read(&self, path: &str, offset: u64, len: usize) -> FsResult<Vec<u8>> {
        let value = answer(self.object.read(path, offset as f64, len as f64)).await?;
        if !value.is_instance_of::<js_sys::Uint8Array>() {
            return Err(FsError::Io);
        }
        let mut bytes = js_sys::Uint8Array::from(value).to_vec();
        bytes.truncate(len);
        Ok(bytes)
    }

    async fn read_link(&self, path: &str) -> FsResult<String> {
        answer(self.object.readlink(path)).await?.as_string().ok_or(FsError::Io)
    }
}

/// How a mount shows its host directory.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum MountMode {
    /// Every change fails with EROFS.
    ReadOnly,
    /// Changes land in memory; the host directory is never written.
    CopyOnWrite,
}

/// One mount the `mounts` option asks for.
pub struct MountRequest {
    /// The absolute, normalized mount point.
    pub point: String,
    /// Read-only or copy-on-write.
    pub mode: MountMode,
    /// The adapter.
    pub directory: DirectoryObject,
}

/// Reads `options.mounts` (`[{ point, mode, directory }]`), checking the points:
/// absolute, not `/`, each once.
pub fn mount_requests(options: &JsValue) -> Result<Vec<MountRequest>, String> {
    let list = js_sys::Reflect::get(options, &JsValue::from_str("mounts")).unwrap_or(JsValue::UNDEFINED);
    if list.is_undefined() || list.is_null() {
        return Ok(Vec::new());
    }
    let list: js_sys::Array = list.dyn_into().map_err(|_| "mounts must be an array".to_string())?;
    let mut requests: Vec<MountRequest> = Vec::new();
    for item in list.iter() {
        let field = |name: &str| js_sys::Reflect::get(&item, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED);
        let raw = field("point").as_string().ok_or("a mount point must be a string")?;
        if !raw.starts_with('/') || raw.contains('\0') {
            return Err(format!("mount point {raw:?} must be an absolute path"));
        }
        let point = crate::fs::path::normalize("/", &raw);
        if point == "/" {
            return Err("cannot mount over /".to_string());
        }
        if requests.iter().any(|r| r.point == point) {
            return Err(format!("{point} is mounted twice"));
        }
        let mode = match field("mode").as_string().as_deref() {
            Some("readOnly") | None => MountMode::ReadOnly,
            Some("copyOnWrite") => MountMode::CopyOnWrite,
            Some(other) => return Err(format!("unknown mount mode {other:?}")),
        };
        let directory = field("directory");
        if !directory.is_object() {
            return Err(format!("the mount at {point} has no directory adapter"));
        }
        requests.push(MountRequest { point, mode, directory: directory.unchecked_into() });
    }
    Ok(requests)
}

/// The filesystem of one mount; for copy-on-write, also its overlay.
pub fn build_mount(request: MountRequest, host: &Rc<dyn Host>, user: Credentials) -> (Rc<dyn Fs>, Option<Rc<OverlayFs>>) {
    let lower = Rc::new(HostDirFs::new(Rc::new(JsDirectory { object: request.directory }), user, user));
    match request.mode {
        MountMode::ReadOnly => (lower as Rc<dyn Fs>, None),
        MountMode::CopyOnWrite => {
            let upper = MemoryFs::new(host.clone(), user.uid, user.gid);
            let overlay = Rc::new(OverlayFs::new(upper, lower));
            (overlay.clone() as Rc<dyn Fs>, Some(overlay))
        }
    }
}
