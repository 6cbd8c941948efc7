//! `look` (util-linux): the lines of a sorted file that begin with a
//! string, with `-f` (ignore case), `-d` (compare only letters, digits
//! and blanks), `-b` (accepted) and `-t CHAR` (compare up to CHAR).
//! Without a file it searches /usr/share/dict/words with `-d -f`.

use crate::commands::common::{open_input, Input};
use crate::commands::options::{parse_or_report, report_usage, Long, Spec};
use crate::commands::text::input::read_all;
use crate::host::LocalFuture;
use crate::utility::Invocation;

const SPEC: Spec = Spec::new("abdft:", &[
    Long::flag("alternative", "a"),
    Long::flag("binary", "b"),
    Long::flag("alphanum", "d"),
    Long::flag("ignore-case", "f"),
    Long::required("terminate", "t"),
]);

fn key(text: &[u8], dictionary: bool, fold: bool) -> Vec<u8> {
    text.iter()
        .copied()
        .filter(|b| !dictionary || b.is_ascii_alphanumeric() || *b == b' ' || *b == b'\t')
        .map(|b| if fold { b.to_ascii_lowercase() } else { b })
        .collect()
}

/// Runs `look [-bdf] [-t CHAR] STRING [FILE]`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let parsed = match parse_or_report(ctx, &SPEC, 2).await {
            Ok(parsed) => parsed,
            Err(status) => return status,
        };
        let (Some(string), rest) = (parsed.operands.first(), parsed.operands.get(1..).unwrap_or(&[])) else {
            report_usage(ctx, "bad usage").await;
            return 2;
        };
        if rest.len() > 1 {
            report_usage(ctx, "bad usage").await;
            return 2;
        }
        let default_file = rest.is_empty();
        let file = rest.first().cloned().unwrap_or_else(|| "/usr/share/dict/words".to_string());
        let dictionary = parsed.has("d") || default_file;
        let fold = parsed.has("f") || default_file;
        let mut prefix = string.as_bytes().to_vec();
        if let Some(t) = parsed.value("t").and_then(|t| t.bytes().next()) {
            if let Some(at) = prefix.iter().position(|&b| b == t) {
                prefix.truncate(at + 1);
            }
        }
        let prefix = key(&prefix, dictionary, fold);
        let data = match open_input(ctx, &Input::File(file.clone())).await {
            Ok(stream) => read_all(&stream).await.unwrap_or_default(),
            Err(error) => {
                ctx.report(&format!("{file}: {error}")).await;
                return 1;
            }
        };
        let mut out = Vec::new();
        for line in data.split_inclusive(|&b| b == b'\n') {
            let body = line.strip_suffix(b"\n").unwrap_or(line);
            if key(body, dictionary, fold).starts_with(&prefix) {
                out.extend_from_slice(body);
                out.push(b'\n');
            }
        }
        let found = !out.is_empty();
        if let Err(error) = ctx.write_out(&out).await {
            return ctx.write_failed(error).await;
        }
        if found {
            0
        } else {
            1
        }
    })
}
