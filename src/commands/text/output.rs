//! Buffered standard output for the text utilities: many small writes
//! (a field, a line) become few large ones, and a failed write turns into
//! the utility's exit status (141 for a closed pipe).

use crate::io::IoError;
use crate::utility::Invocation;

/// How many bytes collect before they are written.
const FLUSH_AT: usize = 16 * 1024;

/// Standard output with a buffer in front of it.
pub struct Output<'c, 'i> {
    ctx: &'c Invocation<'i>,
    buffer: Vec<u8>,
    /// The words of a failed write, after `NAME: `.
    failure: fn(&IoError) -> String,
    /// The status a failed write ends the tool with.
    status: i32,
}

impl<'c, 'i> Output<'c, 'i> {
    /// A buffer in front of `ctx`'s standard output.
    pub fn new(ctx: &'c Invocation<'i>) -> Self {
        Output::with_failure(ctx, |error| format!("write error: {error}"), 1)
    }

    /// A buffer whose failed writes are reported as `NAME: ` and what
    /// `failure` says, ending the tool with `status` (the tool's own words:
    /// `wc: write error`, `grep: write error: ...` with status 2).
    pub fn with_failure(ctx: &'c Invocation<'i>, failure: fn(&IoError) -> String, status: i32) -> Self {
        Output { ctx, buffer: Vec::with_capacity(FLUSH_AT), failure, status }
    }

    /// Appends `data`, writing the buffer out once it is large; `Err(status)`
    /// when the write failed.
    pub async fn write(&mut self, data: &[u8]) -> Result<(), i32> {
        self.buffer.extend_from_slice(data);
        if self.buffer.len() >= FLUSH_AT {
            self.flush().await?;
        }
        Ok(())
    }

    /// Writes out what is buffered.
    pub async fn flush(&mut self) -> Result<(), i32> {
        if self.buffer.is_empty() {
            return Ok(());
        }
        let result = match self.ctx.write_out(&self.buffer).await {
            Ok(()) => Ok(()),
            Err(error) => Err(self.ctx.write_failed_with(error, self.failure, self.status).await),
        };
        self.buffer.clear();
        result
    }
}

/// Maps the result of a run to its status: the status it ended with, or the
/// write failure's.
pub fn status_of(result: Result<i32, i32>) -> i32 {
    match result {
        Ok(status) | Err(status) => status,
    }
}
