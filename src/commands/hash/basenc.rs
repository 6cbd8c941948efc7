//! `base32` and `basenc` (GNU coreutils 9.1): encode or decode base64,
//! base64url, base32, base32hex, base16, base2 (msb or lsb first) and z85,
//! wrapping at 76 columns (`-w`), decoding with `-d` (`-i` skips bytes
//! outside the alphabet) and stopping with `invalid input` after writing
//! what decoded so far.

use super::source::{quote_name, read_operand};
use crate::commands::options::{parse_or_report, report_usage, Long, Spec};
use crate::host::LocalFuture;
use crate::utility::{write_failure_status, Invocation};

const BASE32: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const BASE32HEX: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUV";
const BASE64: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const BASE64URL: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const BASE16: &[u8] = b"0123456789ABCDEF";
const Z85: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#";

/// An encoding.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Encoding {
    /// A power-of-two alphabet: symbols, bits per symbol, symbols per padded block (0: no padding).
    Bits(&'static [u8], u32, usize),
    /// Bits of each byte, most or least significant first.
    Base2 { msb_first: bool },
    /// ZeroMQ's base85.
    Z85,
}

const BASE32_LONGS: &[Long] = &[Long::flag("decode", "d"), Long::flag("ignore-garbage", "i"), Long::required("wrap", "w")];
const BASENC_LONGS: &[Long] = &[
    Long::flag("decode", "d"),
    Long::flag("ignore-garbage", "i"),
    Long::required("wrap", "w"),
    Long::flag("base64", "base64"),
    Long::flag("base64url", "base64url"),
    Long::flag("base32", "base32"),
    Long::flag("base32hex", "base32hex"),
    Long::flag("base16", "base16"),
    Long::flag("base2msbf", "base2msbf"),
    Long::flag("base2lsbf", "base2lsbf"),
    Long::flag("z85", "z85"),
];

fn encoding_named(key: &str) -> Option<Encoding> {
    Some(match key {
        "base64" => Encoding::Bits(BASE64, 6, 4),
        "base64url" => Encoding::Bits(BASE64URL, 6, 4),
        "base32" => Encoding::Bits(BASE32, 5, 8),
        "base32hex" => Encoding::Bits(BASE32HEX, 5, 8),
        "base16" => Encoding::Bits(BASE16, 4, 0),
        "base2msbf" => Encoding::Base2 { msb_first: true },
        "base2lsbf" => Encoding::Base2 { msb_first: false },
        "z85" => Encoding::Z85,
        _ => return None,
    })
}

fn encode_bits(data: &[u8], alphabet: &[u8], bits: u32, block: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() * 8 / bits as usize + 8);
    let (mut acc, mut have) = (0u32, 0u32);
    let mask = (1u32 << bits) - 1;
    for &byte in data {
        acc = (acc << 8) | u32::from(byte);
        have += 8;
        while have >= bits {
            have -= bits;
            out.push(alphabet[((acc >> have) & mask) as usize]);
        }
        acc &= (1 << have) - 1;
    }
    if have > 0 {
        out.push(alphabet[((acc << (bits - have)) & mask) as usize]);
    }
    if block > 0 {
        while out.len() % block != 0 {
            out.push(b'=');
        }
    }
    out
}

fn encode(data: &[u8], encoding: Encoding) -> Result<Vec<u8>, &'static str> {
    match encoding {
        Encoding::Bits(alphabet, bits, block) => Ok(encode_bits(data, alphabet, bits, block)),
        Encoding::Base2 { msb_first } => Ok(data
            .iter()
            .flat_map(|&byte| (0..8).map(move |i| if byte & (if msb_first { 0x80 >> i } else { 1 << i }) != 0 { b'1' } else { b'0' }))
            .collect()),
        Encoding::Z85 => {
            if data.len() % 4 != 0 {
                return Err("invalid input (length must be multiple of 4 characters)");
            }
            let mut out = Vec::with_capacity(data.len() / 4 * 5);
            for chunk in data.chunks(4) {
                let mut value = chunk.iter().fold(0u32, |acc, &b| (acc << 8) | u32::from(b));
                let mut symbols = [0u8; 5];
                for slot in symbols.iter_mut().rev() {
                    *slot = Z85[(value % 85) as usize];
                    value /= 85;
                }
                out.extend_from_slice(&symbols);
            }
            Ok(out)
        }
    }
}

