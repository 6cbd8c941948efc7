//! `csplit`: split a file into pieces at line numbers and at lines
//! matching expressions (`/RE/`, `%RE%`, offsets, `{N}`, `{*}`), named
//! PREFIX + number (`-f`, `-n`, `-b`), printing each piece's size unless
//! `-s`, eliding empty pieces (`-z`) and removing the pieces on an error
//! unless `-k`, with GNU's messages. The input is read whole first.

mod pattern;

use crate::commands::format::{quote, quotef};
use crate::commands::options::{parse_or_report, report_usage, Long, Spec};
use crate::fs::{FileHandle, OpenOptions};
use crate::host::LocalFuture;
use crate::utility::Invocation;
use pattern::{parse_patterns, parse_suffix, Control, Kind, SuffixFormat};
use std::rc::Rc;

const SPEC: Spec = Spec::new(
    "f:b:kn:sqz",
    &[
        Long::required("prefix", "f"),
        Long::required("suffix-format", "b"),
        Long::flag("keep-files", "k"),
        Long::required("digits", "n"),
        Long::flag("quiet", "s"),
        Long::flag("silent", "s"),
        Long::flag("elide-empty-files", "z"),
        Long::flag("suppress-matched", "suppress-matched"),
    ],
);

/// The run stops: its message is already queued.
struct Fatal;

/// How the run ends early.
enum Stop {
    /// An error: remove the pieces (unless `-k`), status 1.
    Fatal,
    /// `{*}` reached the end of the input: status 0.
    Done,
    /// An error that exits at once (GNU's `die`): the pieces stay, status 1.
    Die,
}

impl From<Fatal> for Stop {
    fn from(_: Fatal) -> Stop {
        Stop::Fatal
    }
}

/// The piece being written.
struct Piece {
    name: String,
    handle: Rc<dyn FileHandle>,
    data: Vec<u8>,
}

/// The splitting state, following GNU's line accounting.
struct Splitter<'c, 'i> {
    ctx: &'c Invocation<'i>,
    data: Vec<u8>,
    lines: Vec<(usize, usize)>,
    /// The 1-based number of the next line not yet taken.
    first_available: usize,
    /// The 1-based number of the last line looked at.
    current_line: i64,
    files_created: usize,
    piece: Option<Piece>,
    prefix: String,
    suffix: Option<SuffixFormat>,
    digits: usize,
    elide: bool,
    quiet: bool,
    suppress_matched: bool,
    counts: Vec<u8>,
    errors: Vec<String>,
}

impl Splitter<'_, '_> {
    fn file_name(&self, number: usize) -> String {
        match &self.suffix {
            Some(format) => format!("{}{}", self.prefix, format.render(number)),
            None => format!("{}{:0width$}", self.prefix, number, width = self.digits),
        }
    }

    fn line(&self, number: i64) -> Option<&[u8]> {
        if number < 1 || self.first_available > self.lines.len() {
            return None;
        }
        let (start, end) = *self.lines.get(number as usize - 1)?;
        self.data.get(start..end)
    }

    fn no_more_lines(&self) -> bool {
        self.line(self.current_line + 1).is_none()
    }

    fn remove_line(&mut self) -> Option<(usize, usize)> {
        let range = *self.lines.get(self.first_available.checked_sub(1)?)?;
        if self.current_line < self.first_available as i64 {
            self.current_line = self.first_available as i64;
        }
        self.first_available += 1;
        Some(range)
    }

    fn first_line_in_buffer(&mut self) -> Result<usize, Stop> {
        if self.first_available > self.lines.len() {
            self.errors.push("input disappeared".into());
            return Err(Stop::Die);
        }
        Ok(self.first_available)
    }

    fn save(&mut self, (start, end): (usize, usize)) {
        if let (Some(piece), Some(bytes)) = (self.piece.as_mut(), self.data.get(start..end)) {
            piece.data.extend_from_slice(bytes);
        }
    }

    async fn create(&mut self) -> Result<(), Fatal> {
        let name = self.file_name(self.files_created);
        let mode = 0o666 & !self.ctx.shell.umask();
        match self.ctx.fs.open(&self.ctx.resolve(&name), OpenOptions::write_truncate(mode)).await {
            Ok(handle) => {
                self.files_created += 1;
                self.piece = Some(Piece { name, handle, data: Vec::new() });
                Ok(())
            }
            Err(error) => {
                self.errors.push(format!("{}: {error}", quotef(&name)));
                Err(Fatal)
            }
        }
    }

