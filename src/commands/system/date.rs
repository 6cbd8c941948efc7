//! `date`: print the time (now, `-d STRING`, `-r FILE`, or each line of
//! `-f FILE`) in the default, `+FORMAT`, ISO 8601 (`-I`), RFC 5322 (`-R`)
//! or RFC 3339 form, in `TZ` or UTC (`-u`). Setting the clock is refused
//! as a non-root user's `date` is.

use crate::calendar::civil::from_timestamp;
use crate::calendar::format_time;
use crate::calendar::{parse_date, Instant};
use crate::calendar::{parse_tz, Zone};
use crate::commands::format::quote_locale;
use crate::commands::hash::source::{quote_name, read_operand};
use crate::commands::options::{parse_or_report, report_usage, Long, Spec};
use crate::host::LocalFuture;
use crate::utility::{write_failure_status, Invocation};

const LONGS: &[Long] = &[
    Long::required("date", "d"),
    Long::required("file", "f"),
    Long::optional("iso-8601", "I"),
    Long::required("reference", "r"),
    Long::flag("rfc-email", "R"),
    Long::flag("rfc-2822", "R"),
    Long::required("rfc-3339", "rfc-3339"),
    Long::required("set", "s"),
    Long::flag("utc", "u"),
    Long::flag("universal", "u"),
];
const SPEC: Spec = Spec::new("d:f:I::r:Rs:u", LONGS);
const DEFAULT_FORMAT: &str = "%a %b %e %H:%M:%S %Z %Y";
const ISO_KINDS: [&str; 5] = ["hours", "minutes", "date", "seconds", "ns"];
const RFC_3339_KINDS: [&str; 3] = ["date", "seconds", "ns"];

/// Resolves an argmatch-style argument: exact or a unique prefix.
fn argmatch<'k>(value: &str, valid: &[&'k str]) -> Option<&'k str> {
    if let Some(exact) = valid.iter().find(|k| **k == value) {
        return Some(exact);
    }
    let mut matches = valid.iter().filter(|k| k.starts_with(value) && !value.is_empty());
    let first = matches.next()?;
    matches.next().is_none().then_some(*first)
}

async fn invalid_argument(ctx: &Invocation<'_>, value: &str, option: &str, valid: &[&str]) {
    let mut text = format!("invalid argument {} for '--{option}'\nValid arguments are:", quote_locale(ctx, value));
    for kind in valid {
        text.push_str(&format!("\n  - '{kind}'"));
    }
    report_usage(ctx, &text).await;
}

/// The output format chosen by the options.
fn iso_format(kind: &str) -> &'static str {
    match kind {
        "hours" => "%Y-%m-%dT%H%:z",
        "minutes" => "%Y-%m-%dT%H:%M%:z",
        "seconds" => "%Y-%m-%dT%H:%M:%S%:z",
        "ns" => "%Y-%m-%dT%H:%M:%S,%N%:z",
        _ => "%Y-%m-%d",
    }
}

fn rfc_3339_format(kind: &str) -> &'static str {
    match kind {
        "seconds" => "%Y-%m-%d %H:%M:%S%:z",
        "ns" => "%Y-%m-%d %H:%M:%S.%N%:z",
        _ => "%Y-%m-%d",
    }
}

/// Renders `instant` in `zone` by `format`.
pub fn render(format: &str, instant: Instant, zone: &Zone) -> String {
    let time = from_timestamp(instant.seconds, instant.nanos, zone.offset);
    format_time(format, &time, &zone.name, instant.seconds)
}

/// Parses the operand form `MMDDhhmm[[CC]YY][.ss]` (a request to set the clock).
fn parse_set_operand(text: &str, now: Instant, zone: &Zone) -> Option<Instant> {
    let (digits, seconds) = match text.split_once('.') {
        Some((digits, seconds)) if seconds.len() == 2 => (digits, seconds.parse::<u32>().ok()?),
        Some(_) => return None,
        None => (text, 0),
    };
    if !digits.bytes().all(|b| b.is_ascii_digit()) || ![8, 10, 12].contains(&digits.len()) {
        return None;
    }
    let field = |range: std::ops::Range<usize>| digits.get(range).and_then(|s| s.parse::<i64>().ok());
    let (month, day, hour, minute) = (field(0..2)?, field(2..4)?, field(4..6)?, field(6..8)?);
    let year = match digits.len() {
        12 => field(8..12)?,
        10 => {
            let short = field(8..10)?;
            short + if short < 69 { 2000 } else { 1900 }
        }
        _ => from_timestamp(now.seconds, 0, zone.offset).year,
    };
    let text = format!("{year:04}-{month:02}-{day:02} {hour:02}:{minute:02}:{seconds:02}");
    parse_date(&text, now, zone.offset)
}

