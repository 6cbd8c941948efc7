//! The host a command under `timeout` sees: the shell's own host with a
//! deadline. Past it the host reports an interrupt that is only that
//! command's (the interpreter and long-running utilities stop at their next
//! check), and a sleep reaching past it wakes at the deadline and never
//! returns, so the command is stopped there whatever the host's clock is.

use crate::host::{Host, LocalFuture};
use std::rc::Rc;

/// A host whose interrupt fires at `deadline` (milliseconds since the epoch).
pub struct DeadlineHost {
    inner: Rc<dyn Host>,
    deadline: f64,
}

impl DeadlineHost {
    /// Wraps `inner` with a deadline.
    pub fn new(inner: Rc<dyn Host>, deadline: f64) -> Self {
        DeadlineHost { inner, deadline }
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
            std::future::pending::<()>().await;
        })
    }

    fn interrupted(&self) -> bool {
        self.inner.interrupted() || self.deadline_passed()
    }

    fn deadline_passed(&self) -> bool {
        self.inner.now_millis() >= self.deadline
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::FixedHost;

    #[test]
    fn interrupt_fires_at_the_deadline_only() {
        let inner: Rc<dyn Host> = Rc::new(FixedHost::new(1000.0, 1));
        let host = DeadlineHost::new(inner.clone(), 2000.0);
        assert!(!host.interrupted());
        crate::executor::block_on(host.sleep(500.0));
        assert_eq!(inner.now_millis(), 1500.0);
        assert!(!host.deadline_passed());
        crate::executor::block_on(inner.sleep(500.0));
        assert!(host.interrupted() && host.deadline_passed());
    }
}
