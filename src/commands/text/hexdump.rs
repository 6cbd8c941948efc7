//! `hexdump` and `hd` (util-linux): the default two-byte-word dump and the
//! canonical `-C` dump (what `hd` prints), with `-n` (length), `-s` (skip)
//! and `-v` (no `*` for repeated lines). Files are read as one stream.

use crate::commands::common::{open_input, Input};
use crate::commands::options::{parse_or_report, Long, Spec};
use crate::commands::text::input::read_all;
use crate::host::LocalFuture;
use crate::utility::Invocation;

const SPEC: Spec = Spec::new("Cn:s:v", &[
    Long::flag("canonical", "C"),
    Long::required("length", "n"),
    Long::required("skip", "s"),
    Long::flag("no-squeezing", "v"),
]);

/// util-linux's size syntax: a number (`0x` hex, leading-0 octal) with an
/// optional suffix (`b` 512, `k`/`K`/`KiB` 1024, `KB` 1000, `m`, `g`...).
fn parse_size(text: &str) -> Option<u64> {
    let (radix, digits) = if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        (16, hex)
    } else if text.len() > 1 && text.starts_with('0') {
        (8, &text[1..])
    } else {
        (10, text)
    };
    let end = digits.find(|c: char| !c.is_digit(radix)).unwrap_or(digits.len());
    if end == 0 {
        return None;
    }
    let value = u64::from_str_radix(&digits[..end], radix).ok()?;
    let factor: u64 = match &digits[end..] {
        "" => 1,
        "b" => 512,
        "k" | "K" | "KiB" => 1 << 10,
        "KB" => 1000,
        "m" | "M" | "MiB" => 1 << 20,
        "MB" => 1_000_000,
        "g" | "G" | "GiB" => 1 << 30,
        "GB" => 1_000_000_000,
        _ => return None,
    };
    value.checked_mul(factor)
}

fn line_of(chunk: &[u8], offset: u64, canonical: bool) -> String {
    let mut line = String::new();
    if canonical {
        line.push_str(&format!("{offset:08x}  "));
        for i in 0..16 {
            match chunk.get(i) {
                Some(b) => line.push_str(&format!("{b:02x} ")),
                None => line.push_str("   "),
            }
            if i == 7 {
                line.push(' ');
            }
        }
        line.push_str(" |");
        for &b in chunk {
            line.push(if (0x20..0x7f).contains(&b) { char::from(b) } else { '.' });
        }
        line.push_str("|\n");
    } else {
        line.push_str(&format!("{offset:07x}"));
        for i in 0..8 {
            match (chunk.get(2 * i), chunk.get(2 * i + 1)) {
                (Some(&lo), hi) => {
                    let word = u16::from(lo) | (u16::from(hi.copied().unwrap_or(0)) << 8);
                    line.push_str(&format!(" {word:04x}"));
                }
                (None, _) => line.push_str("     "),
            }
        }
        line.push('\n');
    }
    line
}

async fn hexdump(ctx: &Invocation<'_>, canonical: bool) -> i32 {
    let parsed = match parse_or_report(ctx, &SPEC, 1).await {
        Ok(parsed) => parsed,
        Err(status) => return status,
    };
    let canonical = canonical || parsed.has("C");
    let mut sizes = [None, None];
    for (slot, key) in sizes.iter_mut().zip(["n", "s"]) {
        if let Some(text) = parsed.value(key) {
            match parse_size(text) {
                Some(value) => *slot = Some(value),
                None => {
                    let what = if key == "n" { "length" } else { "offset" };
                    ctx.report(&format!("failed to parse {what}: '{text}'")).await;
                    return 1;
                }
            }
        }
    }
    let [length, skip] = sizes;
    let mut data = Vec::new();
    let mut status = 0;
    let inputs: Vec<Input> = if parsed.operands.is_empty() {
        vec![Input::Stdin]
    } else {
        parsed.operands.iter().map(|name| Input::File(name.clone())).collect()
    };
    let mut opened = 0;
    for input in &inputs {
        match open_input(ctx, input).await {
            Ok(stream) => {
                if skip.unwrap_or(0) > 0 && matches!(*stream, crate::io::Stream::PipeReader(_)) {
                    let name = if matches!(input, Input::Stdin) { "stdin" } else { "-" };
                    ctx.report(&format!("{name}: Illegal seek")).await;
                    return 1;
                }
                opened += 1;
                if let Ok(bytes) = read_all(&stream).await {
                    data.extend_from_slice(&bytes);
                }
            }
            Err(error) => {
                let name = match input {
                    Input::File(name) => name.as_str(),
                    Input::Stdin => "-",
                };
                ctx.report(&format!("{name}: {error}")).await;
                status = 1;
            }
        }
    }
    if opened == 0 {
        ctx.report("all input file arguments failed").await;
        return 1;
    }
    let start = skip.unwrap_or(0).min(data.len() as u64) as usize;
    let mut end = data.len();
    if let Some(length) = length {
        end = end.min(start.saturating_add(length.min(usize::MAX as u64) as usize));
    }
    let body = &data[start..end];
    let mut out = String::new();
    let mut previous: Option<&[u8]> = None;
    let mut starred = false;
    for (index, chunk) in body.chunks(16).enumerate() {
        let offset = (start + index * 16) as u64;
        if !parsed.has("v") && chunk.len() == 16 && previous == Some(chunk) {
            if !starred {
                out.push_str("*\n");
                starred = true;
            }
            continue;
        }
        starred = false;
        previous = Some(chunk);
        out.push_str(&line_of(chunk, offset, canonical));
    }
    if !body.is_empty() || (start > 0 && !canonical) {
        let total = (start + body.len()) as u64;
        out.push_str(&if canonical { format!("{total:08x}\n") } else { format!("{total:07x}\n") });
    }
    if let Err(error) = ctx.write_out(out.as_bytes()).await {
        return ctx.write_failed(error).await;
    }
    status
}

/// Runs `hexdump [-Cv] [-n LENGTH] [-s OFFSET] [FILE]...`.
pub fn run_hexdump<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move { hexdump(ctx, false).await })
}

/// Runs `hd`: `hexdump -C`.
pub fn run_hd<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move { hexdump(ctx, true).await })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_lines() {
        assert_eq!(parse_size("0x10"), Some(16));
        assert_eq!(parse_size("2k"), Some(2048));
        assert_eq!(parse_size("x"), None);
        assert_eq!(line_of(b"abc", 0, false), "0000000 6261 0063                              \n");
    }
}
