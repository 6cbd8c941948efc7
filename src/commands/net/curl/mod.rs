//! `curl`: HTTP transfers through the host's network (which refuses
//! everything unless the embedder allows it), with curl's options, output,
//! `-w` variables and exit statuses (`curl: (6) Could not resolve host: x`).
//! Bodies come from and go to the sandbox filesystem byte for byte, and the
//! response streams into the output as it arrives, so `curl ... | head -1`
//! stops the transfer.

mod body;
mod options;
#[cfg(test)]
mod tests;
mod verbose;
mod write_out;

use super::transfer::{self, Follow, Followed};
use super::url::{self, UrlError, UrlParts};
use crate::fs::OpenOptions;
use crate::host::{FetchError, FetchErrorKind, FetchRequest, LocalFuture};
use crate::io::IoError;
use crate::utility::Invocation;
use options::CurlOptions;
use write_out::{Stats, Stream};

/// The User-Agent curl sends unless told otherwise.
const USER_AGENT: &str = "curl/7.88.1";

/// A failed transfer: curl's exit status and message.
#[derive(Debug)]
struct CurlError {
    code: i32,
    message: String,
}

impl CurlError {
    fn new(code: i32, message: impl Into<String>) -> Self {
        CurlError { code, message: message.into() }
    }
}

/// Runs `curl [options] URL...`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let args: Vec<String> = ctx.args.iter().skip(1).cloned().collect();
        let options = match options::parse(&args) {
            Ok(options) => options,
            Err(options::UsageError(message)) => {
                usage(ctx, &message).await;
                return 2;
            }
        };
        if options.urls.is_empty() {
            usage(ctx, "no URL specified!").await;
            return 2;
        }
        let mut status = 0;
        for (index, given) in options.urls.iter().enumerate() {
            let code = transfer_one(ctx, &options, given, options.outputs.get(index).cloned()).await;
            if code != 0 {
                status = code;
            }
            if code == 130 {
                break;
            }
        }
        status
    })
}

/// `curl: MESSAGE` and curl's hint, on standard error.
async fn usage(ctx: &Invocation<'_>, message: &str) {
    let text = format!("curl: {message}\ncurl: try 'curl --help' or 'curl --manual' for more information\n");
    let _ = ctx.stderr.write(text.as_bytes()).await;
}

/// Runs one URL's transfer (with its retries) and reports the outcome.
async fn transfer_one(ctx: &Invocation<'_>, options: &CurlOptions, given: &str, output: Option<String>) -> i32 {
    let started = ctx.host.now_millis();
    let mut stats = Stats { url: given.to_string(), ..Stats::default() };
    let result = attempt(ctx, options, given, output, &mut stats, started).await;
    stats.time_total = (ctx.host.now_millis() - started).max(0.0) / 1000.0;
    let code = match result {
        Ok(()) => 0,
        Err(error) => {
            stats.errormsg = error.message.clone();
            let quiet_pipe = error.code == 23 && options.silent && !options.show_error;
            if error.code != 130 && !quiet_pipe && (!options.silent || options.show_error) {
                let line = format!("curl: ({}) {}\n", error.code, error.message);
                let _ = ctx.stderr.write(line.as_bytes()).await;
            }
            error.code
        }
    };
    stats.exitcode = code;
    if let Some(format) = &options.write_out {
        let format = match format.strip_prefix('@') {
            Some(path) => ctx.fs.read_file(&ctx.resolve(path)).await.map(|b| String::from_utf8_lossy(&b).into_owned()).unwrap_or_default(),
            None => format.clone(),
        };
        for (stream, text) in write_out::render(&format, &stats) {
            let fd = if stream == Stream::Stdout { &ctx.stdout } else { &ctx.stderr };
            let _ = fd.write(text.as_bytes()).await;
        }
    }
    code
}

/// The request line's headers: curl's defaults, then the script's `-H`.
fn request_headers(options: &CurlOptions, content_type: Option<&str>) -> Vec<(String, String)> {
    let mut headers: Vec<(String, String)> = Vec::new();
    let set = |headers: &mut Vec<(String, String)>, name: &str, value: String| {
        headers.retain(|(key, _)| !key.eq_ignore_ascii_case(name));
        headers.push((name.to_string(), value));
    };
    if let Some(user) = &options.user {
        use base64::Engine;
        let credentials = if user.contains(':') { user.clone() } else { format!("{user}:") };
        set(&mut headers, "Authorization", format!("Basic {}", base64::engine::general_purpose::STANDARD.encode(credentials)));
    }
    set(&mut headers, "User-Agent", options.user_agent.clone().unwrap_or_else(|| USER_AGENT.to_string()));
    set(&mut headers, "Accept", if options.json { "application/json" } else { "*/*" }.to_string());
    if let Some(referer) = &options.referer {
        set(&mut headers, "Referer", referer.clone());
    }
    if let Some(content_type) = content_type {
        set(&mut headers, "Content-Type", content_type.to_string());
    }
    let mut custom: Vec<(String, String)> = Vec::new();
    for line in &options.headers {
        if let Some((name, value)) = line.split_once(':') {
            let name = name.trim();
            headers.retain(|(key, _)| !key.eq_ignore_ascii_case(name));
            let value = value.trim();
            if !value.is_empty() {
                custom.push((name.to_string(), value.to_string()));
            }
        } else if let Some(name) = line.strip_suffix(';') {
            headers.retain(|(key, _)| !key.eq_ignore_ascii_case(name.trim()));
            custom.push((name.trim().to_string(), String::new()));
        }
    }
    headers.extend(custom);
    headers
}

