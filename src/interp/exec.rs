//! Running lists, and-or lists and pipelines, with `set -e` exemptions,
//! PIPESTATUS, pipefail, `!`, `time`, background jobs and subshells.

use super::{Flow, Outcome, Shell};
use crate::executor::join_all;
use crate::expand::ExpandError;
use crate::host::LocalFuture;
use crate::io::pipe::pipe;
use crate::io::{Fd, Stream};
use crate::syntax::ast::{AndOr, AndOrOp, Command, CompoundCommand, List, Pipeline};
use std::rc::Rc;

impl Shell {
    /// Runs a list of and-or lists.
    pub(super) fn run_list<'a>(&'a mut self, list: &'a List) -> LocalFuture<'a, Outcome> {
        Box::pin(async move {
            let mut status = 0;
            for item in &list.items {
                // `set -n` takes effect at once, even later on the same line.
                if self.options.noexec {
                    break;
                }
                if item.background {
                    let text = self
                        .source
                        .text
                        .get(item.span.start as usize..item.span.end as usize)
                        .unwrap_or("")
                        .trim_end_matches('&')
                        .trim()
                        .to_string();
                    self.run_background(&item.and_or, text);
                    status = 0;
                    self.last_status = 0;
                    continue;
                }
                status = self.run_and_or(&item.and_or).await?;
            }
            Ok(status)
        })
    }

    /// Runs a list with `set -e` suppressed (conditions of `if`, `while`...).
    pub(super) async fn run_condition(&mut self, list: &List) -> Outcome {
        self.errexit_suppressed += 1;
        let result = self.run_list(list).await;
        self.errexit_suppressed -= 1;
        result
    }

    async fn run_and_or(&mut self, and_or: &AndOr) -> Outcome {
        let count = and_or.rest.len();
        let mut status = if count > 0 {
            self.errexit_suppressed += 1;
            let result = self.run_pipeline(&and_or.first).await;
            self.errexit_suppressed -= 1;
            result?
        } else {
            self.run_pipeline(&and_or.first).await?
        };
        for (index, (op, pipeline)) in and_or.rest.iter().enumerate() {
            let run = match op {
                AndOrOp::And => status == 0,
                AndOrOp::Or => status != 0,
            };
            if !run {
                continue;
            }
            status = if index + 1 == count {
                self.run_pipeline(pipeline).await?
            } else {
                self.errexit_suppressed += 1;
                let result = self.run_pipeline(pipeline).await;
                self.errexit_suppressed -= 1;
                result?
            };
        }
        Ok(status)
    }

    async fn run_pipeline(&mut self, pipeline: &Pipeline) -> Outcome {
        let started = if pipeline.timed.is_some() { self.host.now_millis() } else { 0.0 };
        // bash exempts what runs inside `!` only when `set -e` is already on.
        let suppress = pipeline.negated && self.options.errexit;
        if suppress {
            self.errexit_suppressed += 1;
        }
        let result = if pipeline.commands.len() == 1 {
            let result = self.run_command(&pipeline.commands[0]).await;
            // A group, loop, `if` or `case` leaves PIPESTATUS to the commands inside it.
            if let (Ok(status), false) = (result, is_compound_body(&pipeline.commands[0])) {
                self.pipestatus.clear();
                self.pipestatus.push(status);
            }
            result
        } else {
            self.run_multi_pipeline(pipeline).await
        };
        if suppress {
            self.errexit_suppressed -= 1;
        }
        let mut status = result?;
        if pipeline.negated {
            status = (status == 0) as i32;
        }
        self.last_status = status;
        if self.jobs.has_signals() {
            self.receive_queued_signals().await?;
        }
        if let Some(format) = pipeline.timed {
            self.report_time(format, started).await;
        }
        // `set -e` looks at simple commands, subshells, `(( ))` and `[[ ]]`;
        // a group, loop, `if` or `case` fails only through a command inside it.
        let redirect_failed = std::mem::take(&mut self.compound_redirect_failed);
        let compound_body = !redirect_failed && pipeline.commands.len() == 1 && is_compound_body(&pipeline.commands[0]);
        self.check_errexit(status, pipeline.negated || compound_body).await?;
        Ok(status)
    }

