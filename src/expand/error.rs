//! Expansion errors, worded as bash words them. In a non-interactive shell
//! each of them ends the script (or the subshell) with its status.

use super::arith::ArithError;
use std::fmt;

/// Why an expansion failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExpandError {
    /// `x: unbound variable` under `set -u` (status 127).
    Unbound(String),
    /// `x: unbound variable` from `${#x[@]}` under `set -u`: status 1, and
    /// only the line is abandoned.
    UnboundArray(String),
    /// `${x!}: bad substitution` (status 1).
    BadSubstitution(String),
    /// ``bad substitution: no closing "`" in `x`` or `` no closing `)' ``
    /// (status 1).
    UnclosedSubstitution {
        /// `` ` `` or `)`.
        closer: char,
        /// The text named.
        text: String,
    },
    /// `x: message` from `${x:?message}` (status 127).
    NullOrUnset {
        /// The parameter's name.
        name: String,
        /// The message (default `parameter null or not set`, or `parameter
        /// not set` without the colon).
        message: String,
    },
    /// An arithmetic error (status 1).
    Arith(ArithError),
    /// An arithmetic error in an array subscript (`a[1 2]=x`, `${a[1 2]}`):
    /// bash exits the shell with status 1, where an error in `$(( ))` only
    /// abandons the line.
    Subscript(ArithError),
    /// `no match: pattern` under failglob (status 1).
    NoMatch(String),
    /// `x: readonly variable` (status 1).
    Readonly(String),
    /// `$x: cannot assign in this way` and other assignment failures (status 1).
    Assign(String),
    /// `${!x}` where `x` names nothing usable (status 1).
    Indirect(String),
    /// A run limit was exceeded (names it).
    Limit(String),
    /// The run was interrupted or must stop (the status to exit with).
    Abort(i32),
}

impl ExpandError {
    /// The status the shell exits with after reporting this error.
    pub fn status(&self) -> i32 {
        match self {
            ExpandError::Unbound(_) | ExpandError::NullOrUnset { .. } => 127,
            ExpandError::Limit(_) => 126,
            ExpandError::Abort(status) => *status,
            _ => 1,
        }
    }
}

impl fmt::Display for ExpandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExpandError::Unbound(name) | ExpandError::UnboundArray(name) => write!(f, "{name}: unbound variable"),
            ExpandError::BadSubstitution(text) => write!(f, "{text}: bad substitution"),
            ExpandError::UnclosedSubstitution { closer: '`', text } => write!(f, "bad substitution: no closing \"`\" in {text}"),
            ExpandError::UnclosedSubstitution { closer, text } => write!(f, "bad substitution: no closing `{closer}' in {text}"),
            ExpandError::NullOrUnset { name, message } => write!(f, "{name}: {message}"),
            ExpandError::Arith(error) | ExpandError::Subscript(error) => write!(f, "{error}"),
            ExpandError::NoMatch(pattern) => write!(f, "no match: {pattern}"),
            ExpandError::Readonly(name) => write!(f, "{name}: readonly variable"),
            ExpandError::Assign(message) => f.write_str(message),
            ExpandError::Limit(message) | ExpandError::Indirect(message) => f.write_str(message),
            ExpandError::Abort(_) => Ok(()),
        }
    }
}

impl From<ArithError> for ExpandError {
    fn from(error: ArithError) -> Self {
        ExpandError::Arith(error)
    }
}
