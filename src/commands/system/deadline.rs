//! The host a command under `timeout` sees: the shell's own host with a
//! deadline. Past it the host reports an interrupt that is only that
//! command's (the interpreter and long-running utilities stop at their next
//! check), and a sleep reaching past it wakes at the deadline and does not
//! return while `timeout` still waits, so the command is stopped there
//! whatever the host's clock is. Once `timeout` is done (its [`Watch`]
//! dropped), such sleeps return, so a background job the command left
//! behind cannot hang a later `wait`.

use crate::host::{FetchError, FetchRequest, FetchResponse, Host, HostCommandCall, HostCommandOutput, HostCommandShell, LocalFuture};
use std::cell::Cell;
use std::rc::Rc;
use std::task::Poll;

/// A host whose interrupt fires at `deadline` (milliseconds since the epoch).
pub struct DeadlineHost {
    inner: Rc<dyn Host>,
    deadline: f64,
    watched: Rc<Cell<bool>>,
}

/// Held by `timeout` while it waits for its command; dropping it releases
/// the command's sleeps past the deadline.
pub struct Watch(Rc<Cell<bool>>);

impl Drop for Watch {
    fn drop(&mut self) {
        self.0.set(false);
    }
}

impl DeadlineHost {
    /// Wraps `inner` with a deadline; the [`Watch`] lasts as long as the
    /// caller waits for the command.
    pub fn new(inner: Rc<dyn Host>, deadline: f64) -> (Self, Watch) {
        let watched = Rc::new(Cell::new(true));
        (DeadlineHost { inner, deadline, watched: watched.clone() }, Watch(watched))
    }
}

impl Host for DeadlineHost {
    fn now_millis(&self) -> f64 {
        self.inner.now_millis()
    }

    fn random_seed(&self) -> u64 {
        self.inner.random_seed()
    }

    fn yield_now(&self) -> LocalFuture<'_, ()> {
        self.inner.yield_now()
    }

    fn sleep(&self, millis: f64) -> LocalFuture<'_, ()> {
        let remaining = self.deadline - self.inner.now_millis();
        if millis < remaining {
            return self.inner.sleep(millis);
        }
        Box::pin(async move {
            self.inner.sleep(remaining.max(0.0)).await;
            let watched = self.watched.clone();
            std::future::poll_fn(move |_| if watched.get() { Poll::Pending } else { Poll::Ready(()) }).await;
        })
    }

    fn interrupted(&self) -> bool {
        self.inner.interrupted() || self.deadline_passed()
    }

    fn deadline_passed(&self) -> bool {
        self.inner.now_millis() >= self.deadline
    }

    fn command_names(&self) -> Vec<String> {
        self.inner.command_names()
    }

    fn run_command<'a>(&'a self, call: HostCommandCall, shell: &'a mut dyn HostCommandShell) -> LocalFuture<'a, HostCommandOutput> {
        self.inner.run_command(call, shell)
    }

    fn fetch(&self, request: FetchRequest) -> LocalFuture<'_, Result<FetchResponse, FetchError>> {
        let mut request = request;
        let remaining = (self.deadline - self.inner.now_millis()).max(0.0) as u64;
        request.timeout_ms = Some(request.timeout_ms.map_or(remaining, |own| own.min(remaining)));
        self.inner.fetch(request)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::FixedHost;

    #[test]
    fn interrupt_fires_at_the_deadline_only() {
        let inner: Rc<dyn Host> = Rc::new(FixedHost::new(1000.0, 1));
        let (host, watch) = DeadlineHost::new(inner.clone(), 2000.0);
        assert!(!host.interrupted());
        crate::executor::block_on(host.sleep(500.0));
        assert_eq!(inner.now_millis(), 1500.0);
        assert!(!host.deadline_passed());
        crate::executor::block_on(inner.sleep(500.0));
        assert!(host.interrupted() && host.deadline_passed());
        drop(watch);
        crate::executor::block_on(host.sleep(10_000.0));
    }
}
