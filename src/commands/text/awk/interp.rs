//! The interpreter's state and its primitive operations: variables and
//! arrays, the current record and its fields (split lazily, rebuilt when a
//! field or `NF` is assigned), the special variables' side effects, and
//! value conversions under `CONVFMT`/`OFMT`.

use super::ast::{Program, Var};
use super::fields::{parse_widths, split, split_some, splitter_for, Splitter};
use super::format::number_to_string;
use super::io::Io;
use super::regex::Cache;
use super::value::{Str, Value};
use super::vars::*;
use crate::regex::Regex;
use std::rc::Rc;

/// Why evaluation stopped early.
#[derive(Debug)]
pub enum Stop {
    /// `next`.
    Next,
    /// `nextfile`.
    NextFile,
    /// `exit` (the status is in [`Interp::exit_status`]).
    Exit,
    /// A fatal error: gawk's message after `fatal: `.
    Fatal(String),
    /// A failure already reported, with the status to end with.
    Status(i32),
}

/// Results of evaluation.
pub type EResult<T> = Result<T, Stop>;

/// One function call's locals.
pub struct Frame {
    /// The parameter and local cells.
    pub locals: Vec<Cell>,
}

/// The interpreter.
pub struct Interp<'p> {
    /// The program.
    pub prog: &'p Program,
    /// Global cells by slot.
    pub globals: Vec<Cell>,
    /// The call stack.
    pub frames: Vec<Frame>,
    /// Compiled regex literals, by index (case-sensitive, then folded).
    pub literals: Vec<(Option<Rc<Regex>>, Option<Rc<Regex>>)>,
    /// The literal regexes' source texts.
    pub literal_texts: Vec<Vec<u8>>,
    /// Dynamic regexes.
    pub cache: Cache,
    /// `$0`.
    pub record: Str,
    /// The fields as values (index 0 unused), valid when `split_done`.
    pub fields: Vec<Value>,
    /// Whether `fields` reflects `record`.
    pub split_done: bool,
    /// The fields' byte ranges in `record` while `fields` is not built.
    spans: Vec<(usize, usize)>,
    /// Where a partial split of the record stopped (`spans` holds the
    /// fields before it; see [`split_some`]).
    split_pos: usize,
    /// Whether `fields` holds the fields (after an assignment to one).
    materialized: bool,
    /// The splitter in effect for new records.
    pub splitter: Splitter,
    /// The splitter of the current record.
    pub record_splitter: Splitter,
    /// Paragraph mode (`RS=""`): newline also separates fields.
    pub paragraph: bool,
    /// Input and output streams.
    pub io: Io,
    /// Range pattern states.
    pub ranges: Vec<bool>,
    /// The status `exit` set.
    pub exit_status: i32,
    /// Steps not yet charged to the budget.
    pub pending_steps: u64,
    /// Source offset of the statement running (for error lines).
    pub offset: usize,
    /// `CONVFMT` as bytes.
    pub convfmt: Vec<u8>,
    /// `OFMT` as bytes.
    pub ofmt: Vec<u8>,
    /// `IGNORECASE` is set.
    pub fold: bool,
    /// The random state.
    pub random: super::random::Random,
    /// The last `srand` seed.
    pub seed: i64,
    /// Function nesting depth.
    pub depth: usize,
    /// The function running, for messages.
    pub current_function: Option<usize>,
    /// Which parameters of each function are used as arrays.
    pub array_params: Vec<Vec<bool>>,
    /// Which functions do I/O (and run on the asynchronous path).
    pub fn_async: Vec<bool>,
    /// Warnings not yet written, with the source offset they name.
    pub warnings: Vec<(usize, String)>,
    /// Some rule or action has run (errors then name a source line).
    pub located: bool,
    /// The longest string a value may hold (`maxStringLength`).
    pub max_string: usize,
    /// A `print` or `printf` statement's evaluated arguments, kept for
    /// the next one (no allocation per statement).
    pub output_args: Vec<Value>,
}

