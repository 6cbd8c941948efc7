//! Job builtins: `wait`, `jobs`, `kill`, `fg`, `bg`, `disown`.

use super::trap::{signal_listing, signal_number};
use super::{words, Arg};
use crate::host::LocalFuture;
use crate::interp::{Outcome, Shell};
use std::future::poll_fn;
use std::task::Poll;

impl Shell {
    /// Resolves `%n`, `%%` or a pid to a job pid.
    fn job_pid(&self, spec: &str) -> Option<u32> {
        match spec {
            "%%" | "%+" | "%" => self.jobs.pid_of_job(None),
            _ => match spec.strip_prefix('%') {
                Some(n) => n.parse().ok().and_then(|n| self.jobs.pid_of_job(Some(n))),
                None => spec.parse().ok(),
            },
        }
    }
}

/// `wait [-fn] [-p var] [id ...]`.
pub fn wait(shell: &mut Shell, args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        let args = words(&args);
        let (mut any, mut pid_variable) = (false, None);
        let scanned = match shell.scan_options(&args, "fnp:", "wait [-fn] [-p var] [id ...]").await {
            Ok(scanned) => scanned,
            Err(outcome) => return outcome,
        };
        for (letter, value) in scanned.options {
            match letter {
                'n' => any = true,
                'p' => pid_variable = value,
                _ => {}
            }
        }
        let index = scanned.rest;
        let ids = &args[index.min(args.len())..];
        let jobs = shell.jobs.clone();
        if any {
            let mut pids = Vec::new();
            for id in ids {
                match shell.job_pid(id).filter(|pid| jobs.status_of_pid(*pid).is_some()) {
                    Some(pid) => pids.push(pid),
                    None => shell.builtin_error("wait", &format!("{id}: no such job")).await,
                }
            }
            if !ids.is_empty() && pids.is_empty() {
                return Ok(127);
            }
            let among = if ids.is_empty() { None } else { Some(pids.as_slice()) };
            let found = poll_fn(|_| match jobs.take_finished_among(among) {
                Some(done) => Poll::Ready(Some(done)),
                None if !among.map_or_else(|| jobs.any_running(), |pids| jobs.any_running_among(pids)) => Poll::Ready(None),
                None => Poll::Pending,
            })
            .await;
            let Some((pid, status)) = found else { return Ok(127) };
            report_kill(shell, pid).await;
            if let Some(name) = pid_variable {
                let _ = shell.assign_scalar(&name, pid.to_string(), false);
            }
            return Ok(status);
        }
        if ids.is_empty() {
            poll_fn(|_| if jobs.any_running() { Poll::Pending } else { Poll::Ready(()) }).await;
            while let Some((pid, _)) = jobs.take_finished() {
                report_kill(shell, pid).await;
            }
            return Ok(0);
        }
        let mut status = 0;
        for id in ids {
            if !id.starts_with('%') && id.parse::<u32>().is_err() {
                shell.builtin_error("wait", &format!("`{id}': not a pid or valid job spec")).await;
                status = 1;
                continue;
            }
            let Some(pid) = shell.job_pid(id) else {
                shell.builtin_error("wait", &format!("{id}: no such job")).await;
                status = 127;
                continue;
            };
            if jobs.status_of_pid(pid).is_none() {
                shell.builtin_error("wait", &format!("pid {pid} is not a child of this shell")).await;
                status = 127;
                continue;
            }
            status = poll_fn(|_| match jobs.status_of_pid(pid) {
                Some(Some(s)) => Poll::Ready(s),
                Some(None) => Poll::Pending,
                None => Poll::Ready(127),
            })
            .await;
            // Collected: `wait -n` does not see it again.
            let _ = jobs.take_finished_among(Some(&[pid]));
            report_kill(shell, pid).await;
            if let Some(name) = &pid_variable {
                let _ = shell.assign_scalar(name, pid.to_string(), false);
            }
        }
        Ok(status)
    })
}

