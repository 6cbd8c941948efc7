//! The interpreter: runs the syntax tree with bash 5.2 semantics.
//!
//! A [`Shell`] is one session's state: variables, functions, options, the
//! working directory, the fd table and traps. A subshell (`( )`, `$( )`, a
//! pipeline stage) is a clone of it that shares the filesystem, as a forked
//! process would.

mod builtins;
pub(crate) mod command_path;
mod compound;
mod cond;
mod exec;
mod expand_host;
mod fds;
mod flow;
mod jobs;
mod limits;
mod options;
mod program;
mod redirect;
mod run;
mod simple;
pub mod state;
mod time_report;
mod variables;
pub mod vars;

pub use crate::utility::{write_failure_status, Invocation, Process, ProgramRequest, ShellServices, Utility, UtilityFn, STATUS_SIGPIPE};
pub use flow::{Flow, Outcome};
pub use limits::{Budget, Limits};
pub use options::Options;

use crate::fs::Fs;
use crate::host::Host;
use crate::io::{Fd, Stream};
use crate::syntax::ast::FunctionDef;
use fds::FdTable;
use rustc_hash::FxHashMap as HashMap;
use std::collections::BTreeMap;

/// The utilities a shell can run, by name (the registry plus host additions).
pub type UtilityTable = Rc<BTreeMap<String, UtilityFn>>;
use std::rc::Rc;
use vars::Variables;

/// What a shell is built from.
pub struct ShellConfig {
    /// The filesystem.
    pub fs: Rc<dyn Fs>,
    /// The host.
    pub host: Rc<dyn Host>,
    /// The utilities, by name.
    pub utilities: UtilityTable,
    /// Initial exported environment.
    pub env: Vec<(String, String)>,
    /// Initial working directory.
    pub cwd: String,
    /// Limits.
    pub limits: Limits,
}

/// How a syntax error stopped the text being run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SyntaxStop {
    /// An ordinary syntax error: status 2.
    Plain,
    /// An error inside `[[ ]]`: bash's grammar then sees the end of its
    /// input, so a script stops quietly keeping `$?` (2 instead of a `$?`
    /// of 0 when the error reached the end of the input).
    Conditional {
        /// The error came at the end of the input.
        at_end: bool,
    },
}

/// Source text with its line starts, for LINENO and error messages.
#[derive(Debug, Clone)]
pub struct SourceText {
    /// The text.
    pub text: Rc<str>,
    /// Byte offset of each line's start.
    line_starts: Rc<[usize]>,
    /// The line number of the text's first line (for `eval` and functions).
    pub first_line: usize,
    /// Lines added to every number (negative for a command substitution
    /// read at an earlier line than it stands in the text).
    shift: isize,
}

impl SourceText {
    /// Indexes `text`, whose first line is numbered `first_line`.
    pub fn new(text: &str, first_line: usize) -> Self {
        let mut starts = vec![0];
        starts.extend(text.bytes().enumerate().filter(|(_, b)| *b == b'\n').map(|(i, _)| i + 1));
        SourceText { text: Rc::from(text), line_starts: Rc::from(starts), first_line, shift: 0 }
    }

    /// The same text numbered so that byte `offset` is on line `line`:
    /// a command substitution's body runs at the line of the command that
    /// expands it, as bash re-reads the body then.
    pub fn renumbered(&self, offset: u32, line: usize) -> Self {
        let shift = self.shift + line as isize - self.line_of(offset) as isize;
        SourceText { shift, ..self.clone() }
    }

    /// The line number of byte `offset`.
    pub fn line_of(&self, offset: u32) -> usize {
        let index = match self.line_starts.binary_search(&(offset as usize)) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        ((self.first_line + index) as isize + self.shift).max(0) as usize
    }
}

/// A defined function: its definition and the source it came from.
#[derive(Debug, Clone)]
pub struct Function {
    /// The definition.
    pub def: Rc<FunctionDef>,
    /// The source text the definition's spans point into.
    pub source: SourceText,
    /// The name bash puts before errors raised inside the function: the
    /// script file, or `environment` for functions defined by `bash -c`.
    pub error_name: Rc<str>,
}

