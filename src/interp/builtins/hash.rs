//! `hash [-lr] [-p pathname] [-dt] [name ...]`: the table of commands found
//! along `PATH`.

use super::{words, Arg};
use crate::host::LocalFuture;
use crate::interp::{Outcome, Shell};

const USAGE_LINE: &str = "hash [-lr] [-p pathname] [-dt] [name ...]";

/// `hash`.
pub fn hash(shell: &mut Shell, args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        let args = words(&args);
        let (mut list, mut reset, mut delete, mut show) = (false, false, false, false);
        let mut given_path: Option<String> = None;
        let scanned = match shell.scan_options(&args, "dlp:rt", USAGE_LINE).await {
            Ok(scanned) => scanned,
            Err(outcome) => return outcome,
        };
        for (letter, value) in scanned.options {
            match letter {
                'l' => list = true,
                'r' => reset = true,
                'd' => delete = true,
                't' => show = true,
                'p' => given_path = value,
                _ => {}
            }
        }
        let index = scanned.rest;
        let names = &args[index.min(args.len())..];
        if reset {
            shell.command_hash().clear();
        }
        if (delete || show) && names.is_empty() {
            let option = if delete { "-d" } else { "-t" };
            shell.builtin_error("hash", &format!("{option}: option requires an argument")).await;
            return Ok(1);
        }
        if names.is_empty() {
            if !reset && given_path.is_none() {
                print_table(shell, list).await?;
            }
            return Ok(0);
        }
        let mut status = 0;
        let mut out = String::new();
        for name in names {
            if let Some(path) = &given_path {
                shell.hash_command(name, path.clone(), 0);
                continue;
            }
            if delete {
                if shell.hashed_path(name).is_some() {
                    shell.command_hash().entries.remove(name);
                } else {
                    shell.builtin_error("hash", &format!("{name}: not found")).await;
                    status = 1;
                }
                continue;
            }
            if show {
                match shell.hashed_path(name) {
                    Some(path) if list => out.push_str(&format!("builtin hash -p {path} {name}\n")),
                    Some(path) if names.len() > 1 => out.push_str(&format!("{name}\t{path}\n")),
                    Some(path) => out.push_str(&format!("{path}\n")),
                    None => {
                        shell.out(out.as_bytes()).await?;
                        out.clear();
                        shell.builtin_error("hash", &format!("{name}: not found")).await;
                        status = 1;
                    }
                }
                continue;
            }
            // Builtins and functions are not hashed, silently.
            if name.contains('/') || shell.functions.contains_key(name) || super::find(name).is_some() {
                continue;
            }
            match shell.search_path(name).await {
                Some(path) => shell.hash_command(name, path, 0),
                None => {
                    shell.builtin_error("hash", &format!("{name}: not found")).await;
                    status = 1;
                }
            }
        }
        shell.out(out.as_bytes()).await?;
        Ok(status)
    })
}

/// Prints the table as `hash` (hits and paths) or `hash -l` (reusable).
async fn print_table(shell: &mut Shell, reusable: bool) -> Result<(), crate::interp::Flow> {
    let entries: Vec<(String, String, u32)> =
        shell.command_hash().entries.iter().map(|(name, entry)| (name.clone(), entry.path.clone(), entry.hits)).collect();
    let mut out = String::new();
    if entries.is_empty() {
        if !reusable {
            out.push_str("hash: hash table empty\n");
        }
    } else if reusable {
        for (name, path, _) in &entries {
            out.push_str(&format!("builtin hash -p {path} {name}\n"));
        }
    } else {
        out.push_str("hits\tcommand\n");
        for (_, path, hits) in &entries {
            out.push_str(&format!("{hits:4}\t{path}\n"));
        }
    }
    shell.out(out.as_bytes()).await
}
