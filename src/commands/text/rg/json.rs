//! `--json`: ripgrep's JSON Lines messages: `begin`, `match`, `context` and
//! `end` for each file with a match, and a closing `summary`. Text that is
//! not UTF-8 is given as `{"bytes": BASE64}`. The sandbox has no clock for
//! commands, so every `elapsed` is zero.

use super::matcher::MatchError;
use super::scan::{try_scan, Event, Flow, Line, ScanOptions};
use super::search::{matches_in, Outcome, Printer};
use super::Config;
use base64::Engine as _;

/// The totals for the `summary` message.
#[derive(Default, Clone, Copy)]
pub struct JsonPrinter {
    stats: Stats,
}

#[derive(Default, Clone, Copy)]
struct Stats {
    searches: u64,
    searches_with_match: u64,
    bytes_searched: u64,
    bytes_printed: u64,
    matched_lines: u64,
    matches: u64,
}

const ZERO_ELAPSED: &str = r#"{"secs":0,"nanos":0,"human":"0.000000s"}"#;

/// Searches one buffer and appends its messages.
pub fn search(config: &Config, printer: &mut Printer, shown: &str, buffer: &[u8], nul: Option<usize>) -> Result<Outcome, MatchError> {
    let options = ScanOptions { invert: config.invert, after: config.after, before: config.before, max_count: config.max_count };
    let path = data(shown.as_bytes());
    let mut file = Stats { searches: 1, bytes_searched: buffer.len() as u64, ..Stats::default() };
    let mut messages = Vec::new();
    let selected = try_scan(buffer, &config.matcher, &options, &mut |event| {
        let (kind, line, submatches) = match event {
            Event::Break => return Ok(Flow::Continue),
            Event::Context(line) => ("context", line, Vec::new()),
            Event::Selected(line) => {
                let found = if config.invert { Vec::new() } else { matches_in(&config.matcher, line.text)? };
                file.matched_lines += 1;
                file.matches += found.len() as u64;
                ("match", line, found)
            }
        };
        messages.push(line_message(kind, &path, &line, &submatches));
        Ok(Flow::Continue)
    })?;
    if selected > 0 {
        file.searches_with_match = 1;
        let begin = format!("{{\"type\":\"begin\",\"data\":{{\"path\":{path}}}}}\n");
        let printed = begin.len() as u64 + messages.iter().map(|m| m.len() as u64).sum::<u64>();
        printer.out.extend_from_slice(begin.as_bytes());
        for message in &messages {
            printer.out.extend_from_slice(message.as_bytes());
        }
        let binary = nul.map_or("null".to_string(), |offset| offset.to_string());
        let end = format!(
            "{{\"type\":\"end\",\"data\":{{\"path\":{path},\"binary_offset\":{binary},\"stats\":{{\"elapsed\":{ZERO_ELAPSED},\"searches\":1,\"searches_with_match\":1,\"bytes_searched\":{},\"bytes_printed\":{printed},\"matched_lines\":{},\"matches\":{}}}}}}}\n",
            file.bytes_searched, file.matched_lines, file.matches
        );
        file.bytes_printed = printed;
        printer.out.extend_from_slice(end.as_bytes());
    }
    let total = &mut printer.json.stats;
    total.searches += file.searches;
    total.searches_with_match += file.searches_with_match;
    total.bytes_searched += file.bytes_searched;
    total.bytes_printed += file.bytes_printed;
    total.matched_lines += file.matched_lines;
    total.matches += file.matches;
    Ok(Outcome { matched: selected > 0 })
}

/// The closing `summary` message.
pub fn summary(printer: &Printer) -> String {
    let s = printer.json.stats;
    format!(
        "{{\"data\":{{\"elapsed_total\":{{\"human\":\"0.000000s\",\"nanos\":0,\"secs\":0}},\"stats\":{{\"bytes_printed\":{},\"bytes_searched\":{},\"elapsed\":{{\"human\":\"0.000000s\",\"nanos\":0,\"secs\":0}},\"matched_lines\":{},\"matches\":{},\"searches\":{},\"searches_with_match\":{}}}}},\"type\":\"summary\"}}\n",
        s.bytes_printed, s.bytes_searched, s.matched_lines, s.matches, s.searches, s.searches_with_match
    )
}

fn line_message(kind: &str, path: &str, line: &Line<'_>, submatches: &[(usize, usize)]) -> String {
    let parts: Vec<String> = submatches
        .iter()
        .map(|(start, end)| format!("{{\"match\":{},\"start\":{start},\"end\":{end}}}", data(line.text.get(*start..*end).unwrap_or(&[]))))
        .collect();
    format!(
        "{{\"type\":\"{kind}\",\"data\":{{\"path\":{path},\"lines\":{},\"line_number\":{},\"absolute_offset\":{},\"submatches\":[{}]}}}}\n",
        data(line.raw),
        line.number,
        line.offset,
        parts.join(",")
    )
}

/// `{"text":"..."}` for UTF-8, `{"bytes":"BASE64"}` otherwise.
fn data(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(text) => format!("{{\"text\":{}}}", quote(text)),
        Err(_) => format!("{{\"bytes\":\"{}\"}}", base64::engine::general_purpose::STANDARD.encode(bytes)),
    }
}

/// A JSON string as serde_json writes it.
fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