impl<'p> Interp<'p> {
    /// A fresh interpreter for `prog` with its regex literal texts.
    pub fn new(prog: &'p Program, literal_texts: Vec<Vec<u8>>, io: Io) -> Self {
        let globals = vec![Cell::default(); prog.globals.len()];
        let mut interp = Interp {
            prog,
            globals,
            frames: Vec::new(),
            literals: vec![(None, None); literal_texts.len()],
            literal_texts,
            cache: Cache::default(),
            record: Str::from(&b""[..]),
            fields: Vec::new(),
            split_done: true,
            spans: Vec::new(),
            split_pos: 0,
            materialized: true,
            splitter: Splitter::Space,
            record_splitter: Splitter::Space,
            paragraph: false,
            io,
            ranges: vec![false; prog.ranges],
            exit_status: 0,
            pending_steps: 0,
            offset: 0,
            convfmt: b"%.6g".to_vec(),
            ofmt: b"%.6g".to_vec(),
            fold: false,
            random: super::random::Random::new(1),
            seed: 1,
            depth: 0,
            current_function: None,
            warnings: Vec::new(),
            located: false,
            max_string: usize::MAX,
            output_args: Vec::new(),
            array_params: super::analysis::array_params(prog),
            fn_async: super::analysis::async_functions(prog),
        };
        interp.fields.push(Value::Uninit);
        let defaults: &[(usize, &[u8])] =
            &[(FS, b" "), (OFS, b" "), (ORS, b"\n"), (RS, b"\n"), (SUBSEP, b"\x1c"), (CONVFMT, b"%.6g"), (OFMT, b"%.6g")];
        for (slot, text) in defaults {
            if let Some(cell) = interp.globals.get_mut(*slot) {
                *cell = Cell::Val(Value::str(text));
            }
        }
        for slot in [NR, FNR, RSTART, IGNORECASE] {
            if let Some(cell) = interp.globals.get_mut(slot) {
                *cell = Cell::Val(Value::Num(0.0));
            }
        }
        if let Some(cell) = interp.globals.get_mut(RLENGTH) {
            *cell = Cell::Val(Value::Num(-1.0));
        }
        for slot in [ENVIRON, ARGV, PROCINFO] {
            if let Some(cell) = interp.globals.get_mut(slot) {
                *cell = Cell::Arr(Array::new_ref());
            }
        }
        interp
    }

    /// Converts a value to its string (numbers through CONVFMT).
    pub fn to_str(&self, value: &Value) -> Str {
        match value {
            Value::Uninit => Str::from(&b""[..]),
            Value::Str(s) | Value::StrNum(s) | Value::Regex(s) => s.clone(),
            Value::Num(n) => Str::from(number_to_string(*n, &self.convfmt)),
        }
    }

    /// Converts a value for output (numbers through OFMT).
    pub fn to_output(&self, value: &Value, out: &mut Vec<u8>) {
        match value {
            Value::Uninit => {}
            Value::Str(s) | Value::StrNum(s) | Value::Regex(s) => out.extend_from_slice(s),
            Value::Num(n) => out.extend_from_slice(&number_to_string(*n, &self.ofmt)),
        }
    }

    /// The compiled regex literal `index` (IGNORECASE decides the variant).
    pub fn literal(&mut self, index: usize) -> EResult<Rc<Regex>> {
        let fold = self.fold;
        let Some(entry) = self.literals.get(index) else {
            return Err(Stop::Fatal("internal error: missing regex".into()));
        };
        let existing = if fold { &entry.1 } else { &entry.0 };
        if let Some(regex) = existing {
            return Ok(regex.clone());
        }
        let text = self.literal_texts.get(index).cloned().unwrap_or_default();
        let regex = self.cache.get(&text, fold).map_err(|e| Stop::Fatal(regex_error(&text, &e)))?;
        if let Some(entry) = self.literals.get_mut(index) {
            if fold {
                entry.1 = Some(regex.clone());
            } else {
                entry.0 = Some(regex.clone());
            }
        }
        Ok(regex)
    }

    /// Compiles a dynamic regex from a value.
    pub fn dynamic_regex(&mut self, value: &Value) -> EResult<Rc<Regex>> {
        let text = self.to_str(value);
        self.cache.get(&text, self.fold).map_err(|e| Stop::Fatal(regex_error(&text, &e)))
    }

