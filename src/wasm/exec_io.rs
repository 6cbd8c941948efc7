//! Streaming I/O of one `exec` across the boundary: output callbacks
//! (`onStdout`, `onStderr`) called with each chunk as the script writes it,
//! and a standard input pulled from the host chunk by chunk (a
//! `ReadableStream` or async iterable on the JS side).
//!
//! The wrapper passes `{ stdout?(chunk), stderr?(chunk), stdinNext?() }`;
//! `stdinNext()` returns a promise of a `Uint8Array`, or of `null` at the end.

use crate::host::{InputSource, LocalFuture};
use crate::io::OutputSink;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// A JS function receiving output chunks. A callback that throws is
/// ignored: the host's listener must not break the script.
struct JsSink(js_sys::Function);

impl OutputSink for JsSink {
    fn write(&self, data: &[u8]) {
        let chunk = js_sys::Uint8Array::from(data);
        let _ = self.0.call1(&JsValue::NULL, &chunk);
    }
}

/// Standard input pulled from a JS function returning promises of chunks.
struct JsInput(js_sys::Function);

impl InputSource for JsInput {
    fn next_chunk(&self) -> LocalFuture<'_, Option<Vec<u8>>> {
        Box::pin(async move {
            let promise = self.0.call0(&JsValue::NULL).ok()?.dyn_into::<js_sys::Promise>().ok()?;
            let value = JsFuture::from(promise).await.ok()?;
            if value.is_null() || value.is_undefined() {
                return None;
            }
            value.dyn_ref::<js_sys::Uint8Array>().map(js_sys::Uint8Array::to_vec)
        })
    }
}

fn function(io: &JsValue, name: &str) -> Option<js_sys::Function> {
    js_sys::Reflect::get(io, &JsValue::from_str(name)).ok()?.dyn_into::<js_sys::Function>().ok()
}

/// Puts the callbacks of `io` (any of them may be missing) into `options`.
pub fn apply(io: &JsValue, options: &mut crate::ExecOptions) {
    if io.is_undefined() || io.is_null() {
        return;
    }
    if let Some(callback) = function(io, "stdout") {
        options.on_stdout = Some(Rc::new(JsSink(callback)));
    }
    if let Some(callback) = function(io, "stderr") {
        options.on_stderr = Some(Rc::new(JsSink(callback)));
    }
    if let Some(next) = function(io, "stdinNext") {
        options.stdin_source = Some(Rc::new(JsInput(next)));
    }
}
