//! Runs: engine futures that JavaScript polls itself, addressed by id.
//!
//! The wrapper, not an executor inside the module, drives every future: it
//! calls [`poll_run`] inside its own `try`, and the module calls the wake
//! handler when a pending run can make progress. So a trap (a panic, a stack
//! overflow, memory exhaustion) surfaces as an exception in the wrapper's
//! hands, which reports it and replaces the instance, instead of escaping
//! from a microtask where nobody can catch it.
//!
//! Runs live in a table owned by the module, and JavaScript only ever holds
//! their ids. A finished run leaves the table when its result is taken, so a
//! late poll, a late wake or a second take can never reach freed memory: the
//! module answers it with an error (code `WABASH_INTERNAL`) that the wrapper
//! tells apart from a trap. (A wake scheduled during a run's last poll once
//! polled the freed run object, trapped the instance and silently replaced
//! the session with a fresh one.)

use super::error::{js_error, INTERNAL};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};
use wasm_bindgen::prelude::*;

/// The future type a run drives.
pub type RunFuture = Pin<Box<dyn Future<Output = Result<JsValue, JsValue>>>>;

/// The id JavaScript holds for a run.
pub type RunId = u32;

thread_local! {
    static WAKE_HANDLER: RefCell<Option<js_sys::Function>> = const { RefCell::new(None) };
    static NEXT_ID: Cell<RunId> = const { Cell::new(1) };
    static RUNS: RefCell<HashMap<RunId, Run>> = RefCell::new(HashMap::new());
}

/// Registers the JS function called with a run's id when it should be polled again.
#[wasm_bindgen(js_name = setWakeHandler)]
pub fn set_wake_handler(callback: js_sys::Function) {
    WAKE_HANDLER.with(|handler| *handler.borrow_mut() = Some(callback));
}

/// Wakes a run by telling JS its id; JS schedules the next poll, or ignores
/// the id when the run has finished.
struct RunWaker {
    id: RunId,
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
struct Run {
    future: Option<RunFuture>,
    outcome: Option<Result<JsValue, JsValue>>,
    waker: Waker,
}

/// Puts `future` in the table and returns its id; nothing runs until the
/// first [`poll_run`].
pub fn spawn(future: impl Future<Output = Result<JsValue, JsValue>> + 'static) -> RunId {
    let id = next_id();
    let waker = Waker::from(Arc::new(RunWaker { id }));
    let run = Run { future: Some(Box::pin(future)), outcome: None, waker };
    RUNS.with(|runs| runs.borrow_mut().insert(id, run));
    id
}

/// A run that has already finished with `outcome`.
pub fn settled(outcome: Result<JsValue, JsValue>) -> RunId {
    let id = next_id();
    let waker = Waker::from(Arc::new(RunWaker { id }));
    let run = Run { future: None, outcome: Some(outcome), waker };
    RUNS.with(|runs| runs.borrow_mut().insert(id, run));
    id
}

fn next_id() -> RunId {
    NEXT_ID.with(|next| {
        let id = next.get();
        // 0 is never an id, so JS may use it as "none".
        next.set(id.checked_add(1).unwrap_or(1));
        id
    })
}

fn missing(id: RunId) -> JsValue {
    js_error(INTERNAL, &format!("run {id} is not in progress"))
}

/// Makes as much progress as possible on run `id`; true once it has
/// finished. An id that is not in the table (finished and taken, or being
/// polled already further up the stack) is an error, never a trap.
#[wasm_bindgen(js_name = pollRun)]
pub fn poll_run(id: RunId) -> Result<bool, JsValue> {
    // The run leaves the table while it is polled: a custom command called
    // during the poll may start and poll other runs.
    let mut run = RUNS.with(|runs| runs.borrow_mut().remove(&id)).ok_or_else(|| missing(id))?;
    let finished = match run.future.as_mut() {
        None => true,
        Some(future) => {
            let mut context = Context::from_waker(&run.waker);
            match future.as_mut().poll(&mut context) {
                Poll::Ready(outcome) => {
                    run.future = None;
                    run.outcome = Some(outcome);
                    true
                }
                Poll::Pending => false,
            }
        }
    };
    RUNS.with(|runs| runs.borrow_mut().insert(id, run));
    Ok(finished)
}

/// Takes the value of a finished run and removes it from the table; throws
/// its error (a JS `Error` with a `code`) when it failed, and an internal
/// error when the run has not finished or is unknown.
#[wasm_bindgen(js_name = takeRunResult)]
pub fn take_run_result(id: RunId) -> Result<JsValue, JsValue> {
    RUNS.with(|runs| {
        let mut runs = runs.borrow_mut();
        let finished = match runs.get(&id) {
            None => return Err(missing(id)),
            Some(run) => run.outcome.is_some(),
        };
        if !finished {
            return Err(js_error(INTERNAL, &format!("run {id} has not finished")));
        }
        runs.remove(&id).and_then(|run| run.outcome).unwrap_or_else(|| Err(missing(id)))
    })
}

/// Drops run `id` whatever its state (the wrapper gave up on it); unknown
/// ids are ignored.
#[wasm_bindgen(js_name = cancelRun)]
pub fn cancel_run(id: RunId) {
    let run = RUNS.with(|runs| runs.borrow_mut().remove(&id));
    drop(run);
}

/// How many runs are in the table (for tests: finished runs must not leak).
#[wasm_bindgen(js_name = runCount)]
pub fn run_count() -> usize {
    RUNS.with(|runs| runs.borrow().len())
}
