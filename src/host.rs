//! Everything the engine asks of the world outside the sandbox.
//!
//! The engine never touches the real machine: no files, processes, sockets or
//! clocks. It asks its host, through the one [`Host`] trait, for the time, for
//! randomness, and (in later layers) for network fetches, custom commands and
//! host-backed mounts. Calls that may wait return futures, so the same engine
//! runs under a JS event loop (where nothing may block) and under a native
//! `block_on` in tests.

use std::cell::Cell;
use std::future::Future;
use std::pin::Pin;

/// A boxed future that need not be `Send`: the engine is single-threaded.
pub type LocalFuture<'a, T> = Pin<Box<dyn Future<Output = T> + 'a>>;

/// The services a sandbox needs from whoever embeds it.
pub trait Host {
    /// Wall-clock time in milliseconds since the Unix epoch.
    fn now_millis(&self) -> f64;

    /// A 64-bit seed for the sandbox's pseudo-random generator (`$RANDOM`, `mktemp`).
    fn random_seed(&self) -> u64;

    /// Lets the embedding event loop run (timers, abort signals, output
    /// streaming). Called now and then by long-running scripts.
    fn yield_now(&self) -> LocalFuture<'_, ()> {
        Box::pin(async {})
    }

    /// Waits for `millis` milliseconds of real time (`sleep`).
    fn sleep(&self, millis: f64) -> LocalFuture<'_, ()>;

    /// True once the host has asked the running script to stop (an abort signal, Ctrl-C).
    fn interrupted(&self) -> bool {
        false
    }

    /// True when the interrupt is only a command's own deadline (`timeout`):
    /// that command stops, the rest of the run goes on.
    fn deadline_passed(&self) -> bool {
        false
    }
}

/// A host with a fixed, hand-advanced clock and a fixed seed, for tests and
/// reproducible runs. `sleep` advances the clock instead of waiting.
#[derive(Debug)]
pub struct FixedHost {
    now: Cell<f64>,
    seed: u64,
}

impl FixedHost {
    /// A host whose clock starts at `now_millis` and whose seed is `seed`.
    pub fn new(now_millis: f64, seed: u64) -> Self {
        FixedHost { now: Cell::new(now_millis), seed }
    }
}

impl Default for FixedHost {
    fn default() -> Self {
        // 2024-01-01T00:00:00Z: a stable, recent-looking default.
        FixedHost::new(1_704_067_200_000.0, 42)
    }
}

impl Host for FixedHost {
    fn now_millis(&self) -> f64 {
        self.now.get()
    }

    fn random_seed(&self) -> u64 {
        self.seed
    }

    fn sleep(&self, millis: f64) -> LocalFuture<'_, ()> {
        self.now.set(self.now.get() + millis.max(0.0));
        Box::pin(async {})
    }
}