    async fn close(&mut self) -> Result<(), Fatal> {
        let Some(piece) = self.piece.take() else { return Ok(()) };
        if let Err(error) = piece.handle.write_at(0, &piece.data).await {
            self.errors.push(format!("{}: {error}", piece.name));
            return Err(Fatal);
        }
        if piece.data.is_empty() && self.elide {
            let _ = self.ctx.fs.remove_file(&self.ctx.resolve(&piece.name)).await;
            self.files_created -= 1;
        } else if !self.quiet {
            self.counts.extend_from_slice(format!("{}\n", piece.data.len()).as_bytes());
        }
        Ok(())
    }

    fn dump_rest(&mut self) {
        while let Some(range) = self.remove_line() {
            self.save(range);
        }
    }

    fn line_error(&mut self, control: &Control, repetition: u64) -> Fatal {
        let required = match control.kind {
            Kind::Line(n) => n,
            Kind::Regex { .. } => 0,
        };
        let mut message = format!("{}: line number out of range", pattern::quote(&required.to_string()));
        if repetition > 0 {
            message.push_str(&format!(" on repetition {repetition}"));
        }
        self.errors.push(message);
        Fatal
    }

    async fn by_line_count(&mut self, control: &Control, required: u64, repetition: u64) -> Result<(), Stop> {
        let last = required.saturating_mul(repetition + 1);
        self.create().await?;
        if self.no_more_lines() && self.suppress_matched {
            return Err(self.line_error(control, repetition).into());
        }
        let mut number = self.first_line_in_buffer()? as u64;
        while number < last {
            number += 1;
            let Some(range) = self.remove_line() else {
                return Err(self.line_error(control, repetition).into());
            };
            self.save(range);
        }
        self.close().await?;
        if self.suppress_matched {
            self.remove_line();
        }
        if self.no_more_lines() && !self.suppress_matched {
            return Err(self.line_error(control, repetition).into());
        }
        Ok(())
    }

    async fn regex_error(&mut self, control: &Control, repetition: u64, skip: bool) -> Stop {
        let mut message = format!("{}: match not found", pattern::quote(&control.text));
        if repetition > 0 {
            message.push_str(&format!(" on repetition {repetition}"));
        }
        self.errors.push(message);
        if !skip {
            self.dump_rest();
            if self.close().await.is_err() {
                return Stop::Fatal;
            }
        }
        Stop::Fatal
    }

    async fn by_regex(&mut self, control: &Control, repetition: u64) -> Result<(), Stop> {
        let Kind::Regex { regex, skip, offset } = &control.kind else { return Ok(()) };
        let (skip, offset) = (*skip, *offset);
        if !skip {
            self.create().await?;
        }
        loop {
            self.current_line += 1;
            let Some(line) = self.line(self.current_line) else {
                if control.forever {
                    if !skip {
                        self.dump_rest();
                        self.close().await?;
                    }
                    return Err(Stop::Done);
                }
                return Err(self.regex_error(control, repetition, skip).await);
            };
            let text = line.strip_suffix(b"\n").unwrap_or(line);
            let matched = match regex.is_match(text) {
                Ok(matched) => matched,
                Err(_) => {
                    self.errors.push("error in regular expression search".into());
                    return Err(Stop::Fatal);
                }
            };
            if matched {
                break;
            }
            if offset >= 0 {
                if let Some(range) = self.remove_line() {
                    if !skip {
                        self.save(range);
                    }
                }
            }
        }
        let break_line = self.current_line + offset;
        let first = self.first_line_in_buffer()? as i64;
        if first > break_line {
            self.errors.push(format!("{}: line number out of range", pattern::quote(&control.text)));
            return Err(Stop::Fatal);
        }
        for _ in 0..break_line - first {
            let Some(range) = self.remove_line() else {
                self.errors.push(format!("{}: line number out of range", pattern::quote(&control.text)));
                return Err(Stop::Fatal);
            };
            if !skip {
                self.save(range);
            }
        }
        if !skip {
            self.close().await?;
        }
        if offset > 0 {
            self.current_line = break_line;
        }
        if self.suppress_matched {
            self.remove_line();
        }
        Ok(())
    }

    async fn split(&mut self, controls: &[Control]) -> Result<(), Stop> {
        for control in controls {
            let mut repetition = 0;
            while control.forever || repetition <= control.repeat {
                match control.kind {
                    Kind::Line(required) => self.by_line_count(control, required, repetition).await?,
                    Kind::Regex { .. } => self.by_regex(control, repetition).await?,
                }
                repetition += 1;
            }
        }
        self.create().await?;
        self.dump_rest();
        self.close().await?;
        Ok(())
    }

