//! `iconv` (glibc 2.36): converts between UTF-8, ISO-8859-1 (Latin-1),
//! ASCII, UTF-16LE, UTF-16BE and UTF-16 (a byte-order mark on output,
//! little-endian without one on input), with `//TRANSLIT` (ASCII look-alikes
//! or `?`), `//IGNORE` and `-c` (drop what cannot be converted), and `-l`.
//! Errors give glibc's words and the byte position in the input.

use crate::commands::common::{open_input, Input};
use crate::commands::options::{parse_or_report, Long, Spec};
use crate::commands::text::input::read_all;
use crate::host::LocalFuture;
use crate::utility::Invocation;

const SPEC: Spec = Spec::new("cf:lo:st:", &[
    Long::required("from-code", "f"),
    Long::required("to-code", "t"),
    Long::flag("list", "l"),
    Long::required("output", "o"),
    Long::flag("silent", "s"),
]);

#[derive(Clone, Copy, PartialEq, Eq)]
enum Charset {
    Utf8,
    Latin1,
    Ascii,
    Utf16Le,
    Utf16Be,
    Utf16,
}

const NAMES: &[(&str, Charset)] = &[
    ("UTF-8", Charset::Utf8),
    ("UTF8", Charset::Utf8),
    ("ISO-8859-1", Charset::Latin1),
    ("ISO8859-1", Charset::Latin1),
    ("ISO_8859-1", Charset::Latin1),
    ("LATIN1", Charset::Latin1),
    ("L1", Charset::Latin1),
    ("CP819", Charset::Latin1),
    ("ASCII", Charset::Ascii),
    ("US-ASCII", Charset::Ascii),
    ("ANSI_X3.4-1968", Charset::Ascii),
    ("UTF-16LE", Charset::Utf16Le),
    ("UTF16LE", Charset::Utf16Le),
    ("UTF-16BE", Charset::Utf16Be),
    ("UTF16BE", Charset::Utf16Be),
    ("UTF-16", Charset::Utf16),
    ("UTF16", Charset::Utf16),
];

/// A charset name with its `//TRANSLIT` / `//IGNORE` suffixes.
fn charset(spec: &str) -> Option<(Charset, bool, bool)> {
    let mut parts = spec.split("//");
    let name = parts.next().unwrap_or("").to_ascii_uppercase();
    let (mut translit, mut ignore) = (false, false);
    for suffix in parts {
        for word in suffix.split(',') {
            match word.to_ascii_uppercase().as_str() {
                "TRANSLIT" => translit = true,
                "IGNORE" => ignore = true,
                _ => {}
            }
        }
    }
    let name = if name.is_empty() { "UTF-8".to_string() } else { name };
    NAMES.iter().find(|(n, _)| *n == name).map(|(_, c)| (*c, translit, ignore))
}

enum Decoded {
    Char(char, usize),
    Invalid(usize),
    Incomplete,
}

fn decode(data: &[u8], from: Charset) -> Vec<Decoded> {
    let mut out = Vec::new();
    match from {
        Charset::Utf8 => {
            let mut i = 0;
            while i < data.len() {
                let len = match data[i] {
                    0x00..=0x7f => 1,
                    0xc2..=0xdf => 2,
                    0xe0..=0xef => 3,
                    0xf0..=0xf4 => 4,
                    _ => 0,
                };
                if len == 0 {
                    out.push(Decoded::Invalid(i));
                    return out;
                }
                if i + len > data.len() {
                    if std::str::from_utf8(&data[i..]).is_err() && data[i + 1..].iter().all(|b| (0x80..0xc0).contains(b)) {
                        out.push(Decoded::Incomplete);
                    } else {
                        out.push(Decoded::Invalid(i));
                    }
                    return out;
                }
                match std::str::from_utf8(&data[i..i + len]).ok().and_then(|s| s.chars().next()) {
                    Some(c) => out.push(Decoded::Char(c, i)),
                    None => {
                        out.push(Decoded::Invalid(i));
                        return out;
                    }
                }
                i += len;
            }
        }
        Charset::Latin1 => out.extend(data.iter().enumerate().map(|(i, &b)| Decoded::Char(char::from(b), i))),
        Charset::Ascii => {
            for (i, &b) in data.iter().enumerate() {
                if b >= 0x80 {
                    out.push(Decoded::Invalid(i));
                    return out;
                }
                out.push(Decoded::Char(char::from(b), i));
            }
        }
        Charset::Utf16Le | Charset::Utf16Be | Charset::Utf16 => {
            let mut big = from == Charset::Utf16Be;
            let mut start = 0;
            if from == Charset::Utf16 && data.len() >= 2 {
                match (data[0], data[1]) {
                    (0xff, 0xfe) => start = 2,
                    (0xfe, 0xff) => {
                        start = 2;
                        big = true;
                    }
                    _ => {}
                }
            }
            let unit = |i: usize| -> u16 {
                let pair = [data[i], data[i + 1]];
                if big {
                    u16::from_be_bytes(pair)
                } else {
                    u16::from_le_bytes(pair)
                }
            };
            let mut i = start;
            while i < data.len() {
                if i + 2 > data.len() {
                    out.push(Decoded::Incomplete);
                    return out;
                }
                let first = unit(i);
                if (0xd800..0xdc00).contains(&first) {
                    if i + 4 > data.len() {
                        out.push(Decoded::Incomplete);
                        return out;
                    }
                    let second = unit(i + 2);
                    match char::decode_utf16([first, second]).next() {
                        Some(Ok(c)) => out.push(Decoded::Char(c, i)),
                        _ => {
                            out.push(Decoded::Invalid(i));
                            return out;
                        }
                    }
                    i += 4;
                    continue;
                }
                match char::from_u32(u32::from(first)) {
                    Some(c) => out.push(Decoded::Char(c, i)),
                    None => {
                        out.push(Decoded::Invalid(i));
                        return out;
                    }
                }
                i += 2;
            }
        }
    }
    out
}

