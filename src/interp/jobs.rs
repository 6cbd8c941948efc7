//! Background jobs (`cmd &`): futures that run beside the foreground script,
//! polled whenever the foreground waits, with deterministic scheduling.

use crate::host::LocalFuture;
use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};

/// One background job.
struct Job {
    /// The job number (`%1`).
    number: usize,
    /// The process id shown as `$!`.
    pid: u32,
    /// The command text (for `jobs`).
    command: String,
    /// The running future; `None` once done.
    future: Option<LocalFuture<'static, i32>>,
    /// The exit status once done.
    status: Option<i32>,
    /// Whether `wait` or `jobs` has reported it.
    reported: bool,
    /// A `<( )` / `>( )` job, driven to its end when the script finishes.
    process_substitution: bool,
    /// The signal `kill` ended it with, until `wait` reports it.
    killed_by: Option<i32>,
}

/// The jobs of a session, shared by the shell and all its subshells.
#[derive(Clone, Default)]
pub struct JobTable {
    jobs: Rc<RefCell<Vec<Job>>>,
    /// Signals `kill` sent to a shell waiting on the sender (`kill $$` in a
    /// subshell or a child `bash`): the target pid and the signal number.
    signals: Rc<RefCell<Vec<(u32, i32)>>>,
}

impl JobTable {
    /// Starts a job; returns its pid.
    pub fn spawn(&self, pid: u32, command: String, future: LocalFuture<'static, i32>) -> u32 {
        let mut jobs = self.jobs.borrow_mut();
        let number = jobs.iter().map(|j| j.number).max().unwrap_or(0) + 1;
        jobs.push(Job {
            number,
            pid,
            command,
            future: Some(future),
            status: None,
            reported: false,
            process_substitution: false,
            killed_by: None,
        });
        pid
    }

    /// Starts the job of a process substitution.
    pub fn spawn_process_substitution(&self, pid: u32, future: LocalFuture<'static, i32>) {
        self.spawn(pid, "process substitution".into(), future);
        if let Some(job) = self.jobs.borrow_mut().last_mut() {
            job.process_substitution = true;
        }
    }

    /// Polls the unfinished process substitutions until a pass finishes none
    /// (their readers have seen the end of their input by then).
    pub fn drain_process_substitutions(&self, cx: &mut Context<'_>) {
        loop {
            let mut finished = false;
            let count = self.jobs.borrow().len();
            for index in 0..count {
                let future = self.jobs.borrow_mut().get_mut(index).filter(|j| j.process_substitution).and_then(|j| j.future.take());
                let Some(mut future) = future else { continue };
                let outcome = future.as_mut().poll(cx);
                if let Some(job) = self.jobs.borrow_mut().get_mut(index) {
                    match outcome {
                        Poll::Ready(status) => {
                            job.status = Some(status);
                            finished = true;
                        }
                        Poll::Pending => job.future = Some(future),
                    }
                }
            }
            if !finished {
                return;
            }
        }
    }

    /// Polls every running job once, including jobs spawned while polling
    /// (a background command's process substitution), so that each one has
    /// registered a waker before the run waits. Returns true if any finished.
    pub fn poll_all(&self, cx: &mut Context<'_>) -> bool {
        let mut finished = false;
        for index in 0.. {
            if index >= self.jobs.borrow().len() {
                break;
            }
            // Take the future out so a job may itself touch the table.
            let future = self.jobs.borrow_mut().get_mut(index).and_then(|j| j.future.take());
            let Some(mut future) = future else { continue };
            match future.as_mut().poll(cx) {
                Poll::Ready(status) => {
                    if let Some(job) = self.jobs.borrow_mut().get_mut(index) {
                        job.status = Some(status);
                    }
                    finished = true;
                }
                Poll::Pending => {
                    if let Some(job) = self.jobs.borrow_mut().get_mut(index) {
                        job.future = Some(future);
                    }
                }
            }
        }
        finished
    }

    /// True when some job is still running.
    pub fn any_running(&self) -> bool {
        self.jobs.borrow().iter().any(|j| j.status.is_none())
    }

    /// True when one of `pids` is still running.
    pub fn any_running_among(&self, pids: &[u32]) -> bool {
        self.jobs.borrow().iter().any(|j| j.status.is_none() && pids.contains(&j.pid))
    }

    /// The status of the job with `pid`: `Some(Some(s))` done, `Some(None)` running, `None` unknown.
    pub fn status_of_pid(&self, pid: u32) -> Option<Option<i32>> {
        self.jobs.borrow().iter().find(|j| j.pid == pid).map(|j| j.status)
    }

