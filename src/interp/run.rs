//! Running script text: the top-level entry of one `exec`, reading a script
//! one line at a time as bash does, `eval`, `source`, and traps.

use super::fds::FdTable;
use super::jobs::WithJobs;
use super::vars::Variable;
use super::{Flow, InterruptState, Shell, SourceText, SyntaxStop};
use crate::io::Fd;
use crate::syntax::{ParseErrorKind, ParseOptions, Parser};

impl Shell {
    /// The parse options the shell's state implies (extglob, aliases).
    pub(super) fn parse_options(&self) -> ParseOptions {
        ParseOptions {
            extglob: self.options.extglob,
            aliases: if self.options.expand_aliases { self.aliases.clone() } else { Default::default() },
            ..Default::default()
        }
    }

    /// Runs `script` as `bash -c` would, with the given streams. Per-run
    /// `env` and `cwd` apply to this run only. State persists across runs.
    pub async fn run_top_level(
        &mut self,
        script: &str,
        stdin: Fd,
        stdout: Fd,
        stderr: Fd,
        env: Vec<(String, String)>,
        cwd: Option<String>,
    ) -> i32 {
        self.budget = self.budget.next_run(self.host.now_millis());
        self.interrupt = InterruptState::NotSeen;
        self.fds = FdTable::new(stdin, stdout, stderr);
        let mut restore_vars: Vec<(String, Option<Variable>)> = Vec::new();
        for (name, value) in env {
            restore_vars.push((name.clone(), self.vars.get(&name).cloned()));
            let mut var = Variable::scalar(value);
            var.attributes.exported = true;
            self.vars.insert(&name, var);
        }
        let saved_cwd = cwd.map(|dir| {
            let previous = self.cwd.clone();
            self.cwd = crate::fs::path::normalize(&previous, &dir);
            let _ = self.assign_scalar("PWD", self.cwd.clone(), false);
            previous
        });
        self.error_prefix = std::rc::Rc::from("bash");
        self.syntax_prefix = "bash: -c".to_string();
        let jobs = self.jobs.clone();
        let status = WithJobs { main: Box::pin(self.run_text(script)), jobs }.await;
        self.last_status = status;
        self.run_exit_trap().await;
        let status = self.last_status;
        self.traps.remove("EXIT");
        self.jobs.prune();
        if let Some(previous) = saved_cwd {
            self.cwd = previous.clone();
            let _ = self.assign_scalar("PWD", previous, false);
        }
        for (name, previous) in restore_vars.into_iter().rev() {
            match previous {
                Some(var) => self.vars.insert(&name, var),
                None => {
                    self.vars.remove(&name);
                }
            }
        }
        self.budget.finish_run(self.host.now_millis());
        status
    }

    /// Parses and runs `text` line by line; a syntax error stops it with
    /// status 2 after the lines before it ran. `exit` ends it.
    pub(super) async fn run_text(&mut self, text: &str) -> i32 {
        match self.run_text_flow(text, 1).await {
            Ok(status) => status,
            Err(Flow::Exit(2)) if matches!(self.syntax_error, Some(SyntaxStop::Conditional { .. })) => {
                let Some(SyntaxStop::Conditional { at_end }) = self.syntax_error.take() else { return 2 };
                let status = if at_end && self.last_status == 0 { 2 } else { self.last_status };
                self.last_status = status;
                self.exited = true;
                status
            }
            Err(Flow::Exit(status)) => {
                self.last_status = status;
                self.exited = true;
                status
            }
            Err(Flow::Return(status)) | Err(Flow::Abort(status)) => status,
            Err(_) => self.last_status,
        }
    }

