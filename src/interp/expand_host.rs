//! The shell as the expander sees it: variables, options, command
//! substitution and directory listings.

use super::{Flow, Shell};
use crate::expand::{ElementKey, ExpandError, ExpandHost, ExpandOptions, VarShape};
use crate::io::{Capture, Stream};
use crate::syntax::ast::List;
use async_trait::async_trait;
use std::rc::Rc;

#[async_trait(?Send)]
impl ExpandHost for Shell {
    fn options(&self) -> ExpandOptions {
        ExpandOptions {
            nounset: self.options.nounset,
            noglob: self.options.noglob,
            nullglob: self.options.nullglob,
            failglob: self.options.failglob,
            dotglob: self.options.dotglob,
            nocaseglob: self.options.nocaseglob,
            extglob: self.options.extglob,
            globstar: self.options.globstar,
            globskipdots: self.options.globskipdots,
            nocasematch: self.options.nocasematch,
            errexit: self.options.errexit,
        }
    }

    fn resolve_name<'a>(&self, name: &'a str) -> std::borrow::Cow<'a, str> {
        self.resolve_nameref(name)
    }

    fn shape(&self, name: &str) -> VarShape {
        self.var_shape(name)
    }

    fn array_has_value(&self, name: &str) -> bool {
        matches!(self.vars.get(name).and_then(|v| v.value.as_ref()), Some(crate::interp::vars::Value::Indexed(_) | crate::interp::vars::Value::Assoc(_)))
    }

    fn scalar(&self, name: &str) -> Option<String> {
        match name {
            "RANDOM" | "LINENO" | "SECONDS" | "EPOCHSECONDS" | "EPOCHREALTIME" | "BASHPID" | "BASH_SUBSHELL"
                if !self.plain_specials.iter().any(|n| n == name) =>
            {
                self.dynamic_scalar(name)
            }
            _ => match self.vars.get(name) {
                Some(var) => var.scalar_value(),
                None => self.dynamic_array(name)?.into_iter().next(),
            },
        }
    }

    fn ifs(&self) -> std::borrow::Cow<'static, str> {
        match self.vars.get("IFS").and_then(|var| var.scalar_str()) {
            Some(ifs) if ifs != crate::expand::DEFAULT_IFS => std::borrow::Cow::Owned(ifs.to_string()),
            _ => std::borrow::Cow::Borrowed(crate::expand::DEFAULT_IFS),
        }
    }

    fn element(&self, name: &str, key: &ElementKey) -> Option<String> {
        self.element_value(name, key)
    }

    fn values(&self, name: &str) -> Vec<String> {
        self.array_values(name)
    }

    fn keys(&self, name: &str) -> Vec<String> {
        self.array_keys(name)
    }

    fn positional(&self, n: usize) -> Option<String> {
        if n == 0 {
            return Some(self.arg0.clone());
        }
        self.positional.get(n - 1).cloned()
    }

    fn positionals(&self) -> Vec<String> {
        self.positional.clone()
    }

    fn special(&self, c: char) -> Option<String> {
        Some(match c {
            '?' => self.last_status.to_string(),
            '#' => self.positional.len().to_string(),
            '$' => self.pid.to_string(),
            '!' => return self.last_background_pid.map(|p| p.to_string()),
            '-' => self.options.flags(),
            '0' => self.arg0.clone(),
            _ => return None,
        })
    }

    fn names_with_prefix(&self, prefix: &str) -> Vec<String> {
        self.vars.visible().into_iter().filter(|(name, v)| name.starts_with(prefix) && v.value.is_some()).map(|(name, _)| name).collect()
    }

    fn attribute_letters(&self, name: &str) -> String {
        self.vars.get(name).map(|var| var.attribute_letters()).unwrap_or_default()
    }

    fn assign(&mut self, name: &str, key: Option<ElementKey>, value: String) -> Result<(), ExpandError> {
        let result = match key {
            None => self.assign_scalar(name, value, false),
            Some(key) => self.assign_element(name, key, value, false),
        };
        result.map_err(|message| {
            if message.ends_with("readonly variable") {
                ExpandError::Readonly(name.to_string())
            } else {
                ExpandError::Assign(message)
            }
        })
    }

    fn home_dir(&self, user: &str) -> Option<String> {
        match user {
            "" | crate::fs::layout::USER_NAME => Some(crate::fs::layout::HOME.to_string()),
            "root" => Some("/root".to_string()),
            _ => None,
        }
    }

    fn cwd(&self) -> String {
        self.cwd.clone()
    }

    fn check_length(&self, length: usize) -> Result<(), ExpandError> {
        if length > self.limits.max_string_bytes {
            return Err(ExpandError::Limit(format!("string length limit ({} bytes) exceeded", self.limits.max_string_bytes)));
        }
        Ok(())
    }

    async fn command_substitution(&mut self, body: &List) -> Result<Vec<u8>, ExpandError> {
        let (mut sub, capture) = self.substitution_shell()?;
        if let Some(first) = body.items.first() {
            sub.source = self.source.renumbered(first.span.start, self.current_line);
        }
        let status = match input_file_redirect(body) {
            // `$(< file)` is the file's contents, read without running a command.
            Some(redirect) => match sub.apply_redirects(std::slice::from_ref(redirect)).await {
                Ok(()) => {
                    let data = sub.stdin().read_to_end().await.unwrap_or_default();
                    let _ = sub.stdout().write(&data).await;
                    0
                }
                Err(outcome) => outcome.unwrap_or(1),
            },
            None => sub.run_subshell_body(body).await,
        };
        drop(sub);
        self.substitution_interrupted().await?;
        self.finish_substitution(status, capture)
    }

    async fn unparsed_substitution(&mut self, text: &str) -> Result<Vec<u8>, ExpandError> {
        let (mut sub, capture) = self.substitution_shell()?;
        sub.syntax_prefix = format!("{}: command substitution", self.error_prefix);
        let line = self.current_line;
        let outcome = sub.run_text_flow(text, line).await;
        let status = sub.finish_subshell(outcome).await;
        drop(sub);
        self.substitution_interrupted().await?;
        self.finish_substitution(status, capture)
    }

    async fn process_substitution(&mut self, body: &List, input: bool) -> Result<String, ExpandError> {
        self.start_process_substitution(body, input).await
    }

    async fn read_dir(&mut self, path: &str) -> Option<Vec<(String, bool)>> {
        let entries = self.fs.read_dir(path).await.ok()?;
        let mut out = Vec::with_capacity(entries.len());
        for entry in entries {
            let is_dir = match entry.file_type {
                crate::fs::FileType::Directory => true,
                crate::fs::FileType::Symlink => {
                    let full = crate::fs::path::join(path, &entry.name);
                    self.fs.metadata(&full).await.map(|m| m.is_dir()).unwrap_or(false)
                }
                _ => false,
            };
            out.push((entry.name, is_dir));
        }
        Some(out)
    }

    async fn path_exists(&mut self, path: &str) -> bool {
        self.fs.symlink_metadata(path).await.is_ok()
    }

    async fn warn(&mut self, message: &str) {
        self.report_error(message).await;
    }
}

