//! Runs compiled bc code: a value stack, variables and arrays with one
//! stack of values per name (parameters and autos shadow dynamically, as in
//! GNU bc), function calls, bc's output line breaking and its runtime
//! error and warning messages.

use super::code::{BinOp, Function, Inst, Local, Op, Slot};
use super::mathlib;
use crate::commands::calc::num::{Num, NumError};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// The largest array index plus one (`BC_DIM_MAX`).
const DIM_MAX: i64 = 16_777_215;
/// The largest `obase` and `scale`.
const BASE_MAX: i64 = 2_147_483_647;

type Array = Rc<RefCell<HashMap<u32, Num>>>;

enum Value {
    Num(Num),
    Array(Array),
    Void,
}

struct Frame {
    func: Rc<Function>,
    pc: usize,
    stack_base: usize,
}

/// Why a run stopped early.
pub enum Stop {
    /// A runtime error (already reported): drop the rest of the item.
    Error,
    /// `halt`.
    Halt,
    /// A step or time limit: the message naming it.
    Limit(String),
    /// The host interrupted the run.
    Interrupted,
}

/// Charges steps against the run's budget; an error says why to stop.
pub type Charge<'c> = &'c mut dyn FnMut(u64) -> Result<(), Stop>;

/// bc's whole state between items.
pub struct Machine {
    vars: HashMap<Rc<str>, Vec<Num>>,
    arrays: HashMap<Rc<str>, Vec<Array>>,
    functions: HashMap<Rc<str>, Rc<Function>>,
    /// `scale`.
    pub scale: i64,
    ibase: i64,
    obase: i64,
    last: Num,
    /// Standard output not yet written.
    pub out: Vec<u8>,
    /// Standard error not yet written.
    pub err: Vec<u8>,
    col: usize,
    line_len: usize,
    /// True when the math library is loaded.
    pub mathlib: bool,
    /// The longest number the run may build, in digits.
    pub max_digits: usize,
}

impl Machine {
    /// A fresh machine; `line_len` is `BC_LINE_LENGTH` (0 disables breaking).
    pub fn new(line_len: usize, mathlib: bool) -> Machine {
        Machine {
            vars: HashMap::new(),
            arrays: HashMap::new(),
            functions: HashMap::new(),
            scale: if mathlib { 20 } else { 0 },
            ibase: 10,
            obase: 10,
            last: Num::zero(),
            out: Vec::new(),
            err: Vec::new(),
            col: 0,
            line_len,
            mathlib,
            max_digits: 1 << 24,
        }
    }

    /// Defines (or redefines) a function.
    pub fn define(&mut self, function: Function) {
        self.functions.insert(function.name.clone(), Rc::new(function));
    }

    fn out_char(&mut self, ch: u8) {
        if ch == b'\n' {
            self.col = 0;
        } else {
            self.col += 1;
            if self.line_len != 0 && self.col == self.line_len - 1 {
                self.out.extend_from_slice(b"\\\n");
                self.col = 1;
            }
        }
        self.out.push(ch);
    }

    fn out_str(&mut self, text: &[u8]) {
        for &b in text {
            self.out_char(b);
        }
    }

    fn print_num(&mut self, num: &Num) {
        let text = num.format(self.obase as u64);
        self.out_str(text.as_bytes());
    }

    fn print_escaped(&mut self, text: &[u8]) {
        let mut i = 0;
        while i < text.len() {
            let b = text[i];
            i += 1;
            if b != b'\\' {
                self.out_char(b);
                continue;
            }
            let Some(&e) = text.get(i) else {
                self.out_char(b'\\');
                break;
            };
            i += 1;
            let mapped = match e {
                b'a' => Some(7),
                b'b' => Some(8),
                b'f' => Some(12),
                b'n' => Some(b'\n'),
                b'q' => Some(b'"'),
                b'r' => Some(b'\r'),
                b't' => Some(b'\t'),
                b'\\' => Some(b'\\'),
                _ => None,
            };
            if let Some(m) = mapped {
                self.out_char(m);
            }
        }
    }