/// Decodes `symbols` (newlines already removed); the bytes decoded and
/// whether the whole input was valid.
fn decode(symbols: &[u8], encoding: Encoding) -> (Vec<u8>, bool) {
    let mut out = Vec::new();
    match encoding {
        Encoding::Bits(alphabet, bits, block) => {
            let group = if block == 0 { 2 } else { block };
            for chunk in symbols.chunks(group) {
                let (mut acc, mut have, mut count) = (0u32, 0u32, 0usize);
                if chunk.len() < group && chunk.iter().all(|b| alphabet.contains(b)) {
                    return (out, false);
                }
                let mut bad = chunk.len() < group;
                for (index, &symbol) in chunk.iter().enumerate() {
                    if symbol == b'=' && block > 0 {
                        let pad_ok = chunk[index..].iter().all(|&b| b == b'=') && chunk.len() == group;
                        let valid_counts: &[usize] = if bits == 5 { &[2, 4, 5, 7] } else { &[2, 3] };
                        if !pad_ok || !valid_counts.contains(&count) {
                            bad = true;
                        }
                        break;
                    }
                    let Some(value) = alphabet.iter().position(|&a| a == symbol) else {
                        bad = true;
                        break;
                    };
                    acc = (acc << bits) | value as u32;
                    have += bits;
                    count += 1;
                    if have >= 8 {
                        have -= 8;
                        out.push((acc >> have) as u8);
                        acc &= (1 << have) - 1;
                    }
                }
                if bad {
                    return (out, false);
                }
            }
            (out, true)
        }
        Encoding::Base2 { msb_first } => {
            for chunk in symbols.chunks(8) {
                if chunk.len() < 8 || chunk.iter().any(|&b| b != b'0' && b != b'1') {
                    return (out, false);
                }
                let byte = chunk.iter().enumerate().fold(0u8, |acc, (i, &b)| {
                    let bit = u8::from(b == b'1');
                    if msb_first {
                        acc | (bit << (7 - i))
                    } else {
                        acc | (bit << i)
                    }
                });
                out.push(byte);
            }
            (out, true)
        }
        Encoding::Z85 => {
            for chunk in symbols.chunks(5) {
                if chunk.len() < 5 {
                    return (out, false);
                }
                let mut value: u64 = 0;
                for &b in chunk {
                    let Some(v) = Z85.iter().position(|&a| a == b) else { return (out, false) };
                    value = value * 85 + v as u64;
                }
                if value > u64::from(u32::MAX) {
                    return (out, false);
                }
                out.extend_from_slice(&(value as u32).to_be_bytes());
            }
            (out, true)
        }
    }
}

fn in_alphabet(byte: u8, encoding: Encoding) -> bool {
    match encoding {
        Encoding::Bits(alphabet, _, block) => alphabet.contains(&byte) || (block > 0 && byte == b'='),
        Encoding::Base2 { .. } => byte == b'0' || byte == b'1',
        Encoding::Z85 => Z85.contains(&byte),
    }
}

async fn run_with(ctx: &Invocation<'_>, spec: &Spec, fixed: Option<Encoding>) -> i32 {
    let parsed = match parse_or_report(ctx, spec, 1).await {
        Ok(parsed) => parsed,
        Err(status) => return status,
    };
    let chosen = parsed.options.iter().rev().find_map(|(key, _)| encoding_named(key));
    let Some(encoding) = fixed.or(chosen) else {
        report_usage(ctx, "missing encoding type").await;
        return 1;
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
        report_usage(ctx, &format!("extra operand {}", crate::commands::format::quote_locale(ctx, extra))).await;
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
        let garbage = parsed.has("i");
        let symbols: Vec<u8> =
            data.iter().copied().filter(|&b| b != b'\n' && (!garbage || in_alphabet(b, encoding))).collect();
        let (bytes, ok) = decode(&symbols, encoding);
        if let Err(error) = ctx.write_out(&bytes).await {
            return write_failure_status(error);
        }
        if !ok {
            ctx.report("invalid input").await;
            return 1;
        }
        return 0;
    }
    let text = match encode(&data, encoding) {
        Ok(text) => text,
        Err(message) => {
            ctx.report(message).await;
            return 1;
        }
    };
    let mut out = Vec::with_capacity(text.len() + text.len() / 76 + 1);
    if wrap == 0 {
        out.extend_from_slice(&text);
    } else {
        for line in text.chunks(wrap) {
            out.extend_from_slice(line);
            out.push(b'\n');
        }
    }
    match ctx.write_out(&out).await {
        Ok(()) => 0,
        Err(error) => write_failure_status(error),
    }
}

/// Runs `base32 [-d] [-i] [-w COLS] [FILE]`.
pub fn run_base32<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    const SPEC: Spec = Spec::new("diw:", BASE32_LONGS);
    Box::pin(async move { run_with(ctx, &SPEC, Some(Encoding::Bits(BASE32, 5, 8))).await })
}

/// Runs `basenc --ENCODING [-d] [-i] [-w COLS] [FILE]`.
pub fn run_basenc<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    const SPEC: Spec = Spec::new("diw:", BASENC_LONGS);
    Box::pin(async move { run_with(ctx, &SPEC, None).await })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        let b32 = Encoding::Bits(BASE32, 5, 8);
        assert_eq!(encode(b"foobar\n", b32).unwrap(), b"MZXW6YTBOIFA====");
        assert_eq!(decode(b"MZXW6===", b32), (b"foo".to_vec(), true));
        assert_eq!(decode(b"MZXW6", b32), (Vec::new(), false));
        assert_eq!(encode(b"abcd", Encoding::Z85).unwrap(), b"vpA.S");
        assert_eq!(decode(b"vpA.S", Encoding::Z85), (b"abcd".to_vec(), true));
    }
}
