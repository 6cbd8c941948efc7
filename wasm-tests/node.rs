//! Tests of the wasm boundary under Node (wasm-bindgen-test): the JS host,
//! the polled runs, option and result conversion, and filesystem errors.
//! `cargo test --target wasm32-unknown-unknown --test wasm`.
#![cfg(target_arch = "wasm32")]

use js_sys::{Function, Promise, Reflect, Uint8Array};
use wabash::host::Host;
use wabash::wasm::{completeness, poll_run, take_run_result, HostObject, JsHost, RunId, WasmSandbox};
use wabash::SandboxOptions;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::wasm_bindgen_test;

/// A host object like the wrapper's: real timers, never interrupted.
fn host_object() -> HostObject {
    let make = Function::new_no_args(
        "return { sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
                  yieldNow: () => new Promise((r) => setTimeout(r, 0)),
                  interrupted: () => false };",
    );
    make.call0(&JsValue::NULL).expect("host object").unchecked_into()
}

/// Resolves on the next macrotask.
async fn tick() {
    let promise = Promise::new(&mut |resolve, _| {
        let set_timeout: Function = Reflect::get(&js_sys::global(), &"setTimeout".into()).expect("setTimeout").unchecked_into();
        set_timeout.call2(&JsValue::NULL, &resolve, &JsValue::from(0)).expect("setTimeout call");
    });
    JsFuture::from(promise).await.expect("tick");
}

/// Polls a run to its end the simple way: poll, let the event loop turn, repeat.
async fn finish(run: RunId) -> Result<JsValue, JsValue> {
    while !poll_run(run)? {
        tick().await;
    }
    take_run_result(run)
}

async fn sandbox() -> WasmSandbox {
    WasmSandbox::build(SandboxOptions::default(), JsHost::new(host_object())).await
}

fn field(object: &JsValue, name: &str) -> JsValue {
    Reflect::get(object, &name.into()).expect("field")
}

fn text(bytes: &JsValue) -> String {
    String::from_utf8_lossy(&bytes.dyn_ref::<Uint8Array>().expect("Uint8Array").to_vec()).into_owned()
}

fn options(source: &str) -> JsValue {
    js_sys::JSON::parse(source).expect("options JSON")
}

#[wasm_bindgen_test]
async fn host_gives_clock_seed_and_timers() {
    let host = JsHost::new(host_object());
    let now = js_sys::Date::now();
    assert!((host.now_millis() - now).abs() < 1000.0);
    assert_ne!(host.random_seed(), host.random_seed());
    host.sleep(1.0).await;
    host.yield_now().await;
    assert!(!host.interrupted());
}

#[wasm_bindgen_test]
async fn exec_returns_bytes_and_status() {
    let sandbox = sandbox().await;
    let result = finish(sandbox.exec("echo hi | cat".into(), JsValue::UNDEFINED, JsValue::UNDEFINED)).await.expect("exec");
    assert_eq!(text(&field(&result, "stdout")), "hi\n");
    assert_eq!(text(&field(&result, "stderr")), "");
    assert_eq!(field(&result, "exitCode").as_f64(), Some(0.0));
}

#[wasm_bindgen_test]
async fn a_finished_run_answers_late_polls_with_an_error_not_a_trap() {
    let sandbox = sandbox().await;
    let before = wabash::wasm::run::run_count();
    let id = sandbox.exec("seq 100000 | wc -l".into(), JsValue::UNDEFINED, JsValue::UNDEFINED);
    let result = finish(id).await.expect("exec");
    assert_eq!(text(&field(&result, "stdout")), "100000\n");
    // The run left the table when its result was taken: nothing can reach it.
    assert_eq!(wabash::wasm::run::run_count(), before);
    let late = poll_run(id).expect_err("a late poll");
    assert_eq!(field(&late, "code").as_string().as_deref(), Some("WABASH_INTERNAL"));
    let again = take_run_result(id).expect_err("a second take");
    assert_eq!(field(&again, "code").as_string().as_deref(), Some("WABASH_INTERNAL"));
    wabash::wasm::cancel_run(id);
    // The sandbox is still there.
    let next = finish(sandbox.exec("echo ok".into(), JsValue::UNDEFINED, JsValue::UNDEFINED)).await.expect("exec");
    assert_eq!(text(&field(&next, "stdout")), "ok\n");
}

#[wasm_bindgen_test]
async fn unknown_command_is_a_bash_error_not_an_exception() {
    let sandbox = sandbox().await;
    let result = finish(sandbox.exec("nosuchcommand".into(), JsValue::UNDEFINED, JsValue::UNDEFINED)).await.expect("exec");
    assert_eq!(field(&result, "exitCode").as_f64(), Some(127.0));
    assert!(text(&field(&result, "stderr")).contains("nosuchcommand: command not found"));
}

