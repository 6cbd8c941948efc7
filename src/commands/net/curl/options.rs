//! curl's command line: bundled short options (`-sSL`), attached or
//! separate arguments (`-XPOST`, `-X POST`), long options with a separate
//! argument (`--max-time 5`), several URLs, and curl's own usage errors
//! (`curl: option --bogus: is unknown`, status 2).

/// One piece of request data, in the order given (`-d`, `--data-binary`...).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Data {
    /// `-d`/`--data`: `@file` is read with newlines removed.
    Ascii(String),
    /// `--data-binary`: `@file` is read byte for byte.
    Binary(String),
    /// `--data-raw`: taken literally, `@` included.
    Raw(String),
    /// `--data-urlencode`: `[name]=content`, `[name]@file` or `content`.
    UrlEncode(String),
}

/// Everything the command line asked for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CurlOptions {
    /// The URLs, in order.
    pub urls: Vec<String>,
    /// `-o FILE` per URL, in order.
    pub outputs: Vec<String>,
    /// `-O`: save under the URL's file name.
    pub remote_name: bool,
    /// `-s`.
    pub silent: bool,
    /// `-S`.
    pub show_error: bool,
    /// `-f`.
    pub fail: bool,
    /// `--fail-with-body`.
    pub fail_with_body: bool,
    /// `-L`.
    pub location: bool,
    /// `--location-trusted`: keep credentials on other hosts.
    pub location_trusted: bool,
    /// `-I`.
    pub head: bool,
    /// `-i`.
    pub include: bool,
    /// `-X`.
    pub method: Option<String>,
    /// `-H` headers as given (`Name: value`).
    pub headers: Vec<String>,
    /// Request data pieces.
    pub data: Vec<Data>,
    /// `-G`: data goes into the query string.
    pub get: bool,
    /// `-F` form parts (`name=value`, `name=@file`, `name=<file`).
    pub form: Vec<String>,
    /// `-u user:password`.
    pub user: Option<String>,
    /// `-A`.
    pub user_agent: Option<String>,
    /// `-e`.
    pub referer: Option<String>,
    /// `-w`.
    pub write_out: Option<String>,
    /// `-m` in milliseconds.
    pub max_time_ms: Option<u64>,
    /// `--connect-timeout` in milliseconds.
    pub connect_timeout_ms: Option<u64>,
    /// `--max-redirs` (-1 for no limit).
    pub max_redirs: Option<i64>,
    /// `--retry`.
    pub retry: u32,
    /// `--retry-delay` in seconds.
    pub retry_delay: Option<u64>,
    /// `-v`.
    pub verbose: bool,
    /// `-T FILE`.
    pub upload: Option<String>,
    /// `-D FILE`.
    pub dump_header: Option<String>,
    /// `--create-dirs`.
    pub create_dirs: bool,
    /// `--json DATA`: data plus JSON content type and accept headers.
    pub json: bool,
}

/// A usage error: curl's message (without the `curl: ` prefix and hint).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsageError(pub String);

/// Whether an option takes an argument, and what it is called in curl.
enum Kind {
    Flag,
    Value,
}

/// Long names and the short letter (or long-only key) they stand for.
const LONG: &[(&str, &str, Kind)] = &[
    ("compressed", "compressed", Kind::Flag),
    ("connect-timeout", "connect-timeout", Kind::Value),
    ("create-dirs", "create-dirs", Kind::Flag),
    ("data", "d", Kind::Value),
    ("data-ascii", "d", Kind::Value),
    ("data-binary", "data-binary", Kind::Value),
    ("data-raw", "data-raw", Kind::Value),
    ("data-urlencode", "data-urlencode", Kind::Value),
    ("dump-header", "D", Kind::Value),
    ("fail", "f", Kind::Flag),
    ("fail-with-body", "fail-with-body", Kind::Flag),
    ("form", "F", Kind::Value),
    ("get", "G", Kind::Flag),
    ("globoff", "g", Kind::Flag),
    ("head", "I", Kind::Flag),
    ("header", "H", Kind::Value),
    ("include", "i", Kind::Flag),
    ("insecure", "k", Kind::Flag),
    ("json", "json", Kind::Value),
    ("location", "L", Kind::Flag),
    ("location-trusted", "location-trusted", Kind::Flag),
    ("max-redirs", "max-redirs", Kind::Value),
    ("max-time", "m", Kind::Value),
    ("no-progress-meter", "no-progress-meter", Kind::Flag),
    ("output", "o", Kind::Value),
    ("referer", "e", Kind::Value),
    ("remote-name", "O", Kind::Flag),
    ("remote-name-all", "O", Kind::Flag),
    ("request", "X", Kind::Value),
    ("retry", "retry", Kind::Value),
    ("retry-delay", "retry-delay", Kind::Value),
    ("show-error", "S", Kind::Flag),
    ("silent", "s", Kind::Flag),
    ("upload-file", "T", Kind::Value),
    ("url", "url", Kind::Value),
    ("user", "u", Kind::Value),
    ("user-agent", "A", Kind::Value),
    ("verbose", "v", Kind::Flag),
    ("write-out", "w", Kind::Value),
];

