//! `sleep`: wait for the sum of its durations (`1.5`, `2m`, `1h 30m`)
//! through the host's clock, so a JS host really waits and a fixed-clock
//! host just advances. Also the duration parser `timeout` shares.

use crate::commands::format::quote_locale;
use crate::commands::options::report_usage;
use crate::host::LocalFuture;
use crate::utility::Invocation;

/// Parses a GNU duration (`10`, `0.5s`, `2m`, `1.5h`, `1d`, `inf`) into
/// milliseconds; `None` when invalid.
pub fn parse_duration(text: &str) -> Option<f64> {
    let (number, scale) = match text.char_indices().last() {
        Some((index, 's')) => (text.get(..index)?, 1.0),
        Some((index, 'm')) => (text.get(..index)?, 60.0),
        Some((index, 'h')) => (text.get(..index)?, 3600.0),
        Some((index, 'd')) => (text.get(..index)?, 86_400.0),
        _ => (text, 1.0),
    };
    if number.is_empty() || number.starts_with(['+', '-']) && number.len() == 1 {
        return None;
    }
    let lower = number.to_ascii_lowercase();
    let value: f64 = if lower == "inf" || lower == "infinity" {
        f64::INFINITY
    } else {
        if !number.chars().all(|c| c.is_ascii_digit() || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
            return None;
        }
        number.parse().ok()?
    };
    if value.is_nan() || value < 0.0 {
        return None;
    }
    Some(value * scale * 1000.0)
}

/// Runs `sleep NUMBER[SUFFIX]...`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let mut operands = Vec::new();
        for (index, arg) in ctx.args.iter().enumerate().skip(1) {
            if arg == "--" {
                operands.extend(ctx.args.iter().skip(index + 1).cloned());
                break;
            }
            if let Some(letter) = arg.strip_prefix('-').and_then(|rest| rest.chars().next()) {
                if arg.starts_with("--") {
                    report_usage(ctx, &format!("unrecognized option '{arg}'")).await;
                } else {
                    report_usage(ctx, &format!("invalid option -- '{letter}'")).await;
                }
                return 1;
            }
            operands.push(arg.clone());
        }
        if operands.is_empty() {
            report_usage(ctx, "missing operand").await;
            return 1;
        }
        let mut total = 0.0;
        for operand in &operands {
            match parse_duration(operand) {
                Some(millis) => total += millis,
                None => {
                    report_usage(ctx, &format!("invalid time interval {}", quote_locale(ctx, operand))).await;
                    return 1;
                }
            }
        }
        ctx.host.sleep(total).await;
        // Woken early by an interrupt (Ctrl-C, an abort): ended by SIGINT.
        if ctx.host.interrupted() && !ctx.host.deadline_passed() {
            return 130;
        }
        0
    })
}

#[cfg(test)]
mod tests {
    use super::parse_duration;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("1"), Some(1000.0));
        assert_eq!(parse_duration("0.5s"), Some(500.0));
        assert_eq!(parse_duration("2m"), Some(120_000.0));
        assert_eq!(parse_duration("1.5h"), Some(5_400_000.0));
        assert_eq!(parse_duration("1d"), Some(86_400_000.0));
        assert_eq!(parse_duration(".5"), Some(500.0));
        assert_eq!(parse_duration("inf"), Some(f64::INFINITY));
        assert_eq!(parse_duration("x"), None);
        assert_eq!(parse_duration("1x"), None);
        assert_eq!(parse_duration("s"), None);
        assert_eq!(parse_duration(""), None);
    }
}