impl Shell {
    /// The dynamic scalars: RANDOM advances a generator kept in a cell, so
    /// reading it needs only `&self`.
    pub(super) fn dynamic_scalar(&self, name: &str) -> Option<String> {
        let now = self.host.now_millis();
        Some(match name {
            "RANDOM" => {
                let mut x = self.random_cell.get();
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                self.random_cell.set(x);
                ((x >> 16) & 0x7fff).to_string()
            }
            "LINENO" => self.current_line.to_string(),
            "SECONDS" => {
                let base = self.seconds_base_ms.unwrap_or_else(|| self.budget.started_ms.get());
                (((now - base) / 1000.0).floor().max(0.0) as i64).to_string()
            }
            "EPOCHSECONDS" => ((now / 1000.0).floor() as i64).to_string(),
            "EPOCHREALTIME" => format!("{:.6}", now / 1000.0),
            "BASHPID" => self.bash_pid.to_string(),
            "BASH_SUBSHELL" => (self.subshell_depth - self.process_depth).to_string(),
            _ => return None,
        })
    }
}

/// The `< file` of a substitution body that is only that redirection.
fn input_file_redirect(body: &List) -> Option<&crate::syntax::ast::Redirect> {
    use crate::syntax::ast::{Command, RedirectFd, RedirectOp};
    let [item] = body.items.as_slice() else { return None };
    let pipeline = &item.and_or.first;
    if item.background || !item.and_or.rest.is_empty() || pipeline.negated || pipeline.timed.is_some() {
        return None;
    }
    let [Command::Simple(simple)] = pipeline.commands.as_slice() else { return None };
    let [redirect] = simple.redirects.as_slice() else { return None };
    let from_stdin = matches!(redirect.fd, None | Some(RedirectFd::Number(0)));
    (simple.words.is_empty() && simple.assignments.is_empty() && redirect.op == RedirectOp::Input && from_stdin).then_some(redirect)
}

impl Shell {
    /// The subshell a command substitution runs in, its stdout captured.
    fn substitution_shell(&mut self) -> Result<(Shell, Rc<Capture>), ExpandError> {
        if self.subshell_depth >= self.limits.max_substitution_depth {
            return Err(ExpandError::Limit(format!("substitution depth limit ({}) exceeded", self.limits.max_substitution_depth)));
        }
        let capture = Capture::new(self.limits.max_string_bytes, None);
        let mut sub = self.subshell();
        if !self.options.inherit_errexit {
            sub.options.errexit = false;
        }
        sub.fds.set(1, Rc::new(Stream::Capture(capture.clone())));
        Ok((sub, capture))
    }

    /// After a command substitution: a host interrupt ends this shell too.
    async fn substitution_interrupted(&mut self) -> Result<(), ExpandError> {
        match self.answer_interrupt().await {
            Err(Flow::Exit(status)) | Err(Flow::Abort(status)) | Err(Flow::Return(status)) => Err(ExpandError::Abort(status)),
            _ => Ok(()),
        }
    }

    /// Records a command substitution's status and hands back its output.
    fn finish_substitution(&mut self, status: i32, capture: Rc<Capture>) -> Result<Vec<u8>, ExpandError> {
        self.last_substitution_status = Some(status);
        self.last_status = status;
        if self.budget.exceeded.get() {
            return Err(ExpandError::Abort(status));
        }
        if capture.overflowed() {
            return Err(ExpandError::Limit(format!(
                "command substitution output limit ({} bytes, maxStringLength) exceeded",
                capture.limit()
            )));
        }
        Ok(capture.take())
    }
}
