//! `expand` (tabs to spaces) and `unexpand` (blanks to tabs), streaming,
//! with GNU's tab stop lists (`-t 4`, `-t 2,5`, `-t 2,/3`, `-t 2,+3`, the
//! obsolete `-4`), `-i` (leading blanks only) and `-a`/`--first-only`.

use crate::commands::format::quote_locale;
use crate::commands::options::{parse, report_usage, Long, Spec};
use crate::commands::text::input::{transform_records, OpenError};
use crate::commands::text::output::status_of;
use crate::host::LocalFuture;
use crate::utility::Invocation;

const EXPAND_SPEC: Spec = Spec::new("it:", &[Long::flag("initial", "i"), Long::required("tabs", "t")]);
const UNEXPAND_SPEC: Spec =
    Spec::new("at:", &[Long::flag("all", "a"), Long::flag("first-only", "first-only"), Long::required("tabs", "t")]);

/// The largest tab stop accepted.
const MAX_TAB_STOP: u64 = 1 << 20;

/// Tab stops: one size, or a list with an optional `/N` or `+N` tail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TabStops {
    size: u64,
    list: Vec<u64>,
    repeat_every: u64,
    increment: u64,
}

impl TabStops {
    /// The next tab stop after `column`; `None` past the last one.
    fn next(&self, column: u64, index: &mut usize) -> Option<u64> {
        if self.size > 0 {
            return Some(column + (self.size - column % self.size));
        }
        while let Some(&tab) = self.list.get(*index) {
            if column < tab {
                return Some(tab);
            }
            *index += 1;
        }
        if self.repeat_every > 0 {
            return Some(column + (self.repeat_every - column % self.repeat_every));
        }
        if self.increment > 0 {
            let last = self.list.last().copied().unwrap_or(0);
            return Some(column + (self.increment - (column - last) % self.increment));
        }
        None
    }
}

/// Parses `-t` lists (several `-t` accumulate); `Err` holds GNU's message.
pub fn parse_tab_stops(ctx: &Invocation<'_>, specs: &[String]) -> Result<Option<TabStops>, String> {
    if specs.is_empty() {
        return Ok(None);
    }
    let mut list = Vec::new();
    let (mut repeat_every, mut increment) = (0, 0);
    for spec in specs {
        for item in spec.split([',', ' ', '\t']).filter(|s| !s.is_empty()) {
            if repeat_every > 0 || increment > 0 {
                return Err(if repeat_every > 0 {
                    "'/' specifier only allowed with the last value"
                } else {
                    "'+' specifier only allowed with the last value"
                }
                .into());
            }
            let (kind, digits) = match item.as_bytes().first() {
                Some(b'/') => ('/', &item[1..]),
                Some(b'+') => ('+', &item[1..]),
                _ => (' ', item),
            };
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return Err(format!("tab size contains invalid character(s): {}", quote_locale(ctx, digits)));
            }
            let value: u64 = digits.parse().unwrap_or(u64::MAX);
            if value == 0 {
                return Err("tab size cannot be 0".into());
            }
            // Larger stops would only ever produce runs of blanks the size of
            // the sandbox's memory.
            if value > MAX_TAB_STOP {
                return Err(format!("tab stop is too large {}", quote_locale(ctx, digits)));
            }
            match kind {
                '/' => repeat_every = value,
                '+' => increment = value,
                _ => {
                    if list.last().is_some_and(|last| *last >= value) {
                        return Err("tab sizes must be ascending".into());
                    }
                    list.push(value);
                }
            }
        }
    }
    let size = if list.len() == 1 && repeat_every == 0 && increment == 0 { list[0] } else { 0 };
    if size > 0 {
        list.clear();
    }
    Ok(Some(TabStops { size, list, repeat_every, increment }))
}

/// Turns the obsolete `-4` and `-2,5` into `-t` options.
fn rewrite_obsolete(args: &[String]) -> Vec<String> {
    args.iter()
        .map(|arg| match arg.strip_prefix('-') {
            Some(rest) if rest.starts_with(|c: char| c.is_ascii_digit()) => format!("-t{rest}"),
            _ => arg.clone(),
        })
        .collect()
}

/// `expand` of one line (with its newline, if any).
fn expand_line(stops: &TabStops, initial_only: bool, line: &[u8], out: &mut Vec<u8>) {
    let mut column: u64 = 0;
    let mut index = 0;
    let mut converting = true;
    for &byte in line {
        if converting && byte == b'\t' {
            let next = stops.next(column, &mut index).unwrap_or(column + 1);
            while column < next {
                out.push(b' ');
                column += 1;
            }
            continue;
        }
        if byte == 8 {
            column = column.saturating_sub(1);
            index = index.saturating_sub(1);
        } else {
            column += 1;
        }
        converting &= !initial_only || byte == b' ' || byte == b'\t';
        out.push(byte);
    }
}

