//! The shapes of the options and results that cross the boundary, and their
//! conversion to and from the engine's types. The wrapper sends plain
//! objects: maps as arrays of `[key, value]` pairs, bytes as `Uint8Array`.

use super::error::{js_error, INTERNAL, INVALID_OPTIONS};
use crate::interp::Limits;
use crate::{ExecOptions, ExecResult, SandboxOptions};
use serde::{Deserialize, Serialize};
use serde_bytes::ByteBuf;
use wasm_bindgen::JsValue;

/// `WasmSandbox.create` options.
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct SandboxInput {
    /// Files to create: `[path, bytes]`.
    pub files: Vec<(String, ByteBuf)>,
    /// Exported variables: `[name, value]`.
    pub env: Vec<(String, String)>,
    /// The initial working directory.
    pub cwd: Option<String>,
    /// Execution limits; missing ones keep their defaults.
    pub execution_limits: LimitsInput,
    /// The cap on the instance's allocated memory, in bytes.
    pub memory_limit: Option<f64>,
}

/// `executionLimits`: every field optional, counts as JS numbers.
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct LimitsInput {
    /// Commands per run.
    pub max_command_count: Option<u64>,
    /// Loop iterations per run.
    pub max_loop_iterations: Option<u64>,
    /// Function call nesting.
    pub max_call_depth: Option<usize>,
    /// Command substitution and subshell nesting.
    pub max_substitution_depth: Option<usize>,
    /// Bytes in one string.
    pub max_string_length: Option<usize>,
    /// Elements in one array.
    pub max_array_elements: Option<usize>,
    /// Bytes of stdout (and of stderr) per run.
    pub max_output_size: Option<usize>,
    /// Milliseconds per run.
    pub max_duration_ms: Option<f64>,
    /// Commands across the session.
    pub max_session_command_count: Option<u64>,
    /// Loop iterations across the session.
    pub max_session_loop_iterations: Option<u64>,
    /// Milliseconds across the session.
    pub max_session_duration_ms: Option<f64>,
    /// awk steps per run.
    pub max_awk_iterations: Option<u64>,
    /// jq steps per run.
    pub max_jq_iterations: Option<u64>,
    /// sed commands per run.
    pub max_sed_iterations: Option<u64>,
    /// bc instructions per run.
    pub max_bc_iterations: Option<u64>,
}

impl LimitsInput {
    /// The engine's limits: the defaults, with the given fields replaced.
    pub fn into_limits(self) -> Limits {
        let defaults = Limits::default();
        Limits {
            max_commands: self.max_command_count.unwrap_or(defaults.max_commands),
            max_loop_iterations: self.max_loop_iterations.unwrap_or(defaults.max_loop_iterations),
            max_call_depth: self.max_call_depth.unwrap_or(defaults.max_call_depth),
            max_substitution_depth: self.max_substitution_depth.unwrap_or(defaults.max_substitution_depth),
            max_string_bytes: self.max_string_length.unwrap_or(defaults.max_string_bytes),
            max_array_elements: self.max_array_elements.unwrap_or(defaults.max_array_elements),
            max_output_bytes: self.max_output_size.unwrap_or(defaults.max_output_bytes),
            max_duration_ms: self.max_duration_ms.unwrap_or(defaults.max_duration_ms),
            max_session_commands: self.max_session_command_count.unwrap_or(defaults.max_session_commands),
            max_session_loop_iterations: self.max_session_loop_iterations.unwrap_or(defaults.max_session_loop_iterations),
            max_session_duration_ms: self.max_session_duration_ms.unwrap_or(defaults.max_session_duration_ms),
            max_awk_iterations: self.max_awk_iterations.unwrap_or(defaults.max_awk_iterations),
            max_jq_iterations: self.max_jq_iterations.unwrap_or(defaults.max_jq_iterations),
            max_sed_iterations: self.max_sed_iterations.unwrap_or(defaults.max_sed_iterations),
            max_bc_iterations: self.max_bc_iterations.unwrap_or(defaults.max_bc_iterations),
        }
    }
}

impl SandboxInput {
    /// The engine's options (the memory limit is applied separately).
    pub fn into_options(self) -> SandboxOptions {
        SandboxOptions {
            files: self.files.into_iter().map(|(path, bytes)| (path, bytes.into_vec())).collect(),
            env: self.env,
            cwd: self.cwd,
            limits: self.execution_limits.into_limits(),
            ..SandboxOptions::default()
        }
    }
}

/// `WasmSandbox.exec` options.
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct ExecInput {
    /// Standard input bytes.
    pub stdin: Option<ByteBuf>,
    /// Variables exported for this run only: `[name, value]`.
    pub env: Vec<(String, String)>,
    /// The working directory for this run only.
    pub cwd: Option<String>,
    /// Positional parameters for this run.
    pub args: Option<Vec<String>>,
    /// `$0` for this run.
    pub arg0: Option<String>,
}

impl ExecInput {
    /// The engine's options.
    pub fn into_options(self) -> ExecOptions {
        ExecOptions {
            stdin: self.stdin.map(ByteBuf::into_vec).unwrap_or_default(),
            env: self.env,
            cwd: self.cwd,
            args: self.args,
            arg0: self.arg0,
            ..ExecOptions::default()
        }
    }
}

/// `WasmSandbox.exec` result: `{ stdout, stderr, exitCode, exited, exitCalled, sessionMs }`, output as bytes.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ExecOutput {
    stdout: ByteBuf,
    stderr: ByteBuf,
    exit_code: i32,
    exited: bool,
    exit_called: bool,
    session_ms: u64,
}

/// Reads an options object; `undefined` and `null` mean all defaults.
pub fn options_from_js<T: for<'de> Deserialize<'de> + Default>(value: JsValue) -> Result<T, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(T::default());
    }
    serde_wasm_bindgen::from_value(value).map_err(|error| js_error(INVALID_OPTIONS, &format!("invalid options: {error}")))
}

/// Builds the JS result object of a run.
pub fn result_to_js(result: ExecResult) -> Result<JsValue, JsValue> {
    let output = ExecOutput {
        stdout: ByteBuf::from(result.stdout),
        stderr: ByteBuf::from(result.stderr),
        exit_code: result.exit_code,
        exited: result.exited,
        exit_called: result.exit_called,
        session_ms: result.session_ms,
    };
    serde_wasm_bindgen::to_value(&output).map_err(|error| js_error(INTERNAL, &error.to_string()))
}

/// A filesystem delta and the shell state, for the wrapper's copy of the
/// last good state: `{ full, records, recordLengths, heads, freed, shell }`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct DeltaOutput {
    full: bool,
    records: ByteBuf,
    record_lengths: Vec<u32>,
    heads: ByteBuf,
    freed: Vec<f64>,
    shell: ByteBuf,
}

/// Builds the JS object of a delta.
pub fn delta_to_js(delta: crate::fs::memory::Delta, shell: Vec<u8>) -> Result<JsValue, JsValue> {
    let output = DeltaOutput {
        full: delta.full,
        records: ByteBuf::from(delta.records),
        record_lengths: delta.record_lengths,
        heads: ByteBuf::from(delta.heads),
        freed: delta.freed.into_iter().map(|ino| ino as f64).collect(),
        shell: ByteBuf::from(shell),
    };
    output.serialize(&serde_wasm_bindgen::Serializer::new()).map_err(|error| js_error(INTERNAL, &format!("cannot convert the delta: {error}")))
}
