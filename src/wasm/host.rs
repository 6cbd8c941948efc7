//! The engine's [`Host`] under JavaScript: the clock and the random seed come
//! from the JS platform; sleeping, yielding and interruption come from a host
//! object the wrapper supplies, so each runtime picks its own timers and
//! abort signals.

use crate::host::{Host, LocalFuture};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen]
extern "C" {
    /// The object the wrapper passes to `WasmSandbox.create`:
    /// `{ sleep(ms): Promise<void>, yieldNow(): Promise<void>, interrupted(): boolean }`.
    pub type HostObject;

    #[wasm_bindgen(method, catch)]
    fn sleep(this: &HostObject, millis: f64) -> Result<js_sys::Promise, JsValue>;

    #[wasm_bindgen(method, catch, js_name = yieldNow)]
    fn yield_now(this: &HostObject) -> Result<js_sys::Promise, JsValue>;

    #[wasm_bindgen(method, catch)]
    fn interrupted(this: &HostObject) -> Result<bool, JsValue>;
}

/// A [`Host`] backed by the JS platform and the wrapper's host object.
pub struct JsHost {
    object: HostObject,
}

impl JsHost {
    /// Wraps the wrapper's host object.
    pub fn new(object: HostObject) -> Self {
        JsHost { object }
    }
}

/// Awaits a promise a host method returned, treating a throw or a rejection
/// as "done": a broken timer must not take the sandbox down.
async fn settle(promise: Result<js_sys::Promise, JsValue>) {
    if let Ok(promise) = promise {
        let _ = JsFuture::from(promise).await;
    }
}

impl Host for JsHost {
    fn now_millis(&self) -> f64 {
        js_sys::Date::now()
    }

    fn random_seed(&self) -> u64 {
        let mut bytes = [0u8; 8];
        if getrandom::fill(&mut bytes).is_err() {
            // No Web Crypto: fall back to the clock, still distinct per sandbox.
            return js_sys::Date::now().to_bits() ^ (js_sys::Math::random().to_bits() << 1);
        }
        u64::from_le_bytes(bytes)
    }

    fn yield_now(&self) -> LocalFuture<'_, ()> {
        Box::pin(settle(self.object.yield_now()))
    }

    fn sleep(&self, millis: f64) -> LocalFuture<'_, ()> {
        Box::pin(settle(self.object.sleep(millis)))
    }

    fn interrupted(&self) -> bool {
        self.object.interrupted().unwrap_or(false)
    }
}
