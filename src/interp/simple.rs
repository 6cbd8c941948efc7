//! Simple commands: expansion of words and assignments, prefix assignments,
//! command lookup (function, builtin, utility, script path), `set -x`
//! tracing, redirections, and the run budget.

use super::builtins::{self, Arg, DeclAssignment, DeclValue};
use super::{Flow, Frame, Function, InterruptState, Outcome, Shell};
use crate::expand::{declared_element_key, element_key, expand_assignment_value, expand_words, quote_for_reuse, ExpandError};
use crate::host::LocalFuture;
use crate::interp::vars::Variable;
use crate::interp::{Invocation, ShellServices};
use crate::io::Fd;
use crate::syntax::ast::{Argument, AssignValue, Assignment, FunctionDef, SimpleCommand};
use std::rc::Rc;

/// The search path of execvp when PATH is unset.
const EXECVP_DEFAULT_PATH: &str = "/bin:/usr/bin";

/// The first line of the `/bin` entries standing for built-in utilities.
const UTILITY_STUB_PREFIX: &[u8] = b"#!/bin/bash\n# wabash built-in command";

impl Shell {
    /// Counts one command against the budget and checks the time limit and
    /// the host's interrupt. `Err` ends the run.
    pub(super) async fn charge_command(&mut self) -> Result<(), Flow> {
        let count = match self.budget.charge_command(&self.limits) {
            Ok(count) => count,
            Err(message) => return Err(self.limit_exceeded(message).await),
        };
        if let Some(message) = self.output_overflow() {
            return Err(self.limit_exceeded(message).await);
        }
        // An interrupt is seen at the next command, not 256 commands later.
        if count % 256 == 0 || self.host.interrupted() {
            self.check_time_and_interrupt().await?;
            if count % 4096 == 0 {
                self.host.yield_now().await;
            }
        }
        Ok(())
    }

    /// The message of the run's output limit once a write went past it.
    pub(crate) fn output_overflow(&self) -> Option<String> {
        let watch = self.output_watch.as_ref()?;
        watch.iter().any(|capture| capture.overflowed()).then(|| format!("output limit ({} bytes) exceeded", self.limits.max_output_bytes))
    }

    /// Checks the wall-clock limit and the host's interrupt request.
    pub(super) async fn check_time_and_interrupt(&mut self) -> Result<(), Flow> {
        if self.host.interrupted() {
            if self.host.deadline_passed() {
                // Only the command under `timeout` ends, not the whole run.
                return Err(Flow::Exit(124));
            }
            // The wrapper also interrupts when the run's time limit passes
            // (a wait the engine cannot see into): that is the limit, 126.
            if self.interrupt != InterruptState::InTrap {
                if let Err(message) = self.budget.check_time(&self.limits, self.host.now_millis()) {
                    return Err(self.limit_exceeded(message).await);
                }
            }
            match self.interrupt {
                InterruptState::NotSeen => return Err(self.interrupt().await),
                // Commands of the INT (or EXIT) trap itself run until it ends.
                InterruptState::InTrap => {}
                InterruptState::Unwinding => return Err(Flow::Exit(130)),
            }
        }
        if let Err(message) = self.budget.check_time(&self.limits, self.host.now_millis()) {
            return Err(self.limit_exceeded(message).await);
        }
        Ok(())
    }

    /// After a child ended (a pipeline's stages, a subshell, a command
    /// substitution): when the host interrupted the run, this shell answers
    /// too, as bash does when a child it waited for died of SIGINT, so an
    /// aborted pipeline ends the run with 130 whatever its last stage said.
    pub(super) async fn answer_interrupt(&mut self) -> Result<(), Flow> {
        if self.interrupt != InterruptState::InTrap && self.host.interrupted() && !self.host.deadline_passed() {
            return self.check_time_and_interrupt().await;
        }
        Ok(())
    }

