//! The wasm-bindgen boundary: JS values in, engine calls, JS values out.
//!
//! Nothing here decides shell behaviour. [`WasmSandbox`] wraps a
//! [`Sandbox`](crate::Sandbox), converts one options object in and one
//! result object out (see [`convert`]), and turns engine errors into JS
//! `Error`s with a stable `code` (see [`error`]). Every operation is a
//! run (see [`run`]) that the wrapper polls by id, so traps reach the wrapper. The TypeScript wrapper in
//! `js/` is the public API; this module is its private engine.

mod convert;
mod directory;
mod error;
mod exec_io;
mod fetch;
mod fs_api;
mod fs_mounts;
mod host;
pub mod run;
mod sandbox;

pub use host::{HostObject, JsHost};
pub use run::{cancel_run, poll_run, take_run_result, RunId};
pub use sandbox::WasmSandbox;

use crate::syntax::Completeness;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;

thread_local! {
    static PANIC_REPORTER: RefCell<Option<js_sys::Function>> = const { RefCell::new(None) };
}

/// Installs the panic hook once per instance: a panic is a bug, and its
/// message is the only clue the wrapper gets before the instance traps.
#[wasm_bindgen(start)]
pub fn start() {
    std::panic::set_hook(Box::new(|info| {
        let message = info.to_string();
        PANIC_REPORTER.with(|reporter| {
            if let Some(callback) = reporter.borrow().as_ref() {
                let _ = callback.call1(&JsValue::NULL, &JsValue::from_str(&message));
            }
        });
    }));
}

/// Registers the JS function that receives the message of a panic, just
/// before the instance traps and the wrapper replaces it.
#[wasm_bindgen(js_name = setPanicReporter)]
pub fn set_panic_reporter(callback: js_sys::Function) {
    PANIC_REPORTER.with(|reporter| *reporter.borrow_mut() = Some(callback));
}

/// Whether `source` is a complete script (`"complete"`) or needs more lines
/// (`"incomplete"`: an open quote, compound command or trailing operator).
/// The CLI uses it to choose between running a line and a continuation prompt.
#[wasm_bindgen]
pub fn completeness(source: &str) -> String {
    match crate::syntax::completeness(source) {
        Completeness::Complete => "complete".to_string(),
        Completeness::Incomplete => "incomplete".to_string(),
    }
}

/// Bytes the instance has allocated (read by the wrapper after a crash, to
/// tell running out of memory from other traps).
#[wasm_bindgen(js_name = memoryAllocated)]
pub fn memory_allocated() -> f64 {
    crate::memory::allocated() as f64
}

/// The instance's memory cap in bytes (`memoryLimit`; infinite when none).
#[wasm_bindgen(js_name = memoryLimit)]
pub fn memory_limit() -> f64 {
    match crate::memory::limit() {
        usize::MAX => f64::INFINITY,
        limit => limit as f64,
    }
}

/// Deliberately allocates without bound, so tests can prove that running
/// out of memory is reported as such and the sandbox comes back. Not part
/// of the public API.
#[wasm_bindgen(js_name = debugExhaustMemory)]
pub fn debug_exhaust_memory() -> usize {
    let mut blocks: Vec<Vec<u8>> = Vec::new();
    loop {
        blocks.push(vec![1u8; 16 << 20]);
        if blocks.len() == usize::MAX {
            return blocks.len();
        }
    }
}

/// Deliberately panics, so tests can prove that the wrapper survives a
/// trapped instance. Not part of the public API.
#[wasm_bindgen(js_name = debugPanic)]
pub fn debug_panic() {
    panic!("debugPanic called");
}

/// Sleeps through the host object and then yields, resolving to the
/// milliseconds that passed: lets tests prove that a run waiting on a JS
/// promise is woken and finished by the wrapper. Not part of the public API.
#[wasm_bindgen(js_name = debugSleep)]
pub fn debug_sleep(host: HostObject, millis: f64) -> RunId {
    use crate::host::Host;
    run::spawn(async move {
        let host = JsHost::new(host);
        let started = host.now_millis();
        host.sleep(millis).await;
        host.yield_now().await;
        Ok(JsValue::from_f64(host.now_millis() - started))
    })
}
