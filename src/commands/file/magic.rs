//! Recognizing common file types by their first bytes, as `file` does:
//! images, archives, documents, executables, scripts and text encodings.

/// A description and MIME type for some contents.
pub struct Kind {
    /// What `file` prints (`PNG image data, 100 x 50, ...`).
    pub description: String,
    /// The MIME type (`image/png`).
    pub mime: &'static str,
    /// The charset `file -i` adds (`binary`, `us-ascii`, `utf-8`).
    pub charset: &'static str,
}

fn kind(description: impl Into<String>, mime: &'static str) -> Kind {
    Kind { description: description.into(), mime, charset: "binary" }
}

fn be32(data: &[u8], at: usize) -> Option<u32> {
    let bytes: [u8; 4] = data.get(at..at + 4)?.try_into().ok()?;
    Some(u32::from_be_bytes(bytes))
}

fn le16(data: &[u8], at: usize) -> Option<u16> {
    let bytes: [u8; 2] = data.get(at..at + 2)?.try_into().ok()?;
    Some(u16::from_le_bytes(bytes))
}

fn png(data: &[u8]) -> Kind {
    let (width, height) = (be32(data, 16).unwrap_or(0), be32(data, 20).unwrap_or(0));
    let depth = data.get(24).copied().unwrap_or(8);
    let color = match data.get(25) {
        Some(0) => "grayscale",
        Some(2) => "RGB",
        Some(3) => "colormap",
        Some(4) => "gray+alpha",
        _ => "RGBA",
    };
    let interlace = if data.get(28) == Some(&1) { "interlaced" } else { "non-interlaced" };
    kind(format!("PNG image data, {width} x {height}, {depth}-bit/color {color}, {interlace}"), "image/png")
}

/// Recognizes binary formats by magic numbers.
fn binary_kind(data: &[u8]) -> Option<Kind> {
    if data.starts_with(b"\x89PNG\r\n\x1a\n") {
        return Some(png(data));
    }
    if data.starts_with(b"GIF87a") || data.starts_with(b"GIF89a") {
        let version = String::from_utf8_lossy(data.get(3..6).unwrap_or(b""));
        let (w, h) = (le16(data, 6).unwrap_or(0), le16(data, 8).unwrap_or(0));
        return Some(kind(format!("GIF image data, version {version}, {w} x {h}"), "image/gif"));
    }
    if data.starts_with(b"\xff\xd8\xff") {
        return Some(kind("JPEG image data", "image/jpeg"));
    }
    if data.starts_with(b"%PDF-") {
        let version: String =
            data.get(5..).unwrap_or(b"").iter().take_while(|b| b.is_ascii_digit() || **b == b'.').map(|&b| b as char).collect();
        return Some(kind(format!("PDF document, version {version}"), "application/pdf"));
    }
    if data.starts_with(b"\x1f\x8b") {
        return Some(kind("gzip compressed data", "application/gzip"));
    }
    if data.starts_with(b"PK\x03\x04") {
        // As file(1): the version needed to extract and the first member's method.
        let version = data.get(4).copied().unwrap_or(10);
        let method = match data.get(8..10) {
            Some([0, 0]) => "store".to_string(),
            Some([8, 0]) => "deflate".to_string(),
            Some([low, high]) => u16::from_le_bytes([*low, *high]).to_string(),
            _ => "store".to_string(),
        };
        let description = format!("Zip archive data, at least v{}.{} to extract, compression method={method}", version / 10, version % 10);
        return Some(kind(description, "application/zip"));
    }
    if data.starts_with(b"PK\x05\x06") {
        return Some(kind("Zip archive data (empty)", "application/zip"));
    }
    if data.get(257..262) == Some(b"ustar") {
        let gnu = data.get(262..265) == Some(b"  \0");
        return Some(kind(if gnu { "POSIX tar archive (GNU)" } else { "POSIX tar archive" }, "application/x-tar"));
    }
    if data.starts_with(b"\x7fELF") {
        let bits = if data.get(4) == Some(&2) { "64-bit" } else { "32-bit" };
        let endian = if data.get(5) == Some(&2) { "MSB" } else { "LSB" };
        return Some(kind(format!("ELF {bits} {endian} executable"), "application/x-executable"));
    }
    if data.starts_with(b"BZh") {
        return Some(kind("bzip2 compressed data", "application/x-bzip2"));
    }
    if data.starts_with(b"\xfd7zXZ\0") {
        return Some(kind("XZ compressed data", "application/x-xz"));
    }
    if data.starts_with(b"\x28\xb5\x2f\xfd") {
        return Some(kind("Zstandard compressed data", "application/zstd"));
    }
    if data.starts_with(b"7z\xbc\xaf\x27\x1c") {
        return Some(kind("7-zip archive data", "application/x-7z-compressed"));
    }
    if data.starts_with(b"SQLite format 3\0") {
        return Some(kind("SQLite 3.x database", "application/vnd.sqlite3"));
    }
    if data.starts_with(b"\0asm") {
        return Some(kind("WebAssembly (wasm) binary module", "application/wasm"));
    }
    if data.starts_with(b"RIFF") && data.get(8..12) == Some(b"WEBP") {
        return Some(kind("RIFF (little-endian) data, Web/P image", "image/webp"));
    }
    if data.starts_with(b"BM") && data.len() > 14 {
        return Some(kind("PC bitmap", "image/bmp"));
    }
    None
}

