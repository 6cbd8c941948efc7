//! `uniq`: collapse runs of equal adjacent lines, streaming. Lines compare
//! after skipping fields (`-f`) and characters (`-s`), over at most `-w`
//! characters, optionally ignoring case (`-i`); `-c` counts, `-d`/`-D`
//! keep repeated lines, `-u` unique ones, `--group` separates all groups.

use crate::commands::format::quote_locale;
use crate::commands::options::{parse_or_report, report_invalid_argument, report_usage, Long, Spec};
use crate::commands::text::input::{open_output, LineReader};
use crate::commands::text::output::status_of;
use crate::host::LocalFuture;
use crate::io::Fd;
use crate::utility::Invocation;

const SPEC: Spec = Spec::new(
    "cdDf:is:uw:z",
    &[
        Long::optional("all-repeated", "D"),
        Long::flag("count", "c"),
        Long::optional("group", "group"),
        Long::flag("ignore-case", "i"),
        Long::flag("repeated", "d"),
        Long::required("skip-chars", "s"),
        Long::required("skip-fields", "f"),
        Long::flag("unique", "u"),
        Long::required("check-chars", "w"),
        Long::flag("zero-terminated", "z"),
    ],
);

/// Where blank lines go between groups (`-D` and `--group`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Separation {
    None,
    Prepend,
    Append,
    Separate,
    Both,
}

/// The command line's choices.
struct Settings {
    count: bool,
    repeated: bool,
    unique: bool,
    all_repeated: Option<Separation>,
    group: Option<Separation>,
    ignore_case: bool,
    skip_fields: usize,
    skip_chars: usize,
    check_chars: Option<usize>,
    delimiter: u8,
}

impl Settings {
    /// The part of a line that is compared.
    fn key<'a>(&self, line: &'a [u8]) -> &'a [u8] {
        let body = line.strip_suffix(&[self.delimiter]).unwrap_or(line);
        let mut start = 0;
        let blank = |b: u8| b == b' ' || b == b'\t';
        for _ in 0..self.skip_fields {
            while body.get(start).is_some_and(|b| blank(*b)) {
                start += 1;
            }
            while body.get(start).is_some_and(|b| !blank(*b)) {
                start += 1;
            }
        }
        start = start.saturating_add(self.skip_chars).min(body.len());
        let end = match self.check_chars {
            Some(n) => start.saturating_add(n).min(body.len()),
            None => body.len(),
        };
        body.get(start..end).unwrap_or(&[])
    }

    fn same(&self, a: &[u8], b: &[u8]) -> bool {
        let (a, b) = (self.key(a), self.key(b));
        if self.ignore_case {
            a.eq_ignore_ascii_case(b)
        } else {
            a == b
        }
    }
}

/// Parses a `-f`/`-s`/`-w` count (saturating).
fn count_argument(text: &str) -> Option<usize> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(text.parse().unwrap_or(usize::MAX))
}

async fn settings(ctx: &Invocation<'_>) -> Result<(Settings, Vec<String>), i32> {
    let parsed = parse_or_report(ctx, &SPEC, 1).await?;
    let mut settings = Settings {
        count: false,
        repeated: false,
        unique: false,
        all_repeated: None,
        group: None,
        ignore_case: false,
        skip_fields: 0,
        skip_chars: 0,
        check_chars: None,
        delimiter: b'\n',
    };
    for (key, value) in &parsed.options {
        let text = value.as_deref().unwrap_or("");
        match *key {
            "c" => settings.count = true,
            "d" => settings.repeated = true,
            "u" => settings.unique = true,
            "i" => settings.ignore_case = true,
            "z" => settings.delimiter = 0,
            "D" => {
                settings.all_repeated = Some(match value.as_deref() {
                    None | Some("none") => Separation::None,
                    Some("prepend") => Separation::Prepend,
                    Some("separate") => Separation::Separate,
                    Some(other) => {
                        report_invalid_argument(ctx, other, "--all-repeated", &[&["none"], &["prepend"], &["separate"]]).await;
                        return Err(1);
                    }
                })
            }
            "group" => {
                settings.group = Some(match value.as_deref() {
                    None | Some("separate") => Separation::Separate,
                    Some("prepend") => Separation::Prepend,
                    Some("append") => Separation::Append,
                    Some("both") => Separation::Both,
                    Some(other) => {
                        report_invalid_argument(ctx, other, "--group", &[&["prepend"], &["append"], &["separate"], &["both"]]).await;
                        return Err(1);
                    }
                })
            }
            "f" | "s" | "w" => {
                let what = match *key {
                    "f" => "fields to skip",
                    "s" => "bytes to skip",
                    _ => "bytes to compare",
                };
                let Some(number) = count_argument(text) else {
                    ctx.report(&format!("{text}: invalid number of {what}")).await;
                    return Err(1);
                };
                match *key {
                    "f" => settings.skip_fields = number,
                    "s" => settings.skip_chars = number,
                    _ => settings.check_chars = Some(number),
                }
            }
            _ => {}
        }
    }
    if settings.group.is_some() && (settings.count || settings.repeated || settings.all_repeated.is_some() || settings.unique) {
        report_usage(ctx, "--group is mutually exclusive with -c/-d/-D/-u").await;
        return Err(1);
    }
    if settings.count && settings.all_repeated.is_some() {
        report_usage(ctx, "printing all duplicated lines and repeat counts is meaningless").await;
        return Err(1);
    }
    if let Some(extra) = parsed.operands.get(2) {
        report_usage(ctx, &format!("extra operand {}", quote_locale(ctx, extra))).await;
        return Err(1);
    }
    Ok((settings, parsed.operands))
}