    /// The pid of job number `n` (`%n`), or of the latest (`%%`, `%+`) with `None`.
    pub fn pid_of_job(&self, number: Option<usize>) -> Option<u32> {
        let jobs = self.jobs.borrow();
        match number {
            Some(n) => jobs.iter().find(|j| j.number == n).map(|j| j.pid),
            None => jobs.last().map(|j| j.pid),
        }
    }

    /// Pid and command text of each running job, oldest first (`ps`).
    pub fn running(&self) -> Vec<(u32, String)> {
        self.jobs.borrow().iter().filter(|j| j.status.is_none()).map(|j| (j.pid, j.command.clone())).collect()
    }

    /// Pids of all jobs, oldest first.
    pub fn pids(&self) -> Vec<u32> {
        self.jobs.borrow().iter().map(|j| j.pid).collect()
    }

    /// A finished job not yet reported by `wait -n`; marks it reported.
    pub fn take_finished(&self) -> Option<(u32, i32)> {
        self.take_finished_among(None)
    }

    /// [`JobTable::take_finished`] restricted to `pids` when given.
    pub fn take_finished_among(&self, pids: Option<&[u32]>) -> Option<(u32, i32)> {
        let mut jobs = self.jobs.borrow_mut();
        let wanted = |pid: u32| pids.is_none_or(|pids| pids.contains(&pid));
        let job = jobs.iter_mut().find(|j| j.status.is_some() && !j.reported && wanted(j.pid))?;
        job.reported = true;
        Some((job.pid, job.status.unwrap_or(0)))
    }

    /// Stops a job (`kill`): its future is dropped and its status is 128+signal.
    pub fn kill(&self, pid: u32, signal: i32) -> bool {
        let mut jobs = self.jobs.borrow_mut();
        match jobs.iter_mut().find(|j| j.pid == pid && j.status.is_none()) {
            Some(job) => {
                job.future = None;
                job.status = Some(128 + signal);
                job.killed_by = Some(signal);
                true
            }
            None => false,
        }
    }

    /// The signal that killed the job with `pid` and its command text, once:
    /// what a non-interactive bash reports when it collects the job.
    pub fn take_kill_report(&self, pid: u32) -> Option<(i32, String)> {
        let mut jobs = self.jobs.borrow_mut();
        let job = jobs.iter_mut().find(|j| j.pid == pid)?;
        job.killed_by.take().map(|signal| (signal, job.command.clone()))
    }

    /// Queues `signal` for the waiting shell whose `$BASHPID` is `pid`.
    pub fn post_signal(&self, pid: u32, signal: i32) {
        self.signals.borrow_mut().push((pid, signal));
    }

    /// True when some signal waits for a shell.
    pub fn has_signals(&self) -> bool {
        !self.signals.borrow().is_empty()
    }

    /// Takes the signals queued for the shell whose `$BASHPID` is `pid`.
    pub fn take_signals_for(&self, pid: u32) -> Vec<i32> {
        let mut signals = self.signals.borrow_mut();
        let (mine, others): (Vec<_>, Vec<_>) = signals.drain(..).partition(|(target, _)| *target == pid);
        *signals = others;
        mine.into_iter().map(|(_, signal)| signal).collect()
    }

    /// `jobs` lines: `[1]+  Running                 sleep 1 &`.
    pub fn listing(&self) -> Vec<String> {
        let jobs = self.jobs.borrow();
        let last = jobs.len();
        jobs.iter()
            .enumerate()
            .filter(|(_, j)| !j.reported)
            .map(|(i, j)| {
                let marker = if i + 1 == last {
                    '+'
                } else if i + 2 == last {
                    '-'
                } else {
                    ' '
                };
                let state = match j.status {
                    None => "Running".to_string(),
                    Some(0) => "Done".to_string(),
                    Some(s) => format!("Exit {s}"),
                };
                format!("[{}]{marker}  {state:<24}{} &", j.number, j.command)
            })
            .collect()
    }

    /// Forgets finished jobs that were reported.
    pub fn prune(&self) {
        self.jobs.borrow_mut().retain(|j| j.status.is_none() || !j.reported);
    }
}

/// Runs `main` while polling background jobs whenever it waits; jobs still
/// running when `main` finishes are dropped, as a script's orphans are lost.
pub struct WithJobs<'a, T> {
    /// The foreground future.
    pub main: Pin<Box<dyn Future<Output = T> + 'a>>,
    /// The job table to pump.
    pub jobs: JobTable,
}

impl<T> Future for WithJobs<'_, T> {
    type Output = T;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<T> {
        loop {
            if let Poll::Ready(value) = self.main.as_mut().poll(cx) {
                self.jobs.drain_process_substitutions(cx);
                return Poll::Ready(value);
            }
            // A job finishing may unblock `wait` in the foreground: poll again.
            if !self.jobs.poll_all(cx) {
                return Poll::Pending;
            }
        }
    }
}
