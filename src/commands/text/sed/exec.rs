//! Running a parsed sed program over its input: the cycle of reading a
//! line into the pattern space, running the commands, printing, and the
//! queue of text appended at the end of the cycle.

use super::replace::expand;
use super::script::{Action, Address, BranchKind, Command, EndAddress, Piece, Program, RegexRef, Substitute};
use super::source::{Line, Source};
use crate::regex::{decode_at, Regex, RegexError, Span, Unit};
use crate::utility::{write_failure_status, Invocation, StepKind, StepLimitError};
use std::collections::HashMap;

/// Output is handed on in blocks this large.
const FLUSH_AT: usize = 32 * 1024;

/// The options that change how the program runs.
pub struct Settings {
    /// `-n`.
    pub quiet: bool,
    /// The line delimiter (`\n`, NUL with `-z`).
    pub delimiter: u8,
    /// The default width of `l` (`-l N`).
    pub line_wrap: usize,
    /// Output is collected for a file (`-i`) rather than written out.
    pub collect: bool,
}

/// Why a run stopped early.
pub enum Stop {
    /// `q`/`Q` with an exit status.
    Quit(i32),
    /// A failure with its exit status (already reported).
    Failed(i32),
    /// A failure to report, with its exit status.
    Error(String, i32),
}

/// Text queued by `a`, `r`, `R` for the end of the cycle.
enum Queued {
    Text(Vec<u8>),
    File(String),
    LineOf(String),
}

/// How a cycle ended.
enum CycleEnd {
    /// Print the pattern space (unless `-n`), then go on.
    Normal,
    /// `d`: no print.
    Deleted,
    /// `D` with a newline: restart without reading.
    Restart,
    /// `q`/`Q` (or `n`/`N` at the end): print or not, then exit with the status.
    Quit { print: bool, status: i32 },
}

/// Range state of a command with two addresses.
#[derive(Clone, Copy, Default)]
struct RangeState {
    active: bool,
    end_line: u64,
    zero_done: bool,
}

/// The machine state that lives across cycles (and across files).
pub struct Machine<'p> {
    program: &'p Program,
    settings: Settings,
    pattern: Vec<u8>,
    /// The buffer `s` builds its result in, kept between cycles.
    scratch: Vec<u8>,
    hold: Vec<u8>,
    line_number: u64,
    terminated: bool,
    replaced: bool,
    last_regex: Option<usize>,
    ranges: Vec<RangeState>,
    queue: Vec<Queued>,
    /// Output not yet written (or the whole output under `-i`).
    pub out: Vec<u8>,
    missing_newline: bool,
    /// Contents written by `w` commands, by file name.
    pub written: HashMap<String, Vec<u8>>,
    /// Read positions of `R` files.
    line_files: HashMap<String, (Vec<u8>, usize)>,
}