#[wasm_bindgen_test]
async fn exec_options_reach_the_script() {
    let sandbox = sandbox().await;
    let stdin = Uint8Array::from(&b"piped\n"[..]);
    let input = options(r#"{"env": [["GREETING", "hello"]], "cwd": "/tmp"}"#);
    Reflect::set(&input, &"stdin".into(), &stdin).expect("set stdin");
    let result = finish(sandbox.exec("echo $GREETING; pwd; cat".into(), input, JsValue::UNDEFINED)).await.expect("exec");
    assert_eq!(text(&field(&result, "stdout")), "hello\n/tmp\npiped\n");
}

#[wasm_bindgen_test]
async fn invalid_options_are_coded_errors() {
    let sandbox = sandbox().await;
    let error = finish(sandbox.exec("true".into(), options(r#"{"env": 5}"#), JsValue::UNDEFINED)).await.expect_err("bad env");
    assert_eq!(field(&error, "code").as_string().as_deref(), Some("WABASH_INVALID_OPTIONS"));
}

#[wasm_bindgen_test]
async fn filesystem_round_trip_and_errors() {
    let sandbox = sandbox().await;
    finish(sandbox.write_file("notes/a.txt".into(), b"data".to_vec())).await.expect("write");
    let bytes = finish(sandbox.read_file("/home/user/notes/a.txt".into())).await.expect("read");
    assert_eq!(text(&bytes), "data");
    assert_eq!(finish(sandbox.exists("notes".into())).await.expect("exists").as_bool(), Some(true));
    let names = finish(sandbox.read_dir("notes".into())).await.expect("readdir");
    assert_eq!(js_sys::Array::from(&names).to_vec(), vec![JsValue::from_str("a.txt")]);
    let error = finish(sandbox.read_file("/missing".into())).await.expect_err("missing");
    assert_eq!(field(&error, "code").as_string().as_deref(), Some("ENOENT"));
    let error = finish(sandbox.read_dir("notes/a.txt".into())).await.expect_err("not a dir");
    assert_eq!(field(&error, "code").as_string().as_deref(), Some("ENOTDIR"));
}

#[wasm_bindgen_test]
fn completeness_tells_complete_from_incomplete() {
    assert_eq!(completeness("echo hi"), "complete");
    assert_eq!(completeness("echo 'unterminated"), "incomplete");
    assert_eq!(completeness("if true; then"), "incomplete");
}

/// A host object with two custom commands: `twice SCRIPT` runs SCRIPT back
/// in the sandbox (with its own stdin, read through `read` requests) and prints its output twice, status
/// 5; `boom` fails inside the host.
fn host_with_commands() -> HostObject {
    let make = Function::new_no_args(
        "return { sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
                  yieldNow: () => new Promise((r) => setTimeout(r, 0)),
                  interrupted: () => false,
                  commandNames: () => ['twice', 'boom'],
                  startCommand(call) {
                    if (call.argv[0] === 'boom') {
                      return { next: () => Promise.reject(new Error('host broke')), reply() {} };
                    }
                    let phase = 'read';
                    let stdin = new Uint8Array();
                    let answer;
                    return {
                      next: () => {
                        if (phase === 'read') return Promise.resolve({ read: { max: 65536 } });
                        if (phase === 'exec') return Promise.resolve({ exec: { script: call.argv[1], stdin } });
                        return Promise.resolve({ done: { stdout: new Uint8Array([...answer.stdout, ...answer.stdout]),
                                                         stderr: answer.stderr, exitCode: 5 } });
                      },
                      reply(output) {
                        if (phase === 'read') {
                          const chunk = output instanceof Uint8Array ? output : new Uint8Array();
                          if (chunk.byteLength === 0) phase = 'exec';
                          else stdin = new Uint8Array([...stdin, ...chunk]);
                        } else {
                          answer = output;
                          phase = 'done';
                        }
                      },
                    };
                  } };",
    );
    make.call0(&JsValue::NULL).expect("host object").unchecked_into()
}

#[wasm_bindgen_test]
async fn custom_commands_run_through_the_host_and_can_exec_back() {
    let sandbox = WasmSandbox::build(SandboxOptions::default(), JsHost::new(host_with_commands())).await;
    let script = "export X=x; echo in | twice 'cat; echo $X; echo e >&2'; echo $?; command -v twice; boom; echo $?";
    let result = finish(sandbox.exec(script.into(), JsValue::UNDEFINED, JsValue::UNDEFINED)).await.expect("exec");
    assert_eq!(text(&field(&result, "stdout")), "in\nx\nin\nx\n5\n/usr/bin/twice\n1\n");
    assert_eq!(text(&field(&result, "stderr")), "e\nboom: host broke\n");
}
