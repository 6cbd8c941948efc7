//! `split`: cut a file into pieces by lines (`-l`), bytes (`-b`) or chunk
//! count (`-n N`, `-n l/N`), named PREFIX + suffix (`-a`, `-d`,
//! `--additional-suffix`).

use super::truncate::parse_size;
use crate::commands::format::{quote, quote_locale};
use crate::commands::options::{parse_or_report, report_usage, Long, Spec};
use crate::fs::OpenOptions;
use crate::host::LocalFuture;
use crate::utility::Invocation;

const SPEC: Spec = Spec::new(
    "l:b:n:a:dxe",
    &[
        Long::required("lines", "l"),
        Long::required("bytes", "b"),
        Long::required("number", "n"),
        Long::required("suffix-length", "a"),
        Long::optional("numeric-suffixes", "d"),
        Long::optional("hex-suffixes", "x"),
        Long::required("additional-suffix", "additional-suffix"),
        Long::flag("elide-empty-files", "e"),
        Long::flag("verbose", "verbose"),
    ],
);

/// The most chunks `-n` may ask for.
const MAX_CHUNKS: usize = 100_000;

/// How the input is cut.
enum Mode {
    Lines(usize),
    Bytes(usize),
    Chunks(usize),
    LineChunks(usize),
}

/// The `index`-th suffix of `length` characters, or `None` when exhausted.
fn suffix(index: usize, length: usize, digits: Option<u32>) -> Option<String> {
    let (base, alphabet): (usize, &[u8]) = match digits {
        Some(16) => (16, b"0123456789abcdef"),
        Some(_) => (10, b"0123456789"),
        None => (26, b"abcdefghijklmnopqrstuvwxyz"),
    };
    let mut value = index;
    let mut out = vec![b'a'; length];
    for slot in out.iter_mut().rev() {
        *slot = *alphabet.get(value % base)?;
        value /= base;
    }
    (value == 0).then(|| String::from_utf8_lossy(&out).into_owned())
}

/// Byte ranges of the pieces.
fn pieces(data: &[u8], mode: &Mode) -> Vec<(usize, usize)> {
    let mut ranges = Vec::new();
    match *mode {
        Mode::Lines(count) => {
            let mut start = 0;
            let mut lines = 0;
            for (index, &byte) in data.iter().enumerate() {
                if byte == b'\n' {
                    lines += 1;
                    if lines == count {
                        ranges.push((start, index + 1));
                        start = index + 1;
                        lines = 0;
                    }
                }
            }
            if start < data.len() {
                ranges.push((start, data.len()));
            }
        }
        Mode::Bytes(size) => {
            let mut start = 0;
            while start < data.len() {
                let end = (start + size).min(data.len());
                ranges.push((start, end));
                start = end;
            }
        }
        Mode::Chunks(count) => {
            for index in 0..count {
                ranges.push((index.saturating_mul(data.len()) / count, (index + 1).saturating_mul(data.len()) / count));
            }
        }
        Mode::LineChunks(count) => {
            let mut start = 0;
            for index in 0..count {
                let target = (index + 1).saturating_mul(data.len()) / count;
                let end = if index + 1 == count {
                    data.len()
                } else if target <= start {
                    start
                } else {
                    data.get(target - 1..).and_then(|rest| rest.iter().position(|&b| b == b'\n')).map(|p| target + p).unwrap_or(data.len())
                };
                ranges.push((start, end));
                start = end;
            }
        }
    }
    ranges
}