impl<'p> Machine<'p> {
    /// A machine for `program`.
    pub fn new(program: &'p Program, settings: Settings) -> Machine<'p> {
        Machine {
            program,
            settings,
            pattern: Vec::new(),
            scratch: Vec::new(),
            hold: Vec::new(),
            line_number: 0,
            terminated: true,
            replaced: false,
            last_regex: None,
            ranges: vec![RangeState::default(); program.commands.len()],
            queue: Vec::new(),
            out: Vec::new(),
            missing_newline: false,
            written: program.write_files.iter().map(|name| (name.clone(), Vec::new())).collect(),
            line_files: HashMap::new(),
        }
    }

    /// Restarts line numbering (each file of `-s` and `-i`); a new output
    /// file (`-i`) also starts without a pending newline.
    pub fn reset_lines(&mut self, new_output: bool) {
        self.line_number = 0;
        if new_output {
            self.missing_newline = false;
        }
    }

    async fn flush(&mut self, ctx: &Invocation<'_>, force: bool) -> Result<(), Stop> {
        if self.settings.collect || self.out.is_empty() || (!force && self.out.len() < FLUSH_AT) {
            return Ok(());
        }
        let data = std::mem::take(&mut self.out);
        ctx.write_out(&data).await.map_err(|error| match write_failure_status(error) {
            1 => Stop::Failed(4),
            other => Stop::Failed(other),
        })
    }

    /// Writes the newline a previous unterminated line lacked.
    fn settle(&mut self) {
        if self.missing_newline {
            self.out.push(self.settings.delimiter);
            self.missing_newline = false;
        }
    }

    fn emit_line(&mut self, text: &[u8]) {
        self.settle();
        self.out.extend_from_slice(text);
        if self.terminated {
            self.out.push(self.settings.delimiter);
        } else {
            self.missing_newline = true;
        }
    }

    fn emit_raw(&mut self, text: &[u8]) {
        self.settle();
        self.out.extend_from_slice(text);
    }

    fn take_line(&mut self, line: Line) {
        self.pattern = line.text;
        self.terminated = line.terminated;
        self.line_number += 1;
    }

    /// Runs the program over every line of `source`.
    pub async fn run(&mut self, ctx: &Invocation<'_>, source: &mut Source) -> Result<(), Stop> {
        let mut restart = false;
        loop {
            if !restart {
                let Some(line) = source.next_line(ctx).await else { break };
                self.take_line(line);
                self.replaced = false;
            }
            restart = false;
            let end = self.cycle(ctx, source).await?;
            let (print, quit) = match end {
                CycleEnd::Normal => (true, None),
                CycleEnd::Deleted => (false, None),
                CycleEnd::Restart => {
                    restart = true;
                    (false, None)
                }
                CycleEnd::Quit { print, status } => (print, Some(status)),
            };
            if print && !self.settings.quiet {
                let pattern = std::mem::take(&mut self.pattern);
                self.emit_line(&pattern);
                self.pattern = pattern;
            }
            self.dump_queue(ctx).await;
            self.flush(ctx, false).await?;
            if let Some(status) = quit {
                return Err(Stop::Quit(status));
            }
            if source.read_error {
                return Err(Stop::Failed(4));
            }
        }
        if source.read_error {
            return Err(Stop::Failed(4));
        }
        Ok(())
    }

    /// Writes the queued `a`, `r`, `R` text.
    async fn dump_queue(&mut self, ctx: &Invocation<'_>) {
        for item in std::mem::take(&mut self.queue) {
            match item {
                Queued::Text(text) => self.emit_raw(&text),
                Queued::File(name) => {
                    let data = if name == "/dev/stdin" {
                        ctx.stdin.read_to_end().await.ok()
                    } else {
                        ctx.fs.read_file(&ctx.resolve(&name)).await.ok()
                    };
                    if let Some(data) = data {
                        self.emit_raw(&data);
                    }
                }
                Queued::LineOf(name) => {
                    if !self.line_files.contains_key(&name) {
                        let data = ctx.fs.read_file(&ctx.resolve(&name)).await.unwrap_or_default();
                        self.line_files.insert(name.clone(), (data, 0));
                    }
                    let delimiter = self.settings.delimiter;
                    let line = self.line_files.get_mut(&name).and_then(|(data, pos)| {
                        let rest = data.get(*pos..).filter(|rest| !rest.is_empty())?;
                        let length = rest.iter().position(|b| *b == delimiter).map_or(rest.len(), |i| i + 1);
                        let line = rest.get(..length).map(<[u8]>::to_vec);
                        *pos += length;
                        line
                    });
                    if let Some(mut line) = line {
                        if line.last() != Some(&delimiter) {
                            line.push(delimiter);
                        }
                        self.emit_raw(&line);
                    }
                }
            }
        }
    }

    fn regex(&mut self, reference: RegexRef) -> Result<&'p Regex, Stop> {
        let no_previous = || Stop::Error("no previous regular expression".to_string(), 1);
        let index = reference.or(self.last_regex).ok_or_else(no_previous)?;
        self.last_regex = Some(index);
        self.program.regexes.get(index).ok_or_else(no_previous)
    }

    fn regex_matches(&mut self, reference: RegexRef) -> Result<bool, Stop> {
        let regex = self.regex(reference)?;
        regex.is_match(&self.pattern).map_err(|error| regex_failure(&error))
    }

    async fn address_matches(&mut self, ctx: &Invocation<'_>, source: &mut Source, address: Address) -> Result<bool, Stop> {
        Ok(match address {
            Address::Line(number) => self.line_number == number,
            Address::Last => source.at_end(ctx).await,
            Address::Regex(reference) => self.regex_matches(reference)?,
            Address::Step(first, step) => {
                if step == 0 {
                    self.line_number == first
                } else {
                    self.line_number >= first && (self.line_number - first) % step == 0
                }
            }
        })
    }

