//! `numfmt`: convert numbers to and from human-readable forms (`--from`,
//! `--to` si/iec/iec-i/auto, unit sizes, `--round`), in chosen fields
//! (`--field`, `-d`), padded (`--padding`, `--format`), with GNU's
//! conversion errors and `--invalid` modes. Reads the operands as lines, or
//! standard input line by line after `--header` lines.

mod extended;
mod number;

use crate::commands::format::quote_locale;
use crate::commands::options::{parse_or_report, report_invalid_argument, report_usage, Long, Spec};
use crate::commands::system::float_format::{format_float, FloatSpec};
use crate::commands::text::cut::{parse_ranges, RangeError, Ranges};
use crate::commands::text::input::LineReader;
use crate::commands::text::output::Output;
use crate::host::LocalFuture;
use crate::utility::Invocation;
use extended::Extended;
use number::{Round, Scale, Style};

const SPEC: Spec = Spec::new(
    "d:z",
    &[
        Long::required("from", "from"),
        Long::required("from-unit", "from-unit"),
        Long::required("to", "to"),
        Long::required("to-unit", "to-unit"),
        Long::required("round", "round"),
        Long::required("padding", "padding"),
        Long::required("suffix", "suffix"),
        Long::flag("grouping", "grouping"),
        Long::required("delimiter", "d"),
        Long::required("field", "field"),
        Long::flag("debug", "debug"),
        Long::optional("header", "header"),
        Long::required("format", "format"),
        Long::required("invalid", "invalid"),
        Long::flag("zero-terminated", "z"),
    ],
);

/// What happens to a number that cannot be converted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Invalid {
    Abort,
    Fail,
    Warn,
    Ignore,
}

/// Everything the command line chose.
struct Settings {
    from: Scale,
    from_unit: u64,
    to_unit: u64,
    style: Style,
    invalid: Invalid,
    suffix: Option<Vec<u8>>,
    padding: i64,
    left: bool,
    auto_padding: bool,
    delimiter: Option<u8>,
    fields: Option<Ranges>,
    all_fields: bool,
    format_prefix: Vec<u8>,
    format_suffix: Vec<u8>,
    debug: bool,
}

/// A failure that ends the run (`--invalid=abort`), with its message already shown.
struct Abort;

/// One run's output and state.
struct Converter<'c, 'i> {
    ctx: &'c Invocation<'i>,
    settings: Settings,
    out: Output<'c, 'i>,
    messages: Vec<String>,
}

fn quote(ctx: &Invocation<'_>, bytes: &[u8]) -> String {
    quote_locale(ctx, &String::from_utf8_lossy(bytes))
}

fn float_g(value: Extended) -> String {
    format_float(value.to_f64(), &FloatSpec { conversion: 'g', ..FloatSpec::default() })
}

impl Converter<'_, '_> {
    /// Queues a conversion error; `Err` when it ends the run.
    fn conversion_error(&mut self, message: String) -> Result<(), Abort> {
        if self.settings.invalid != Invalid::Ignore {
            self.messages.push(message);
        }
        if self.settings.invalid == Invalid::Abort {
            return Err(Abort);
        }
        Ok(())
    }

    fn included(&self, field: usize) -> bool {
        if self.settings.all_fields {
            return true;
        }
        match &self.settings.fields {
            None => field == 1,
            Some(ranges) => ranges.contains(field),
        }
    }

