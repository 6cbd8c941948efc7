//! Running a command as a separate program would run: the shell side of
//! [`ShellServices::run_program`](super::ShellServices::run_program) and of
//! the process list `ps` shows.

use super::builtins::Arg;
use super::vars::{Variable, Variables};
use super::{Process, ProgramRequest, Shell};

/// The search path of `execvp` when the environment has no `PATH` (glibc's).
const EXECVP_DEFAULT_PATH: &str = "/bin:/usr/bin";

impl Shell {
    /// Runs `request.argv` in a child shell with the request's environment,
    /// working directory, host and streams; returns its status.
    pub(super) async fn run_child_program(&mut self, request: ProgramRequest) -> i32 {
        let ProgramRequest { argv, env, cwd, host, stdin, stdout, stderr } = request;
        if argv.is_empty() {
            return 0;
        }
        let mut child = self.subshell();
        // A program never sees the shell's functions, only its environment.
        child.functions.clear();
        if let Some(env) = env {
            child.vars = Variables::default();
            for (name, value) in env {
                let mut variable = Variable::scalar(value);
                variable.attributes.exported = true;
                child.vars.insert(&name, variable);
            }
            // Without PATH, execvp searches the C library's default path; the
            // program itself still sees no PATH in its environment.
            if child.vars.get("PATH").is_none() {
                child.vars.insert("PATH", Variable::scalar(EXECVP_DEFAULT_PATH));
            }
        }
        if let Some(cwd) = cwd {
            child.cwd = cwd;
        }
        if let Some(host) = host {
            child.host = host;
        }
        child.fds.set(0, stdin);
        child.fds.set(1, stdout);
        child.fds.set(2, stderr);
        let outcome = child.dispatch(argv.into_iter().map(Arg::Word).collect()).await;
        child.finish_subshell(outcome).await
    }

    /// The shell itself, then each running background job.
    pub(super) fn process_list(&self) -> Vec<Process> {
        let mut list = vec![Process { pid: self.pid, parent_pid: 1, command: "bash".to_string() }];
        for (pid, command) in self.jobs.running() {
            list.push(Process { pid, parent_pid: self.pid, command });
        }
        list
    }
}