    /// The host asked the run to stop, as SIGINT would: the INT trap (else
    /// the TERM trap) runs, then this shell ends with 130 unless the trap
    /// exits. Each shell answers once (a subshell's traps are reset, so its
    /// parent's trap runs in the parent when the subshell has ended).
    pub(super) async fn interrupt(&mut self) -> Flow {
        self.interrupt = InterruptState::InTrap;
        let trap = ["SIGINT", "SIGTERM"].into_iter().find(|name| self.traps.get(*name).is_some_and(|action| !action.is_empty()));
        let mut flow = Flow::Exit(130);
        if let Some(name) = trap {
            let action = self.traps.get(name).cloned().unwrap_or_default();
            let saved_status = self.last_status;
            if let Err(Flow::Exit(status)) = self.run_trap_action(name, &action).await {
                flow = Flow::Exit(status);
            }
            self.last_status = saved_status;
        }
        self.interrupt = InterruptState::Unwinding;
        flow
    }

    /// With an ERR or DEBUG trap set: BASH_COMMAND names the command about
    /// to run, and the DEBUG trap runs before it (in functions only under
    /// `set -T`).
    async fn before_command_traps(&mut self, command: &SimpleCommand) -> Result<(), Flow> {
        let span = command.span;
        let text = self.source.text.get(span.start as usize..span.end as usize).unwrap_or("").trim();
        let mut var = Variable::scalar(text);
        var.attributes = self.vars.get("BASH_COMMAND").map(|v| v.attributes).unwrap_or_default();
        self.vars.insert("BASH_COMMAND", var);
        let inherited = self.call_stack.is_empty() || self.options.functrace;
        if inherited && self.traps.get("DEBUG").is_some_and(|action| !action.is_empty()) {
            self.in_trap = true;
            let ran = self.run_trap("DEBUG").await;
            self.in_trap = false;
            ran?;
        }
        Ok(())
    }

    /// Reports a limit once and marks the run as over.
    pub(super) async fn limit_exceeded(&mut self, message: String) -> Flow {
        if !self.budget.exceeded.get() {
            self.budget.exceeded.set(true);
            self.report_plain(&format!("limit: {message}")).await;
        }
        Flow::Exit(126)
    }

    /// True inside `( )`, `$( )` or a pipeline stage of the running bash
    /// (a `bash -c` started in the sandbox is a new shell, not a subshell).
    fn in_subshell(&self) -> bool {
        self.subshell_depth > self.process_depth
    }

    /// Reports an expansion error: most end a non-interactive shell, the
    /// others abandon the rest of the line.
    pub(super) async fn expansion_failed(&mut self, error: ExpandError) -> Outcome {
        match &error {
            ExpandError::Abort(status) => return Err(Flow::Exit(*status)),
            ExpandError::Limit(message) => return Err(self.limit_exceeded(message.clone()).await),
            _ => {}
        }
        if let ExpandError::NoMatch(_) = error {
            // failglob abandons the rest of the line (under `set -e`, the shell).
            self.report_error(&error.to_string()).await;
            self.last_status = 1;
            return Err(if self.options.errexit { Flow::Exit(1) } else { Flow::Abort(1) });
        }
        self.report_error(&error.to_string()).await;
        // bash exits with 127 from a `-c` string's shell itself; from a
        // script file or standard input, a subshell, or under `set -e`, 1.
        let fatal = if self.in_subshell() || self.options.errexit || !self.command_string { 1 } else { 127 };
        self.last_status = match error {
            ExpandError::Unbound(_) | ExpandError::NullOrUnset { .. } => fatal,
            _ => error.status(),
        };
        match error {
            ExpandError::Unbound(_) | ExpandError::NullOrUnset { .. } => Err(Flow::Exit(fatal)),
            ExpandError::Arith(arith) if arith.message == "unbound variable" => Err(Flow::Exit(fatal)),
            ExpandError::Subscript(_) => Err(Flow::Exit(1)),
            // Under `set -e` these end the shell (an arithmetic error does not).
            ExpandError::Indirect(_) | ExpandError::UnboundArray(_) | ExpandError::BadSubstitution(_) if self.options.errexit => {
                Err(Flow::Exit(1))
            }
            ExpandError::Assign(message) if self.options.errexit && message.ends_with("cannot assign in this way") => {
                Err(Flow::Exit(1))
            }
            _ => Err(Flow::Abort(1)),
        }
    }

