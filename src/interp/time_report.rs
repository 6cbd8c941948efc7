//! The report of the `time` keyword: bash's TIMEFORMAT (`%[p][l]R`, `U`,
//! `S`, `%P`, `%%`), or the POSIX format of `time -p`. A sandbox spends
//! no separate user or system time, so those are zero.

use super::Shell;
use crate::syntax::ast::TimeFormat;

/// TIMEFORMAT when the variable is unset.
const DEFAULT_FORMAT: &str = "\nreal\t%3lR\nuser\t%3lU\nsys\t%3lS";

/// Formats seconds with `precision` decimals, as `%R` or (`long`) `%lR`.
fn seconds(value: f64, precision: usize, long: bool) -> String {
    if long {
        let minutes = (value / 60.0).floor();
        format!("{minutes}m{:.precision$}s", value - minutes * 60.0)
    } else {
        format!("{value:.precision$}")
    }
}

/// Expands a TIMEFORMAT string; `Err` holds the character bash rejects.
pub fn expand_time_format(format: &str, real: f64, user: f64, system: f64) -> Result<String, char> {
    let mut out = String::new();
    let mut chars = format.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let mut precision = 3;
        if let Some(digit) = chars.peek().and_then(|d| d.to_digit(10)) {
            precision = (digit as usize).min(3);
            chars.next();
        }
        let long = chars.peek() == Some(&'l');
        if long {
            chars.next();
        }
        match chars.next() {
            Some('%') => out.push('%'),
            Some('R') => out.push_str(&seconds(real, precision, long)),
            Some('U') => out.push_str(&seconds(user, precision, long)),
            Some('S') => out.push_str(&seconds(system, precision, long)),
            Some('P') => {
                let percent = if real > 0.0 { (user + system) / real * 100.0 } else { 0.0 };
                out.push_str(&format!("{percent:.2}"));
            }
            Some(other) => return Err(other),
            None => return Err(' '),
        }
    }
    Ok(out)
}

impl Shell {
    /// Writes the `time` report for a pipeline that started at `started`.
    pub(super) async fn report_time(&self, format: TimeFormat, started: f64) {
        let real = (self.host.now_millis() - started).max(0.0) / 1000.0;
        let text = match format {
            TimeFormat::Posix => format!("real {real:.2}\nuser 0.00\nsys 0.00\n"),
            TimeFormat::Default => {
                let format = self.var("TIMEFORMAT").unwrap_or_else(|| DEFAULT_FORMAT.to_string());
                if format.is_empty() {
                    return;
                }
                match expand_time_format(&format, real, 0.0, 0.0) {
                    Ok(text) => format!("{text}\n"),
                    Err(bad) => {
                        self.report_error(&format!("TIMEFORMAT: `{bad}': invalid format character")).await;
                        return;
                    }
                }
            }
        };
        let _ = self.stderr().write(text.as_bytes()).await;
    }
}

#[cfg(test)]
mod tests {
    use super::expand_time_format;

    #[test]
    fn formats_precision_and_long_forms() {
        assert_eq!(expand_time_format("%R|%0R|%1lR|%U|%%", 65.4321, 0.0, 0.0), Ok("65.432|65|1m5.4s|0.000|%".into()));
        assert_eq!(expand_time_format("%9S", 0.0, 0.0, 1.5), Ok("1.500".into()));
        assert_eq!(expand_time_format("%P", 2.0, 0.5, 0.5), Ok("50.00".into()));
    }

    #[test]
    fn rejects_unknown_characters() {
        assert_eq!(expand_time_format("x%Qy", 0.0, 0.0, 0.0), Err('Q'));
        assert_eq!(expand_time_format("%l", 0.0, 0.0, 0.0), Err(' '));
    }
}
