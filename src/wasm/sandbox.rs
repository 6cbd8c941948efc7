//! [`WasmSandbox`]: the JS class over one [`Sandbox`] and its filesystem.

use super::convert::{delta_to_js, options_from_js, result_to_js, ExecInput, SandboxInput};
use super::error::{fs_error, js_error, BUSY, INVALID_OPTIONS, SNAPSHOT};
use super::host::{HostObject, JsHost};
use super::run::{self, RunId};
use crate::fs::{layout, path, Credentials, Fs, MemoryFs};
use crate::{Sandbox, SandboxOptions};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// One sandbox: a shell session and its in-memory filesystem.
#[wasm_bindgen]
pub struct WasmSandbox {
    /// The session; `None` while a run holds it.
    session: Rc<RefCell<Option<Sandbox>>>,
    /// The same filesystem, reachable while a run is in progress.
    fs: MemoryFs,
    /// Where relative paths given to the filesystem methods start.
    cwd: String,
    /// The point `changes()` compares with.
    checkpoint: RefCell<Option<crate::fs::memory::Checkpoint>>,
    /// The copy-on-write mounts, by mount point, for their changes.
    pub(super) overlays: Vec<(String, Rc<crate::fs::overlay::OverlayFs>)>,
    /// Every mount, by mount point, for the host's file methods.
    mounts: Vec<(String, Rc<dyn Fs>)>,
}

#[wasm_bindgen]
impl WasmSandbox {
    /// Creates a sandbox from `{ files, env, cwd }` and the wrapper's host object.
    /// The run resolves to the `WasmSandbox`.
    pub fn create(options: JsValue, host: HostObject) -> RunId {
        let requests = match super::directory::mount_requests(&options) {
            Ok(requests) => requests,
            Err(message) => return run::settled(Err(js_error(INVALID_OPTIONS, &message))),
        };
        let input = match options_from_js::<SandboxInput>(options) {
            Ok(input) => input,
            Err(error) => return run::settled(Err(error)),
        };
        if let Some(limit) = input.memory_limit {
            if limit.is_finite() && limit > 0.0 {
                // Fails only when more is allocated already: then nothing more can be.
                let _ = crate::memory::set_limit(limit as usize);
            }
        }
        let mut options = input.into_options();
        let cwd = options.cwd.clone().unwrap_or_else(|| crate::fs::layout::HOME.to_string());
        let host: Rc<dyn crate::host::Host> = Rc::new(JsHost::new(host));
        let user = Credentials { uid: layout::SANDBOX_UID, gid: layout::SANDBOX_GID };
        let mut overlays = Vec::new();
        for request in requests {
            let point = request.point.clone();
            let (fs, overlay) = super::directory::build_mount(request, &host, user);
            if let Some(overlay) = overlay {
                overlays.push((point.clone(), overlay));
            }
            options.mounts.push((point, fs));
        }
        let mounts = options.mounts.clone();
        run::spawn(async move {
            let sandbox = Sandbox::new(options, host).await;
            let fs = sandbox.fs().clone();
            let checkpoint = RefCell::new(Some(fs.checkpoint()));
            Ok(WasmSandbox { session: Rc::new(RefCell::new(Some(sandbox))), fs, cwd, checkpoint, overlays, mounts }.into())
        })
    }

    /// Runs `script` with `{ stdin, env, cwd }` and the streaming callbacks
    /// of `io` (see [`super::exec_io`]); the run resolves to
    /// `{ stdout, stderr, exitCode }` with output as `Uint8Array`.
    pub fn exec(&self, script: String, options: JsValue, io: JsValue) -> RunId {
        let mut options = match options_from_js::<ExecInput>(options) {
            Ok(input) => input.into_options(),
            Err(error) => return run::settled(Err(error)),
        };
        super::exec_io::apply(&io, &mut options);
        let session = self.session.clone();
        run::spawn(async move {
            let taken = session.borrow_mut().take();
            let Some(mut sandbox) = taken else {
                return Err(js_error(BUSY, "another exec is running on this sandbox"));
            };
            let result = sandbox.exec(&script, options).await;
            *session.borrow_mut() = Some(sandbox);
            result_to_js(result)
        })
    }

    /// What changed since the last call (the filesystem as a delta, the
    /// shell state whole), for the wrapper's copy of the last good state.
    /// Throws `WABASH_BUSY` while a run holds the session.
    #[wasm_bindgen(js_name = takeDelta)]
    pub fn take_delta(&self) -> Result<JsValue, JsValue> {
        let session = self.session.borrow();
        let sandbox = session.as_ref().ok_or_else(|| js_error(BUSY, "the session is busy"))?;
        let (delta, shell) = sandbox.take_delta();
        delta_to_js(delta, shell)
    }

    /// Starts tracking changes without returning them (after a restore from
    /// the wrapper's copy, which already holds this state).
    #[wasm_bindgen(js_name = trackChanges)]
    pub fn track_changes(&self) {
        let _ = self.fs.take_delta();
    }

