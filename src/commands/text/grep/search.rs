//! Searching one input: selecting lines, context, counts, `-o`, and the
//! binary-file rules of GNU grep 3.x.

use super::{write_status, BinaryFiles, Config, ListFiles};
use crate::commands::text::input::LineReader;
use crate::io::Fd;
use crate::regex::{decode_at, RegexError, Unit};
use crate::utility::Invocation;
use std::collections::VecDeque;

/// Output is handed on in blocks this large.
const FLUSH_AT: usize = 32 * 1024;

/// How the search of one input ended.
pub enum Outcome {
    /// Searched; whether any line was selected.
    Done(bool),
    /// A line was selected under `-q`: stop everything, status 0.
    QuitMatched,
}

/// A failure that ends the search of an input.
pub enum Failure {
    /// A read error (reported by the caller).
    Read,
    /// Stop everything with this status (a closed pipe).
    Stop(i32),
    /// A pattern could not be matched (the backtracker's budget ran out).
    Regex(RegexError),
}

/// Buffered standard output.
struct Output<'c, 'i> {
    ctx: &'c Invocation<'i>,
    buffer: Vec<u8>,
}

impl Output<'_, '_> {
    async fn flush(&mut self) -> Result<(), Failure> {
        if !self.buffer.is_empty() {
            let data = std::mem::take(&mut self.buffer);
            if let Err(error) = self.ctx.write_out(&data).await {
                return Err(Failure::Stop(write_status(self.ctx, error).await));
            }
        }
        Ok(())
    }

    async fn maybe_flush(&mut self) -> Result<(), Failure> {
        if self.buffer.len() >= FLUSH_AT {
            self.flush().await?;
        }
        Ok(())
    }
}

/// The state of one input's search.
struct Search<'c> {
    config: &'c Config,
    name: &'c str,
    with_filename: bool,
    /// The number of the last line printed (for group separators).
    last_printed: Option<u64>,
    /// Context lines kept for `-B`: number, offset, text.
    before: VecDeque<(u64, u64, Vec<u8>)>,
    after_left: usize,
}

impl Search<'_> {
    fn prefix(&self, out: &mut Vec<u8>, number: u64, offset: u64, separator: u8) {
        if self.with_filename {
            out.extend_from_slice(self.name.as_bytes());
            out.push(if self.config.null_after_name { 0 } else { separator });
        }
        if self.config.line_number {
            out.extend_from_slice(number.to_string().as_bytes());
            out.push(separator);
        }
        if self.config.byte_offset {
            out.extend_from_slice(offset.to_string().as_bytes());
            out.push(separator);
        }
    }

    fn separate(&mut self, out: &mut Vec<u8>, number: u64) {
        let uses_context = self.config.context_given;
        if let (true, Some(last), Some(separator)) = (uses_context, self.last_printed, &self.config.group_separator) {
            if last + 1 < number {
                out.extend_from_slice(separator.as_bytes());
                out.push(b'\n');
            }
        }
    }

    fn context_line(&mut self, out: &mut Vec<u8>, number: u64, offset: u64, line: &[u8]) {
        self.separate(out, number);
        self.prefix(out, number, offset, b'-');
        out.extend_from_slice(line);
        out.push(self.config.eol);
        self.last_printed = Some(number);
    }

    fn selected_line(&mut self, out: &mut Vec<u8>, number: u64, offset: u64, line: &[u8]) -> Result<(), RegexError> {
        let pending: Vec<(u64, u64, Vec<u8>)> = self.before.drain(..).collect();
        if !self.config.only_matching {
            for (n, o, text) in pending {
                self.context_line(out, n, o, &text);
            }
        }
        if self.config.only_matching {
            if self.config.invert {
                return Ok(());
            }
            let mut first = true;
            for (start, end) in matches_in(self.config, line)? {
                if first {
                    self.separate(out, number);
                    first = false;
                }
                self.prefix(out, number, offset + start as u64, b':');
                out.extend_from_slice(line.get(start..end).unwrap_or(&[]));
                out.push(self.config.eol);
            }
            self.last_printed = Some(number);
            return Ok(());
        }
        self.separate(out, number);
        self.prefix(out, number, offset, b':');
        out.extend_from_slice(line);
        out.push(self.config.eol);
        self.last_printed = Some(number);
        Ok(())
    }
}