    /// Runs the ERR trap and ends the shell under `set -e` when a failed
    /// command is not in an exempt context.
    pub(super) async fn check_errexit(&mut self, status: i32, exempt: bool) -> Result<(), Flow> {
        if status == 0 || self.errexit_suppressed > 0 || exempt {
            return Ok(());
        }
        // Functions inherit the ERR trap only under `set -E`.
        let inherited = self.call_stack.is_empty() || self.options.errtrace;
        if inherited && self.traps.contains_key("ERR") && !self.in_trap {
            self.in_trap = true;
            let ran = self.run_trap("ERR").await;
            self.in_trap = false;
            ran?;
        }
        if self.options.errexit {
            return Err(Flow::Exit(status));
        }
        Ok(())
    }

    async fn run_multi_pipeline(&mut self, pipeline: &Pipeline) -> Outcome {
        let count = pipeline.commands.len();
        let lastpipe = self.options.lastpipe;
        let mut next_stdin: Option<Fd> = None;
        let mut stages: Vec<LocalFuture<'_, i32>> = Vec::with_capacity(count);
        let mut last_stage_input: Option<Fd> = None;
        for (index, command) in pipeline.commands.iter().enumerate() {
            let is_last = index + 1 == count;
            if is_last && lastpipe {
                last_stage_input = next_stdin.take();
                break;
            }
            let mut sub = self.subshell();
            if let Some(input) = next_stdin.take() {
                sub.fds.set(0, input);
            }
            if !is_last {
                let (reader, writer) = pipe();
                let writer: Fd = Rc::new(Stream::PipeWriter(writer));
                sub.fds.set(1, writer.clone());
                if pipeline.pipe_stderr.get(index).copied().unwrap_or(false) {
                    sub.fds.set(2, writer);
                }
                next_stdin = Some(Rc::new(Stream::PipeReader(reader)));
            }
            stages.push(Box::pin(async move {
                let outcome = sub.run_command(command).await;
                let status = sub.finish_subshell(outcome).await;
                drop(sub);
                status
            }));
        }
        let mut statuses = if lastpipe {
            let last = &pipeline.commands[count - 1];
            let (mut statuses, last_outcome) = {
                let this = &mut *self;
                // The last stage's end closes its read end at once, so
                // writers still running see a broken pipe instead of
                // filling it forever (`yes | head -n 3`).
                let last_future: LocalFuture<'_, Outcome> = Box::pin(async move {
                    let saved = this.fds.clone();
                    if let Some(input) = last_stage_input {
                        this.fds.set(0, input);
                    }
                    let outcome = this.run_command(last).await;
                    this.fds = saved;
                    outcome
                });
                let mut all: Vec<LocalFuture<'_, Result<i32, Flow>>> =
                    stages.into_iter().map(|f| -> LocalFuture<'_, Outcome> { Box::pin(async move { Ok(f.await) }) }).collect();
                all.push(last_future);
                let mut results = join_all(all).await;
                let last_outcome = results.pop().unwrap_or(Ok(0));
                (results.into_iter().map(|r| r.unwrap_or(1)).collect::<Vec<i32>>(), last_outcome)
            };
            statuses.push(last_outcome?);
            statuses
        } else {
            join_all(stages).await
        };
        if statuses.is_empty() {
            statuses.push(0);
        }
        let status = if self.options.pipefail {
            statuses.iter().rev().find(|&&s| s != 0).copied().unwrap_or(0)
        } else {
            statuses.last().copied().unwrap_or(0)
        };
        self.pipestatus = statuses;
        if self.budget.exceeded.get() {
            return Err(Flow::Exit(status));
        }
        self.answer_interrupt().await?;
        Ok(status)
    }

    /// Runs one command of a pipeline.
    pub(super) fn run_command<'a>(&'a mut self, command: &'a Command) -> LocalFuture<'a, Outcome> {
        Box::pin(async move {
            match command {
                Command::Simple(simple) => self.run_simple(simple).await,
                Command::Compound(compound, redirects, span) => {
                    self.current_line = self.source.line_of(span.start);
                    self.run_compound_redirected(compound, redirects).await
                }
                Command::FunctionDef(def) => {
                    // A name that needed expansion (`$x-f() {...}`) is refused.
                    if def.name.contains(['$', '`', '\'', '"', '\\']) {
                        self.current_line = self.source.line_of(def.span.start);
                        self.report_error(&format!("`{}': not a valid identifier", def.name)).await;
                        return Ok(1);
                    }
                    self.define_function(def);
                    Ok(0)
                }
            }
        })
    }

    /// Turns a subshell's outcome into its exit status, running its EXIT trap.
    pub(super) async fn finish_subshell(&mut self, outcome: Outcome) -> i32 {
        let status = match outcome {
            Ok(status) => status,
            Err(Flow::Exit(status)) | Err(Flow::Return(status)) | Err(Flow::Abort(status)) => status,
            Err(Flow::Break(_)) | Err(Flow::Continue(_)) => self.last_status,
        };
        self.last_status = status;
        self.run_exit_trap().await;
        self.last_status
    }

    /// Runs a list as a subshell body and returns its status.
    pub(super) async fn run_subshell_body(&mut self, body: &List) -> i32 {
        let outcome = self.run_list(body).await;
        self.finish_subshell(outcome).await
    }

    /// `( list )`.
    pub(super) async fn run_subshell(&mut self, body: &List) -> Outcome {
        if self.subshell_depth >= self.limits.max_substitution_depth {
            self.report_error(&format!("subshell depth limit ({}) exceeded", self.limits.max_substitution_depth)).await;
            return Err(Flow::Exit(126));
        }
        let mut sub = self.subshell();
        let status = sub.run_subshell_body(body).await;
        if self.budget.exceeded.get() {
            return Err(Flow::Exit(status));
        }
        self.answer_interrupt().await?;
        Ok(status)
    }

    fn run_background(&mut self, and_or: &AndOr, command: String) {
        let pid = self.next_pid.get();
        self.next_pid.set(pid + 1);
        let mut sub = self.subshell();
        sub.bash_pid = pid;
        sub.fds.set(0, Rc::new(Stream::Null));
        let owned = and_or.clone();
        let future: LocalFuture<'static, i32> = Box::pin(async move {
            let outcome = sub.run_and_or(&owned).await;
            sub.finish_subshell(outcome).await
        });
        self.jobs.spawn(pid, command, future);
        self.last_background_pid = Some(pid);
    }

    /// Starts `<(list)` / `>(list)` as a background job connected by a pipe
    /// and returns the `/dev/fd/N` path naming the shell's end.
    pub(super) async fn start_process_substitution(&mut self, body: &List, input: bool) -> Result<String, ExpandError> {
        let (reader, writer) = pipe();
        let reader: Fd = Rc::new(Stream::PipeReader(reader));
        let writer: Fd = Rc::new(Stream::PipeWriter(writer));
        let mut sub = self.subshell();
        let (ours, theirs) = if input { (reader, writer) } else { (writer, reader) };
        sub.fds.set(if input { 1 } else { 0 }, theirs);
        let fd = self.fds.allocate_from(63);
        self.fds.set(fd, ours);
        let pid = self.next_pid.get();
        self.next_pid.set(pid + 1);
        let owned = body.clone();
        let future: LocalFuture<'static, i32> = Box::pin(async move { sub.run_subshell_body(&owned).await });
        self.jobs.spawn_process_substitution(pid, future);
        self.process_substitution_fds.push(fd);
        Ok(format!("/dev/fd/{fd}"))
    }
}

/// A group, `if`, loop, `case` or `select`: commands whose status is that of
/// a command inside them.
fn is_compound_body(command: &Command) -> bool {
    let Command::Compound(compound, _, _) = command else { return false };
    matches!(
        **compound,
        CompoundCommand::BraceGroup(_)
            | CompoundCommand::If { .. }
            | CompoundCommand::For { .. }
            | CompoundCommand::ArithFor { .. }
            | CompoundCommand::While { .. }
            | CompoundCommand::Until { .. }
            | CompoundCommand::Case { .. }
            | CompoundCommand::Select { .. }
    )
}
