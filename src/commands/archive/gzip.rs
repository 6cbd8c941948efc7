//! `gzip`, `gunzip`, `zcat`: compress or expand files in the gzip format,
//! with GNU gzip's options, messages and statuses (1 for errors, 2 for
//! warnings such as an existing output file). Data streams through a chunk
//! at a time ([`super::gzip_stream`]): memory does not grow with its size.

use super::files::{open_read, Sink, SinkError};
use super::gzip_format::{is_gzip, parse_header, GzipError};
use super::gzip_stream::{member_header, read_prefix, Encoder, Expander, OUTPUT_CHUNK};
use crate::commands::common::copy_to_stdout;
use crate::io::{Fd, READ_CHUNK};
use crate::calendar::civil;
use crate::commands::hash::source::quote_name;
use crate::commands::options::{parse, Long, OptionError, Spec};
use crate::fs::FsError;
use crate::host::LocalFuture;
use crate::utility::{write_failure_status, Invocation};

const LONGS: &[Long] = &[
    Long::flag("stdout", "c"),
    Long::flag("to-stdout", "c"),
    Long::flag("decompress", "d"),
    Long::flag("uncompress", "d"),
    Long::flag("force", "f"),
    Long::flag("keep", "k"),
    Long::flag("list", "l"),
    Long::flag("no-name", "n"),
    Long::flag("name", "N"),
    Long::flag("quiet", "q"),
    Long::required("suffix", "S"),
    Long::flag("test", "t"),
    Long::flag("verbose", "v"),
    Long::flag("fast", "1"),
    Long::flag("best", "9"),
];
const SPEC: Spec = Spec::new("123456789cdfklnNqS:tv", LONGS);

/// What one run does to each operand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Compress,
    Decompress,
    Test,
    List,
}

/// The settings of one run.
struct Settings {
    mode: Mode,
    to_stdout: bool,
    force: bool,
    keep: bool,
    save_name: bool,
    restore_name: bool,
    quiet: bool,
    verbose: bool,
    level: u32,
    suffix: String,
}

/// An outcome that sets the exit status: 1 (error) beats 2 (warning).
#[derive(Default)]
struct Status(i32);

impl Status {
    fn error(&mut self) {
        self.0 = 1;
    }
    fn warning(&mut self) {
        if self.0 == 0 {
            self.0 = 2;
        }
    }
}

/// Runs `gzip`, `gunzip` (as `gzip -d`) or `zcat` (as `gzip -dc`).
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let args = ctx.args.get(1..).unwrap_or(&[]).to_vec();
        let parsed = match parse(&SPEC, &args) {
            Ok(parsed) => parsed,
            Err(error) => {
                report_usage(ctx, &error).await;
                return 1;
            }
        };
        let invoked = ctx.name().rsplit('/').next().unwrap_or("gzip").to_string();
        let mut settings = Settings {
            mode: if invoked == "gzip" { Mode::Compress } else { Mode::Decompress },
            to_stdout: invoked == "zcat",
            force: false,
            keep: false,
            save_name: true,
            restore_name: false,
            quiet: false,
            verbose: false,
            level: 6,
            suffix: ".gz".to_string(),
        };
        for (key, value) in &parsed.options {
            match *key {
                "c" => settings.to_stdout = true,
                "d" if settings.mode == Mode::Compress => settings.mode = Mode::Decompress,
                "f" => settings.force = true,
                "k" => settings.keep = true,
                "l" => settings.mode = Mode::List,
                "t" => settings.mode = Mode::Test,
                "n" => (settings.save_name, settings.restore_name) = (false, false),
                "N" => (settings.save_name, settings.restore_name) = (true, true),
                "q" => (settings.quiet, settings.verbose) = (true, false),
                "v" => (settings.quiet, settings.verbose) = (false, true),
                "S" => settings.suffix = value.clone().unwrap_or_default(),
                digit => settings.level = digit.parse().unwrap_or(settings.level),
            }
        }
        let mut status = Status::default();
        let operands = if parsed.operands.is_empty() { vec!["-".to_string()] } else { parsed.operands.clone() };
        let mut totals = (0u64, 0u64, 0usize, 0u64);
        for operand in &operands {
            let result = if settings.mode == Mode::List {
                list_one(ctx, &settings, operand, &mut status, &mut totals).await
            } else if operand == "-" {
                stdin_one(ctx, &settings, &mut status).await
            } else {
                file_one(ctx, &settings, operand, &mut status).await
            };
            if let Err(code) = result {
                return code;
            }
        }
        if settings.mode == Mode::List && totals.2 > 1 {
            let line = list_line(totals.0, totals.1, totals.3, "(totals)");
            if let Err(error) = ctx.write_out(line.as_bytes()).await {
                return write_failure_status(error);
            }
        }
        status.0
    })
}

