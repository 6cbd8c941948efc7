//! Buffered standard output for the text utilities: many small writes
//! (a field, a line) become few large ones, and a failed write turns into
//! the utility's exit status (141 for a closed pipe).

use crate::utility::{write_failure_status, Invocation};

/// How many bytes collect before they are written.
const FLUSH_AT: usize = 16 * 1024;

/// Standard output with a buffer in front of it.
pub struct Output<'c, 'i> {
    ctx: &'c Invocation<'i>,
    buffer: Vec<u8>,
}

impl<'c, 'i> Output<'c, 'i> {
    /// A buffer in front of `ctx`'s standard output.
    pub fn new(ctx: &'c Invocation<'i>) -> Self {
        Output { ctx, buffer: Vec::with_capacity(FLUSH_AT) }
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
        let result = self.ctx.write_out(&self.buffer).await.map_err(write_failure_status);
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
