//! `base64`: encode or decode RFC 4648 base64, as GNU coreutils does
//! (wrapping at 76 columns, `-w 0` for none; decoding stops with
//! `invalid input` after writing what decoded so far).

use super::source::{quote_name, quote_value, read_operand};
use crate::commands::options::{parse_or_report, report_usage, Long, Spec};
use crate::host::LocalFuture;
use crate::utility::{write_failure_status, Invocation};
use base64::Engine;

const LONGS: &[Long] = &[Long::flag("decode", "d"), Long::flag("ignore-garbage", "i"), Long::required("wrap", "w")];
const SPEC: Spec = Spec::new("diw:", LONGS);

/// Runs `base64 [-d] [-i] [-w COLS] [FILE]`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let parsed = match parse_or_report(ctx, &SPEC, 1).await {
            Ok(parsed) => parsed,
            Err(status) => return status,
        };
        let wrap = match parsed.value("w") {
            None => 76,
            Some(text) => match text.parse::<usize>() {
                Ok(cols) => cols,
                Err(_) => {
                    ctx.report(&format!("invalid wrap size: {}", crate::commands::format::quote_locale(ctx, text))).await;
                    return 1;
                }
            },
        };
        if let Some(extra) = parsed.operands.get(1) {
            report_usage(ctx, &format!("extra operand {}", quote_value(extra))).await;
            return 1;
        }
        let operand = parsed.operands.first().map(String::as_str).unwrap_or("-");
        let data = match read_operand(ctx, operand).await {
            Ok(data) => data,
            Err(error) => {
                ctx.report(&format!("{}: {error}", quote_name(operand))).await;
                return 1;
            }
        };
        if parsed.has("d") {
            let (bytes, ok) = decode(&data, parsed.has("i"));
            if let Err(error) = ctx.write_out(&bytes).await {
                return write_failure_status(error);
            }
            if !ok {
                ctx.report("invalid input").await;
                return 1;
            }
            return 0;
        }
        match ctx.write_out(&encode(&data, wrap)).await {
            Ok(()) => 0,
            Err(error) => write_failure_status(error),
        }
    })
}

/// Encodes `data`, breaking lines every `wrap` characters (never for 0) and
/// ending with a newline unless the output is empty with no wrapping.
pub fn encode(data: &[u8], wrap: usize) -> Vec<u8> {
    let text = base64::engine::general_purpose::STANDARD.encode(data);
    let mut out = Vec::with_capacity(text.len() + text.len() / 76 + 1);
    if wrap == 0 {
        out.extend_from_slice(text.as_bytes());
        return out;
    }
    for line in text.as_bytes().chunks(wrap) {
        out.extend_from_slice(line);
        out.push(b'\n');
    }
    out
}

fn value_of(byte: u8) -> Option<u8> {
    match byte {
        b'A'..=b'Z' => Some(byte - b'A'),
        b'a'..=b'z' => Some(byte - b'a' + 26),
        b'0'..=b'9' => Some(byte - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    }
}

/// Decodes `data` group by group, as GNU does: newlines are skipped (and
/// with `ignore_garbage` every byte outside the alphabet), padded groups may
/// follow one another. Returns the bytes decoded and whether input was valid.
pub fn decode(data: &[u8], ignore_garbage: bool) -> (Vec<u8>, bool) {
    let symbols: Vec<u8> =
        data.iter().copied().filter(|&b| b != b'\n' && (!ignore_garbage || b == b'=' || value_of(b).is_some())).collect();
    let mut out = Vec::with_capacity(symbols.len() / 4 * 3);
    for group in symbols.chunks(4) {
        let mut values = [0u8; 4];
        let mut count = 0;
        for (index, &symbol) in group.iter().enumerate() {
            match value_of(symbol) {
                Some(value) if count == index => {
                    if let Some(slot) = values.get_mut(index) {
                        *slot = value;
                    }
                    count += 1;
                }
                None if symbol == b'=' && index >= 2 => {}
                _ => return (finish(out, &values, count, false), false),
            }
        }
        let padded = group.len() == 4 && count < 4;
        if padded && (count < 2 || (count == 2 && group.get(3) != Some(&b'='))) {
            return (finish(out, &values, count, false), false);
        }
        out = finish(out, &values, count, true);
        if group.len() < 4 {
            return (out, false);
        }
    }
    (out, true)
}

/// Appends the bytes `count` sextets carry.
fn finish(mut out: Vec<u8>, values: &[u8; 4], count: usize, _complete: bool) -> Vec<u8> {
    let [a, b, c, d] = *values;
    if count >= 2 {
        out.push((a << 2) | (b >> 4));
    }
    if count >= 3 {
        out.push((b << 4) | (c >> 2));
    }
    if count >= 4 {
        out.push((c << 6) | d);
    }
    out
}