/// gzip's own usage hint, with its old-style quotes.
async fn report_usage(ctx: &Invocation<'_>, error: &OptionError) {
    let text = format!("gzip: {}\nTry `gzip --help' for more information.\n", error.message());
    let _ = ctx.stderr.write(text.as_bytes()).await;
}

async fn say(ctx: &Invocation<'_>, text: &str) {
    let _ = ctx.stderr.write(text.as_bytes()).await;
}

/// The ratio GNU prints: the share saved, of the uncompressed size.
fn ratio(uncompressed: u64, compressed_body: i64) -> String {
    if uncompressed == 0 {
        return "  0.0%".to_string();
    }
    let saved = (uncompressed as f64 - compressed_body as f64) * 100.0 / uncompressed as f64;
    format!("{saved:5.1}%")
}

fn list_line(compressed: u64, uncompressed: u64, overhead: u64, name: &str) -> String {
    let body = compressed as i64 - overhead as i64;
    format!("{compressed:>19} {uncompressed:>19} {} {name}\n", ratio(uncompressed, body))
}

/// Compresses or expands standard input to standard output.
async fn stdin_one(ctx: &Invocation<'_>, settings: &Settings, status: &mut Status) -> Result<(), i32> {
    let input = ctx.stdin.clone();
    let Some(ratio_text) = pipe_through(ctx, settings, input, "stdin", None, 0, status).await? else {
        return Ok(());
    };
    match settings.mode {
        Mode::Compress if settings.verbose => say(ctx, &format!("stdin:\t{ratio_text} -- replaced with stdout\n")).await,
        Mode::Test if settings.verbose => say(ctx, "stdin:\t OK\n").await,
        _ => {}
    }
    Ok(())
}

/// Compresses, expands or tests `input` to standard output (nowhere for
/// `-t`), a chunk at a time. `Ok(Some(ratio))` on success, `Ok(None)` after
/// a reported error, `Err(status)` when standard output failed.
async fn pipe_through(
    ctx: &Invocation<'_>,
    settings: &Settings,
    input: Fd,
    shown: &str,
    stored: Option<&str>,
    mtime: u32,
    status: &mut Status,
) -> Result<Option<String>, i32> {
    let mut sink = if settings.mode == Mode::Test { Sink::Discard } else { Sink::Stdout };
    if settings.mode == Mode::Compress {
        return match compress_to(ctx, &input, &mut sink, settings.level, stored, mtime).await {
            Ok(text) => Ok(Some(text)),
            Err(Failure::Read(error)) => {
                say(ctx, &format!("gzip: {shown}: {error}\n")).await;
                status.error();
                Ok(None)
            }
            Err(Failure::Sink(SinkError::Stdout(error))) => Err(write_failure_status(error)),
            Err(Failure::Sink(SinkError::File(_))) => Ok(None),
        };
    }
    let prefix = match read_prefix(&input, 2).await {
        Ok(prefix) => prefix,
        Err(error) => {
            say(ctx, &format!("gzip: {shown}: {error}\n")).await;
            status.error();
            return Ok(None);
        }
    };
    if settings.force && settings.to_stdout && settings.mode == Mode::Decompress && !is_gzip(&prefix) {
        ctx.write_out(&prefix).await.map_err(write_failure_status)?;
        copy_to_stdout(ctx, &input).await?;
        return Ok(Some(ratio(0, 0)));
    }
    let mut expander = Expander::new(input, &prefix);
    let first = match expander.next().await {
        Ok(first) => first,
        Err(error) => {
            report_gzip_error(ctx, shown, error, &expander).await;
            status.error();
            return Ok(None);
        }
    };
    match pump(ctx, &mut expander, first, &mut sink).await {
        Ok(Ok(expanded)) => Ok(Some(finish_expansion(ctx, settings, &expander, expanded, shown, status).await)),
        Ok(Err(error)) => {
            report_gzip_error(ctx, shown, error, &expander).await;
            status.error();
            Ok(None)
        }
        Err(SinkError::Stdout(error)) => Err(write_failure_status(error)),
        Err(SinkError::File(_)) => Ok(None),
    }
}

