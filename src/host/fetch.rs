//! The network as the engine sees it: one HTTP request out, one streamed
//! response back, through [`Host::fetch`](super::Host::fetch).
//!
//! The engine never opens a socket. `curl` and `wget` describe a request; the
//! host decides whether it may leave (the JS wrapper checks its network
//! policy before any byte is sent), sends it without following redirects
//! (the commands follow them hop by hop, so every hop is asked for and
//! checked again), and hands back the status, the headers and a body read
//! chunk by chunk. Failures carry a [`FetchErrorKind`] so the commands can
//! end with curl's and wget's own exit statuses.

use super::LocalFuture;
use std::fmt;

/// One HTTP request the engine asks its host to send.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FetchRequest {
    /// The method, upper-case as typed (`GET`, `POST`).
    pub method: String,
    /// The absolute URL (`https://api.example.com/v1/x`).
    pub url: String,
    /// Request headers in order, as the script set them.
    pub headers: Vec<(String, String)>,
    /// The request body (empty for none).
    pub body: Vec<u8>,
    /// Milliseconds the whole request may take, when the script set a limit
    /// (`curl -m`); the host applies its own limit too.
    pub timeout_ms: Option<u64>,
    /// Milliseconds until the response's status and headers must arrive
    /// (`curl --connect-timeout`, `wget -T`).
    pub connect_timeout_ms: Option<u64>,
    /// How many redirects were followed to reach this request (0 for the
    /// first), so the host can enforce its own redirect limit.
    pub redirect_hop: u32,
}

/// The status line and headers of a response, and its body as a stream.
pub struct FetchResponse {
    /// The status code (`200`).
    pub status: u16,
    /// The reason phrase (`OK`), possibly empty.
    pub status_text: String,
    /// Response headers in order, names as the host reports them.
    pub headers: Vec<(String, String)>,
    /// The names of headers the host added on its own (secrets the script
    /// never sees): `curl -v` lists them with their values redacted.
    pub injected: Vec<String>,
    /// The body, read chunk by chunk.
    pub body: Box<dyn ResponseBody>,
}

impl FetchResponse {
    /// The first header named `name` (compared case-insensitively).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(key, _)| key.eq_ignore_ascii_case(name)).map(|(_, value)| value.as_str())
    }
}

impl fmt::Debug for FetchResponse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FetchResponse").field("status", &self.status).field("headers", &self.headers).finish_non_exhaustive()
    }
}

/// A response body arriving from the host.
pub trait ResponseBody {
    /// The next chunk; `Ok(None)` at the end. The host enforces its size
    /// cap and timeout here, failing with the matching [`FetchErrorKind`].
    fn next_chunk(&self) -> LocalFuture<'_, Result<Option<Vec<u8>>, FetchError>>;

    /// Stops the transfer: the reader is gone (`curl ... | head -1`). Later
    /// reads return the end.
    fn cancel(&self);
}

/// Why a request or its body failed, as curl tells the cases apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FetchErrorKind {
    /// The host's network policy refused the request (curl 7).
    Refused,
    /// The URL could not be parsed (curl 3).
    BadUrl,
    /// The scheme is not one the host fetches (curl 1).
    UnsupportedProtocol,
    /// The host name did not resolve (curl 6).
    Resolve,
    /// No connection could be made (curl 7).
    Connect,
    /// The request or its body took longer than allowed (curl 28).
    Timeout,
    /// More redirects than the host allows (curl 47).
    TooManyRedirects,
    /// The response is larger than the host allows (curl 63).
    TooLarge,
    /// The request body is larger than the host allows (curl 25, upload failed).
    RequestTooLarge,
    /// Sending failed (curl 55).
    Send,
    /// Receiving failed midway (curl 56).
    Receive,
    /// The run was interrupted (an abort signal).
    Aborted,
}

/// A failed request: what kind of failure, and the host's words for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FetchError {
    /// The kind, which picks the exit status.
    pub kind: FetchErrorKind,
    /// The host's explanation (for `Refused`, the policy's reason).
    pub message: String,
    /// For `TooManyRedirects` and `TooLarge`: the limit that was reached.
    pub limit: Option<u64>,
}

impl FetchError {
    /// An error of `kind` explained by `message`.
    pub fn new(kind: FetchErrorKind, message: impl Into<String>) -> Self {
        FetchError { kind, message: message.into(), limit: None }
    }

    /// The same error, naming the limit that was reached.
    pub fn with_limit(mut self, limit: u64) -> Self {
        self.limit = Some(limit);
        self
    }

    /// The refusal of a host that has no network at all.
    pub fn network_disabled() -> Self {
        FetchError::new(FetchErrorKind::Refused, "network access is not enabled (no URL is allowed)")
    }
}
