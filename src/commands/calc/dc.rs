//! `dc` (GNU dc 1.07) basics: the reverse-Polish calculator on bc's number
//! type. Supported: numbers (`_` for minus), `p n f P`, `+ - * / % ~ ^ | v`,
//! `d r c z Z X k i o K I O`, registers `s l S L`, strings `[..]`, macros
//! `x` and the conditionals `< > = !< !> !=` with registers, `q Q`, `#`
//! comments; `-e EXPR` and `-f FILE` scripts, then files, else stdin.
//! Macro steps count against the run's bc step budget.

use super::num::Num;
use crate::commands::common::{open_input, Input};
use crate::commands::options::{parse_or_report, Long, Spec};
use crate::commands::text::input::read_all;
use crate::host::LocalFuture;
use crate::utility::{Invocation, StepKind};
use std::collections::HashMap;

const SPEC: Spec = Spec::new("e:f:", &[Long::required("expression", "e"), Long::required("file", "f")]);

#[derive(Clone)]
enum Value {
    Num(Num),
    Str(Vec<u8>),
}

enum Stop {
    /// `q` / `Q`: leave this many macro levels (0 at the top ends dc).
    Quit(usize),
    /// The step budget ran out.
    Limit(String),
}

struct Dc<'c, 'i> {
    ctx: &'c Invocation<'i>,
    stack: Vec<Value>,
    registers: HashMap<u8, Vec<Value>>,
    scale: usize,
    ibase: u32,
    obase: u64,
    out: Vec<u8>,
    err: Vec<u8>,
    steps: u64,
}

fn char_name(c: u8) -> String {
    format!("'{}' ({:04o})", char::from(c), c)
}

impl Dc<'_, '_> {
    fn error(&mut self, message: &str) {
        self.err.extend_from_slice(format!("dc: {message}\n").as_bytes());
    }

    /// GNU dc writes `dc: ` to stderr and the rest of this message to stdout.
    fn unimplemented(&mut self, c: u8) {
        self.err.extend_from_slice(b"dc: ");
        self.out.extend_from_slice(format!("{} unimplemented\n", char_name(c)).as_bytes());
    }

    fn print_value(&mut self, value: &Value, newline: bool) {
        match value {
            Value::Num(n) => {
                let text = n.format(self.obase);
                let mut col = 0;
                for b in text.bytes() {
                    col += 1;
                    if col == 70 {
                        self.out.extend_from_slice(b"\\\n");
                        col = 1;
                    }
                    self.out.push(b);
                }
            }
            Value::Str(s) => self.out.extend_from_slice(s),
        }
        if newline {
            self.out.push(b'\n');
        }
    }

    fn pop_num(&mut self) -> Option<Num> {
        match self.stack.last() {
            Some(Value::Num(_)) => match self.stack.pop() {
                Some(Value::Num(n)) => Some(n),
                _ => None,
            },
            Some(Value::Str(_)) => {
                self.error("non-numeric value");
                None
            }
            None => {
                self.error("stack empty");
                None
            }
        }
    }

    fn binary(&mut self, op: u8) {
        if self.stack.len() < 2 {
            self.error("stack empty");
            return;
        }
        let (Some(Value::Num(b)), Some(Value::Num(a))) = (self.stack.last().cloned(), self.stack.get(self.stack.len() - 2).cloned()) else {
            self.error("non-numeric value");
            return;
        };
        self.stack.truncate(self.stack.len() - 2);
        let scale = self.scale;
        let result = match op {
            b'+' => Ok(vec![a.add(&b)]),
            b'-' => Ok(vec![a.sub(&b)]),
            b'*' => Ok(vec![a.mul(&b, scale)]),
            b'/' => a.div(&b, scale).map(|q| vec![q]),
            b'%' => a.rem(&b, scale).map(|r| vec![r]),
            b'~' => a.div(&b, scale).and_then(|q| a.rem(&b, scale).map(|r| vec![q, r])),
            _ => match b.to_i64() {
                Some(e) if a.pow_digits(e.unsigned_abs()) < (1 << 24) => a.pow(e, scale).map(|p| vec![p]),
                _ => {
                    self.error("exponent too large in raise");
                    self.stack.push(Value::Num(a));
                    self.stack.push(Value::Num(b));
                    return;
                }
            },
        };
        match result {
            Ok(values) => self.stack.extend(values.into_iter().map(Value::Num)),
            Err(_) => {
                let what = if op == b'%' || op == b'~' { "remainder by zero" } else { "divide by zero" };
                self.error(what);
                self.stack.push(Value::Num(a));
                self.stack.push(Value::Num(b));
            }
        }
    }