    /// Replaces the sandbox with the wrapper's copy: node records laid end
    /// to end and the shell state. Resolves to the list of what could not
    /// be restored (usually empty).
    #[wasm_bindgen(js_name = restoreSaved)]
    pub fn restore_saved(&self, records: Vec<u8>, shell: Vec<u8>) -> RunId {
        let session = self.session.clone();
        run::spawn(async move {
            let taken = session.borrow_mut().take();
            let Some(mut sandbox) = taken else {
                return Err(js_error(BUSY, "the session is busy"));
            };
            let outcome = sandbox.restore_saved(&records, &shell).await;
            *session.borrow_mut() = Some(sandbox);
            restore_outcome(outcome)
        })
    }

    /// The whole sandbox as bytes (files, variables, functions, options, cwd).
    pub fn snapshot(&self) -> Result<js_sys::Uint8Array, JsValue> {
        let session = self.session.borrow();
        let sandbox = session.as_ref().ok_or_else(|| js_error(BUSY, "the session is busy"))?;
        Ok(js_sys::Uint8Array::from(sandbox.snapshot().as_slice()))
    }

    /// Replaces the sandbox with a snapshot; resolves to the list of what
    /// could not be restored. Rejects with `WABASH_SNAPSHOT` for bytes that
    /// are not a snapshot (nothing changes then).
    #[wasm_bindgen(js_name = restoreSnapshot)]
    pub fn restore_snapshot(&self, bytes: Vec<u8>) -> RunId {
        let session = self.session.clone();
        run::spawn(async move {
            let taken = session.borrow_mut().take();
            let Some(mut sandbox) = taken else {
                return Err(js_error(BUSY, "the session is busy"));
            };
            let outcome = sandbox.restore_snapshot(&bytes).await;
            *session.borrow_mut() = Some(sandbox);
            restore_outcome(outcome)
        })
    }

    /// The session's working directory; `undefined` while a run holds the session.
    pub fn cwd(&self) -> Option<String> {
        self.session.borrow().as_ref().map(|sandbox| sandbox.shell().cwd().to_string())
    }

    /// Reads a whole file as bytes (with the host's full rights).
    #[wasm_bindgen(js_name = readFile)]
    pub fn read_file(&self, path: String) -> RunId {
        let (fs, path) = self.resolve_as_root(&path);
        run::spawn(async move {
            let bytes = fs.read_file(&path).await.map_err(|error| fs_error(error, "open", &path))?;
            Ok(js_sys::Uint8Array::from(bytes.as_slice()).into())
        })
    }

    /// Creates or replaces a file, creating missing parent directories. The
    /// host writes with full rights; new files and directories belong to the
    /// sandbox user, so scripts can change them.
    #[wasm_bindgen(js_name = writeFile)]
    pub fn write_file(&self, path: String, data: Vec<u8>) -> RunId {
        let (fs, path) = self.resolve(&path);
        let mounted = self.mounted_view(&path);
        run::spawn(async move {
            let written = match mounted {
                Some(view) => match crate::fs::path::split_parent(&path) {
                    Some((parent, _)) => match create_dirs(view.as_ref(), parent).await {
                        Ok(()) => view.write_file(&path, &data).await,
                        Err(error) => Err(error),
                    },
                    None => view.write_file(&path, &data).await,
                },
                None => layout::try_write_with_parents(&fs, &path, &data).await,
            };
            written.map_err(|error| fs_error(error, "open", &path))?;
            Ok(JsValue::UNDEFINED)
        })
    }

    /// Creates a directory and every missing parent (`mkdir -p`).
    pub fn mkdir(&self, path: String) -> RunId {
        let (fs, path) = self.resolve(&path);
        let mounted = self.mounted_view(&path);
        run::spawn(async move {
            let made = match mounted {
                Some(view) => create_dirs(view.as_ref(), &path).await,
                None => layout::try_create_dir_with_parents(&fs, &path).await,
            };
            made.map_err(|error| fs_error(error, "mkdir", &path))?;
            Ok(JsValue::UNDEFINED)
        })
    }

    /// True when the path exists (following symbolic links).
    pub fn exists(&self, path: String) -> RunId {
        let (fs, path) = self.resolve_as_root(&path);
        run::spawn(async move { Ok(JsValue::from_bool(fs.exists(&path).await)) })
    }

    /// Changes a file's permission bits (`chmod`), with the host's full rights.
    pub fn chmod(&self, path: String, mode: u32) -> RunId {
        let (fs, path) = self.resolve_as_root(&path);
        run::spawn(async move {
            fs.set_mode(&path, mode & 0o7777).await.map_err(|error| fs_error(error, "chmod", &path))?;
            Ok(JsValue::UNDEFINED)
        })
    }

