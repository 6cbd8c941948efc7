//! `cmp`: compare two inputs byte by byte, as GNU diffutils 3.8 does: the
//! first difference (`a b differ: byte N, line M`, with `-b` the bytes
//! too), every difference (`-l`), or only the status (`-s`); `-i` skips
//! leading bytes of each input (`SKIP1:SKIP2`, with `kB K MB M...`
//! suffixes), `-n` limits the count; `cmp: EOF on a after byte N, line M`
//! when one input is a prefix of the other. The inputs are streamed.

use crate::commands::common::{open_input, Input};
use crate::commands::options::{parse, Long, Spec};
use crate::host::LocalFuture;
use crate::io::{Fd, READ_CHUNK};
use crate::utility::Invocation;

const SPEC: Spec = Spec::new(
    "bi:ln:sv",
    &[
        Long::required("bytes", "n"),
        Long::flag("help", "help"),
        Long::required("ignore-initial", "i"),
        Long::flag("print-bytes", "b"),
        Long::flag("quiet", "s"),
        Long::flag("silent", "s"),
        Long::flag("verbose", "l"),
        Long::flag("version", "v"),
    ],
);

const USAGE: &str = "\
Usage: cmp [OPTION]... FILE1 [FILE2 [SKIP1 [SKIP2]]]
Compare two files byte by byte.

The optional SKIP1 and SKIP2 specify the number of bytes to skip
at the beginning of each file (zero by default).

Mandatory arguments to long options are mandatory for short options too.
  -b, --print-bytes          print differing bytes
  -i, --ignore-initial=SKIP         skip first SKIP bytes of both inputs
  -i, --ignore-initial=SKIP1:SKIP2  skip first SKIP1 bytes of FILE1 and
                                      first SKIP2 bytes of FILE2
  -l, --verbose              output byte numbers and differing byte values
  -n, --bytes=LIMIT          compare at most LIMIT bytes
  -s, --quiet, --silent      suppress all normal output
      --help                 display this help and exit
  -v, --version              output version information and exit

SKIP values may be followed by the following multiplicative suffixes:
kB 1000, K 1024, MB 1,000,000, M 1,048,576,
GB 1,000,000,000, G 1,073,741,824, and so on for T, P, E, Z, Y.

If a FILE is '-' or missing, read standard input.
Exit status is 0 if inputs are the same, 1 if different, 2 if trouble.
";

/// What `cmp` reports.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Report {
    /// The first difference.
    First,
    /// Every difference (`-l`).
    All,
    /// Nothing, only the status (`-s`).
    Status,
}

/// The command line, checked.
struct Settings {
    report: Report,
    print_bytes: bool,
    skips: [u64; 2],
    limit: Option<u64>,
    names: [String; 2],
}

/// Parses a byte count as GNU's `xstrtoumax` with cmp's suffixes: C
/// number syntax (`0x10`, `010`), then `k K M G T P E Z Y`, each power of
/// 1024, or of 1000 when `B` follows (`KiB` is 1024 again).
fn parse_count(text: &str) -> Option<u64> {
    let (digits_start, radix) = if let Some(rest) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        (text.len() - rest.len(), 16)
    } else if text.starts_with('0') && text.len() > 1 {
        (1, 8)
    } else {
        (0, 10)
    };
    let body = text.get(digits_start..)?;
    let digits_len = body.find(|c: char| !c.is_digit(radix)).unwrap_or(body.len());
    if digits_len == 0 && radix != 8 {
        return None;
    }
    let value = if digits_len == 0 { 0 } else { u64::from_str_radix(body.get(..digits_len)?, radix).ok()? };
    let suffix = body.get(digits_len..)?;
    if suffix.is_empty() {
        return Some(value);
    }
    let mut chars = suffix.chars();
    let power = match chars.next()? {
        'k' | 'K' => 1,
        'M' => 2,
        'G' => 3,
        'T' => 4,
        'P' => 5,
        'E' => 6,
        'Z' => 7,
        'Y' => 8,
        _ => return None,
    };
    let base: u64 = match chars.as_str() {
        "" | "iB" => 1024,
        "B" | "D" => 1000,
        _ => return None,
    };
    let mut result = value;
    for _ in 0..power {
        result = result.checked_mul(base)?;
    }
    Some(result)
}