    /// Ends a failed run as GNU's `cleanup` does: the open piece is closed
    /// (its size shown), then every piece is removed unless `-k`.
    async fn cleanup(&mut self, keep: bool) {
        let _ = self.close().await;
        if keep {
            return;
        }
        for number in (0..self.files_created).rev() {
            let name = self.file_name(number);
            let _ = self.ctx.fs.remove_file(&self.ctx.resolve(&name)).await;
        }
        self.files_created = 0;
    }
}

/// Splits `data` into line ranges, each with its newline.
fn line_ranges(data: &[u8]) -> Vec<(usize, usize)> {
    let mut ranges = Vec::new();
    let mut start = 0;
    for end in memchr::memchr_iter(b'\n', data) {
        ranges.push((start, end + 1));
        start = end + 1;
    }
    if start < data.len() {
        ranges.push((start, data.len()));
    }
    ranges
}

async fn read_input(ctx: &Invocation<'_>, name: &str) -> Result<Vec<u8>, String> {
    let stream = if name == "-" { Some(ctx.stdin.clone()) } else { ctx.special_stream(name) };
    match stream {
        Some(stream) => stream.read_to_end().await.map_err(|error| format!("read error: {error}")),
        None => ctx.fs.read_file(&ctx.resolve(name)).await.map_err(|error| format!("cannot open {} for reading: {error}", quote(name))),
    }
}

/// Runs `csplit [OPTION]... FILE PATTERN...`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let parsed = match parse_or_report(ctx, &SPEC, 1).await {
            Ok(parsed) => parsed,
            Err(status) => return status,
        };
        let mut digits = 2usize;
        for (key, value) in &parsed.options {
            if *key == "n" {
                let text = value.as_deref().unwrap_or("");
                let q = pattern::quote(text);
                match text.trim_start().parse::<i64>() {
                    Ok(n) if (0..=i64::from(i32::MAX)).contains(&n) => digits = n as usize,
                    Ok(_) => {
                        ctx.report(&format!("invalid number: {q}: Numerical result out of range")).await;
                        return 1;
                    }
                    Err(_)
                        if text.trim_start().trim_start_matches(['+', '-']).bytes().all(|b| b.is_ascii_digit())
                            && !text.trim().is_empty() =>
                    {
                        ctx.report(&format!("invalid number: {q}: Numerical result out of range")).await;
                        return 1;
                    }
                    Err(_) => {
                        ctx.report(&format!("invalid number: {q}")).await;
                        return 1;
                    }
                }
            }
        }
        match parsed.operands.as_slice() {
            [] => {
                report_usage(ctx, "missing operand").await;
                return 1;
            }
            [only] => {
                report_usage(ctx, &format!("missing operand after {}", pattern::quote(only))).await;
                return 1;
            }
            _ => {}
        }
        let suffix = match parsed.value("b") {
            Some(format) => match parse_suffix(format) {
                Ok(format) => Some(format),
                Err(message) => {
                    ctx.report(&message).await;
                    return 1;
                }
            },
            None => None,
        };
        let data = match read_input(ctx, &parsed.operands[0]).await {
            Ok(data) => data,
            Err(message) => {
                ctx.report(&message).await;
                return 1;
            }
        };
        let mut warnings = Vec::new();
        let controls = parse_patterns(&parsed.operands[1..], &mut warnings);
        for warning in &warnings {
            ctx.report(warning).await;
        }
        let controls = match controls {
            Ok(controls) => controls,
            Err(error) => {
                ctx.report(&error.0).await;
                return 1;
            }
        };
        let lines = line_ranges(&data);
        let mut splitter = Splitter {
            ctx,
            data,
            lines,
            first_available: 1,
            current_line: 0,
            files_created: 0,
            piece: None,
            prefix: parsed.value("f").unwrap_or("xx").to_string(),
            suffix,
            digits,
            elide: parsed.has("z"),
            quiet: parsed.has("s"),
            suppress_matched: parsed.has("suppress-matched"),
            counts: Vec::new(),
            errors: Vec::new(),
        };
        let outcome = splitter.split(&controls).await;
        match outcome {
            Err(Stop::Fatal) => splitter.cleanup(parsed.has("k")).await,
            Err(Stop::Die) => {
                if let Some(piece) = splitter.piece.take() {
                    let _ = piece.handle.write_at(0, &piece.data).await;
                }
            }
            _ => {}
        }
        let counts = std::mem::take(&mut splitter.counts);
        let errors = std::mem::take(&mut splitter.errors);
        let written = ctx.write_out(&counts).await;
        for error in &errors {
            ctx.report(error).await;
        }
        if let Err(error) = written {
            return ctx.write_failed(error).await;
        }
        match outcome {
            Err(Stop::Fatal | Stop::Die) => 1,
            _ => 0,
        }
    })
}
