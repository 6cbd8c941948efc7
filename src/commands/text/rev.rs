//! `rev` (util-linux): each line's characters in reverse order, streaming.
//! Bytes that are not UTF-8 count as one character each.

use crate::commands::common::inputs;
use crate::commands::options::{parse_or_report, Long, Spec};
use crate::commands::text::input::LineReader;
use crate::commands::text::output::{status_of, Output};
use crate::host::LocalFuture;
use crate::interp::Invocation;

const SPEC: Spec = Spec::new("0", &[Long::flag("zero", "0")]);

/// Appends `line`'s characters reversed.
fn reverse_into(line: &[u8], out: &mut Vec<u8>) {
    let mut units: Vec<&[u8]> = Vec::new();
    let mut rest = line;
    while !rest.is_empty() {
        let length = match std::str::from_utf8(rest) {
            Ok(text) => text.chars().next().map_or(1, char::len_utf8),
            Err(error) if error.valid_up_to() > 0 => {
                std::str::from_utf8(&rest[..error.valid_up_to()]).ok().and_then(|t| t.chars().next()).map_or(1, char::len_utf8)
            }
            Err(_) => 1,
        };
        let (unit, after) = rest.split_at(length.min(rest.len()));
        units.push(unit);
        rest = after;
    }
    for unit in units.iter().rev() {
        out.extend_from_slice(unit);
    }
}

async fn rev(ctx: &Invocation<'_>, operands: &[String], terminator: u8) -> Result<i32, i32> {
    let mut out = Output::new(ctx);
    let mut status = 0;
    let mut reversed = Vec::new();
    for input in inputs(operands) {
        let stream = match crate::commands::common::open_input(ctx, &input).await {
            Ok(stream) => stream,
            Err(error) => {
                ctx.report(&format!("cannot open {}: {error}", crate::commands::text::input::input_name(&input))).await;
                status = 1;
                continue;
            }
        };
        let mut reader = LineReader::new(stream, terminator);
        while let Ok(Some(line)) = reader.next_line().await {
            let (body, ended) = match line.strip_suffix(&[terminator]) {
                Some(body) => (body, true),
                None => (line.as_slice(), false),
            };
            reversed.clear();
            reverse_into(body, &mut reversed);
            if ended {
                reversed.push(terminator);
            }
            out.write(&reversed).await?;
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
        reverse_into("héllo".as_bytes(), &mut out);
        assert_eq!(out, "olléh".as_bytes());
        out.clear();
        reverse_into(b"a\xffb", &mut out);
        assert_eq!(out, b"b\xffa");
    }
}
