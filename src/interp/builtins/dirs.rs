//! Working directory builtins: `cd`, `pwd`, `pushd`, `popd`, `dirs`.

use super::{words, Arg};
use crate::fs::path::normalize;
use crate::host::LocalFuture;
use crate::interp::{Outcome, Shell};

impl Shell {
    /// Changes directory to `target` (logical path), updating PWD/OLDPWD.
    /// `Err` holds bash's message after `cd: `.
    async fn change_dir(&mut self, target: &str) -> Result<(), String> {
        let path = normalize(&self.cwd, target);
        match self.fs.metadata(&path).await {
            Ok(meta) if meta.is_dir() => {
                let uid = crate::fs::layout::SANDBOX_UID;
                let shift = if meta.uid == uid {
                    6
                } else if meta.gid == crate::fs::layout::SANDBOX_GID {
                    3
                } else {
                    0
                };
                if (meta.mode >> shift) & 1 == 0 {
                    return Err(format!("{target}: Permission denied"));
                }
            }
            Ok(_) => return Err(format!("{target}: Not a directory")),
            Err(error) => return Err(format!("{target}: {error}")),
        }
        let old = std::mem::replace(&mut self.cwd, path.clone());
        let _ = self.assign_scalar("OLDPWD", old, false);
        let _ = self.assign_scalar("PWD", path, false);
        Ok(())
    }
}

/// `cd [-L|-P] [dir]`.
pub fn cd(shell: &mut Shell, args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        let args = words(&args);
        let mut index = 1;
        while let Some(arg) = args.get(index) {
            match arg.as_str() {
                "-L" | "-P" | "-e" | "-@" => index += 1,
                "--" => {
                    index += 1;
                    break;
                }
                _ => break,
            }
        }
        let operands = &args[index.min(args.len())..];
        if operands.len() > 1 {
            shell.builtin_error("cd", "too many arguments").await;
            return Ok(1);
        }
        let (target, print) = match operands.first().map(String::as_str) {
            None => match shell.var("HOME") {
                Some(home) => (home, false),
                None => {
                    shell.builtin_error("cd", "HOME not set").await;
                    return Ok(1);
                }
            },
            Some("-") => match shell.var("OLDPWD") {
                Some(old) => (old, true),
                None => {
                    shell.builtin_error("cd", "OLDPWD not set").await;
                    return Ok(1);
                }
            },
            Some(dir) => (dir.to_string(), false),
        };
        if target.is_empty() {
            return Ok(0);
        }
        match shell.change_dir(&target).await {
            Ok(()) => {
                if print {
                    let line = format!("{}\n", shell.cwd);
                    shell.out(line.as_bytes()).await?;
                }
                Ok(0)
            }
            Err(message) => {
                shell.builtin_error("cd", &message).await;
                Ok(1)
            }
        }
    })
}

/// `pwd [-LP]`.
pub fn pwd(shell: &mut Shell, args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        for arg in words(&args).iter().skip(1) {
            if arg != "-L" && arg != "-P" {
                shell.builtin_error("pwd", &format!("{arg}: invalid option")).await;
                let _ = shell.write_fd(2, b"pwd: usage: pwd [-LP]\n").await;
                return Ok(2);
            }
        }
        let line = format!("{}\n", shell.cwd);
        shell.out(line.as_bytes()).await?;
        Ok(0)
    })
}

fn tilde_home(path: &str) -> String {
    let home = crate::fs::layout::HOME;
    if path == home {
        "~".to_string()
    } else if let Some(rest) = path.strip_prefix(home).filter(|r| r.starts_with('/')) {
        format!("~{rest}")
    } else {
        path.to_string()
    }
}

impl Shell {
    fn dirs_line(&self) -> String {
        let mut parts = vec![tilde_home(&self.cwd)];
        parts.extend(self.dir_stack.iter().rev().map(|d| tilde_home(d)));
        format!("{}\n", parts.join(" "))
    }
}

/// `pushd [dir]`.
pub fn pushd(shell: &mut Shell, args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        let args = words(&args);
        let previous = shell.cwd.clone();
        match args.get(1) {
            None => {
                let Some(top) = shell.dir_stack.pop() else {
                    shell.builtin_error("pushd", "no other directory").await;
                    return Ok(1);
                };
                if let Err(message) = shell.change_dir(&top).await {
                    shell.dir_stack.push(top);
                    shell.builtin_error("pushd", &message).await;
                    return Ok(1);
                }
                shell.dir_stack.push(previous);
            }
            Some(dir) => {
                if let Err(message) = shell.change_dir(dir).await {
                    shell.builtin_error("pushd", &message).await;
                    return Ok(1);
                }
                shell.dir_stack.push(previous);
            }
        }
        let line = shell.dirs_line();
        shell.out(line.as_bytes()).await?;
        Ok(0)
    })
}

/// `popd`.
pub fn popd(shell: &mut Shell, _args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        let Some(top) = shell.dir_stack.pop() else {
            shell.builtin_error("popd", "directory stack empty").await;
            return Ok(1);
        };
        if let Err(message) = shell.change_dir(&top).await {
            shell.builtin_error("popd", &message).await;
            return Ok(1);
        }
        let line = shell.dirs_line();
        shell.out(line.as_bytes()).await?;
        Ok(0)
    })
}

/// `dirs [-c] [-p] [-v]`.
pub fn dirs(shell: &mut Shell, args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        let args = words(&args);
        if args.iter().any(|a| a == "-c") {
            shell.dir_stack.clear();
            return Ok(0);
        }
        let mut entries = vec![tilde_home(&shell.cwd)];
        entries.extend(shell.dir_stack.iter().rev().map(|d| tilde_home(d)));
        let out = if args.iter().any(|a| a == "-v") {
            entries.iter().enumerate().map(|(i, d)| format!("{i:>2}  {d}\n")).collect()
        } else if args.iter().any(|a| a == "-p") {
            entries.iter().map(|d| format!("{d}\n")).collect()
        } else {
            format!("{}\n", entries.join(" "))
        };
        shell.out(out.as_bytes()).await?;
        Ok(0)
    })
}