    /// Closes the `<( )`/`>( )` fds opened since `mark`, then lets those
    /// jobs consume what was written to them before the script goes on.
    pub(super) async fn close_process_substitutions(&mut self, mark: usize) {
        if self.process_substitution_fds.len() <= mark {
            return;
        }
        for fd in self.process_substitution_fds.split_off(mark) {
            self.fds.close(fd);
        }
        let jobs = self.jobs.clone();
        std::future::poll_fn(|cx| {
            jobs.drain_process_substitutions(cx);
            std::task::Poll::Ready(())
        })
        .await;
    }

    pub(super) async fn run_simple(&mut self, command: &SimpleCommand) -> Outcome {
        let procsub_mark = self.process_substitution_fds.len();
        self.current_line = self.source.line_of(command.line_offset(&self.source.text));
        self.command_end = command.span.end;
        self.charge_command().await?;
        if !self.traps.is_empty() && !self.in_trap {
            self.before_command_traps(command).await?;
        }
        self.last_substitution_status = None;
        let mut args: Vec<Arg> = Vec::new();
        for argument in &command.words {
            match argument {
                Argument::Word(word) => match expand_words(self, std::slice::from_ref(word)).await {
                    Ok(fields) => args.extend(fields.into_iter().map(Arg::Word)),
                    Err(error) => return self.expansion_failed(error).await,
                },
                Argument::Assignment(assignment) => match self.expand_declaration(assignment, true).await {
                    Ok(decl) => args.push(Arg::Assign(decl)),
                    Err(error) => return self.expansion_failed(error).await,
                },
            }
        }
        let result = if args.is_empty() { self.run_assignments_only(command).await } else { self.run_with_args(command, args).await };
        self.close_process_substitutions(procsub_mark).await;
        result
    }

    async fn run_assignments_only(&mut self, command: &SimpleCommand) -> Outcome {
        for assignment in &command.assignments {
            // A failed bare assignment discards the rest of the line (a
            // read-only variable) or ends the shell (a bad subscript).
            if !self.apply_assignment(assignment, false).await? {
                let errexit = self.options.errexit && self.errexit_suppressed == 0;
                return Err(if self.assignment_error_is_fatal || errexit { Flow::Exit(1) } else { Flow::Abort(1) });
            }
        }
        if self.options.xtrace && !command.assignments.is_empty() {
            let mut line = String::new();
            for assignment in &command.assignments {
                let value = self.var(&assignment.name).unwrap_or_default();
                line.push_str(&format!("{}={} ", assignment.name, trace_quote(&value)));
            }
            self.trace(line.trim_end()).await;
        }
        let status = self.last_substitution_status.unwrap_or(0);
        // A command of assignments only leaves `$_` empty.
        let _ = self.assign_scalar("_", String::new(), false);
        if !command.redirects.is_empty() {
            let saved = self.fds.clone();
            let result = self.apply_redirects(&command.redirects).await;
            self.restore_fds(saved);
            if let Err(flow) = result {
                return flow;
            }
        }
        Ok(status)
    }

    /// Puts back the fd table saved before a command's redirections, except
    /// the fds `{var}>file` opened, which stay open as in bash.
    fn restore_fds(&mut self, saved: super::fds::FdTable) {
        let current = std::mem::replace(&mut self.fds, saved);
        for fd in std::mem::take(&mut self.variable_fds) {
            if let Some(stream) = current.get(fd) {
                self.fds.set(fd, stream);
            }
        }
    }