    async fn selected(&mut self, ctx: &Invocation<'_>, source: &mut Source, index: usize, command: &Command) -> Result<bool, Stop> {
        let matched = match (command.start, command.end) {
            (None, _) => true,
            (Some(start), None) => self.address_matches(ctx, source, start).await?,
            (Some(start), Some(end)) => self.range_matches(ctx, source, index, start, end).await?,
        };
        Ok(matched != command.negate)
    }

    async fn range_matches(
        &mut self,
        ctx: &Invocation<'_>,
        source: &mut Source,
        index: usize,
        start: Address,
        end: EndAddress,
    ) -> Result<bool, Stop> {
        let mut state = self.ranges.get(index).copied().unwrap_or_default();
        let line = self.line_number;
        if !state.active && start == Address::Line(0) && !state.zero_done {
            state.zero_done = true;
            state.active = true;
        } else if !state.active {
            if !self.address_matches(ctx, source, start).await? {
                return Ok(false);
            }
            state.active = match end {
                EndAddress::Line(last) => last > line,
                EndAddress::Plus(count) => {
                    state.end_line = line.saturating_add(count);
                    count > 0
                }
                EndAddress::Multiple(step) => match line.checked_div(step) {
                    Some(quotient) => {
                        state.end_line = (quotient + 1).saturating_mul(step);
                        true
                    }
                    None => false,
                },
                EndAddress::Last => !source.at_end(ctx).await,
                EndAddress::Regex(_) => true,
            };
            if let Some(slot) = self.ranges.get_mut(index) {
                *slot = state;
            }
            return Ok(true);
        }
        let finished = match end {
            EndAddress::Line(last) => line >= last,
            EndAddress::Plus(_) | EndAddress::Multiple(_) => line >= state.end_line,
            EndAddress::Last => source.at_end(ctx).await,
            EndAddress::Regex(reference) => self.regex_matches(reference)?,
        };
        let inside = match end {
            EndAddress::Line(last) => line <= last || !finished,
            _ => true,
        };
        if finished {
            state.active = false;
        }
        if let Some(slot) = self.ranges.get_mut(index) {
            *slot = state;
        }
        Ok(inside)
    }

    /// True while the range of command `index` is still open.
    fn range_open(&self, index: usize) -> bool {
        self.ranges.get(index).is_some_and(|state| state.active)
    }

