//! `cut`: select bytes (`-b`, and `-c`, which GNU treats as bytes) or
//! fields (`-f`, split at `-d`) of each line, streaming; `--complement`,
//! `--output-delimiter`, `-s` and `-z`.

use crate::commands::format::quote_locale;
use crate::commands::options::{parse_or_report, report_usage, Long, Spec};
use crate::commands::text::input::{transform_records, OpenError};
use crate::commands::text::output::status_of;
use crate::host::LocalFuture;
use crate::utility::Invocation;

const SPEC: Spec = Spec::new(
    "b:c:d:f:nsz",
    &[
        Long::required("bytes", "b"),
        Long::required("characters", "c"),
        Long::flag("complement", "complement"),
        Long::required("delimiter", "d"),
        Long::required("fields", "f"),
        Long::flag("only-delimited", "s"),
        Long::required("output-delimiter", "output-delimiter"),
        Long::flag("zero-terminated", "z"),
    ],
);

/// Inclusive 1-based ranges, sorted and merged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ranges(Vec<(usize, usize)>);

impl Ranges {
    /// True when position `n` (1-based) is selected.
    pub fn contains(&self, n: usize) -> bool {
        self.0.iter().any(|(low, high)| (*low..=*high).contains(&n))
    }

    /// The ranges not selected (for `--complement`).
    fn complement(&self) -> Ranges {
        let mut out = Vec::new();
        // The first position not yet covered; `None` once the end is reached.
        let mut next = Some(1usize);
        for (low, high) in &self.0 {
            let Some(start) = next else { break };
            if *low > start {
                out.push((start, low - 1));
            }
            next = high.checked_add(1);
        }
        if let Some(start) = next {
            out.push((start, usize::MAX));
        }
        Ranges(out)
    }
}

/// Why a list is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RangeError {
    /// A zero or empty position.
    FromOne,
    /// `3-1`.
    Decreasing,
    /// A lone `-`.
    NoEndpoint,
    /// Something not a number, from the offending character on.
    Invalid(String),
}

impl RangeError {
    /// GNU's message (`fields` picks the wording for `-f`).
    fn message(&self, ctx: &Invocation<'_>, fields: bool) -> String {
        match (self, fields) {
            (RangeError::FromOne, true) => "fields are numbered from 1".into(),
            (RangeError::FromOne, false) => "byte/character positions are numbered from 1".into(),
            (RangeError::Decreasing, _) => "invalid decreasing range".into(),
            (RangeError::NoEndpoint, _) => "invalid range with no endpoint: -".into(),
            (RangeError::Invalid(bad), true) => format!("invalid field value {}", quote_locale(ctx, bad)),
            (RangeError::Invalid(bad), false) => format!("invalid byte/character position {}", quote_locale(ctx, bad)),
        }
    }
}

/// Parses `N`, `N-M`, `N-`, `-M` separated by commas or blanks.
pub fn parse_ranges(text: &str) -> Result<Ranges, RangeError> {
    let mut ranges = Vec::new();
    for part in text.split([',', ' ', '\t']) {
        if part == "-" {
            return Err(RangeError::NoEndpoint);
        }
        let number = |digits: &str| -> Result<Option<usize>, RangeError> {
            if digits.is_empty() {
                return Ok(None);
            }
            match digits.find(|c: char| !c.is_ascii_digit()) {
                Some(bad) => Err(RangeError::Invalid(digits.get(bad..).unwrap_or(digits).to_string())),
                None => Ok(Some(digits.parse().unwrap_or(usize::MAX))),
            }
        };
        let (low, high) = match part.split_once('-') {
            Some((low, high)) => (number(low)?, number(high)?),
            None => {
                let single = number(part)?;
                (single, single)
            }
        };
        let low = match (low, part.contains('-')) {
            (Some(0), _) | (None, false) => return Err(RangeError::FromOne),
            (Some(n), _) => n,
            (None, true) => 1,
        };
        let high = match high {
            Some(0) => return Err(RangeError::FromOne),
            Some(n) => n,
            None => usize::MAX,
        };
        if high < low {
            return Err(RangeError::Decreasing);
        }
        ranges.push((low, high));
    }
    ranges.sort_unstable();
    let mut merged: Vec<(usize, usize)> = Vec::new();
    for (low, high) in ranges {
        match merged.last_mut() {
            Some(last) if low <= last.1.saturating_add(1) => last.1 = last.1.max(high),
            _ => merged.push((low, high)),
        }
    }
    Ok(Ranges(merged))
}

/// What is cut.
enum Mode {
    Bytes(Ranges),
    Fields(Ranges),
}

/// The command line's choices.
struct Settings {
    mode: Mode,
    delimiter: u8,
    output_delimiter: Option<Vec<u8>>,
    only_delimited: bool,
    terminator: u8,
}

