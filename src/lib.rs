//! wabash: a bash-compatible shell that runs scripts over an in-memory
//! filesystem, with no processes, no host files and no network except what
//! the host grants. Built natively for tests and to WebAssembly for JS hosts.
//!
//! Layers depend one way: [`syntax`] <- [`expand`] <- [`interp`] <-
//! [`commands`]; [`fs`], [`io`], [`regex`] and [`host`] are leaves used by all;
//! [`utility`] is the contract between the shell and the commands it runs,
//! below both, so commands never import the interpreter;
//! [`Sandbox`] ties them together and the `wasm` module exposes it to JS.

pub mod calendar;
pub mod commands;
pub mod executor;
pub mod expand;
pub mod fs;
pub mod host;
pub mod interp;
pub mod io;
pub mod memory;
pub mod regex;
mod sandbox;
pub mod syntax;
pub mod utility;
#[cfg(target_arch = "wasm32")]
pub mod wasm;

pub use sandbox::{overlay_patch, ExecOptions, ExecResult, RestoreError, Sandbox, SandboxOptions};