    /// Performs `name=value` (or `name=(...)`) in the current scope. An error
    /// is reported; for a bare assignment bash then ends a non-interactive shell.
    /// `Ok(false)` when the assignment failed (reported, status 1).
    pub(super) async fn apply_assignment(&mut self, assignment: &Assignment, temporary_export: bool) -> Result<bool, Flow> {
        if assignment.index.as_ref().is_some_and(|word| word.parts.is_empty()) {
            self.assignment_error_is_fatal = false;
            self.report_error(&format!("{}[]: bad array subscript", assignment.name)).await;
            self.last_status = 1;
            return Ok(false);
        }
        let decl = match self.expand_declaration(assignment, false).await {
            Ok(decl) => self.through_element_nameref(decl).await,
            Err(error) => return self.expansion_failed(error).await.map(|_| false),
        };
        let decl = match decl {
            Ok(decl) => decl,
            Err(error) => return self.expansion_failed(error).await.map(|_| false),
        };
        let result = self.assign_declaration(&decl);
        self.report_warnings().await;
        if let Err(mut message) = result {
            // `set -u` and an unset name in an integer variable's value.
            if let Some(name) = message.strip_suffix(": unbound variable") {
                return self.expansion_failed(ExpandError::Unbound(name.to_string())).await.map(|_| false);
            }
            self.assignment_error_is_fatal = message.contains("error token is");
            // A bare assignment names an empty key as written: `m[$x]`.
            if let (Some(index), Some(rest)) = (&assignment.index, message.strip_prefix(&format!("{}[]", decl.name))) {
                message = format!("{}[{}]{rest}", decl.name, crate::syntax::printer::print_word(index));
            }
            self.report_error(&message).await;
            self.last_status = 1;
            return Ok(false);
        }
        if temporary_export {
            if let Some(var) = self.vars.get_mut(&decl.name) {
                var.attributes.exported = true;
            }
        }
        Ok(true)
    }

    /// Turns `ref=value`, where `ref` is a nameref to `a[subscript]`, into
    /// the assignment of that element (the subscript is evaluated now).
    async fn through_element_nameref(&mut self, mut decl: DeclAssignment) -> Result<DeclAssignment, ExpandError> {
        if decl.index.is_some() {
            return Ok(decl);
        }
        let target = self.resolve_nameref(&decl.name);
        if let Some((base, subscript)) = crate::interp::variables::split_subscript(&target) {
            if subscript != "@" && subscript != "*" {
                decl.index = Some(crate::expand::subscript_key(self, base, subscript).await?);
                decl.name = base.to_string();
            }
        }
        Ok(decl)
    }

    /// Expands an assignment's subscript and value(s). `builtin_argument`
    /// is set for an argument of a declaration builtin (`declare a[i]=v`),
    /// whose subscript has had its quotes removed like any argument.
    pub(super) async fn expand_declaration(
        &mut self,
        assignment: &Assignment,
        builtin_argument: bool,
    ) -> Result<DeclAssignment, ExpandError> {
        // Errors name the subscript as the command saw it: as written in a
        // bare assignment, expanded in a declaration builtin's argument.
        let (index, written_index) = match &assignment.index {
            Some(word) => {
                let name = self.resolve_nameref(&assignment.name);
                if builtin_argument {
                    let (key, text) = declared_element_key(self, &name, word).await?;
                    (Some(key), Some(text))
                } else {
                    (Some(element_key(self, &name, word).await?), Some(crate::syntax::printer::print_word(word)))
                }
            }
            None => (None, None),
        };
        let value = match &assignment.value {
            AssignValue::Scalar(word) => DeclValue::Scalar(expand_assignment_value(self, word).await?),
            AssignValue::Array(elements) => {
                let mut items = Vec::new();
                for element in elements {
                    let key = match &element.index {
                        Some(word) => Some(crate::expand::expand_string(self, word).await?),
                        None => None,
                    };
                    if key.is_some() {
                        items.push((key, expand_assignment_value(self, &element.value).await?, element.append));
                    } else {
                        for field in expand_words(self, std::slice::from_ref(&element.value)).await? {
                            items.push((None, field, false));
                        }
                    }
                }
                DeclValue::Array(items)
            }
        };
        Ok(DeclAssignment { name: assignment.name.clone(), index, written_index, append: assignment.append, value })
    }

