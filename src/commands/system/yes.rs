//! `yes`: print a line (`y`, or the arguments) until the reader goes away;
//! a closed pipe ends it at once with status 141.

use crate::host::LocalFuture;
use crate::utility::{write_failure_status, Invocation};

/// Bytes written per chunk: many lines at a time, as GNU `yes` buffers.
const CHUNK: usize = 8192;

/// Returns `Pending` once (waking itself), so a caller racing this command
/// against a timer (`timeout`) gets to poll the timer even under a host
/// whose `yield_now` completes at once.
async fn yield_once() {
    let mut yielded = false;
    std::future::poll_fn(|cx| {
        if yielded {
            return std::task::Poll::Ready(());
        }
        yielded = true;
        cx.waker().wake_by_ref();
        std::task::Poll::Pending
    })
    .await
}

/// Runs `yes [STRING]...`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let words: Vec<&str> = ctx.args.iter().skip(1).map(String::as_str).collect();
        let words: Vec<&str> = if words.first() == Some(&"--") { words.into_iter().skip(1).collect() } else { words };
        let line = if words.is_empty() { "y\n".to_string() } else { format!("{}\n", words.join(" ")) };
        let repeat = (CHUNK / line.len()).max(1);
        let chunk = line.repeat(repeat);
        let mut rounds: u32 = 0;
        loop {
            if let Err(error) = ctx.write_out(chunk.as_bytes()).await {
                return write_failure_status(error);
            }
            // An interrupt is seen after every chunk: a reader that takes
            // each chunk slowly (a custom command) must not delay it.
            if ctx.host.interrupted() {
                return 130;
            }
            rounds = rounds.wrapping_add(1);
            if rounds % 64 == 0 {
                ctx.host.yield_now().await;
                yield_once().await;
            }
        }
    })
}