/// Cuts one line (without its terminator) into `out`; false when `-s`
/// drops it.
fn cut_line(settings: &Settings, line: &[u8], out: &mut Vec<u8>) -> bool {
    match &settings.mode {
        Mode::Bytes(ranges) => {
            let mut previous: Option<usize> = None;
            for (index, byte) in line.iter().enumerate() {
                let position = index + 1;
                if !ranges.contains(position) {
                    continue;
                }
                if let (Some(separator), Some(last)) = (&settings.output_delimiter, previous) {
                    if last + 1 != position {
                        out.extend_from_slice(separator);
                    }
                }
                out.push(*byte);
                previous = Some(position);
            }
            true
        }
        Mode::Fields(ranges) => {
            if !line.contains(&settings.delimiter) {
                if settings.only_delimited {
                    return false;
                }
                out.extend_from_slice(line);
                return true;
            }
            let separator = settings.output_delimiter.clone().unwrap_or_else(|| vec![settings.delimiter]);
            let mut first = true;
            for (index, field) in line.split(|b| *b == settings.delimiter).enumerate() {
                if ranges.contains(index + 1) {
                    if !first {
                        out.extend_from_slice(&separator);
                    }
                    out.extend_from_slice(field);
                    first = false;
                }
            }
            true
        }
    }
}

async fn settings(ctx: &Invocation<'_>) -> Result<(Settings, Vec<String>), i32> {
    let parsed = parse_or_report(ctx, &SPEC, 1).await?;
    let lists: Vec<(&str, &str)> =
        parsed.options.iter().filter(|(k, _)| matches!(*k, "b" | "c" | "f")).map(|(k, v)| (*k, v.as_deref().unwrap_or(""))).collect();
    let fail = |message: String| async move {
        report_usage(ctx, &message).await;
        Err(1)
    };
    let Some(&(kind, list)) = lists.first() else {
        return fail("you must specify a list of bytes, characters, or fields".into()).await;
    };
    if lists.len() > 1 {
        return fail("only one list may be specified".into()).await;
    }
    let fields = kind == "f";
    let mut ranges = match parse_ranges(list) {
        Ok(ranges) => ranges,
        Err(error) => return fail(error.message(ctx, fields)).await,
    };
    if parsed.has("complement") {
        ranges = ranges.complement();
    }
    let delimiter = match parsed.value("d") {
        None => b'\t',
        Some(text) => match text.as_bytes() {
            [] => 0,
            [single] => *single,
            _ => return fail("the delimiter must be a single character".into()).await,
        },
    };
    if !fields && parsed.has("d") {
        return fail("an input delimiter may be specified only when operating on fields".into()).await;
    }
    if !fields && parsed.has("s") {
        return fail("suppressing non-delimited lines makes sense\n\tonly when operating on fields".into()).await;
    }
    let settings = Settings {
        mode: if fields { Mode::Fields(ranges) } else { Mode::Bytes(ranges) },
        delimiter,
        output_delimiter: parsed.value("output-delimiter").map(|d| d.as_bytes().to_vec()),
        only_delimited: parsed.has("s"),
        terminator: if parsed.has("z") { 0 } else { b'\n' },
    };
    Ok((settings, parsed.operands))
}

/// Runs `cut OPTION... [FILE]...`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let (settings, operands) = match settings(ctx).await {
            Ok(found) => found,
            Err(status) => return status,
        };
        let terminator = settings.terminator;
        let cut = |line: &[u8], out: &mut Vec<u8>| {
            let body = line.strip_suffix(&[terminator]).unwrap_or(line);
            if cut_line(&settings, body, out) {
                out.push(terminator);
            }
        };
        status_of(transform_records(ctx, &operands, terminator, OpenError::Plain, cut).await)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::test_support::{new_fs, run_utility};

    #[test]
    fn ranges_parse_and_merge() {
        assert_eq!(parse_ranges("3-,1,2"), Ok(Ranges(vec![(1, usize::MAX)])));
        assert_eq!(parse_ranges("-2,5"), Ok(Ranges(vec![(1, 2), (5, 5)])));
        assert_eq!(parse_ranges("0"), Err(RangeError::FromOne));
        assert_eq!(parse_ranges("3-1"), Err(RangeError::Decreasing));
        assert_eq!(parse_ranges("1x"), Err(RangeError::Invalid("x".into())));
        assert_eq!(Ranges(vec![(2, 3)]).complement(), Ranges(vec![(1, 1), (4, usize::MAX)]));
    }

    #[test]
    fn cuts() {
        let fs = new_fs();
        let cut = |args: &[&str], input: &str| run_utility(&fs, &[&["cut"], args].concat(), input.as_bytes()).stdout;
        assert_eq!(cut(&["-d:", "-f2"], "a:b:c\nxyz\n"), "b\nxyz\n");
        assert_eq!(cut(&["-d:", "-f1,3", "-s"], "a:b:c\nxyz\n"), "a:c\n");
        assert_eq!(cut(&["-b2-3"], "abcd\n"), "bc\n");
        assert_eq!(cut(&["-c1,3", "--output-delimiter=-"], "abcd\n"), "a-c\n");
    }
}
