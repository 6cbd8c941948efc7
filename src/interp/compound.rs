//! Compound commands: groups, subshells, `if`, loops, `case`, `select`,
//! `(( ))`, `[[ ]]` and coprocesses, with their trailing redirections.

use super::{Flow, Outcome, Shell};
use crate::expand::pattern::{Pattern, PatternOptions};
use crate::expand::{eval_arith, expand_pattern, expand_string, expand_words, ExpandError};
use crate::syntax::ast::{ArithExpr, CaseTerminator, CompoundCommand, List, Redirect};

/// What a loop body's outcome means for the loop.
enum LoopStep {
    /// Go on with the next iteration.
    Next,
    /// Leave the loop with this outcome.
    Leave(Outcome),
}

impl Shell {
    /// Runs a compound command with its redirections applied around it.
    pub(super) async fn run_compound_redirected(&mut self, compound: &CompoundCommand, redirects: &[Redirect]) -> Outcome {
        if redirects.is_empty() {
            return self.run_compound(compound).await;
        }
        let saved = self.fds.clone();
        let procsub_mark = self.process_substitution_fds.len();
        self.in_compound_redirects = true;
        let applied = self.apply_redirects(redirects).await;
        self.in_compound_redirects = false;
        let result = match applied {
            Ok(()) => self.run_compound(compound).await,
            Err(flow) => {
                self.compound_redirect_failed = true;
                flow
            }
        };
        self.fds = saved;
        self.close_process_substitutions(procsub_mark).await;
        result
    }

    async fn run_compound(&mut self, compound: &CompoundCommand) -> Outcome {
        match compound {
            CompoundCommand::BraceGroup(list) => self.run_list(list).await,
            CompoundCommand::Subshell(list) => self.run_subshell(list).await,
            CompoundCommand::If { branches, else_body } => {
                for (condition, body) in branches {
                    if self.run_condition(condition).await? == 0 {
                        return self.run_list(body).await;
                    }
                }
                match else_body {
                    Some(body) => self.run_list(body).await,
                    None => Ok(0),
                }
            }
            CompoundCommand::While { condition, body } => self.run_while(condition, body, false).await,
            CompoundCommand::Until { condition, body } => self.run_while(condition, body, true).await,
            CompoundCommand::For { name, words, body } => {
                if !self.loop_name_valid(name).await {
                    return Ok(1);
                }
                let items = match words {
                    Some(words) => match expand_words(self, words).await {
                        Ok(items) => items,
                        Err(error) => return self.expansion_failed(error).await,
                    },
                    None => self.positional.clone(),
                };
                self.run_for(name, items, body).await
            }
            CompoundCommand::ArithFor { init, condition, step, body } => self.run_arith_for(init, condition, step, body).await,
            CompoundCommand::Case { word, clauses } => {
                let subject = match expand_string(self, word).await {
                    Ok(s) => s,
                    Err(error) => return self.expansion_failed(error).await,
                };
                let nocase = self.options.nocasematch;
                let options = PatternOptions { extglob: self.options.extglob, nocase };
                let mut status = 0;
                let mut index = 0;
                let mut fall_into = false;
                while index < clauses.len() {
                    let clause = &clauses[index];
                    let mut matched = fall_into;
                    if !matched {
                        for pattern in &clause.patterns {
                            let text = match expand_pattern(self, pattern).await {
                                Ok(t) => t,
                                Err(error) => return self.expansion_failed(error).await,
                            };
                            if Pattern::new(&text, options).matches(&subject, nocase) {
                                matched = true;
                                break;
                            }
                        }
                    }
                    if matched {
                        status = self.run_list(&clause.body).await?;
                        match clause.terminator {
                            CaseTerminator::Break => return Ok(status),
                            CaseTerminator::FallThrough => fall_into = true,
                            CaseTerminator::Continue => fall_into = false,
                        }
                    }
                    index += 1;
                }
                Ok(status)
            }
            CompoundCommand::Select { name, words, body } => {
                if !self.loop_name_valid(name).await {
                    return Ok(1);
                }
                let items = match words {
                    Some(words) => match expand_words(self, words).await {
                        Ok(items) => items,
                        Err(error) => return self.expansion_failed(error).await,
                    },
                    None => self.positional.clone(),
                };
                self.run_select(name, items, body).await
            }
            CompoundCommand::Arith(expr) => {
                self.charge_command().await?;
                match eval_arith(self, expr).await {
                    Ok(value) => Ok((value == 0) as i32),
                    Err(ExpandError::Arith(error)) if error.message != "unbound variable" => {
                        self.report_arith_command_error(&error).await;
                        Ok(1)
                    }
                    Err(error) => self.expansion_failed(error).await,
                }
            }
            CompoundCommand::Cond(expr) => {
                self.charge_command().await?;
                match self.eval_cond(expr).await {
                    Ok(true) => Ok(0),
                    Ok(false) => Ok(1),
                    Err(stop) => stop,
                }
            }
            CompoundCommand::Coproc { name, body } => {
                self.report_error(&format!("coproc {name}: coprocesses are not supported in the sandbox")).await;
                let _ = body;
                Ok(1)
            }
        }
    }

