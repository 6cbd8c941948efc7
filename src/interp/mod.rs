//! The interpreter: runs the syntax tree with bash 5.2 semantics.

mod utility;

pub use utility::{write_failure_status, Invocation, ShellServices, Utility, UtilityFn, STATUS_SIGPIPE};

use crate::fs::Fs;
use crate::host::Host;
use crate::io::Fd;
use std::rc::Rc;

/// Execution limits.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Most bytes of stdout (and of stderr) one run may produce.
    pub max_output_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_output_bytes: 64 << 20 }
    }
}

/// What a shell is built from.
pub struct ShellConfig {
    /// The filesystem.
    pub fs: Rc<dyn Fs>,
    /// The host.
    pub host: Rc<dyn Host>,
    /// The utilities table.
    pub utilities: &'static [Utility],
    /// Initial exported environment.
    pub env: Vec<(String, String)>,
    /// Initial working directory.
    pub cwd: String,
    /// Limits.
    pub limits: Limits,
}

/// A shell session.
pub struct Shell {
    limits: Limits,
}

impl Shell {
    /// A new session.
    pub fn new(config: ShellConfig) -> Shell {
        Shell { limits: config.limits }
    }

    /// The limits in force.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Runs a script at top level.
    pub async fn run_top_level(
        &mut self,
        _script: &str,
        _stdin: Fd,
        _stdout: Fd,
        _stderr: Fd,
        _env: Vec<(String, String)>,
        _cwd: Option<String>,
    ) -> i32 {
        0
    }
}
