//! `trap [-lp] [action] [signal...]`: EXIT, ERR, DEBUG, RETURN and the
//! signals a host abort maps to (INT, TERM).

use super::{words, Arg};
use crate::host::LocalFuture;
use crate::interp::{Outcome, Shell};

/// Signal names by number, as `trap -l` and `kill -l` list them.
pub const SIGNALS: &[&str] = &[
    "HUP", "INT", "QUIT", "ILL", "TRAP", "ABRT", "BUS", "FPE", "KILL", "USR1", "SEGV", "USR2", "PIPE", "ALRM", "TERM", "STKFLT", "CHLD",
    "CONT", "STOP", "TSTP", "TTIN", "TTOU", "URG", "XCPU", "XFSZ", "VTALRM", "PROF", "WINCH", "IO", "PWR", "SYS",
];

/// The canonical trap name for a signal spec (`2`, `INT`, `SIGINT`, `EXIT`, `0`).
pub fn canonical_signal(spec: &str) -> Option<String> {
    let upper = spec.to_ascii_uppercase();
    match upper.as_str() {
        "0" | "EXIT" | "SIGEXIT" => return Some("EXIT".into()),
        "ERR" | "DEBUG" | "RETURN" => return Some(upper),
        _ => {}
    }
    if let Ok(n) = spec.parse::<usize>() {
        return signal_name(n);
    }
    let bare = upper.strip_prefix("SIG").unwrap_or(&upper);
    if let Some(name) = SIGNALS.iter().find(|s| **s == bare) {
        return Some(format!("SIG{name}"));
    }
    (1..=64).filter_map(signal_name).find(|name| name[3..] == *bare)
}

/// The name of signal `number`, real-time signals included (`SIGRTMIN+8`).
fn signal_name(number: usize) -> Option<String> {
    match number {
        1..=31 => SIGNALS.get(number - 1).map(|s| format!("SIG{s}")),
        34 => Some("SIGRTMIN".into()),
        35..=49 => Some(format!("SIGRTMIN+{}", number - 34)),
        50..=63 => Some(format!("SIGRTMAX-{}", 64 - number)),
        64 => Some("SIGRTMAX".into()),
        _ => None,
    }
}

/// The signal number of a name (`TERM` → 15).
pub fn signal_number(spec: &str) -> Option<i32> {
    if let Ok(n) = spec.parse::<i32>() {
        return (0..=64).contains(&n).then_some(n);
    }
    let upper = spec.to_ascii_uppercase();
    let bare = upper.strip_prefix("SIG").unwrap_or(&upper);
    (1..=64).find(|&n| signal_name(n).is_some_and(|name| name[3..] == *bare)).map(|n| n as i32)
}

/// `trap -l` output.
pub fn signal_listing() -> String {
    let mut out = String::new();
    for (index, name) in SIGNALS.iter().enumerate() {
        out.push_str(&format!("{:>2}) SIG{name}", index + 1));
        out.push(if (index + 1) % 5 == 0 || index + 1 == SIGNALS.len() { '\n' } else { '\t' });
    }
    out
}

/// `trap`.
pub fn trap(shell: &mut Shell, args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        let args = words(&args);
        let mut index = 1;
        let mut print = false;
        while let Some(arg) = args.get(index) {
            match arg.as_str() {
                "-l" => {
                    shell.out(signal_listing().as_bytes()).await?;
                    return Ok(0);
                }
                "-p" => print = true,
                "--" => {
                    index += 1;
                    break;
                }
                option if option.len() > 1 && option.starts_with('-') => {
                    let letter = option.get(..2).unwrap_or(option);
                    shell.builtin_error("trap", &format!("{letter}: invalid option")).await;
                    let _ = shell.write_fd(2, b"trap: usage: trap [-lp] [[arg] signal_spec ...]\n").await;
                    return Ok(2);
                }
                _ => break,
            }
            index += 1;
        }
        let rest = &args[index.min(args.len())..];
        if rest.is_empty() || print {
            let mut listed = shell.inactive_traps.clone();
            listed.extend(shell.traps.iter().map(|(name, action)| (name.clone(), action.clone())));
            // All traps in signal order; named ones in the order given, each
            // printed (or refused) in turn.
            let line = |name: &str| listed.get(name).map(|action| format!("trap -- '{}' {name}\n", action.replace('\'', "'\\''")));
            let mut status = 0;
            if rest.is_empty() {
                let mut names: Vec<&String> = listed.keys().collect();
                names.sort_by_key(|n| if *n == "EXIT" { 0 } else { signal_number(n).unwrap_or(100) });
                let out: String = names.into_iter().filter_map(|name| line(name)).collect();
                shell.out(out.as_bytes()).await?;
            }
            for spec in rest {
                match canonical_signal(spec) {
                    Some(name) => {
                        if let Some(text) = line(&name) {
                            shell.out(text.as_bytes()).await?;
                        }
                    }
                    None => {
                        shell.builtin_error("trap", &format!("{spec}: invalid signal specification")).await;
                        status = 1;
                    }
                }
            }
            return Ok(status);
        }
        // A lone argument, or a first one that is an unsigned number, means
        // every argument is a signal to reset.
        let (action, signals) = if rest.len() == 1 || !rest[0].is_empty() && rest[0].bytes().all(|b| b.is_ascii_digit()) {
            ("-".to_string(), rest)
        } else {
            (rest[0].clone(), &rest[1..])
        };
        let mut status = 0;
        for spec in signals {
            match canonical_signal(spec) {
                Some(name) => {
                    // Setting a trap in a subshell forgets the inherited listing.
                    shell.inactive_traps.clear();
                    if action == "-" {
                        shell.traps.remove(&name);
                    } else {
                        shell.traps.insert(name, action.clone());
                    }
                }
                None => {
                    shell.builtin_error("trap", &format!("{spec}: invalid signal specification")).await;
                    status = 1;
                }
            }
        }
        Ok(status)
    })
}
