//! The engine's [`Host`] under JavaScript: the clock and the random seed come
//! from the JS platform; sleeping, yielding, interruption and custom commands
//! come from a host object the wrapper supplies, so each runtime picks its
//! own timers and abort signals.
//!
//! A custom command runs as a conversation: `startCommand(call)` returns a
//! session whose `next()` resolves to the command's next event, either a
//! script to run back in the sandbox (`ctx.exec`, answered with `reply`) or
//! the command's final output.

use crate::host::{FetchError, FetchRequest, FetchResponse, Host, HostCommandCall, HostCommandOutput, HostCommandShell, LocalFuture};
use serde::{Deserialize, Serialize};
use serde_bytes::ByteBuf;
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

    #[wasm_bindgen(method, catch, js_name = commandNames)]
    fn command_names(this: &HostObject) -> Result<JsValue, JsValue>;

    #[wasm_bindgen(method, catch, js_name = startCommand)]
    fn start_command(this: &HostObject, call: JsValue) -> Result<CommandSession, JsValue>;

    /// One running custom command: `{ next(): Promise<event>, reply(output): void }`.
    pub type CommandSession;

    #[wasm_bindgen(method, catch)]
    fn next(this: &CommandSession) -> Result<js_sys::Promise, JsValue>;

    #[wasm_bindgen(method, catch)]
    fn reply(this: &CommandSession, output: JsValue) -> Result<(), JsValue>;
}

/// A custom command call as JS receives it.
#[derive(Serialize)]
struct CallOut {
    argv: Vec<String>,
    stdin: ByteBuf,
    cwd: String,
    env: Vec<(String, String)>,
}

/// Output as it crosses the boundary, both ways: `{ stdout, stderr, exitCode }`.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct OutputBytes {
    stdout: ByteBuf,
    stderr: ByteBuf,
    exit_code: i32,
}

/// What a custom command's session reports next: `{ exec: {...} }` or `{ done: {...} }`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
enum CommandEvent {
    /// The command asks to run `script` in the sandbox (`ctx.exec`).
    Exec { script: String, stdin: ByteBuf },
    /// The command writes to its standard output (fd 1) or error (fd 2) now.
    Write { fd: u32, bytes: ByteBuf },
    /// The command asks for the next chunk of its standard input.
    Read { max: f64 },
    /// The command finished.
    Done(OutputBytes),
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

    fn commands_stream_stdin(&self) -> bool {
        true
    }

    fn command_names(&self) -> Vec<String> {
        self.object.command_names().ok().and_then(|names| serde_wasm_bindgen::from_value(names).ok()).unwrap_or_default()
    }

    fn run_command<'a>(&'a self, call: HostCommandCall, shell: &'a mut dyn HostCommandShell) -> LocalFuture<'a, HostCommandOutput> {
        Box::pin(async move {
            let name = call.argv.first().cloned().unwrap_or_default();
            match self.converse(call, shell).await {
                Ok(output) => output,
                Err(error) => HostCommandOutput::failure(1, &format!("{name}: {}", describe(&error))),
            }
        })
    }

    fn fetch(&self, request: FetchRequest) -> LocalFuture<'_, Result<FetchResponse, FetchError>> {
        Box::pin(super::fetch::fetch(&self.object, request))
    }
}

impl JsHost {
    /// Starts a custom command and serves its `ctx.exec` requests until it finishes.
    async fn converse(&self, call: HostCommandCall, shell: &mut dyn HostCommandShell) -> Result<HostCommandOutput, JsValue> {
        let call = CallOut { argv: call.argv, stdin: ByteBuf::from(call.stdin), cwd: call.cwd, env: call.env };
        let session = self.object.start_command(to_js(&call)?)?;
        loop {
            let event = JsFuture::from(session.next()?).await?;
            match serde_wasm_bindgen::from_value(event).map_err(|error| JsValue::from_str(&error.to_string()))? {
                CommandEvent::Done(output) => {
                    return Ok(HostCommandOutput {
                        stdout: output.stdout.into_vec(),
                        stderr: output.stderr.into_vec(),
                        status: output.exit_code,
                    });
                }
                CommandEvent::Write { fd, bytes } => {
                    let written = shell.write_output(fd == 2, bytes.into_vec()).await;
                    let reply = js_sys::Object::new();
                    if let Err(status) = written {
                        let message = if status == crate::interp::STATUS_SIGPIPE { "EPIPE" } else { "EIO" };
                        js_sys::Reflect::set(&reply, &JsValue::from_str("error"), &JsValue::from_str(message))?;
                        session.reply(reply.into())?;
                        // As a process killed by the failed write: the command ends here.
                        return Ok(HostCommandOutput { status, ..HostCommandOutput::default() });
                    }
                    session.reply(reply.into())?;
                }
                CommandEvent::Read { max } => {
                    let max = if max.is_finite() && max >= 1.0 { max.min(f64::from(1u32 << 20)) as usize } else { 64 << 10 };
                    let chunk = shell.read_stdin(max).await;
                    session.reply(js_sys::Uint8Array::from(chunk.as_slice()).into())?;
                }
                CommandEvent::Exec { script, stdin } => {
                    let output = shell.exec(script, stdin.into_vec()).await;
                    let reply = OutputBytes {
                        stdout: ByteBuf::from(output.stdout),
                        stderr: ByteBuf::from(output.stderr),
                        exit_code: output.status,
                    };
                    session.reply(to_js(&reply)?)?;
                }
            }
        }
    }
}

/// A serializable value as a plain JS object (byte buffers as `Uint8Array`).
fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    value.serialize(&serde_wasm_bindgen::Serializer::new()).map_err(|error| JsValue::from_str(&error.to_string()))
}

/// The message of a thrown JS value: an `Error`'s message, or the value as text.
fn describe(error: &JsValue) -> String {
    if let Some(error) = error.dyn_ref::<js_sys::Error>() {
        return String::from(error.message());
    }
    error.as_string().unwrap_or_else(|| "custom command failed".to_string())
}
