//! `rev` (util-linux): each line's characters in reverse order, streaming.
//! Bytes that are not UTF-8 count as one character each.

use crate::commands::options::{parse_or_report, Long, Spec};
use crate::commands::text::input::{transform_records, OpenError};
use crate::commands::text::output::status_of;
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

/// Runs `rev [-0] [FILE]...`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let parsed = match parse_or_report(ctx, &SPEC, 1).await {
            Ok(parsed) => parsed,
            Err(status) => return status,
        };
        let terminator = if parsed.has("0") { 0 } else { b'\n' };
        let reverse = |line: &[u8], out: &mut Vec<u8>| match line.strip_suffix(&[terminator]) {
            Some(body) => {
                reverse_into(body, out);
                out.push(terminator);
            }
            None => reverse_into(line, out),
        };
        status_of(transform_records(ctx, &parsed.operands, terminator, OpenError::CannotOpenUnquoted, reverse).await)
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
