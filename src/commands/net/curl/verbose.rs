//! `curl -v`: the connection, the request and the response headers on
//! standard error, `*`, `>` and `<` lines as curl writes them. Headers the
//! host injected appear by name with their value redacted: the script never
//! sees the secret, only that one was added.

use crate::commands::net::transfer::Hop;
use crate::commands::net::url::{self, UrlParts};
use crate::host::FetchRequest;
use crate::utility::Invocation;

/// The text standing in for an injected header's value.
pub const REDACTED: &str = "[REDACTED]";

/// `*   Trying HOST:PORT...`.
pub async fn trying(ctx: &Invocation<'_>, parts: &UrlParts) {
    let (host, port) = url::host_port(parts);
    let _ = ctx.stderr.write(format!("*   Trying {host}:{port}...\n").as_bytes()).await;
}

/// The `Host:` value curl sends (the port only when not the scheme's default).
fn host_header(parts: &UrlParts) -> String {
    let (host, port) = url::host_port(parts);
    let default = if parts.scheme == "https" { 443 } else { 80 };
    if port == default {
        host
    } else {
        format!("{host}:{port}")
    }
}

/// The request's lines (`GET /x HTTP/1.1`, headers), without the `> ` prefix.
fn request_lines(request: &FetchRequest, injected: &[String]) -> Vec<String> {
    let Ok(parts) = url::parse(&request.url) else {
        return Vec::new();
    };
    let mut lines = vec![format!("{} {} HTTP/1.1", request.method, parts.path), format!("Host: {}", host_header(&parts))];
    for (name, value) in &request.headers {
        if !injected.iter().any(|secret| secret.eq_ignore_ascii_case(name)) {
            lines.push(format!("{name}: {value}"));
        }
    }
    for name in injected {
        lines.push(format!("{name}: {REDACTED}"));
    }
    if !request.body.is_empty() {
        lines.push(format!("Content-Length: {}", request.body.len()));
    }
    lines
}

/// Bytes of the request line and headers, for `%{size_request}`.
pub fn request_size(request: &FetchRequest) -> u64 {
    request_lines(request, &[]).iter().map(|line| line.len() as u64 + 2).sum::<u64>() + 2 + request.body.len() as u64
}

/// One request and its response, as `-v` shows them.
pub async fn exchange(ctx: &Invocation<'_>, request: &FetchRequest, response: Option<&Hop>, injected: &[String]) {
    let mut text = String::new();
    if let Ok(parts) = url::parse(&request.url) {
        let (host, port) = url::host_port(&parts);
        text.push_str(&format!("* Connected to {host} ({host}) port {port} (#0)\n"));
    }
    for line in request_lines(request, injected) {
        text.push_str(&format!("> {line}\n"));
    }
    text.push_str(">\n");
    if let Some(hop) = response {
        text.push_str(&format!("< HTTP/1.1 {} {}\n", hop.status, hop.status_text).replace(" \n", "\n"));
        for (name, value) in &hop.headers {
            text.push_str(&format!("< {name}: {value}\n"));
        }
        text.push_str("<\n");
    }
    let _ = ctx.stderr.write(text.as_bytes()).await;
}
