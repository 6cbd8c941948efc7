//! Smaller builtins: `alias`, `unalias`, `let`, `times`,
//! `caller`, `help`, `history`, `suspend`, `compgen`, `complete`.

use super::{words, Arg};
use crate::expand::{arith, HostArith};
use crate::host::LocalFuture;
use crate::interp::{Outcome, Shell};

/// `alias [name[=value]...]`.
pub fn alias(shell: &mut Shell, args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        let args = words(&args);
        let operands: Vec<&String> = args[1..].iter().filter(|a| *a != "-p").collect();
        let mut out = String::new();
        let mut status = 0;
        if operands.is_empty() {
            let mut names: Vec<&String> = shell.aliases.keys().collect();
            names.sort();
            for name in names {
                out.push_str(&format!("alias {name}={}\n", crate::expand::quote_for_reuse(&shell.aliases[name])));
            }
        }
        for operand in operands {
            match operand.split_once('=') {
                Some((name, _)) if name.is_empty() || name.contains(|c: char| c.is_whitespace() || "/$`=\\'\"<>|&;()".contains(c)) => {
                    shell.out(out.as_bytes()).await?;
                    out.clear();
                    shell.builtin_error("alias", &format!("`{name}': invalid alias name")).await;
                    status = 1;
                }
                Some((name, value)) => {
                    shell.aliases.insert(name.to_string(), value.to_string());
                }
                None => match shell.aliases.get(operand.as_str()) {
                    Some(value) => out.push_str(&format!("alias {operand}={}\n", crate::expand::quote_for_reuse(value))),
                    None => {
                        shell.out(out.as_bytes()).await?;
                        out.clear();
                        shell.builtin_error("alias", &format!("{operand}: not found")).await;
                        status = 1;
                    }
                },
            }
        }
        shell.out(out.as_bytes()).await?;
        Ok(status)
    })
}

/// `unalias [-a] name...`.
pub fn unalias(shell: &mut Shell, args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        let args = words(&args);
        if args.len() == 1 {
            let _ = shell.write_fd(2, b"unalias: usage: unalias [-a] name [name ...]\n").await;
            return Ok(2);
        }
        let mut status = 0;
        for name in &args[1..] {
            if name == "-a" {
                shell.aliases.clear();
            } else if shell.aliases.remove(name).is_none() {
                shell.builtin_error("unalias", &format!("{name}: not found")).await;
                status = 1;
            }
        }
        Ok(status)
    })
}

/// `let expr...`: status 0 when the last value is non-zero.
pub fn let_(shell: &mut Shell, args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        let args = words(&args);
        if args.len() == 1 {
            shell.builtin_error("let", "expression expected").await;
            return Ok(1);
        }
        let mut last = 0;
        for expr in &args[1..] {
            match arith::eval_text(expr, &mut HostArith(shell)) {
                Ok(value) => last = value,
                Err(error) => {
                    shell.builtin_error("let", &error.to_string()).await;
                    return Ok(1);
                }
            }
        }
        Ok((last == 0) as i32)
    })
}

/// `times`: the sandbox reports no CPU time.
pub fn times(shell: &mut Shell, _args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        shell.out(b"0m0.000s 0m0.000s\n0m0.000s 0m0.000s\n").await?;
        Ok(0)
    })
}

/// `caller [n]`.
pub fn caller(shell: &mut Shell, args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        let args = words(&args);
        let depth: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(0);
        let frames: Vec<_> = shell.call_stack.iter().rev().cloned().collect();
        let Some(frame) = frames.get(depth) else { return Ok(1) };
        let caller_name = frames.get(depth + 1).map(|f| f.name.clone()).unwrap_or_else(|| "main".to_string());
        let line = if args.len() > 1 {
            format!("{} {caller_name} {}\n", frame.call_line, if frame.source_name.is_empty() { "main" } else { &frame.source_name })
        } else {
            format!("{} {}\n", frame.call_line, if frame.source_name.is_empty() { "main" } else { &frame.source_name })
        };
        shell.out(line.as_bytes()).await?;
        Ok(0)
    })
}