/// Reports a job `kill` ended, as a non-interactive bash does when it
/// collects it: `bash: line 3: 1234 Hangup                  sleep 1`. SIGINT,
/// SIGTERM and SIGPIPE go unreported.
async fn report_kill(shell: &mut Shell, pid: u32) {
    let Some((signal, command)) = shell.jobs.take_kill_report(pid) else { return };
    let Some(description) = signal_description(signal) else { return };
    shell.report_error(&format!("{pid:>5} {description:<24}{command}")).await;
}

/// The text bash prints for a job killed by `signal`.
fn signal_description(signal: i32) -> Option<&'static str> {
    Some(match signal {
        1 => "Hangup",
        3 => "Quit",
        4 => "Illegal instruction",
        5 => "Trace/breakpoint trap",
        6 => "Aborted",
        7 => "Bus error",
        8 => "Floating point exception",
        9 => "Killed",
        10 => "User defined signal 1",
        11 => "Segmentation fault",
        12 => "User defined signal 2",
        14 => "Alarm clock",
        16 => "Stack fault",
        24 => "CPU time limit exceeded",
        25 => "File size limit exceeded",
        26 => "Virtual timer expired",
        27 => "Profiling timer expired",
        29 => "I/O possible",
        30 => "Power failure",
        31 => "Bad system call",
        _ => return None,
    })
}

/// `jobs [-lp]`.
pub fn jobs(shell: &mut Shell, args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        let args = words(&args);
        let scanned = match shell.scan_options(&args, "lnprsx", "jobs [-lnprs] [jobspec ...] or jobs -x command [args]").await {
            Ok(scanned) => scanned,
            Err(outcome) => return outcome,
        };
        let out: String = if scanned.options.iter().any(|(letter, _)| *letter == 'p') {
            shell.jobs.pids().iter().map(|p| format!("{p}\n")).collect()
        } else {
            shell.jobs.listing().iter().map(|l| format!("{l}\n")).collect()
        };
        shell.out(out.as_bytes()).await?;
        Ok(0)
    })
}

/// `kill [-s sig | -sig] pid|%job ...` and `kill -l`.
pub fn kill(shell: &mut Shell, args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        let args = words(&args);
        let mut signal = 15;
        let mut index = 1;
        if args.get(1).map(String::as_str) == Some("-l") || args.get(1).map(String::as_str) == Some("-L") {
            if args.len() == 2 {
                shell.out(signal_listing().as_bytes()).await?;
                return Ok(0);
            }
            return list_signals(shell, &args[2..]).await;
        }
        if let Some(first) = args.get(1) {
            if first == "-s" || first == "-n" {
                signal = args.get(2).and_then(|s| signal_number(s)).unwrap_or(15);
                index = 3;
            } else if let Some(spec) = first.strip_prefix('-') {
                match signal_number(spec) {
                    Some(n) => signal = n,
                    None => {
                        shell.builtin_error("kill", &format!("{spec}: invalid signal specification")).await;
                        return Ok(1);
                    }
                }
                index = 2;
            }
        }
        if index >= args.len() {
            let _ =
                shell.write_fd(2, b"kill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]\n").await;
            return Ok(2);
        }
        let mut status = 0;
        for target in &args[index..] {
            match shell.job_pid(target) {
                Some(pid) if shell.jobs.status_of_pid(pid).is_some() => {
                    // A job's traps were reset: CHLD, CONT, URG and WINCH do nothing by default.
                    if !matches!(signal, 0 | 17 | 18 | 23 | 28) && !shell.jobs.kill(pid, signal) {
                        status = 1;
                    }
                }
                Some(pid) if pid == shell.bash_pid => {
                    if signal != 0 {
                        shell.receive_signal(signal).await?;
                    }
                }
                // A shell waiting on this one (`kill $$` in a subshell, a
                // child bash signalling its parent) gets it when it goes on.
                Some(pid) if shell.ancestor_pids.contains(&pid) => {
                    if signal != 0 {
                        shell.jobs.post_signal(pid, signal);
                    }
                }
                _ => {
                    let message =
                        if target.starts_with('%') { format!("{target}: no such job") } else { format!("({target}) - No such process") };
                    shell.builtin_error("kill", &message).await;
                    status = 1;
                }
            }
        }
        Ok(status)
    })
}

