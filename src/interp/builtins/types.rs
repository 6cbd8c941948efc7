//! Command lookup builtins: `type`, `command`, `builtin`, `enable`.

use super::{words, Arg};
use crate::host::LocalFuture;
use crate::interp::{Outcome, Shell};

/// Reserved words, which `type` reports as keywords.
pub const KEYWORDS: &[&str] = &[
    "!", "[[", "]]", "case", "coproc", "do", "done", "elif", "else", "esac", "fi", "for", "function", "if", "in", "select", "then", "time",
    "until", "while", "{", "}",
];

/// How a name would run.
enum Kind {
    Alias(String),
    Keyword,
    Function,
    Builtin,
    File(String),
    Hashed(String),
}

/// Every way `name` could run, in lookup order; with `all`, every match
/// along `PATH` too.
async fn classify(shell: &mut Shell, name: &str, all: bool) -> Vec<Kind> {
    let mut kinds = Vec::new();
    if let Some(value) = shell.aliases.get(name) {
        kinds.push(Kind::Alias(value.clone()));
    }
    if KEYWORDS.contains(&name) {
        kinds.push(Kind::Keyword);
    }
    if shell.functions.contains_key(name) {
        kinds.push(Kind::Function);
    }
    if super::find(name).is_some() {
        kinds.push(Kind::Builtin);
    }
    kinds.extend(files(shell, name, all).await);
    kinds
}

/// The files `name` names: itself when it holds a slash and is executable,
/// else its hashed location or where `PATH` finds it.
async fn files(shell: &mut Shell, name: &str, all: bool) -> Vec<Kind> {
    if name.contains('/') {
        let absolute = crate::fs::path::join(&shell.cwd, name);
        let executable = matches!(shell.fs.metadata(&absolute).await, Ok(m) if m.is_file() && m.mode & 0o111 != 0);
        return if executable { vec![Kind::File(name.to_string())] } else { Vec::new() };
    }
    if all {
        return shell.search_path_all(name).await.into_iter().map(Kind::File).collect();
    }
    if let Some(path) = shell.hashed_path(name) {
        return vec![Kind::Hashed(path)];
    }
    shell.search_path(name).await.map(Kind::File).into_iter().collect()
}

/// `type [-afptP] name...`.
pub fn type_(shell: &mut Shell, args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        let args = words(&args);
        let (mut all, mut kind_only, mut path_only, mut force_path) = (false, false, false, false);
        let mut index = 1;
        while let Some(arg) = args.get(index).filter(|a| a.starts_with('-') && a.len() > 1) {
            for letter in arg[1..].chars() {
                match letter {
                    'a' => all = true,
                    't' => kind_only = true,
                    'p' => path_only = true,
                    'P' => {
                        path_only = true;
                        force_path = true;
                    }
                    'f' => {}
                    _ => {
                        shell.builtin_error("type", &format!("-{letter}: invalid option")).await;
                        let _ = shell.write_fd(2, b"type: usage: type [-afptP] name [name ...]\n").await;
                        return Ok(2);
                    }
                }
            }
            index += 1;
        }
        let mut status = 0;
        for name in &args[index.min(args.len())..] {
            let kinds = if force_path { files(shell, name, all).await } else { classify(shell, name, all).await };
            if kinds.is_empty() {
                if !kind_only && !path_only {
                    shell.builtin_error("type", &format!("{name}: not found")).await;
                }
                status = 1;
                continue;
            }
            let mut out = String::new();
            let chosen: Vec<&Kind> = if all { kinds.iter().collect() } else { kinds.iter().take(1).collect() };
            for kind in chosen {
                match kind {
                    Kind::Alias(value) if kind_only => out.push_str("alias\n"),
                    Kind::Alias(value) if !path_only => out.push_str(&format!("{name} is aliased to `{value}'\n")),
                    Kind::Keyword if kind_only => out.push_str("keyword\n"),
                    Kind::Keyword if !path_only => out.push_str(&format!("{name} is a shell keyword\n")),
                    Kind::Function if kind_only => out.push_str("function\n"),
                    Kind::Function if !path_only => {
                        let text = shell.functions.get(name).map(|f| shell.function_text(name, f)).unwrap_or_default();
                        out.push_str(&format!("{name} is a function\n{text}\n"));
                    }
                    Kind::Builtin if kind_only => out.push_str("builtin\n"),
                    Kind::Builtin if !path_only => out.push_str(&format!("{name} is a shell builtin\n")),
                    Kind::File(_) | Kind::Hashed(_) if kind_only => out.push_str("file\n"),
                    Kind::File(path) | Kind::Hashed(path) if path_only => out.push_str(&format!("{path}\n")),
                    Kind::File(path) => out.push_str(&format!("{name} is {path}\n")),
                    Kind::Hashed(path) => out.push_str(&format!("{name} is hashed ({path})\n")),
                    _ => {}
                }
            }
            shell.out(out.as_bytes()).await?;
        }
        Ok(status)
    })
}