    async fn run_with_args(&mut self, command: &SimpleCommand, args: Vec<Arg>) -> Outcome {
        let name = args[0].as_text();
        let is_exec = name == "exec";
        // Prefix assignments live in a scope of their own for the command's
        // duration; in POSIX mode a special builtin's then persist.
        let persist = self.options.posix && builtins::is_special(&name) && !self.functions.contains_key(name.as_ref());
        drop(name);
        // `$_` is the last argument; for `declare a=(1 2)` it is the name.
        self.last_argument = args.last().map(|arg| match arg {
            Arg::Assign(decl) if matches!(decl.value, DeclValue::Array(_)) => decl.name.clone(),
            other => other.text(),
        });
        if self.options.xtrace {
            let mut line = String::new();
            for assignment in &command.assignments {
                line.push_str(&format!("{}=... ", assignment.name));
            }
            line.push_str(&args.iter().map(|a| trace_quote(&a.text())).collect::<Vec<_>>().join(" "));
            self.trace(&line).await;
        }
        let temporary = !command.assignments.is_empty();
        if temporary {
            self.vars.push_temporary_scope();
        }
        for assignment in &command.assignments {
            // The binding is a new variable in the temporary scope, unless
            // a read-only variable forbids it; `x+=v` starts from the value.
            let visible = self.vars.get(&assignment.name);
            let readonly = visible.filter(|v| v.attributes.readonly).cloned();
            let value = visible.filter(|_| assignment.append).and_then(|v| v.scalar_value()).map(crate::interp::vars::Value::Scalar);
            let binding = readonly.unwrap_or(Variable { value, attributes: Default::default() });
            self.vars.insert_temporary(&assignment.name, binding);
            // `A=(x y) cmd` binds the text `(x y)`: arrays are not bindings.
            let as_text = match &assignment.value {
                AssignValue::Array(_) => {
                    let span = assignment.span;
                    let source = self.source.text.get(span.start as usize..span.end as usize).unwrap_or("");
                    let text = source.split_once('=').map(|(_, value)| value.to_string()).unwrap_or_default();
                    let word = crate::syntax::ast::Word {
                        parts: crate::syntax::ast::Seq::One(crate::syntax::ast::WordPart::Literal(text.into())),
                        span,
                    };
                    Some(Assignment { value: AssignValue::Scalar(word), ..assignment.clone() })
                }
                AssignValue::Scalar(_) => None,
            };
            // A failed prefix assignment is reported; the command still runs.
            if let Err(flow) = self.apply_assignment(as_text.as_ref().unwrap_or(assignment), true).await {
                self.vars.drop_scope();
                return Err(flow);
            }
        }
        // Only the command's own redirections are undone afterwards: what
        // a function body does with `exec 3>file` stays, as in bash.
        let result = if command.redirects.is_empty() {
            self.dispatch(args).await
        } else {
            let saved_fds = self.fds.clone();
            let result = match self.apply_redirects(&command.redirects).await {
                Ok(()) => self.dispatch(args).await,
                Err(flow) => flow,
            };
            let keep_fds = is_exec && matches!(result, Ok(0));
            if keep_fds {
                self.variable_fds.clear();
            } else {
                self.restore_fds(saved_fds);
            }
            result
        };
        if temporary {
            let bindings = self.vars.pop_scope();
            if persist {
                for (name, var) in bindings {
                    self.vars.insert(&name, var);
                }
            }
        }
        if let Some(last) = self.last_argument.take() {
            let _ = self.assign_scalar("_", last, false);
        }
        let status = result?;
        self.last_status = status;
        Ok(status)
    }