/// `unexpand` of one line, as GNU does it: a run of blanks that reaches a
/// tab stop becomes a tab; a single space before a stop stays a space.
fn unexpand_line(stops: &TabStops, all: bool, line: &[u8], out: &mut Vec<u8>) {
    let mut converting = true;
    let mut column: u64 = 0;
    let mut index = 0;
    let mut previous_blank = true;
    let mut pending: Vec<u8> = Vec::new();
    let mut one_blank_before_stop = false;
    for &original in line {
        let mut byte = original;
        if converting {
            let blank = byte == b' ' || byte == b'\t';
            if blank {
                match stops.next(column, &mut index) {
                    None => converting = false,
                    Some(next) => {
                        if byte == b'\t' {
                            column = next;
                            if let Some(first) = pending.first_mut() {
                                *first = b'\t';
                            }
                        } else {
                            column += 1;
                            if !(previous_blank && column == next) {
                                if column == next {
                                    one_blank_before_stop = true;
                                }
                                pending.push(byte);
                                previous_blank = true;
                                continue;
                            }
                            if let Some(first) = pending.first_mut() {
                                *first = b'\t';
                            }
                            byte = b'\t';
                        }
                        pending.truncate(usize::from(one_blank_before_stop));
                        if one_blank_before_stop {
                            if let Some(first) = pending.first_mut() {
                                *first = b'\t';
                            }
                        }
                    }
                }
            } else if byte == 8 {
                column = column.saturating_sub(1);
                index = index.saturating_sub(1);
            } else {
                column += 1;
            }
            if !pending.is_empty() {
                if pending.len() > 1 && one_blank_before_stop {
                    pending[0] = b'\t';
                }
                out.append(&mut pending);
                one_blank_before_stop = false;
            }
            previous_blank = blank;
            converting &= all || blank;
        }
        out.push(byte);
    }
    // The end of the input settles pending blanks as a non-blank would.
    if pending.len() > 1 && one_blank_before_stop {
        pending[0] = b'\t';
    }
    out.append(&mut pending);
}

async fn run_either(ctx: &Invocation<'_>, unexpand: bool) -> i32 {
    let args = rewrite_obsolete(ctx.args.get(1..).unwrap_or(&[]));
    let spec = if unexpand { &UNEXPAND_SPEC } else { &EXPAND_SPEC };
    let parsed = match parse(spec, &args) {
        Ok(parsed) => parsed,
        Err(error) => {
            report_usage(ctx, &error.message()).await;
            return 1;
        }
    };
    let lists: Vec<String> = parsed.options.iter().filter(|(k, _)| *k == "t").filter_map(|(_, v)| v.clone()).collect();
    let stops = match parse_tab_stops(ctx, &lists) {
        Ok(stops) => stops,
        Err(message) => {
            ctx.report(&message).await;
            return 1;
        }
    };
    let default = TabStops { size: 8, list: Vec::new(), repeat_every: 0, increment: 0 };
    let all = (parsed.has("a") || stops.is_some()) && !parsed.has("first-only");
    let stops = stops.unwrap_or(default);
    let initial_only = parsed.has("i");
    let operands = &parsed.operands;
    let result = if unexpand {
        transform_records(ctx, operands, b'\n', OpenError::Plain, |line, out| unexpand_line(&stops, all, line, out)).await
    } else {
        transform_records(ctx, operands, b'\n', OpenError::Plain, |line, out| expand_line(&stops, initial_only, line, out)).await
    };
    status_of(result)
}

/// Runs `expand [OPTION]... [FILE]...`.
pub fn run_expand<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move { run_either(ctx, false).await })
}

/// Runs `unexpand [OPTION]... [FILE]...`.
pub fn run_unexpand<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move { run_either(ctx, true).await })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stops(size: u64) -> TabStops {
        TabStops { size, list: Vec::new(), repeat_every: 0, increment: 0 }
    }

    #[test]
    fn expands_and_unexpands() {
        let mut out = Vec::new();
        expand_line(&stops(8), false, b"a\tb\n", &mut out);
        assert_eq!(out, b"a       b\n");
        let unexpand = |line: &[u8], all: bool| {
            let mut out = Vec::new();
            unexpand_line(&stops(8), all, line, &mut out);
            out
        };
        assert_eq!(unexpand(b"abcdefg h\n", true), b"abcdefg h\n");
        assert_eq!(unexpand(b"        x       y\n", false), b"\tx       y\n");
        assert_eq!(unexpand(b"        x       y\n", true), b"\tx\ty\n");
        assert_eq!(unexpand(b"x  \t y\n", true), b"x\t y\n");
        assert_eq!(unexpand(b"   \tx\n", false), b"\tx\n");
    }
}