    fn number(&self, text: &[u8]) -> Num {
        let negative = text.first() == Some(&b'_');
        let body = if negative { &text[1..] } else { text };
        let body = String::from_utf8_lossy(body);
        let value = if self.ibase == 10 && body.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
            let fixed = if body.starts_with('.') { format!("0{body}") } else { body.to_string() };
            Num::parse_decimal(fixed.trim_end_matches('.')).unwrap_or_default().rescale(body.split_once('.').map_or(0, |(_, f)| f.len()))
        } else {
            let (int, frac) = body.split_once('.').unwrap_or((&body, ""));
            let digit = |c: char| c.to_digit(16).unwrap_or(0);
            Num::from_base(&int.chars().map(digit).collect::<Vec<_>>(), &frac.chars().map(digit).collect::<Vec<_>>(), self.ibase)
        };
        if negative {
            value.negate()
        } else {
            value
        }
    }

    /// Runs `program`; `depth` is the macro nesting.
    fn execute(&mut self, program: &[u8], depth: usize) -> Result<(), Stop> {
        let mut i = 0;
        while i < program.len() {
            self.steps += 1;
            if self.steps >= 1024 {
                self.ctx.shell.charge_steps(StepKind::Bc, self.steps).map_err(|e| match e {
                    crate::utility::StepLimitError::Limit(m) => Stop::Limit(m),
                    crate::utility::StepLimitError::Interrupted => Stop::Limit(String::new()),
                })?;
                self.steps = 0;
            }
            let c = program[i];
            i += 1;
            match c {
                b' ' | b'\t' | b'\n' | b'\r' => {}
                b'#' => {
                    while i < program.len() && program[i] != b'\n' {
                        i += 1;
                    }
                }
                b'0'..=b'9' | b'A'..=b'F' | b'.' | b'_' => {
                    let start = i - 1;
                    let mut seen_dot = c == b'.';
                    while i < program.len() {
                        let d = program[i];
                        if d.is_ascii_digit() || (b'A'..=b'F').contains(&d) || (d == b'.' && !seen_dot) {
                            seen_dot |= d == b'.';
                            i += 1;
                        } else {
                            break;
                        }
                    }
                    let value = self.number(&program[start..i]);
                    self.stack.push(Value::Num(value));
                }
                b'[' => {
                    let mut level = 1;
                    let start = i;
                    while i < program.len() {
                        match program[i] {
                            b'[' => level += 1,
                            b']' => {
                                level -= 1;
                                if level == 0 {
                                    break;
                                }
                            }
                            _ => {}
                        }
                        i += 1;
                    }
                    self.stack.push(Value::Str(program[start..i.min(program.len())].to_vec()));
                    i += 1;
                }
                b'p' => match self.stack.last().cloned() {
                    Some(v) => self.print_value(&v, true),
                    None => self.error("stack empty"),
                },
                b'n' => match self.stack.pop() {
                    Some(v) => self.print_value(&v, false),
                    None => self.error("stack empty"),
                },
                b'P' => match self.stack.pop() {
                    Some(Value::Str(s)) => self.out.extend_from_slice(&s),
                    Some(Value::Num(n)) => {
                        let mut bytes = Vec::new();
                        let mut value = n.trunc().abs();
                        let base = Num::from_i64(256);
                        while !value.is_zero() {
                            let r = value.rem(&base, 0).unwrap_or_default();
                            bytes.push(r.to_i64().unwrap_or(0) as u8);
                            value = value.div(&base, 0).unwrap_or_default();
                        }
                        bytes.reverse();
                        self.out.extend_from_slice(&bytes);
                    }
                    None => self.error("stack empty"),
                },
                b'f' => {
                    for v in self.stack.clone().iter().rev() {
                        self.print_value(v, true);
                    }
                }
                b'+' | b'-' | b'*' | b'/' | b'%' | b'~' | b'^' => self.binary(c),
                b'v' => {
                    if let Some(n) = self.pop_num() {
                        match n.sqrt(self.scale) {
                            Ok(r) => self.stack.push(Value::Num(r)),
                            Err(_) => {
                                self.error("square root of negative number");
                                self.stack.push(Value::Num(n));
                            }
                        }
                    }
                }
                b'd' => match self.stack.last().cloned() {
                    Some(v) => self.stack.push(v),
                    None => self.error("stack empty"),
                },
                b'r' => {
                    let n = self.stack.len();
                    if n < 2 {
                        self.error("stack empty");
                    } else {
                        self.stack.swap(n - 1, n - 2);
                    }
                }
                b'c' => self.stack.clear(),
                b'z' => self.stack.push(Value::Num(Num::from_i64(self.stack.len() as i64))),
                b'Z' => match self.stack.pop() {
                    Some(Value::Num(n)) => self.stack.push(Value::Num(Num::from_i64(n.length() as i64))),
                    Some(Value::Str(s)) => self.stack.push(Value::Num(Num::from_i64(s.len() as i64))),
                    None => self.error("stack empty"),
                },
                b'X' => match self.stack.pop() {
                    Some(Value::Num(n)) => self.stack.push(Value::Num(Num::from_i64(n.scale() as i64))),
                    Some(Value::Str(_)) => self.stack.push(Value::Num(Num::zero())),
                    None => self.error("stack empty"),
                },
                b'k' => {
                    if let Some(n) = self.pop_num() {
                        match n.to_i64() {
                            Some(k) if k >= 0 => self.scale = k as usize,
                            _ => self.error("scale must be a nonnegative number"),
                        }
                    }
                }
                b'i' => {
                    if let Some(n) = self.pop_num() {
                        match n.to_i64() {
                            Some(b) if (2..=16).contains(&b) => self.ibase = b as u32,
                            _ => self.error("input base must be a number between 2 and 16 (inclusive)"),
                        }
                    }
                }
                b'o' => {
                    if let Some(n) = self.pop_num() {
                        match n.to_i64() {
                            Some(b) if b >= 2 => self.obase = b as u64,
                            _ => self.error("output base must be a number greater than 1"),
                        }
                    }
                }
                b'K' => self.stack.push(Value::Num(Num::from_i64(self.scale as i64))),
                b'I' => self.stack.push(Value::Num(Num::from_i64(i64::from(self.ibase)))),
                b'O' => self.stack.push(Value::Num(Num::from_i64(self.obase as i64))),
                b's' | b'S' | b'l' | b'L' => {
                    let Some(&r) = program.get(i) else {
                        self.error("unexpected EOS");
                        break;
                    };
                    i += 1;
                    match c {
                        b's' | b'S' => match self.stack.pop() {
                            Some(v) => {
                                let slot = self.registers.entry(r).or_default();
                                if c == b's' {
                                    slot.pop();
                                }
                                slot.push(v);
                            }
                            None => self.error("stack empty"),
                        },
                        b'l' => {
                            let value = self.registers.get(&r).and_then(|s| s.last()).cloned();
                            self.stack.push(value.unwrap_or(Value::Num(Num::zero())));
                        }
                        _ => match self.registers.get_mut(&r).and_then(Vec::pop) {
                            Some(v) => self.stack.push(v),
                            None => self.error(&format!("stack register {} is empty", char_name(r))),
                        },
                    }
                }
                b'x' => match self.stack.pop() {
                    Some(Value::Str(s)) => self.run_macro(&s, depth)?,
                    Some(v) => self.stack.push(v),
                    None => self.error("stack empty"),
                },
                b'<' | b'>' | b'=' | b'!' => {
                    let (negate, op) = if c == b'!' {
                        match program.get(i) {
                            Some(&op @ (b'<' | b'>' | b'=')) => {
                                i += 1;
                                (true, op)
                            }
                            _ => {
                                self.unimplemented(c);
                                continue;
                            }
                        }
                    } else {
                        (false, c)
                    };
                    let Some(&r) = program.get(i) else {
                        self.error("unexpected EOS");
                        break;
                    };
                    i += 1;
                    if self.stack.len() < 2 {
                        self.error("stack empty");
                        continue;
                    }
                    let (Some(Value::Num(top)), Some(Value::Num(second))) = (self.stack.pop(), self.stack.pop()) else {
                        self.error("non-numeric value");
                        continue;
                    };
                    let ordering = top.cmp_value(&second);
                    let holds = match op {
                        b'<' => ordering.is_lt(),
                        b'>' => ordering.is_gt(),
                        _ => ordering.is_eq(),
                    };
                    if holds != negate {
                        match self.registers.get(&r).and_then(|s| s.last()).cloned() {
                            Some(Value::Str(s)) => self.run_macro(&s, depth)?,
                            Some(v) => self.stack.push(v),
                            None => self.error(&format!("register {} is empty", char_name(r))),
                        }
                    }
                }
                b'q' => return Err(Stop::Quit(if depth == 0 { 0 } else { 2 })),
                b'Q' => {
                    if let Some(n) = self.pop_num() {
                        let levels = n.to_i64().unwrap_or(0).max(0) as usize;
                        if levels > 0 {
                            return Err(Stop::Quit(levels));
                        }
                    }
                }
                b'a' => match self.stack.pop() {
                    Some(Value::Num(n)) => {
                        let byte = n.trunc().abs().rem(&Num::from_i64(256), 0).unwrap_or_default().to_i64().unwrap_or(0) as u8;
                        self.stack.push(Value::Str(vec![byte]));
                    }
                    Some(Value::Str(s)) => self.stack.push(Value::Str(s.first().map(|b| vec![*b]).unwrap_or_default())),
                    None => self.error("stack empty"),
                },
                other => self.unimplemented(other),
            }
        }
        Ok(())
    }

    fn run_macro(&mut self, body: &[u8], depth: usize) -> Result<(), Stop> {
        if depth > 1000 {
            self.error("recursion too deep");
            return Ok(());
        }
        match self.execute(body, depth + 1) {
            Err(Stop::Quit(levels)) if levels > 1 => Err(Stop::Quit(levels - 1)),
            Err(Stop::Quit(_)) => Ok(()),
            other => other,
        }
    }
}

