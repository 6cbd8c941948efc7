//! Redirections: opening files through the sandbox filesystem, duplicating
//! and closing fds, here-documents and here-strings, `{var}>` allocation,
//! noclobber, and the `/dev/*` names every shell knows.

use super::fds::MAX_FD;
use super::{Outcome, Shell};
use crate::expand::{expand_heredoc, expand_string, expand_words, ExpandError};
use crate::fs::{FsError, OpenOptions};
use crate::io::{Fd, FileStream, Stream};
use crate::syntax::ast::{Redirect, RedirectFd, RedirectOp, RedirectTarget, Word};
use std::cell::Cell;
use std::rc::Rc;

impl Shell {
    /// Applies redirections to the current fd table, in order. `Err` holds
    /// the outcome of the failed command (status 1, or a fatal flow).
    pub(super) async fn apply_redirects(&mut self, redirects: &[Redirect]) -> Result<(), Outcome> {
        for redirect in redirects {
            self.apply_redirect(redirect).await?;
        }
        Ok(())
    }

    /// An expansion error in a redirection fails the command (status 1)
    /// unless it is fatal.
    async fn redirect_expansion_failed(&mut self, error: crate::expand::ExpandError) -> Outcome {
        match self.expansion_failed(error).await {
            Err(super::Flow::Abort(status)) => Ok(status),
            other => other,
        }
    }

    fn word_source(&self, word: &Word) -> String {
        self.source.text.get(word.span.start as usize..word.span.end as usize).unwrap_or("").to_string()
    }

    async fn redirect_target(&mut self, word: &Word) -> Result<String, Outcome> {
        let fields = match expand_words(self, std::slice::from_ref(word)).await {
            Ok(fields) => fields,
            Err(error) => return Err(self.redirect_expansion_failed(error).await),
        };
        if fields.len() != 1 {
            let source = self.word_source(word);
            self.report_error(&format!("{source}: ambiguous redirect")).await;
            return Err(Ok(1));
        }
        Ok(fields.into_iter().next().unwrap_or_default())
    }

    async fn apply_redirect(&mut self, redirect: &Redirect) -> Result<(), Outcome> {
        let default_fd = match redirect.op {
            RedirectOp::Input
            | RedirectOp::ReadWrite
            | RedirectOp::DupInput
            | RedirectOp::HereDoc
            | RedirectOp::HereDocStrip
            | RedirectOp::HereString => 0,
            _ => 1,
        };
        let target_fd = match &redirect.fd {
            None => default_fd,
            Some(RedirectFd::Number(n)) => *n as usize,
            Some(RedirectFd::Variable(name)) => {
                let fd = self.fds.allocate();
                self.variable_fds.push(fd);
                if let Err(message) = self.assign_scalar(name, fd.to_string(), false) {
                    self.report_error(&message).await;
                    return Err(Ok(1));
                }
                fd
            }
        };
        if target_fd > MAX_FD {
            self.report_error(&format!("{target_fd}: Bad file descriptor")).await;
            return Err(Ok(1));
        }
        let word = match &redirect.target {
            RedirectTarget::HereDoc(doc) => {
                let body = if doc.quoted {
                    literal_text(&doc.body)
                } else {
                    match expand_heredoc(self, &doc.body).await {
                        Ok(text) => text,
                        // A compound command's here-document is expanded
                        // after bash read its body: the error names the
                        // body's last line and ends the shell.
                        Err(error @ (ExpandError::Unbound(_) | ExpandError::NullOrUnset { .. })) if self.in_compound_redirects => {
                            self.current_line = self.source.line_of(doc.body.span.end);
                            return Err(self.redirect_expansion_failed(error).await);
                        }
                        // In a simple command's here-document body these
                        // fail the command only, and the script goes on.
                        Err(error @ (ExpandError::Unbound(_) | ExpandError::NullOrUnset { .. })) => {
                            self.report_error(&error.to_string()).await;
                            return Err(Ok(127));
                        }
                        Err(error) => {
                            if self.in_compound_redirects {
                                self.current_line = self.source.line_of(doc.body.span.end);
                            }
                            // Bash names the whole body (tabs stripped for
                            // `<<-`) as the bad substitution's text.
                            let error = match error {
                                ExpandError::BadSubstitution(_) => {
                                    let span = doc.body.span;
                                    // A body cut by the end of the text has no length: all the rest.
                                    let length = match span.end.saturating_sub(span.start) as usize {
                                        0 => usize::MAX,
                                        length => length,
                                    };
                                    let text = match redirect.op {
                                        // The span measures the body without its tabs.
                                        RedirectOp::HereDocStrip => {
                                            let rest = self.source.text.get(span.start as usize..).unwrap_or("");
                                            let mut text = String::new();
                                            for line in rest.split_inclusive('\n') {
                                                if text.len() >= length {
                                                    break;
                                                }
                                                text.push_str(line.trim_start_matches('\t'));
                                            }
                                            text
                                        }
                                        _ => {
                                            let end = (span.start as usize).saturating_add(length).min(self.source.text.len());
                                            self.source.text.get(span.start as usize..end).unwrap_or("").to_string()
                                        }
                                    };
                                    // A body cut by the end of the text still ends a line.
                                    let text = if text.ends_with('\n') { text } else { text + "\n" };
                                    ExpandError::BadSubstitution(text)
                                }
                                other => other,
                            };
                            return Err(self.redirect_expansion_failed(error).await);
                        }
                    }
                };
                self.fds.set(target_fd, Stream::input(body.into_bytes()));
                return Ok(());
            }
            RedirectTarget::Word(word) => word,
        };
        match redirect.op {
            RedirectOp::HereString => {
                let mut text = match expand_string(self, word).await {
                    Ok(text) => text,
                    Err(error) => return Err(self.redirect_expansion_failed(error).await),
                };
                text.push('\n');
                self.fds.set(target_fd, Stream::input(text.into_bytes()));
                Ok(())
            }
            RedirectOp::DupInput | RedirectOp::DupOutput => {
                let target = self.redirect_target(word).await?;
                if target == "-" {
                    self.fds.close(target_fd);
                    return Ok(());
                }
                let (number, close_source) = match target.strip_suffix('-') {
                    Some(n) => (n, true),
                    None => (target.as_str(), false),
                };
                match number.parse::<usize>() {
                    Ok(source_fd) => match self.fds.get(source_fd) {
                        Some(stream) => {
                            self.fds.set(target_fd, stream);
                            if close_source && source_fd != target_fd {
                                self.fds.close(source_fd);
                            }
                            Ok(())
                        }
                        None => {
                            self.report_error(&format!("{source_fd}: Bad file descriptor")).await;
                            Err(Ok(1))
                        }
                    },
                    // `>&file` and `1>&file` send both stdout and stderr to the file.
                    Err(_)
                        if redirect.op == RedirectOp::DupOutput
                            && target_fd == 1
                            && !matches!(redirect.fd, Some(RedirectFd::Variable(_))) =>
                    {
                        let stream = self.open_for_redirect(&target, OpenOptions::write_truncate(0o666 & !self.umask), true).await?;
                        self.fds.set(1, stream.clone());
                        self.fds.set(2, stream);
                        Ok(())
                    }
                    Err(_) => {
                        self.report_error(&format!("{target}: ambiguous redirect")).await;
                        Err(Ok(1))
                    }
                }
            }
            RedirectOp::OutputBoth | RedirectOp::AppendBoth => {
                let target = self.redirect_target(word).await?;
                let mode = 0o666 & !self.umask;
                let options =
                    if redirect.op == RedirectOp::AppendBoth { OpenOptions::write_append(mode) } else { OpenOptions::write_truncate(mode) };
                let stream = self.open_for_redirect(&target, options, redirect.op == RedirectOp::OutputBoth).await?;
                self.fds.set(1, stream.clone());
                self.fds.set(2, stream);
                Ok(())
            }
            op => {
                let target = self.redirect_target(word).await?;
                let mode = 0o666 & !self.umask;
                let (options, check_clobber) = match op {
                    RedirectOp::Input => (OpenOptions::read_only(), false),
                    RedirectOp::Output => (OpenOptions::write_truncate(mode), true),
                    RedirectOp::Clobber => (OpenOptions::write_truncate(mode), false),
                    RedirectOp::Append => (OpenOptions::write_append(mode), false),
                    _ => (OpenOptions { read: true, write: true, create: true, mode, ..Default::default() }, false),
                };
                let stream = self.open_for_redirect(&target, options, check_clobber).await?;
                self.fds.set(target_fd, stream);
                Ok(())
            }
        }
    }

