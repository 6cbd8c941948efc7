//! Working directory builtins: `cd`, `pwd`, `pushd`, `popd`, `dirs`.

use super::{words, Arg};
use crate::fs::canonical::{canonicalize, Existence};
use crate::fs::path::normalize;
use crate::host::LocalFuture;
use crate::interp::{Outcome, Shell};

impl Shell {
    /// Changes directory to `target`, updating PWD/OLDPWD. The new PWD is
    /// the logical path, or with `physical` the path with symlinks resolved.
    /// `Err` holds bash's message after `cd: `.
    async fn change_dir_to(&mut self, target: &str, physical: bool) -> Result<(), String> {
        let joined = if target.starts_with('/') { target.to_string() } else { format!("{}/{target}", self.cwd) };
        // `dir/..` needs `dir` to exist, as the kernel would check.
        if physical || target.split('/').any(|c| c == "..") {
            if let Err(error) = canonicalize(self.fs.as_ref(), &joined, Existence::All).await {
                return Err(format!("{target}: {error}"));
            }
        }
        let mut path = normalize(&self.cwd, target);
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
        if physical {
            path = canonicalize(self.fs.as_ref(), &path, Existence::All).await.unwrap_or(path);
        }
        let old = std::mem::replace(&mut self.cwd, path.clone());
        let old = self.var("PWD").unwrap_or(old);
        let _ = self.assign_scalar("OLDPWD", old, false);
        let _ = self.assign_scalar("PWD", path, false);
        Ok(())
    }

    /// Changes directory logically (`pushd`, `popd`).
    async fn change_dir(&mut self, target: &str) -> Result<(), String> {
        self.change_dir_to(target, false).await
    }

    /// The directory CDPATH finds for a relative `target`, and whether `cd`
    /// prints it (found through a non-empty entry).
    async fn cdpath_lookup(&self, target: &str) -> Option<(String, bool)> {
        let cdpath = self.var("CDPATH").filter(|v| !v.is_empty())?;
        let first = target.split('/').next().unwrap_or("");
        if target.starts_with('/') || first == "." || first == ".." {
            return None;
        }
        for entry in cdpath.split(':') {
            let candidate = if entry.is_empty() { target.to_string() } else { format!("{}/{target}", entry.trim_end_matches('/')) };
            if matches!(self.fs.metadata(&normalize(&self.cwd, &candidate)).await, Ok(m) if m.is_dir()) {
                return Some((candidate, !entry.is_empty()));
            }
        }
        None
    }
}

/// `cd [-L|[-P [-e]] [-@]] [dir]`.
pub fn cd(shell: &mut Shell, args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        let args = words(&args);
        let mut physical = false;
        let scanned = match shell.scan_options(&args, "LPe@", "cd [-L|[-P [-e]] [-@]] [dir]").await {
            Ok(scanned) => scanned,
            Err(outcome) => return outcome,
        };
        for (letter, _) in &scanned.options {
            match letter {
                'L' => physical = false,
                'P' => physical = true,
                _ => {}
            }
        }
        let index = scanned.rest;
        let operands = &args[index.min(args.len())..];
        if operands.len() > 1 {
            shell.builtin_error("cd", "too many arguments").await;
            return Ok(1);
        }
        let (mut target, mut print) = match operands.first().map(String::as_str) {
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
        let typed = target.clone();
        if let Some((found, show)) = shell.cdpath_lookup(&target).await {
            target = found;
            print |= show;
        }
        match shell.change_dir_to(&target, physical).await {
            Ok(()) => {
                if print {
                    let line = format!("{}\n", shell.cwd);
                    shell.out(line.as_bytes()).await?;
                }
                Ok(0)
            }
            Err(message) => {
                let message = if target != typed { message.replacen(&target, &typed, 1) } else { message };
                shell.builtin_error("cd", &message).await;
                Ok(1)
            }
        }
    })
}

/// `pwd [-LP]`: extra operands are ignored.
pub fn pwd(shell: &mut Shell, args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        let mut physical = false;
        for arg in words(&args).iter().skip(1) {
            if arg == "--" || !arg.starts_with('-') || arg.len() == 1 {
                break;
            }
            for letter in arg[1..].chars() {
                match letter {
                    'L' => physical = false,
                    'P' => physical = true,
                    other => {
                        shell.builtin_error("pwd", &format!("-{other}: invalid option")).await;
                        let _ = shell.write_fd(2, b"pwd: usage: pwd [-LP]\n").await;
                        return Ok(2);
                    }
                }
            }
        }
        let mut dir = shell.cwd.clone();
        if physical {
            dir = canonicalize(shell.fs.as_ref(), &dir, Existence::All).await.unwrap_or(dir);
        }
        shell.out(format!("{dir}\n").as_bytes()).await?;
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
        // `-N` is an operand to dirs, so an unknown letter is a bad number.
        let scanned = match super::scan::scan(&args, "clpv") {
            Ok(scanned) => scanned,
            Err(super::scan::ScanError::Invalid(letter) | super::scan::ScanError::Missing(letter)) => {
                shell.builtin_error("dirs", &format!("-{letter}: invalid number")).await;
                let _ = shell.write_fd(2, b"dirs: usage: dirs [-clpv] [+N] [-N]\n").await;
                return Ok(2);
            }
        };
        if scanned.options.iter().any(|(letter, _)| *letter == 'c') {
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