    /// Runs `text` and hands back flows (`return` in a sourced file, `exit`).
    pub(super) async fn run_text_flow(&mut self, text: &str, first_line: usize) -> Result<i32, Flow> {
        let saved_source = std::mem::replace(&mut self.source, SourceText::new(text, first_line));
        let mut parser = Parser::new(text);
        let result = loop {
            let options = self.parse_options();
            let start = parser.offset();
            let warnings_before = parser.warnings().len();
            let next = parser.next_line(&options);
            for warning in parser.warnings().get(warnings_before..).unwrap_or(&[]) {
                // The line bash had read up to: the one ending before the offset.
                let line = self.source.line_of(parser.offset().saturating_sub(1) as u32);
                let text = format!("{}: line {line}: warning: {warning}\n", self.error_prefix);
                let _ = self.stderr().write(text.as_bytes()).await;
            }
            match next {
                Ok(None) => break Ok(self.last_status),
                Ok(Some(list)) => {
                    if self.options.verbose {
                        let mut line = text.get(start..parser.offset()).unwrap_or("").to_string();
                        if !line.ends_with('\n') {
                            line.push('\n');
                        }
                        let _ = self.stderr().write(line.as_bytes()).await;
                    }
                    if self.options.noexec {
                        continue;
                    }
                    match self.run_list(&list).await {
                        Ok(status) => self.last_status = status,
                        // `eval break` and a sourced `continue` reach the enclosing loop.
                        Err(flow @ (Flow::Break(_) | Flow::Continue(_))) if self.loop_depth > 0 => break Err(flow),
                        Err(Flow::Break(_)) | Err(Flow::Continue(_)) => {}
                        Err(Flow::Abort(status)) => self.last_status = status,
                        Err(flow) => break Err(flow),
                    }
                }
                Err(mut error) => {
                    error.shift_lines(first_line - 1);
                    // Under `set -e` bash's parser ends the shell with status 2
                    // as soon as it prints its first message (the offending
                    // line is not echoed), wherever the text came from.
                    if self.options.errexit && self.errexit_suppressed == 0 {
                        let rendered = error.render_first(&self.syntax_prefix);
                        let _ = self.stderr().write(rendered.as_bytes()).await;
                        self.last_status = 2;
                        self.syntax_error = None;
                        break Err(Flow::Exit(2));
                    }
                    let rendered = error.render(&self.syntax_prefix);
                    let _ = self.stderr().write(rendered.as_bytes()).await;
                    if parser.resume_after_error() {
                        // A wrong token in an array assignment costs only its line.
                        self.last_status = 1;
                        continue;
                    }
                    let conditional = match &error.kind {
                        ParseErrorKind::Conditional(conditional) => Some(conditional.at_end),
                        _ => None,
                    };
                    if error.in_substitution {
                        // A wrong token inside `$( )` makes bash's reader give up on
                        // the whole shell, `eval` or not: status 127 for a `-c`
                        // string; in a script file 2 at its top level, else 1.
                        let status = match () {
                            _ if self.running_command_string() => 127,
                            _ if conditional.is_some() || self.eval_depth > 0 => 1,
                            _ => 2,
                        };
                        self.last_status = status;
                        self.syntax_error = None;
                        break Err(Flow::Exit(status));
                    }
                    match conditional {
                        Some(at_end) => {
                            self.syntax_error = Some(SyntaxStop::Conditional { at_end });
                            break Err(Flow::Exit(2));
                        }
                        None => {
                            let status = if error.in_array_literal { 1 } else { 2 };
                            self.last_status = status;
                            self.syntax_error = Some(SyntaxStop::Plain);
                            break Err(Flow::Exit(status));
                        }
                    }
                }
            }
        };
        self.source = saved_source;
        result
    }

    /// Runs the action of trap `name` (if set), keeping `$?`. An `exit` in
    /// the action ends the shell: its flow is returned.
    pub(super) async fn run_trap(&mut self, name: &str) -> Result<(), Flow> {
        let Some(action) = self.traps.get(name).cloned() else { return Ok(()) };
        if action.is_empty() {
            return Ok(());
        }
        let saved_status = self.last_status;
        let saved_line = self.current_line;
        let result = self.run_trap_action(name, &action).await;
        self.current_line = saved_line;
        if let Err(flow @ Flow::Exit(_)) = result {
            return Err(flow);
        }
        self.last_status = saved_status;
        Ok(())
    }

    /// Runs a trap's action text. A syntax error in it is reported under the
    /// trap's name (`bash: exit trap: line 1: ...`) and only fails the action.
    pub(super) async fn run_trap_action(&mut self, name: &str, action: &str) -> Result<i32, Flow> {
        let label = match name {
            "EXIT" => "exit trap",
            "SIGINT" => "interrupt trap",
            "ERR" => "error trap",
            "DEBUG" => "debug trap",
            _ => "trap",
        };
        let saved_prefix = std::mem::replace(&mut self.syntax_prefix, format!("{}: {label}", self.error_prefix));
        let saved_line = self.current_line;
        self.syntax_error = None;
        // LINENO in the EXIT trap is 1; other traps see the current line.
        let first_line = if name == "EXIT" { 1 } else { saved_line };
        let result = Box::pin(self.run_text_flow(action, first_line)).await;
        self.current_line = saved_line;
        self.syntax_prefix = saved_prefix;
        match result {
            Err(Flow::Exit(status)) if self.syntax_error.take().is_some() => Ok(status),
            other => other,
        }
    }

    /// At the end of a shell: answers a host interrupt this shell has not
    /// seen yet (its last command ended on it: the INT trap runs and the
    /// status is 130), then runs the EXIT trap once; an `exit` inside it
    /// sets the final status.
    pub(super) async fn run_exit_trap(&mut self) {
        if self.interrupt == InterruptState::NotSeen && self.host.interrupted() && !self.host.deadline_passed() {
            let flow = match self.budget.check_time(&self.limits, self.host.now_millis()) {
                Err(message) => self.limit_exceeded(message).await,
                Ok(()) => self.interrupt().await,
            };
            if let Flow::Exit(status) = flow {
                self.last_status = status;
                self.exited = true;
            }
        }
        let Some(action) = self.traps.remove("EXIT") else { return };
        if action.is_empty() {
            return;
        }
        let saved_status = self.last_status;
        // After a host interrupt the EXIT trap still runs to its end, as
        // bash's does after SIGINT; the command and time limits bound it.
        if self.interrupt == InterruptState::Unwinding {
            self.interrupt = InterruptState::InTrap;
        }
        match self.run_trap_action("EXIT", &action).await {
            Err(Flow::Exit(status)) => self.last_status = status,
            _ => self.last_status = saved_status,
        }
    }

    /// True when the top-level text is a `-c` command string rather than
    /// a script file (the two end differently on some syntax errors).
    fn running_command_string(&self) -> bool {
        self.command_string
    }
}
