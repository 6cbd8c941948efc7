//! `wget`: fetch a URL into a file (named after the URL, `index.html` for a
//! directory, `NAME.1` when taken) or, with `-O -`, to standard output,
//! through the host's network. Follows up to 20 redirects (each one checked
//! by the host again) and ends with wget's statuses: 4 for network
//! failures, 8 for an error response, 3 for file errors, 2 for usage.

use super::transfer::{self, Follow};
use super::url;
use crate::calendar::format::strftime;
use crate::calendar::zone::parse_tz;
use crate::commands::options::{parse, Long, Spec};
use crate::fs::OpenOptions;
use crate::host::{FetchErrorKind, FetchRequest, LocalFuture};
use crate::io::IoError;
use crate::utility::Invocation;

/// wget's options.
const SPEC: Spec = Spec::new(
    "qO:SU:T:t:nv",
    &[
        Long::required("body-data", "body-data"),
        Long::required("header", "header"),
        Long::required("max-redirect", "max-redirect"),
        Long::required("method", "method"),
        Long::flag("no-check-certificate", "no-check-certificate"),
        Long::flag("no-verbose", "nv"),
        Long::required("output-document", "O"),
        Long::required("post-data", "post-data"),
        Long::required("post-file", "post-file"),
        Long::flag("quiet", "q"),
        Long::flag("server-response", "S"),
        Long::required("timeout", "T"),
        Long::required("tries", "t"),
        Long::required("user-agent", "U"),
    ],
);

/// The status for a usage error.
const USAGE: i32 = 2;

/// Runs `wget [options] URL...`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let args: Vec<String> = ctx.args.iter().skip(1).cloned().collect();
        let parsed = match parse(&SPEC, &args) {
            Ok(parsed) => parsed,
            Err(error) => {
                let text = format!("wget: {}\nUsage: wget [OPTION]... [URL]...\n\nTry `wget --help' for more options.\n", error.message());
                let _ = ctx.stderr.write(text.as_bytes()).await;
                return USAGE;
            }
        };
        if parsed.operands.is_empty() {
            let text = "wget: missing URL\nUsage: wget [OPTION]... [URL]...\n\nTry `wget --help' for more options.\n";
            let _ = ctx.stderr.write(text.as_bytes()).await;
            return 1;
        }
        // `-nv` (`-n -v` to getopt) keeps only errors, like `-q` here.
        let mut wget = Wget { quiet: parsed.has("q") || parsed.has("nv") || parsed.has("n"), max_redirect: 20, ..Wget::default() };
        for (key, value) in &parsed.options {
            let value = value.clone().unwrap_or_default();
            match *key {
                "O" => wget.output = Some(value),
                "S" => wget.server_response = true,
                "U" => wget.user_agent = Some(value),
                "header" => wget.headers.push(value),
                "post-data" | "body-data" => wget.body = Some(value.into_bytes()),
                "post-file" => match ctx.fs.read_file(&ctx.resolve(&value)).await {
                    Ok(bytes) => wget.body = Some(bytes),
                    Err(error) => {
                        let _ = ctx.stderr.write(format!("wget: {value}: {error}\n").as_bytes()).await;
                        return 3;
                    }
                },
                "method" => wget.method = Some(value.to_ascii_uppercase()),
                "T" => match value.parse::<f64>() {
                    Ok(secs) if secs >= 0.0 && secs.is_finite() => wget.timeout_ms = (secs > 0.0).then_some((secs * 1000.0) as u64),
                    _ => {
                        let _ = ctx.stderr.write(format!("wget: --timeout: Invalid time period '{value}'\n").as_bytes()).await;
                        return USAGE;
                    }
                },
                "max-redirect" => wget.max_redirect = value.parse().unwrap_or(20),
                _ => {}
            }
        }
        let mut status = 0;
        let mut truncated = false;
        for given in &parsed.operands {
            let code = wget.fetch(ctx, given, &mut truncated).await;
            if code != 0 {
                status = code;
            }
        }
        status
    })
}

/// A wget run's settings.
#[derive(Default)]
struct Wget {
    quiet: bool,
    output: Option<String>,
    server_response: bool,
    user_agent: Option<String>,
    headers: Vec<String>,
    body: Option<Vec<u8>>,
    method: Option<String>,
    timeout_ms: Option<u64>,
    max_redirect: u32,
}