    /// Counts a loop iteration against the budget.
    async fn charge_iteration(&mut self) -> Result<(), Flow> {
        let count = match self.budget.charge_iteration(&self.limits) {
            Ok(count) => count,
            Err(message) => return Err(self.limit_exceeded(message).await),
        };
        if count % 1024 == 0 {
            self.check_time_and_interrupt().await?;
        }
        Ok(())
    }

    /// Interprets a body's outcome for the loop running it.
    fn loop_step(&mut self, outcome: Outcome, status: &mut i32) -> LoopStep {
        match outcome {
            Ok(s) => {
                *status = s;
                LoopStep::Next
            }
            Err(Flow::Break(n)) => {
                if n > 1 {
                    LoopStep::Leave(Err(Flow::Break(n - 1)))
                } else {
                    LoopStep::Leave(Ok(0))
                }
            }
            Err(Flow::Continue(n)) => {
                if n > 1 {
                    LoopStep::Leave(Err(Flow::Continue(n - 1)))
                } else {
                    *status = 0;
                    LoopStep::Next
                }
            }
            Err(other) => LoopStep::Leave(Err(other)),
        }
    }

    async fn run_while(&mut self, condition: &List, body: &List, until: bool) -> Outcome {
        let mut status = 0;
        self.loop_depth += 1;
        let result = loop {
            if let Err(flow) = self.charge_iteration().await {
                break Err(flow);
            }
            let test = match self.run_condition(condition).await {
                Ok(s) => s,
                Err(Flow::Break(n)) => break if n > 1 { Err(Flow::Break(n - 1)) } else { Ok(0) },
                Err(Flow::Continue(n)) if n > 1 => break Err(Flow::Continue(n - 1)),
                Err(Flow::Continue(_)) => continue,
                Err(other) => break Err(other),
            };
            if (test == 0) == until {
                break Ok(status);
            }
            let outcome = self.run_list(body).await;
            if let LoopStep::Leave(result) = self.loop_step(outcome, &mut status) {
                break result;
            }
        };
        self.loop_depth -= 1;
        result
    }

    async fn run_for(&mut self, name: &str, items: Vec<String>, body: &List) -> Outcome {
        let mut status = 0;
        self.loop_depth += 1;
        let mut result = Ok(0);
        for item in items {
            if let Err(flow) = self.charge_iteration().await {
                result = Err(flow);
                break;
            }
            if let Err(message) = self.assign_scalar(name, item, false) {
                self.report_error(&message).await;
                result = Ok(1);
                break;
            }
            let outcome = self.run_list(body).await;
            match self.loop_step(outcome, &mut status) {
                LoopStep::Next => result = Ok(status),
                LoopStep::Leave(r) => {
                    result = r;
                    break;
                }
            }
        }
        self.loop_depth -= 1;
        result
    }

