//! The request curl builds from its options: the body (`-d`, `--data-*`,
//! `-F`, `-T`, `--json`), read from the sandbox filesystem or standard
//! input byte for byte, and the method and headers that go with it.

use super::options::{CurlOptions, Data};
use crate::commands::net::url::percent_encode;
use crate::utility::Invocation;

/// The body and what it implies.
#[derive(Debug, Default)]
pub struct Body {
    /// The bytes to send.
    pub bytes: Vec<u8>,
    /// The content type the body implies, unless the script sets one.
    pub content_type: Option<String>,
    /// The method the body implies (`POST` for data and forms, `PUT` for `-T`).
    pub method: Option<&'static str>,
    /// With `-G`: the query string to append to the URL instead.
    pub query: Option<String>,
    /// Warnings to print (unless `-s`).
    pub warnings: Vec<String>,
}

/// Reads `path` from the sandbox (`-` is standard input).
async fn read_source(ctx: &Invocation<'_>, path: &str) -> Option<Vec<u8>> {
    if path == "-" {
        return ctx.stdin.read_to_end().await.ok();
    }
    ctx.fs.read_file(&ctx.resolve(path)).await.ok()
}

/// The bytes of one `-d`-family piece.
async fn piece(ctx: &Invocation<'_>, data: &Data, warnings: &mut Vec<String>) -> Vec<u8> {
    match data {
        Data::Raw(text) => text.as_bytes().to_vec(),
        Data::Ascii(text) | Data::Binary(text) => {
            let Some(path) = text.strip_prefix('@') else {
                return text.as_bytes().to_vec();
            };
            match read_source(ctx, path).await {
                Some(bytes) if matches!(data, Data::Ascii(_)) => bytes.into_iter().filter(|b| *b != b'\n' && *b != b'\r').collect(),
                Some(bytes) => bytes,
                None => {
                    warnings.push(format!("Warning: Couldn't read data from file \"{path}\", this makes an empty POST."));
                    Vec::new()
                }
            }
        }
        Data::UrlEncode(text) => {
            if let Some(content) = text.strip_prefix('=') {
                return percent_encode(content.as_bytes()).into_bytes();
            }
            let eq = text.find('=');
            let at = text.find('@');
            match (eq, at) {
                (Some(eq), at) if at.is_none_or(|at| eq < at) => {
                    let (name, content) = (&text[..eq], &text[eq + 1..]);
                    format!("{name}={}", percent_encode(content.as_bytes())).into_bytes()
                }
                (_, Some(at)) => {
                    let (name, path) = (&text[..at], &text[at + 1..]);
                    let content = read_source(ctx, path).await.unwrap_or_else(|| {
                        warnings.push(format!("Warning: Couldn't read data from file \"{path}\", this makes an empty POST."));
                        Vec::new()
                    });
                    let encoded = percent_encode(&content);
                    if name.is_empty() {
                        encoded.into_bytes()
                    } else {
                        format!("{name}={encoded}").into_bytes()
                    }
                }
                _ => percent_encode(text.as_bytes()).into_bytes(),
            }
        }
    }
}

/// A multipart boundary that does not depend on the clock.
fn boundary(seed: u64) -> String {
    format!("------------------------{seed:016x}")
}

/// Builds the multipart body of `-F` parts.
async fn form(ctx: &Invocation<'_>, parts: &[String]) -> Result<(Vec<u8>, String), String> {
    let boundary = boundary(ctx.host.random_seed());
    let mut body = Vec::new();
    for part in parts {
        let (name, value) = part.split_once('=').ok_or_else(|| "Illegally formatted input field".to_string())?;
        body.extend_from_slice(format!("--{boundary}\r\n").as_bytes());
        if let Some(spec) = value.strip_prefix('@') {
            let (path, content_type) = split_type(spec);
            let content =
                read_source(ctx, path).await.ok_or_else(|| format!("Failed to open/read local data from file/application: {path}"))?;
            let file = path.rsplit('/').next().unwrap_or(path);
            body.extend_from_slice(format!("Content-Disposition: form-data; name=\"{name}\"; filename=\"{file}\"\r\n").as_bytes());
            body.extend_from_slice(format!("Content-Type: {}\r\n\r\n", content_type.unwrap_or("application/octet-stream")).as_bytes());
            body.extend_from_slice(&content);
        } else if let Some(path) = value.strip_prefix('<') {
            let content =
                read_source(ctx, path).await.ok_or_else(|| format!("Failed to open/read local data from file/application: {path}"))?;
            body.extend_from_slice(format!("Content-Disposition: form-data; name=\"{name}\"\r\n\r\n").as_bytes());
            body.extend_from_slice(&content);
        } else {
            body.extend_from_slice(format!("Content-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}").as_bytes());
        }
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    Ok((body, format!("multipart/form-data; boundary={boundary}")))
}

/// `file;type=text/plain` into the path and the type.
fn split_type(spec: &str) -> (&str, Option<&str>) {
    match spec.split_once(";type=") {
        Some((path, content_type)) => (path, Some(content_type)),
        None => (spec, None),
    }
}

/// Builds the request body the options describe.
pub async fn build(ctx: &Invocation<'_>, options: &CurlOptions) -> Result<Body, (i32, String)> {
    let mut body = Body::default();
    if let Some(path) = &options.upload {
        body.bytes = read_source(ctx, path).await.ok_or((26, "Failed to open/read local data from file/application".to_string()))?;
        body.method = Some("PUT");
        return Ok(body);
    }
    if !options.form.is_empty() {
        let (bytes, content_type) = form(ctx, &options.form).await.map_err(|message| (26, message))?;
        body.bytes = bytes;
        body.content_type = Some(content_type);
        body.method = Some("POST");
        return Ok(body);
    }
    if options.data.is_empty() {
        return Ok(body);
    }
    let mut joined = Vec::new();
    for (index, data) in options.data.iter().enumerate() {
        if index > 0 {
            joined.push(b'&');
        }
        joined.extend(piece(ctx, data, &mut body.warnings).await);
    }
    if options.get {
        body.query = Some(String::from_utf8_lossy(&joined).into_owned());
        return Ok(body);
    }
    body.bytes = joined;
    body.method = Some("POST");
    body.content_type = Some(if options.json { "application/json" } else { "application/x-www-form-urlencoded" }.to_string());
    Ok(body)
}
