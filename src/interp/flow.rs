//! How control leaves a command other than by finishing: loops, returns,
//! exits, and the errors that end a script.

/// A non-local exit from a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// `break n`: leave `n` enclosing loops.
    Break(usize),
    /// `continue n`: next iteration of the `n`th enclosing loop.
    Continue(usize),
    /// `return n`: leave the function or sourced script.
    Return(i32),
    /// `exit n`, a fatal error, `set -e`, or a limit: leave the shell (or subshell).
    Exit(i32),
}

/// A command's outcome: its status, or a flow that unwinds.
pub type Outcome = Result<i32, Flow>;