    async fn eval_optional(&mut self, expr: &Option<ArithExpr>) -> Result<i64, Outcome> {
        match expr {
            None => Ok(1),
            Some(expr) => match eval_arith(self, expr).await {
                Ok(v) => Ok(v),
                // An unbound variable under `set -u` ends the shell.
                Err(ExpandError::Arith(error)) if error.message != "unbound variable" => {
                    self.report_arith_command_error(&error).await;
                    Err(Ok(1))
                }
                Err(error) => Err(self.expansion_failed(error).await),
            },
        }
    }

    async fn run_arith_for(
        &mut self,
        init: &Option<ArithExpr>,
        condition: &Option<ArithExpr>,
        step: &Option<ArithExpr>,
        body: &List,
    ) -> Outcome {
        if let Err(outcome) = self.eval_optional(init).await {
            return outcome;
        }
        let mut status = 0;
        // The condition and step see LINENO of the `for` line, not the body's.
        let for_line = self.current_line;
        self.loop_depth += 1;
        let result = loop {
            if let Err(flow) = self.charge_iteration().await {
                break Err(flow);
            }
            self.current_line = for_line;
            match self.eval_optional(condition).await {
                Ok(0) => break Ok(status),
                Ok(_) => {}
                Err(outcome) => break outcome,
            }
            let outcome = self.run_list(body).await;
            if let LoopStep::Leave(result) = self.loop_step(outcome, &mut status) {
                break result;
            }
            self.current_line = for_line;
            if let Err(outcome) = self.eval_optional(step).await {
                break outcome;
            }
        };
        self.loop_depth -= 1;
        result
    }

    async fn run_select(&mut self, name: &str, items: Vec<String>, body: &List) -> Outcome {
        let mut status = 0;
        self.loop_depth += 1;
        let result = loop {
            if let Err(flow) = self.charge_iteration().await {
                break Err(flow);
            }
            let mut menu = String::new();
            for (index, item) in items.iter().enumerate() {
                menu.push_str(&format!("{}) {item}\n", index + 1));
            }
            let prompt = self.var("PS3").unwrap_or_else(|| "#? ".to_string());
            menu.push_str(&prompt);
            let _ = self.stderr().write(menu.as_bytes()).await;
            let line = match self.stdin().read_until(b'\n', 1 << 20).await {
                Ok(line) if !line.is_empty() => line,
                _ => break Ok(1),
            };
            let reply = String::from_utf8_lossy(&line).trim_end_matches('\n').to_string();
            let _ = self.assign_scalar("REPLY", reply.clone(), false);
            let choice = reply.trim().parse::<usize>().ok().and_then(|n| items.get(n.wrapping_sub(1))).cloned().unwrap_or_default();
            let _ = self.assign_scalar(name, choice, false);
            let outcome = self.run_list(body).await;
            if let LoopStep::Leave(result) = self.loop_step(outcome, &mut status) {
                break result;
            }
        };
        self.loop_depth -= 1;
        result
    }
}

impl Shell {
    /// Reports an error of `(( ))` or `for (( ))`: `((: expr: message`, or
    /// the bare `x: readonly variable`.
    async fn report_arith_command_error(&self, error: &crate::expand::arith::ArithError) {
        if error.is_variable_error() {
            self.report_error(&error.to_string()).await;
        } else {
            self.report_error(&format!("((: {error}")).await;
        }
    }
}

impl Shell {
    /// Checks a `for`/`select` variable name before the loop runs, as bash
    /// does (``for a-b; do ...`` fails even with nothing to loop over).
    async fn loop_name_valid(&mut self, name: &str) -> bool {
        if super::variables::is_valid_name(name) {
            return true;
        }
        self.report_error(&format!("`{name}': not a valid identifier")).await;
        false
    }
}
