//! `od`: dump the inputs, concatenated, as octal, hexadecimal, decimal,
//! characters or floats (`-t TYPE`, `-c`, `-x`...), with `-A` addresses,
//! `-j` skip, `-N` limit, `-w` width and `*` for repeated lines unless `-v`.

use crate::commands::common::inputs;
use crate::commands::format::quote_locale;
use crate::commands::options::{parse_or_report, report_usage, Long, Spec};
use crate::commands::text::input::{open_or_report, OpenError};
use crate::commands::text::od_format::{parse_types, Kind, OutputType, TypeError};
use crate::commands::text::output::{status_of, Output};
use crate::host::LocalFuture;
use crate::io::{Fd, READ_CHUNK};
use crate::utility::Invocation;

const SPEC: Spec = Spec::new(
    "A:abcdDfhHiIj:lLN:oOsS:t:vw::xX",
    &[
        Long::required("address-radix", "A"),
        Long::required("endian", "endian"),
        Long::required("format", "t"),
        Long::flag("output-duplicates", "v"),
        Long::required("read-bytes", "N"),
        Long::required("skip-bytes", "j"),
        Long::required("strings", "S"),
        Long::flag("traditional", "traditional"),
        Long::optional("width", "w"),
    ],
);

/// How addresses are written.
#[derive(Clone, Copy)]
enum Radix {
    Octal,
    Decimal,
    Hex,
    None,
}

impl Radix {
    fn format(self, address: u64) -> String {
        match self {
            Radix::Octal => format!("{address:07o}"),
            Radix::Decimal => format!("{address:07}"),
            Radix::Hex => format!("{address:06x}"),
            Radix::None => String::new(),
        }
    }
}

/// Everything the command line decides.
struct Settings {
    radix: Radix,
    types: Vec<OutputType>,
    skip: u64,
    limit: Option<u64>,
    width: usize,
    verbose: bool,
    big_endian: bool,
    /// GNU warns about a bad `-w` only once the skip is done.
    width_warning: Option<String>,
}

/// Parses a `-j`/`-N` number (decimal, `0x` hex, `0` octal, GNU suffixes).
fn parse_size(text: &str) -> Result<u64, bool> {
    let (digits, radix) = if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        (hex, 16)
    } else if text.len() > 1 && text.starts_with('0') {
        (&text[1..], 8)
    } else {
        (text, 10)
    };
    let end = digits.find(|c: char| !c.is_digit(radix)).unwrap_or(digits.len());
    if end == 0 && radix != 8 {
        return Err(false);
    }
    let value = u64::from_str_radix(&digits[..end], radix).unwrap_or(if end == 0 { 0 } else { u64::MAX });
    let multiplier: u64 = match &digits[end..] {
        "" => 1,
        "b" => 512,
        "B" => 1024,
        "kB" | "KB" => 1000,
        "k" | "K" | "KiB" => 1 << 10,
        "MB" => 1_000_000,
        "m" | "M" | "MiB" => 1 << 20,
        "GB" => 1_000_000_000,
        "g" | "G" | "GiB" => 1 << 30,
        "T" | "TiB" => 1 << 40,
        "P" | "PiB" => 1 << 50,
        "E" | "EiB" => 1 << 60,
        _ => return Err(true),
    };
    Ok(value.saturating_mul(multiplier))
}

