//! `curl -w FORMAT`: the variables (`%{http_code}`, `%{size_download}`,
//! `%{url_effective}`...), `%header{name}`, `%{stdout}`/`%{stderr}` to
//! switch stream, and the `\n`, `\r`, `\t` escapes.

/// What a transfer measured, for `-w`.
#[derive(Debug, Clone, Default)]
pub struct Stats {
    /// The final status code (0 when nothing came back).
    pub http_code: u16,
    /// The final URL.
    pub url_effective: String,
    /// The URL as given.
    pub url: String,
    /// The final method.
    pub method: String,
    /// Redirects followed.
    pub num_redirects: u32,
    /// Where a redirect pointed that was not followed.
    pub redirect_url: String,
    /// Body bytes received.
    pub size_download: u64,
    /// Body bytes sent.
    pub size_upload: u64,
    /// Header bytes received.
    pub size_header: u64,
    /// Request bytes sent (request line and headers).
    pub size_request: u64,
    /// Seconds until the response's headers arrived.
    pub time_starttransfer: f64,
    /// Seconds for the whole transfer.
    pub time_total: f64,
    /// Seconds spent on redirects.
    pub time_redirect: f64,
    /// The exit status.
    pub exitcode: i32,
    /// The error message, empty on success.
    pub errormsg: String,
    /// The final response's headers.
    pub headers: Vec<(String, String)>,
    /// The file written with `-o`/`-O`.
    pub filename_effective: String,
    /// The scheme, upper-case as curl prints it.
    pub scheme: String,
    /// The remote host and port.
    pub remote: (String, u16),
}

/// Where a piece of `-w` output goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    /// Standard output.
    Stdout,
    /// Standard error.
    Stderr,
}

/// Expands `format` into pieces of output and where each goes.
pub fn render(format: &str, stats: &Stats) -> Vec<(Stream, String)> {
    let mut pieces = Vec::new();
    let mut stream = Stream::Stdout;
    let mut out = String::new();
    let mut rest = format;
    while let Some(c) = rest.chars().next() {
        if c == '\\' {
            let mut chars = rest.chars();
            chars.next();
            match chars.next() {
                Some('n') => out.push('\n'),
                Some('r') => out.push('\r'),
                Some('t') => out.push('\t'),
                Some('\\') => out.push('\\'),
                Some(other) => {
                    out.push('\\');
                    out.push(other);
                }
                None => out.push('\\'),
            }
            rest = chars.as_str();
            continue;
        }
        if let Some(after) = rest.strip_prefix("%{") {
            if let Some(end) = after.find('}') {
                let name = &after[..end];
                rest = &after[end + 1..];
                match name {
                    "stdout" | "stderr" => {
                        pieces.push((stream, std::mem::take(&mut out)));
                        stream = if name == "stdout" { Stream::Stdout } else { Stream::Stderr };
                    }
                    _ => match variable(name, stats) {
                        Some(value) => out.push_str(&value),
                        None => {
                            // curl warns about unknown variables and prints nothing for them.
                        }
                    },
                }
                continue;
            }
        }
        if let Some(after) = rest.strip_prefix("%header{") {
            if let Some(end) = after.find('}') {
                let name = &after[..end];
                let values: Vec<&str> =
                    stats.headers.iter().filter(|(key, _)| key.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str()).collect();
                out.push_str(&values.join(", "));
                rest = &after[end + 1..];
                continue;
            }
        }
        if let Some(after) = rest.strip_prefix("%%") {
            out.push('%');
            rest = after;
            continue;
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    pieces.push((stream, out));
    pieces.retain(|(_, text)| !text.is_empty());
    pieces
}

/// Seconds with curl's six decimals.
fn secs(value: f64) -> String {
    format!("{value:.6}")
}

/// The value of one `%{name}`.
fn variable(name: &str, stats: &Stats) -> Option<String> {
    let speed = |bytes: u64| if stats.time_total > 0.0 { ((bytes as f64) / stats.time_total) as u64 } else { 0 };
    Some(match name {
        "http_code" | "response_code" => format!("{:03}", stats.http_code),
        "http_connect" => "000".to_string(),
        "url_effective" => stats.url_effective.clone(),
        "url" => stats.url.clone(),
        "method" => stats.method.clone(),
        "content_type" => {
            stats.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case("content-type")).map(|(_, v)| v.clone()).unwrap_or_default()
        }
        "num_redirects" => stats.num_redirects.to_string(),
        "num_headers" => stats.headers.len().to_string(),
        "num_connects" => u32::from(stats.http_code != 0).to_string(),
        "redirect_url" => stats.redirect_url.clone(),
        "size_download" => stats.size_download.to_string(),
        "size_upload" => stats.size_upload.to_string(),
        "size_header" => stats.size_header.to_string(),
        "size_request" => stats.size_request.to_string(),
        "speed_download" => speed(stats.size_download).to_string(),
        "speed_upload" => speed(stats.size_upload).to_string(),
        "time_namelookup" | "time_connect" | "time_appconnect" | "time_pretransfer" => secs(0.0),
        "time_starttransfer" => secs(stats.time_starttransfer),
        "time_redirect" => secs(stats.time_redirect),
        "time_total" => secs(stats.time_total),
        "exitcode" => stats.exitcode.to_string(),
        "errormsg" => stats.errormsg.clone(),
        "filename_effective" => stats.filename_effective.clone(),
        "scheme" => stats.scheme.clone(),
        "http_version" => {
            if stats.http_code == 0 {
                "0".to_string()
            } else {
                "1.1".to_string()
            }
        }
        "remote_ip" => stats.remote.0.clone(),
        "remote_port" => stats.remote.1.to_string(),
        "local_ip" => "127.0.0.1".to_string(),
        "local_port" => "0".to_string(),
        "ssl_verify_result" | "proxy_ssl_verify_result" => "0".to_string(),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variables_escapes_and_streams() {
        let stats = Stats {
            http_code: 201,
            size_download: 12,
            url_effective: "http://a/".into(),
            headers: vec![("Content-Type".into(), "text/plain".into())],
            ..Stats::default()
        };
        let out = render("%{http_code} %{size_download}\\t%{content_type}%{stderr}%{url_effective}\\n%header{content-type}%%", &stats);
        assert_eq!(out, [(Stream::Stdout, "201 12\ttext/plain".to_string()), (Stream::Stderr, "http://a/\ntext/plain%".to_string())]);
        assert_eq!(render("%{http_code}", &Stats::default()), [(Stream::Stdout, "000".to_string())]);
        assert_eq!(render("%{nope}x", &stats), [(Stream::Stdout, "x".to_string())]);
    }
}