    /// Opens `name` for a redirection, knowing the `/dev` names.
    pub(super) async fn open_for_redirect(&mut self, name: &str, options: OpenOptions, check_clobber: bool) -> Result<Fd, Outcome> {
        match name {
            "/dev/null" => return Ok(Rc::new(Stream::Null)),
            "/dev/stdin" => return self.dup_or_fail(0, name).await,
            "/dev/stdout" => return self.dup_or_fail(1, name).await,
            "/dev/stderr" => return self.dup_or_fail(2, name).await,
            _ => {}
        }
        if let Some(number) = name.strip_prefix("/dev/fd/").and_then(|n| n.parse::<usize>().ok()) {
            return self.dup_or_fail(number, name).await;
        }
        // An empty name (`> "$unset"`) names no file, not the directory.
        if name.is_empty() {
            self.report_error(": No such file or directory").await;
            return Err(Ok(1));
        }
        let path = crate::fs::path::join(&self.cwd, name);
        if check_clobber && self.options.noclobber {
            if let Ok(metadata) = self.fs.metadata(&path).await {
                if metadata.is_file() {
                    self.report_error(&format!("{name}: cannot overwrite existing file")).await;
                    return Err(Ok(1));
                }
            }
        }
        if options.read && !options.write {
            if let Ok(metadata) = self.fs.metadata(&path).await {
                if metadata.is_dir() {
                    // Reading a directory fails at read time in bash; opening works.
                    return Ok(Rc::new(Stream::Null));
                }
            }
        }
        match self.fs.open(&path, options).await {
            Ok(handle) => {
                let offset = if options.append { handle.metadata().await.map(|m| m.size).unwrap_or(0) } else { 0 };
                Ok(Rc::new(Stream::File(FileStream { handle, offset: Cell::new(offset), readable: options.read, writable: options.write })))
            }
            Err(error) => {
                let error = if error == FsError::NotFound && name.is_empty() { FsError::NotFound } else { error };
                self.report_error(&format!("{name}: {error}")).await;
                Err(Ok(1))
            }
        }
    }

    async fn dup_or_fail(&mut self, fd: usize, name: &str) -> Result<Fd, Outcome> {
        match self.fds.get(fd) {
            Some(stream) => Ok(stream),
            None => {
                self.report_error(&format!("{name}: No such file or directory")).await;
                Err(Ok(1))
            }
        }
    }
}

/// The text of a quoted here-document body (its parts are all literal).
fn literal_text(word: &Word) -> String {
    use crate::syntax::ast::WordPart;
    let mut out = String::new();
    for part in &word.parts {
        match part {
            WordPart::Literal(s) | WordPart::SingleQuoted(s) => out.push_str(s),
            WordPart::Escaped(c) => {
                out.push('\\');
                out.push(*c);
            }
            _ => {}
        }
    }
    out
}