    fn cell(&mut self, var: Var) -> &mut Cell {
        match var {
            Var::Global(slot) => {
                if slot >= self.globals.len() {
                    self.globals.resize(slot + 1, Cell::default());
                }
                &mut self.globals[slot]
            }
            Var::Local(slot) => {
                if self.frames.is_empty() {
                    self.frames.push(Frame { locals: Vec::new() });
                }
                let last = self.frames.len() - 1;
                let locals = &mut self.frames[last].locals;
                if slot >= locals.len() {
                    locals.resize(slot + 1, Cell::default());
                }
                &mut locals[slot]
            }
        }
    }

    /// The cell of `var` (for passing to functions).
    pub fn cell_ref(&mut self, var: Var) -> &mut Cell {
        self.cell(var)
    }

    /// Reads a scalar variable.
    pub fn get_var(&mut self, var: Var) -> EResult<Value> {
        if var == Var::Global(NF) {
            self.ensure_split();
            return Ok(Value::Num(self.nf() as f64));
        }
        match self.cell(var) {
            Cell::Val(value) => Ok(value.clone()),
            Cell::Arr(_) => Err(Stop::Fatal(format!("attempt to use array `{}' in a scalar context", self.var_name(var)))),
        }
    }

    /// The name of a variable, for messages.
    pub fn var_name(&self, var: Var) -> String {
        match var {
            Var::Global(slot) => self.prog.globals.get(slot).cloned().unwrap_or_default(),
            Var::Local(slot) => {
                let function = self.current_function.and_then(|f| self.prog.functions.get(f));
                function.and_then(|f| f.param_names.get(slot)).cloned().unwrap_or_default()
            }
        }
    }

    /// Empties an ordinary scalar variable (not a special one) and gives
    /// its value, so an append can own the string alone.
    pub fn take_scalar(&mut self, var: Var) -> Value {
        match self.cell(var) {
            Cell::Val(value) => std::mem::take(value),
            Cell::Arr(_) => Value::Uninit,
        }
    }

    /// Assigns a scalar variable (with the special variables' effects).
    pub fn set_var(&mut self, var: Var, value: Value) -> EResult<()> {
        if let Var::Global(slot) = var {
            if slot < SPECIALS.len() {
                return self.set_special(slot, value);
            }
        }
        let name_needed = matches!(self.cell(var), Cell::Arr(_));
        if name_needed {
            return Err(Stop::Fatal(format!("attempt to use array `{}' in a scalar context", self.var_name(var))));
        }
        *self.cell(var) = Cell::Val(value);
        Ok(())
    }

    fn set_special(&mut self, slot: usize, value: Value) -> EResult<()> {
        match slot {
            NF => {
                let n = value.num();
                if n < 0.0 {
                    return Err(Stop::Fatal("NF set to negative value".into()));
                }
                self.set_nf(n as usize);
                return Ok(());
            }
            FS => {
                let text = self.to_str(&value);
                self.splitter = splitter_for(&text, &mut self.cache, self.fold).map_err(|e| Stop::Fatal(regex_error(&text, &e)))?;
            }
            FIELDWIDTHS => {
                let text = self.to_str(&value);
                match parse_widths(&text) {
                    Some(widths) => self.splitter = Splitter::Widths(widths),
                    None => {
                        return Err(Stop::Fatal(format!(
                            "invalid FIELDWIDTHS value, for field {}, near `{}'",
                            1,
                            String::from_utf8_lossy(&text)
                        )))
                    }
                }
            }
            FPAT => {
                let text = self.to_str(&value);
                let regex = self.cache.get(&text, self.fold).map_err(|e| Stop::Fatal(regex_error(&text, &e)))?;
                self.splitter = Splitter::Pattern(regex);
            }
            CONVFMT => self.convfmt = self.to_str(&value).to_vec(),
            OFMT => self.ofmt = self.to_str(&value).to_vec(),
            IGNORECASE => {
                self.fold = value.truthy();
                if let Some(Cell::Val(fs)) = self.globals.get(FS).cloned() {
                    let text = self.to_str(&fs);
                    if let Ok(splitter) = splitter_for(&text, &mut self.cache, self.fold) {
                        if !matches!(self.splitter, Splitter::Widths(_) | Splitter::Pattern(_)) {
                            self.splitter = splitter;
                        }
                    }
                }
            }
            RS => {
                let text = self.to_str(&value);
                self.io.set_rs(&text, &mut self.cache, self.fold).map_err(|e| Stop::Fatal(regex_error(&text, &e)))?;
                self.paragraph = text.is_empty();
            }
            _ => {}
        }
        if let Some(cell) = self.globals.get_mut(slot) {
            *cell = Cell::Val(value);
        }
        Ok(())
    }

