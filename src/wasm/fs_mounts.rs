//! The copy-on-write mounts' changes on [`WasmSandbox`]: what scripts
//! created, modified and deleted under a mount point, the changed files'
//! contents for export, and the changes as a unified patch. The host
//! directory itself is never written.

use super::error::{fs_error, js_error, INVALID_OPTIONS};
use super::run::{self, RunId};
use super::sandbox::WasmSandbox;
use crate::fs::overlay::{ChangeKind, OverlayFs};
use crate::fs::FileType;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// The sandbox path of `inner` under mount point `point`.
fn under(point: &str, inner: &str) -> String {
    if inner == "/" {
        point.to_string()
    } else {
        format!("{point}{inner}")
    }
}

fn kind_name(kind: ChangeKind) -> &'static str {
    match kind {
        ChangeKind::Created => "created",
        ChangeKind::Modified => "modified",
        ChangeKind::Deleted => "deleted",
    }
}

impl WasmSandbox {
    /// The overlay mounted at `point` (normalized), or a JS error.
    fn overlay(&self, point: &str) -> Result<(String, Rc<OverlayFs>), JsValue> {
        let point = crate::fs::path::normalize("/", point);
        self.overlays
            .iter()
            .find(|(at, _)| *at == point)
            .map(|(at, overlay)| (at.clone(), overlay.clone()))
            .ok_or_else(|| js_error(INVALID_OPTIONS, &format!("no copy-on-write mount at {point}")))
    }
}

#[wasm_bindgen]
impl WasmSandbox {
    /// The changes under the copy-on-write mount at `point`: resolves to
    /// `{ created, modified, deleted }`, sorted sandbox paths.
    #[wasm_bindgen(js_name = mountChanges)]
    pub fn mount_changes(&self, point: String) -> RunId {
        let found = self.overlay(&point);
        run::spawn(async move {
            let (point, overlay) = found?;
            let changes = overlay.changes().await.map_err(|error| fs_error(error, "scandir", &point))?;
            let lists = [js_sys::Array::new(), js_sys::Array::new(), js_sys::Array::new()];
            for change in changes {
                let index = match change.kind {
                    ChangeKind::Created => 0,
                    ChangeKind::Modified => 1,
                    ChangeKind::Deleted => 2,
                };
                if let Some(list) = lists.get(index) {
                    list.push(&JsValue::from_str(&under(&point, &change.path)));
                }
            }
            let result = js_sys::Object::new();
            for (name, list) in ["created", "modified", "deleted"].iter().zip(lists.iter()) {
                js_sys::Reflect::set(&result, &JsValue::from_str(name), list)?;
            }
            Ok(result.into())
        })
    }

    /// The changed nodes under the copy-on-write mount at `point`, for
    /// export: resolves to `[{ path, change, type, content }]` where `path`
    /// is relative to the mount's root, `content` the bytes of a created or
    /// modified file (a symlink's target as text), `null` otherwise.
    #[wasm_bindgen(js_name = mountFiles)]
    pub fn mount_files(&self, point: String) -> RunId {
        let found = self.overlay(&point);
        run::spawn(async move {
            let (point, overlay) = found?;
            let changes = overlay.changes().await.map_err(|error| fs_error(error, "scandir", &point))?;
            let list = js_sys::Array::new();
            for change in changes {
                let item = js_sys::Object::new();
                let kind = match change.file_type {
                    FileType::Directory => "directory",
                    FileType::Symlink => "symlink",
                    _ => "file",
                };
                let content: JsValue = if change.kind == ChangeKind::Deleted || change.file_type == FileType::Directory {
                    JsValue::NULL
                } else {
                    let path = under(&point, &change.path);
                    let bytes = overlay.current_contents(&change.path).await.map_err(|error| fs_error(error, "open", &path))?;
                    if change.file_type == FileType::Symlink {
                        JsValue::from_str(&String::from_utf8_lossy(&bytes))
                    } else {
                        js_sys::Uint8Array::from(bytes.as_slice()).into()
                    }
                };
                js_sys::Reflect::set(&item, &JsValue::from_str("path"), &JsValue::from_str(&change.path))?;
                js_sys::Reflect::set(&item, &JsValue::from_str("change"), &JsValue::from_str(kind_name(change.kind)))?;
                js_sys::Reflect::set(&item, &JsValue::from_str("type"), &JsValue::from_str(kind))?;
                js_sys::Reflect::set(&item, &JsValue::from_str("content"), &content)?;
                list.push(&item);
            }
            Ok(list.into())
        })
    }

    /// The changes under the copy-on-write mount at `point` as a unified
    /// patch (`patch -p1` applies it in the host directory): resolves to a string.
    #[wasm_bindgen(js_name = mountPatch)]
    pub fn mount_patch(&self, point: String) -> RunId {
        let found = self.overlay(&point);
        run::spawn(async move {
            let (point, overlay) = found?;
            let patch = crate::overlay_patch(&overlay).await.map_err(|error| fs_error(error, "scandir", &point))?;
            Ok(JsValue::from_str(&String::from_utf8_lossy(&patch)))
        })
    }
}
