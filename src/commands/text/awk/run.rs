//! The program's life: `BEGIN`, then each record of each input operand
//! (with `BEGINFILE`/`ENDFILE`, assignment operands, `next`, `nextfile`),
//! then `END`, and closing every stream at the end.

use super::ast::{Block, Pattern, Stmt};
use super::exec::Flow;
use super::interp::{EResult, Interp, Stop};
use super::io::{Reader, Record};
use super::value::Value;
use super::vars::{Cell, ARGC, ARGV, FILENAME, FNR, NR, ORS};
use crate::commands::common::{open_input, Input};
use crate::fs::FsError;
use crate::utility::Invocation;

/// True when `text` is a command-line assignment (`name=value`).
pub fn assignment(text: &[u8]) -> Option<(&[u8], &[u8])> {
    let eq = text.iter().position(|&c| c == b'=')?;
    let name = &text[..eq];
    let first = *name.first()?;
    if !(first.is_ascii_alphabetic() || first == b'_') || !name.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_') {
        return None;
    }
    Some((name, &text[eq + 1..]))
}

/// Decodes the escapes of an assigned value (`-v` and operands).
pub fn unescape(value: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(value.len());
    let mut i = 0;
    while i < value.len() {
        if value[i] == b'\\' && i + 1 < value.len() {
            let (bytes, used) = super::lexer::escape(&value[i + 1..]);
            out.extend_from_slice(&bytes);
            i += 1 + used;
        } else {
            out.push(value[i]);
            i += 1;
        }
    }
    out
}

fn all_sync(block: &Block) -> bool {
    block.iter().all(|(_, s)| matches!(s, Stmt::Sync(_)))
}

impl<'p> Interp<'p> {
    /// Assigns `name=value` from the command line.
    pub fn assign_operand(&mut self, name: &[u8], value: &[u8]) -> EResult<()> {
        let name = String::from_utf8_lossy(name).into_owned();
        let Some(slot) = self.prog.globals.iter().position(|g| *g == name) else {
            return Ok(());
        };
        if matches!(self.globals.get(slot), Some(Cell::Arr(_))) {
            return Err(Stop::Fatal(format!("cannot use array `{name}' as a scalar")));
        }
        let value = unescape(value);
        self.set_var(super::ast::Var::Global(slot), Value::strnum(&value))
    }

    async fn run_blocks(&mut self, ctx: &mut Invocation<'_>, blocks: &'p [Block]) -> EResult<()> {
        for block in blocks {
            self.exec_block_async(ctx, block).await?;
        }
        Ok(())
    }

    /// Reads the next record of the main input, moving through the operands.
    pub async fn next_main_record(&mut self, ctx: &mut Invocation<'_>) -> EResult<Option<Record>> {
        loop {
            if let Some(reader) = self.io.main.as_mut() {
                let rs = self.io.rs.clone();
                if let Some(record) = reader.next_record(&rs).await {
                    return Ok(Some(record));
                }
                self.io.main = None;
                let prog = self.prog;
                Box::pin(self.run_blocks(ctx, &prog.end_file)).await?;
            }
            if self.io.main_done {
                return Ok(None);
            }
            if !self.open_next(ctx).await? {
                self.io.main_done = true;
                return Ok(None);
            }
        }
    }

    async fn open_next(&mut self, ctx: &mut Invocation<'_>) -> EResult<bool> {
        loop {
            let argc = self.special(ARGC).num();
            let argc = if argc.is_finite() && argc > 0.0 { argc as usize } else { 0 };
            if self.io.next_arg >= argc {
                if self.io.saw_file {
                    return Ok(false);
                }
                self.io.saw_file = true;
                self.set_plain(FILENAME, Value::str(b"-"));
                self.io.main = Some(Reader::new(ctx.stdin.clone()));
                self.set_plain(FNR, Value::Num(0.0));
                let prog = self.prog;
                Box::pin(self.run_blocks(ctx, &prog.begin_file)).await?;
                return Ok(true);
            }
            let index = self.io.next_arg;
            self.io.next_arg += 1;
            let arg = {
                let Some(Cell::Arr(argv)) = self.globals.get(ARGV) else { continue };
                let argv = argv.borrow();
                match argv.get(index.to_string().as_bytes()) {
                    Some(value) => self.to_str(value),
                    None => continue,
                }
            };
            if arg.is_empty() {
                continue;
            }
            if let Some((name, value)) = assignment(&arg) {
                self.assign_operand(name, value)?;
                continue;
            }
            self.io.saw_file = true;
            let text = String::from_utf8_lossy(&arg).into_owned();
            let input = if text == "-" { Input::Stdin } else { Input::File(text.clone()) };
            let fd = match open_input(ctx, &input).await {
                Ok(fd) => fd,
                Err(FsError::IsADirectory) => {
                    self.warnings.push((usize::MAX, format!("command line argument `{text}' is a directory: skipped")));
                    continue;
                }
                Err(error) => return Err(Stop::Fatal(format!("\u{0}cannot open file `{text}' for reading: {error}"))),
            };
            self.set_plain(FILENAME, Value::StrNum(arg.clone()));
            self.set_plain(FNR, Value::Num(0.0));
            self.io.main = Some(Reader::new(fd));
            let prog = self.prog;
            Box::pin(self.run_blocks(ctx, &prog.begin_file)).await?;
            return Ok(true);
        }
    }