/// Runs `date`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let parsed = match parse_or_report(ctx, &SPEC, 1).await {
            Ok(parsed) => parsed,
            Err(status) => return status,
        };
        let zone = if parsed.has("u") { Zone::utc() } else { parse_tz(ctx.env_var("TZ")) };
        let millis = ctx.host.now_millis();
        let now = Instant { seconds: (millis / 1000.0).floor() as i64, nanos: ((millis.rem_euclid(1000.0)) * 1_000_000.0) as u32 };
        let mut formats: Vec<String> = Vec::new();
        for (key, value) in &parsed.options {
            match *key {
                "I" => {
                    let kind = value.as_deref().unwrap_or("date");
                    let Some(kind) = argmatch(kind, &ISO_KINDS) else {
                        invalid_argument(ctx, kind, "iso-8601", &ISO_KINDS).await;
                        return 1;
                    };
                    formats.push(iso_format(kind).into());
                }
                "R" => formats.push("%a, %d %b %Y %H:%M:%S %z".into()),
                "rfc-3339" => {
                    let kind = value.as_deref().unwrap_or("");
                    let Some(kind) = argmatch(kind, &RFC_3339_KINDS) else {
                        invalid_argument(ctx, kind, "rfc-3339", &RFC_3339_KINDS).await;
                        return 1;
                    };
                    formats.push(rfc_3339_format(kind).into());
                }
                _ => {}
            }
        }
        let mut set_request = parsed.value("s").map(str::to_string);
        match parsed.operands.as_slice() {
            [] => {}
            [format] if format.starts_with('+') => formats.push(format.get(1..).unwrap_or("").to_string()),
            [operand] if set_request.is_none() && parsed.value("d").is_none() => match parse_set_operand(operand, now, &zone) {
                Some(instant) => set_request = Some(format!("@{}", instant.seconds)),
                None => {
                    ctx.report(&format!("invalid date {}", quote_locale(ctx, operand))).await;
                    return 1;
                }
            },
            [operand] => {
                report_usage(ctx, &format!("the argument {} lacks a leading '+';\nwhen using an option to specify date(s), any non-option\nargument must be a format string beginning with '+'", quote_locale(ctx, operand))).await;
                return 1;
            }
            [_, extra, ..] => {
                report_usage(ctx, &format!("extra operand {}", quote_locale(ctx, extra))).await;
                return 1;
            }
        }
        if formats.len() > 1 {
            ctx.report("multiple output formats specified").await;
            return 1;
        }
        let format = formats.pop().unwrap_or_else(|| DEFAULT_FORMAT.to_string());
        let mut status = 0;
        let instants: Vec<Result<Instant, String>> = if let Some(request) = &set_request {
            match parse_date(request, now, zone.offset) {
                Some(instant) => {
                    ctx.report("cannot set date: Operation not permitted").await;
                    status = 1;
                    vec![Ok(instant)]
                }
                None => {
                    ctx.report(&format!("invalid date {}", quote_locale(ctx, request))).await;
                    return 1;
                }
            }
        } else if let Some(file) = parsed.value("f") {
            let data = match read_operand(ctx, file).await {
                Ok(data) => data,
                Err(error) => {
                    ctx.report(&format!("{}: {error}", quote_name(file))).await;
                    return 1;
                }
            };
            String::from_utf8_lossy(&data).lines().map(|line| parse_date(line, now, zone.offset).ok_or_else(|| line.to_string())).collect()
        } else if let Some(reference) = parsed.value("r") {
            match ctx.fs.metadata(&ctx.resolve(reference)).await {
                Ok(metadata) => {
                    let seconds = (metadata.mtime / 1000.0).floor();
                    vec![Ok(Instant { seconds: seconds as i64, nanos: ((metadata.mtime - seconds * 1000.0) * 1_000_000.0) as u32 })]
                }
                Err(error) => {
                    ctx.report(&format!("{}: {error}", quote_name(reference))).await;
                    return 1;
                }
            }
        } else if let Some(text) = parsed.value("d") {
            vec![parse_date(text, now, zone.offset).ok_or_else(|| text.to_string())]
        } else {
            vec![Ok(now)]
        };
        for instant in instants {
            match instant {
                Ok(instant) => {
                    let line = format!("{}\n", render(&format, instant, &zone));
                    if let Err(error) = ctx.write_out(line.as_bytes()).await {
                        return write_failure_status(error);
                    }
                }
                Err(text) => {
                    ctx.report(&format!("invalid date {}", quote_locale(ctx, &text))).await;
                    status = 1;
                }
            }
        }
        status
    })
}
