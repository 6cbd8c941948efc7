//! `seq`: print a sequence of numbers, as GNU does: exact decimal steps
//! (`seq 1 .1 1.3` ends at 1.3), the precision of FIRST and INCREMENT,
//! `-w` equal widths, `-s` separators and `-f` floating formats.

use super::float_format::{format_float, parse_format};
use crate::commands::format::quote_locale;
use crate::commands::options::{report_usage, Long, Spec};
use crate::host::LocalFuture;
use crate::utility::{write_failure_status, Invocation};

const LONGS: &[Long] = &[Long::required("format", "f"), Long::required("separator", "s"), Long::flag("equal-width", "w")];
/// GNU stops at the first operand: `seq 1 -w 3` reads `-w` as a number.
const SPEC: Spec = Spec { digits_are_operands: true, stop_at_operand: true, ..Spec::new("f:s:w", LONGS) };

/// A number as written: an exact decimal when it has no exponent, else a float.
#[derive(Debug, Clone, Copy)]
struct Number {
    value: f64,
    /// Digits after the point as written (GNU's precision), negative exponents included.
    precision: usize,
    /// `(mantissa, scale)` when exact.
    exact: Option<(i128, u32)>,
}

fn parse_number(ctx: &Invocation<'_>, text: &str) -> Result<Number, String> {
    let trimmed = text.trim_start();
    let lower = trimmed.to_ascii_lowercase();
    if lower.trim_start_matches(['+', '-']).starts_with("nan") {
        return Err(format!("invalid 'not-a-number' argument: {}", quote_locale(ctx, text)));
    }
    let invalid = || format!("invalid floating point argument: {}", quote_locale(ctx, text));
    let unsigned = lower.trim_start_matches(['+', '-']);
    if let Some(hex) = unsigned.strip_prefix("0x") {
        let value = i128::from_str_radix(hex, 16).map_err(|_| invalid())?;
        let value = if lower.starts_with('-') { -value } else { value };
        return Ok(Number { value: value as f64, precision: 0, exact: Some((value, 0)) });
    }
    if unsigned == "inf" || unsigned == "infinity" {
        let value = if lower.starts_with('-') { f64::NEG_INFINITY } else { f64::INFINITY };
        return Ok(Number { value, precision: 0, exact: None });
    }
    let value: f64 = trimmed.parse().map_err(|_| invalid())?;
    let (mantissa, exponent) = match lower.find('e') {
        Some(at) => (lower.get(..at).unwrap_or(""), lower.get(at + 1..).and_then(|e| e.parse::<i64>().ok()).unwrap_or(0)),
        None => (lower.as_str(), 0),
    };
    let fraction = mantissa.split_once('.').map_or(0, |(_, f)| f.len()) as i64;
    let precision = (fraction - exponent).max(0) as usize;
    let exact = if exponent == 0 {
        let digits: String = mantissa.chars().filter(|c| c.is_ascii_digit() || *c == '-').collect();
        digits.parse::<i128>().ok().map(|m| (m, fraction as u32))
    } else {
        None
    };
    Ok(Number { value, precision, exact })
}

fn rescale(number: &Number, scale: u32) -> Option<i128> {
    let (mantissa, own) = number.exact?;
    mantissa.checked_mul(10i128.checked_pow(scale - own)?)
}

/// Renders an exact scaled value with `precision` decimals.
fn exact_text(value: i128, scale: u32, precision: usize) -> String {
    let negative = value < 0;
    let magnitude = value.unsigned_abs();
    let divisor = 10u128.pow(scale);
    let whole = magnitude / divisor;
    let mut fraction = format!("{:0width$}", magnitude % divisor, width = scale as usize);
    fraction.truncate(precision);
    while fraction.len() < precision {
        fraction.push('0');
    }
    let sign = if negative { "-" } else { "" };
    if precision == 0 {
        format!("{sign}{whole}")
    } else {
        format!("{sign}{whole}.{fraction}")
    }
}

fn pad_width(text: &str, width: usize) -> String {
    let (sign, digits) = match text.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", text),
    };
    let fill = width.saturating_sub(text.len());
    format!("{sign}{}{digits}", "0".repeat(fill))
}

