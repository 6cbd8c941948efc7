//! `bash` and `sh`: run a script in a child interpreter, as a new bash
//! process would (nothing ever spawns a process). Options are bash's: set
//! letters, `-o name`, `-O shopt`, `-c`, and the long options scripts pass.

use super::{words, Arg};
use crate::host::LocalFuture;
use crate::interp::{Options, Outcome, Shell};

/// What to run.
enum Source {
    /// `-c text`.
    Command,
    /// A script file, or standard input when no operand is left.
    File,
}

/// What bash prints after an invalid option of its own.
const USAGE: &str = "Usage:\tbash [GNU long option] [option] ...\n\tbash [GNU long option] [option] script-file ...\n\
GNU long options:\n\t--debug\n\t--debugger\n\t--dump-po-strings\n\t--dump-strings\n\t--help\n\t--init-file\n\t--login\n\
\t--noediting\n\t--noprofile\n\t--norc\n\t--posix\n\t--pretty-print\n\t--rcfile\n\t--restricted\n\t--verbose\n\t--version\n\
Shell options:\n\t-ilrsD or -c command or -O shopt_option\t\t(invocation only)\n\t-abefhkmnptuvxBCEHPT or -o option\n";

/// What `bash --help` prints around [`USAGE`].
const HELP_HEAD: &str = "GNU bash, version 5.2.15(1)-release-(x86_64-pc-linux-gnu)\n";
const HELP_TAIL: &str = "Type `bash -c \"help set\"' for more information about shell options.\n\
Type `bash -c help' for more information about shell builtin commands.\nUse the `bashbug' command to report bugs.\n\n\
bash home page: <http://www.gnu.org/software/bash>\nGeneral help using GNU software: <http://www.gnu.org/gethelp/>\n";

/// What `bash --version` prints.
const VERSION: &str = "GNU bash, version 5.2.15(1)-release (x86_64-pc-linux-gnu)\n\
Copyright (C) 2022 Free Software Foundation, Inc.\nLicense GPLv3+: GNU GPL version 3 or later <http://gnu.org/licenses/gpl.html>\n\n\
This is free software; you are free to change and redistribute it.\nThere is NO WARRANTY, to the extent permitted by law.\n";

/// Reports an invalid option of bash itself (`-9`, `+9`, `--bogus`) with
/// the usage text after it; status 2.
async fn invalid_option(shell: &Shell, option: &str) -> Outcome {
    shell.report_plain(&format!("{option}: invalid option")).await;
    let _ = shell.stderr().write(USAGE.as_bytes()).await;
    Ok(2)
}

/// `bash [options] [-c text | file] [args]`.
pub fn bash(shell: &mut Shell, args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        let args = words(&args);
        let name = args[0].clone();
        let mut options = Options::default();
        let mut source = Source::File;
        let mut index = 1;
        while let Some(arg) = args.get(index) {
            index += 1;
            match arg.as_str() {
                "--" | "-" => break,
                "--norc" | "--noprofile" | "--login" | "--noediting" | "--verbose" | "--debugger" | "--restricted" => {
                    options.verbose |= arg == "--verbose";
                    continue;
                }
                "--posix" => {
                    options.posix = true;
                    continue;
                }
                "--rcfile" | "--init-file" => {
                    index += 1;
                    continue;
                }
                "--help" => {
                    shell.out(format!("{HELP_HEAD}{USAGE}{HELP_TAIL}").as_bytes()).await?;
                    return Ok(0);
                }
                "--version" => {
                    shell.out(VERSION.as_bytes()).await?;
                    return Ok(0);
                }
                long if long.starts_with("--") => return invalid_option(shell, long).await,
                _ => {}
            }
            let (on, letters) = match (arg.strip_prefix('-'), arg.strip_prefix('+')) {
                (Some(letters), _) if !letters.is_empty() => (true, letters),
                (_, Some(letters)) if !letters.is_empty() => (false, letters),
                _ => {
                    index -= 1;
                    break;
                }
            };
            for letter in letters.chars() {
                match letter {
                    'c' => source = Source::Command,
                    'i' | 'l' | 's' | 'r' | 'D' => {}
                    'o' | 'O' => {
                        let Some(option) = args.get(index) else {
                            shell.report_plain(&format!("-{letter}: option requires an argument")).await;
                            return Ok(2);
                        };
                        index += 1;
                        if letter == 'o' && !options.set_set_option(option, on) {
                            shell.report_plain(&format!("line 0: {name}: {option}: invalid option name")).await;
                            return Ok(2);
                        }
                        if letter == 'O' && !options.set_shopt(option, on) {
                            shell.report_plain(&format!("line 0: {option}: invalid shell option name")).await;
                            return Ok(2);
                        }
                    }
                    other => match Options::name_for_letter(other) {
                        Some(option) => {
                            options.set_set_option(option, on);
                        }
                        None => return invalid_option(shell, &format!("{}{other}", if on { '-' } else { '+' })).await,
                    },
                }
            }
        }
        inherit_shellopts(shell, &mut options);
        let rest = args[index.min(args.len())..].to_vec();
        match source {
            Source::Command => {
                let Some((text, operands)) = rest.split_first() else {
                    shell.report_plain("-c: option requires an argument").await;
                    return Ok(2);
                };
                let (arg0, positional) = match operands.split_first() {
                    Some((first, others)) => (first.clone(), others.to_vec()),
                    None => (name.clone(), Vec::new()),
                };
                // `bash -c TEXT NAME` names itself NAME in its error messages.
                let prefix = if operands.is_empty() { "bash".to_string() } else { arg0.clone() };
                let mut child = shell.child_process(arg0, positional).await;
                options.command_string = true;
                child.options = options;
                Ok(child.run_as_process(text, prefix.clone(), format!("{prefix}: -c")).await)
            }
            Source::File => match rest.split_first() {
                Some((file, others)) => {
                    let path = crate::fs::path::join(&shell.cwd, file);
                    match shell.fs.read_file(&path).await {
                        Ok(bytes) => {
                            let text = String::from_utf8_lossy(&bytes).into_owned();
                            let mut child = shell.child_process(file.clone(), others.to_vec()).await;
                            child.options = options;
                            Ok(child.run_as_process(&text, file.clone(), file.clone()).await)
                        }
                        Err(error) => {
                            shell.report_plain(&format!("{file}: {error}")).await;
                            Ok(127)
                        }
                    }
                }
                None => {
                    let input = shell.stdin().read_to_end().await.unwrap_or_default();
                    let text = String::from_utf8_lossy(&input).into_owned();
                    let mut child = shell.child_process(name.clone(), Vec::new()).await;
                    child.options = options;
                    Ok(child.run_as_process(&text, "bash".into(), "bash".into()).await)
                }
            },
        }
    })
}

/// An exported SHELLOPTS turns its `set -o` options on in the child, as a
/// new bash reads it from its environment (`export SHELLOPTS; set -x`
/// traces child shells too).
fn inherit_shellopts(shell: &Shell, options: &mut Options) {
    let Some(variable) = shell.vars.get("SHELLOPTS").filter(|v| v.attributes.exported) else { return };
    let Some(crate::interp::vars::Value::Scalar(value)) = &variable.value else { return };
    for name in value.split(':') {
        options.set_set_option(name, true);
    }
}
