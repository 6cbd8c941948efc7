//! The `@format` string filters (`@csv`, `@sh`, `@base64d`...).

use super::eval::{err, Flow};
use super::funcs::tostring;
use super::json::{dump, dump_short, to_json, Style};
use super::value::Value;
use base64::Engine;

fn text(v: &Value) -> String {
    match &tostring(v) {
        Value::Str(s) => s.to_string(),
        _ => String::new(),
    }
}

/// Appends `s` to `out`, each character `escape` names replaced by its text.
fn push_escaped(out: &mut String, s: &str, escape: impl Fn(char) -> Option<&'static str>) {
    let mut plain_from = 0;
    for (i, c) in s.char_indices() {
        if let Some(replacement) = escape(c) {
            out.push_str(s.get(plain_from..i).unwrap_or(""));
            out.push_str(replacement);
            plain_from = i + c.len_utf8();
        }
    }
    out.push_str(s.get(plain_from..).unwrap_or(""));
}

/// Applies format `name` to `v`.
pub fn apply(name: &str, v: &Value) -> Result<Value, Flow> {
    Ok(Value::str(&match name {
        "text" => text(v),
        "json" => to_json(v),
        "html" => {
            let mut out = String::new();
            for c in text(v).chars() {
                match c {
                    '<' => out.push_str("&lt;"),
                    '>' => out.push_str("&gt;"),
                    '&' => out.push_str("&amp;"),
                    '\'' => out.push_str("&#39;"),
                    '"' => out.push_str("&quot;"),
                    c => out.push(c),
                }
            }
            out
        }
        "uri" => {
            let mut out = String::new();
            for b in text(v).bytes() {
                if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
                    out.push(b as char);
                } else {
                    out.push_str(&format!("%{b:02X}"));
                }
            }
            out
        }
        "urid" => {
            let t = text(v);
            let bytes = t.as_bytes();
            let mut out = Vec::new();
            let mut i = 0;
            while let Some(&b) = bytes.get(i) {
                if b == b'%' {
                    let hex =
                        bytes.get(i + 1..i + 3).and_then(|h| std::str::from_utf8(h).ok()).and_then(|h| u8::from_str_radix(h, 16).ok());
                    match hex {
                        Some(x) => {
                            out.push(x);
                            i += 3;
                            continue;
                        }
                        None => return Err(err(format!("{} ({}) is not a valid uri encoding", v.kind(), dump_short(v)))),
                    }
                }
                out.push(b);
                i += 1;
            }
            match String::from_utf8(out) {
                Ok(s) => s,
                Err(_) => return Err(err(format!("{} ({}) is not a valid uri encoding", v.kind(), dump_short(v)))),
            }
        }
        "csv" | "tsv" => {
            let Value::Arr(items) = v else {
                return Err(err(format!("{} ({}) cannot be {}-formatted, only array", v.kind(), dump_short(v), name)));
            };
            let csv = name == "csv";
            let mut out = String::new();
            for (i, x) in items.iter().enumerate() {
                if i > 0 {
                    out.push(if csv { ',' } else { '\t' });
                }
                match x {
                    Value::Num(..) => dump(x, &Style::COMPACT, 0, &mut out),
                    Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
                    Value::Null => {}
                    Value::Str(s) if csv => {
                        out.push('"');
                        push_escaped(&mut out, s, |c| (c == '"').then_some("\"\""));
                        out.push('"');
                    }
                    Value::Str(s) => push_escaped(&mut out, s, |c| match c {
                        '\\' => Some("\\\\"),
                        '\t' => Some("\\t"),
                        '\n' => Some("\\n"),
                        '\r' => Some("\\r"),
                        _ => None,
                    }),
                    other => {
                        return Err(err(format!("{} ({}) is not valid in a csv row", other.kind(), dump_short(other))));
                    }
                }
            }
            out
        }
        "sh" => {
            let quote = |x: &Value| -> Result<String, Flow> {
                Ok(match x {
                    Value::Str(s) => format!("'{}'", s.replace('\'', "'\\''")),
                    Value::Arr(_) | Value::Obj(_) => {
                        return Err(err(format!("{} ({}) can not be escaped for shell", x.kind(), dump_short(x))));
                    }
                    other => to_json(other),
                })
            };
            match v {
                Value::Arr(items) => items.iter().map(quote).collect::<Result<Vec<_>, _>>()?.join(" "),
                other => quote(other)?,
            }
        }
        "base64" => base64::engine::general_purpose::STANDARD.encode(text(v).as_bytes()),
        "base64d" => {
            let t = text(v);
            let body = t.trim_end_matches('=');
            if !body.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/') {
                let s = Value::str(&t);
                return Err(err(format!("{} ({}) is not valid base64 data", s.kind(), dump_short(&s))));
            }
            if body.len() % 4 == 1 {
                let s = Value::str(&t);
                return Err(err(format!("{} ({}) trailing base64 byte found", s.kind(), dump_short(&s))));
            }
            let trimmed = t.trim_end_matches('=');
            let engine = base64::engine::general_purpose::STANDARD_NO_PAD;
            match engine.decode(trimmed.as_bytes()) {
                Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
                Err(_) => {
                    // Decode what decodes, as jq does with trailing garbage.
                    let usable = trimmed.len() / 4 * 4;
                    match engine.decode(trimmed.get(..usable).unwrap_or("").as_bytes()) {
                        Ok(bytes) if usable > 0 => String::from_utf8_lossy(&bytes).into_owned(),
                        _ => {
                            let s = Value::str(&t);
                            return Err(err(format!("{} ({}) is not valid base64 data", s.kind(), dump_short(&s))));
                        }
                    }
                }
            }
        }
        "base32" => base32(text(v).as_bytes()),
        "base32d" => base32_decode(&text(v)),
        _ => return Err(err(format!("{name} is not a valid format"))),
    }))
}

const B32: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

fn base32(data: &[u8]) -> String {
    let mut out = String::new();
    for chunk in data.chunks(5) {
        let mut buf = [0u8; 5];
        for (i, b) in chunk.iter().enumerate() {
            if let Some(slot) = buf.get_mut(i) {
                *slot = *b;
            }
        }
        let n = buf.iter().fold(0u64, |acc, b| (acc << 8) | u64::from(*b));
        let chars = (chunk.len() * 8).div_ceil(5);
        for i in 0..8 {
            if i < chars {
                let idx = ((n >> (35 - i * 5)) & 31) as usize;
                out.push(B32.get(idx).map(|b| *b as char).unwrap_or('='));
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn base32_decode(text: &str) -> String {
    let mut bits = 0u64;
    let mut count = 0;
    let mut out = Vec::new();
    for c in text.bytes() {
        let Some(v) = B32.iter().position(|b| *b == c) else { continue };
        bits = (bits << 5) | v as u64;
        count += 5;
        if count >= 8 {
            count -= 8;
            out.push(((bits >> count) & 0xff) as u8);
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}
