//! The little URL handling `curl` and `wget` do themselves: adding the
//! scheme a bare host implies, splitting out the host and port for their
//! messages, resolving a redirect's `Location`, and the file name `-O` and
//! `wget` save to. The host checks every URL again with a full parser; this
//! is only for the commands' own words and decisions.

/// The parts of an absolute URL the commands need.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UrlParts {
    /// The scheme, lower-case (`https`).
    pub scheme: String,
    /// The host as written (without brackets for IPv6, without userinfo).
    pub host: String,
    /// The port: explicit, or the scheme's default.
    pub port: u16,
    /// The path and query (`/v1/x?y=1`), `/` when empty; no fragment.
    pub path: String,
}

/// Why a URL was not usable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UrlError {
    /// A scheme other than http and https (curl 1).
    Protocol(String),
    /// Malformed (curl 3).
    Malformed,
}

/// The URL as curl sends it: a missing scheme means `http://`.
pub fn with_scheme(url: &str) -> String {
    if url.contains("://") {
        return url.to_string();
    }
    // A scheme without slashes (`data:`, `javascript:`, `file:x`) stays as it is.
    if let Some((scheme, _)) = url.split_once(':') {
        let is_scheme = !scheme.is_empty()
            && scheme.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            && scheme.chars().all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c));
        let looks_like_port = url.split_once(':').map(|(_, rest)| rest.chars().next().is_some_and(|c| c.is_ascii_digit())).unwrap_or(false);
        if is_scheme && !looks_like_port {
            return url.to_string();
        }
    }
    format!("http://{url}")
}

/// Splits an absolute URL into its parts.
pub fn parse(url: &str) -> Result<UrlParts, UrlError> {
    let (scheme, rest) = match url.split_once("://") {
        Some((scheme, rest)) => (scheme.to_ascii_lowercase(), rest),
        None => {
            let scheme = url.split(':').next().unwrap_or("").to_ascii_lowercase();
            return Err(if scheme.is_empty() { UrlError::Malformed } else { UrlError::Protocol(scheme) });
        }
    };
    let default_port = match scheme.as_str() {
        "http" => 80,
        "https" => 443,
        _ => return Err(UrlError::Protocol(scheme)),
    };
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(end);
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, host)| host);
    let (host, port) = if let Some(bracketed) = host_port.strip_prefix('[') {
        let (host, after) = bracketed.split_once(']').ok_or(UrlError::Malformed)?;
        (host, after.strip_prefix(':'))
    } else {
        match host_port.rsplit_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (host_port, None),
        }
    };
    if host.is_empty() {
        return Err(UrlError::Malformed);
    }
    let port = match port {
        None | Some("") => default_port,
        Some(text) => text.parse::<u16>().map_err(|_| UrlError::Malformed)?,
    };
    let tail = tail.split('#').next().unwrap_or("");
    let path = if tail.starts_with('/') { tail.to_string() } else { format!("/{tail}") };
    Ok(UrlParts { scheme, host: host.to_string(), port, path })
}

/// Resolves a redirect's `location` against the URL that sent it.
pub fn resolve(base: &str, location: &str) -> String {
    let location = location.trim();
    if location.contains("://") {
        return location.to_string();
    }
    let Some((scheme, rest)) = base.split_once("://") else {
        return location.to_string();
    };
    if let Some(network) = location.strip_prefix("//") {
        return format!("{scheme}://{network}");
    }
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let origin = format!("{scheme}://{}", &rest[..authority_end]);
    let base_path = rest[authority_end..].split(['?', '#']).next().unwrap_or("");
    if location.starts_with('/') {
        return format!("{origin}{location}");
    }
    if location.starts_with('?') {
        return format!("{origin}{}{location}", if base_path.is_empty() { "/" } else { base_path });
    }
    if location.is_empty() || location.starts_with('#') {
        return base.split('#').next().unwrap_or(base).to_string();
    }
    let directory = base_path.rfind('/').map_or("/", |slash| &base_path[..=slash]);
    format!("{origin}{directory}{location}")
}

/// The last path segment of `url` (no query or fragment), empty when the
/// path ends in `/`: what `curl -O` and `wget` name the file.
pub fn file_name(url: &str) -> String {
    let after_scheme = url.split_once("://").map_or(url, |(_, rest)| rest);
    let path = match after_scheme.find('/') {
        Some(start) => &after_scheme[start..],
        None => "",
    };
    let path = path.split(['?', '#']).next().unwrap_or("");
    path.rsplit('/').next().unwrap_or("").to_string()
}

/// `host:port` as curl shows it in messages, brackets around IPv6.
pub fn host_port(parts: &UrlParts) -> (String, u16) {
    let host = if parts.host.contains(':') { format!("[{}]", parts.host) } else { parts.host.clone() };
    (host, parts.port)
}

/// Percent-encodes `text` the way `--data-urlencode` does: letters, digits
/// and `-._~` stay, every other byte becomes `%XX`.
pub fn percent_encode(text: &[u8]) -> String {
    let mut out = String::with_capacity(text.len());
    for &byte in text {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bare_hosts_get_http_and_other_schemes_stay() {
        assert_eq!(with_scheme("example.com/x"), "http://example.com/x");
        assert_eq!(with_scheme("localhost:8080/x"), "http://localhost:8080/x");
        assert_eq!(with_scheme("https://a/"), "https://a/");
        assert_eq!(with_scheme("data:text/plain,hi"), "data:text/plain,hi");
    }

    #[test]
    fn parts_of_urls() {
        let parts = parse("https://user@Api.Example.com:8443/v1/x?y#z").unwrap();
        assert_eq!(
            (parts.scheme.as_str(), parts.host.as_str(), parts.port, parts.path.as_str()),
            ("https", "Api.Example.com", 8443, "/v1/x?y")
        );
        assert_eq!(parse("http://[::1]/").unwrap().host, "::1");
        assert_eq!(parse("http://a").unwrap().path, "/");
        assert_eq!(parse("ftp://a/"), Err(UrlError::Protocol("ftp".into())));
        assert_eq!(parse("http:///x"), Err(UrlError::Malformed));
        assert_eq!(parse("http://a:99999/"), Err(UrlError::Malformed));
    }

    #[test]
    fn redirects_resolve_against_the_current_url() {
        assert_eq!(resolve("http://a/b/c?q", "/x"), "http://a/x");
        assert_eq!(resolve("http://a/b/c", "d"), "http://a/b/d");
        assert_eq!(resolve("http://a/b/c", "//e/f"), "http://e/f");
        assert_eq!(resolve("http://a/b/c", "https://z/"), "https://z/");
        assert_eq!(resolve("http://a", "?x=1"), "http://a/?x=1");
    }

    #[test]
    fn file_names_are_the_last_segment() {
        assert_eq!(file_name("http://a/b/c.txt?x=1"), "c.txt");
        assert_eq!(file_name("http://a/b/"), "");
        assert_eq!(file_name("http://a"), "");
    }
}