/// Why compressing a stream stopped.
enum Failure {
    Read(crate::io::IoError),
    Sink(SinkError),
}

/// Compresses `input` into one member written to `sink`; returns the ratio text.
async fn compress_to(
    ctx: &Invocation<'_>,
    input: &Fd,
    sink: &mut Sink,
    level: u32,
    stored: Option<&str>,
    mtime: u32,
) -> Result<String, Failure> {
    let mut out = member_header(level, stored, mtime);
    let header = out.len() as i64;
    let mut encoder = Encoder::new(level);
    let (mut read, mut written) = (0u64, 0u64);
    loop {
        let chunk = input.read(READ_CHUNK).await.map_err(Failure::Read)?;
        if chunk.is_empty() {
            break;
        }
        read += chunk.len() as u64;
        encoder.write(&chunk, &mut out);
        if out.len() >= OUTPUT_CHUNK {
            written += out.len() as u64;
            sink.put(ctx, &out).await.map_err(Failure::Sink)?;
            out.clear();
        }
    }
    encoder.finish(&mut out);
    written += out.len() as u64;
    sink.put(ctx, &out).await.map_err(Failure::Sink)?;
    Ok(ratio(read, written as i64 - header - 8))
}

/// Writes expanded chunks to `sink`, the first already in hand, until the
/// end: `Ok(Ok(bytes))`, or `Ok(Err(error))` on bad gzip data.
async fn pump(
    ctx: &Invocation<'_>,
    expander: &mut Expander,
    first: Option<Vec<u8>>,
    sink: &mut Sink,
) -> Result<Result<u64, GzipError>, SinkError> {
    let mut total = 0u64;
    let mut chunk = first;
    while let Some(data) = chunk {
        total += data.len() as u64;
        sink.put(ctx, &data).await?;
        chunk = match expander.next().await {
            Ok(next) => next,
            Err(error) => return Ok(Err(error)),
        };
    }
    Ok(Ok(total))
}

/// Reports bad gzip data as GNU does (a CRC error with a wrong length too
/// gives both messages).
async fn report_gzip_error(ctx: &Invocation<'_>, shown: &str, error: GzipError, expander: &Expander) {
    say(ctx, &format!("\ngzip: {shown}: {error}\n")).await;
    if error == GzipError::Crc && expander.decoder().length_also_wrong() {
        say(ctx, &format!("\ngzip: {shown}: {}\n", GzipError::Length)).await;
    }
}

/// After a good expansion: the trailing-garbage warning, and the ratio text.
async fn finish_expansion(
    ctx: &Invocation<'_>,
    settings: &Settings,
    expander: &Expander,
    expanded: u64,
    shown: &str,
    status: &mut Status,
) -> String {
    if expander.trailing_garbage() {
        if !settings.quiet {
            say(ctx, &format!("\ngzip: {shown}: decompression OK, trailing garbage ignored\n")).await;
        }
        status.warning();
    }
    let header = expander.decoder().header().map_or(10, |h| h.len) as i64;
    ratio(expanded, expander.compressed_bytes() as i64 - header - 8)
}