/// Short letters that take an argument.
const SHORT_VALUE: &str = "ADFHTXdemouw";
/// Short letters that are flags.
const SHORT_FLAG: &str = "GILOSfgiksvq#";

/// Parses curl's arguments (without `argv[0]`).
pub fn parse(args: &[String]) -> Result<CurlOptions, UsageError> {
    let mut options = CurlOptions::default();
    let mut index = 0;
    while let Some(arg) = args.get(index) {
        index += 1;
        if let Some(name) = arg.strip_prefix("--") {
            if name.is_empty() {
                options.urls.extend(args.iter().skip(index).cloned());
                break;
            }
            let (key, takes_value) = match LONG.iter().find(|(long, _, _)| *long == name) {
                Some((_, key, kind)) => (*key, matches!(kind, Kind::Value)),
                None => match name
                    .strip_prefix("no-")
                    .and_then(|base| LONG.iter().find(|(long, _, kind)| *long == base && matches!(kind, Kind::Flag)))
                {
                    Some((_, key, _)) => {
                        unset(&mut options, key);
                        continue;
                    }
                    None => return Err(UsageError(format!("option {arg}: is unknown"))),
                },
            };
            let value = if takes_value {
                let value = args.get(index).ok_or_else(|| UsageError(format!("option {arg}: requires parameter")))?;
                index += 1;
                Some(value.clone())
            } else {
                None
            };
            apply(&mut options, key, value)?;
        } else if arg.len() > 1 && arg.starts_with('-') {
            let letters: Vec<char> = arg.chars().skip(1).collect();
            let mut position = 0;
            while let Some(&letter) = letters.get(position) {
                position += 1;
                if SHORT_VALUE.contains(letter) {
                    let attached: String = letters[position..].iter().collect();
                    let value = if attached.is_empty() {
                        let value = args.get(index).ok_or_else(|| UsageError(format!("option -{letter}: requires parameter")))?;
                        index += 1;
                        value.clone()
                    } else {
                        attached
                    };
                    apply(&mut options, &letter.to_string(), Some(value))?;
                    break;
                } else if SHORT_FLAG.contains(letter) {
                    apply(&mut options, &letter.to_string(), None)?;
                } else {
                    return Err(UsageError(format!("option -{letter}: is unknown")));
                }
            }
        } else {
            options.urls.push(arg.clone());
        }
    }
    Ok(options)
}

/// Turns a boolean option off (`--no-silent`).
fn unset(options: &mut CurlOptions, key: &str) {
    match key {
        "s" => options.silent = false,
        "S" => options.show_error = false,
        "f" => options.fail = false,
        "L" => options.location = false,
        "i" => options.include = false,
        "v" => options.verbose = false,
        "O" => options.remote_name = false,
        _ => {}
    }
}

/// Seconds as curl reads them (`2`, `0.5`) into milliseconds.
fn seconds(option: &str, value: &str) -> Result<u64, UsageError> {
    match value.parse::<f64>() {
        Ok(secs) if secs.is_finite() && secs >= 0.0 => Ok((secs * 1000.0).round() as u64),
        _ => Err(UsageError(format!("option {option}: expected a proper numerical parameter"))),
    }
}