/// Reads the command line into settings; `Err(status)` after reporting.
async fn settings(ctx: &Invocation<'_>) -> Result<(Settings, Vec<String>), i32> {
    let parsed = parse_or_report(ctx, &SPEC, 1).await?;
    let mut settings = Settings {
        radix: Radix::Octal,
        types: Vec::new(),
        skip: 0,
        limit: None,
        width: 16,
        verbose: false,
        big_endian: false,
        width_warning: None,
    };
    for (key, value) in &parsed.options {
        let text = value.as_deref().unwrap_or("");
        let shorthand = match *key {
            "a" => "a",
            "b" => "o1",
            "c" => "c",
            "d" => "u2",
            "D" => "u4",
            "f" => "fF",
            "h" | "x" => "x2",
            "H" | "X" => "x4",
            "i" | "I" => "dI",
            "l" | "L" => "dL",
            "o" => "o2",
            "O" => "o4",
            "s" => "d2",
            "t" => text,
            _ => "",
        };
        if !shorthand.is_empty() {
            match parse_types(shorthand) {
                Ok(types) => settings.types.extend(types),
                Err(error) => {
                    let message = match error {
                        TypeError::BadCharacter(c) => format!("invalid character '{c}' in type string {}", quote_locale(ctx, text)),
                        TypeError::NoIntegerSize(n) => {
                            format!(
                                "invalid type string {};\nthis system doesn't provide a {n}-byte integral type",
                                quote_locale(ctx, text)
                            )
                        }
                        TypeError::NoFloatSize(n) => {
                            format!(
                                "invalid type string {};\nthis system doesn't provide a {n}-byte floating point type",
                                quote_locale(ctx, text)
                            )
                        }
                    };
                    ctx.report(&message).await;
                    return Err(1);
                }
            }
            continue;
        }
        match *key {
            "A" => {
                settings.radix = match text {
                    "o" => Radix::Octal,
                    "d" => Radix::Decimal,
                    "x" => Radix::Hex,
                    "n" => Radix::None,
                    _ => {
                        ctx.report(&format!("invalid output address radix '{text}'; it must be one character from [doxn]")).await;
                        return Err(1);
                    }
                }
            }
            "j" | "N" => {
                let number = match parse_size(text) {
                    Ok(number) => number,
                    Err(bad_suffix) => {
                        let what = if bad_suffix { "invalid suffix in" } else { "invalid" };
                        ctx.report(&format!("{what} -{key} argument '{text}'")).await;
                        return Err(1);
                    }
                };
                if *key == "j" {
                    settings.skip = number;
                } else {
                    settings.limit = Some(number);
                }
            }
            "v" => settings.verbose = true,
            "w" => {
                settings.width = match value {
                    None => 32,
                    Some(text) => match parse_size(text) {
                        Ok(n) => usize::try_from(n).unwrap_or(usize::MAX),
                        Err(_) => {
                            ctx.report(&format!("invalid -w argument '{text}'")).await;
                            return Err(1);
                        }
                    },
                }
            }
            "endian" => match text {
                "big" => settings.big_endian = true,
                "little" => settings.big_endian = false,
                _ => {
                    crate::commands::options::report_invalid_argument(ctx, text, "--endian", &[&["little"], &["big"]]).await;
                    return Err(1);
                }
            },
            "S" | "traditional" => {
                report_usage(ctx, "--strings and --traditional are not supported").await;
                return Err(1);
            }
            _ => {}
        }
    }
    if settings.types.is_empty() {
        settings.types.push(OutputType { kind: Kind::Octal, size: 2, dump: false });
    }
    let unit = settings.types.iter().fold(1, |acc, t| lcm(acc, t.size));
    if settings.width == 0 || settings.width % unit != 0 {
        settings.width_warning = Some(format!("warning: invalid width {}; using {unit} instead", settings.width));
        settings.width = unit;
    }
    Ok((settings, parsed.operands))
}

fn lcm(a: usize, b: usize) -> usize {
    let (mut x, mut y) = (a, b);
    while y != 0 {
        (x, y) = (y, x % y);
    }
    a / x.max(1) * b
}

/// The input files read one after the other as one stream.
struct Concatenated<'c, 'i> {
    ctx: &'c Invocation<'i>,
    names: Vec<crate::commands::common::Input>,
    next: usize,
    current: Option<Fd>,
    failed: bool,
}

impl Concatenated<'_, '_> {
    /// Up to `want` bytes from the current input or the next ones; empty at the end.
    async fn read(&mut self, want: usize) -> Vec<u8> {
        loop {
            if let Some(stream) = &self.current {
                match stream.read(want).await {
                    Ok(chunk) if !chunk.is_empty() => return chunk,
                    Ok(_) => {}
                    Err(_) => self.failed = true,
                }
                self.current = None;
            }
            let Some(input) = self.names.get(self.next) else {
                return Vec::new();
            };
            self.next += 1;
            match open_or_report(self.ctx, input, OpenError::Plain).await {
                Some(stream) => self.current = Some(stream),
                None => self.failed = true,
            }
        }
    }

    /// Fills `block` up to `want` bytes, across inputs.
    async fn fill(&mut self, want: usize) -> Vec<u8> {
        let mut block = Vec::new();
        while block.len() < want {
            let chunk = self.read(want - block.len()).await;
            if chunk.is_empty() {
                break;
            }
            block.extend_from_slice(&chunk);
        }
        block
    }
}

