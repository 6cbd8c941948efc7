//! `getopts optstring name [args]`: POSIX option parsing with bash's
//! messages and silent mode (leading `:`).

use super::{words, Arg};
use crate::host::LocalFuture;
use crate::interp::variables::is_valid_name;
use crate::interp::{Outcome, Shell};

/// `getopts`.
pub fn getopts(shell: &mut Shell, args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        let args = words(&args);
        if args.len() < 3 {
            let _ = shell.write_fd(2, b"getopts: usage: getopts optstring name [arg ...]\n").await;
            return Ok(2);
        }
        let spec = args[1].clone();
        let name = args[2].clone();
        let operands: Vec<String> = if args.len() > 3 { args[3..].to_vec() } else { shell.positional.clone() };
        let silent = spec.starts_with(':') || shell.var("OPTERR").as_deref() == Some("0");
        let spec_chars = spec.trim_start_matches(':');
        let mut optind: usize = shell.var("OPTIND").and_then(|v| v.parse().ok()).unwrap_or(1).max(1);
        let mut position = shell.getopts_position;
        if shell.getopts_last_optind != optind {
            position = 0;
        }
        let finish = |shell: &mut Shell, optind: usize, position: usize| {
            shell.getopts_position = position;
            shell.getopts_last_optind = optind;
            let _ = shell.assign_scalar("OPTIND", optind.to_string(), false);
        };
        let Some(word) = operands.get(optind - 1).cloned() else {
            // Past the end, OPTIND is left just after the last operand.
            return end_of_options(shell, &name, optind.min(operands.len() + 1)).await;
        };
        if position == 0 {
            if word == "--" {
                return end_of_options(shell, &name, optind + 1).await;
            }
            if !word.starts_with('-') || word == "-" {
                return end_of_options(shell, &name, optind).await;
            }
            position = 1;
        }
        let chars: Vec<char> = word.chars().collect();
        let option = chars.get(position).copied().unwrap_or('?');
        position += 1;
        let at_end = position >= chars.len();
        let takes_argument = spec_chars.find(option).map(|i| spec_chars[i + option.len_utf8()..].starts_with(':'));
        shell.vars.remove("OPTARG");
        match takes_argument {
            None => {
                if silent {
                    let _ = shell.assign_scalar("OPTARG", option.to_string(), false);
                } else {
                    let message = format!("{}: illegal option -- {option}\n", shell.arg0);
                    let _ = shell.write_fd(2, message.as_bytes()).await;
                }
                let _ = shell.assign_scalar(&name, "?".into(), false);
            }
            Some(false) => {
                let _ = shell.assign_scalar(&name, option.to_string(), false);
            }
            Some(true) => {
                if !at_end {
                    let value: String = chars[position..].iter().collect();
                    let _ = shell.assign_scalar("OPTARG", value, false);
                    position = chars.len();
                } else if let Some(value) = operands.get(optind).cloned() {
                    let _ = shell.assign_scalar("OPTARG", value, false);
                    optind += 1;
                } else {
                    if silent {
                        let _ = shell.assign_scalar(&name, ":".into(), false);
                        let _ = shell.assign_scalar("OPTARG", option.to_string(), false);
                    } else {
                        let message = format!("{}: option requires an argument -- {option}\n", shell.arg0);
                        let _ = shell.write_fd(2, message.as_bytes()).await;
                        let _ = shell.assign_scalar(&name, "?".into(), false);
                    }
                    finish(shell, optind + 1, 0);
                    return bind_name(shell, &name, None).await;
                }
                let _ = shell.assign_scalar(&name, option.to_string(), false);
            }
        }
        if position >= chars.len() {
            finish(shell, optind + 1, 0);
        } else {
            finish(shell, optind, position);
        }
        bind_name(shell, &name, None).await
    })
}

/// No more options: OPTARG is unset, the name gets `?`, OPTIND is `optind`.
async fn end_of_options(shell: &mut Shell, name: &str, optind: usize) -> Outcome {
    shell.vars.remove("OPTARG");
    shell.getopts_position = 0;
    shell.getopts_last_optind = optind;
    let _ = shell.assign_scalar("OPTIND", optind.to_string(), false);
    bind_name(shell, name, Some("?")).await.map(|status| status.max(1))
}

/// Assigns `value` (if any) to the variable `name`; an invalid name is an
/// error with status 1, after OPTIND and OPTARG were updated.
async fn bind_name(shell: &mut Shell, name: &str, value: Option<&str>) -> Outcome {
    if !is_valid_name(name) {
        shell.builtin_error("getopts", &format!("`{name}': not a valid identifier")).await;
        return Ok(1);
    }
    if let Some(value) = value {
        let _ = shell.assign_scalar(name, value.into(), false);
    }
    Ok(0)
}