    async fn cycle(&mut self, ctx: &Invocation<'_>, source: &mut Source) -> Result<CycleEnd, Stop> {
        let commands = &self.program.commands;
        let mut pc = 0;
        while let Some(command) = commands.get(pc) {
            // Every command counts against the run's sed budget, so a script
            // that loops forever (`:a;ba`) stops with an error naming it.
            match ctx.shell.charge_steps(StepKind::Sed, 1) {
                Ok(()) => {}
                Err(StepLimitError::Limit(message)) => return Err(Stop::Error(message, 4)),
                Err(StepLimitError::Interrupted) => return Err(Stop::Failed(130)),
            }
            if !self.selected(ctx, source, pc, command).await? {
                pc = match command.action {
                    Action::Block(after) => after,
                    _ => pc + 1,
                };
                continue;
            }
            pc += 1;
            match &command.action {
                Action::Block(_) | Action::EndBlock | Action::Label => {}
                Action::Substitute(substitute) => {
                    if self.substitute(substitute)? {
                        self.replaced = true;
                        if substitute.print {
                            let pattern = self.pattern.clone();
                            self.emit_line(&pattern);
                        }
                        if let Some(name) = &substitute.write {
                            self.write_to(ctx, name, None).await;
                        }
                    }
                }
                Action::Translate(pairs) => self.translate(pairs),
                Action::Append(text) => self.queue.push(Queued::Text(text.clone())),
                Action::Insert(text) => self.emit_raw(text),
                Action::Change(text) => {
                    if command.end.is_none() || command.negate || !self.range_open(pc - 1) {
                        self.emit_raw(text);
                    }
                    return Ok(CycleEnd::Deleted);
                }
                Action::Delete => return Ok(CycleEnd::Deleted),
                Action::DeleteFirstLine => {
                    let Some(newline) = self.pattern.iter().position(|b| *b == b'\n') else {
                        return Ok(CycleEnd::Deleted);
                    };
                    self.pattern.drain(..=newline);
                    return Ok(CycleEnd::Restart);
                }
                Action::Print => {
                    let pattern = self.pattern.clone();
                    self.emit_line(&pattern);
                }
                Action::PrintFirstLine => {
                    let end = self.pattern.iter().position(|b| *b == b'\n').unwrap_or(self.pattern.len());
                    let first = self.pattern.get(..end).unwrap_or(&[]).to_vec();
                    let terminated = std::mem::replace(&mut self.terminated, true);
                    self.emit_line(&first);
                    self.terminated = terminated;
                }
                Action::Next => {
                    if source.at_end(ctx).await {
                        return Ok(CycleEnd::Quit { print: true, status: 0 });
                    }
                    if !self.settings.quiet {
                        let pattern = std::mem::take(&mut self.pattern);
                        self.emit_line(&pattern);
                    }
                    self.dump_queue(ctx).await;
                    if let Some(line) = source.next_line(ctx).await {
                        self.take_line(line);
                    }
                }
                Action::AppendNext => {
                    if source.at_end(ctx).await {
                        return Ok(CycleEnd::Quit { print: true, status: 0 });
                    }
                    self.dump_queue(ctx).await;
                    if let Some(line) = source.next_line(ctx).await {
                        let mut pattern = std::mem::take(&mut self.pattern);
                        pattern.push(b'\n');
                        pattern.extend_from_slice(&line.text);
                        self.take_line(Line { text: pattern, terminated: line.terminated });
                    }
                }
                Action::GetHold => self.pattern = self.hold.clone(),
                Action::AppendHold => {
                    self.pattern.push(b'\n');
                    self.pattern.extend_from_slice(&self.hold);
                }
                Action::Hold => self.hold = self.pattern.clone(),
                Action::AppendToHold => {
                    self.hold.push(b'\n');
                    self.hold.extend_from_slice(&self.pattern);
                }
                Action::Exchange => std::mem::swap(&mut self.pattern, &mut self.hold),
                Action::Branch(kind, target) => {
                    let taken = match kind {
                        BranchKind::Always => true,
                        BranchKind::IfReplaced => self.replaced,
                        BranchKind::IfNotReplaced => !self.replaced,
                    };
                    if *kind != BranchKind::Always {
                        self.replaced = false;
                    }
                    if taken {
                        pc = target.unwrap_or(commands.len());
                    }
                }
                Action::Quit(status) => return Ok(CycleEnd::Quit { print: true, status: *status }),
                Action::QuitSilently(status) => {
                    self.queue.clear();
                    return Ok(CycleEnd::Quit { print: false, status: *status });
                }
                Action::List(width) => {
                    let width = width.unwrap_or(self.settings.line_wrap);
                    let listed = list_form(&self.pattern, width);
                    self.emit_raw(&listed);
                }
                Action::LineNumber => {
                    let text = format!("{}\n", self.line_number);
                    self.emit_raw(text.as_bytes());
                }
                Action::ReadFile(name) => self.queue.push(Queued::File(name.clone())),
                Action::ReadLine(name) => self.queue.push(Queued::LineOf(name.clone())),
                Action::WriteFile(name) => self.write_to(ctx, name, None).await,
                Action::WriteFirstLine(name) => {
                    let end = self.pattern.iter().position(|b| *b == b'\n').unwrap_or(self.pattern.len());
                    self.write_to(ctx, name, Some(end)).await;
                }
                Action::Zap => self.pattern.clear(),
                Action::FileName => {
                    let text = format!("{}\n", source.current);
                    self.emit_raw(text.as_bytes());
                }
            }
        }
        Ok(CycleEnd::Normal)
    }

    /// `w`: the pattern space (or its first `limit` bytes) and a newline.
    async fn write_to(&mut self, ctx: &Invocation<'_>, name: &str, limit: Option<usize>) {
        let mut text = self.pattern.get(..limit.unwrap_or(self.pattern.len())).unwrap_or(&[]).to_vec();
        text.push(self.settings.delimiter);
        match name {
            "/dev/stdout" if self.settings.collect => {
                let _ = ctx.write_out(&text).await;
            }
            "/dev/stdout" => self.emit_raw(&text),
            "/dev/stderr" => {
                let _ = ctx.stderr.write(&text).await;
            }
            _ => self.written.entry(name.to_string()).or_default().extend_from_slice(&text),
        }
    }

