//! `sort`: sort, merge (`-m`) or check (`-c`, `-C`) lines, with keys
//! (`-k`), separators (`-t`), GNU's orderings (`-n -g -h -M -V -R`), their
//! modifiers (`-b -d -f -i -r`), `-u`, `-s`, `-z` and `-o`. Lines that
//! compare equal fall back to byte order unless `-s` or `-u`, as in GNU.

use crate::commands::common::{inputs, Input};
use crate::commands::format::quote_locale;
use crate::commands::options::{parse_or_report, report_invalid_argument, report_usage, Long, Spec};
use crate::commands::text::input::{open_output, read_all_within_budget, HoldError};
use crate::commands::text::output::{status_of, Output};
use crate::commands::text::sort_compare as compare;
use crate::commands::text::sort_plain as plain;
use crate::commands::text::sort_key::{key_range, parse_key, Flags, Key, Order};
use crate::host::LocalFuture;
use crate::utility::Invocation;
use std::cmp::Ordering;

const SPEC: Spec = Spec::new(
    "bcCdfghik:mMno:rRsS:t:T:uVz",
    &[
        Long::required("batch-size", "batch-size"),
        Long::optional("check", "check"),
        Long::required("compress-program", "compress-program"),
        Long::flag("debug", "debug"),
        Long::flag("dictionary-order", "d"),
        Long::required("files0-from", "files0-from"),
        Long::flag("general-numeric-sort", "g"),
        Long::flag("human-numeric-sort", "h"),
        Long::flag("ignore-case", "f"),
        Long::flag("ignore-leading-blanks", "b"),
        Long::flag("ignore-nonprinting", "i"),
        Long::required("key", "k"),
        Long::flag("merge", "m"),
        Long::flag("month-sort", "M"),
        Long::flag("numeric-sort", "n"),
        Long::required("output", "o"),
        Long::required("parallel", "parallel"),
        Long::flag("random-sort", "R"),
        Long::required("random-source", "random-source"),
        Long::flag("reverse", "r"),
        Long::required("sort", "sort"),
        Long::flag("stable", "s"),
        Long::required("buffer-size", "S"),
        Long::required("field-separator", "t"),
        Long::required("temporary-directory", "T"),
        Long::flag("unique", "u"),
        Long::flag("version-sort", "V"),
        Long::flag("zero-terminated", "z"),
    ],
);

/// How `-c`/`-C` checks instead of sorting.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Check {
    None,
    Diagnose,
    Quiet,
}

/// Everything that decides how lines compare and what is written.
struct Settings {
    keys: Vec<Key>,
    global: Flags,
    tab: Option<u8>,
    unique: bool,
    stable: bool,
    merge: bool,
    check: Check,
    delimiter: u8,
    output: Option<String>,
    seed: u64,
}

impl Settings {
    /// Compares two keys' bytes under `flags`.
    fn compare_key(&self, flags: &Flags, a: &[u8], b: &[u8]) -> Ordering {
        let ordering = match flags.order {
            Order::Numeric => compare::numeric(a, b),
            Order::General => compare::general(a, b),
            Order::Human => compare::human(a, b),
            Order::Month => compare::month(a, b),
            Order::Version => compare::version(a, b),
            Order::Random => {
                compare::random(self.seed, a, b).then_with(|| compare::text(a, b, flags.dictionary, flags.printable, flags.fold))
            }
            Order::Text => compare::text(a, b, flags.dictionary, flags.printable, flags.fold),
        };
        if flags.reverse {
            ordering.reverse()
        } else {
            ordering
        }
    }

    /// Compares by the keys only (what `-u` calls equal).
    fn compare_keys(&self, a: &[u8], b: &[u8]) -> Ordering {
        for key in &self.keys {
            let (a_start, a_end) = key_range(a, key, self.tab);
            let (b_start, b_end) = key_range(b, key, self.tab);
            let ordering = self.compare_key(&key.flags, a.get(a_start..a_end).unwrap_or(&[]), b.get(b_start..b_end).unwrap_or(&[]));
            if ordering != Ordering::Equal {
                return ordering;
            }
        }
        Ordering::Equal
    }