/// Parses `-i`'s `SKIP` or `SKIP1:SKIP2`; `Err` holds the text from where
/// parsing failed, as GNU reports it.
fn parse_skips(text: &str) -> Result<[u64; 2], &str> {
    match text.split_once(':') {
        Some((first, second)) => {
            let first = parse_count(first).ok_or(text)?;
            Ok([first, parse_count(second).ok_or(second)?])
        }
        None => parse_count(text).map(|skip| [skip, skip]).ok_or(text),
    }
}

/// The command line's verdict: settings, or text to print with a status.
enum Command {
    Compare(Settings),
    Exit(String, bool, i32),
}

fn usage(message: String) -> Command {
    Command::Exit(format!("cmp: {message}\ncmp: Try 'cmp --help' for more information.\n"), false, 2)
}

fn parse_command(args: &[String]) -> Command {
    let parsed = match parse(&SPEC, args) {
        Ok(parsed) => parsed,
        Err(error) => return usage(error.message()),
    };
    let mut settings = Settings { report: Report::First, print_bytes: false, skips: [0, 0], limit: None, names: Default::default() };
    let (mut list, mut silent) = (false, false);
    for (key, value) in &parsed.options {
        let value = value.as_deref().unwrap_or("");
        match *key {
            "help" => return Command::Exit(USAGE.to_string(), true, 0),
            "v" => return Command::Exit("cmp (GNU diffutils) 3.8\n".to_string(), true, 0),
            "b" => settings.print_bytes = true,
            "l" => list = true,
            "s" => silent = true,
            "n" => match parse_count(value) {
                Some(limit) => settings.limit = Some(limit),
                None => return usage(format!("invalid --bytes value '{value}'")),
            },
            "i" => match parse_skips(value) {
                Ok(skips) => settings.skips = skips,
                Err(bad) => return usage(format!("invalid --ignore-initial value '{bad}'")),
            },
            _ => {}
        }
    }
    if list && silent {
        return usage("options -l and -s are incompatible".to_string());
    }
    settings.report = if silent {
        Report::Status
    } else if list {
        Report::All
    } else {
        Report::First
    };
    let operands = &parsed.operands;
    match operands.len() {
        0 => return usage("missing operand after 'cmp'".to_string()),
        5.. => return usage(format!("extra operand '{}'", operands[4])),
        _ => {}
    }
    settings.names = [operands[0].clone(), operands.get(1).cloned().unwrap_or_else(|| "-".to_string())];
    for (side, text) in operands.iter().skip(2).enumerate() {
        match parse_count(text) {
            Some(skip) => settings.skips[side] = skip,
            None => return usage(format!("invalid --ignore-initial value '{text}'")),
        }
    }
    Command::Compare(settings)
}

/// A chunked reader of one input.
struct Source {
    stream: Fd,
    buffer: Vec<u8>,
    position: usize,
    ended: bool,
}

impl Source {
    /// The unread bytes, reading a chunk when none are buffered; empty at the end.
    async fn available(&mut self) -> Result<&[u8], ()> {
        if self.position >= self.buffer.len() && !self.ended {
            self.buffer = self.stream.read(READ_CHUNK).await.map_err(|_| ())?;
            self.position = 0;
            self.ended = self.buffer.is_empty();
        }
        Ok(self.buffer.get(self.position..).unwrap_or(&[]))
    }

    /// Skips `count` bytes (fewer at the end of input).
    async fn skip(&mut self, mut count: u64) -> Result<(), ()> {
        while count > 0 {
            let available = self.available().await?.len() as u64;
            if available == 0 {
                return Ok(());
            }
            let step = available.min(count);
            self.position += step as usize;
            count -= step;
        }
        Ok(())
    }
}

