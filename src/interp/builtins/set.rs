//! `set` (options and positional parameters) and `shopt`.

use super::declare::declare_line;
use super::{words, Arg};
use crate::host::LocalFuture;
use crate::interp::options::{Options, SET_OPTIONS};
use crate::interp::{Outcome, Shell};

const SET_USAGE: &[u8] = b"set: usage: set [-abefhkmnptuvxBCEHPT] [-o option-name] [--] [-] [arg ...]\n";

/// `set`.
pub fn set(shell: &mut Shell, args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        let outcome = set_options(shell, args).await;
        shell.sync_option_variables();
        outcome
    })
}

async fn set_options(shell: &mut Shell, args: Vec<Arg>) -> Outcome {
    let args = words(&args);
    if args.len() == 1 {
        let out = variable_listing(shell);
        shell.out(out.as_bytes()).await?;
        return Ok(0);
    }
    let mut index = 1;
    let mut new_positional: Option<Vec<String>> = None;
    while index < args.len() {
        let arg = &args[index];
        if arg == "--" {
            new_positional = Some(args[index + 1..].to_vec());
            break;
        }
        if arg == "-" {
            shell.options.xtrace = false;
            shell.options.verbose = false;
            // Unlike `--`, a lone `-` keeps the parameters when nothing follows.
            if index + 1 < args.len() {
                new_positional = Some(args[index + 1..].to_vec());
            }
            break;
        }
        let (on, letters) = match (arg.strip_prefix('-'), arg.strip_prefix('+')) {
            (Some(l), _) => (true, l),
            (_, Some(l)) => (false, l),
            _ => {
                new_positional = Some(args[index..].to_vec());
                break;
            }
        };
        for letter in letters.chars() {
            if letter == 'o' {
                index += 1;
                match args.get(index) {
                    Some(name) => {
                        if !shell.options.set_set_option(name, on) {
                            shell.builtin_error("set", &format!("{name}: invalid option name")).await;
                            return Ok(2);
                        }
                    }
                    None => {
                        print_set_o(shell, on).await?;
                    }
                }
                continue;
            }
            match Options::name_for_letter(letter) {
                Some(name) => {
                    shell.options.set_set_option(name, on);
                }
                None => {
                    shell.builtin_error("set", &format!("{}{letter}: invalid option", if on { '-' } else { '+' })).await;
                    let _ = shell.write_fd(2, SET_USAGE).await;
                    return Ok(2);
                }
            }
        }
        index += 1;
    }
    if let Some(positional) = new_positional {
        shell.positional = positional;
    }
    Ok(0)
}

async fn print_set_o(shell: &mut Shell, human: bool) -> Result<(), crate::interp::Flow> {
    let mut out = String::new();
    for (name, _) in SET_OPTIONS {
        let on = shell.options.get_set_option(name).unwrap_or(false);
        if human {
            out.push_str(&format!("{name:<15}\t{}\n", if on { "on" } else { "off" }));
        } else {
            out.push_str(&format!("set {}o {name}\n", if on { '-' } else { '+' }));
        }
    }
    shell.out(out.as_bytes()).await
}

/// `shopt [-pqsuo] [optname...]`.
pub fn shopt(shell: &mut Shell, args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        let outcome = shopt_options(shell, args).await;
        shell.sync_option_variables();
        outcome
    })
}