    /// Compares by the keys whose byte ranges (and `-n` values, when they
    /// fit) were found beforehand, one per key, in order.
    fn compare_prepared(&self, a: &[u8], a_keys: &[Prepared], b: &[u8], b_keys: &[Prepared]) -> Ordering {
        for ((key, a_key), b_key) in self.keys.iter().zip(a_keys).zip(b_keys) {
            let ordering = match (a_key.number, b_key.number) {
                (Some(x), Some(y)) => {
                    if key.flags.reverse {
                        y.cmp(&x)
                    } else {
                        x.cmp(&y)
                    }
                }
                _ => {
                    self.compare_key(&key.flags, a.get(a_key.start..a_key.end).unwrap_or(&[]), b.get(b_key.start..b_key.end).unwrap_or(&[]))
                }
            };
            if ordering != Ordering::Equal {
                return ordering;
            }
        }
        self.last_resort(Ordering::Equal, a, b)
    }

    /// The full comparison: keys, then bytes as a last resort.
    fn compare(&self, a: &[u8], b: &[u8]) -> Ordering {
        self.last_resort(self.compare_keys(a, b), a, b)
    }

    /// The byte comparison that settles lines whose keys are equal (unless
    /// `-u` or `-s`).
    fn last_resort(&self, ordering: Ordering, a: &[u8], b: &[u8]) -> Ordering {
        if ordering != Ordering::Equal || self.unique || self.stable {
            return ordering;
        }
        let last = a.cmp(b);
        if self.global.reverse {
            last.reverse()
        } else {
            last
        }
    }
}

/// Splits data into records without their delimiters.
fn records(data: &[u8], delimiter: u8) -> Vec<&[u8]> {
    if data.is_empty() {
        return Vec::new();
    }
    let body = data.strip_suffix(&[delimiter]).unwrap_or(data);
    let mut lines = Vec::with_capacity(memchr::memchr_iter(delimiter, body).count() + 1);
    let mut start = 0;
    for end in memchr::memchr_iter(delimiter, body) {
        lines.push(body.get(start..end).unwrap_or(&[]));
        start = end + 1;
    }
    lines.push(body.get(start..).unwrap_or(&[]));
    lines
}

