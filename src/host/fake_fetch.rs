//! A scripted network for native tests and runs: a [`Host`] whose `fetch`
//! answers from a table of canned responses, records every request it was
//! asked for, and counts the body chunks read (so a test can prove that
//! `curl ... | head -1` stopped reading). No socket is ever opened.

use super::fetch::{FetchError, FetchErrorKind, FetchRequest, FetchResponse, ResponseBody};
use super::{FixedHost, Host, LocalFuture};
use std::cell::{Cell, RefCell};
use std::rc::Rc;

/// A canned response: status, headers and the body's chunks (an error
/// among them fails the transfer there).
#[derive(Debug, Clone)]
pub struct ScriptedResponse {
    /// The status code.
    pub status: u16,
    /// The reason phrase.
    pub status_text: String,
    /// The headers.
    pub headers: Vec<(String, String)>,
    /// The body in chunks, each a piece of data or a failure.
    pub chunks: Vec<Result<Vec<u8>, FetchError>>,
    /// When set, this chunk repeats forever after `chunks`.
    pub endless: Option<Vec<u8>>,
    /// Names of headers the "host" claims to have injected.
    pub injected: Vec<String>,
}

impl ScriptedResponse {
    /// A response with `status` and `body` in one chunk.
    pub fn new(status: u16, body: &[u8]) -> Self {
        let status_text = match status {
            200 => "OK",
            201 => "Created",
            301 => "Moved Permanently",
            302 => "Found",
            303 => "See Other",
            404 => "Not Found",
            500 => "Internal Server Error",
            _ => "",
        };
        ScriptedResponse {
            status,
            status_text: status_text.to_string(),
            headers: Vec::new(),
            chunks: vec![Ok(body.to_vec())],
            endless: None,
            injected: Vec::new(),
        }
    }

    /// A redirect with status `status` to `location`.
    pub fn redirect(status: u16, location: &str) -> Self {
        ScriptedResponse::new(status, b"").header("Location", location)
    }

    /// The same response with one more header.
    pub fn header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.to_string(), value.to_string()));
        self
    }

    /// The same response whose body never ends (`chunk` repeated).
    pub fn endless(mut self, chunk: &[u8]) -> Self {
        self.endless = Some(chunk.to_vec());
        self
    }

    /// The same response, reporting `name` as a header the host injected.
    pub fn injected(mut self, name: &str) -> Self {
        self.injected.push(name.to_string());
        self
    }

    /// The same response whose body fails after its chunks.
    pub fn failing(mut self, error: FetchError) -> Self {
        self.chunks.push(Err(error));
        self
    }
}

/// A host with a fixed clock and a scripted network.
#[derive(Default)]
pub struct ScriptedNet {
    clock: FixedHost,
    routes: RefCell<Vec<(String, Result<ScriptedResponse, FetchError>)>>,
    requests: RefCell<Vec<FetchRequest>>,
    chunks_read: Rc<Cell<usize>>,
    cancelled: Rc<Cell<usize>>,
}

impl ScriptedNet {
    /// A network that knows no URL (every request fails to resolve).
    pub fn new() -> Self {
        ScriptedNet::default()
    }

    /// Answers requests for `url` (any method; or `"METHOD url"` for one method) with `response`.
    pub fn route(self, url: &str, response: ScriptedResponse) -> Self {
        self.routes.borrow_mut().push((url.to_string(), Ok(response)));
        self
    }

    /// Fails requests for `url` with `error`.
    pub fn fail(self, url: &str, error: FetchError) -> Self {
        self.routes.borrow_mut().push((url.to_string(), Err(error)));
        self
    }

    /// Every request asked for so far.
    pub fn requests(&self) -> Vec<FetchRequest> {
        self.requests.borrow().clone()
    }

    /// How many body chunks were read, over all responses.
    pub fn chunks_read(&self) -> usize {
        self.chunks_read.get()
    }

    /// How many transfers were cancelled by their reader.
    pub fn cancelled(&self) -> usize {
        self.cancelled.get()
    }

    fn lookup(&self, request: &FetchRequest) -> Result<ScriptedResponse, FetchError> {
        let keyed = format!("{} {}", request.method, request.url);
        let routes = self.routes.borrow();
        let found = routes.iter().find(|(key, _)| *key == keyed).or_else(|| routes.iter().find(|(key, _)| *key == request.url));
        match found {
            Some((_, answer)) => answer.clone(),
            None => {
                let host = request.url.split("://").nth(1).unwrap_or("").split(['/', ':', '?', '#']).next().unwrap_or("");
                Err(FetchError::new(FetchErrorKind::Resolve, host))
            }
        }
    }
}

/// The body of a scripted response.
struct ScriptedBody {
    chunks: RefCell<std::collections::VecDeque<Result<Vec<u8>, FetchError>>>,
    endless: Option<Vec<u8>>,
    done: Cell<bool>,
    chunks_read: Rc<Cell<usize>>,
    cancelled: Rc<Cell<usize>>,
}

impl ResponseBody for ScriptedBody {
    fn next_chunk(&self) -> LocalFuture<'_, Result<Option<Vec<u8>>, FetchError>> {
        Box::pin(async move {
            if self.done.get() {
                return Ok(None);
            }
            self.chunks_read.set(self.chunks_read.get() + 1);
            match self.chunks.borrow_mut().pop_front() {
                Some(Ok(chunk)) => Ok(Some(chunk)),
                Some(Err(error)) => {
                    self.done.set(true);
                    Err(error)
                }
                None => match &self.endless {
                    Some(chunk) => Ok(Some(chunk.clone())),
                    None => {
                        self.done.set(true);
                        Ok(None)
                    }
                },
            }
        })
    }

    fn cancel(&self) {
        if !self.done.replace(true) {
            self.cancelled.set(self.cancelled.get() + 1);
        }
    }
}

impl Host for ScriptedNet {
    fn now_millis(&self) -> f64 {
        self.clock.now_millis()
    }

    fn random_seed(&self) -> u64 {
        self.clock.random_seed()
    }

    fn sleep(&self, millis: f64) -> LocalFuture<'_, ()> {
        self.clock.sleep(millis)
    }

    fn fetch(&self, request: FetchRequest) -> LocalFuture<'_, Result<FetchResponse, FetchError>> {
        Box::pin(async move {
            let answer = self.lookup(&request);
            self.requests.borrow_mut().push(request);
            let scripted = answer?;
            let body = ScriptedBody {
                chunks: RefCell::new(scripted.chunks.into_iter().collect()),
                endless: scripted.endless,
                done: Cell::new(false),
                chunks_read: self.chunks_read.clone(),
                cancelled: self.cancelled.clone(),
            };
            Ok(FetchResponse {
                status: scripted.status,
                status_text: scripted.status_text,
                headers: scripted.headers,
                injected: scripted.injected,
                body: Box::new(body),
            })
        })
    }
}