    /// The array of `var`, made an array when it was unused.
    pub fn array(&mut self, var: Var) -> EResult<ArrayRef> {
        let cell = self.cell(var);
        match cell {
            Cell::Arr(array) => Ok(array.clone()),
            Cell::Val(Value::Uninit) => {
                let array = Array::new_ref();
                *cell = Cell::Arr(array.clone());
                Ok(array)
            }
            Cell::Val(_) => Err(Stop::Fatal(format!("attempt to use scalar `{}' as an array", self.var_name(var)))),
        }
    }

    /// The subscript string of `values` (joined by SUBSEP).
    pub fn subscript(&self, values: &[Value]) -> Str {
        if let [single] = values {
            return self.subscript_of(single);
        }
        let subsep = match self.globals.get(SUBSEP) {
            Some(Cell::Val(v)) => self.to_str(v),
            _ => Str::from(&b"\x1c"[..]),
        };
        let mut key = Vec::new();
        for (i, value) in values.iter().enumerate() {
            if i > 0 {
                key.extend_from_slice(&subsep);
            }
            key.extend_from_slice(&self.subscript_of(value));
        }
        Str::from(key)
    }

    fn subscript_of(&self, value: &Value) -> Str {
        match value {
            Value::Num(n) if super::value::is_integral(*n) => Str::from(super::value::integer_text(*n).into_bytes()),
            other => self.to_str(other),
        }
    }

    /// Sets a new record (`$0`), to be split when a field is used.
    pub fn set_record(&mut self, record: Str) {
        self.record = record;
        self.split_done = false;
        self.materialized = false;
        self.spans.clear();
        self.split_pos = 0;
        self.record_splitter = self.splitter.clone();
    }

    /// Splits the record into fields if not done yet.
    pub fn ensure_split(&mut self) {
        if self.split_done {
            return;
        }
        let whole = split_some(&self.record, &self.record_splitter, self.paragraph, &mut self.split_pos, &mut self.spans, usize::MAX);
        if whole.is_none() {
            split(&self.record, &self.record_splitter, self.paragraph, &mut self.spans);
        }
        self.materialized = false;
        self.split_done = true;
    }

    /// Splits the record at least up to field `want` (all of it for
    /// splitters that cannot stop early): after it, field `want` is in
    /// `spans` or the record is split whole.
    fn ensure_fields(&mut self, want: usize) {
        if self.split_done || self.spans.len() >= want {
            return;
        }
        match split_some(&self.record, &self.record_splitter, self.paragraph, &mut self.split_pos, &mut self.spans, want) {
            Some(done) => self.split_done = done,
            None => self.ensure_split(),
        }
    }

    /// The number of fields.
    pub fn nf(&mut self) -> usize {
        self.ensure_split();
        if self.materialized {
            self.fields.len() - 1
        } else {
            self.spans.len()
        }
    }

    fn materialize(&mut self) {
        self.ensure_split();
        if self.materialized {
            return;
        }
        self.fields.truncate(1);
        for &(start, end) in &self.spans {
            let bytes = self.record.get(start..end).unwrap_or(&[]);
            self.fields.push(Value::StrNum(Str::from(bytes)));
        }
        self.materialized = true;
    }