    /// Finds and runs a command: function, builtin, utility or script path.
    pub(super) fn dispatch<'a>(&'a mut self, args: Vec<Arg>) -> LocalFuture<'a, Outcome> {
        Box::pin(async move {
            let (function, builtin) = {
                let name = args[0].as_text();
                (self.functions.get(name.as_ref()).cloned(), builtins::find(&name))
            };
            if let Some(function) = function {
                let argv = args.into_iter().map(Arg::into_text).collect();
                return self.call_function(function, argv).await;
            }
            if let Some(builtin) = builtin {
                return self.run_builtin(builtin, args).await;
            }
            let argv: Vec<String> = args.into_iter().map(Arg::into_text).collect();
            self.run_external(argv).await
        })
    }

    /// Runs a command found along `PATH` (a registry stub or a script), or
    /// a script named by a path.
    pub(super) async fn run_external(&mut self, argv: Vec<String>) -> Outcome {
        let name = argv[0].clone();
        if name.contains('/') {
            return self.run_path(&name, argv).await;
        }
        // An empty PATH is the current directory, searched as a path.
        if self.var("PATH").is_some_and(|path| path.is_empty()) {
            return self.run_path(&name, argv).await;
        }
        match self.find_command_path(&name).await {
            Some(path) => self.run_path(&path, argv).await,
            None => {
                // A name with control characters is quoted as `$'a\tb'`.
                let shown = if name.chars().any(char::is_control) { crate::expand::quote_for_reuse(&name) } else { name.to_string() };
                self.report_error(&format!("{shown}: command not found")).await;
                Ok(127)
            }
        }
    }

    async fn run_utility(&mut self, run: super::UtilityFn, program: String, argv: Vec<String>) -> i32 {
        let (stdin, stdout, stderr) = (self.stdin(), self.stdout(), self.stderr());
        let fs = self.fs.clone();
        let host = self.host.clone();
        let cwd = self.cwd.clone();
        let env = self.exported_env();
        let mut invocation = Invocation { args: argv, stdin, stdout, stderr, fs, host, cwd, env, shell: self, program };
        run(&mut invocation).await
    }

    /// Runs the file at `path` with `argv`. Errors name the path.
    pub(super) async fn run_path(&mut self, path: &str, argv: Vec<String>) -> Outcome {
        let name = path.to_string();
        let absolute = crate::fs::path::join(&self.cwd, path);
        let metadata = match self.fs.metadata(&absolute).await {
            Ok(m) => m,
            Err(error) => {
                self.report_error(&format!("{name}: {error}")).await;
                // Only a missing file is 127; other failures (a name too long) are 126.
                return Ok(if error == crate::fs::FsError::NotFound { 127 } else { 126 });
            }
        };
        if metadata.is_dir() {
            self.report_error(&format!("{name}: Is a directory")).await;
            return Ok(126);
        }
        if metadata.mode & 0o111 == 0 {
            self.report_error(&format!("{name}: Permission denied")).await;
            return Ok(126);
        }
        let contents = match self.fs.read_file(&absolute).await {
            Ok(c) => c,
            Err(error) => {
                self.report_error(&format!("{name}: {error}")).await;
                return Ok(126);
            }
        };
        if contents.starts_with(UTILITY_STUB_PREFIX) {
            let base = name.rsplit('/').next().unwrap_or(&name).to_string();
            if let Some(run) = self.utilities.get(&base).copied() {
                return Ok(self.run_utility(run, base, argv).await);
            }
            if let Some(builtin) = builtins::find(&base) {
                let mut args: Vec<Arg> = argv.into_iter().map(Arg::Word).collect();
                args[0] = Arg::Word(base);
                return self.run_builtin(builtin, args).await;
            }
        }
        let text = String::from_utf8_lossy(&contents).into_owned();
        Ok(self.run_script_in_child(&text, name, argv[1..].to_vec()).await)
    }

    /// Runs script text as a child bash process would: a subshell with its
    /// own `$0` and positional parameters, only exported variables kept.
    pub(super) async fn run_script_in_child(&mut self, text: &str, arg0: String, args: Vec<String>) -> i32 {
        let mut child = self.child_process(arg0.clone(), args).await;
        child.run_as_process(text, arg0.clone(), arg0).await
    }

    /// Runs `text` as the whole of this (child) shell's life: its errors
    /// start with `error_prefix`, its syntax errors with `syntax_prefix`,
    /// and its EXIT trap runs at the end.
    pub(super) async fn run_as_process(&mut self, text: &str, error_prefix: String, syntax_prefix: String) -> i32 {
        self.sync_option_variables();
        self.error_prefix = Rc::from(error_prefix);
        self.command_string = syntax_prefix.ends_with(": -c");
        self.syntax_prefix = syntax_prefix;
        let status = self.run_text(text).await;
        self.last_status = status;
        self.run_exit_trap().await;
        self.last_status
    }

    /// A new bash process started from this one: exported variables only,
    /// no functions, aliases, traps or options, SHLVL one higher, and PWD
    /// recomputed (physically) when the inherited one is missing.
    pub(super) async fn child_process(&self, arg0: String, positional: Vec<String>) -> Shell {
        let mut child = self.subshell();
        child.pid = child.bash_pid;
        child.process_depth = child.subshell_depth;
        child.functions.clear();
        child.aliases.clear();
        child.traps.clear();
        child.inactive_traps.clear();
        child.options = super::Options::default();
        child.vars = super::vars::Variables::default();
        // The environment holds strings only: exported arrays stay behind.
        for (name, var) in self.vars.visible() {
            if var.attributes.exported && matches!(var.value, Some(super::vars::Value::Scalar(_))) {
                child.vars.insert(&name, var.clone());
            }
        }
        child.init_shell_variables(self.pid);
        if let Some(level) = child.var("SHLVL").and_then(|v| v.parse::<i64>().ok()) {
            let _ = child.assign_scalar("SHLVL", (level + 1).to_string(), false);
        }
        if child.var("PWD").is_none() {
            let physical = crate::fs::canonical::canonicalize(self.fs.as_ref(), &child.cwd, crate::fs::canonical::Existence::All).await;
            child.cwd = physical.unwrap_or(child.cwd);
            let mut pwd = Variable::scalar(child.cwd.clone());
            pwd.attributes.exported = true;
            child.vars.insert("PWD", pwd);
        }
        child.vars.insert("_", Variable::scalar("/bin/bash"));
        child.arg0 = arg0;
        child.positional = positional;
        child
    }

    /// Calls a function with `argv[0]` as its name.
    pub(super) async fn call_function(&mut self, function: Function, argv: Vec<String>) -> Outcome {
        if self.nesting_depth() >= self.limits.max_call_depth {
            let name = &argv[0];
            // As bash with FUNCNEST set: the error abandons the current line.
            self.report_error(&format!("{name}: maximum function nesting level exceeded ({})", self.limits.max_call_depth)).await;
            return Err(Flow::Abort(1));
        }
        let mut argv = argv.into_iter();
        let name = argv.next().unwrap_or_default();
        let saved_positional = std::mem::replace(&mut self.positional, argv.collect());
        let saved_source = std::mem::replace(&mut self.source, function.source.clone());
        let saved_loop_depth = std::mem::replace(&mut self.loop_depth, 0);
        let saved_prefix = std::mem::replace(&mut self.error_prefix, function.error_name.clone());
        let call_line = self.current_line;
        self.call_stack.push(Frame { name: name.clone(), source_name: function.error_name.clone(), call_line });
        let return_trap = self.traps.get("RETURN").cloned();
        self.vars.push_scope();
        let result = self.run_compound_redirected(&function.def.body, &function.def.redirects).await;
        self.vars.drop_scope();
        self.call_stack.pop();
        self.loop_depth = saved_loop_depth;
        self.error_prefix = saved_prefix;
        self.source = saved_source;
        self.positional = saved_positional;
        self.current_line = call_line;
        let result = match result {
            Err(Flow::Return(status)) => Ok(status),
            Err(Flow::Break(_)) | Err(Flow::Continue(_)) => Ok(self.last_status),
            other => other,
        };
        // The RETURN trap runs for functions that set it, or all under `set -T`.
        let return_trap_set_here = self.traps.get("RETURN") != return_trap.as_ref();
        if let Ok(status) = result {
            self.last_status = status;
            if self.options.functrace || return_trap_set_here {
                self.run_trap("RETURN").await?;
            }
        }
        result
    }

    /// Stores a function definition.
    pub(super) fn define_function(&mut self, def: &FunctionDef) {
        let error_name =
            if &*self.error_prefix == "bash" || self.options.command_string { Rc::from("environment") } else { self.error_prefix.clone() };
        let function = Function { def: Rc::new(def.clone()), source: self.source.clone(), error_name };
        self.functions.insert(def.name.clone(), function);
    }

    /// Writes a `set -x` trace line with the PS4 prefix.
    pub(super) async fn trace(&mut self, line: &str) {
        let ps4 = self.var("PS4").unwrap_or_else(|| "+ ".to_string());
        let prefix = ps4
            .chars()
            .next()
            .map(|c| c.to_string().repeat(self.subshell_depth - self.process_depth + 1) + &ps4[c.len_utf8()..])
            .unwrap_or_default();
        let text = format!("{prefix}{line}\n");
        let _ = self.stderr().write(text.as_bytes()).await;
    }
}