/// Writes one block's lines (one per type).
fn format_block(settings: &Settings, address: u64, block: &[u8], out: &mut Vec<u8>) {
    let width = settings.width;
    let per_block = settings.types.iter().map(|t| (t.width() + 1) * (width / t.size)).max().unwrap_or(0);
    for (index, output_type) in settings.types.iter().enumerate() {
        let address_text = settings.radix.format(address);
        if index == 0 {
            out.extend_from_slice(address_text.as_bytes());
        } else {
            out.extend(std::iter::repeat_n(b' ', address_text.len()));
        }
        let fields = width / output_type.size;
        let blank = (width - block.len()) / output_type.size;
        let pad = per_block - output_type.width() * fields;
        let mut pad_remaining = pad;
        for field in (blank + 1..=fields).rev() {
            let next_pad = pad * (field - 1) / fields;
            let start = (fields - field) * output_type.size;
            let mut bytes: Vec<u8> = (start..start + output_type.size).map(|i| block.get(i).copied().unwrap_or(0)).collect();
            if settings.big_endian {
                bytes.reverse();
            }
            let text = output_type.format(&bytes);
            let field_width = pad_remaining - next_pad + output_type.width();
            out.extend_from_slice(format!("{text:>field_width$}").as_bytes());
            pad_remaining = next_pad;
        }
        if output_type.dump {
            // The blank fields' share of the line, then two spaces.
            let blank_width = blank * output_type.width() + pad_remaining;
            out.extend(std::iter::repeat_n(b' ', blank_width + 2));
            out.push(b'>');
            out.extend(block.iter().map(|&b| if (32..127).contains(&b) { b } else { b'.' }));
            out.push(b'<');
        }
        out.push(b'\n');
    }
}

async fn dump(ctx: &Invocation<'_>, settings: &Settings, operands: &[String]) -> Result<i32, i32> {
    let mut source = Concatenated { ctx, names: inputs(operands), next: 0, current: None, failed: false };
    let mut skipped = 0u64;
    while skipped < settings.skip {
        let want = usize::try_from(settings.skip - skipped).unwrap_or(usize::MAX).min(READ_CHUNK);
        let chunk = source.read(want).await;
        if chunk.is_empty() {
            ctx.report("cannot skip past end of combined input").await;
            return Ok(1);
        }
        skipped += chunk.len() as u64;
    }
    if let Some(warning) = &settings.width_warning {
        ctx.report(warning).await;
    }
    let mut out = Output::new(ctx);
    let mut address = settings.skip;
    let mut left = settings.limit.unwrap_or(u64::MAX);
    let mut previous: Option<Vec<u8>> = None;
    let mut starred = false;
    let mut text = Vec::new();
    while left > 0 {
        let want = usize::try_from(left).unwrap_or(usize::MAX).min(settings.width);
        let block = source.fill(want).await;
        if block.is_empty() {
            break;
        }
        left -= block.len() as u64;
        let repeated = !settings.verbose && block.len() == settings.width && previous.as_ref() == Some(&block);
        if repeated {
            if !starred {
                out.write(b"*\n").await?;
                starred = true;
            }
        } else {
            starred = false;
            text.clear();
            format_block(settings, address, &block, &mut text);
            out.write(&text).await?;
        }
        address += block.len() as u64;
        previous = Some(block);
    }
    if !matches!(settings.radix, Radix::None) {
        out.write(format!("{}\n", settings.radix.format(address)).as_bytes()).await?;
    }
    out.flush().await?;
    Ok(i32::from(source.failed))
}

/// Runs `od [OPTION]... [FILE]...`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let (settings, operands) = match settings(ctx).await {
            Ok(found) => found,
            Err(status) => return status,
        };
        status_of(dump(ctx, &settings, &operands).await)
    })
}

#[cfg(test)]
mod tests {
    use crate::commands::test_support::{new_fs, run_utility};

    #[test]
    fn default_and_types() {
        let fs = new_fs();
        assert_eq!(run_utility(&fs, &["od"], b"abc").stdout, "0000000 061141 000143\n0000003\n");
        assert_eq!(run_utility(&fs, &["od", "-An", "-tx1"], b"hi\n").stdout, " 68 69 0a\n");
        let out = run_utility(&fs, &["od", "-Ax", "-c", "-tx1"], b"ab");
        assert_eq!(out.stdout, "000000   a   b\n        61  62\n000002\n");
        assert_eq!(run_utility(&fs, &["od", "-w4", "-tx1"], b"aaaaaaaaaaaa").stdout, "0000000 61 61 61 61\n*\n0000014\n");
    }
}