    /// Creates a symbolic link at `path` pointing to `target` (stored as given).
    pub fn symlink(&self, target: String, path: String) -> RunId {
        let (fs, path) = self.resolve(&path);
        let view: Rc<dyn Fs> = self.mounted_view(&path).unwrap_or_else(|| Rc::new(fs));
        run::spawn(async move {
            view.symlink(&target, &path).await.map_err(|error| fs_error(error, "symlink", &path))?;
            Ok(JsValue::UNDEFINED)
        })
    }

    /// The names in a directory, sorted, without `.` and `..`.
    #[wasm_bindgen(js_name = readdir)]
    pub fn read_dir(&self, path: String) -> RunId {
        let (fs, path) = self.resolve_as_root(&path);
        run::spawn(async move {
            let entries = fs.read_dir(&path).await.map_err(|error| fs_error(error, "scandir", &path))?;
            let names = js_sys::Array::new();
            for entry in entries {
                names.push(&JsValue::from_str(&entry.name));
            }
            Ok(names.into())
        })
    }
}

/// Creates directory `path` and its missing parents in `fs` (`mkdir -p`).
async fn create_dirs(fs: &dyn Fs, path: &str) -> crate::fs::FsResult<()> {
    let mut prefix = String::new();
    for part in path.split('/').filter(|part| !part.is_empty()) {
        prefix.push('/');
        prefix.push_str(part);
        match fs.create_dir(&prefix, 0o755).await {
            Ok(()) | Err(crate::fs::FsError::AlreadyExists) => {}
            Err(error) => return Err(error),
        }
    }
    Ok(())
}

/// The JS value of a restore: the warnings, or a `WABASH_SNAPSHOT` error.
fn restore_outcome(outcome: Result<Vec<String>, crate::RestoreError>) -> Result<JsValue, JsValue> {
    match outcome {
        Ok(warnings) => {
            let list = js_sys::Array::new();
            for warning in warnings {
                list.push(&JsValue::from_str(&warning));
            }
            Ok(list.into())
        }
        Err(error) => Err(js_error(SNAPSHOT, &format!("cannot restore the snapshot: {error}"))),
    }
}

impl WasmSandbox {
    /// Creates a sandbox (the Rust side of `create`, for Rust callers and tests).
    pub async fn build(options: SandboxOptions, host: JsHost) -> WasmSandbox {
        let cwd = options.cwd.clone().unwrap_or_else(|| crate::fs::layout::HOME.to_string());
        let sandbox = Sandbox::new(options, Rc::new(host)).await;
        let fs = sandbox.fs().clone();
        let checkpoint = RefCell::new(Some(fs.checkpoint()));
        WasmSandbox { session: Rc::new(RefCell::new(Some(sandbox))), fs, cwd, checkpoint, overlays: Vec::new(), mounts: Vec::new() }
    }

    /// What changed since the checkpoint.
    pub(super) fn changes_since_checkpoint(&self) -> crate::fs::memory::Changes {
        match self.checkpoint.borrow().as_ref() {
            Some(checkpoint) => self.fs.changes_since(checkpoint),
            None => crate::fs::memory::Changes::default(),
        }
    }

    /// Makes now the point `changes()` compares with.
    pub(super) fn set_checkpoint(&self) {
        *self.checkpoint.borrow_mut() = Some(self.fs.checkpoint());
    }

    /// The filesystem (the sandbox user's view) and `path` made absolute
    /// against the initial cwd.
    fn resolve(&self, relative: &str) -> (MemoryFs, String) {
        (self.fs.clone(), path::normalize(&self.cwd, relative))
    }

    /// Like [`WasmSandbox::resolve`], with the host's full rights over the
    /// sandbox's own files, through the mounts (whose files the host sees as
    /// the sandbox user does).
    pub(super) fn resolve_as_root(&self, relative: &str) -> (Rc<dyn Fs>, String) {
        let root = self.fs.with_credentials(Credentials::ROOT);
        let path = path::normalize(&self.cwd, relative);
        if self.mounts.is_empty() {
            return (Rc::new(root), path);
        }
        let table = crate::fs::mount::MountFs::new(Rc::new(root), Credentials::ROOT);
        for (point, fs) in &self.mounts {
            let _ = table.mount(point, fs.clone());
        }
        (Rc::new(table), path)
    }

    /// The filesystem view for changing `path` when it lies in a mount
    /// (the sandbox user's rights); `None` for the sandbox's own files.
    fn mounted_view(&self, path: &str) -> Option<Rc<dyn Fs>> {
        let inside = self.mounts.iter().any(|(point, _)| {
            path == point || (path.starts_with(point.as_str()) && path.as_bytes().get(point.len()) == Some(&b'/'))
        });
        if !inside {
            return None;
        }
        let table = crate::fs::mount::MountFs::new(Rc::new(self.fs.clone()), self.fs.credentials());
        for (point, fs) in &self.mounts {
            let _ = table.mount(point, fs.clone());
        }
        Some(Rc::new(table))
    }
}
