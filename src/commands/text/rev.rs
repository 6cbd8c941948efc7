//! `rev` (util-linux): each line's characters in reverse order, streaming.
//! A line that is not UTF-8 stops the file with util-linux's message.

use crate::commands::common::{inputs, Input};
use crate::commands::options::{parse_or_report, Long, Spec};
use crate::commands::text::input::{open_or_report, LineReader, OpenError};
use crate::commands::text::output::{status_of, Output};
use crate::host::LocalFuture;
use crate::utility::Invocation;

const SPEC: Spec = Spec::new("0", &[Long::flag("zero", "0")]);

/// Appends `line`'s characters reversed; `false` (and nothing appended)
/// when it is not valid UTF-8, which util-linux refuses.
fn reverse_into(line: &[u8], out: &mut Vec<u8>) -> bool {
    let Ok(text) = std::str::from_utf8(line) else {
        return false;
    };
    let mut reversed: Vec<char> = text.chars().collect();
    reversed.reverse();
    out.extend(reversed.into_iter().collect::<String>().into_bytes());
    true
}

async fn rev(ctx: &Invocation<'_>, operands: &[String], terminator: u8) -> Result<i32, i32> {
    let mut out = Output::new(ctx);
    let mut status = 0;
    let mut reversed = Vec::new();
    for input in inputs(operands) {
        let Some(stream) = open_or_report(ctx, &input, OpenError::CannotOpenUnquoted).await else {
            status = 1;
            continue;
        };
        let mut reader = LineReader::new(stream, terminator);
        let mut number = 0u64;
        while let Ok(Some(line)) = reader.next_line().await {
            let (body, ended) = match line.strip_suffix(&[terminator]) {
                Some(body) => (body, true),
                None => (line.as_slice(), false),
            };
            reversed.clear();
            if !reverse_into(body, &mut reversed) {
                out.flush().await?;
                let name = match &input {
                    Input::File(name) => name.as_str(),
                    Input::Stdin => "stdin",
                };
                ctx.report(&format!("{name}: {number}: Invalid or incomplete multibyte or wide character")).await;
                status = 1;
                break;
            }
            if ended {
                reversed.push(terminator);
            }
            out.write(&reversed).await?;
            number += 1;
        }
    }
    out.flush().await?;
    Ok(status)
}

/// Runs `rev [-0] [FILE]...`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let parsed = match parse_or_report(ctx, &SPEC, 1).await {
            Ok(parsed) => parsed,
            Err(status) => return status,
        };
        let terminator = if parsed.has("0") { 0 } else { b'\n' };
        status_of(rev(ctx, &parsed.operands, terminator).await)
    })
}

#[cfg(test)]
mod tests {
    use super::reverse_into;

    #[test]
    fn reverses_characters() {
        let mut out = Vec::new();
        assert!(reverse_into("héllo".as_bytes(), &mut out));
        assert_eq!(out, "olléh".as_bytes());
        out.clear();
        assert!(!reverse_into(b"a\xffb", &mut out));
    }
}