/// `history`: non-interactive shells keep no history.
pub fn history(shell: &mut Shell, args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        // History is off in a non-interactive shell: only the arguments are checked.
        let args = words(&args);
        let Some(first) = args.get(1) else { return Ok(0) };
        let letters = first.strip_prefix('-').filter(|l| !l.is_empty() && *first != "--");
        if let Some(letters) = letters {
            if let Some(bad) = letters.chars().find(|c| !"cdanrwps".contains(*c)) {
                shell.builtin_error("history", &format!("-{bad}: invalid option")).await;
                let usage = "history: usage: history [-c] [-d offset] [n] or history -anrw [filename] or history -ps arg [arg...]\n";
                let _ = shell.write_fd(2, usage.as_bytes()).await;
                return Ok(2);
            }
            return Ok(0);
        }
        let count = first.strip_prefix('+').unwrap_or(first);
        if count.is_empty() || !count.bytes().all(|b| b.is_ascii_digit()) || args.len() > 2 {
            shell.builtin_error("history", &format!("{first}: numeric argument required")).await;
            return Ok(1);
        }
        Ok(0)
    })
}

/// `suspend`: not permitted in the sandbox.
pub fn suspend(shell: &mut Shell, _args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        shell.builtin_error("suspend", "cannot suspend: no job control").await;
        Ok(1)
    })
}

/// Reserved words in the order `compgen -k` lists them.
const COMPGEN_KEYWORDS: &[&str] = &[
    "if", "then", "else", "elif", "fi", "case", "esac", "for", "select", "while", "until", "do", "done", "in", "function", "time", "{",
    "}", "!", "[[", "]]", "coproc",
];

/// `compgen [-abcdefkuvA] [word]`: lists names of the given kinds.
pub fn compgen(shell: &mut Shell, args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        let args = words(&args);
        let mut names: Vec<String> = Vec::new();
        let mut prefix = String::new();
        // Word lists and keywords keep their own order; other names are sorted.
        let mut sort = false;
        let mut index = 1;
        while let Some(arg) = args.get(index) {
            match arg.as_str() {
                "-W" => {
                    index += 1;
                    let list = args.get(index).cloned().unwrap_or_default();
                    names.extend(list.split_whitespace().map(str::to_string));
                }
                "--" => {
                    prefix = args.get(index + 1).cloned().unwrap_or_default();
                    break;
                }
                "-b" => {
                    sort = true;
                    names.extend(super::names().map(str::to_string));
                }
                "-c" => {
                    sort = true;
                    names.extend(super::names().map(str::to_string));
                    names.extend(shell.functions.keys().cloned());
                    names.extend(shell.utilities.keys().cloned());
                    names.extend(shell.aliases.keys().cloned());
                }
                "-a" => {
                    sort = true;
                    names.extend(shell.aliases.keys().cloned());
                }
                "-k" => names.extend(COMPGEN_KEYWORDS.iter().map(|k| k.to_string())),
                "-v" => {
                    sort = true;
                    names.extend(shell.vars.visible().into_iter().map(|(n, _)| n));
                }
                "-e" => {
                    sort = true;
                    names.extend(shell.exported_env().into_iter().map(|(n, _)| n));
                }
                "-A" => {
                    sort = true;
                    index += 1;
                    if args.get(index).map(String::as_str) == Some("function") {
                        names.extend(shell.functions.keys().cloned());
                    }
                }
                word if !word.starts_with('-') => prefix = word.to_string(),
                _ => {}
            }
            index += 1;
        }
        let mut matched: Vec<String> = names.into_iter().filter(|n| n.starts_with(&prefix)).collect();
        if sort {
            matched.sort();
            matched.dedup();
        }
        let status = if matched.is_empty() { 1 } else { 0 };
        let out: String = matched.iter().map(|n| format!("{n}\n")).collect();
        shell.out(out.as_bytes()).await?;
        Ok(status)
    })
}

/// `complete`: completion specs have no effect without a terminal.
pub fn complete(_shell: &mut Shell, _args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async { Ok(0) })
}
