//! Searching one file's bytes and printing the results in ripgrep's
//! standard (non-terminal) format: `path:line:text`, `-` for context lines,
//! `--` between context groups, `--heading` blocks, `-o`, `-c`, `-l`,
//! `--files-without-match`, `--vimgrep`, and the binary-file rules.

use super::json::JsonPrinter;
use super::matcher::{MatchError, Matcher};
use super::scan::{scan, try_scan, Event, Flow, Line, ScanOptions};
use super::Config;

/// What was printed so far across files (for the separators between them).
#[derive(Default)]
pub struct Printer {
    /// Output not yet written.
    pub out: Vec<u8>,
    /// Some context group was printed (the next file's starts with `--`).
    printed_group: bool,
    /// Some file's heading was printed (the next one starts with a blank line).
    printed_heading: bool,
    /// The JSON printer's totals, with `--json`.
    pub json: JsonPrinter,
}

/// How a file's search ended.
pub struct Outcome {
    /// Some line was selected (or, with `--files-without-match`, the file was listed).
    pub matched: bool,
}

/// How a file was reached, which decides what a NUL byte does.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// Named on the command line or standard input: searched, and a match
    /// is reported as `binary file matches`.
    Explicit,
    /// Found by walking a directory: skipped when it holds a NUL byte
    /// (unless `--binary`).
    Walked,
}

/// Searches `buffer` (the contents of `shown`) and appends what to print.
pub fn search_buffer(config: &Config, printer: &mut Printer, shown: &str, buffer: &[u8], origin: Origin) -> Result<Outcome, MatchError> {
    let nul = if config.text { None } else { memchr::memchr(0, buffer) };
    if nul.is_some() && origin == Origin::Walked && !config.binary {
        return Ok(Outcome { matched: false });
    }
    if config.json {
        return super::json::search(config, printer, shown, buffer, nul);
    }
    let options = ScanOptions {
        invert: config.invert,
        after: if config.printing_lines() { config.after } else { 0 },
        before: if config.printing_lines() { config.before } else { 0 },
        max_count: config.max_count,
    };
    let matcher = &config.matcher;
    if config.quiet || config.files_with_matches || config.files_without_match {
        let stop_early = ScanOptions { max_count: Some(1), ..options };
        let found = scan(buffer, matcher, &stop_early, &mut |_| Flow::Stop)? > 0;
        let listed = if config.files_without_match { !found } else { found };
        if listed && !config.quiet {
            printer.out.extend_from_slice(shown.as_bytes());
            printer.out.push(if config.null { 0 } else { b'\n' });
        }
        return Ok(Outcome { matched: listed });
    }
    if config.count || config.count_matches {
        let mut total: u64 = 0;
        let selected = try_scan(buffer, matcher, &options, &mut |event| {
            if let (Event::Selected(line), true) = (event, config.count_matches) {
                total += matches_in(matcher, line.text)?.len() as u64;
            }
            Ok(Flow::Continue)
        })?;
        let value = if config.count_matches && !config.invert { total } else { selected };
        if value > 0 || config.include_zero {
            if config.with_filename {
                printer.out.extend_from_slice(shown.as_bytes());
                printer.out.push(if config.null { 0 } else { b':' });
            }
            printer.out.extend_from_slice(format!("{value}\n").as_bytes());
        }
        return Ok(Outcome { matched: selected > 0 });
    }
    if let Some(offset) = nul {
        let found = scan(buffer, matcher, &ScanOptions { max_count: Some(1), ..options }, &mut |_| Flow::Stop)? > 0;
        if found {
            if config.with_filename {
                printer.out.extend_from_slice(shown.as_bytes());
                printer.out.extend_from_slice(b": ");
            }
            printer.out.extend_from_slice(format!("binary file matches (found \"\\0\" byte around offset {offset})\n").as_bytes());
        }
        return Ok(Outcome { matched: found });
    }
    let mut first = true;
    let selected = try_scan(buffer, matcher, &options, &mut |event| {
        if first {
            first = false;
            start_file(config, printer, shown);
        }
        print_event(config, printer, shown, &event)?;
        Ok(Flow::Continue)
    })?;
    Ok(Outcome { matched: selected > 0 })
}

/// The separators before a file's first line: `--` after another file's
/// context group, a blank line and the path with `--heading`.
fn start_file(config: &Config, printer: &mut Printer, shown: &str) {
    if config.heading && config.with_filename {
        if printer.printed_heading {
            printer.out.push(b'\n');
        }
        printer.printed_heading = true;
        printer.out.extend_from_slice(shown.as_bytes());
        printer.out.push(b'\n');
    } else if config.uses_context() && printer.printed_group {
        printer.out.extend_from_slice(b"--\n");
    }
    printer.printed_group = true;
}

fn print_event(config: &Config, printer: &mut Printer, shown: &str, event: &Event<'_>) -> Result<(), MatchError> {
    match event {
        Event::Break => {
            printer.out.extend_from_slice(config.context_separator.as_bytes());
            printer.out.push(b'\n');
        }
        Event::Context(line) => print_line(config, &mut printer.out, shown, line, line.text, b'-', None),
        Event::Selected(line) => {
            let matcher = &config.matcher;
            if config.only_matching || config.vimgrep {
                for (start, end) in matches_in(matcher, line.text)? {
                    let shifted = Line { offset: line.offset + start, ..*line };
                    let text = match (&config.replace, config.vimgrep) {
                        (_, true) => line.text.to_vec(),
                        (Some(replacement), false) => super::replace::expand_at(matcher, line.text, start, replacement)?,
                        (None, false) => line.text.get(start..end).unwrap_or(&[]).to_vec(),
                    };
                    print_line(config, &mut printer.out, shown, &shifted, &text, b':', Some(start + 1));
                }
                return Ok(());
            }
            let column =
                if config.column && !config.invert { matches_in(matcher, line.text)?.first().map(|(start, _)| start + 1) } else { None };
            let replaced = match &config.replace {
                Some(replacement) if !config.invert => Some(super::replace::replace_all(matcher, line.text, replacement)?),
                _ => None,
            };
            let text = replaced.as_deref().unwrap_or(line.text);
            print_line(config, &mut printer.out, shown, line, text, b':', column.or(Some(1)));
        }
    }
    Ok(())
}

/// Appends one output line: the prefixes, the text, a newline.
fn print_line(config: &Config, out: &mut Vec<u8>, shown: &str, line: &Line<'_>, text: &[u8], separator: u8, column: Option<usize>) {
    if config.with_filename && !config.heading {
        out.extend_from_slice(shown.as_bytes());
        out.push(if config.null { 0 } else { separator });
    }
    if config.line_number {
        out.extend_from_slice(line.number.to_string().as_bytes());
        out.push(separator);
    }
    if let (true, Some(column)) = (config.column, column) {
        out.extend_from_slice(column.to_string().as_bytes());
        out.push(separator);
    }
    if config.byte_offset {
        out.extend_from_slice(line.offset.to_string().as_bytes());
        out.push(separator);
    }
    out.extend_from_slice(text);
    out.push(b'\n');
}

/// The non-empty matches in a line, left to right.
pub fn matches_in(matcher: &Matcher, text: &[u8]) -> Result<Vec<(usize, usize)>, MatchError> {
    let mut found = Vec::new();
    let mut at = 0;
    while at <= text.len() {
        let Some((start, end)) = matcher.find(text, at)? else { break };
        if end == start {
            at = start + 1;
            continue;
        }
        found.push((start, end));
        at = end;
    }
    Ok(found)
}
