//! [`Host::fetch`](crate::host::Host::fetch) under JavaScript: the request
//! goes to the wrapper's `fetch(request)` (js/network.ts checks it against
//! the network policy before any byte leaves), which resolves to
//! `{ status, statusText, headers, injected, body }` where `body` has
//! `next(): Promise<Uint8Array | null>` and `cancel()`, or rejects with
//! `{ kind, message, limit? }`.

use super::host::HostObject;
use crate::host::{FetchError, FetchErrorKind, FetchRequest, FetchResponse, LocalFuture, ResponseBody};
use serde::{Deserialize, Serialize};
use serde_bytes::ByteBuf;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(method, catch, js_name = fetch)]
    fn fetch_js(this: &HostObject, request: JsValue) -> Result<js_sys::Promise, JsValue>;

    /// A response body the wrapper streams: `{ next(), cancel() }`.
    pub type JsResponseBody;

    #[wasm_bindgen(method, catch, js_name = next)]
    fn next_chunk(this: &JsResponseBody) -> Result<js_sys::Promise, JsValue>;

    #[wasm_bindgen(method, catch)]
    fn cancel(this: &JsResponseBody) -> Result<(), JsValue>;
}

/// The request as JS receives it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RequestOut {
    method: String,
    url: String,
    headers: Vec<(String, String)>,
    body: ByteBuf,
    timeout_ms: Option<f64>,
    connect_timeout_ms: Option<f64>,
    redirect_hop: u32,
}

/// The status and headers of a response as JS sends them.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ResponseIn {
    status: u16,
    #[serde(default)]
    status_text: String,
    #[serde(default)]
    headers: Vec<(String, String)>,
    #[serde(default)]
    injected: Vec<String>,
}

/// A failure as JS reports it.
#[derive(Deserialize)]
struct ErrorIn {
    kind: String,
    #[serde(default)]
    message: String,
    #[serde(default)]
    limit: Option<f64>,
}

/// Turns a rejection into a classified error (an unexpected throw is a receive failure).
fn classify(value: JsValue) -> FetchError {
    let Ok(error) = serde_wasm_bindgen::from_value::<ErrorIn>(value.clone()) else {
        let message = value.dyn_ref::<js_sys::Error>().map(|e| String::from(e.message())).or_else(|| value.as_string()).unwrap_or_default();
        return FetchError::new(FetchErrorKind::Receive, message);
    };
    let kind = match error.kind.as_str() {
        "refused" => FetchErrorKind::Refused,
        "badUrl" => FetchErrorKind::BadUrl,
        "unsupportedProtocol" => FetchErrorKind::UnsupportedProtocol,
        "resolve" => FetchErrorKind::Resolve,
        "connect" => FetchErrorKind::Connect,
        "timeout" => FetchErrorKind::Timeout,
        "tooManyRedirects" => FetchErrorKind::TooManyRedirects,
        "tooLarge" => FetchErrorKind::TooLarge,
        "requestTooLarge" => FetchErrorKind::RequestTooLarge,
        "send" => FetchErrorKind::Send,
        "aborted" => FetchErrorKind::Aborted,
        _ => FetchErrorKind::Receive,
    };
    let mut result = FetchError::new(kind, error.message);
    if let Some(limit) = error.limit.filter(|limit| limit.is_finite() && *limit >= 0.0) {
        result = result.with_limit(limit as u64);
    }
    result
}

/// The body of a response the wrapper streams.
struct JsBody(JsResponseBody);

impl ResponseBody for JsBody {
    fn next_chunk(&self) -> LocalFuture<'_, Result<Option<Vec<u8>>, FetchError>> {
        Box::pin(async move {
            let promise = self.0.next_chunk().map_err(classify)?;
            let value = JsFuture::from(promise).await.map_err(classify)?;
            if value.is_null() || value.is_undefined() {
                return Ok(None);
            }
            match value.dyn_into::<js_sys::Uint8Array>() {
                Ok(bytes) => Ok(Some(bytes.to_vec())),
                Err(_) => Err(FetchError::new(FetchErrorKind::Receive, "the host sent a body chunk that is not a Uint8Array")),
            }
        })
    }

    fn cancel(&self) {
        let _ = self.0.cancel();
    }
}

/// Sends `request` through the wrapper's `fetch`.
pub async fn fetch(object: &HostObject, request: FetchRequest) -> Result<FetchResponse, FetchError> {
    let out = RequestOut {
        method: request.method,
        url: request.url,
        headers: request.headers,
        body: ByteBuf::from(request.body),
        timeout_ms: request.timeout_ms.map(|ms| ms as f64),
        connect_timeout_ms: request.connect_timeout_ms.map(|ms| ms as f64),
        redirect_hop: request.redirect_hop,
    };
    let value =
        out.serialize(&serde_wasm_bindgen::Serializer::new()).map_err(|error| FetchError::new(FetchErrorKind::Send, error.to_string()))?;
    let promise = object.fetch_js(value).map_err(classify)?;
    let response = JsFuture::from(promise).await.map_err(classify)?;
    let head: ResponseIn =
        serde_wasm_bindgen::from_value(response.clone()).map_err(|error| FetchError::new(FetchErrorKind::Receive, error.to_string()))?;
    let body = js_sys::Reflect::get(&response, &JsValue::from_str("body")).map_err(classify)?.unchecked_into::<JsResponseBody>();
    Ok(FetchResponse {
        status: head.status,
        status_text: head.status_text,
        headers: head.headers,
        injected: head.injected,
        body: Box::new(JsBody(body)),
    })
}