/// One transfer: build the request, send it (retrying transient failures),
/// and deliver the response.
async fn attempt(
    ctx: &Invocation<'_>,
    options: &CurlOptions,
    given: &str,
    output: Option<String>,
    stats: &mut Stats,
    started: f64,
) -> Result<(), CurlError> {
    let mut target = url::with_scheme(given);
    let parts = url::parse(&target).map_err(|error| match error {
        UrlError::Protocol(scheme) => CurlError::new(1, format!("Protocol \"{scheme}\" not supported or disabled in libcurl")),
        UrlError::Malformed => CurlError::new(3, "URL using bad/illegal format or missing URL"),
    })?;
    stats.scheme = parts.scheme.to_ascii_uppercase();
    stats.remote = url::host_port(&parts);
    let body = body::build(ctx, options).await.map_err(|(code, message)| CurlError::new(code, message))?;
    if !options.silent {
        for warning in &body.warnings {
            let _ = ctx.stderr.write(format!("{warning}\n").as_bytes()).await;
        }
    }
    if let (Some(upload), true) = (&options.upload, target.ends_with('/')) {
        target.push_str(upload.rsplit('/').next().unwrap_or(upload));
    }
    if let Some(query) = &body.query {
        target.push(if target.contains('?') { '&' } else { '?' });
        target.push_str(query);
    }
    let method = match (&options.method, options.head) {
        (Some(method), _) => method.clone(),
        (None, true) => "HEAD".to_string(),
        (None, false) => body.method.unwrap_or("GET").to_string(),
    };
    let request = FetchRequest {
        method,
        url: target,
        headers: request_headers(options, body.content_type.as_deref()),
        body: body.bytes,
        timeout_ms: options.max_time_ms,
        connect_timeout_ms: options.connect_timeout_ms,
        redirect_hop: 0,
    };
    stats.size_upload = request.body.len() as u64;
    let follow = Follow {
        enabled: options.location,
        max: match options.max_redirs {
            Some(max) if max < 0 => None,
            Some(max) => Some(u32::try_from(max).unwrap_or(u32::MAX)),
            None => Some(50),
        },
        trusted: options.location_trusted,
    };
    let mut retries_left = options.retry;
    let mut delay = options.retry_delay.unwrap_or(1);
    loop {
        if options.verbose {
            verbose::trying(ctx, &parts).await;
        }
        let outcome = transfer::send(ctx.host.as_ref(), request.clone(), follow).await;
        let transient = match &outcome {
            Err(failed) => (failed.error.kind == FetchErrorKind::Timeout).then_some("timeout"),
            Ok(done) => matches!(done.response.status, 408 | 429 | 500 | 502 | 503 | 504).then_some("HTTP error"),
        };
        if let (Some(reason), true) = (transient, retries_left > 0) {
            if let Ok(done) = &outcome {
                done.response.body.cancel();
            }
            if !options.silent {
                let plural = if retries_left == 1 { "retry" } else { "retries" };
                let line = format!("Warning: Problem : {reason}. Will retry in {delay} seconds. {retries_left} {plural} left.\n");
                let _ = ctx.stderr.write(line.as_bytes()).await;
            }
            ctx.host.sleep(delay as f64 * 1000.0).await;
            if ctx.host.interrupted() {
                return Err(CurlError::new(130, ""));
            }
            retries_left -= 1;
            delay = if options.retry_delay.is_some() { delay } else { (delay * 2).min(600) };
            continue;
        }
        return match outcome {
            Ok(done) => deliver(ctx, options, given, output, done, &parts, stats, started).await,
            Err(failed) => {
                if options.verbose {
                    for hop in &failed.hops {
                        verbose::exchange(ctx, &hop.request, Some(hop), &hop.injected).await;
                    }
                }
                stats.num_redirects = failed.hops.len() as u32;
                stats.url_effective = failed.request.url.clone();
                stats.method = failed.request.method.clone();
                let target = url::parse(&failed.request.url).unwrap_or(parts.clone());
                Err(fetch_error(ctx, &failed.error, &target, started, 0, None))
            }
        };
    }
}