    fn report(&mut self, kind: &str, func: &str, adr: u32, message: &str) {
        let text = format!("Runtime {kind} (func={func}, adr={adr}): {message}\n");
        self.err.extend_from_slice(text.as_bytes());
    }

    fn load(&self, slot: &Slot) -> Num {
        match slot {
            Slot::Scale => Num::from_i64(self.scale),
            Slot::Ibase => Num::from_i64(self.ibase),
            Slot::Obase => Num::from_i64(self.obase),
            Slot::Last => self.last.clone(),
            Slot::Var(name) => self.vars.get(name).and_then(|s| s.last()).cloned().unwrap_or_default(),
        }
    }

    fn store(&mut self, slot: &Slot, value: Num, func: &str, adr: u32) {
        let long = value.to_long_or_zero();
        match slot {
            Slot::Scale => {
                self.scale = if long < 0 {
                    self.report("warning", func, adr, "negative scale, set to 0");
                    0
                } else if long > BASE_MAX || value.to_i64().is_none() {
                    self.report("warning", func, adr, &format!("scale too large, set to {BASE_MAX}"));
                    BASE_MAX
                } else {
                    long
                }
            }
            Slot::Ibase => {
                self.ibase = if long < 2 {
                    self.report("warning", func, adr, "ibase too small, set to 2");
                    2
                } else if long > 16 {
                    self.report("warning", func, adr, "ibase too large, set to 16");
                    16
                } else {
                    long
                }
            }
            Slot::Obase => {
                self.obase = if long < 2 {
                    self.report("warning", func, adr, "obase too small, set to 2");
                    2
                } else if long > BASE_MAX {
                    self.report("warning", func, adr, &format!("obase too large, set to {BASE_MAX}"));
                    BASE_MAX
                } else {
                    long
                }
            }
            Slot::Last => self.last = value,
            Slot::Var(name) => match self.vars.get_mut(name).and_then(|s| s.last_mut()) {
                Some(top) => *top = value,
                None => {
                    self.vars.insert(name.clone(), vec![value]);
                }
            },
        }
    }

    fn array(&mut self, name: &Rc<str>) -> Array {
        if let Some(top) = self.arrays.get(name).and_then(|s| s.last()) {
            return top.clone();
        }
        let fresh: Array = Rc::default();
        self.arrays.insert(name.clone(), vec![fresh.clone()]);
        fresh
    }