/// `command [-pVv] name [args]`: runs without function lookup, or describes.
pub fn command(shell: &mut Shell, args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        let mut index = 1;
        let (mut describe, mut verbose, mut default_path) = (false, false, false);
        while let Some(Arg::Word(word)) = args.get(index) {
            if word == "--" {
                index += 1;
                break;
            }
            if !word.starts_with('-') || word.len() == 1 {
                break;
            }
            for letter in word[1..].chars() {
                match letter {
                    'v' => describe = true,
                    'V' => verbose = true,
                    'p' => default_path = true,
                    _ => {
                        shell.builtin_error("command", &format!("-{letter}: invalid option")).await;
                        let _ = shell.write_fd(2, b"command: usage: command [-pVv] command [arg ...]\n").await;
                        return Ok(2);
                    }
                }
            }
            index += 1;
        }
        let rest: Vec<Arg> = args[index.min(args.len())..].to_vec();
        if rest.is_empty() {
            return Ok(0);
        }
        if describe || verbose {
            let mut status = 1;
            for arg in &rest {
                let name = arg.text();
                let kinds = classify(shell, &name, false).await;
                let Some(kind) = kinds.first() else {
                    if verbose {
                        shell.builtin_error("command", &format!("{name}: not found")).await;
                    }
                    continue;
                };
                status = 0;
                let line = match (kind, verbose) {
                    (Kind::Alias(v), false) => format!("alias {name}='{v}'\n"),
                    (Kind::Alias(v), true) => format!("{name} is aliased to `{v}'\n"),
                    (Kind::File(path) | Kind::Hashed(path), false) => format!("{path}\n"),
                    (Kind::File(path), true) => format!("{name} is {path}\n"),
                    (Kind::Hashed(path), true) => format!("{name} is hashed ({path})\n"),
                    (Kind::Keyword, true) => format!("{name} is a shell keyword\n"),
                    (Kind::Function, true) => {
                        let text = shell.functions.get(name.as_str()).map(|f| shell.function_text(&name, f)).unwrap_or_default();
                        format!("{name} is a function\n{text}\n")
                    }
                    (Kind::Builtin, true) => format!("{name} is a shell builtin\n"),
                    (_, false) => format!("{name}\n"),
                };
                shell.out(line.as_bytes()).await?;
            }
            return Ok(status);
        }
        let name = rest[0].text();
        if let Some(builtin) = super::find(&name) {
            return shell.run_builtin(builtin, rest).await;
        }
        let argv: Vec<String> = rest.iter().map(Arg::text).collect();
        if default_path && !name.contains('/') {
            // `command -p` looks along the default PATH, bypassing the hash.
            return match shell.search_path_in(crate::interp::command_path::DEFAULT_PATH, &name).await {
                Some(path) => shell.run_path(&path, argv).await,
                None => {
                    shell.report_error(&format!("{name}: command not found")).await;
                    Ok(127)
                }
            };
        }
        shell.run_external(argv).await
    })
}

/// `builtin name [args]`.
pub fn builtin(shell: &mut Shell, args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        let mut first = 1;
        match args.get(1).map(Arg::text) {
            Some(word) if word == "--" => first = 2,
            Some(word) if word.len() > 1 && word.starts_with('-') => {
                shell.builtin_error("builtin", &format!("{}: invalid option", word.get(..2).unwrap_or(&word))).await;
                let _ = shell.write_fd(2, b"builtin: usage: builtin [shell-builtin [arg ...]]\n").await;
                return Ok(2);
            }
            _ => {}
        }
        let Some(name) = args.get(first).map(Arg::text) else { return Ok(0) };
        match super::find(&name) {
            Some(builtin) => shell.run_builtin(builtin, args[first..].to_vec()).await,
            None => {
                shell.builtin_error("builtin", &format!("{name}: not a shell builtin")).await;
                Ok(1)
            }
        }
    })
}

/// `enable [-a] [name...]`: lists builtins; disabling is not supported.
pub fn enable(shell: &mut Shell, args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        let args = words(&args);
        if args.len() <= 1 || args[1] == "-a" || args[1] == "-p" {
            let mut out = String::new();
            for name in super::names() {
                out.push_str(&format!("enable {name}\n"));
            }
            shell.out(out.as_bytes()).await?;
            return Ok(0);
        }
        for name in &args[1..] {
            if name.starts_with('-') {
                continue;
            }
            if super::find(name).is_none() {
                shell.builtin_error("enable", &format!("{name}: not a shell builtin")).await;
                return Ok(1);
            }
        }
        Ok(0)
    })
}
