//! `gzip`, `gunzip`, `zcat`: compress or expand files in the gzip format,
//! with GNU gzip's options, messages and statuses (1 for errors, 2 for
//! warnings such as an existing output file).

use super::files::write_whole;
use super::gzip_format::{compress, decompress, decompressed_limit, is_gzip, parse_header, GzipError};
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
    let data = match ctx.stdin.read_to_end().await {
        Ok(data) => data,
        Err(error) => {
            say(ctx, &format!("gzip: stdin: {error}\n")).await;
            status.error();
            return Ok(());
        }
    };
    match settings.mode {
        Mode::Compress => {
            let packed = compress(&data, settings.level, None, 0);
            if settings.verbose {
                say(ctx, &format!("stdin:\t{} -- replaced with stdout\n", ratio(data.len() as u64, packed.len() as i64 - 18))).await;
            }
            ctx.write_out(&packed).await.map_err(write_failure_status)
        }
        _ => {
            let output = expand(ctx, settings, &data, "stdin", status).await;
            match (settings.mode, output) {
                (Mode::Decompress, Some(bytes)) => ctx.write_out(&bytes).await.map_err(write_failure_status),
                (Mode::Test, Some(_)) if settings.verbose => {
                    say(ctx, "stdin:\t OK\n").await;
                    Ok(())
                }
                _ => Ok(()),
            }
        }
    }
}

/// Expands `data`, reporting errors as gzip does. `None` after an error
/// (its partial output is written first when going to standard output).
async fn expand(ctx: &Invocation<'_>, settings: &Settings, data: &[u8], shown: &str, status: &mut Status) -> Option<Vec<u8>> {
    if settings.force && settings.to_stdout && !is_gzip(data) && settings.mode == Mode::Decompress {
        return Some(data.to_vec());
    }
    match decompress(data, decompressed_limit(ctx.fs.as_ref())) {
        Ok(result) => {
            if result.trailing_garbage && !settings.quiet {
                say(ctx, &format!("\ngzip: {shown}: decompression OK, trailing garbage ignored\n")).await;
            }
            if result.trailing_garbage {
                status.warning();
            }
            Some(result.data)
        }
        Err((partial, error)) => {
            if settings.to_stdout && settings.mode == Mode::Decompress && !matches!(error, GzipError::TooLarge(_)) {
                let _ = ctx.write_out(&partial).await;
            }
            say(ctx, &format!("\ngzip: {shown}: {error}\n")).await;
            if error == GzipError::Crc {
                // GNU checks the length after the CRC and reports both.
                if u32::try_from(partial.len()).ok() != trailer_size(data) {
                    say(ctx, &format!("\ngzip: {shown}: {}\n", GzipError::Length)).await;
                }
            }
            status.error();
            None
        }
    }
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
    let data = match ctx.fs.read_file(&path).await {
        Ok(data) => data,
        Err(error) => {
            say(ctx, &format!("gzip: {name}: {error}\n")).await;
            status.error();
            return Ok(());
        }
    };
    let (output, ratio_text) = if settings.mode == Mode::Compress {
        let base = name.rsplit('/').next().unwrap_or(&name);
        let stored = settings.save_name.then_some(base);
        let mtime = if settings.save_name { (metadata.mtime / 1000.0).floor().max(0.0) as u32 } else { 0 };
        let packed = compress(&data, settings.level, stored, mtime);
        let header = 10 + stored.map_or(0, |s| s.len() + 1);
        let text = ratio(data.len() as u64, packed.len() as i64 - header as i64 - 8);
        (packed, text)
    } else {
        let Some(expanded) = expand(ctx, settings, &data, &name, status).await else {
            return Ok(());
        };
        let header = parse_header(&data).map(|h| h.len).unwrap_or(10);
        let text = ratio(expanded.len() as u64, data.len() as i64 - header as i64 - 8);
        (expanded, text)
    };
    if settings.mode == Mode::Test {
        if settings.verbose {
            say(ctx, &format!("{name}:\t OK\n")).await;
        }
        return Ok(());
    }
    if !in_place {
        if settings.verbose {
            say(ctx, &format!("{name}:\t{} -- replaced with stdout\n", ratio_text)).await;
        }
        return ctx.write_out(&output).await.map_err(write_failure_status);
    }
    let target = if settings.restore_name && settings.mode == Mode::Decompress {
        match parse_header(&data).ok().and_then(|h| h.name) {
            Some(stored) if !stored.contains('/') && !stored.is_empty() => {
                let dir = crate::commands::archive::files::parent_of(&path);
                if name.contains('/') {
                    format!("{}/{stored}", dir.trim_end_matches('/'))
                } else {
                    stored
                }
            }
            _ => target,
        }
    } else {
        target
    };
    let target_path = ctx.resolve(&target);
    if !settings.force && ctx.fs.symlink_metadata(&target_path).await.is_ok() {
        say(ctx, &format!("gzip: {target} already exists;\tnot overwritten\n")).await;
        status.warning();
        return Ok(());
    }
    if let Err(error) = write_whole(ctx, &target_path, &output, metadata.mode).await {
        say(ctx, &format!("gzip: {target}: {error}\n")).await;
        let _ = ctx.fs.remove_file(&target_path).await;
        status.error();
        return Ok(());
    }
    let _ = ctx.fs.set_mode(&target_path, metadata.mode).await;
    let mtime = match (settings.restore_name, settings.mode) {
        (true, Mode::Decompress) => parse_header(&data).ok().filter(|h| h.mtime != 0).map(|h| h.mtime as f64 * 1000.0),
        _ => None,
    };
    let _ = ctx.fs.set_times(&target_path, Some(metadata.atime), Some(mtime.unwrap_or(metadata.mtime))).await;
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
    let (name, data) = if operand == "-" {
        ("stdout".to_string(), ctx.stdin.read_to_end().await.unwrap_or_default())
    } else {
        let name = match locate(ctx, operand, &settings.suffix).await {
            Ok(name) => name,
            Err((name, error)) => {
                say(ctx, &format!("gzip: {name}: {error}\n")).await;
                status.error();
                return Ok(());
            }
        };
        match ctx.fs.read_file(&ctx.resolve(&name)).await {
            Ok(data) => (name, data),
            Err(error) => {
                say(ctx, &format!("gzip: {name}: {error}\n")).await;
                status.error();
                return Ok(());
            }
        }
    };
    let header = match parse_header(&data) {
        Ok(header) => header,
        Err(error) => {
            say(ctx, &format!("\ngzip: {name}: {error}\n")).await;
            status.error();
            return Ok(());
        }
    };
    let uncompressed = trailer_size(&data).unwrap_or(0) as u64;
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
        let crc = data.len().checked_sub(8).and_then(|at| data.get(at..at + 4)).map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
        let when = civil::from_timestamp(header.mtime as i64, 0, 0);
        text.push_str(&format!("defla {crc:08x} {} {:>2} {:02}:{:02} ", civil::month_abbrev(when.month), when.day, when.hour, when.minute));
    }
    text.push_str(&list_line(data.len() as u64, uncompressed, header.len as u64 + 8, &shown));
    // GNU subtracts only the last file's header from the totals.
    totals.3 = header.len as u64 + 8;
    totals.0 += data.len() as u64;
    totals.1 += uncompressed;
    totals.2 += 1;
    ctx.write_out(text.as_bytes()).await.map_err(write_failure_status)
}