/// Reads the command line; `Err(status)` after reporting.
async fn settings(ctx: &Invocation<'_>) -> Result<(Settings, Vec<String>), i32> {
    let parsed = parse_or_report(ctx, &SPEC, 2).await?;
    let q = |text: &str| quote_locale(ctx, text);
    let mut settings = Settings {
        keys: Vec::new(),
        global: Flags::default(),
        tab: None,
        unique: false,
        stable: false,
        merge: false,
        check: Check::None,
        delimiter: b'\n',
        output: None,
        seed: ctx.host.random_seed(),
    };
    let mut checks = String::new();
    for (key, value) in &parsed.options {
        let text = value.as_deref().unwrap_or("");
        match *key {
            "b" => {
                settings.global.skip_start_blanks = true;
                settings.global.skip_end_blanks = true;
            }
            "d" | "f" | "g" | "h" | "i" | "M" | "n" | "r" | "R" | "V" => {
                settings.global.apply(key.chars().next().unwrap_or(' '), false);
            }
            "sort" => {
                let letter = match text {
                    "general-numeric" => 'g',
                    "human-numeric" => 'h',
                    "month" => 'M',
                    "numeric" => 'n',
                    "random" => 'R',
                    "version" => 'V',
                    _ => {
                        let groups: &[&[&str]] =
                            &[&["general-numeric"], &["human-numeric"], &["month"], &["numeric"], &["random"], &["version"]];
                        report_invalid_argument(ctx, text, "--sort", groups).await;
                        return Err(1);
                    }
                };
                settings.global.apply(letter, false);
            }
            "k" => match parse_key(text) {
                Ok(parsed_key) => settings.keys.push(parsed_key),
                Err(error) => {
                    let detail = if matches!(error, crate::commands::text::sort_key::KeyError::BadStart) {
                        format!("invalid count at start of {}", q(text))
                    } else {
                        format!("invalid field specification {}", q(text))
                    };
                    ctx.report(&format!("{}: {detail}", error.message())).await;
                    return Err(2);
                }
            },
            "t" => {
                let bytes = text.as_bytes();
                settings.tab = match bytes {
                    [] => {
                        ctx.report("empty tab").await;
                        return Err(2);
                    }
                    [single] => Some(*single),
                    b"\\0" => Some(0),
                    _ => {
                        ctx.report(&format!("multi-character tab {}", q(text))).await;
                        return Err(2);
                    }
                };
            }
            "c" => checks.push('c'),
            "C" => checks.push('C'),
            "check" => match text {
                "" | "diagnose-first" => checks.push('c'),
                "quiet" | "silent" => checks.push('C'),
                _ => {
                    report_invalid_argument(ctx, text, "--check", &[&["quiet", "silent"], &["diagnose-first"]]).await;
                    return Err(1);
                }
            },
            "S" => {
                let valid = text.trim_end_matches(['%', 'b', 'k', 'K', 'm', 'M', 'g', 'G', 't', 'T']);
                if valid.is_empty() || !valid.bytes().all(|b| b.is_ascii_digit()) {
                    ctx.report(&format!("invalid -S argument '{text}'")).await;
                    return Err(2);
                }
            }
            "parallel" if text.parse::<u64>().map_or(true, |n| n == 0) => {
                ctx.report(&format!("invalid number after '--parallel': {}", q(text))).await;
                return Err(2);
            }
            "files0-from" | "compress-program" | "random-source" => {
                report_usage(ctx, &format!("option '--{key}' is not supported in the sandbox")).await;
                return Err(2);
            }
            "m" => settings.merge = true,
            "o" => settings.output = Some(text.to_string()),
            "s" => settings.stable = true,
            "u" => settings.unique = true,
            "z" => settings.delimiter = 0,
            _ => {}
        }
    }
    if checks.contains('c') && checks.contains('C') {
        ctx.report("options '-cC' are incompatible").await;
        return Err(2);
    }
    settings.check = if checks.contains('c') {
        Check::Diagnose
    } else if checks.contains('C') {
        Check::Quiet
    } else {
        Check::None
    };
    for key in &mut settings.keys {
        if key.flags.is_plain() {
            key.flags = settings.global;
        }
    }
    if settings.keys.is_empty() {
        settings.keys.push(Key { start_field: 0, start_char: 0, end_field: None, end_char: 0, flags: settings.global });
    }
    for flags in settings.keys.iter().map(|k| k.flags).chain(std::iter::once(settings.global)) {
        if flags.incompatible() {
            ctx.report(&format!("options '-{}' are incompatible", flags.letters())).await;
            return Err(2);
        }
    }
    if settings.check != Check::None {
        if let Some(extra) = parsed.operands.get(1) {
            let letter = if settings.check == Check::Quiet { 'C' } else { 'c' };
            ctx.report(&format!("extra operand {} not allowed with -{letter}", crate::commands::format::quote(extra))).await;
            return Err(2);
        }
    }
    Ok((settings, parsed.operands))
}