impl Wget {
    /// Writes a line of wget's log to standard error (unless `-q`).
    async fn log(&self, ctx: &Invocation<'_>, text: &str) {
        if !self.quiet {
            let _ = ctx.stderr.write(text.as_bytes()).await;
        }
    }

    /// `YYYY-MM-DD HH:MM:SS` from the host's clock.
    fn stamp(ctx: &Invocation<'_>) -> String {
        strftime(ctx.host.now_millis(), "%Y-%m-%d %H:%M:%S", &parse_tz(ctx.env_var("TZ")))
    }

    /// A free file name: `name`, else `name.1`, `name.2`...
    async fn free_name(ctx: &Invocation<'_>, name: &str) -> String {
        if !ctx.fs.exists(&ctx.resolve(name)).await {
            return name.to_string();
        }
        let mut n = 1;
        loop {
            let candidate = format!("{name}.{n}");
            if !ctx.fs.exists(&ctx.resolve(&candidate)).await {
                return candidate;
            }
            n += 1;
        }
    }

    /// Fetches one URL; returns wget's status.
    async fn fetch(&self, ctx: &Invocation<'_>, given: &str, truncated: &mut bool) -> i32 {
        let target = url::with_scheme(given);
        let parts = match url::parse(&target) {
            Ok(parts) => parts,
            Err(url::UrlError::Protocol(_)) => {
                let _ = ctx.stderr.write(format!("{given}: Unsupported scheme.\n").as_bytes()).await;
                return 1;
            }
            Err(url::UrlError::Malformed) => {
                let _ = ctx.stderr.write(format!("{given}: Invalid host name.\n").as_bytes()).await;
                return 1;
            }
        };
        self.log(ctx, &format!("--{}--  {target}\n", Self::stamp(ctx))).await;
        let mut headers = vec![
            ("User-Agent".to_string(), self.user_agent.clone().unwrap_or_else(|| "Wget/1.21.3".to_string())),
            ("Accept".to_string(), "*/*".to_string()),
        ];
        for line in &self.headers {
            if let Some((name, value)) = line.split_once(':') {
                headers.retain(|(key, _)| !key.eq_ignore_ascii_case(name.trim()));
                headers.push((name.trim().to_string(), value.trim().to_string()));
            }
        }
        if self.body.is_some() && !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("content-type")) {
            headers.push(("Content-Type".to_string(), "application/x-www-form-urlencoded".to_string()));
        }
        let method = self.method.clone().unwrap_or_else(|| if self.body.is_some() { "POST" } else { "GET" }.to_string());
        let request = FetchRequest {
            method,
            url: target.clone(),
            headers,
            body: self.body.clone().unwrap_or_default(),
            timeout_ms: self.timeout_ms,
            connect_timeout_ms: self.timeout_ms,
            redirect_hop: 0,
        };
        let (host, port) = url::host_port(&parts);
        let follow = Follow { enabled: true, max: Some(self.max_redirect), trusted: false };
        let done = match transfer::send(ctx.host.as_ref(), request, follow).await {
            Ok(done) => done,
            Err(failed) => {
                let (message, status) = match failed.error.kind {
                    FetchErrorKind::Resolve => (format!("wget: unable to resolve host address \u{2018}{}\u{2019}\n", parts.host), 4),
                    FetchErrorKind::Refused => (
                        format!(
                            "Connecting to {host}:{port}... failed: refused by the sandbox's network policy: {}.\n",
                            failed.error.message
                        ),
                        4,
                    ),
                    FetchErrorKind::Connect => (format!("Connecting to {host}:{port}... failed: Connection refused.\n"), 4),
                    FetchErrorKind::Timeout => ("Read error (Connection timed out) in headers.\n".to_string(), 4),
                    FetchErrorKind::TooManyRedirects => (format!("{} redirections exceeded.\n", failed.error.limit.unwrap_or(20)), 8),
                    FetchErrorKind::Aborted => (String::new(), 130),
                    _ => (format!("wget: {}\n", failed.error.message), 4),
                };
                // Failures are reported even with -q, as wget does for fatal errors.
                let _ = ctx.stderr.write(message.as_bytes()).await;
                return status;
            }
        };
        let response = done.response;
        self.log(ctx, &format!("Connecting to {host}:{port}... connected.\n")).await;
        let status_line = format!("{} {}", response.status, response.status_text).trim_end().to_string();
        if self.server_response {
            let mut text = "HTTP request sent, awaiting response... \n".to_string();
            for hop in &done.hops {
                text.push_str(&format!("  HTTP/1.1 {} {}\n", hop.status, hop.status_text));
                for (name, value) in &hop.headers {
                    text.push_str(&format!("  {name}: {value}\n"));
                }
            }
            text.push_str(&format!("  HTTP/1.1 {status_line}\n"));
            for (name, value) in &response.headers {
                text.push_str(&format!("  {name}: {value}\n"));
            }
            // -S prints the headers even with -q.
            let _ = ctx.stderr.write(text.as_bytes()).await;
        } else {
            self.log(ctx, &format!("HTTP request sent, awaiting response... {status_line}\n")).await;
        }
        if response.status >= 400 {
            response.body.cancel();
            self.log(ctx, &format!("{} ERROR {}.\n\n", Self::stamp(ctx), status_line.replacen(' ', ": ", 1))).await;
            return 8;
        }
        let length = response.header("content-length").and_then(|n| n.trim().parse::<u64>().ok());
        let content_type = response.header("content-type").unwrap_or("").to_string();
        let length_text = length.map_or("unspecified".to_string(), |n| n.to_string());
        let type_text = if content_type.is_empty() { String::new() } else { format!(" [{content_type}]") };
        self.log(ctx, &format!("Length: {length_text}{type_text}\n")).await;
        let to_stdout = self.output.as_deref() == Some("-");
        let name = match &self.output {
            Some(path) => path.clone(),
            None => {
                let name = url::file_name(&done.request.url);
                Self::free_name(ctx, if name.is_empty() { "index.html" } else { &name }).await
            }
        };
        let shown = if to_stdout { "STDOUT".to_string() } else { name.clone() };
        self.log(ctx, &format!("Saving to: \u{2018}{shown}\u{2019}\n\n")).await;
        let handle = if to_stdout {
            None
        } else {
            // -O FILE truncates once and then appends every URL's body.
            let options =
                if self.output.is_some() && *truncated { OpenOptions::write_append(0o666) } else { OpenOptions::write_truncate(0o666) };
            match ctx.fs.open(&ctx.resolve(&name), options).await {
                Ok(handle) => Some(handle),
                Err(error) => {
                    response.body.cancel();
                    let _ = ctx.stderr.write(format!("{name}: {error}\n").as_bytes()).await;
                    return 3;
                }
            }
        };
        *truncated = true;
        let mut offset = match &handle {
            Some(handle) => handle.metadata().await.map(|m| m.size).unwrap_or(0),
            None => 0,
        };
        let mut received = 0u64;
        loop {
            match response.body.next_chunk().await {
                Ok(Some(chunk)) => {
                    received += chunk.len() as u64;
                    let result = match &handle {
                        Some(handle) => handle.write_at(offset, &chunk).await.map(|end| offset = end).map_err(IoError::Fs),
                        None => ctx.stdout.write(&chunk).await,
                    };
                    if let Err(error) = result {
                        response.body.cancel();
                        if error == IoError::BrokenPipe {
                            return 3;
                        }
                        let _ = ctx.stderr.write(format!("wget: write error: {error}\n").as_bytes()).await;
                        return 3;
                    }
                }
                Ok(None) => break,
                Err(error) => {
                    let why = match error.kind {
                        FetchErrorKind::TooLarge => {
                            format!("the response is larger than the sandbox's network policy allows ({} bytes)", error.limit.unwrap_or(0))
                        }
                        FetchErrorKind::Timeout => "Connection timed out".to_string(),
                        _ => error.message.clone(),
                    };
                    let _ = ctx
                        .stderr
                        .write(format!("{} ({received}) - Read error at byte {received} ({why}).\n", Self::stamp(ctx)).as_bytes())
                        .await;
                    return 4;
                }
            }
        }
        let total = length.map_or(received.to_string(), |n| format!("{received}/{n}"));
        let saved = if to_stdout { format!("written to stdout [{total}]") } else { format!("\u{2018}{name}\u{2019} saved [{total}]") };
        self.log(ctx, &format!("{} - {saved}\n\n", Self::stamp(ctx))).await;
        0
    }
}

#[cfg(test)]
#[path = "wget_tests.rs"]
mod tests;