async fn flush(dc: &mut Dc<'_, '_>) -> Result<(), i32> {
    if !dc.err.is_empty() {
        let _ = dc.ctx.stderr.write(&dc.err).await;
        dc.err.clear();
    }
    if !dc.out.is_empty() {
        let result = dc.ctx.stdout.write(&dc.out).await;
        dc.out.clear();
        if let Err(error) = result {
            return Err(dc.ctx.write_failed(error).await);
        }
    }
    Ok(())
}

/// Runs `dc [-e EXPR] [-f FILE] [FILE]...`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let parsed = match parse_or_report(ctx, &SPEC, 1).await {
            Ok(parsed) => parsed,
            Err(status) => return status,
        };
        let mut scripts: Vec<(Option<String>, Vec<u8>)> = Vec::new();
        for (key, value) in &parsed.options {
            let value = value.clone().unwrap_or_default();
            if *key == "e" {
                scripts.push((None, value.into_bytes()));
            } else {
                scripts.push((Some(value), Vec::new()));
            }
        }
        for operand in &parsed.operands {
            scripts.push((Some(operand.clone()), Vec::new()));
        }
        let read_stdin = parsed.options.is_empty() && parsed.operands.is_empty();
        let mut dc = Dc {
            ctx,
            stack: Vec::new(),
            registers: HashMap::new(),
            scale: 0,
            ibase: 10,
            obase: 10,
            out: Vec::new(),
            err: Vec::new(),
            steps: 0,
        };
        if read_stdin {
            scripts.push((Some("-".to_string()), Vec::new()));
        }
        for (file, text) in scripts {
            let program = match file {
                None => text,
                Some(name) => {
                    let input = if name == "-" { Input::Stdin } else { Input::File(name.clone()) };
                    match open_input(dc.ctx, &input).await {
                        Ok(stream) => read_all(&stream).await.unwrap_or_default(),
                        Err(_) => {
                            dc.error(&format!("Could not open file {name}"));
                            continue;
                        }
                    }
                }
            };
            let result = dc.execute(&program, 0);
            if let Err(status) = flush(&mut dc).await {
                return status;
            }
            match result {
                Ok(()) => {}
                Err(Stop::Quit(_)) => return 0,
                Err(Stop::Limit(message)) => {
                    if !message.is_empty() {
                        dc.ctx.report(&message).await;
                    }
                    return 1;
                }
            }
        }
        if let Err(status) = flush(&mut dc).await {
            return status;
        }
        0
    })
}