/// One frame of the call stack (FUNCNAME, BASH_SOURCE, BASH_LINENO).
#[derive(Debug, Clone)]
pub struct Frame {
    /// The function name, or `source` for a sourced file.
    pub name: String,
    /// The file the function was defined in (`main` script: empty).
    pub source_name: Rc<str>,
    /// The line the call was made from.
    pub call_line: usize,
}

/// A shell's progress in answering the host's interrupt (an abort, like SIGINT).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum InterruptState {
    /// Not seen in this run.
    NotSeen,
    /// Its INT trap (or the EXIT trap after it) is running: its commands run to their end.
    InTrap,
    /// Seen and answered: every further command ends the shell with 130.
    Unwinding,
}

/// A shell session.
#[derive(Clone)]
pub struct Shell {
    fs: Rc<dyn Fs>,
    host: Rc<dyn Host>,
    utilities: UtilityTable,
    limits: Limits,
    budget: Rc<Budget>,
    /// Variables and their scopes.
    pub vars: Variables,
    functions: HashMap<String, Function>,
    aliases: std::collections::HashMap<String, String>,
    /// `$0`.
    arg0: String,
    /// `$1`...
    positional: Vec<String>,
    cwd: String,
    /// `$?`.
    last_status: i32,
    options: Options,
    fds: FdTable,
    traps: HashMap<String, String>,
    /// The parent's traps, inactive in a subshell but still listed by `trap`.
    inactive_traps: HashMap<String, String>,
    /// `$$`.
    pid: u32,
    /// `$BASHPID`: differs in subshells.
    bash_pid: u32,
    /// The `$BASHPID`s of the shells waiting on this one (a child `bash`'s
    /// parents): `kill` reaches them through the job table.
    ancestor_pids: Vec<u32>,
    next_pid: Rc<std::cell::Cell<u32>>,
    /// `$!`.
    last_background_pid: Option<u32>,
    source: SourceText,
    /// The script name in error messages (`bash: -c` style prefix without `bash: `).
    error_prefix: Rc<str>,
    /// The prefix of syntax errors (`bash: -c`, or the script name).
    syntax_prefix: String,
    current_line: usize,
    /// Where the running simple command's text ends (eval numbers its
    /// text's lines from that line, where bash's reader stands).
    command_end: u32,
    call_stack: Vec<Frame>,
    loop_depth: usize,
    /// Depth of contexts where `set -e` does not apply (conditions, `&&` lists, `!`).
    errexit_suppressed: usize,
    subshell_depth: usize,
    /// `subshell_depth` where this bash process started (a child `bash` is
    /// a new process: BASH_SUBSHELL and the PS4 repetition restart there).
    process_depth: usize,
    umask: u32,
    random_cell: std::cell::Cell<u64>,
    /// Status of the last command substitution (a bare assignment's status).
    last_substitution_status: Option<i32>,
    pipestatus: Vec<i32>,
    dir_stack: Vec<String>,
    jobs: jobs::JobTable,
    /// Set when a compound command's own redirection failed (`set -e` then
    /// applies to the compound command itself).
    compound_redirect_failed: bool,
    /// True while a compound command's redirections are applied: an error
    /// in a here-document body is then fatal, at the body's last line.
    in_compound_redirects: bool,
    /// Set when a top-level run ended through `exit` or a fatal error.
    exited: bool,
    /// Set when the `exit` builtin ran (an interactive host leaves only
    /// then, not after a fatal error).
    exit_called: bool,
    /// Whether the last failed assignment ends the shell (an arithmetic
    /// error) rather than discarding the rest of the line.
    assignment_error_is_fatal: bool,
    /// True while an ERR or DEBUG trap runs (neither triggers inside it).
    in_trap: bool,
    /// How far this shell (each subshell on its own, as each process of a
    /// foreground job gets SIGINT) got in answering the host's interrupt.
    interrupt: InterruptState,
    /// The first failed write of the running builtin (`echo hi >&-`), which
    /// turns its status into 1 with `NAME: write error: ...`.
    write_error: Option<String>,
    /// The last argument of the running simple command, stored in `$_` after it.
    last_argument: Option<String>,
    /// Set when the last text run ended on a syntax error (for `eval`,
    /// `source` and traps, which turn it into status 2).
    syntax_error: Option<SyntaxStop>,
    /// The shell's top-level text is a `-c` string (not a script file or
    /// standard input): some syntax errors end the two differently.
    command_string: bool,
    /// Depth of `source` calls (where `return` is allowed).
    source_depth: usize,
    /// How many `eval`s are running inside one another.
    eval_depth: usize,
    /// `getopts` state: position inside the current option cluster.
    getopts_position: usize,
    /// `getopts` state: OPTIND when the position was recorded.
    getopts_last_optind: usize,
    /// When `SECONDS` was assigned: the clock time (ms) it counts from.
    seconds_base_ms: Option<f64>,
    /// Dynamic variables (`RANDOM`, `SECONDS`...) that were unset and so
    /// lost their special meaning, as in bash.
    plain_specials: Vec<String>,
    /// Warnings raised where no output can be written (`must use subscript
    /// when assigning associative array`), reported after the assignment.
    warnings: Vec<String>,
    /// Fds opened for `<( )` by the current command, closed after it.
    process_substitution_fds: Vec<usize>,
    /// Commands found along `PATH` (`hash`).
    command_hash: command_path::CommandHash,
    /// Fds opened by `{var}>file` during the current command: they stay
    /// open after it.
    variable_fds: Vec<usize>,
    /// The run's own stdout and stderr captures: a write refused for going
    /// past the output limit stops the run with a message naming it.
    output_watch: Option<Rc<[Rc<crate::io::Capture>; 2]>>,
}