/// A byte as `cmp -b` shows it: `^A`, `M-x`, `^?`.
fn byte_text(byte: u8) -> String {
    let mut text = String::new();
    let mut low = byte;
    if byte >= 0x80 {
        text.push_str("M-");
        low = byte - 0x80;
    }
    match low {
        0..=31 => {
            text.push('^');
            text.push((low + 64) as char);
        }
        127 => text.push_str("^?"),
        _ => text.push(low as char),
    }
    text
}

/// Runs `cmp`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let args = ctx.args.get(1..).unwrap_or(&[]).to_vec();
        let settings = match parse_command(&args) {
            Command::Compare(settings) => settings,
            Command::Exit(text, to_stdout, status) => {
                let stream = if to_stdout { &ctx.stdout } else { &ctx.stderr };
                return match stream.write(text.as_bytes()).await {
                    Ok(()) => status,
                    Err(error) => ctx.write_failed_with(error, |error| format!("standard output: {error}"), 2).await,
                };
            }
        };
        compare(ctx, &settings).await
    })
}

/// Opens both inputs; `Err(status)` after reporting a failure.
async fn open_both(ctx: &Invocation<'_>, settings: &Settings) -> Result<[Source; 2], i32> {
    let mut sources = Vec::with_capacity(2);
    for name in &settings.names {
        let input = if name == "-" { Input::Stdin } else { Input::File(name.clone()) };
        match open_input(ctx, &input).await {
            Ok(stream) => sources.push(Source { stream, buffer: Vec::new(), position: 0, ended: false }),
            Err(error) => {
                ctx.report(&format!("{name}: {error}")).await;
                return Err(2);
            }
        }
    }
    let second = sources.pop().ok_or(2)?;
    let first = sources.pop().ok_or(2)?;
    Ok([first, second])
}

/// True when both names are one file compared from the same offset.
async fn same_file(ctx: &Invocation<'_>, settings: &Settings) -> bool {
    if settings.skips[0] != settings.skips[1] {
        return false;
    }
    let [a, b] = &settings.names;
    if a == "-" || b == "-" {
        return a == b;
    }
    match (ctx.fs.metadata(&ctx.resolve(a)).await, ctx.fs.metadata(&ctx.resolve(b)).await) {
        (Ok(x), Ok(y)) => x.is_file() && x.dev == y.dev && x.ino == y.ino,
        _ => false,
    }
}