/// A whole number as curl reads it.
fn number(option: &str, value: &str) -> Result<i64, UsageError> {
    value.parse::<i64>().map_err(|_| UsageError(format!("option {option}: expected a proper numerical parameter")))
}

/// Records one option.
fn apply(options: &mut CurlOptions, key: &str, value: Option<String>) -> Result<(), UsageError> {
    let text = value.unwrap_or_default();
    match key {
        "s" => options.silent = true,
        "S" => options.show_error = true,
        "f" => options.fail = true,
        "fail-with-body" => options.fail_with_body = true,
        "L" => options.location = true,
        "location-trusted" => {
            options.location = true;
            options.location_trusted = true;
        }
        "I" => options.head = true,
        "i" => options.include = true,
        "O" => options.remote_name = true,
        "G" => options.get = true,
        "v" => options.verbose = true,
        "create-dirs" => options.create_dirs = true,
        "k" | "g" | "q" | "#" | "compressed" | "no-progress-meter" => {}
        "X" => options.method = Some(text),
        "H" => options.headers.push(text),
        "d" => options.data.push(Data::Ascii(text)),
        "data-binary" => options.data.push(Data::Binary(text)),
        "data-raw" => options.data.push(Data::Raw(text)),
        "data-urlencode" => options.data.push(Data::UrlEncode(text)),
        "json" => {
            options.json = true;
            options.data.push(Data::Binary(text));
        }
        "F" => options.form.push(text),
        "u" => options.user = Some(text),
        "A" => options.user_agent = Some(text),
        "e" => options.referer = Some(text),
        "w" => options.write_out = Some(text),
        "o" => options.outputs.push(text),
        "T" => options.upload = Some(text),
        "D" => options.dump_header = Some(text),
        "url" => options.urls.push(text),
        "m" => options.max_time_ms = Some(seconds("-m", &text)?),
        "connect-timeout" => options.connect_timeout_ms = Some(seconds("--connect-timeout", &text)?),
        "max-redirs" => options.max_redirs = Some(number("--max-redirs", &text)?),
        "retry" => options.retry = u32::try_from(number("--retry", &text)?).unwrap_or(0),
        "retry-delay" => options.retry_delay = Some(u64::try_from(number("--retry-delay", &text)?).unwrap_or(0)),
        _ => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(args: &[&str]) -> Result<CurlOptions, UsageError> {
        parse(&args.iter().map(|a| a.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn bundles_attached_and_separate_arguments() {
        let options = parsed(&["-sSLo", "out", "-XPOST", "-H", "A: b", "--max-time", "1.5", "http://x/"]).unwrap();
        assert!(options.silent && options.show_error && options.location);
        assert_eq!(options.outputs, ["out"]);
        assert_eq!(options.method.as_deref(), Some("POST"));
        assert_eq!(options.headers, ["A: b"]);
        assert_eq!(options.max_time_ms, Some(1500));
        assert_eq!(options.urls, ["http://x/"]);
    }

    #[test]
    fn data_options_keep_their_order_and_kind() {
        let options = parsed(&["-d", "a=1", "--data-binary", "@f", "--data-raw", "@x", "--data-urlencode", "q=a b", "u"]).unwrap();
        assert_eq!(
            options.data,
            [Data::Ascii("a=1".into()), Data::Binary("@f".into()), Data::Raw("@x".into()), Data::UrlEncode("q=a b".into())]
        );
    }

    #[test]
    fn usage_errors_use_curls_words() {
        assert_eq!(parsed(&["--bogus"]), Err(UsageError("option --bogus: is unknown".into())));
        assert_eq!(parsed(&["-X"]), Err(UsageError("option -X: requires parameter".into())));
        assert_eq!(parsed(&["-Z"]), Err(UsageError("option -Z: is unknown".into())));
        assert_eq!(parsed(&["-m", "x", "u"]), Err(UsageError("option -m: expected a proper numerical parameter".into())));
    }

    #[test]
    fn negated_flags_and_double_dash() {
        let options = parsed(&["-s", "--no-silent", "--", "-notanoption"]).unwrap();
        assert!(!options.silent);
        assert_eq!(options.urls, ["-notanoption"]);
    }
}