    /// Converts one field's text, returning what to print, or `None` if invalid.
    fn convert(&mut self, text: &[u8], field: usize) -> Result<Option<Vec<u8>>, Abort> {
        let mut text = text;
        if let Some(suffix) = &self.settings.suffix {
            if text.len() > suffix.len() && text.ends_with(suffix) {
                text = &text[..text.len() - suffix.len()];
            }
        }
        let skip = text.iter().take_while(|b| matches!(b, b' ' | b'\t')).count();
        let number = &text[skip..];
        if self.settings.auto_padding {
            self.settings.padding = if skip > 0 || field > 1 { text.len() as i64 } else { 0 };
        }
        let parsed = match number::parse(number, self.settings.from) {
            Ok(parsed) => parsed,
            Err(error) => {
                let message = error.message(&quote(self.ctx, number));
                self.conversion_error(message)?;
                return Ok(None);
            }
        };
        if parsed.end < number.len() {
            let message = format!(
                "invalid suffix in input {}: {}",
                quote(self.ctx, number),
                quote(self.ctx, number.get(parsed.end..).unwrap_or(&[]))
            );
            self.conversion_error(message)?;
            return Ok(None);
        }
        if parsed.precision_loss && self.settings.debug {
            self.messages.push(format!("large input value {}: possible precision loss", quote(self.ctx, number)));
        }
        let mut value = parsed.value;
        if self.settings.from_unit != 1 || self.settings.to_unit != 1 {
            let from = Extended::from_u64(self.settings.from_unit);
            value = value.mul(from).div(Extended::from_u64(self.settings.to_unit));
        }
        let precision = self.settings.style.user_precision.unwrap_or(parsed.precision);
        let (_, digits) = number::exponent_of(value, 10);
        if self.settings.style.scale == Scale::None && digits as usize + precision > 18 {
            let message = if precision > 0 {
                format!("value/precision too large to be printed: '{}/{precision}' (consider using --to)", float_g(value))
            } else {
                format!("value too large to be printed: '{}' (consider using --to)", float_g(value))
            };
            self.conversion_error(message)?;
            return Ok(None);
        }
        if digits > 26 {
            self.conversion_error(format!("value too large to be printed: '{}' (cannot handle values > 999Y)", float_g(value)))?;
            return Ok(None);
        }
        let mut human = number::to_human(value, precision, &self.settings.style).into_bytes();
        if let Some(suffix) = &self.settings.suffix {
            human.extend_from_slice(suffix);
        }
        let width = self.settings.padding.max(0) as usize;
        if width > human.len() {
            let fill = vec![b' '; width - human.len()];
            human = if self.settings.left { [human, fill].concat() } else { [fill, human].concat() };
        }
        let mut shown = self.settings.format_prefix.clone();
        shown.extend_from_slice(&human);
        shown.extend_from_slice(&self.settings.format_suffix);
        Ok(Some(shown))
    }

    /// Converts one line (without its terminator); `Ok(valid)`.
    fn line(&mut self, line: &[u8], out: &mut Vec<u8>) -> Result<bool, Abort> {
        let line = match line.iter().position(|b| *b == 0) {
            Some(nul) => &line[..nul],
            None => line,
        };
        let mut valid = true;
        let mut at = 0;
        let mut field = 0;
        loop {
            field += 1;
            let start = at;
            match self.settings.delimiter {
                Some(delimiter) => {
                    while at < line.len() && line[at] != delimiter {
                        at += 1;
                    }
                }
                None => {
                    while at < line.len() && matches!(line[at], b' ' | b'\t' | b'\n') {
                        at += 1;
                    }
                    while at < line.len() && !matches!(line[at], b' ' | b'\t' | b'\n') {
                        at += 1;
                    }
                }
            }
            let text = &line[start..at];
            if self.included(field) {
                match self.convert(text, field) {
                    Ok(Some(shown)) => out.extend_from_slice(&shown),
                    Ok(None) => {
                        valid = false;
                        out.extend_from_slice(text);
                    }
                    Err(abort) => {
                        return Err(abort);
                    }
                }
            } else {
                out.extend_from_slice(text);
            }
            if at >= line.len() {
                break;
            }
            out.push(self.settings.delimiter.unwrap_or(b' '));
            at += 1;
        }
        Ok(valid)
    }

    async fn flush_messages(&mut self) {
        for message in std::mem::take(&mut self.messages) {
            self.ctx.report(&message).await;
        }
    }
}

/// Parses `--from-unit`/`--to-unit`: digits with an optional `K`..`Y`
/// (powers of 1000) or `Ki`..`Yi` (powers of 1024); zero is refused.
fn unit_size(text: &str) -> Option<u64> {
    let digits_end = text.find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len());
    let value: u64 = text.get(..digits_end)?.parse().ok()?;
    let rest = text.get(digits_end..)?;
    let (letter, base) = match rest.as_bytes() {
        [] => return (value > 0).then_some(value),
        [letter] => (*letter, 1000u64),
        [letter, b'i'] => (*letter, 1024u64),
        _ => return None,
    };
    let exponent = b"KMGTPEZY".iter().position(|b| *b == letter)? as u32 + 1;
    let factor = base.checked_pow(exponent)?;
    value.checked_mul(factor).filter(|n| *n > 0)
}