async fn compare(ctx: &Invocation<'_>, settings: &Settings) -> i32 {
    if same_file(ctx, settings).await {
        return 0;
    }
    let mut sources = match open_both(ctx, settings).await {
        Ok(sources) => sources,
        Err(status) => return status,
    };
    for (source, &skip) in sources.iter_mut().zip(settings.skips.iter()) {
        if source.skip(skip).await.is_err() {
            return 2;
        }
    }
    let width = match settings.report {
        Report::All => offset_width(ctx, settings).await,
        _ => 1,
    };
    let mut out = Vec::new();
    let mut compared: u64 = 0;
    let mut newlines: u64 = 0;
    let mut differ = false;
    let limit = settings.limit.unwrap_or(u64::MAX);
    let mut ended: Option<usize> = None;
    let mut last_byte: Option<u8> = None;
    while compared < limit {
        let first = match sources[0].available().await {
            Ok(bytes) => bytes.to_vec(),
            Err(()) => return 2,
        };
        let second = match sources[1].available().await {
            Ok(bytes) => bytes.to_vec(),
            Err(()) => return 2,
        };
        if first.is_empty() || second.is_empty() {
            if first.len() != second.len() {
                ended = Some(if first.is_empty() { 0 } else { 1 });
            }
            break;
        }
        let room = (limit - compared).min(first.len().min(second.len()) as u64) as usize;
        let (a, b) = (first.get(..room).unwrap_or(&[]), second.get(..room).unwrap_or(&[]));
        for (offset, (&x, &y)) in a.iter().zip(b.iter()).enumerate() {
            if x == y {
                if x == b'\n' {
                    newlines += 1;
                }
                continue;
            }
            differ = true;
            let byte_number = compared + offset as u64 + 1;
            match settings.report {
                Report::Status => return 1,
                Report::First => {
                    let mut line = format!("{} {} differ: byte {byte_number}, line {}", settings.names[0], settings.names[1], newlines + 1);
                    if settings.print_bytes {
                        line.push_str(&format!(" is {x:3o} {} {y:3o} {}", byte_text(x), byte_text(y)));
                    }
                    line.push('\n');
                    return match ctx.write_out(line.as_bytes()).await {
                        Ok(()) => 1,
                        Err(error) => ctx.write_failed_with(error, |error| format!("standard output: {error}"), 2).await,
                    };
                }
                Report::All => {
                    let line = if settings.print_bytes {
                        format!("{byte_number:>width$} {x:3o} {:<4} {y:3o} {}\n", byte_text(x), byte_text(y))
                    } else {
                        format!("{byte_number:>width$} {x:3o} {y:3o}\n")
                    };
                    out.extend_from_slice(line.as_bytes());
                }
            }
        }
        if out.len() >= READ_CHUNK {
            if let Err(error) = ctx.write_out(&out).await {
                return ctx.write_failed_with(error, |error| format!("standard output: {error}"), 2).await;
            }
            out.clear();
        }
        compared += room as u64;
        last_byte = a.last().copied().or(last_byte);
        sources[0].position += room;
        sources[1].position += room;
        if ctx.host.interrupted() {
            return 130;
        }
    }
    if !out.is_empty() {
        if let Err(error) = ctx.write_out(&out).await {
            return ctx.write_failed_with(error, |error| format!("standard output: {error}"), 2).await;
        }
    }
    let Some(short) = ended else { return i32::from(differ) };
    if settings.report != Report::Status {
        let name = &settings.names[short];
        let message = if compared == 0 {
            format!("EOF on {name} which is empty")
        } else if settings.report == Report::All {
            format!("EOF on {name} after byte {compared}")
        } else if last_byte == Some(b'\n') {
            format!("EOF on {name} after byte {compared}, line {newlines}")
        } else {
            format!("EOF on {name} after byte {compared}, in line {}", newlines + 1)
        };
        ctx.report(&message).await;
    }
    1
}

/// The width of byte numbers in `-l` output: the digits of the largest
/// byte number possible (the limit, or what regular files hold past their skips).
async fn offset_width(ctx: &Invocation<'_>, settings: &Settings) -> usize {
    let mut largest = settings.limit.unwrap_or(i64::MAX as u64);
    for (name, &skip) in settings.names.iter().zip(settings.skips.iter()) {
        if name == "-" {
            continue;
        }
        if let Ok(meta) = ctx.fs.metadata(&ctx.resolve(name)).await {
            if meta.is_file() {
                largest = largest.min(meta.size.saturating_sub(skip));
            }
        }
    }
    largest.to_string().len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_suffixes() {
        assert_eq!(parse_count("10"), Some(10));
        assert_eq!(parse_count("0x10"), Some(16));
        assert_eq!(parse_count("010"), Some(8));
        assert_eq!(parse_count("1k"), Some(1024));
        assert_eq!(parse_count("1kB"), Some(1000));
        assert_eq!(parse_count("2MiB"), Some(2 << 20));
        assert_eq!(parse_count("x"), None);
        assert_eq!(parse_count(""), None);
        assert_eq!(parse_count("99999999999999999999999"), None);
        assert_eq!(parse_skips("1:2"), Ok([1, 2]));
        assert_eq!(parse_skips("2:"), Err(""));
        assert_eq!(parse_skips(":3"), Err(":3"));
    }

    #[test]
    fn bytes_as_cmp_shows_them() {
        assert_eq!(byte_text(1), "^A");
        assert_eq!(byte_text(0x80), "M-^@");
        assert_eq!(byte_text(0xff), "M-^?");
        assert_eq!(byte_text(b'x'), "x");
    }
}