/// curl's status and words for a failed fetch.
fn fetch_error(
    ctx: &Invocation<'_>,
    error: &FetchError,
    parts: &UrlParts,
    started: f64,
    received: u64,
    expected: Option<u64>,
) -> CurlError {
    let elapsed = (ctx.host.now_millis() - started).max(0.0) as u64;
    let (host, port) = url::host_port(parts);
    match error.kind {
        FetchErrorKind::Refused => CurlError::new(
            7,
            format!("Failed to connect to {host} port {port}: refused by the sandbox's network policy: {}", error.message),
        ),
        FetchErrorKind::BadUrl => CurlError::new(3, "URL using bad/illegal format or missing URL"),
        FetchErrorKind::UnsupportedProtocol => {
            CurlError::new(1, format!("Protocol \"{}\" not supported or disabled in libcurl", parts.scheme))
        }
        FetchErrorKind::Resolve => CurlError::new(6, format!("Could not resolve host: {}", parts.host)),
        FetchErrorKind::Connect => {
            CurlError::new(7, format!("Failed to connect to {host} port {port} after {elapsed} ms: Couldn't connect to server"))
        }
        FetchErrorKind::Timeout => match expected {
            Some(total) => CurlError::new(
                28,
                format!("Operation timed out after {elapsed} milliseconds with {received} out of {total} bytes received"),
            ),
            None => CurlError::new(28, format!("Operation timed out after {elapsed} milliseconds with {received} bytes received")),
        },
        FetchErrorKind::TooManyRedirects => CurlError::new(47, format!("Maximum ({}) redirects followed", error.limit.unwrap_or(0))),
        FetchErrorKind::TooLarge => match error.limit {
            Some(limit) => CurlError::new(63, format!("Maximum file size exceeded (the sandbox's network policy allows {limit} bytes)")),
            None => CurlError::new(63, "Maximum file size exceeded"),
        },
        FetchErrorKind::RequestTooLarge => CurlError::new(
            25,
            format!(
                "Upload failed: the request body is larger than the sandbox's network policy allows ({} bytes)",
                error.limit.unwrap_or(0)
            ),
        ),
        FetchErrorKind::Send => CurlError::new(55, format!("Failed sending data to the peer: {}", error.message)),
        FetchErrorKind::Receive => CurlError::new(56, format!("Failure when receiving data from the peer: {}", error.message)),
        FetchErrorKind::Aborted => CurlError::new(130, ""),
    }
}

/// The status line and headers as curl prints them for `-i` and `-D`.
fn header_block(status: u16, status_text: &str, headers: &[(String, String)]) -> Vec<u8> {
    let mut text = format!("HTTP/1.1 {status} {status_text}").trim_end().to_string();
    text.push_str("\r\n");
    for (name, value) in headers {
        text.push_str(&format!("{name}: {value}\r\n"));
    }
    text.push_str("\r\n");
    text.into_bytes()
}

/// Where the body goes.
enum Sink {
    /// Standard output.
    Stdout,
    /// A file in the sandbox, written at `offset`.
    File { handle: std::rc::Rc<dyn crate::fs::FileHandle>, offset: u64 },
}

impl Sink {
    async fn write(&mut self, ctx: &Invocation<'_>, data: &[u8]) -> Result<(), IoError> {
        match self {
            Sink::Stdout => ctx.stdout.write(data).await,
            Sink::File { handle, offset } => {
                *offset = handle.write_at(*offset, data).await.map_err(IoError::Fs)?;
                Ok(())
            }
        }
    }
}

/// Opens `-o`'s file (creating parents with `--create-dirs`).
async fn open_output(ctx: &Invocation<'_>, options: &CurlOptions, path: &str) -> Result<Sink, CurlError> {
    if path == "-" {
        return Ok(Sink::Stdout);
    }
    let full = ctx.resolve(path);
    if options.create_dirs {
        let mut prefix = String::new();
        let parent = full.rsplit_once('/').map_or("", |(dir, _)| dir);
        for segment in parent.split('/').filter(|s| !s.is_empty()) {
            prefix.push('/');
            prefix.push_str(segment);
            let _ = ctx.fs.create_dir(&prefix, 0o777 & !ctx.shell.umask()).await;
        }
    }
    match ctx.fs.open(&full, OpenOptions::write_truncate(0o666 & !ctx.shell.umask())).await {
        Ok(handle) => Ok(Sink::File { handle, offset: 0 }),
        Err(error) => {
            if !options.silent {
                let line = format!("Warning: Failed to open the file {path}: {error}\n");
                let _ = ctx.stderr.write(line.as_bytes()).await;
            }
            Err(CurlError::new(23, "Failure writing output to destination"))
        }
    }
}

