//! Sending a request through the host and following redirects by hand, as
//! `curl -L` and `wget` do: every hop is a new request the host checks
//! again, with curl's rules for the method (303, and 301/302 after a POST,
//! become GET) and for credentials (dropped when the host changes).

use super::url;
use crate::host::{FetchError, FetchErrorKind, FetchRequest, FetchResponse, Host};

/// One response along the way, as `-i` and `-v` show it.
#[derive(Debug, Clone)]
pub struct Hop {
    /// The request as sent (method, headers, body length).
    pub request: FetchRequest,
    /// The response status.
    pub status: u16,
    /// The reason phrase.
    pub status_text: String,
    /// The response headers.
    pub headers: Vec<(String, String)>,
    /// Headers the host added (names only).
    pub injected: Vec<String>,
}

/// How to treat redirects.
#[derive(Debug, Clone, Copy)]
pub struct Follow {
    /// Follow them at all.
    pub enabled: bool,
    /// At most this many (`None`: no limit).
    pub max: Option<u32>,
    /// Keep credentials when the host changes.
    pub trusted: bool,
}

/// The end of a transfer: every redirect hop, then the final response.
pub struct Followed {
    /// The redirects followed (status, headers), oldest first.
    pub hops: Vec<Hop>,
    /// The final request as sent.
    pub request: FetchRequest,
    /// The final response, its body still to read.
    pub response: FetchResponse,
}

/// A failed transfer: the error, and the hops before it (with the request that failed last).
pub struct Failed {
    /// What failed.
    pub error: FetchError,
    /// The redirects followed before.
    pub hops: Vec<Hop>,
    /// The request that failed.
    pub request: FetchRequest,
}

/// True for the statuses a redirect follows.
pub fn is_redirect(status: u16) -> bool {
    matches!(status, 301 | 302 | 303 | 307 | 308)
}

/// Sends `request`, following redirects as `follow` says.
pub async fn send(host: &dyn Host, mut request: FetchRequest, follow: Follow) -> Result<Followed, Failed> {
    let mut hops = Vec::new();
    loop {
        let response = match host.fetch(request.clone()).await {
            Ok(response) => response,
            Err(error) => return Err(Failed { error, hops, request }),
        };
        let location = response.header("location").map(str::to_string);
        let Some(location) = location.filter(|_| follow.enabled && is_redirect(response.status)) else {
            return Ok(Followed { hops, request, response });
        };
        response.body.cancel();
        if follow.max.is_some_and(|max| request.redirect_hop >= max) {
            let max = u64::from(follow.max.unwrap_or(0));
            let error = FetchError::new(FetchErrorKind::TooManyRedirects, "").with_limit(max);
            hops.push(hop(&request, &response));
            return Err(Failed { error, hops, request });
        }
        hops.push(hop(&request, &response));
        let next = url::resolve(&request.url, &location);
        let same_host = match (url::parse(&request.url), url::parse(&next)) {
            (Ok(a), Ok(b)) => a.host.eq_ignore_ascii_case(&b.host) && a.port == b.port,
            _ => false,
        };
        let to_get = response.status == 303 && request.method != "HEAD" || matches!(response.status, 301 | 302) && request.method == "POST";
        if to_get {
            request.method = "GET".to_string();
            request.body.clear();
            request.headers.retain(|(name, _)| !name.eq_ignore_ascii_case("content-type") && !name.eq_ignore_ascii_case("content-length"));
        }
        if !same_host && !follow.trusted {
            request.headers.retain(|(name, _)| !name.eq_ignore_ascii_case("authorization") && !name.eq_ignore_ascii_case("cookie"));
        }
        request.url = next;
        request.redirect_hop = request.redirect_hop.saturating_add(1);
    }
}

/// The record of one redirect response.
fn hop(request: &FetchRequest, response: &FetchResponse) -> Hop {
    Hop {
        request: request.clone(),
        status: response.status,
        status_text: response.status_text.clone(),
        headers: response.headers.clone(),
        injected: response.injected.clone(),
    }
}