impl Shell {
    /// A new session with the default variables of a non-interactive bash.
    pub fn new(config: ShellConfig) -> Shell {
        let seed = config.host.random_seed();
        let stdin: Fd = Rc::new(Stream::Null);
        let mut shell = Shell {
            fs: config.fs,
            host: config.host,
            utilities: config.utilities,
            limits: config.limits,
            budget: Budget::new(),
            vars: Variables::default(),
            functions: HashMap::default(),
            aliases: std::collections::HashMap::new(),
            arg0: "bash".to_string(),
            positional: Vec::new(),
            cwd: config.cwd,
            last_status: 0,
            options: Options::default(),
            fds: FdTable::new(stdin.clone(), Rc::new(Stream::Null), Rc::new(Stream::Null)),
            traps: HashMap::default(),
            inactive_traps: HashMap::default(),
            pid: 4242,
            bash_pid: 4242,
            ancestor_pids: Vec::new(),
            next_pid: Rc::new(std::cell::Cell::new(4243)),
            last_background_pid: None,
            source: SourceText::new("", 1),
            error_prefix: Rc::from("bash"),
            syntax_prefix: "bash: -c".to_string(),
            current_line: 1,
            command_end: 0,
            call_stack: Vec::new(),
            loop_depth: 0,
            errexit_suppressed: 0,
            subshell_depth: 0,
            process_depth: 0,
            umask: 0o022,
            random_cell: std::cell::Cell::new(seed | 1),
            last_substitution_status: None,
            pipestatus: Vec::new(),
            dir_stack: Vec::new(),
            jobs: jobs::JobTable::default(),
            source_depth: 0,
            eval_depth: 0,
            syntax_error: None,
            command_string: true,
            last_argument: None,
            in_trap: false,
            interrupt: InterruptState::NotSeen,
            write_error: None,
            assignment_error_is_fatal: false,
            exited: false,
            exit_called: false,
            compound_redirect_failed: false,
            in_compound_redirects: false,
            getopts_position: 0,
            getopts_last_optind: 1,
            process_substitution_fds: Vec::new(),
            warnings: Vec::new(),
            seconds_base_ms: None,
            plain_specials: Vec::new(),
            command_hash: Default::default(),
            variable_fds: Vec::new(),
            output_watch: None,
        };
        shell.options.command_string = true;
        shell.init_variables(config.env);
        shell.sync_option_variables();
        shell
    }

    /// Sets `$1`...
    pub fn set_positional(&mut self, args: Vec<String>) {
        self.positional = args;
    }