/// `fg`: waits for the job in the foreground.
pub fn fg(shell: &mut Shell, args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        let args = words(&args);
        let spec = args.get(1).cloned().unwrap_or_else(|| "%%".into());
        let Some(pid) = shell.job_pid(&spec) else {
            shell.builtin_error("fg", "no job control").await;
            return Ok(1);
        };
        let jobs = shell.jobs.clone();
        let status = poll_fn(|_| match jobs.status_of_pid(pid) {
            Some(Some(s)) => Poll::Ready(s),
            Some(None) => Poll::Pending,
            None => Poll::Ready(1),
        })
        .await;
        Ok(status)
    })
}

/// `bg`: jobs already run in the background.
pub fn bg(shell: &mut Shell, _args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        shell.builtin_error("bg", "no job control").await;
        Ok(1)
    })
}

/// `disown`: accepted; jobs end with the run either way.
pub fn disown(shell: &mut Shell, args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        let mut status = 0;
        for spec in words(&args).iter().skip(1).filter(|a| !a.starts_with('-')) {
            if shell.job_pid(spec).and_then(|pid| shell.jobs.status_of_pid(pid)).is_none() {
                shell.builtin_error("disown", &format!("{spec}: no such job")).await;
                status = 1;
            }
        }
        Ok(status)
    })
}

/// `kill -l spec...`: a number (or exit status above 128) gives the name, a
/// name gives the number.
async fn list_signals(shell: &mut Shell, specs: &[String]) -> Outcome {
    let mut status = 0;
    let mut out = String::new();
    for spec in specs {
        let answer = match spec.parse::<i32>() {
            Ok(number) => {
                let number = if number > 128 { number - 128 } else { number };
                super::trap::canonical_signal(&number.to_string()).map(|name| name.strip_prefix("SIG").unwrap_or(&name).to_string())
            }
            Err(_) => signal_number(spec).map(|n| n.to_string()),
        };
        match answer {
            Some(text) => out.push_str(&format!("{text}\n")),
            None => {
                shell.out(out.as_bytes()).await?;
                out.clear();
                shell.builtin_error("kill", &format!("{spec}: invalid signal specification")).await;
                status = 1;
            }
        }
    }
    shell.out(out.as_bytes()).await?;
    Ok(status)
}

impl Shell {
    /// Acts on a signal sent to this shell: its trap runs, an ignored one
    /// does nothing, any other ends the shell with 128 + the signal.
    pub(crate) async fn receive_signal(&mut self, signal: i32) -> Result<(), crate::interp::Flow> {
        let name = super::trap::SIGNALS.get(signal as usize - 1).map(|s| format!("SIG{s}")).unwrap_or_default();
        match self.traps.get(&name).cloned() {
            Some(action) if action.is_empty() => Ok(()),
            Some(_) => {
                self.run_trap(&name).await
            }
            // SIGCHLD, SIGURG and SIGWINCH are ignored by default.
            None if matches!(signal, 17 | 23 | 28) => Ok(()),
            None => Err(crate::interp::Flow::Exit(128 + signal)),
        }
    }

    /// Acts on the signals other shells of the session queued for this one.
    pub(crate) async fn receive_queued_signals(&mut self) -> Result<(), crate::interp::Flow> {
        for signal in self.jobs.take_signals_for(self.bash_pid) {
            self.receive_signal(signal).await?;
        }
        Ok(())
    }
}
