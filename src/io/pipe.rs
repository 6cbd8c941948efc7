//! Bounded in-memory pipes connecting concurrent pipeline stages.
//!
//! A pipe holds at most [`PIPE_CAPACITY`] bytes, as a Linux pipe does. A
//! writer that finds it full waits; a reader that finds it empty waits until a
//! writer writes or the last writer closes (end of file). When the reader is
//! gone, writes fail with [`IoError::BrokenPipe`], which the shell turns into
//! SIGPIPE's status 141, so `yes | head -n 3` ends at once.

use super::IoError;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::future::poll_fn;
use std::rc::Rc;
use std::task::{Poll, Waker};

/// Bytes a pipe holds before writers wait (Linux's default pipe size).
pub const PIPE_CAPACITY: usize = 64 * 1024;

#[derive(Debug, Default)]
struct PipeState {
    buffer: VecDeque<u8>,
    reader_open: bool,
    writer_open: bool,
    waiting_readers: Vec<Waker>,
    waiting_writers: Vec<Waker>,
}

impl PipeState {
    fn wake_readers(&mut self) {
        for waker in self.waiting_readers.drain(..) {
            waker.wake();
        }
    }

    fn wake_writers(&mut self) {
        for waker in self.waiting_writers.drain(..) {
            waker.wake();
        }
    }
}

/// The read end of a pipe. Dropping it makes later writes fail with EPIPE.
#[derive(Debug)]
pub struct PipeReader {
    state: Rc<RefCell<PipeState>>,
}

/// The write end of a pipe. Dropping it gives the reader end of file once
/// the buffered bytes are read.
#[derive(Debug)]
pub struct PipeWriter {
    state: Rc<RefCell<PipeState>>,
}

/// Creates a connected pipe.
pub fn pipe() -> (PipeReader, PipeWriter) {
    let state = Rc::new(RefCell::new(PipeState { reader_open: true, writer_open: true, ..Default::default() }));
    (PipeReader { state: state.clone() }, PipeWriter { state })
}

impl PipeReader {
    /// Reads up to `max` bytes, waiting while the pipe is empty and a writer
    /// is open. An empty result is end of file.
    pub async fn read(&self, max: usize) -> Vec<u8> {
        poll_fn(|cx| {
            let mut state = self.state.borrow_mut();
            if !state.buffer.is_empty() {
                let take = max.min(state.buffer.len());
                // Copy the ring buffer's two halves in bulk, not byte by byte.
                let mut out = Vec::with_capacity(take);
                let (front, back) = state.buffer.as_slices();
                let from_front = take.min(front.len());
                out.extend_from_slice(front.get(..from_front).unwrap_or(&[]));
                out.extend_from_slice(back.get(..take - from_front).unwrap_or(&[]));
                state.buffer.drain(..take);
                state.wake_writers();
                return Poll::Ready(out);
            }
            if !state.writer_open {
                return Poll::Ready(Vec::new());
            }
            state.waiting_readers.push(cx.waker().clone());
            Poll::Pending
        })
        .await
    }

    /// Reads through the first `delimiter` (included) or up to `max` bytes,
    /// never consuming more, so the rest stays for the next reader (`read`).
    pub async fn read_until(&self, delimiter: u8, max: usize) -> Vec<u8> {
        let mut out = Vec::new();
        poll_fn(|cx| {
            let mut state = self.state.borrow_mut();
            while out.len() < max {
                match state.buffer.pop_front() {
                    Some(byte) => {
                        out.push(byte);
                        if byte == delimiter {
                            state.wake_writers();
                            return Poll::Ready(());
                        }
                    }
                    None => break,
                }
            }
            state.wake_writers();
            if out.len() >= max || !state.writer_open {
                return Poll::Ready(());
            }
            state.waiting_readers.push(cx.waker().clone());
            Poll::Pending
        })
        .await;
        out
    }
}

impl PipeWriter {
    /// Writes all of `data`, waiting while the pipe is full. Fails with
    /// `BrokenPipe` once the reader is gone (bytes already taken stay taken).
    pub async fn write(&self, data: &[u8]) -> Result<(), IoError> {
        let mut written = 0;
        poll_fn(|cx| {
            let mut state = self.state.borrow_mut();
            if !state.reader_open {
                return Poll::Ready(Err(IoError::BrokenPipe));
            }
            let room = PIPE_CAPACITY.saturating_sub(state.buffer.len());
            let take = room.min(data.len() - written);
            if take > 0 {
                state.buffer.extend(&data[written..written + take]);
                written += take;
                state.wake_readers();
            }
            if written == data.len() {
                return Poll::Ready(Ok(()));
            }
            state.waiting_writers.push(cx.waker().clone());
            Poll::Pending
        })
        .await
    }
}

impl Drop for PipeReader {
    fn drop(&mut self) {
        let mut state = self.state.borrow_mut();
        state.reader_open = false;
        state.buffer.clear();
        state.wake_writers();
    }
}

impl Drop for PipeWriter {
    fn drop(&mut self) {
        let mut state = self.state.borrow_mut();
        state.writer_open = false;
        state.wake_readers();
    }
}