/// Quotes a word for `set -x` output as bash does: only when needed.
pub fn trace_quote(word: &str) -> String {
    if !word.is_empty() && word.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=:,+%@^".contains(c)) {
        return word.to_string();
    }
    quote_for_reuse(word)
}

impl ShellServices for Shell {
    fn run_command<'a>(&'a mut self, argv: Vec<String>, stdin: Fd, stdout: Fd, stderr: Fd) -> LocalFuture<'a, i32> {
        Box::pin(async move {
            if argv.is_empty() {
                return 0;
            }
            let saved = self.fds.clone();
            self.fds.set(0, stdin);
            self.fds.set(1, stdout);
            self.fds.set(2, stderr);
            // Utilities run commands as execvp does: without PATH, along its default.
            let path_unset = self.vars.get("PATH").is_none();
            if path_unset {
                self.vars.insert("PATH", Variable::scalar(EXECVP_DEFAULT_PATH));
            }
            let args = argv.into_iter().map(Arg::Word).collect();
            let outcome = self.dispatch(args).await;
            if path_unset {
                self.vars.remove("PATH");
            }
            self.fds = saved;
            match outcome {
                Ok(status) => status,
                Err(Flow::Exit(status)) | Err(Flow::Return(status)) | Err(Flow::Abort(status)) => status,
                Err(_) => self.last_status,
            }
        })
    }

    fn umask(&self) -> u32 {
        self.umask
    }

    fn open_fd(&self, fd: usize) -> Option<Fd> {
        self.fds.get(fd)
    }

    fn command_exists(&self, name: &str) -> bool {
        self.functions.contains_key(name) || builtins::find(name).is_some() || self.utilities.contains_key(name)
    }

    fn run_program<'a>(&'a mut self, request: super::ProgramRequest) -> LocalFuture<'a, i32> {
        Box::pin(self.run_child_program(request))
    }

    fn processes(&self) -> Vec<super::Process> {
        self.process_list()
    }

    fn charge_steps(&self, kind: crate::utility::StepKind, steps: u64) -> Result<(), crate::utility::StepLimitError> {
        use crate::utility::StepLimitError;
        let check_clock = self.budget.charge_steps(&self.limits, kind, steps).map_err(StepLimitError::Limit)?;
        if check_clock {
            if self.host.interrupted() {
                return Err(StepLimitError::Interrupted);
            }
            self.budget.check_time(&self.limits, self.host.now_millis()).map_err(StepLimitError::Limit)?;
        }
        Ok(())
    }

    fn size_limits(&self) -> crate::utility::SizeLimits {
        crate::utility::SizeLimits { max_string_bytes: self.limits.max_string_bytes, max_array_elements: self.limits.max_array_elements }
    }
}