/// True when any pattern matches the line.
fn line_matches(config: &Config, line: &[u8]) -> Result<bool, RegexError> {
    for matcher in &config.matchers {
        if matcher.is_match(line)? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The non-empty matches of a line, left to right, for `-o`.
fn matches_in(config: &Config, line: &[u8]) -> Result<Vec<(usize, usize)>, RegexError> {
    let mut found = Vec::new();
    let mut pos = 0;
    while pos <= line.len() {
        let mut best: Option<(usize, usize)> = None;
        for matcher in &config.matchers {
            if let Some((start, end)) = matcher.find_at(line, pos)? {
                let better = match best {
                    None => true,
                    Some((s, e)) => start < s || (start == s && end > e),
                };
                if better {
                    best = Some((start, end));
                }
            }
        }
        let Some((start, end)) = best else { break };
        if end == start {
            pos = start
                + match decode_at(line, start) {
                    Unit::Char(_, len) => len,
                    _ => 1,
                };
            continue;
        }
        found.push((start, end));
        pos = end;
    }
    Ok(found)
}

/// True when the line is not valid UTF-8 (an encoding error makes it binary).
fn has_encoding_error(line: &[u8]) -> bool {
    std::str::from_utf8(line).is_err()
}

/// Searches one stream and writes its results.
pub async fn search_stream(ctx: &Invocation<'_>, config: &Config, stream: Fd, name: &str, with_filename: bool) -> Result<Outcome, Failure> {
    let mut reader = LineReader::new(stream, config.eol);
    let nul_binary = config.binary != BinaryFiles::Text && {
        let head = reader.peek_chunk().await.map_err(|()| Failure::Read)?;
        config.eol != 0 && head.contains(&0)
    };
    if nul_binary && config.binary == BinaryFiles::WithoutMatch {
        return Ok(Outcome::Done(false));
    }
    let printing = !config.quiet && !config.count && config.list.is_none();
    let mut out = Output { ctx, buffer: Vec::new() };
    let mut search = Search { config, name, with_filename, last_printed: None, before: VecDeque::new(), after_left: 0 };
    let mut selected: u64 = 0;
    let mut number: u64 = 0;
    let mut offset: u64 = 0;
    let mut binary_matched = false;
    let mut stopping = config.max_count == Some(0);
    // The literal scan may skip lines only when unselected lines print nothing.
    let prefilter = config.prefilter.as_ref().filter(|_| !config.invert && config.after == 0 && config.before == 0);
    while !stopping || search.after_left > 0 {
        let mut known_match = false;
        if let Some(prefilter) = prefilter {
            let pending = reader.buffered();
            if let Some(last) = memchr::memrchr(config.eol, pending) {
                let region = pending.get(..=last).unwrap_or(&[]);
                let found = prefilter.find(region);
                let skip = match found {
                    Some(at) => memchr::memrchr(config.eol, region.get(..at).unwrap_or(&[])).map_or(0, |p| p + 1),
                    None => region.len(),
                };
                known_match = found.is_some() && prefilter.exact;
                if skip > 0 {
                    number += memchr::memchr_iter(config.eol, region.get(..skip).unwrap_or(&[])).count() as u64;
                    offset += skip as u64;
                    reader.skip(skip);
                    if found.is_none() {
                        continue;
                    }
                }
            }
        }
        let Some(record) = reader.next_record().await.map_err(|()| Failure::Read)? else { break };
        let length = record.len() as u64;
        let line = record.strip_suffix(&[config.eol]).unwrap_or(record);
        number += 1;
        let is_selected = match if known_match { Ok(true) } else { line_matches(config, line) } {
            Ok(found) => found != config.invert,
            Err(error) => {
                // What was selected before the failure is still printed.
                out.flush().await?;
                return Err(Failure::Regex(error));
            }
        };
        if stopping {
            // Trailing context after the last selected line of `-m`.
            if is_selected || !printing {
                break;
            }
            search.context_line(&mut out.buffer, number, offset, line);
            search.after_left -= 1;
            offset += length;
            continue;
        }
        if is_selected {
            selected += 1;
            if config.quiet {
                return Ok(Outcome::QuitMatched);
            }
            if config.list.is_some() {
                break;
            }
            if printing {
                let binary_line = config.binary != BinaryFiles::Text && (nul_binary || has_encoding_error(line));
                if binary_line {
                    binary_matched = true;
                    if nul_binary {
                        break;
                    }
                } else {
                    search.selected_line(&mut out.buffer, number, offset, line).map_err(Failure::Regex)?;
                    search.after_left = config.after;
                }
            }
            if config.max_count.is_some_and(|max| selected >= max) {
                stopping = true;
            }
        } else if printing && !config.only_matching {
            if search.after_left > 0 {
                search.context_line(&mut out.buffer, number, offset, line);
                search.after_left -= 1;
            } else if config.before > 0 {
                search.before.push_back((number, offset, line.to_vec()));
                if search.before.len() > config.before {
                    search.before.pop_front();
                }
            }
        } else if search.after_left > 0 {
            search.after_left -= 1;
        }
        offset += length;
        out.maybe_flush().await?;
    }
    if config.count {
        if with_filename {
            out.buffer.extend_from_slice(name.as_bytes());
            out.buffer.push(if config.null_after_name { 0 } else { b':' });
        }
        out.buffer.extend_from_slice(format!("{selected}\n").as_bytes());
    }
    let listed = match config.list {
        Some(ListFiles::Matching) => selected > 0,
        Some(ListFiles::NonMatching) => selected == 0,
        None => false,
    };
    if listed {
        out.buffer.extend_from_slice(name.as_bytes());
        out.buffer.push(if config.null_after_name { 0 } else { b'\n' });
    }
    out.flush().await?;
    if binary_matched {
        ctx.report(&format!("{name}: binary file matches")).await;
    }
    Ok(Outcome::Done(selected > 0))
}
