//! [`Run`]: an engine future that JavaScript polls itself.
//!
//! The wrapper, not an executor inside the module, drives every future: it
//! calls [`Run::poll`] inside its own `try`, and the module calls the wake
//! handler when a pending run can make progress. So a trap (a panic, a stack
//! overflow, memory exhaustion) surfaces as an exception in the wrapper's
//! hands, which reports it and replaces the instance, instead of escaping
//! from a microtask where nobody can catch it.

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};
use wasm_bindgen::prelude::*;

/// The future type a [`Run`] drives.
pub type RunFuture = Pin<Box<dyn Future<Output = Result<JsValue, JsValue>>>>;

thread_local! {
    static WAKE_HANDLER: RefCell<Option<js_sys::Function>> = const { RefCell::new(None) };
    static NEXT_ID: Cell<u32> = const { Cell::new(1) };
}

/// Registers the JS function called with a run's id when it should be polled again.
#[wasm_bindgen(js_name = setWakeHandler)]
pub fn set_wake_handler(callback: js_sys::Function) {
    WAKE_HANDLER.with(|handler| *handler.borrow_mut() = Some(callback));
}

/// Wakes a run by telling JS its id; JS schedules the next poll.
struct RunWaker {
    id: u32,
}

impl Wake for RunWaker {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        WAKE_HANDLER.with(|handler| {
            if let Some(callback) = handler.borrow().as_ref() {
                let _ = callback.call1(&JsValue::NULL, &JsValue::from(self.id));
            }
        });
    }
}

/// One operation in progress (an `exec`, a file read, creating a sandbox).
#[wasm_bindgen]
pub struct Run {
    id: u32,
    future: Option<RunFuture>,
    outcome: Option<Result<JsValue, JsValue>>,
    waker: Waker,
}

impl Run {
    /// Wraps a future; nothing runs until the first [`Run::poll`].
    pub fn new(future: impl Future<Output = Result<JsValue, JsValue>> + 'static) -> Run {
        let id = NEXT_ID.with(|next| {
            let id = next.get();
            next.set(id.wrapping_add(1));
            id
        });
        let waker = Waker::from(Arc::new(RunWaker { id }));
        Run { id, future: Some(Box::pin(future)), outcome: None, waker }
    }

    /// A run that has already finished with `outcome`.
    pub fn settled(outcome: Result<JsValue, JsValue>) -> Run {
        let mut run = Run::new(async { Ok(JsValue::UNDEFINED) });
        run.future = None;
        run.outcome = Some(outcome);
        run
    }
}

#[wasm_bindgen]
impl Run {
    /// The id the wake handler receives for this run.
    #[wasm_bindgen(getter)]
    pub fn id(&self) -> u32 {
        self.id
    }

    /// Makes as much progress as possible; true once the run has finished.
    pub fn poll(&mut self) -> bool {
        let Some(future) = self.future.as_mut() else {
            return true;
        };
        let mut context = Context::from_waker(&self.waker);
        match future.as_mut().poll(&mut context) {
            Poll::Ready(outcome) => {
                self.future = None;
                self.outcome = Some(outcome);
                true
            }
            Poll::Pending => false,
        }
    }

    /// The value of a finished run; throws its error (a JS `Error` with a
    /// `code`) when it failed, or when it has not finished yet.
    pub fn result(&mut self) -> Result<JsValue, JsValue> {
        self.outcome.take().unwrap_or_else(|| Err(super::error::js_error(super::error::INTERNAL, "run has not finished")))
    }
}
