//! `fmt`: refill paragraphs to a width (`-w`, `-WIDTH`, goal `-g`),
//! splitting only (`-s`), with uniform spacing (`-u`), crown or tagged
//! indentation (`-c`, `-t`) and a line prefix (`-p`), as GNU coreutils'
//! fmt does. Each input is read whole, then formatted (see [`format`]).

mod format;

use crate::commands::common::inputs;
use crate::commands::format::quote_locale;
use crate::commands::options::{parse, report_usage, Long, Spec};
use crate::commands::text::input::{open_or_report, read_all, OpenError};
use crate::commands::text::output::{status_of, Output};
use crate::host::LocalFuture;
use crate::utility::Invocation;
use format::{Settings, MAX_CHARS};

const SPEC: Spec = Spec::new(
    "0123456789cstuw:p:g:",
    &[
        Long::flag("crown-margin", "c"),
        Long::required("prefix", "p"),
        Long::flag("split-only", "s"),
        Long::flag("tagged-paragraph", "t"),
        Long::flag("uniform-spacing", "u"),
        Long::required("width", "w"),
        Long::required("goal", "g"),
    ],
);

/// Why a width was refused.
enum WidthError {
    Invalid,
    Range,
}

/// Parses a width as `xdectoumax` does, between 0 and `max`.
fn parse_width(text: &str, max: i64) -> Result<i64, WidthError> {
    let digits = text.trim_start_matches([' ', '\t']);
    let digits = digits.strip_prefix('+').unwrap_or(digits);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(WidthError::Invalid);
    }
    match digits.parse::<u64>() {
        Ok(value) if value <= max as u64 => Ok(value as i64),
        _ => Err(WidthError::Range),
    }
}

async fn report_width(ctx: &Invocation<'_>, text: &str, error: WidthError) {
    let quoted = quote_locale(ctx, text);
    match error {
        WidthError::Invalid => ctx.report(&format!("invalid width: {quoted}")).await,
        WidthError::Range => ctx.report(&format!("invalid width: {quoted}: Numerical result out of range")).await,
    }
}

async fn fmt_all(ctx: &Invocation<'_>, settings: &Settings, operands: &[String]) -> Result<i32, i32> {
    let mut out = Output::new(ctx);
    let mut status = 0;
    for input in inputs(operands) {
        let Some(stream) = open_or_report(ctx, &input, OpenError::CannotOpen).await else {
            status = 1;
            continue;
        };
        let Ok(data) = read_all(&stream).await else {
            ctx.report("read error").await;
            status = 1;
            continue;
        };
        out.write(&format::format(settings, &data)).await?;
    }
    out.flush().await?;
    Ok(status)
}

/// Runs `fmt [-WIDTH] [OPTION]... [FILE]...`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let mut args: Vec<String> = ctx.args.get(1..).unwrap_or(&[]).to_vec();
        let mut width_text = None;
        if let Some(first) = args.first() {
            if first.len() > 1 && first.starts_with('-') && first.as_bytes().get(1).is_some_and(u8::is_ascii_digit) {
                width_text = Some(first[1..].to_string());
                args.remove(0);
            }
        }
        let parsed = match parse(&SPEC, &args) {
            Ok(parsed) => parsed,
            Err(error) => {
                report_usage(ctx, &error.message()).await;
                return 1;
            }
        };
        let mut settings = Settings { max_width: 75, ..Settings::default() };
        let mut goal_text = None;
        for (key, value) in &parsed.options {
            let value = value.clone().unwrap_or_default();
            match *key {
                "c" => settings.crown = true,
                "s" => settings.split = true,
                "t" => settings.tagged = true,
                "u" => settings.uniform = true,
                "w" => width_text = Some(value),
                "g" => goal_text = Some(value),
                "p" => settings.set_prefix(value.as_bytes()),
                digit => {
                    let message =
                        format!("invalid option -- {digit}; -WIDTH is recognized only when it is the first\noption; use -w N instead");
                    report_usage(ctx, &message).await;
                    return 1;
                }
            }
        }
        if let Some(text) = &width_text {
            match parse_width(text, (MAX_CHARS / 2) as i64) {
                Ok(width) => settings.max_width = width,
                Err(error) => {
                    report_width(ctx, text, error).await;
                    return 1;
                }
            }
        }
        match &goal_text {
            Some(text) => match parse_width(text, settings.max_width) {
                Ok(goal) => {
                    settings.goal_width = goal;
                    if width_text.is_none() {
                        settings.max_width = goal + 10;
                    }
                }
                Err(error) => {
                    report_width(ctx, text, error).await;
                    return 1;
                }
            },
            None => settings.goal_width = Settings::default_goal(settings.max_width),
        }
        status_of(fmt_all(ctx, &settings, &parsed.operands).await)
    })
}

#[cfg(test)]
mod tests {
    use crate::commands::test_support::{new_fs, run_utility};

    #[test]
    fn fills_and_splits() {
        let fs = new_fs();
        assert_eq!(run_utility(&fs, &["fmt", "-w", "10"], b"a b c d e f g h i j k\n").stdout, "a b c d\ne f g h i\nj k\n");
        assert_eq!(run_utility(&fs, &["fmt", "-s", "-w", "6"], b"aa bb cc\ndd\n").stdout, "aa\nbb cc\ndd\n");
        assert_eq!(run_utility(&fs, &["fmt", "-u"], b"a   b.  c\n").stdout, "a b.  c\n");
    }
}