/// Reads every input; `Err(status)` after reporting an unreadable one.
async fn read_inputs(ctx: &Invocation<'_>, operands: &[String]) -> Result<Vec<(String, Vec<u8>)>, i32> {
    let mut contents = Vec::new();
    for input in inputs(operands) {
        let stream = match crate::commands::common::open_input(ctx, &input).await {
            Ok(stream) => stream,
            Err(error) => {
                let name = match &input {
                    Input::File(name) => name.as_str(),
                    Input::Stdin => "-",
                };
                ctx.report(&format!("cannot read: {name}: {error}")).await;
                return Err(2);
            }
        };
        let name = match &input {
            Input::File(name) => name.clone(),
            Input::Stdin => "-".to_string(),
        };
        // Sorting holds the input, its lines and the output at once.
        let data = match read_all_within_budget(&stream, 3).await {
            Ok(data) => data,
            Err(HoldError::Read) => {
                ctx.report(&format!("read failed: {name}")).await;
                return Err(2);
            }
            Err(HoldError::MemoryExhausted) => {
                ctx.report("memory exhausted").await;
                return Err(2);
            }
        };
        contents.push((name, data));
    }
    Ok(contents)
}

/// `-c`/`-C`: reports the first line out of order.
async fn check_order(ctx: &Invocation<'_>, settings: &Settings, name: &str, data: &[u8]) -> i32 {
    let lines = records(data, settings.delimiter);
    for (index, pair) in lines.windows(2).enumerate() {
        let [previous, line] = pair else { continue };
        let ordering = settings.compare(previous, line);
        let disorder = ordering == Ordering::Greater || (settings.unique && ordering == Ordering::Equal);
        if disorder {
            if settings.check == Check::Diagnose {
                let text = String::from_utf8_lossy(line);
                ctx.report(&format!("{name}:{}: disorder: {text}", index + 2)).await;
            }
            return 1;
        }
    }
    0
}

/// Merges already sorted inputs, taking from the earliest input on ties.
fn merge<'a>(settings: &Settings, lists: Vec<Vec<&'a [u8]>>) -> Vec<&'a [u8]> {
    let mut positions = vec![0usize; lists.len()];
    let mut out = Vec::new();
    loop {
        let mut best: Option<(usize, &[u8])> = None;
        for (index, list) in lists.iter().enumerate() {
            let Some(line) = list.get(positions[index]) else { continue };
            match best {
                Some((_, current)) if settings.compare(line, current) != Ordering::Less => {}
                _ => best = Some((index, line)),
            }
        }
        let Some((index, line)) = best else {
            return out;
        };
        positions[index] += 1;
        out.push(line);
    }
}

/// One key of one line, found before sorting: its byte range and, for a
/// `-n` key whose digits fit, its value.
#[derive(Clone, Copy)]
struct Prepared {
    start: usize,
    end: usize,
    number: Option<i128>,
}

/// Sorts lines in memory. Each key's byte range (and a `-n` key's value) is
/// found once per line, not once per comparison, and comparing allocates
/// nothing.
fn sort_lines<'a>(settings: &Settings, mut lines: Vec<&'a [u8]>) -> Vec<&'a [u8]> {
    if let Some(reverse) = plain::whole_line(&settings.keys) {
        return plain::sort(lines, reverse);
    }
    let keys = settings.keys.len();
    if keys == 0 {
        lines.sort_by(|a, b| settings.compare(a, b));
        return lines;
    }
    let mut prepared_keys = Vec::with_capacity(lines.len() * keys);
    for line in &lines {
        prepared_keys.extend(settings.keys.iter().map(|key| {
            let (start, end) = key_range(line, key, settings.tab);
            let number = match key.flags.order {
                Order::Numeric => compare::numeric_fixed(line.get(start..end).unwrap_or(&[])),
                _ => None,
            };
            Prepared { start, end, number }
        }));
    }
    let mut prepared: Vec<(&[u8], usize)> = lines.iter().enumerate().map(|(index, line)| (*line, index * keys)).collect();
    let keys_of = |at: usize| prepared_keys.get(at..at + keys).unwrap_or(&[]);
    prepared.sort_by(|(a, a_at), (b, b_at)| settings.compare_prepared(a, keys_of(*a_at), b, keys_of(*b_at)));
    prepared.into_iter().map(|(line, _)| line).collect()
}