async fn shopt_options(shell: &mut Shell, args: Vec<Arg>) -> Outcome {
    let args = words(&args);
    let (mut set, mut unset, mut print, mut quiet, mut set_o) = (false, false, false, false, false);
    let mut index = 1;
    while let Some(arg) = args.get(index) {
        let Some(letters) = arg.strip_prefix('-').filter(|l| !l.is_empty()) else { break };
        for letter in letters.chars() {
            match letter {
                's' => set = true,
                'u' => unset = true,
                'p' => print = true,
                'q' => quiet = true,
                'o' => set_o = true,
                _ => {
                    shell.builtin_error("shopt", &format!("-{letter}: invalid option")).await;
                    let _ = shell.write_fd(2, b"shopt: usage: shopt [-pqsu] [-o] [optname ...]\n").await;
                    return Ok(2);
                }
            }
        }
        index += 1;
    }
    let names = &args[index.min(args.len())..];
    if set && unset {
        shell.builtin_error("shopt", "cannot set and unset shell options simultaneously").await;
        return Ok(1);
    }
    let get = |shell: &Shell, name: &str| if set_o { shell.options.get_set_option(name) } else { shell.options.get_shopt(name) };
    if set || unset {
        let mut status = 0;
        for name in names {
            let ok = if set_o { shell.options.set_set_option(name, set) } else { shell.options.set_shopt(name, set) };
            if !ok {
                shell.builtin_error("shopt", &invalid_name(name, set_o)).await;
                status = 1;
            }
        }
        if names.is_empty() {
            let all: Vec<(String, bool)> = if set_o {
                SET_OPTIONS.iter().map(|(n, _)| (n.to_string(), shell.options.get_set_option(n).unwrap_or(false))).collect()
            } else {
                shell.options.all_shopts()
            };
            let mut out = String::new();
            for (name, on) in all.into_iter().filter(|(_, on)| *on == set) {
                out.push_str(&format_shopt(&name, on, print, set_o));
            }
            shell.out(out.as_bytes()).await?;
        }
        return Ok(status);
    }
    let list: Vec<(String, Option<bool>)> = if names.is_empty() {
        let all: Vec<(String, bool)> = if set_o {
            SET_OPTIONS.iter().map(|(n, _)| (n.to_string(), shell.options.get_set_option(n).unwrap_or(false))).collect()
        } else {
            shell.options.all_shopts()
        };
        all.into_iter().map(|(n, v)| (n, Some(v))).collect()
    } else {
        names.iter().map(|n| (n.clone(), get(shell, n))).collect()
    };
    let mut status = 0;
    let mut out = String::new();
    for (name, value) in list {
        match value {
            None => {
                shell.out(out.as_bytes()).await?;
                out.clear();
                shell.builtin_error("shopt", &invalid_name(&name, set_o)).await;
                status = 1;
            }
            Some(on) => {
                if !on && !names.is_empty() {
                    status = 1;
                }
                if !quiet {
                    out.push_str(&format_shopt(&name, on, print, set_o));
                }
            }
        }
    }
    shell.out(out.as_bytes()).await?;
    Ok(status)
}
fn format_shopt(name: &str, on: bool, print: bool, set_o: bool) -> String {
    if print {
        if set_o {
            format!("set {}o {name}\n", if on { '-' } else { '+' })
        } else {
            format!("shopt {} {name}\n", if on { "-s" } else { "-u" })
        }
    } else {
        format!("{name:<15}\t{}\n", if on { "on" } else { "off" })
    }
}

/// The message for an unknown name (`shopt -o` names `set -o` options).
fn invalid_name(name: &str, set_o: bool) -> String {
    if set_o {
        format!("{name}: invalid option name")
    } else {
        format!("{name}: invalid shell option name")
    }
}

/// Every set variable as `name=value` (arrays as `name=(...)`), the listing
/// of `set` and of `declare` without arguments.
pub(super) fn variable_listing(shell: &Shell) -> String {
    let mut out = String::new();
    for (name, var) in shell.vars.visible() {
        if var.value.is_none() {
            continue;
        }
        let line = declare_line(&name, var);
        let assignment = match &var.value {
            Some(crate::interp::vars::Value::Scalar(s))
                if s.chars().all(|c| c.is_ascii_alphanumeric() || "/_.-:+,@%".contains(c)) =>
            {
                format!("{name}={s}")
            }
            Some(crate::interp::vars::Value::Scalar(s)) => format!("{name}={}", crate::expand::quote_for_reuse(s)),
            _ => line.splitn(3, ' ').nth(2).unwrap_or("").to_string(),
        };
        out.push_str(&assignment);
        out.push('\n');
    }
    out
}
