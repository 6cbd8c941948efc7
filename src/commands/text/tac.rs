//! `tac`: each input's records in reverse order. Records end with the
//! separator (`-s STRING`, newline by default), or start with it (`-b`); with
//! `-r` the separator is a regular expression, found searching backwards
//! as GNU does.

use crate::commands::common::inputs;
use crate::commands::options::{parse_or_report, Long, Spec};
use crate::commands::text::input::{open_or_report, read_all_within_budget, HoldError, OpenError};
use crate::commands::text::output::{status_of, Output};
use crate::host::LocalFuture;
use crate::regex::{Regex, RegexError, Syntax};
use crate::utility::Invocation;

const SPEC: Spec = Spec::new("brs:", &[Long::flag("before", "b"), Long::flag("regex", "r"), Long::required("separator", "s")]);

/// How separators are found.
enum Separator {
    Literal(Vec<u8>),
    Pattern(Regex),
}

impl Separator {
    /// The separators in `data` as `(start, end)`, in order.
    fn find_all(&self, data: &[u8]) -> Vec<(usize, usize)> {
        match self {
            Separator::Literal(text) => {
                let mut found = Vec::new();
                let mut start = 0;
                while let Some(offset) = find(data.get(start..).unwrap_or(&[]), text) {
                    found.push((start + offset, start + offset + text.len()));
                    start += offset + text.len();
                }
                found
            }
            Separator::Pattern(regex) => {
                // GNU searches backwards: the match starting last wins, then the
                // search goes on before its start.
                let mut found = Vec::new();
                let mut limit = data.len();
                let mut position = limit;
                while position > 0 {
                    position -= 1;
                    let window = data.get(position..limit).unwrap_or(&[]);
                    if let Ok(Some((_, end))) = regex.find_at(window, 0) {
                        if end > 0 {
                            found.push((position, position + end));
                            limit = position;
                        }
                    }
                }
                found.reverse();
                found
            }
        }
    }
}

/// The first occurrence of `needle` in `haystack`.
fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.is_empty() {
        return None;
    }
    haystack.windows(needle.len()).position(|window| window == needle)
}

/// Compiles a `-r` separator in GNU's default syntax, anchored where the
/// backward search tries it.
fn compile(pattern: &[u8]) -> Result<Regex, RegexError> {
    Regex::new(pattern, &Syntax { emacs: true, anchored: true, ..Syntax::default() })
}

/// `data`'s records, reversed, written to `out`.
fn reverse_records(data: &[u8], separator: &Separator, before: bool) -> Vec<u8> {
    let mut bounds = vec![0];
    for (start, end) in separator.find_all(data) {
        bounds.push(if before { start } else { end });
    }
    bounds.push(data.len());
    bounds.dedup();
    let mut out = Vec::with_capacity(data.len());
    for pair in bounds.windows(2).rev() {
        if let [start, end] = pair {
            out.extend_from_slice(data.get(*start..*end).unwrap_or(&[]));
        }
    }
    out
}

/// Runs `tac [OPTION]... [FILE]...`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let parsed = match parse_or_report(ctx, &SPEC, 1).await {
            Ok(parsed) => parsed,
            Err(status) => return status,
        };
        let text = parsed.value("s").unwrap_or("\n").as_bytes().to_vec();
        let separator = if parsed.has("r") && !text.is_empty() {
            match compile(&text) {
                Ok(regex) => Separator::Pattern(regex),
                Err(error) => {
                    ctx.report(&error.to_string()).await;
                    return 1;
                }
            }
        } else {
            Separator::Literal(text)
        };
        let before = parsed.has("b");
        let mut out = Output::new(ctx);
        let mut status = 0;
        for input in &inputs(&parsed.operands) {
            let Some(stream) = open_or_report(ctx, input, OpenError::FailedToOpen).await else {
                status = 1;
                continue;
            };
            let data = match read_all_within_budget(&stream, 2).await {
                Ok(data) => data,
                Err(HoldError::Read) => {
                    status = 1;
                    continue;
                }
                Err(HoldError::MemoryExhausted) => {
                    ctx.report("memory exhausted").await;
                    return 1;
                }
            };
            if let Err(code) = out.write(&reverse_records(&data, &separator, before)).await {
                return code;
            }
        }
        status_of(out.flush().await.map(|()| status))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reverses_records() {
        let newline = Separator::Literal(b"\n".to_vec());
        assert_eq!(reverse_records(b"a\nb", &newline, false), b"ba\n");
        assert_eq!(reverse_records(b"a\nb\n", &newline, true), b"\n\nba");
        assert_eq!(reverse_records(b"", &newline, false), b"");
        let digits = Separator::Pattern(compile(b"[0-9]+").unwrap());
        assert_eq!(reverse_records(b"a12b345c", &digits, false), b"c54b32a1");
    }
}