async fn sort(ctx: &Invocation<'_>, settings: &Settings, operands: &[String]) -> Result<i32, i32> {
    let contents = read_inputs(ctx, operands).await?;
    // Each line costs a slice and its key ranges beside the bytes.
    let line_count: usize = contents.iter().map(|(_, data)| memchr::memchr_iter(settings.delimiter, data).count() + 1).sum();
    if crate::memory::reserve(line_count.saturating_mul(80)).is_err() {
        ctx.report("memory exhausted").await;
        return Err(2);
    }
    if settings.check != Check::None {
        let (name, data) = contents.first().map(|(n, d)| (n.as_str(), d.as_slice())).unwrap_or(("-", &[]));
        return Ok(check_order(ctx, settings, name, data).await);
    }
    let mut lines: Vec<&[u8]> = if settings.merge {
        let lists = contents.iter().map(|(_, data)| records(data, settings.delimiter)).collect();
        merge(settings, lists)
    } else {
        let all: Vec<&[u8]> = contents.iter().flat_map(|(_, data)| records(data, settings.delimiter)).collect();
        sort_lines(settings, all)
    };
    if settings.unique {
        if plain::whole_line(&settings.keys).is_some() {
            lines.dedup();
        } else {
            lines.dedup_by(|line, kept| settings.compare_keys(kept, line) == Ordering::Equal);
        }
    }
    let mut text = Vec::with_capacity(contents.iter().map(|(_, d)| d.len() + 1).sum());
    for line in &lines {
        text.extend_from_slice(line);
        text.push(settings.delimiter);
    }
    match &settings.output {
        Some(name) => match open_output(ctx, name, false).await {
            Ok(stream) => match stream.write(&text).await {
                Ok(()) => Ok(0),
                Err(error) => Err(ctx.write_failed_with(error, |error| format!("write failed: {name}: {error}"), 2).await),
            },
            Err(error) => {
                ctx.report(&format!("open failed: {name}: {error}")).await;
                Ok(2)
            }
        },
        None => {
            let mut out = Output::with_failure(ctx, |error| format!("fflush failed: 'standard output': {error}\nsort: write error"), 2);
            out.write(&text).await?;
            out.flush().await?;
            Ok(0)
        }
    }
}

/// Runs `sort [OPTION]... [FILE]...`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let (settings, operands) = match settings(ctx).await {
            Ok(found) => found,
            Err(status) => return status,
        };
        status_of(sort(ctx, &settings, &operands).await)
    })
}

#[cfg(test)]
mod tests {
    use crate::commands::test_support::{new_fs, run_utility};

    #[test]
    fn sorts_with_keys_and_flags() {
        let fs = new_fs();
        let sort = |args: &[&str], input: &str| run_utility(&fs, &[&["sort"], args].concat(), input.as_bytes()).stdout;
        assert_eq!(sort(&[], "b\na\nc"), "a\nb\nc\n");
        assert_eq!(sort(&["-n"], "10\n9\n-1\n"), "-1\n9\n10\n");
        assert_eq!(sort(&["-rn"], "10\n9\n-1\n"), "10\n9\n-1\n");
        assert_eq!(sort(&["-u"], "a\nb\na\n"), "a\nb\n");
        assert_eq!(sort(&["-t:", "-k2n"], "x:10\ny:9\n"), "y:9\nx:10\n");
        assert_eq!(sort(&["-k2,2", "-s"], "b 1\na 1\nc 0\n"), "c 0\nb 1\na 1\n");
        assert_eq!(sort(&["-f"], "b\nA\na\nB\n"), "A\na\nB\nb\n");
        let out = run_utility(&fs, &["sort", "-c"], b"b\na\n");
        assert_eq!((out.stderr.as_str(), out.status), ("sort: -:2: disorder: a\n", 1));
    }
}