/// The interpreter a `#!` line names (`bash`, `python3`).
fn interpreter(first_line: &str) -> Option<String> {
    let rest = first_line.strip_prefix("#!")?.trim();
    let mut words = rest.split_whitespace();
    let program = words.next()?;
    let base = program.rsplit('/').next().unwrap_or(program);
    if base == "env" {
        return words.find(|w| !w.starts_with('-')).map(str::to_string);
    }
    Some(base.to_string())
}

/// Describes some contents (the first few KiB of a file).
pub fn identify(data: &[u8]) -> Kind {
    if data.is_empty() {
        return Kind { description: "empty".into(), mime: "inode/x-empty", charset: "binary" };
    }
    if let Some(found) = binary_kind(data) {
        return found;
    }
    let text = match std::str::from_utf8(data) {
        Ok(text) => text,
        // A multi-byte character cut at the end of the sample is still text.
        Err(error) if error.error_len().is_none() && error.valid_up_to() + 4 > data.len() => {
            std::str::from_utf8(data.get(..error.valid_up_to()).unwrap_or(b"")).unwrap_or("")
        }
        Err(_) => return kind("data", "application/octet-stream"),
    };
    if text.chars().any(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t' | '\x0c' | '\x1b' | '\x08')) {
        return kind("data", "application/octet-stream");
    }
    let ascii = text.is_ascii();
    let encoding = if ascii { "ASCII text" } else { "Unicode text, UTF-8 text" };
    let charset = if ascii { "us-ascii" } else { "utf-8" };
    let mut suffixes = String::new();
    if text.contains("\r\n") {
        suffixes.push_str(", with CRLF line terminators");
    } else if text.contains('\r') && !text.contains('\n') {
        suffixes.push_str(", with CR line terminators");
    }
    if !text.contains('\n') && !text.contains('\r') {
        suffixes.push_str(", with no line terminators");
    }
    let first_line = text.lines().next().unwrap_or("");
    let trimmed = text.trim_start();
    let (label, mime): (Option<String>, &'static str) = if let Some(program) = interpreter(first_line) {
        let name = match program.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.') {
            "bash" => "Bourne-Again shell script".to_string(),
            "sh" | "dash" => "POSIX shell script".to_string(),
            "python" => "Python script".to_string(),
            "perl" => "Perl script".to_string(),
            "node" | "nodejs" => "Node.js script".to_string(),
            "ruby" => "Ruby script".to_string(),
            "zsh" => "Paul Falstad's zsh script".to_string(),
            other => format!("{other} script"),
        };
        let mime = match program.as_str() {
            p if p.starts_with("python") => "text/x-script.python",
            "bash" | "sh" | "dash" | "zsh" => "text/x-shellscript",
            _ => "text/plain",
        };
        (Some(format!("{name}, {encoding} executable")), mime)
    } else if trimmed.starts_with("<?xml") {
        (Some(format!("XML 1.0 document, {encoding}")), "text/xml")
    } else if trimmed.get(..15).is_some_and(|s| s.eq_ignore_ascii_case("<!doctype html>"))
        || trimmed.get(..5).is_some_and(|s| s.eq_ignore_ascii_case("<html"))
    {
        (Some(format!("HTML document, {encoding}")), "text/html")
    } else if looks_like_json(trimmed) {
        (Some("JSON text data".to_string()), "application/json")
    } else {
        (None, "text/plain")
    };
    let description = match label {
        Some(label) => format!("{label}{suffixes}"),
        None => format!("{encoding}{suffixes}"),
    };
    Kind { description, mime, charset }
}

/// A cheap structural check: starts with `{` or `[` and ends with the match.
fn looks_like_json(text: &str) -> bool {
    let end = text.trim_end();
    (text.starts_with('{') && end.ends_with('}'))
        || (text.starts_with('[') && end.ends_with(']') && end.len() > 1 && text.contains(['"', '0', '1', '{']))
}

#[cfg(test)]
mod tests {
    use super::identify;

    #[test]
    fn recognizes() {
        let cases: &[(&[u8], &str)] = &[
            (b"", "empty"),
            (b"hello\n", "ASCII text"),
            (b"h\xc3\xa9\n", "Unicode text, UTF-8 text"),
            (b"a\r\nb\r\n", "ASCII text, with CRLF line terminators"),
            (b"#!/bin/bash\necho\n", "Bourne-Again shell script, ASCII text executable"),
            (b"#!/bin/sh\necho\n", "POSIX shell script, ASCII text executable"),
            (b"#!/usr/bin/env python3\nprint(1)\n", "Python script, ASCII text executable"),
            (b"{\"a\": 1}\n", "JSON text data"),
            (b"<?xml version=\"1.0\"?>\n<a/>\n", "XML 1.0 document, ASCII text"),
            (b"<!DOCTYPE html>\n<html></html>\n", "HTML document, ASCII text"),
            (b"\x00\x01\x02", "data"),
            (b"%PDF-1.4\n", "PDF document, version 1.4"),
            (b"GIF89a\x01\x00\x01\x00\x00\x00\x00", "GIF image data, version 89a, 1 x 1"),
            (
                b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x64\x00\x00\x00\x32\x08\x06\x00\x00\x00",
                "PNG image data, 100 x 50, 8-bit/color RGBA, non-interlaced",
            ),
            (b"abc", "ASCII text, with no line terminators"),
        ];
        for (data, expected) in cases {
            assert_eq!(identify(data).description, *expected);
        }
    }
}