/// Runs `seq [-f FORMAT] [-s SEP] [-w] [FIRST [INCREMENT]] LAST`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let args = ctx.args.get(1..).unwrap_or(&[]).to_vec();
        let parsed = match crate::commands::options::parse(&SPEC, &args) {
            Ok(parsed) => parsed,
            Err(error) => {
                report_usage(ctx, &error.message()).await;
                return 1;
            }
        };
        let separator = parsed.value("s").unwrap_or("\n").to_string();
        let format = match parsed.value("f") {
            Some(_) if parsed.has("w") => {
                report_usage(ctx, "format string may not be specified when printing equal width strings").await;
                return 1;
            }
            Some(text) => match parse_format(text) {
                Ok(format) => Some(format),
                Err(message) => {
                    ctx.report(&message).await;
                    return 1;
                }
            },
            None => None,
        };
        let operands = &parsed.operands;
        if operands.is_empty() {
            report_usage(ctx, "missing operand").await;
            return 1;
        }
        if let Some(extra) = operands.get(3) {
            report_usage(ctx, &format!("extra operand {}", quote_locale(ctx, extra))).await;
            return 1;
        }
        let mut numbers = Vec::new();
        for operand in operands {
            match parse_number(ctx, operand) {
                Ok(number) => numbers.push(number),
                Err(message) => {
                    report_usage(ctx, &message).await;
                    return 1;
                }
            }
        }
        let one = Number { value: 1.0, precision: 0, exact: Some((1, 0)) };
        let (first, step, last) = match numbers.as_slice() {
            [last] => (one, one, *last),
            [first, last] => (*first, one, *last),
            [first, step, last] => (*first, *step, *last),
            _ => return 1,
        };
        if step.value == 0.0 {
            let text = operands.get(1).cloned().unwrap_or_default();
            report_usage(ctx, &format!("invalid Zero increment value: {}", quote_locale(ctx, &text))).await;
            return 1;
        }
        let precision = first.precision.max(step.precision);
        let scale = [first, step, last].iter().filter_map(|n| n.exact.map(|(_, s)| s)).max().unwrap_or(0);
        let exact = match (rescale(&first, scale), rescale(&step, scale), rescale(&last, scale)) {
            (Some(a), Some(b), Some(c)) => Some((a, b, c)),
            _ => None,
        };
        let width = if parsed.has("w") {
            let show = |n: &Number| match n.exact {
                Some((m, s)) => exact_text(m, s, precision).len(),
                None => format!("{:.precision$}", n.value).len(),
            };
            show(&first).max(show(&last))
        } else {
            0
        };
        let render = |value: f64, exact_value: Option<i128>| -> String {
            let text = match (&format, exact_value) {
                (Some((prefix, spec, suffix)), _) => return format!("{prefix}{}{suffix}", format_float(value, spec)),
                (None, Some(v)) => exact_text(v, scale, precision),
                (None, None) if value.is_infinite() => {
                    if value > 0.0 {
                        "inf".into()
                    } else {
                        "-inf".into()
                    }
                }
                (None, None) => format!("{value:.precision$}"),
            };
            if width > 0 {
                pad_width(&text, width)
            } else {
                text
            }
        };
        let mut out = String::new();
        let mut count: u64 = 0;
        let mut wrote_any = false;
        loop {
            let (value, exact_value) = match exact {
                Some((a, b, _)) => {
                    let Some(v) = (count as i128).checked_mul(b).and_then(|d| a.checked_add(d)) else {
                        break;
                    };
                    (v as f64 / 10f64.powi(scale as i32), Some(v))
                }
                None => (first.value + count as f64 * step.value, None),
            };
            let past = match (exact, exact_value) {
                (Some((_, b, c)), Some(v)) => {
                    if b > 0 {
                        v > c
                    } else {
                        v < c
                    }
                }
                _ => {
                    if step.value > 0.0 {
                        value > last.value
                    } else {
                        value < last.value
                    }
                }
            };
            if past {
                break;
            }
            if wrote_any {
                out.push_str(&separator);
            }
            out.push_str(&render(value, exact_value));
            wrote_any = true;
            count += 1;
            if out.len() >= 1 << 16 {
                if let Err(error) = ctx.write_out(out.as_bytes()).await {
                    return write_failure_status(error);
                }
                out.clear();
                ctx.host.yield_now().await;
            }
            if first.value.is_infinite() {
                break;
            }
        }
        if wrote_any {
            out.push('\n');
        }
        match ctx.write_out(out.as_bytes()).await {
            Ok(()) => 0,
            Err(error) => write_failure_status(error),
        }
    })
}
