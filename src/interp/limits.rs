//! Execution limits: one budget per run plus totals across the session.
//! Every limit error names the limit and its value, and leaves the sandbox
//! usable for the next run.

use std::cell::Cell;
use std::rc::Rc;

/// Configurable limits. Defaults are generous enough for ordinary scripts
/// (a 100,000-iteration loop or a 50,000-command build script is normal).
#[derive(Debug, Clone)]
pub struct Limits {
    /// Most commands (simple commands, builtins, utilities) one run may start.
    pub max_commands: u64,
    /// Most loop iterations one run may perform, across all loops.
    pub max_loop_iterations: u64,
    /// Deepest function call nesting (bash's FUNCNEST). The default, 200,
    /// stays within the machine stack Node gives WebAssembly by default.
    pub max_call_depth: usize,
    /// Deepest nesting of command substitutions and subshells.
    pub max_substitution_depth: usize,
    /// Longest string one expansion or variable may hold, in bytes.
    pub max_string_bytes: usize,
    /// Most elements one array may hold.
    pub max_array_elements: usize,
    /// Most bytes of stdout (and of stderr) one run may produce.
    pub max_output_bytes: usize,
    /// Longest run, in milliseconds of host time (0: no limit).
    pub max_duration_ms: f64,
    /// Most commands across all runs of the session (0: no limit).
    pub max_session_commands: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_commands: 10_000_000,
            max_loop_iterations: 10_000_000,
            max_call_depth: 200,
            max_substitution_depth: 100,
            max_string_bytes: 64 << 20,
            max_array_elements: 1_000_000,
            max_output_bytes: 64 << 20,
            max_duration_ms: 0.0,
            max_session_commands: 0,
        }
    }
}

/// Counters shared by a run and all its subshells.
#[derive(Debug, Default)]
pub struct Budget {
    /// Commands started in this run.
    pub commands: Cell<u64>,
    /// Loop iterations in this run.
    pub iterations: Cell<u64>,
    /// Commands started in the whole session.
    pub session_commands: Cell<u64>,
    /// Host time when the run started.
    pub started_ms: Cell<f64>,
    /// Set once a limit has fired: the whole run unwinds.
    pub exceeded: Cell<bool>,
    /// Set once the host's interrupt was seen (its INT/TERM trap then runs
    /// without being interrupted again).
    pub interrupt_seen: Cell<bool>,
}

impl Budget {
    /// A fresh shared budget.
    pub fn new() -> Rc<Budget> {
        Rc::new(Budget::default())
    }
}