    /// Runs the whole program.
    pub async fn run_program(&mut self, ctx: &mut Invocation<'_>) -> EResult<()> {
        let prog = self.prog;
        match self.run_blocks(ctx, &prog.begin).await {
            Ok(()) => {
                let reads = !prog.rules.is_empty() || !prog.end.is_empty() || !prog.begin_file.is_empty() || !prog.end_file.is_empty();
                if reads {
                    match self.main_loop(ctx).await {
                        Ok(()) | Err(Stop::Exit) => {}
                        Err(other) => return Err(other),
                    }
                }
            }
            Err(Stop::Exit) => {}
            Err(other) => return Err(other),
        }
        match self.run_blocks(ctx, &prog.end).await {
            Ok(()) | Err(Stop::Exit) => Ok(()),
            Err(other) => Err(other),
        }
    }

    async fn main_loop(&mut self, ctx: &mut Invocation<'_>) -> EResult<()> {
        let prog = self.prog;
        while let Some(record) = self.next_main_record(ctx).await? {
            self.step(ctx)?;
            self.bump(NR);
            self.bump(FNR);
            self.set_rt(record.terminator.as_slice());
            self.set_record(record.text);
            match self.run_rules(ctx, prog).await {
                Ok(()) | Err(Stop::Next) => {}
                Err(Stop::NextFile) => {
                    if self.io.main.take().is_some() {
                        self.run_blocks(ctx, &prog.end_file).await?;
                    }
                }
                Err(other) => return Err(other),
            }
        }
        Ok(())
    }

    async fn run_rules(&mut self, ctx: &mut Invocation<'_>, prog: &'p super::ast::Program) -> EResult<()> {
        self.located = true;
        for rule in &prog.rules {
            self.offset = rule.offset;
            let matched = match &rule.pattern {
                Pattern::All => true,
                Pattern::Expr(e) => self.value(ctx, e).await?.truthy(),
                Pattern::Range(start, end, index) => {
                    let active = self.ranges.get(*index).copied().unwrap_or(false);
                    if active {
                        if self.value(ctx, end).await?.truthy() {
                            self.set_range(*index, false);
                        }
                        true
                    } else if self.value(ctx, start).await?.truthy() {
                        if !self.value(ctx, end).await?.truthy() {
                            self.set_range(*index, true);
                        }
                        true
                    } else {
                        false
                    }
                }
            };
            if !matched {
                continue;
            }
            match &rule.action {
                None => {
                    let ors = self.to_str(&self.special(ORS));
                    self.io.out.extend_from_slice(&self.record);
                    self.io.out.extend_from_slice(&ors);
                    if self.io.out.len() >= super::io::FLUSH_AT {
                        self.io.flush_stdout(ctx).await.map_err(Stop::Status)?;
                    }
                }
                Some(block) if all_sync(block) => if let Flow::Return(_) = self.exec_block(ctx, block)? {},
                Some(block) => {
                    self.exec_action(ctx, block).await?;
                }
            }
        }
        Ok(())
    }

    fn set_range(&mut self, index: usize, active: bool) {
        if let Some(state) = self.ranges.get_mut(index) {
            *state = active;
        }
    }

    /// Writes and closes every redirection and standard output.
    pub async fn finish(&mut self, ctx: &mut Invocation<'_>) -> Result<(), i32> {
        let mut result = Ok(());
        while !self.io.outputs.is_empty() {
            if let Err(status) = self.io.close_output(ctx, 0).await {
                result = Err(status);
                self.io.outputs.remove(0);
            }
        }
        self.io.flush_stdout(ctx).await?;
        result
    }
}
