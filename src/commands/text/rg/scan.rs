//! Walking the lines of one buffer: which are selected (matching, or not
//! with `-v`), which are context around them (`-A`/`-B`/`-C`), and where
//! the breaks between context groups fall. The printers (standard and
//! JSON) receive these as [`Event`]s.

use super::matcher::{line_end, MatchError, Matcher};

/// One thing to show.
pub enum Event<'b> {
    /// A selected line (without its terminator).
    Selected(Line<'b>),
    /// A context line.
    Context(Line<'b>),
    /// A gap between two context groups (`--`).
    Break,
}

/// A line of the buffer.
#[derive(Clone, Copy)]
pub struct Line<'b> {
    /// Its 1-based number.
    pub number: u64,
    /// The offset of its first byte.
    pub offset: usize,
    /// Its bytes, without the terminator.
    pub text: &'b [u8],
    /// Its bytes with the terminator, when it has one.
    pub raw: &'b [u8],
}

/// What a printer asks of the scan after each event.
#[derive(PartialEq, Eq)]
pub enum Flow {
    /// Go on.
    Continue,
    /// Stop scanning this buffer.
    Stop,
}

/// How to scan.
pub struct ScanOptions {
    /// `-v`.
    pub invert: bool,
    /// `-A`.
    pub after: usize,
    /// `-B`.
    pub before: usize,
    /// `-m`.
    pub max_count: Option<u64>,
}

/// Counts line numbers lazily: only when asked, and only forward.
struct LineCounter {
    position: usize,
    number: u64,
}

impl LineCounter {
    fn number_at(&mut self, buffer: &[u8], offset: usize) -> u64 {
        if offset < self.position {
            let back = memchr::memchr_iter(b'\n', buffer.get(offset..self.position).unwrap_or(&[])).count();
            return self.number - back as u64;
        }
        self.number += memchr::memchr_iter(b'\n', buffer.get(self.position..offset).unwrap_or(&[])).count() as u64;
        self.position = offset;
        self.number
    }
}

/// Scans `buffer`, handing each event to `sink`; returns the number of
/// selected lines.
pub fn scan(buffer: &[u8], matcher: &Matcher, options: &ScanOptions, sink: &mut dyn FnMut(Event<'_>) -> Flow) -> Result<u64, MatchError> {
    let mut counter = LineCounter { position: 0, number: 1 };
    let mut selected: u64 = 0;
    // The end (after the terminator) of the last line shown.
    let mut shown_until: Option<usize> = None;
    let mut after_left = 0;
    let mut position = 0;
    let mut upcoming: Option<(usize, usize)> = None;
    let mut upcoming_valid = false;
    while position < buffer.len() {
        if options.max_count.is_some_and(|max| selected >= max) {
            break;
        }
        // The next selected line.
        let (start, end) = if options.invert {
            if !upcoming_valid || upcoming.is_some_and(|(s, _)| s < position) {
                upcoming = matcher.next_matching_line(buffer, position)?;
                upcoming_valid = true;
            }
            match upcoming {
                Some((s, e)) if s == position => {
                    position = e + 1;
                    continue;
                }
                _ => (position, line_end(buffer, position)),
            }
        } else {
            match matcher.next_matching_line(buffer, position)? {
                Some(found) => found,
                None => break,
            }
        };
        if show_context(buffer, &mut counter, options, &mut shown_until, &mut after_left, start, sink) == Flow::Stop {
            return Ok(selected + 1);
        }
        selected += 1;
        let line = make_line(buffer, &mut counter, start, end);
        shown_until = Some(line.offset + line.raw.len());
        after_left = options.after;
        if sink(Event::Selected(line)) == Flow::Stop {
            return Ok(selected);
        }
        position = end + 1;
    }
    // Trailing context after the last selected line.
    if after_left > 0 {
        let _ = show_context(buffer, &mut counter, options, &mut shown_until, &mut after_left, buffer.len(), sink);
    }
    Ok(selected)
}

/// [`scan`] with a sink that may fail: its first failure stops the scan
/// and is returned.
pub fn try_scan(
    buffer: &[u8],
    matcher: &Matcher,
    options: &ScanOptions,
    sink: &mut dyn FnMut(Event<'_>) -> Result<Flow, MatchError>,
) -> Result<u64, MatchError> {
    let mut failure = None;
    let selected = scan(buffer, matcher, options, &mut |event| match sink(event) {
        Ok(flow) => flow,
        Err(error) => {
            failure = Some(error);
            Flow::Stop
        }
    })?;
    match failure {
        Some(error) => Err(error),
        None => Ok(selected),
    }
}

fn make_line<'b>(buffer: &'b [u8], counter: &mut LineCounter, start: usize, end: usize) -> Line<'b> {
    let raw_end = if end < buffer.len() { end + 1 } else { end };
    Line {
        number: counter.number_at(buffer, start),
        offset: start,
        text: buffer.get(start..end).unwrap_or(&[]),
        raw: buffer.get(start..raw_end).unwrap_or(&[]),
    }
}

/// Shows the context lines between the last line shown and `next` (the
/// start of the next selected line, or the end): up to `-A` after the
/// former, up to `-B` before the latter, with a break where lines between
/// them are skipped.
fn show_context(
    buffer: &[u8],
    counter: &mut LineCounter,
    options: &ScanOptions,
    shown_until: &mut Option<usize>,
    after_left: &mut usize,
    next: usize,
    sink: &mut dyn FnMut(Event<'_>) -> Flow,
) -> Flow {
    if options.after == 0 && options.before == 0 {
        return Flow::Continue;
    }
    let mut cursor = shown_until.unwrap_or(0);
    while *after_left > 0 && cursor < next && shown_until.is_some() {
        let end = line_end(buffer, cursor);
        let line = make_line(buffer, counter, cursor, end);
        cursor = line.offset + line.raw.len();
        *after_left -= 1;
        *shown_until = Some(cursor);
        if sink(Event::Context(line)) == Flow::Stop {
            return Flow::Stop;
        }
    }
    *after_left = 0;
    if next >= buffer.len() && options.before == 0 {
        return Flow::Continue;
    }
    // The start of the `-B` lines before `next`.
    let mut before_start = next;
    if next < buffer.len() {
        for _ in 0..options.before {
            if before_start <= cursor {
                break;
            }
            before_start = memchr::memrchr(b'\n', buffer.get(cursor..before_start - 1).unwrap_or(&[])).map_or(cursor, |i| cursor + i + 1);
        }
    }
    if shown_until.is_some() && before_start > cursor && next < buffer.len() && sink(Event::Break) == Flow::Stop {
        return Flow::Stop;
    }
    let mut at = before_start.max(cursor);
    while at < next && next < buffer.len() {
        let end = line_end(buffer, at);
        let line = make_line(buffer, counter, at, end);
        at = line.offset + line.raw.len();
        if sink(Event::Context(line)) == Flow::Stop {
            return Flow::Stop;
        }
    }
    Flow::Continue
}