/// Writes to the output stream with the line's delimiter ensured.
struct Writer<'c, 'i> {
    ctx: &'c Invocation<'i>,
    stream: Fd,
    buffer: Vec<u8>,
    delimiter: u8,
}

impl Writer<'_, '_> {
    async fn line(&mut self, prefix: Option<u64>, line: &[u8]) -> Result<(), i32> {
        if let Some(count) = prefix {
            self.buffer.extend_from_slice(format!("{count:>7} ").as_bytes());
        }
        self.buffer.extend_from_slice(line);
        if line.last() != Some(&self.delimiter) {
            self.buffer.push(self.delimiter);
        }
        if self.buffer.len() >= 16 * 1024 {
            self.flush().await?;
        }
        Ok(())
    }

    async fn separator(&mut self) -> Result<(), i32> {
        self.buffer.push(self.delimiter);
        Ok(())
    }

    async fn flush(&mut self) -> Result<(), i32> {
        let result = match self.stream.write(&self.buffer).await { Ok(value) => Ok(value), Err(error) => Err(self.ctx.write_failed(error).await) };
        self.buffer.clear();
        result
    }
}

async fn uniq(ctx: &Invocation<'_>, settings: &Settings, input: Fd, writer: &mut Writer<'_, '_>) -> Result<i32, i32> {
    let mut reader = LineReader::new(input, settings.delimiter);
    // The first line of the current group (its buffer reused across groups).
    let mut current: Vec<u8> = Vec::new();
    let mut has_current = false;
    let mut count: u64 = 0;
    let mut groups_started = 0u64;
    loop {
        let next = match reader.next_record().await {
            Ok(line) => line,
            Err(()) => {
                ctx.report("read error").await;
                return Ok(1);
            }
        };
        let same = match next {
            Some(line) if has_current => settings.same(&current, line),
            _ => false,
        };
        if same {
            count += 1;
            let line = next.unwrap_or(&[]);
            if let Some(separation) = settings.all_repeated {
                if count == 2 {
                    let first_group = groups_started == 0;
                    groups_started += 1;
                    if separation == Separation::Prepend || (separation == Separation::Separate && !first_group) {
                        writer.separator().await?;
                    }
                    writer.line(None, &current).await?;
                }
                writer.line(None, line).await?;
            } else if settings.group.is_some() {
                writer.line(None, line).await?;
            }
            continue;
        }
        // The group of `current` ended.
        if has_current {
            let previous = &current;
            let plain = settings.all_repeated.is_none() && settings.group.is_none();
            let wanted = (!settings.repeated || count > 1) && (!settings.unique || count == 1);
            if plain && wanted {
                writer.line(settings.count.then_some(count), previous).await?;
            }
        }
        let Some(line) = next else {
            if let Some(Separation::Append | Separation::Both) = settings.group {
                if groups_started > 0 {
                    writer.separator().await?;
                }
            }
            break;
        };
        if let Some(separation) = settings.group {
            let first_group = groups_started == 0;
            let before = match separation {
                Separation::Prepend | Separation::Both => true,
                Separation::Separate | Separation::Append => !first_group,
                Separation::None => false,
            };
            if before {
                writer.separator().await?;
            }
            groups_started += 1;
            writer.line(None, line).await?;
        }
        current.clear();
        current.extend_from_slice(line);
        has_current = true;
        count = 1;
    }
    writer.flush().await?;
    Ok(0)
}

/// Runs `uniq [OPTION]... [INPUT [OUTPUT]]`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let (settings, operands) = match settings(ctx).await {
            Ok(found) => found,
            Err(status) => return status,
        };
        let input = match operands.first().filter(|name| name.as_str() != "-") {
            Some(name) => {
                let input = crate::commands::common::Input::File(name.clone());
                match crate::commands::common::open_input(ctx, &input).await {
                    Ok(stream) => stream,
                    Err(error) => {
                        ctx.report(&format!("{name}: {error}")).await;
                        return 1;
                    }
                }
            }
            None => ctx.stdin.clone(),
        };
        let output = match operands.get(1).filter(|name| name.as_str() != "-") {
            Some(name) => match open_output(ctx, name, false).await {
                Ok(stream) => stream,
                Err(error) => {
                    ctx.report(&format!("{name}: {error}")).await;
                    return 1;
                }
            },
            None => ctx.stdout.clone(),
        };
        let mut writer = Writer { ctx, stream: output, buffer: Vec::new(), delimiter: settings.delimiter };
        status_of(uniq(ctx, &settings, input, &mut writer).await)
    })
}

#[cfg(test)]
mod tests {
    use crate::commands::test_support::{new_fs, run_utility};

    #[test]
    fn collapses_runs() {
        let fs = new_fs();
        let uniq = |args: &[&str], input: &str| run_utility(&fs, &[&["uniq"], args].concat(), input.as_bytes()).stdout;
        let input = "a\na\nb\nc\nc\nc\n";
        assert_eq!(uniq(&[], input), "a\nb\nc\n");
        assert_eq!(uniq(&["-c"], input), "      2 a\n      1 b\n      3 c\n");
        assert_eq!(uniq(&["-d"], input), "a\nc\n");
        assert_eq!(uniq(&["-u"], input), "b\n");
        assert_eq!(uniq(&["-D"], input), "a\na\nc\nc\nc\n");
        assert_eq!(uniq(&["--all-repeated=separate"], input), "a\na\n\nc\nc\nc\n");
        assert_eq!(uniq(&["--group"], input), "a\na\n\nb\n\nc\nc\nc\n");
        assert_eq!(uniq(&["-f1"], "x a\ny a\nz b\n"), "x a\nz b\n");
        assert_eq!(uniq(&[], "a\na"), "a\n");
    }
}
