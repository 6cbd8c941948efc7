//! Drives the engine's futures to completion without an async runtime.
//!
//! Under JS the top-level future becomes a Promise (wasm-bindgen-futures);
//! natively, tests and the `wabash` binary use [`block_on`]. Concurrency
//! inside the engine (pipeline stages) is cooperative: [`join_all`] polls
//! every unfinished future whenever any of them is woken.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};

struct FlagWaker(AtomicBool);

impl Wake for FlagWaker {
    fn wake(self: Arc<Self>) {
        self.0.store(true, Ordering::SeqCst);
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// Runs a future to completion on the current thread. Host futures in native
/// builds complete without waiting on the outside world, so polling again
/// after a wake-up is all that is needed.
pub fn block_on<F: Future>(future: F) -> F::Output {
    let flag = Arc::new(FlagWaker(AtomicBool::new(true)));
    let waker = Waker::from(flag.clone());
    let mut context = Context::from_waker(&waker);
    let mut future = std::pin::pin!(future);
    loop {
        flag.0.store(false, Ordering::SeqCst);
        if let Poll::Ready(output) = future.as_mut().poll(&mut context) {
            return output;
        }
        if !flag.0.load(Ordering::SeqCst) {
            // Nothing woke us: every task waits on something only another
            // task can provide. Yield the thread and poll again.
            std::thread::yield_now();
        }
    }
}

/// Polls all `futures` concurrently and returns their outputs in order.
pub async fn join_all<'a, T>(futures: Vec<Pin<Box<dyn Future<Output = T> + 'a>>>) -> Vec<T> {
    let mut slots: Vec<Option<Pin<Box<dyn Future<Output = T> + 'a>>>> = futures.into_iter().map(Some).collect();
    let mut outputs: Vec<Option<T>> = slots.iter().map(|_| None).collect();
    std::future::poll_fn(move |cx| {
        let mut pending = false;
        for (slot, output) in slots.iter_mut().zip(outputs.iter_mut()) {
            if let Some(future) = slot {
                match future.as_mut().poll(cx) {
                    Poll::Ready(value) => {
                        *output = Some(value);
                        *slot = None;
                    }
                    Poll::Pending => pending = true,
                }
            }
        }
        if pending {
            Poll::Pending
        } else {
            Poll::Ready(outputs.iter_mut().filter_map(Option::take).collect())
        }
    })
    .await
}

/// Runs `main` to its end while also polling `helper` (a task that feeds
/// it, such as standard input coming from the host); the helper is dropped,
/// finished or not, as soon as `main` is done.
pub async fn with_helper<'a, T>(main: Pin<Box<dyn Future<Output = T> + 'a>>, helper: Pin<Box<dyn Future<Output = ()> + 'a>>) -> T {
    let mut main = main;
    let mut helper = Some(helper);
    std::future::poll_fn(move |cx| {
        if let Some(task) = helper.as_mut() {
            if task.as_mut().poll(cx).is_ready() {
                helper = None;
            }
        }
        main.as_mut().poll(cx)
    })
    .await
}