    fn translate(&mut self, pairs: &[(char, char)]) {
        let mut out = Vec::with_capacity(self.pattern.len());
        let mut pos = 0;
        loop {
            match decode_at(&self.pattern, pos) {
                Unit::End => break,
                Unit::Byte(b) => {
                    out.push(b);
                    pos += 1;
                }
                Unit::Char(c, len) => {
                    let mapped = pairs.iter().find(|(from, _)| *from == c).map_or(c, |(_, to)| *to);
                    let mut buffer = [0u8; 4];
                    out.extend_from_slice(mapped.encode_utf8(&mut buffer).as_bytes());
                    pos += len;
                }
            }
        }
        self.pattern = out;
    }

    /// `s`: true when a replacement was made.
    fn substitute(&mut self, substitute: &Substitute) -> Result<bool, Stop> {
        let regex = self.regex(substitute.regex)?;
        let hay = std::mem::take(&mut self.pattern);
        let mut out = std::mem::take(&mut self.scratch);
        out.clear();
        let mut pos = 0;
        let mut copied = 0;
        let mut count = 0;
        let mut replaced = false;
        let mut previous_end: Option<usize> = None;
        let needs_groups = substitute.replacement.iter().any(|piece| matches!(piece, Piece::Group(number) if *number > 0));
        let mut whole = [None];
        while pos <= hay.len() {
            let found = if needs_groups {
                regex.captures_at(&hay, pos).map(|found| found.map(Captured::Groups))
            } else {
                regex.find_at(&hay, pos).map(|found| found.map(Captured::Whole))
            };
            let captured = match found {
                Ok(Some(captured)) => captured,
                Ok(None) => break,
                Err(error) => {
                    self.pattern = hay;
                    self.scratch = out;
                    return Err(regex_failure(&error));
                }
            };
            let captures: &[Option<Span>] = match &captured {
                Captured::Groups(groups) => groups,
                Captured::Whole(span) => {
                    whole[0] = Some(*span);
                    &whole
                }
            };
            let Some(Some((start, end))) = captures.first().copied() else { break };
            let step = match decode_at(&hay, start) {
                Unit::Char(_, len) => len,
                _ => 1,
            };
            if start == end && previous_end == Some(start) {
                pos = start + step;
                continue;
            }
            count += 1;
            if count >= substitute.occurrence {
                out.extend_from_slice(hay.get(copied..start).unwrap_or(&[]));
                expand(&substitute.replacement, &hay, captures, &mut out);
                copied = end;
                replaced = true;
                if !substitute.global {
                    break;
                }
            }
            previous_end = Some(end);
            pos = if start == end { start + step } else { end };
        }
        if replaced {
            out.extend_from_slice(hay.get(copied..).unwrap_or(&[]));
            self.pattern = out;
            self.scratch = hay;
        } else {
            self.pattern = hay;
            self.scratch = out;
        }
        Ok(replaced)
    }
}

/// A match of `s`: its span alone, or every group's when the replacement
/// uses groups.
enum Captured {
    Whole(Span),
    Groups(Vec<Option<Span>>),
}

/// A regex failure at run time (the backtracker's budget ran out).
fn regex_failure(error: &RegexError) -> Stop {
    Stop::Error(error.to_string(), 4)
}

/// The `l` form of a pattern space: escapes, octal for the rest, lines
/// wrapped at `width` with `\`, and a final `$`.
pub fn list_form(pattern: &[u8], width: usize) -> Vec<u8> {
    let mut out = Vec::new();
    let mut column = 0;
    for &byte in pattern {
        let piece = match byte {
            b'\\' => "\\\\".to_string(),
            0x07 => "\\a".to_string(),
            0x08 => "\\b".to_string(),
            0x0c => "\\f".to_string(),
            b'\n' => "\\n".to_string(),
            b'\r' => "\\r".to_string(),
            b'\t' => "\\t".to_string(),
            0x0b => "\\v".to_string(),
            0x20..=0x7e => char::from(byte).to_string(),
            _ => format!("\\{byte:03o}"),
        };
        if width > 1 && column + piece.len() > width - 1 {
            out.extend_from_slice(b"\\\n");
            column = 0;
        }
        column += piece.len();
        out.extend_from_slice(piece.as_bytes());
    }
    out.extend_from_slice(b"$\n");
    out
}