/// Reads `--format`, GNU's subset of printf: `[PREFIX]%[0]['][-][N][.N]f[SUFFIX]`.
fn parse_format(text: &str, settings: &mut Settings) -> Result<(bool, bool), String> {
    let bytes = text.as_bytes();
    let mut i = 0;
    let mut prefix_len = 0;
    while !(bytes.get(i) == Some(&b'%') && bytes.get(i + 1) != Some(&b'%')) {
        if i >= bytes.len() {
            return Err("format {} has no % directive".into());
        }
        prefix_len += 1;
        i += usize::from(bytes.get(i) == Some(&b'%')) + 1;
    }
    i += 1;
    let mut zero = false;
    let mut grouping = false;
    loop {
        let skip = bytes.get(i..).unwrap_or(&[]).iter().take_while(|b| **b == b' ').count();
        i += skip;
        match bytes.get(i) {
            Some(b'\'') => {
                grouping = true;
                i += 1;
            }
            Some(b'0') => {
                zero = true;
                i += 1;
            }
            _ if skip == 0 => break,
            _ => {}
        }
    }
    let number_start = i;
    let mut j = i;
    while matches!(bytes.get(j), Some(b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')) {
        j += 1;
    }
    let sign_at = j;
    if matches!(bytes.get(j), Some(b'+' | b'-')) {
        j += 1;
    }
    let digits_start = j;
    while bytes.get(j).is_some_and(u8::is_ascii_digit) {
        j += 1;
    }
    let mut overriding = false;
    if j > digits_start {
        let digits = text.get(digits_start..j).unwrap_or("0");
        let Ok(magnitude) = digits.parse::<i64>() else {
            return Err("invalid format {} (width overflow)".into());
        };
        let pad = if bytes.get(sign_at) == Some(&b'-') { -magnitude } else { magnitude };
        if pad != 0 {
            overriding = settings.padding != 0 && !(zero && pad > 0);
            if pad < 0 {
                settings.left = true;
                settings.padding = -pad;
            } else if zero {
                settings.style.zero_width = pad as usize;
            } else {
                settings.padding = pad;
            }
        }
        i = j;
    } else {
        i = number_start;
    }
    match bytes.get(i) {
        None => return Err("format {} ends in %".into()),
        Some(b'.') => {
            i += 1;
            if matches!(bytes.get(i), Some(b' ' | b'\t' | b'+' | b'-')) {
                return Err("invalid precision in format {}".into());
            }
            let start = i;
            while bytes.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            let precision = if i > start { text.get(start..i).and_then(|d| d.parse::<usize>().ok()) } else { Some(0) };
            match precision {
                Some(p) if p <= 1_000_000 => settings.style.user_precision = Some(p),
                _ => return Err("invalid precision in format {}".into()),
            }
        }
        _ => {}
    }
    if bytes.get(i) != Some(&b'f') {
        return Err("invalid format {}, directive must be %[0]['][-][N][.][N]f".into());
    }
    i += 1;
    let suffix_pos = i;
    while i < bytes.len() {
        if bytes.get(i) == Some(&b'%') && bytes.get(i + 1) != Some(&b'%') {
            return Err("format {} has too many % directives".into());
        }
        i += usize::from(bytes.get(i) == Some(&b'%')) + 1;
    }
    settings.format_prefix = bytes.get(..prefix_len).unwrap_or(&[]).to_vec();
    settings.format_suffix = bytes.get(suffix_pos..).unwrap_or(&[]).to_vec();
    Ok((overriding, grouping))
}

async fn fail(ctx: &Invocation<'_>, message: &str) -> i32 {
    ctx.report(message).await;
    1
}

/// Runs `numfmt [OPTION]... [NUMBER]...`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let parsed = match parse_or_report(ctx, &SPEC, 1).await {
            Ok(parsed) => parsed,
            Err(status) => return status,
        };
        let mut settings = Settings {
            from: Scale::None,
            from_unit: 1,
            to_unit: 1,
            style: Style { scale: Scale::None, round: Round::FromZero, user_precision: None, zero_width: 0 },
            invalid: Invalid::Abort,
            suffix: None,
            padding: 0,
            left: false,
            auto_padding: false,
            delimiter: None,
            fields: None,
            all_fields: false,
            format_prefix: Vec::new(),
            format_suffix: Vec::new(),
            debug: false,
        };
        let mut header = 0u64;
        let mut grouping = false;
        let mut format = None;
        let mut field_given = false;
        let mut terminator = b'\n';
        for (key, value) in &parsed.options {
            let text = value.clone().unwrap_or_default();
            let q = quote_locale(ctx, &text);
            match *key {
                "from" | "to" => {
                    let choices: &[(&str, Scale)] = if *key == "from" {
                        &[("none", Scale::None), ("auto", Scale::Auto), ("si", Scale::Si), ("iec", Scale::Iec), ("iec-i", Scale::IecI)]
                    } else {
                        &[("none", Scale::None), ("si", Scale::Si), ("iec", Scale::Iec), ("iec-i", Scale::IecI)]
                    };
                    let exact = choices.iter().find(|(name, _)| *name == text);
                    let prefixed: Vec<_> = choices.iter().filter(|(name, _)| name.starts_with(text.as_str())).collect();
                    let chosen = match (exact, prefixed.as_slice()) {
                        (Some((_, scale)), _) => *scale,
                        (None, [(_, scale)]) if !text.is_empty() => *scale,
                        _ => {
                            let groups: Vec<&[&str]> = choices.iter().map(|(name, _)| std::slice::from_ref(name)).collect();
                            report_invalid_argument(ctx, &text, &format!("--{key}"), &groups).await;
                            return 1;
                        }
                    };
                    if *key == "from" {
                        settings.from = chosen;
                    } else {
                        settings.style.scale = chosen;
                    }
                }
                "round" | "invalid" => {
                    let names: &[&str] = if *key == "round" {
                        &["up", "down", "from-zero", "towards-zero", "nearest"]
                    } else {
                        &["abort", "fail", "warn", "ignore"]
                    };
                    let exact = names.iter().position(|name| *name == text);
                    let prefixed: Vec<usize> = (0..names.len()).filter(|i| names[*i].starts_with(text.as_str())).collect();
                    let index = match (exact, prefixed.as_slice()) {
                        (Some(i), _) => i,
                        (None, [i]) if !text.is_empty() => *i,
                        _ => {
                            let groups: Vec<&[&str]> = names.iter().map(std::slice::from_ref).collect();
                            report_invalid_argument(ctx, &text, &format!("--{key}"), &groups).await;
                            return 1;
                        }
                    };
                    if *key == "round" {
                        settings.style.round = [Round::Ceiling, Round::Floor, Round::FromZero, Round::ToZero, Round::Nearest][index];
                    } else {
                        settings.invalid = [Invalid::Abort, Invalid::Fail, Invalid::Warn, Invalid::Ignore][index];
                    }
                }
                "from-unit" | "to-unit" => match unit_size(&text) {
                    Some(size) if *key == "from-unit" => settings.from_unit = size,
                    Some(size) => settings.to_unit = size,
                    None => return fail(ctx, &format!("invalid unit size: {q}")).await,
                },
                "grouping" => grouping = true,
                "padding" => match text.trim_start().parse::<i64>() {
                    Ok(n) if n != 0 && n > -i64::MAX => {
                        settings.left = n < 0;
                        settings.padding = n.abs();
                    }
                    _ => return fail(ctx, &format!("invalid padding value {q}")).await,
                },
                "field" => {
                    if field_given {
                        return fail(ctx, "multiple field specifications").await;
                    }
                    field_given = true;
                    if text == "-" {
                        settings.all_fields = true;
                    } else {
                        match parse_ranges(&text) {
                            Ok(ranges) => settings.fields = Some(ranges),
                            Err(error) => {
                                let message = match error {
                                    RangeError::FromOne => "fields are numbered from 1".to_string(),
                                    RangeError::Decreasing => "invalid decreasing range".to_string(),
                                    RangeError::NoEndpoint => "invalid range with no endpoint: -".to_string(),
                                    RangeError::Invalid(bad) => format!("invalid field value {}", quote_locale(ctx, &bad)),
                                };
                                report_usage(ctx, &message).await;
                                return 1;
                            }
                        }
                    }
                }
                "d" => {
                    if text.len() > 1 {
                        return fail(ctx, "the delimiter must be a single character").await;
                    }
                    settings.delimiter = Some(text.bytes().next().unwrap_or(0));
                }
                "z" => terminator = 0,
                "suffix" => settings.suffix = Some(text.into_bytes()),
                "debug" => settings.debug = true,
                "header" => match value {
                    None => header = 1,
                    Some(text) => match text.trim_start().strip_prefix('+').unwrap_or(text.trim_start()).parse::<u64>() {
                        Ok(n) if n > 0 => header = n,
                        _ => return fail(ctx, &format!("invalid header value {q}")).await,
                    },
                },
                "format" => format = Some(text),
                _ => {}
            }
        }
        if format.is_some() && grouping {
            return fail(ctx, "--grouping cannot be combined with --format").await;
        }
        let mut warnings = Vec::new();
        if settings.debug
            && settings.from == Scale::None
            && settings.style.scale == Scale::None
            && !grouping
            && settings.padding == 0
            && format.is_none()
        {
            warnings.push("no conversion option specified".to_string());
        }
        if let Some(text) = &format {
            match parse_format(text, &mut settings) {
                Ok((overriding, quoted)) => {
                    if overriding && settings.debug {
                        warnings.push("--format padding overriding --padding".to_string());
                    }
                    grouping |= quoted;
                }
                Err(message) => return fail(ctx, &message.replace("{}", &quote_locale(ctx, text))).await,
            }
        }
        if grouping {
            if settings.style.scale != Scale::None {
                return fail(ctx, "grouping cannot be combined with --to").await;
            }
            if settings.debug {
                warnings.push("grouping has no effect in this locale".to_string());
            }
        }
        settings.auto_padding = settings.padding == 0 && settings.delimiter.is_none();
        if settings.debug && header > 0 && !parsed.operands.is_empty() {
            warnings.push("--header ignored with command-line input".to_string());
        }
        for warning in &warnings {
            ctx.report(warning).await;
        }
        let debug = settings.debug;
        let invalid = settings.invalid;
        let mut converter = Converter { ctx, settings, out: Output::new(ctx), messages: Vec::new() };
        let mut all_valid = true;
        let mut buffer = Vec::new();
        let mut aborted = false;
        if !parsed.operands.is_empty() {
            for operand in &parsed.operands {
                buffer.clear();
                let result = converter.line(operand.as_bytes(), &mut buffer);
                if result.is_ok() {
                    buffer.push(terminator);
                }
                if converter.out.write(&buffer).await.is_err() {
                    return 1;
                }
                converter.flush_messages().await;
                match result {
                    Ok(valid) => all_valid &= valid,
                    Err(Abort) => {
                        aborted = true;
                        break;
                    }
                }
            }
        } else {
            let mut reader = LineReader::new(ctx.stdin.clone(), terminator);
            loop {
                let record = match reader.next_record().await {
                    Ok(Some(record)) => record,
                    Ok(None) => break,
                    Err(()) => {
                        ctx.report("error reading input").await;
                        break;
                    }
                };
                buffer.clear();
                let result = if header > 0 {
                    header -= 1;
                    buffer.extend_from_slice(record);
                    Ok(true)
                } else {
                    let (line, ended) = match record.strip_suffix(&[terminator]) {
                        Some(line) => (line, true),
                        None => (record, false),
                    };
                    let line = line.to_vec();
                    let result = converter.line(&line, &mut buffer);
                    if ended && result.is_ok() {
                        buffer.push(terminator);
                    }
                    result
                };
                if converter.out.write(&buffer).await.is_err() {
                    return 1;
                }
                match result {
                    Ok(valid) => all_valid &= valid,
                    Err(Abort) => {
                        aborted = true;
                        break;
                    }
                }
                if !converter.messages.is_empty() {
                    if converter.out.flush().await.is_err() {
                        return 1;
                    }
                    converter.flush_messages().await;
                }
            }
        }
        if converter.out.flush().await.is_err() {
            return 1;
        }
        converter.flush_messages().await;
        if aborted {
            return 2;
        }
        if debug && !all_valid {
            ctx.report("failed to convert some of the input numbers").await;
        }
        if !all_valid && matches!(invalid, Invalid::Abort | Invalid::Fail) {
            2
        } else {
            0
        }
    })
}