    fn constant(&self, text: &str) -> Num {
        let digit = |c: char| c.to_digit(36).unwrap_or(0);
        if text.len() == 1 {
            return Num::from_i64(i64::from(digit(text.chars().next().unwrap_or('0'))));
        }
        let base = self.ibase.clamp(2, 16) as u32;
        if base == 10 && text.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
            return Num::parse_decimal(text).unwrap_or_default();
        }
        let clamp = |c: char| digit(c).min(base - 1);
        let (int, frac) = text.split_once('.').unwrap_or((text, ""));
        let int: Vec<u32> = int.chars().map(clamp).collect();
        let frac: Vec<u32> = frac.chars().map(clamp).collect();
        Num::from_base(&int, &frac, base)
    }

    fn index(&mut self, value: &Num, name: &str, func: &str, adr: u32) -> Option<u32> {
        let long = value.to_long_or_zero();
        if !(0..=DIM_MAX).contains(&long) {
            self.report("error", func, adr, &format!("Array {name} subscript out of bounds."));
            return None;
        }
        Some(long as u32)
    }

    fn arith(&mut self, op: BinOp, a: &Num, b: &Num, func: &str, adr: u32) -> Result<Num, Stop> {
        let scale = self.scale as usize;
        let result = match op {
            BinOp::Add => Ok(a.add(b)),
            BinOp::Sub => Ok(a.sub(b)),
            BinOp::Mul => Ok(a.mul(b, scale)),
            BinOp::Div => a.div(b, scale),
            BinOp::Rem => a.rem(b, scale),
            BinOp::Pow => {
                if b.scale() > 0 && !b.rescale(0).sub(b).is_zero() {
                    self.report("warning", func, adr, "non-zero scale in exponent");
                }
                let Some(exponent) = b.to_i64() else {
                    self.report("error", func, adr, "exponent too large in raise");
                    return Err(Stop::Error);
                };
                if exponent > 0 && a.pow_digits(exponent.unsigned_abs()) > self.max_digits as u64 {
                    self.report("error", func, adr, "exponent too large in raise");
                    return Err(Stop::Error);
                }
                if exponent < 0 && a.is_zero() {
                    self.report("error", func, adr, "divide by zero");
                    return Err(Stop::Error);
                }
                a.pow(exponent, scale)
            }
            BinOp::Eq => return Ok(Num::from_i64(i64::from(a.cmp_value(b).is_eq()))),
            BinOp::Ne => return Ok(Num::from_i64(i64::from(a.cmp_value(b).is_ne()))),
            BinOp::Lt => return Ok(Num::from_i64(i64::from(a.cmp_value(b).is_lt()))),
            BinOp::Le => return Ok(Num::from_i64(i64::from(a.cmp_value(b).is_le()))),
            BinOp::Gt => return Ok(Num::from_i64(i64::from(a.cmp_value(b).is_gt()))),
            BinOp::Ge => return Ok(Num::from_i64(i64::from(a.cmp_value(b).is_ge()))),
        };
        match result {
            Ok(value) => Ok(value),
            Err(NumError::DivideByZero) => {
                let message = if op == BinOp::Rem { "Modulo by zero" } else { "Divide by zero" };
                self.report("error", func, adr, message);
                Err(Stop::Error)
            }
            Err(NumError::NegativeSqrt) => {
                self.report("error", func, adr, "Square root of a negative number");
                Err(Stop::Error)
            }
        }
    }

    fn push_locals(&mut self, locals: &[Local]) {
        for local in locals {
            if local.array {
                self.arrays.entry(local.name.clone()).or_default().push(Rc::default());
            } else {
                self.vars.entry(local.name.clone()).or_default().push(Num::zero());
            }
        }
    }

    fn pop_locals(&mut self, function: &Function) {
        for local in function.params.iter().chain(function.autos.iter()) {
            if local.array {
                if let Some(stack) = self.arrays.get_mut(&local.name) {
                    stack.pop();
                }
            } else if let Some(stack) = self.vars.get_mut(&local.name) {
                stack.pop();
            }
        }
    }

    /// Runs one top-level item. `charge` counts steps against the budget.
    pub fn run(&mut self, code: Vec<Inst>, charge: Charge<'_>) -> Result<(), Stop> {
        let main = Rc::new(Function { name: "(main)".into(), params: Vec::new(), autos: Vec::new(), code, void: false });
        let mut frames = vec![Frame { func: main, pc: 0, stack_base: 0 }];
        let mut stack: Vec<Value> = Vec::new();
        let result = self.execute(&mut frames, &mut stack, charge);
        // Unwind whatever calls an error left open.
        while frames.len() > 1 {
            if let Some(frame) = frames.pop() {
                self.pop_locals(&frame.func);
            }
        }
        result
    }

    fn pop_num(stack: &mut Vec<Value>) -> Num {
        match stack.pop() {
            Some(Value::Num(n)) => n,
            _ => Num::zero(),
        }
    }

    fn check_size(&mut self, value: &Num, func: &str, adr: u32) -> Result<(), Stop> {
        if value.length() > self.max_digits {
            self.report("error", func, adr, "number too long");
            return Err(Stop::Error);
        }
        Ok(())
    }

    fn execute(&mut self, frames: &mut Vec<Frame>, stack: &mut Vec<Value>, charge: Charge<'_>) -> Result<(), Stop> {
        let mut pending = 0u64;
        loop {
            let Some(frame) = frames.last_mut() else { return Ok(()) };
            let func = frame.func.clone();
            let Some(inst) = func.code.get(frame.pc) else {
                // The end of the main item.
                return Ok(());
            };
            frame.pc += 1;
            pending += 1;
            if pending >= 1024 {
                charge(pending)?;
                pending = 0;
            }
            let fname: &str = &func.name;
            let adr = inst.adr;
            match &inst.op {
                Op::Const(text) => stack.push(Value::Num(self.constant(text))),
                Op::Load(slot) => stack.push(Value::Num(self.load(slot))),
                Op::Store(slot) => {
                    let value = Self::pop_num(stack);
                    self.store(slot, value.clone(), fname, adr);
                    stack.push(Value::Num(value));
                }
                Op::LoadElem(name) => {
                    let index = Self::pop_num(stack);
                    let Some(i) = self.index(&index, name, fname, adr) else { return Err(Stop::Error) };
                    let array = self.array(name);
                    let value = array.borrow().get(&i).cloned().unwrap_or_default();
                    stack.push(Value::Num(value));
                }
                Op::StoreElem(name) => {
                    let value = Self::pop_num(stack);
                    let index = Self::pop_num(stack);
                    let Some(i) = self.index(&index, name, fname, adr) else { return Err(Stop::Error) };
                    self.array(name).borrow_mut().insert(i, value.clone());
                    stack.push(Value::Num(value));
                }
                Op::DupIndex => {
                    let top = match stack.last() {
                        Some(Value::Num(n)) => n.clone(),
                        _ => Num::zero(),
                    };
                    stack.push(Value::Num(top));
                }
                Op::Step { slot, delta, post } => {
                    let old = self.load(slot);
                    let new = old.add(&Num::from_i64(i64::from(*delta)));
                    self.store(slot, new.clone(), fname, adr);
                    stack.push(Value::Num(if *post { old } else { new }));
                }
                Op::StepElem { name, delta, post } => {
                    let index = Self::pop_num(stack);
                    let Some(i) = self.index(&index, name, fname, adr) else { return Err(Stop::Error) };
                    let array = self.array(name);
                    let old = array.borrow().get(&i).cloned().unwrap_or_default();
                    let new = old.add(&Num::from_i64(i64::from(*delta)));
                    array.borrow_mut().insert(i, new.clone());
                    stack.push(Value::Num(if *post { old } else { new }));
                }
                Op::Bin(op) => {
                    let b = Self::pop_num(stack);
                    let a = Self::pop_num(stack);
                    let value = self.arith(*op, &a, &b, fname, adr)?;
                    self.check_size(&value, fname, adr)?;
                    stack.push(Value::Num(value));
                }
                Op::Neg => {
                    let a = Self::pop_num(stack);
                    stack.push(Value::Num(a.negate()));
                }
                Op::Not => {
                    let a = Self::pop_num(stack);
                    stack.push(Value::Num(Num::from_i64(i64::from(a.is_zero()))));
                }
                Op::Jump(to) => {
                    if let Some(frame) = frames.last_mut() {
                        frame.pc = *to;
                    }
                }
                Op::JumpZero(to) => {
                    if Self::pop_num(stack).is_zero() {
                        if let Some(frame) = frames.last_mut() {
                            frame.pc = *to;
                        }
                    }
                }
                Op::PushArray(name) => {
                    let array = self.array(name);
                    stack.push(Value::Array(array));
                }
                Op::Call { name, args, start } => {
                    let Some(callee) = self.functions.get(name).cloned() else {
                        if self.mathlib && name.len() == 1 && !args.contains(&true) {
                            let values: Vec<Num> =
                                stack.split_off(stack.len().saturating_sub(args.len())).into_iter().map(|v| match v {
                                    Value::Num(n) => n,
                                    _ => Num::zero(),
                                }).collect();
                            if let Some(result) = mathlib::call(name, &values, self.scale) {
                                stack.push(Value::Num(result));
                                continue;
                            }
                        }
                        self.report("error", fname, start + 2, &format!("Function {name} not defined."));
                        return Err(Stop::Error);
                    };
                    self.call(frames, stack, callee, args, *start, fname)?;
                }
                Op::Return | Op::ReturnZero => {
                    let value = if matches!(inst.op, Op::Return) {
                        Value::Num(Self::pop_num(stack))
                    } else if func.void {
                        Value::Void
                    } else {
                        Value::Num(Num::zero())
                    };
                    let Some(frame) = frames.pop() else { return Ok(()) };
                    self.pop_locals(&frame.func);
                    stack.truncate(frame.stack_base);
                    stack.push(value);
                }
                Op::Print => {
                    if let Some(Value::Num(n)) = stack.pop() {
                        self.print_num(&n);
                        self.out_char(b'\n');
                        self.last = n;
                    }
                }
                Op::Pop => {
                    stack.pop();
                }
                Op::PrintValue => {
                    if let Some(Value::Num(n)) = stack.pop() {
                        self.print_num(&n);
                        self.last = n;
                    }
                }
                Op::PrintStr(text) => self.print_escaped(text),
                Op::WriteStr(text) => self.out_str(text),
                Op::Halt => return Err(Stop::Halt),
                Op::Sqrt => {
                    let a = Self::pop_num(stack);
                    match a.sqrt(self.scale as usize) {
                        Ok(v) => stack.push(Value::Num(v)),
                        Err(_) => {
                            self.report("error", fname, adr, "Square root of a negative number");
                            return Err(Stop::Error);
                        }
                    }
                }
                Op::Length => {
                    let a = Self::pop_num(stack);
                    stack.push(Value::Num(Num::from_i64(a.length() as i64)));
                }
                Op::ScaleOf => {
                    let a = Self::pop_num(stack);
                    stack.push(Value::Num(Num::from_i64(a.scale() as i64)));
                }
                Op::Read => stack.push(Value::Num(Num::zero())),
                Op::Limits => {
                    self.out.extend_from_slice(LIMITS.as_bytes());
                    self.col = 0;
                }
            }
        }
    }

    fn call(
        &mut self,
        frames: &mut Vec<Frame>,
        stack: &mut Vec<Value>,
        callee: Rc<Function>,
        args: &[bool],
        start: u32,
        caller: &str,
    ) -> Result<(), Stop> {
        // Check the arguments against the parameters as GNU does, one by one.
        let mut param = 0;
        for (i, &is_array) in args.iter().enumerate() {
            let adr = start + 3 + i as u32;
            let Some(p) = callee.params.get(param) else {
                self.report("error", caller, adr, "Parameter number mismatch");
                return Err(Stop::Error);
            };
            if p.array != is_array {
                self.report("error", caller, adr, &format!("Parameter type mismatch parameter {}.", p.name));
                continue;
            }
            param += 1;
        }
        if param != callee.params.len() {
            self.report("error", caller, start + 3 + args.len() as u32, "Parameter number mismatch");
            return Err(Stop::Error);
        }
        if frames.len() > 10_000 {
            self.report("error", caller, start + 2, "Function call nesting too deep");
            return Err(Stop::Error);
        }
        let values = stack.split_off(stack.len().saturating_sub(args.len()));
        for (p, value) in callee.params.iter().zip(values) {
            match value {
                Value::Array(array) => {
                    let bound = if p.by_ref { array } else { Rc::new(RefCell::new(array.borrow().clone())) };
                    self.arrays.entry(p.name.clone()).or_default().push(bound);
                }
                Value::Num(n) => self.vars.entry(p.name.clone()).or_default().push(n),
                Value::Void => self.vars.entry(p.name.clone()).or_default().push(Num::zero()),
            }
        }
        self.push_locals(&callee.autos);
        frames.push(Frame { func: callee, pc: 0, stack_base: stack.len() });
        Ok(())
    }
}

const LIMITS: &str = "BC_BASE_MAX     = 2147483647\nBC_DIM_MAX      = 16777215\nBC_SCALE_MAX    = 2147483647\nBC_STRING_MAX   = 2147483647\nMAX Exponent    = 9223372036854775807\nNumber of vars  = 32767\n";