/// An ASCII look-alike for `c` (glibc's C.UTF-8 transliteration for the
/// common cases), `None` for none.
fn transliterate(c: char) -> Option<&'static str> {
    Some(match c {
        'À'..='Å' => "A",
        'à'..='å' => "a",
        'Ç' => "C",
        'ç' => "c",
        'È'..='Ë' => "E",
        'è'..='ë' => "e",
        'Ì'..='Ï' => "I",
        'ì'..='ï' => "i",
        'Ñ' => "N",
        'ñ' => "n",
        'Ò'..='Ö' | 'Ø' => "O",
        'ò'..='ö' | 'ø' => "o",
        'Ù'..='Ü' => "U",
        'ù'..='ü' => "u",
        'Ý' => "Y",
        'ý' | 'ÿ' => "y",
        'ß' => "ss",
        'Æ' => "AE",
        'æ' => "ae",
        'Œ' => "OE",
        'œ' => "oe",
        '€' => "EUR",
        '©' => "(C)",
        '®' => "(R)",
        '‘' | '’' | '‚' | '′' => "'",
        '“' | '”' | '„' | '″' => "\"",
        '–' | '—' | '‐' | '‑' | '−' => "-",
        '…' => "...",
        '«' => "<<",
        '»' => ">>",
        '×' => "x",
        '\u{a0}' => " ",
        '•' => "o",
        _ => return None,
    })
}

fn encode(c: char, to: Charset, out: &mut Vec<u8>) -> bool {
    match to {
        Charset::Utf8 => {
            let mut buf = [0u8; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        }
        Charset::Latin1 | Charset::Ascii => {
            let limit = if to == Charset::Ascii { 0x80 } else { 0x100 };
            if (c as u32) >= limit {
                return false;
            }
            out.push(c as u8);
        }
        Charset::Utf16Le | Charset::Utf16 | Charset::Utf16Be => {
            let mut buf = [0u16; 2];
            for unit in c.encode_utf16(&mut buf) {
                if to == Charset::Utf16Be {
                    out.extend_from_slice(&unit.to_be_bytes());
                } else {
                    out.extend_from_slice(&unit.to_le_bytes());
                }
            }
        }
    }
    true
}

/// Runs `iconv [-c] [-s] [-f FROM] [-t TO] [-o FILE] [FILE]...` and `iconv -l`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let parsed = match parse_or_report(ctx, &SPEC, 1).await {
            Ok(parsed) => parsed,
            Err(status) => return status,
        };
        if parsed.has("l") {
            let list: String = NAMES.iter().map(|(name, _)| format!("{name}//\n")).collect();
            return match ctx.write_out(list.as_bytes()).await {
                Ok(()) => 0,
                Err(error) => ctx.write_failed(error).await,
            };
        }
        let from = charset(parsed.value("f").unwrap_or("UTF-8"));
        let to = charset(parsed.value("t").unwrap_or("UTF-8"));
        let (Some((from, _, _)), Some((to, translit, ignore))) = (from, to) else {
            ctx.report("failed to start conversion processing: No such file or directory").await;
            return 1;
        };
        let skip = ignore || parsed.has("c");
        let inputs: Vec<Input> = if parsed.operands.is_empty() {
            vec![Input::Stdin]
        } else {
            parsed.operands.iter().map(|n| if n == "-" { Input::Stdin } else { Input::File(n.clone()) }).collect()
        };
        let mut out = Vec::new();
        let mut status = 0;
        if to == Charset::Utf16 {
            out.extend_from_slice(&[0xff, 0xfe]);
        }
        'files: for input in &inputs {
            let data = match open_input(ctx, input).await {
                Ok(stream) => read_all(&stream).await.unwrap_or_default(),
                Err(error) => {
                    if let Input::File(name) = input {
                        ctx.report(&format!("cannot open input file `{name}': {error}")).await;
                    }
                    status = 1;
                    continue;
                }
            };
            let mut dropped = false;
            for item in decode(&data, from) {
                match item {
                    Decoded::Char(c, at) => {
                        if encode(c, to, &mut out) {
                            continue;
                        }
                        if translit {
                            match transliterate(c) {
                                Some(text) => out.extend_from_slice(text.as_bytes()),
                                None => out.push(b'?'),
                            }
                        } else if skip {
                            dropped = true;
                        } else {
                            let _ = ctx.write_out(&out).await;
                            ctx.report(&format!("illegal input sequence at position {at}")).await;
                            return 1;
                        }
                    }
                    Decoded::Invalid(at) => {
                        let _ = ctx.write_out(&out).await;
                        ctx.report(&format!("illegal input sequence at position {at}")).await;
                        return 1;
                    }
                    Decoded::Incomplete => {
                        let _ = ctx.write_out(&out).await;
                        out.clear();
                        ctx.report("incomplete character or shift sequence at end of buffer").await;
                        status = 1;
                        continue 'files;
                    }
                }
            }
            if dropped && ignore && !parsed.has("c") {
                let _ = ctx.write_out(&out).await;
                out.clear();
                ctx.report(&format!("illegal input sequence at position {}", data.len())).await;
                status = 1;
            }
        }
        let sink = match parsed.value("o") {
            Some(name) => match crate::commands::text::input::open_output(ctx, name, false).await {
                Ok(sink) => sink,
                Err(error) => {
                    ctx.report(&format!("cannot open output file: {error}")).await;
                    return 1;
                }
            },
            None => ctx.stdout.clone(),
        };
        if let Err(error) = sink.write(&out).await {
            return ctx.write_failed(error).await;
        }
        status
    })
}
