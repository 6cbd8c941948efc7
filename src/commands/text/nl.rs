//! `nl`: number lines, streaming, with GNU's styles (`-b`/`-h`/`-f`: `a`,
//! `t`, `n`, `pBRE`), formats (`-n ln|rn|rz`), width (`-w`), separator
//! (`-s`), start and increment (`-v`, `-i`), blank-line joining (`-l`) and
//! logical-page sections (`\:\:\:`, `\:\:`, `\:`; `-d`, `-p`).

use crate::commands::format::quote_locale;
use crate::commands::options::{parse_or_report, report_usage, Long, Spec};
use crate::commands::text::input::{transform_records, OpenError};
use crate::commands::text::output::status_of;
use crate::host::LocalFuture;
use crate::regex::{Regex, Syntax};
use crate::utility::Invocation;

const SPEC: Spec = Spec::new(
    "b:d:f:h:i:l:n:ps:v:w:",
    &[
        Long::required("body-numbering", "b"),
        Long::required("section-delimiter", "d"),
        Long::required("footer-numbering", "f"),
        Long::required("header-numbering", "h"),
        Long::required("line-increment", "i"),
        Long::required("join-blank-lines", "l"),
        Long::required("number-format", "n"),
        Long::flag("no-renumber", "p"),
        Long::required("number-separator", "s"),
        Long::required("starting-line-number", "v"),
        Long::required("number-width", "w"),
    ],
);

/// Which lines of a section get numbers.
enum Style {
    All,
    NonEmpty,
    None,
    Matching(Box<Regex>),
}

/// How the number is written.
#[derive(Clone, Copy)]
enum Format {
    Left,
    Right,
    Zeros,
}

struct Settings {
    styles: [Style; 3],
    format: Format,
    width: usize,
    separator: Vec<u8>,
    start: i64,
    increment: i64,
    join_blank: i64,
    renumber: bool,
    delimiter: Vec<u8>,
}

/// Parses a style argument; `None` when invalid.
fn style(text: &str) -> Option<Style> {
    match text {
        "a" => Some(Style::All),
        "t" => Some(Style::NonEmpty),
        "n" => Some(Style::None),
        _ => {
            let pattern = text.strip_prefix('p')?;
            Regex::new(pattern.as_bytes(), &Syntax::default()).ok().map(|regex| Style::Matching(Box::new(regex)))
        }
    }
}

async fn settings(ctx: &Invocation<'_>) -> Result<(Settings, Vec<String>), i32> {
    let parsed = parse_or_report(ctx, &SPEC, 1).await?;
    let mut settings = Settings {
        styles: [Style::None, Style::NonEmpty, Style::None],
        format: Format::Right,
        width: 6,
        separator: b"\t".to_vec(),
        start: 1,
        increment: 1,
        join_blank: 1,
        renumber: true,
        delimiter: b"\\:".to_vec(),
    };
    for (key, value) in &parsed.options {
        let text = value.as_deref().unwrap_or("");
        let q = quote_locale(ctx, text);
        match *key {
            "b" | "h" | "f" => {
                let (index, name) = match *key {
                    "h" => (0, "header"),
                    "b" => (1, "body"),
                    _ => (2, "footer"),
                };
                let Some(parsed_style) = style(text) else {
                    report_usage(ctx, &format!("invalid {name} numbering style: {q}")).await;
                    return Err(1);
                };
                settings.styles[index] = parsed_style;
            }
            "n" => {
                settings.format = match text {
                    "ln" => Format::Left,
                    "rn" => Format::Right,
                    "rz" => Format::Zeros,
                    _ => {
                        report_usage(ctx, &format!("invalid line numbering format: {q}")).await;
                        return Err(1);
                    }
                }
            }
            "w" => match text.parse::<i64>() {
                Ok(n) if n > 0 => settings.width = usize::try_from(n).unwrap_or(usize::MAX).min(1 << 16),
                Ok(_) => {
                    ctx.report(&format!("invalid line number field width: {q}: Numerical result out of range")).await;
                    return Err(1);
                }
                Err(_) => {
                    ctx.report(&format!("invalid line number field width: {q}")).await;
                    return Err(1);
                }
            },
            "v" | "i" | "l" => {
                let what = match *key {
                    "v" => "starting line number",
                    "i" => "line number increment",
                    _ => "line number of blank lines",
                };
                let Ok(number) = text.parse::<i64>() else {
                    ctx.report(&format!("invalid {what}: {q}")).await;
                    return Err(1);
                };
                match *key {
                    "v" => settings.start = number,
                    "i" => settings.increment = number,
                    _ if number <= 0 => {
                        ctx.report(&format!("invalid {what}: {q}: Numerical result out of range")).await;
                        return Err(1);
                    }
                    _ => settings.join_blank = number,
                }
            }
            "s" => settings.separator = text.as_bytes().to_vec(),
            "p" => settings.renumber = false,
            "d" => {
                let mut delimiter = text.as_bytes().to_vec();
                if delimiter.len() == 1 {
                    delimiter.push(b':');
                }
                settings.delimiter = delimiter;
            }
            _ => {}
        }
    }
    Ok((settings, parsed.operands))
}

