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
    /// Most loop iterations across all runs of the session (0: no limit).
    pub max_session_loop_iterations: u64,
    /// Most milliseconds of host time across all runs of the session (0: no limit).
    pub max_session_duration_ms: f64,
    /// Most awk steps (statements and loop iterations) one run may perform.
    pub max_awk_iterations: u64,
    /// Most jq evaluation steps one run may perform.
    pub max_jq_iterations: u64,
    /// Most sed commands (branch loops included) one run may perform.
    pub max_sed_iterations: u64,
    /// Most bc instructions one run may perform.
    pub max_bc_iterations: u64,
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
            max_session_loop_iterations: 0,
            max_session_duration_ms: 0.0,
            max_awk_iterations: 100_000_000,
            max_jq_iterations: 100_000_000,
            max_sed_iterations: 100_000_000,
            max_bc_iterations: 100_000_000,
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
    /// Loop iterations in the whole session.
    pub session_iterations: Cell<u64>,
    /// Host time spent by the session's earlier runs.
    pub session_earlier_ms: Cell<f64>,
    /// Host time when the run started.
    pub started_ms: Cell<f64>,
    /// awk, jq and sed steps in this run, by [`StepKind`](crate::utility::StepKind).
    pub steps: [Cell<u64>; 4],
    /// Set once a limit has fired: the whole run unwinds.
    pub exceeded: Cell<bool>,
}

impl Budget {
    /// A fresh shared budget.
    pub fn new() -> Rc<Budget> {
        Rc::new(Budget::default())
    }

    /// The budget of a run starting at host time `now_ms`: fresh per-run
    /// counters, this budget's session totals.
    pub fn next_run(&self, now_ms: f64) -> Rc<Budget> {
        let next = Budget::default();
        next.session_commands.set(self.session_commands.get());
        next.session_iterations.set(self.session_iterations.get());
        next.session_earlier_ms.set(self.session_earlier_ms.get());
        next.started_ms.set(now_ms);
        Rc::new(next)
    }

    /// Adds the run that ends at host time `now_ms` to the session's time.
    pub fn finish_run(&self, now_ms: f64) {
        self.session_earlier_ms.set(self.session_earlier_ms.get() + (now_ms - self.started_ms.get()).max(0.0));
    }

    /// Counts one command; the run's count, or the message of the limit it breaks.
    pub fn charge_command(&self, limits: &Limits) -> Result<u64, String> {
        charge(&self.commands, &self.session_commands, limits.max_commands, limits.max_session_commands, "command")
    }

    /// Counts one loop iteration; the run's count, or the message of the limit it breaks.
    pub fn charge_iteration(&self, limits: &Limits) -> Result<u64, String> {
        charge(&self.iterations, &self.session_iterations, limits.max_loop_iterations, limits.max_session_loop_iterations, "loop iteration")
    }

    /// Counts `steps` of `kind`; true when the count crossed a multiple of
    /// 65,536 (time for the caller to check the clock), or the message of
    /// the limit it breaks.
    pub fn charge_steps(&self, limits: &Limits, kind: crate::utility::StepKind, steps: u64) -> Result<bool, String> {
        use crate::utility::StepKind;
        let (cell, max) = match kind {
            StepKind::Awk => (&self.steps[0], limits.max_awk_iterations),
            StepKind::Jq => (&self.steps[1], limits.max_jq_iterations),
            StepKind::Sed => (&self.steps[2], limits.max_sed_iterations),
            StepKind::Bc => (&self.steps[3], limits.max_bc_iterations),
        };
        let before = cell.get();
        let after = before.saturating_add(steps);
        cell.set(after);
        if after > max {
            return Err(format!("{} iteration limit ({max}) exceeded", kind.label()));
        }
        Ok(before >> 16 != after >> 16)
    }

    /// Checks the time limits at host time `now_ms`; the message of the limit it breaks.
    pub fn check_time(&self, limits: &Limits, now_ms: f64) -> Result<(), String> {
        let elapsed = now_ms - self.started_ms.get();
        if limits.max_duration_ms > 0.0 && elapsed > limits.max_duration_ms {
            return Err(format!("time limit ({} ms) exceeded", limits.max_duration_ms));
        }
        if limits.max_session_duration_ms > 0.0 && self.session_earlier_ms.get() + elapsed > limits.max_session_duration_ms {
            return Err(format!("session time limit ({} ms) exceeded", limits.max_session_duration_ms));
        }
        Ok(())
    }
}

/// Adds one to a run counter and its session total; the run's count, or the
/// message naming the `what` limit that broke (a session maximum of 0 is none).
fn charge(run: &Cell<u64>, session: &Cell<u64>, max_run: u64, max_session: u64, what: &str) -> Result<u64, String> {
    let count = run.get() + 1;
    run.set(count);
    let total = session.get() + 1;
    session.set(total);
    if count > max_run {
        return Err(format!("{what} limit ({max_run}) exceeded"));
    }
    if max_session > 0 && total > max_session {
        return Err(format!("session {what} limit ({max_session}) exceeded"));
    }
    Ok(count)
}

#[cfg(test)]
mod tests {
    use super::{Budget, Limits};

    #[test]
    fn session_totals_carry_over_runs_and_per_run_counters_do_not() {
        let limits = Limits { max_commands: 2, max_session_commands: 3, ..Limits::default() };
        let first = Budget::new().next_run(0.0);
        assert_eq!(first.charge_command(&limits), Ok(1));
        assert_eq!(first.charge_command(&limits), Ok(2));
        assert_eq!(first.charge_command(&limits), Err("command limit (2) exceeded".to_string()));
        let second = first.next_run(0.0);
        assert_eq!(second.charge_command(&limits), Err("session command limit (3) exceeded".to_string()));
    }

    #[test]
    fn session_iterations_and_time_add_up_across_runs() {
        let limits = Limits { max_session_loop_iterations: 2, max_session_duration_ms: 100.0, ..Limits::default() };
        let first = Budget::new().next_run(1000.0);
        assert_eq!(first.charge_iteration(&limits), Ok(1));
        first.finish_run(1060.0);
        let second = first.next_run(5000.0);
        assert_eq!(second.charge_iteration(&limits), Ok(1));
        assert!(second.charge_iteration(&limits).unwrap_err().contains("session loop iteration limit (2)"));
        assert_eq!(second.check_time(&limits, 5030.0), Ok(()));
        assert_eq!(second.check_time(&limits, 5050.0), Err("session time limit (100 ms) exceeded".to_string()));
    }
}
