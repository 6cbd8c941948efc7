//! Check mode (`md5sum -c`): reads lines of digests and file names, checks
//! each file, and reports as GNU does (`a.txt: OK`, `b: FAILED`, warnings).

use super::digest::Algorithm;
use super::source::{open_operand, quote_name, read_operand};
use crate::utility::{write_failure_status, Invocation};

/// The check-mode switches.
#[derive(Debug, Clone, Copy, Default)]
pub struct CheckOptions {
    /// `--ignore-missing`: skip listed files that do not exist.
    pub ignore_missing: bool,
    /// `--quiet`: do not print `OK` lines.
    pub quiet: bool,
    /// `--status`: print nothing; the status tells.
    pub status_only: bool,
    /// `--strict`: fail on improperly formatted lines.
    pub strict: bool,
    /// `-w`: warn about each improperly formatted line.
    pub warn: bool,
}

/// One parsed check line: the expected digest and the file name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckLine {
    /// Expected digest, lowercase hex.
    pub hex: String,
    /// The file to check.
    pub name: String,
}

/// Parses a check line in GNU (`HEX  NAME`, `HEX *NAME`, `HEX NAME`) or BSD
/// (`ALG (NAME) = HEX`) form; a leading `\` means the name is escaped.
pub fn parse_line(algorithm: Algorithm, line: &str) -> Option<CheckLine> {
    let line = line.strip_suffix('\r').unwrap_or(line);
    let line = line.trim_start_matches([' ', '\t']);
    let (escaped, line) = match line.strip_prefix('\\') {
        Some(rest) => (true, rest),
        None => (false, line),
    };
    let tag_prefix = format!("{} (", algorithm.tag());
    let (hex, name) = if let Some(rest) = line.strip_prefix(&tag_prefix) {
        let (name, hex) = rest.rsplit_once(") = ")?;
        (hex, name)
    } else {
        let hex = line.get(..algorithm.hex_len())?;
        let rest = line.get(algorithm.hex_len()..)?;
        let rest = rest.strip_prefix(' ')?;
        let name = rest.strip_prefix(' ').or_else(|| rest.strip_prefix('*')).unwrap_or(rest);
        (hex, name)
    };
    if hex.len() != algorithm.hex_len() || !hex.bytes().all(|b| b.is_ascii_hexdigit()) || name.is_empty() {
        return None;
    }
    let name = if escaped { unescape(name)? } else { name.to_string() };
    Some(CheckLine { hex: hex.to_ascii_lowercase(), name })
}

fn unescape(name: &str) -> Option<String> {
    let mut out = String::with_capacity(name.len());
    let mut chars = name.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next()? {
            '\\' => out.push('\\'),
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            _ => return None,
        }
    }
    Some(out)
}

fn plural(count: usize, one: &str, many: &str) -> String {
    if count == 1 {
        format!("WARNING: 1 {one}")
    } else {
        format!("WARNING: {count} {many}")
    }
}

/// Checks every line of the checksum file `operand`. `Ok(true)` when all
/// listed files matched; `Err(status)` when standard output failed.
pub async fn check_file(ctx: &Invocation<'_>, algorithm: Algorithm, operand: &str, options: &CheckOptions) -> Result<bool, i32> {
    let shown = if operand == "-" { "'standard input'".to_string() } else { quote_name(operand) };
    let text = match read_operand(ctx, operand).await {
        Ok(text) => text,
        Err(error) => {
            ctx.report(&format!("{}: {error}", quote_name(operand))).await;
            return Ok(false);
        }
    };
    let (mut bad_lines, mut unreadable, mut mismatched, mut verified, mut properly) = (0, 0, 0, 0, 0);
    let mut lines: Vec<&[u8]> = text.split(|&b| b == b'\n').collect();
    if lines.last().is_some_and(|last| last.is_empty()) {
        lines.pop();
    }
    for (number, raw) in lines.into_iter().enumerate() {
        let line = String::from_utf8_lossy(raw);
        let Some(entry) = parse_line(algorithm, &line) else {
            bad_lines += 1;
            if options.warn {
                ctx.report(&format!("{shown}: {}: improperly formatted {} checksum line", number + 1, algorithm.tag())).await;
            }
            continue;
        };
        properly += 1;
        let digest = match open_operand(ctx, &entry.name).await {
            Ok(stream) => algorithm.digest_stream(&stream).await.map_err(super::source::ReadError::Io),
            Err(error) => Err(error),
        };
        let verdict = match digest {
            Ok(hex) if hex == entry.hex => {
                verified += 1;
                "OK"
            }
            Ok(_) => {
                verified += 1;
                mismatched += 1;
                "FAILED"
            }
            Err(super::source::ReadError::Fs(crate::fs::FsError::NotFound)) if options.ignore_missing => continue,
            Err(error) => {
                ctx.report(&format!("{}: {error}", quote_name(&entry.name))).await;
                unreadable += 1;
                "FAILED open or read"
            }
        };
        let quiet_ok = verdict == "OK" && options.quiet;
        if !options.status_only && !quiet_ok {
            let line = format!("{}: {verdict}\n", entry.name);
            ctx.write_out(line.as_bytes()).await.map_err(write_failure_status)?;
        }
    }
    if properly == 0 {
        ctx.report(&format!("{shown}: no properly formatted checksum lines found")).await;
        return Ok(false);
    }
    if !options.status_only {
        if bad_lines > 0 {
            ctx.report(&plural(bad_lines, "line is improperly formatted", "lines are improperly formatted")).await;
        }
        if unreadable > 0 {
            ctx.report(&plural(unreadable, "listed file could not be read", "listed files could not be read")).await;
        }
        if mismatched > 0 {
            ctx.report(&plural(mismatched, "computed checksum did NOT match", "computed checksums did NOT match")).await;
        }
    }
    if options.ignore_missing && verified == 0 && unreadable == 0 {
        ctx.report(&format!("{shown}: no file was verified")).await;
        return Ok(false);
    }
    Ok(mismatched == 0 && unreadable == 0 && !(options.strict && bad_lines > 0))
}