/// Runs `split [OPTION]... [FILE [PREFIX]]`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let parsed = match parse_or_report(ctx, &SPEC, 1).await {
            Ok(parsed) => parsed,
            Err(status) => return status,
        };
        if let Some(extra) = parsed.operands.get(2) {
            report_usage(ctx, &format!("extra operand {}", quote_locale(ctx, extra))).await;
            return 1;
        }
        let mut mode = Mode::Lines(1000);
        let mut digits = None;
        for (key, value) in &parsed.options {
            let text = value.clone().unwrap_or_default();
            match *key {
                "l" => match text.parse::<usize>() {
                    Ok(n) if n > 0 => mode = Mode::Lines(n),
                    _ => {
                        ctx.report(&format!("invalid number of lines: {}: Numerical result out of range", quote_locale(ctx, &text))).await;
                        return 1;
                    }
                },
                "b" => match parse_size(&text).filter(|n| *n > 0) {
                    Some(n) => mode = Mode::Bytes(n as usize),
                    None => {
                        ctx.report(&format!("invalid number of bytes: {}", quote_locale(ctx, &text))).await;
                        return 1;
                    }
                },
                "n" => {
                    let (line_mode, number) = match text.strip_prefix("l/") {
                        Some(rest) => (true, rest),
                        None => (false, text.as_str()),
                    };
                    match number.parse::<usize>() {
                        // Each chunk is a file; a count beyond the file quota's reach is refused.
                        Ok(n) if n > 0 && n <= MAX_CHUNKS => mode = if line_mode { Mode::LineChunks(n) } else { Mode::Chunks(n) },
                        _ => {
                            ctx.report(&format!("invalid number of chunks: {}", quote_locale(ctx, &text))).await;
                            return 1;
                        }
                    }
                }
                "d" => digits = Some(10),
                "x" => digits = Some(16),
                _ => {}
            }
        }
        let length = match parsed.value("a") {
            Some(text) => match text.parse::<usize>() {
                Ok(n) if n > 0 => n,
                _ => {
                    ctx.report(&format!("invalid suffix length: {}", quote_locale(ctx, text))).await;
                    return 1;
                }
            },
            None => 2,
        };
        let input = parsed.operands.first().cloned().unwrap_or_else(|| "-".into());
        let prefix = parsed.operands.get(1).cloned().unwrap_or_else(|| "x".into());
        let extra_suffix = parsed.value("additional-suffix").unwrap_or("").to_string();
        let data = if input == "-" {
            match ctx.stdin.read_to_end().await {
                Ok(data) => data,
                Err(error) => {
                    ctx.report(&format!("read error: {error}")).await;
                    return 1;
                }
            }
        } else if let Some(stream) = ctx.special_stream(&input) {
            // `/dev/stdin`, `/dev/fd/N`: the shell's stream (process substitution).
            match stream.read_to_end().await {
                Ok(data) => data,
                Err(error) => {
                    ctx.report(&format!("read error: {error}")).await;
                    return 1;
                }
            }
        } else {
            match ctx.fs.read_file(&ctx.resolve(&input)).await {
                Ok(data) => data,
                Err(error) => {
                    ctx.report(&format!("cannot open {} for reading: {error}", quote(&input))).await;
                    return 1;
                }
            }
        };
        let elide = parsed.has("e");
        let verbose = parsed.has("verbose");
        let umask = ctx.shell.umask();
        let mut index = 0;
        for (start, end) in pieces(&data, &mode) {
            if elide && start == end {
                continue;
            }
            let Some(tail) = suffix(index, length, digits) else {
                ctx.report("output file suffixes exhausted").await;
                return 1;
            };
            index += 1;
            let name = format!("{prefix}{tail}{extra_suffix}");
            if verbose {
                let _ = ctx.write_out(format!("creating file {}\n", quote(&name)).as_bytes()).await;
            }
            let path = ctx.resolve(&name);
            let result = match ctx.fs.open(&path, OpenOptions::write_truncate(0o666 & !umask)).await {
                Ok(handle) => handle.write_at(0, data.get(start..end).unwrap_or(&[])).await.map(|_| ()),
                Err(error) => Err(error),
            };
            if let Err(error) = result {
                ctx.report_fs(&name, error).await;
                return 1;
            }
        }
        0
    })
}

#[cfg(test)]
mod tests {
    use crate::commands::file::fixtures::{exists, read, run, tree};
    use crate::commands::test_support::run_utility;

    const NUMBERS: &str = "f=1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n";

    #[test]
    fn by_lines_bytes_chunks() {
        let fs = tree(&[NUMBERS]);
        run(&fs, &["split", "-l", "3", "f"]);
        assert_eq!(read(&fs, "xaa").as_deref(), Some("1\n2\n3\n"));
        assert_eq!(read(&fs, "xad").as_deref(), Some("10\n"));
        assert!(!exists(&fs, "xae"));
        run(&fs, &["split", "-b", "5", "-d", "f", "p_"]);
        assert_eq!(read(&fs, "p_04").as_deref(), Some("\n"));
        run(&fs, &["split", "-n", "3", "f", "n"]);
        assert_eq!(read(&fs, "naa").map(|s| s.len()), Some(7));
        run(&fs, &["split", "-n", "l/3", "f", "l"]);
        assert_eq!(read(&fs, "laa").as_deref(), Some("1\n2\n3\n4\n"));
        assert_eq!(read(&fs, "lac").as_deref(), Some("8\n9\n10\n"));
        run(&fs, &["split", "-l", "4", "-a", "3", "--additional-suffix=.txt", "f", "s"]);
        assert!(exists(&fs, "saac.txt"));
        run_utility(&fs, &["split", "-l", "5", "-", "y"], b"a\nb\nc\nd\ne\nf\n");
        assert_eq!(read(&fs, "yab").as_deref(), Some("f\n"));
    }

    #[test]
    fn errors() {
        let fs = tree(&[NUMBERS]);
        assert_eq!(run(&fs, &["split", "nope"]).stderr, "split: cannot open 'nope' for reading: No such file or directory\n");
        assert_eq!(run(&fs, &["split", "-l", "0", "f"]).stderr, "split: invalid number of lines: '0': Numerical result out of range\n");
        assert_eq!(
            run(&fs, &["split", "-l", "5", "f", "y", "z"]).stderr,
            "split: extra operand 'z'\nTry 'split --help' for more information.\n"
        );
    }
}