    /// Watches the run's stdout and stderr captures: once either refuses a
    /// write for the output limit, the run stops and says so.
    pub fn watch_output(&mut self, stdout: Rc<crate::io::Capture>, stderr: Rc<crate::io::Capture>) {
        self.output_watch = Some(Rc::new([stdout, stderr]));
    }

    /// Sets `$0`.
    pub fn set_arg0(&mut self, arg0: String) {
        self.arg0 = arg0;
    }

    /// True (once) when the last run ended by `exit` or a fatal error.
    pub fn take_exited(&mut self) -> bool {
        std::mem::take(&mut self.exited)
    }

    /// Host time the session's runs have used so far, as
    /// `max_session_duration_ms` counts it.
    pub fn session_elapsed_ms(&self) -> f64 {
        self.budget.session_earlier_ms.get()
    }

    /// True (once) when the last run ended by the `exit` builtin itself.
    pub fn take_exit_called(&mut self) -> bool {
        let called = std::mem::take(&mut self.exit_called);
        called && self.exited
    }

    /// The limits in force.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The working directory.
    pub fn cwd(&self) -> &str {
        &self.cwd
    }

    /// The status of the last command.
    pub fn last_status(&self) -> i32 {
        self.last_status
    }

    /// The value of a variable as a string, for hosts and tests.
    pub fn var(&self, name: &str) -> Option<String> {
        self.vars.get(name).and_then(|v| v.scalar_value())
    }

    /// The exported variables, sorted by name.
    pub fn exported_env(&self) -> Vec<(String, String)> {
        self.vars
            .visible()
            .into_iter()
            .filter(|(_, v)| v.attributes.exported)
            .filter_map(|(name, v)| match &v.value {
                Some(vars::Value::Scalar(value)) => Some((name, value.clone())),
                _ => None,
            })
            .collect()
    }

    fn stdout(&self) -> Fd {
        self.fds.get(1).unwrap_or_else(|| Rc::new(Stream::Null))
    }

    fn stderr(&self) -> Fd {
        self.fds.get(2).unwrap_or_else(|| Rc::new(Stream::Null))
    }

    fn stdin(&self) -> Fd {
        self.fds.get(0).unwrap_or_else(|| Rc::new(Stream::Null))
    }

    /// Writes a runtime error as bash prints it: `bash: line N: message`.
    async fn report_error(&self, message: &str) {
        let text = format!("{}: line {}: {}\n", self.error_prefix, self.current_line, message);
        let _ = self.stderr().write(text.as_bytes()).await;
    }

    /// Writes `bash: message` without a line number (`command not found`).
    async fn report_plain(&self, message: &str) {
        let text = format!("{}: {}\n", self.error_prefix, message);
        let _ = self.stderr().write(text.as_bytes()).await;
    }

    /// The text of a function as `declare -f` and `type` show it.
    fn function_text(&self, name: &str, function: &Function) -> String {
        let _ = name;
        crate::syntax::printer_bash::function_definition(&function.def, &function.source.text)
    }

    /// A subshell: a copy of this shell that shares the filesystem.
    fn subshell(&self) -> Shell {
        let mut sub = self.clone();
        sub.subshell_depth += 1;
        sub.ancestor_pids.push(self.bash_pid);
        sub.bash_pid = self.next_pid.get();
        self.next_pid.set(self.next_pid.get() + 1);
        // Caught signals and EXIT are reset in a subshell (ignored ones stay
        // ignored); ERR survives under `set -E`, DEBUG and RETURN under `set -T`.
        let (errtrace, functrace) = (self.options.errtrace, self.options.functrace);
        let keep = |name: &str, action: &str| match name {
            "EXIT" => false,
            "ERR" => errtrace,
            "DEBUG" | "RETURN" => functrace,
            _ => action.is_empty(),
        };
        for (name, action) in &self.traps {
            if !keep(name, action) {
                sub.inactive_traps.insert(name.clone(), action.clone());
            }
        }
        sub.traps.retain(|name, action| keep(name, action));
        sub.loop_depth = 0;
        if !self.options.inherit_errexit {
            // Command substitutions do not inherit `set -e` unless asked.
        }
        sub
    }
}