fn trailer_size(data: &[u8]) -> Option<u32> {
    let start = data.len().checked_sub(4)?;
    let bytes = data.get(start..)?;
    Some(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
}

/// The name `name` expands to, or `None` without a known suffix.
fn expanded_name(name: &str, suffix: &str) -> Option<String> {
    let base = name.rsplit('/').next().unwrap_or(name);
    for (ending, replacement) in
        [(suffix, ""), (".gz", ""), ("-gz", ""), (".z", ""), ("-z", ""), ("_z", ""), (".tgz", ".tar"), (".taz", ".tar")]
    {
        if !ending.is_empty() && base.len() > ending.len() && name.ends_with(ending) {
            let stem = name.get(..name.len() - ending.len())?;
            return Some(format!("{stem}{replacement}"));
        }
    }
    None
}

/// Finds the file a decompressing operand names: itself, or with `.gz` added.
async fn locate(ctx: &Invocation<'_>, operand: &str, suffix: &str) -> Result<String, (String, FsError)> {
    match ctx.fs.metadata(&ctx.resolve(operand)).await {
        Ok(_) => Ok(operand.to_string()),
        Err(FsError::NotFound) if expanded_name(operand, suffix).is_none() => {
            let with_suffix = format!("{operand}{suffix}");
            match ctx.fs.metadata(&ctx.resolve(&with_suffix)).await {
                Ok(_) => Ok(with_suffix),
                Err(error) => Err((with_suffix, error)),
            }
        }
        Err(error) => Err((operand.to_string(), error)),
    }
}

/// Compresses, expands or tests one named file.
async fn file_one(ctx: &Invocation<'_>, settings: &Settings, operand: &str, status: &mut Status) -> Result<(), i32> {
    let name = if settings.mode == Mode::Compress {
        operand.to_string()
    } else {
        match locate(ctx, operand, &settings.suffix).await {
            Ok(name) => name,
            Err((name, error)) => {
                say(ctx, &format!("gzip: {name}: {error}\n")).await;
                status.error();
                return Ok(());
            }
        }
    };
    let path = ctx.resolve(&name);
    let metadata = match ctx.fs.metadata(&path).await {
        Ok(metadata) => metadata,
        Err(error) => {
            say(ctx, &format!("gzip: {name}: {error}\n")).await;
            status.error();
            return Ok(());
        }
    };
    if metadata.is_dir() {
        if !settings.quiet {
            say(ctx, &format!("gzip: {name} is a directory -- ignored\n")).await;
        }
        status.warning();
        return Ok(());
    }
    let in_place = !settings.to_stdout && settings.mode != Mode::Test;
    let target = match settings.mode {
        Mode::Compress if in_place && name.ends_with(&settings.suffix) => {
            if !settings.quiet {
                say(ctx, &format!("gzip: {name} already has {} suffix -- unchanged\n", settings.suffix)).await;
            }
            return Ok(());
        }
        Mode::Compress => format!("{name}{}", settings.suffix),
        _ => match expanded_name(&name, &settings.suffix) {
            Some(target) => target,
            None if !in_place => String::new(),
            None => {
                if !settings.quiet {
                    say(ctx, &format!("gzip: {name}: unknown suffix -- ignored\n")).await;
                }
                status.warning();
                return Ok(());
            }
        },
    };
    let input = match open_read(ctx, &path).await {
        Ok(input) => input,
        Err(error) => {
            say(ctx, &format!("gzip: {name}: {error}\n")).await;
            status.error();
            return Ok(());
        }
    };
    let base = name.rsplit('/').next().unwrap_or(&name).to_string();
    let stored = (settings.mode == Mode::Compress && settings.save_name).then_some(base.as_str());
    let mtime = if settings.save_name { (metadata.mtime / 1000.0).floor().max(0.0) as u32 } else { 0 };
    if !in_place {
        let Some(ratio_text) = pipe_through(ctx, settings, input, &name, stored, mtime, status).await? else {
            return Ok(());
        };
        if settings.verbose {
            let text = if settings.mode == Mode::Test { format!("{name}:\t OK\n") } else { format!("{name}:\t{ratio_text} -- replaced with stdout\n") };
            say(ctx, &text).await;
        }
        return Ok(());
    }
    let (target, ratio_text, stored_mtime) = if settings.mode == Mode::Compress {
        let target_path = ctx.resolve(&target);
        if !settings.force && ctx.fs.symlink_metadata(&target_path).await.is_ok() {
            say(ctx, &format!("gzip: {target} already exists;\tnot overwritten\n")).await;
            status.warning();
            return Ok(());
        }
        let mut sink = match Sink::create(ctx, &target_path, metadata.mode).await {
            Ok(sink) => sink,
            Err(error) => {
                say(ctx, &format!("gzip: {target}: {error}\n")).await;
                status.error();
                return Ok(());
            }
        };
        match compress_to(ctx, &input, &mut sink, settings.level, stored, mtime).await {
            Ok(text) => (target, text, None),
            Err(failure) => {
                let error = match failure {
                    Failure::Read(error) => format!("{name}: {error}"),
                    Failure::Sink(SinkError::File(error)) => format!("{target}: {error}"),
                    Failure::Sink(SinkError::Stdout(error)) => format!("{target}: {error}"),
                };
                say(ctx, &format!("gzip: {error}\n")).await;
                let _ = ctx.fs.remove_file(&target_path).await;
                status.error();
                return Ok(());
            }
        }
    } else {
        let prefix = read_prefix(&input, 2).await.unwrap_or_default();
        let mut expander = Expander::new(input, &prefix);
        let first = match expander.next().await {
            Ok(first) => first,
            Err(error) => {
                report_gzip_error(ctx, &name, error, &expander).await;
                status.error();
                return Ok(());
            }
        };
        let header = expander.decoder().header().cloned().unwrap_or_default();
        let target = match header.name.as_deref() {
            Some(stored) if settings.restore_name && !stored.contains('/') && !stored.is_empty() => {
                let dir = crate::commands::archive::files::parent_of(&path);
                if name.contains('/') {
                    format!("{}/{stored}", dir.trim_end_matches('/'))
                } else {
                    stored.to_string()
                }
            }
            _ => target,
        };
        let target_path = ctx.resolve(&target);
        if !settings.force && ctx.fs.symlink_metadata(&target_path).await.is_ok() {
            say(ctx, &format!("gzip: {target} already exists;\tnot overwritten\n")).await;
            status.warning();
            return Ok(());
        }
        let mut sink = match Sink::create(ctx, &target_path, metadata.mode).await {
            Ok(sink) => sink,
            Err(error) => {
                say(ctx, &format!("gzip: {target}: {error}\n")).await;
                status.error();
                return Ok(());
            }
        };
        let expanded = match pump(ctx, &mut expander, first, &mut sink).await {
            Ok(Ok(expanded)) => expanded,
            Ok(Err(error)) => {
                report_gzip_error(ctx, &name, error, &expander).await;
                let _ = ctx.fs.remove_file(&target_path).await;
                status.error();
                return Ok(());
            }
            Err(error) => {
                let error = match error {
                    SinkError::File(error) => error.to_string(),
                    SinkError::Stdout(error) => error.to_string(),
                };
                say(ctx, &format!("gzip: {target}: {error}\n")).await;
                let _ = ctx.fs.remove_file(&target_path).await;
                status.error();
                return Ok(());
            }
        };
        let text = finish_expansion(ctx, settings, &expander, expanded, &name, status).await;
        let restored = (settings.restore_name && header.mtime != 0).then_some(header.mtime as f64 * 1000.0);
        (target, text, restored)
    };
    let target_path = ctx.resolve(&target);
    let _ = ctx.fs.set_mode(&target_path, metadata.mode).await;
    let _ = ctx.fs.set_times(&target_path, Some(metadata.atime), Some(stored_mtime.unwrap_or(metadata.mtime))).await;
    if settings.verbose {
        say(ctx, &format!("{name}:\t{} -- replaced with {target}\n", ratio_text)).await;
    }
    if !settings.keep {
        if let Err(error) = ctx.fs.remove_file(&path).await {
            say(ctx, &format!("gzip: {}: {error}\n", quote_name(&name))).await;
            status.error();
        }
    }
    Ok(())
}

/// Prints the `gzip -l` line of one file (and the heading before the first).
async fn list_one(
    ctx: &Invocation<'_>,
    settings: &Settings,
    operand: &str,
    status: &mut Status,
    totals: &mut (u64, u64, usize, u64),
) -> Result<(), i32> {
    let (name, input) = if operand == "-" {
        ("stdout".to_string(), ctx.stdin.clone())
    } else {
        let name = match locate(ctx, operand, &settings.suffix).await {
            Ok(name) => name,
            Err((name, error)) => {
                say(ctx, &format!("gzip: {name}: {error}\n")).await;
                status.error();
                return Ok(());
            }
        };
        match open_read(ctx, &ctx.resolve(&name)).await {
            Ok(input) => (name, input),
            Err(error) => {
                say(ctx, &format!("gzip: {name}: {error}\n")).await;
                status.error();
                return Ok(());
            }
        }
    };
    let (head, tail, size) = scan_ends(&input).await;
    let header = match parse_header(&head) {
        Ok(header) => header,
        Err(error) => {
            say(ctx, &format!("\ngzip: {name}: {error}\n")).await;
            status.error();
            return Ok(());
        }
    };
    let uncompressed = trailer_size(&tail).unwrap_or(0) as u64;
    let shown = if operand == "-" { String::new() } else { expanded_name(&name, &settings.suffix).unwrap_or_else(|| name.clone()) };
    let mut text = String::new();
    if totals.2 == 0 {
        text.push_str(if settings.verbose {
            "method  crc     date  time           compressed        uncompressed  ratio uncompressed_name\n"
        } else {
            "         compressed        uncompressed  ratio uncompressed_name\n"
        });
    }
    if settings.verbose {
        let crc = tail.len().checked_sub(8).and_then(|at| tail.get(at..at + 4)).map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
        let when = civil::from_timestamp(header.mtime as i64, 0, 0);
        text.push_str(&format!("defla {crc:08x} {} {:>2} {:02}:{:02} ", civil::month_abbrev(when.month), when.day, when.hour, when.minute));
    }
    text.push_str(&list_line(size, uncompressed, header.len as u64 + 8, &shown));
    // GNU subtracts only the last file's header from the totals.
    totals.3 = header.len as u64 + 8;
    totals.0 += size;
    totals.1 += uncompressed;
    totals.2 += 1;
    ctx.write_out(text.as_bytes()).await.map_err(write_failure_status)
}

/// Reads a stream through, keeping its first bytes (enough for a member
/// header) and its last eight (the trailer): `(head, tail, size)`.
async fn scan_ends(input: &Fd) -> (Vec<u8>, Vec<u8>, u64) {
    const HEAD: usize = 64 * 1024;
    let (mut head, mut tail, mut size) = (Vec::new(), Vec::new(), 0u64);
    loop {
        let chunk = input.read(READ_CHUNK).await.unwrap_or_default();
        if chunk.is_empty() {
            return (head, tail, size);
        }
        size += chunk.len() as u64;
        if head.len() < HEAD {
            head.extend_from_slice(chunk.get(..HEAD - head.len()).unwrap_or(&chunk));
        }
        let keep = chunk.get(chunk.len().saturating_sub(8)..).unwrap_or(&[]);
        tail.extend_from_slice(keep);
        let excess = tail.len().saturating_sub(8);
        tail.drain(..excess);
    }
}