/// Writes the response (headers as asked, then the body as it streams) and
/// applies `-f`.
#[allow(clippy::too_many_arguments)]
async fn deliver(
    ctx: &Invocation<'_>,
    options: &CurlOptions,
    given: &str,
    output: Option<String>,
    done: Followed,
    parts: &UrlParts,
    stats: &mut Stats,
    started: f64,
) -> Result<(), CurlError> {
    let Followed { hops, request, response } = done;
    stats.time_starttransfer = (ctx.host.now_millis() - started).max(0.0) / 1000.0;
    stats.http_code = response.status;
    stats.url_effective = request.url.clone();
    stats.method = request.method.clone();
    stats.num_redirects = hops.len() as u32;
    stats.headers = response.headers.clone();
    stats.size_request = verbose::request_size(&request) + hops.iter().map(|hop| verbose::request_size(&hop.request)).sum::<u64>();
    if transfer::is_redirect(response.status) {
        if let Some(location) = response.header("location") {
            stats.redirect_url = url::resolve(&request.url, location);
        }
    }
    let final_parts = url::parse(&request.url).unwrap_or_else(|_| parts.clone());
    stats.remote = url::host_port(&final_parts);
    if options.verbose {
        for hop in &hops {
            verbose::exchange(ctx, &hop.request, Some(hop), &hop.injected).await;
        }
        let last = transfer::Hop {
            request: request.clone(),
            status: response.status,
            status_text: response.status_text.clone(),
            headers: response.headers.clone(),
            injected: response.injected.clone(),
        };
        verbose::exchange(ctx, &request, Some(&last), &response.injected).await;
    }
    let mut blocks: Vec<Vec<u8>> = hops.iter().map(|hop| header_block(hop.status, &hop.status_text, &hop.headers)).collect();
    blocks.push(header_block(response.status, &response.status_text, &response.headers));
    stats.size_header = blocks.iter().map(|block| block.len() as u64).sum();
    if let Some(path) = &options.dump_header {
        let all: Vec<u8> = blocks.concat();
        let written =
            if path == "-" { ctx.stdout.write(&all).await.is_ok() } else { ctx.fs.write_file(&ctx.resolve(path), &all).await.is_ok() };
        if !written {
            response.body.cancel();
            return Err(CurlError::new(23, "Failure writing output to destination"));
        }
    }
    let failed = (options.fail || options.fail_with_body) && response.status >= 400;
    if failed && !options.fail_with_body {
        response.body.cancel();
        return Err(CurlError::new(22, format!("The requested URL returned error: {}", response.status)));
    }
    let path = match (&output, options.remote_name) {
        (Some(path), _) => Some(path.clone()),
        (None, true) => {
            let name = url::file_name(&url::with_scheme(given));
            if name.is_empty() {
                response.body.cancel();
                return Err(CurlError::new(23, "Remote file name has no length!"));
            }
            Some(name)
        }
        (None, false) => None,
    };
    let mut sink = match &path {
        Some(path) => {
            stats.filename_effective = path.clone();
            match open_output(ctx, options, path).await {
                Ok(sink) => sink,
                Err(error) => {
                    response.body.cancel();
                    return Err(error);
                }
            }
        }
        None => Sink::Stdout,
    };
    let write_error = |error: IoError| match error {
        IoError::BrokenPipe => CurlError::new(23, "Failure writing output to destination"),
        IoError::OutputLimit => CurlError::new(23, "Failure writing output to destination"),
        other => CurlError::new(23, format!("Failure writing output to destination: {other}")),
    };
    if options.include || options.head {
        let shown: Vec<u8> = if options.location { blocks.concat() } else { blocks.last().cloned().unwrap_or_default() };
        if let Err(error) = sink.write(ctx, &shown).await {
            response.body.cancel();
            return Err(write_error(error));
        }
    }
    if request.method == "HEAD" {
        response.body.cancel();
        return Ok(());
    }
    let expected = response.header("content-length").and_then(|n| n.trim().parse::<u64>().ok());
    loop {
        if ctx.host.interrupted() {
            response.body.cancel();
            return Err(CurlError::new(130, ""));
        }
        match response.body.next_chunk().await {
            Ok(Some(chunk)) => {
                stats.size_download += chunk.len() as u64;
                if let Err(error) = sink.write(ctx, &chunk).await {
                    response.body.cancel();
                    return Err(write_error(error));
                }
            }
            Ok(None) => break,
            Err(error) => {
                return Err(fetch_error(ctx, &error, &final_parts, started, stats.size_download, expected));
            }
        }
    }
    if failed {
        return Err(CurlError::new(22, format!("The requested URL returned error: {}", response.status)));
    }
    Ok(())
}