/// Which section a delimiter line starts, if `line` is one.
fn section_of(settings: &Settings, line: &[u8]) -> Option<usize> {
    let delimiter = &settings.delimiter;
    if delimiter.is_empty() {
        return None;
    }
    (1..=3)
        .rev()
        .find(|count| line.len() == delimiter.len() * count && line.chunks(delimiter.len()).all(|c| c == delimiter.as_slice()))
        .map(|count| 3 - count)
}

/// Numbers lines across inputs: the count and the section carry over.
struct Numberer<'s> {
    settings: &'s Settings,
    number: i64,
    section: usize,
    blank_run: i64,
}

impl Numberer<'_> {
    /// Appends one line (with its newline, if any) numbered or padded.
    fn line(&mut self, line: &[u8], out: &mut Vec<u8>) {
        let settings = self.settings;
        let body = line.strip_suffix(b"\n").unwrap_or(line);
        if let Some(next_section) = section_of(settings, body) {
            self.section = next_section;
            if settings.renumber {
                self.number = settings.start;
            }
            out.push(b'\n');
            return;
        }
        let numbered = match &settings.styles[self.section] {
            Style::All if settings.join_blank > 1 && body.is_empty() => {
                self.blank_run += 1;
                let reached = self.blank_run == settings.join_blank;
                if reached {
                    self.blank_run = 0;
                }
                reached
            }
            Style::All => {
                self.blank_run = 0;
                true
            }
            Style::NonEmpty => !body.is_empty(),
            Style::None => false,
            Style::Matching(regex) => regex.is_match(body).unwrap_or(false),
        };
        if numbered {
            let (number, width) = (self.number, settings.width);
            let text = match settings.format {
                Format::Left => format!("{number:<width$}"),
                Format::Right => format!("{number:>width$}"),
                Format::Zeros if number < 0 => format!("-{:0>w$}", number.unsigned_abs(), w = width.saturating_sub(1)),
                Format::Zeros => format!("{number:0>width$}"),
            };
            out.extend_from_slice(text.as_bytes());
            out.extend_from_slice(&settings.separator);
            self.number = self.number.wrapping_add(settings.increment);
        } else {
            out.extend(std::iter::repeat_n(b' ', settings.width + settings.separator.len()));
        }
        out.extend_from_slice(body);
        out.push(b'\n');
    }
}

/// Runs `nl [OPTION]... [FILE]...`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let (settings, operands) = match settings(ctx).await {
            Ok(found) => found,
            Err(status) => return status,
        };
        let mut numberer = Numberer { settings: &settings, number: settings.start, section: 1, blank_run: 0 };
        let number = |line: &[u8], out: &mut Vec<u8>| numberer.line(line, out);
        status_of(transform_records(ctx, &operands, b'\n', OpenError::Plain, number).await)
    })
}

#[cfg(test)]
mod tests {
    use crate::commands::test_support::{new_fs, run_utility};

    #[test]
    fn numbers() {
        let fs = new_fs();
        assert_eq!(run_utility(&fs, &["nl"], b"a\n\nb").stdout, "     1\ta\n       \n     2\tb\n");
        assert_eq!(run_utility(&fs, &["nl", "-ba", "-nln", "-w3", "-s:"], b"a\n\n").stdout, "1  :a\n2  :\n");
        assert_eq!(run_utility(&fs, &["nl", "-nrz", "-w3"], b"a\n").stdout, "001\ta\n");
    }
}