    /// `$i`.
    pub fn field(&mut self, index: f64) -> EResult<Value> {
        if index < 0.0 || index.is_nan() {
            return Err(Stop::Fatal(format!("attempt to access field {}", super::value::integer_text(index.trunc()))));
        }
        let index = index as usize;
        if index == 0 {
            return Ok(Value::StrNum(self.record.clone()));
        }
        self.ensure_fields(index);
        if self.materialized {
            return Ok(self.fields.get(index).cloned().unwrap_or(Value::Uninit));
        }
        Ok(match self.spans.get(index - 1) {
            Some(&(start, end)) => Value::StrNum(Str::from(self.record.get(start..end).unwrap_or(&[]))),
            None => Value::Uninit,
        })
    }

    /// The number `$i` is, read in place, for a field `i` of 1 or more of
    /// a record not yet rebuilt into values (`None` otherwise).
    pub fn field_num(&mut self, index: f64) -> Option<f64> {
        if index.is_nan() || index < 1.0 {
            return None;
        }
        self.ensure_fields(index as usize);
        if self.materialized {
            return None;
        }
        Some(match self.spans.get(index as usize - 1) {
            Some(&(start, end)) => super::value::str_to_num(self.record.get(start..end).unwrap_or(&[])),
            None => 0.0,
        })
    }

    /// Assigns `$i`, rebuilding `$0` (or resplitting when `i` is 0).
    pub fn set_field(&mut self, index: f64, value: Value) -> EResult<()> {
        if index < 0.0 || index.is_nan() {
            return Err(Stop::Fatal(format!("attempt to access field {}", super::value::integer_text(index.trunc()))));
        }
        let index = index as usize;
        if index == 0 {
            let text = self.to_str(&value);
            self.set_record(text);
            return Ok(());
        }
        if index > 10_000_000 {
            return Err(Stop::Fatal("field index too large".into()));
        }
        self.materialize();
        while self.fields.len() <= index {
            self.fields.push(Value::Uninit);
        }
        let value = match value {
            Value::Num(n) => Value::Str(self.to_str(&Value::Num(n))),
            other => other,
        };
        self.fields[index] = value;
        self.rebuild();
        Ok(())
    }

    /// Sets `NF`, truncating or extending the fields, and rebuilds `$0`.
    pub fn set_nf(&mut self, n: usize) {
        self.materialize();
        let n = n.min(10_000_000);
        self.fields.resize(n + 1, Value::Uninit);
        self.rebuild();
    }

    fn rebuild(&mut self) {
        let ofs = match self.globals.get(OFS) {
            Some(Cell::Val(v)) => self.to_str(v),
            _ => Str::from(&b" "[..]),
        };
        let mut line = Vec::new();
        for (i, field) in self.fields.iter().enumerate().skip(1) {
            if i > 1 {
                line.extend_from_slice(&ofs);
            }
            match field {
                Value::Num(n) => line.extend_from_slice(&number_to_string(*n, &self.convfmt)),
                Value::Str(s) | Value::StrNum(s) | Value::Regex(s) => line.extend_from_slice(s),
                Value::Uninit => {}
            }
        }
        self.record = Str::from(line);
        self.split_done = true;
    }

    /// Increments a special counter variable (`NR`, `FNR`).
    pub fn bump(&mut self, slot: usize) {
        if let Some(Cell::Val(value)) = self.globals.get_mut(slot) {
            *value = Value::Num(value.num() + 1.0);
        }
    }

    /// A special scalar's value.
    pub fn special(&self, slot: usize) -> Value {
        match self.globals.get(slot) {
            Some(Cell::Val(v)) => v.clone(),
            _ => Value::Uninit,
        }
    }

    /// Sets a special scalar without side effects.
    pub fn set_plain(&mut self, slot: usize, value: Value) {
        if let Some(cell) = self.globals.get_mut(slot) {
            *cell = Cell::Val(value);
        }
    }
}

impl Interp<'_> {
    /// Fails when a string built by the program grows past the limit.
    pub fn check_length(&self, len: usize) -> EResult<()> {
        if len > self.max_string {
            return Err(Stop::Fatal(format!("string length limit ({} bytes) exceeded", self.max_string)));
        }
        Ok(())
    }
}

/// gawk's message for a regex that does not compile.
pub fn regex_error(text: &[u8], error: &str) -> String {
    format!("invalid regexp: {error}: /{}/", String::from_utf8_lossy(text))
}
