//! A session's shell state as bytes, and back: what one `exec` leaves for
//! the next (variables with their attributes, functions, aliases, `set` and
//! `shopt` options, traps, the working directory, `umask`, the directory
//! stack, positional parameters, `$?`, the `$RANDOM` sequence).
//!
//! The host keeps these bytes (with the filesystem's) so that a sandbox
//! whose engine crashed comes back as it was before the failing `exec`, and
//! `snapshot()` stores them. Between two execs no function is running, so
//! only the global scope exists. Functions travel as their printed source
//! and are parsed again on restore, after the options (extglob) are set.
//!
//! ```text
//! magic "WBSHELL1"  version u32 (1)
//! variables: count u32, per variable: name, attributes u16, value kind u8
//!   (0 none, 1 scalar, 2 indexed: count u32 + (index i64, text)*, 3
//!   associative: count u32 + (key, text)* in insertion order)
//! specials that lost their meaning: count u32 + names
//! seconds base: u8 present + f64;  random state: u64
//! functions: count u32 + (name, definition text)*
//! aliases: count u32 + (name, value)*
//! set options: count u32 + (name, u8)*;  shopt options: the same
//! traps: count u32 + (signal, action)*
//! cwd, umask u32, last status i32, positional: count u32 + texts,
//! directory stack: count u32 + texts, getopts position u64, last OPTIND u64
//! ```
//!
//! Texts are a u32 length and UTF-8 bytes, integers little-endian. Decoding
//! checks everything; bad input is an error, never a panic.

use super::options::SET_OPTIONS;
use super::vars::{AssocArray, Attributes, Value, Variable};
use super::Shell;
use std::collections::BTreeMap;

const MAGIC: &[u8; 8] = b"WBSHELL1";
const VERSION: u32 = 1;

/// Why shell state bytes could not be restored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StateError(pub String);

impl std::fmt::Display for StateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn corrupt() -> StateError {
    StateError("the shell state is corrupt or truncated".to_string())
}

/// Appends values in the state encoding.
#[derive(Default)]
struct Writer {
    out: Vec<u8>,
}

impl Writer {
    fn u8(&mut self, value: u8) {
        self.out.push(value);
    }
    fn u16(&mut self, value: u16) {
        self.out.extend_from_slice(&value.to_le_bytes());
    }
    fn u32(&mut self, value: u32) {
        self.out.extend_from_slice(&value.to_le_bytes());
    }
    fn u64(&mut self, value: u64) {
        self.out.extend_from_slice(&value.to_le_bytes());
    }
    fn text(&mut self, text: &str) {
        self.u32(text.len() as u32);
        self.out.extend_from_slice(text.as_bytes());
    }
    fn count(&mut self, count: usize) {
        self.u32(count as u32);
    }
}

/// Reads values in the state encoding, bounds-checked.
struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, len: usize) -> Result<&'a [u8], StateError> {
        let end = self.pos.checked_add(len).ok_or_else(corrupt)?;
        let slice = self.bytes.get(self.pos..end).ok_or_else(corrupt)?;
        self.pos = end;
        Ok(slice)
    }
    fn array<const N: usize>(&mut self) -> Result<[u8; N], StateError> {
        self.take(N)?.try_into().map_err(|_| corrupt())
    }
    fn u8(&mut self) -> Result<u8, StateError> {
        Ok(self.array::<1>()?[0])
    }
    fn u16(&mut self) -> Result<u16, StateError> {
        Ok(u16::from_le_bytes(self.array()?))
    }
    fn u32(&mut self) -> Result<u32, StateError> {
        Ok(u32::from_le_bytes(self.array()?))
    }
    fn u64(&mut self) -> Result<u64, StateError> {
        Ok(u64::from_le_bytes(self.array()?))
    }
    fn text(&mut self) -> Result<String, StateError> {
        let len = self.u32()? as usize;
        String::from_utf8(self.take(len)?.to_vec()).map_err(|_| corrupt())
    }
    /// A count of items that each take at least `min_size` bytes: never
    /// more than the bytes left could hold, so a corrupt count cannot make
    /// a huge allocation.
    fn count(&mut self, min_size: usize) -> Result<usize, StateError> {
        let count = self.u32()? as usize;
        if count.saturating_mul(min_size.max(1)) > self.bytes.len() - self.pos {
            return Err(corrupt());
        }
        Ok(count)
    }
    fn texts(&mut self) -> Result<Vec<String>, StateError> {
        let count = self.count(4)?;
        (0..count).map(|_| self.text()).collect()
    }
    fn pairs(&mut self) -> Result<Vec<(String, String)>, StateError> {
        let count = self.count(8)?;
        (0..count).map(|_| Ok((self.text()?, self.text()?))).collect()
    }
}

const ATTRIBUTE_BITS: [fn(&mut Attributes) -> &mut bool; 9] = [
    |a| &mut a.exported,
    |a| &mut a.readonly,
    |a| &mut a.integer,
    |a| &mut a.lowercase,
    |a| &mut a.uppercase,
    |a| &mut a.nameref,
    |a| &mut a.trace,
    |a| &mut a.indexed,
    |a| &mut a.assoc,
];

fn attribute_bits(attributes: Attributes) -> u16 {
    let mut copy = attributes;
    ATTRIBUTE_BITS.iter().enumerate().fold(0, |bits, (index, field)| if *field(&mut copy) { bits | (1 << index) } else { bits })
}

fn attributes_from(bits: u16) -> Attributes {
    let mut attributes = Attributes::default();
    for (index, field) in ATTRIBUTE_BITS.iter().enumerate() {
        *field(&mut attributes) = bits & (1 << index) != 0;
    }
    attributes
}

fn write_variable(writer: &mut Writer, name: &str, var: &Variable) {
    writer.text(name);
    writer.u16(attribute_bits(var.attributes));
    match &var.value {
        None => writer.u8(0),
        Some(Value::Scalar(text)) => {
            writer.u8(1);
            writer.text(text);
        }
        Some(Value::Indexed(items)) => {
            writer.u8(2);
            writer.count(items.len());
            for (index, text) in items {
                writer.u64(*index as u64);
                writer.text(text);
            }
        }
        Some(Value::Assoc(map)) => {
            writer.u8(3);
            let entries = map.entries_in_insertion_order();
            writer.count(entries.len());
            for (key, text) in entries {
                writer.text(key);
                writer.text(text);
            }
        }
    }
}

fn read_variable(reader: &mut Reader<'_>) -> Result<(String, Variable), StateError> {
    let name = reader.text()?;
    let attributes = attributes_from(reader.u16()?);
    let value = match reader.u8()? {
        0 => None,
        1 => Some(Value::Scalar(reader.text()?)),
        2 => {
            let count = reader.count(12)?;
            let mut items = BTreeMap::new();
            for _ in 0..count {
                let index = reader.u64()? as i64;
                items.insert(index, reader.text()?);
            }
            Some(Value::Indexed(items))
        }
        3 => {
            let count = reader.count(8)?;
            let mut map = AssocArray::default();
            for _ in 0..count {
                let key = reader.text()?;
                map.insert(key, reader.text()?);
            }
            Some(Value::Assoc(map))
        }
        _ => return Err(corrupt()),
    };
    Ok((name, Variable { value, attributes }))
}

/// The function definitions of a parsed line, or `None` when it holds
/// anything else (a state's function text runs nothing).
fn function_definitions(list: &crate::syntax::ast::List) -> Option<Vec<&crate::syntax::ast::FunctionDef>> {
    list.items
        .iter()
        .map(|item| {
            let pipeline = &item.and_or.first;
            match (item.background, item.and_or.rest.is_empty(), pipeline.commands.as_slice()) {
                (false, true, [crate::syntax::ast::Command::FunctionDef(def)]) => Some(def),
                _ => None,
            }
        })
        .collect()
}

fn sorted<'a, V>(map: impl Iterator<Item = (&'a String, V)>) -> Vec<(&'a String, V)> {
    let mut items: Vec<(&String, V)> = map.collect();
    items.sort_by(|a, b| a.0.cmp(b.0));
    items
}

impl Shell {
    /// The session's state as bytes (see the module documentation). Only
    /// meaningful between runs, when no function is executing.
    pub fn save_state(&self) -> Vec<u8> {
        let mut w = Writer::default();
        w.out.extend_from_slice(MAGIC);
        w.u32(VERSION);
        let globals = sorted(self.vars.globals());
        w.count(globals.len());
        for (name, var) in globals {
            write_variable(&mut w, name, var);
        }
        w.count(self.plain_specials.len());
        for name in &self.plain_specials {
            w.text(name);
        }
        match self.seconds_base_ms {
            Some(base) => {
                w.u8(1);
                w.u64(base.to_bits());
            }
            None => w.u8(0),
        }
        w.u64(self.random_cell.get());
        let functions = sorted(self.functions.iter());
        w.count(functions.len());
        for (name, function) in functions {
            w.text(name);
            w.text(&self.function_text(name, function));
        }
        let aliases = sorted(self.aliases.iter());
        w.count(aliases.len());
        for (name, value) in aliases {
            w.text(name);
            w.text(value);
        }
        let set_options: Vec<(&str, bool)> =
            SET_OPTIONS.iter().filter_map(|(name, _)| Some((*name, self.options.get_set_option(name)?))).collect();
        w.count(set_options.len());
        for (name, on) in set_options {
            w.text(name);
            w.u8(u8::from(on));
        }
        let shopts = self.options.all_shopts();
        w.count(shopts.len());
        for (name, on) in shopts {
            w.text(&name);
            w.u8(u8::from(on));
        }
        let traps = sorted(self.traps.iter());
        w.count(traps.len());
        for (signal, action) in traps {
            w.text(signal);
            w.text(action);
        }
        w.text(&self.cwd);
        w.u32(self.umask);
        w.u32(self.last_status as u32);
        w.count(self.positional.len());
        for word in &self.positional {
            w.text(word);
        }
        w.count(self.dir_stack.len());
        for dir in &self.dir_stack {
            w.text(dir);
        }
        w.u64(self.getopts_position as u64);
        w.u64(self.getopts_last_optind as u64);
        w.out
    }

    /// Replaces this session's state with saved bytes. The bytes are
    /// decoded completely before anything changes; a function whose text
    /// no longer parses is skipped, the rest is restored, and the warnings
    /// returned name what was skipped.
    pub async fn restore_state(&mut self, bytes: &[u8]) -> Result<Vec<String>, StateError> {
        let mut r = Reader { bytes, pos: 0 };
        if r.take(8)? != MAGIC || r.u32()? != VERSION {
            return Err(StateError("not shell state bytes of a known version".to_string()));
        }
        let count = r.count(7)?;
        let mut globals = Vec::with_capacity(count);
        for _ in 0..count {
            globals.push(read_variable(&mut r)?);
        }
        let plain_specials = r.texts()?;
        let seconds_base = match r.u8()? {
            0 => None,
            1 => Some(f64::from_bits(r.u64()?)),
            _ => return Err(corrupt()),
        };
        let random = r.u64()?;
        let functions = r.pairs()?;
        let aliases = r.pairs()?;
        let flags = |r: &mut Reader<'_>| -> Result<Vec<(String, bool)>, StateError> {
            let count = r.count(5)?;
            (0..count).map(|_| Ok((r.text()?, r.u8()? != 0))).collect()
        };
        let set_options = flags(&mut r)?;
        let shopts = flags(&mut r)?;
        let traps = r.pairs()?;
        let cwd = r.text()?;
        let umask = r.u32()?;
        let last_status = r.u32()? as i32;
        let positional = r.texts()?;
        let dir_stack = r.texts()?;
        let getopts_position = r.u64()? as usize;
        let getopts_last_optind = r.u64()? as usize;
        if r.pos != bytes.len() || !cwd.starts_with('/') || umask > 0o777 {
            return Err(corrupt());
        }
        for (name, on) in &set_options {
            self.options.set_set_option(name, *on);
        }
        for (name, on) in &shopts {
            self.options.set_shopt(name, *on);
        }
        self.vars.replace_globals(globals);
        if self.vars.globals().any(|(_, var)| var.attributes.nameref) {
            self.vars.note_namerefs();
        }
        self.plain_specials = plain_specials;
        self.seconds_base_ms = seconds_base;
        self.random_cell.set(random);
        self.aliases = aliases.into_iter().collect();
        self.traps = traps.into_iter().collect();
        self.cwd = cwd;
        self.umask = umask;
        self.positional = positional;
        self.dir_stack = dir_stack;
        self.getopts_position = getopts_position;
        self.getopts_last_optind = getopts_last_optind;
        self.functions.clear();
        let mut broken = Vec::new();
        for (name, text) in functions {
            if !self.define_functions_from(&text).await {
                broken.push(name);
            }
        }
        self.sync_option_variables();
        self.last_status = last_status;
        Ok(broken.into_iter().map(|name| format!("function {name} could not be restored")).collect())
    }

    /// Defines the functions in `text` (a printed definition) without
    /// running anything else; false when it does not parse as definitions.
    async fn define_functions_from(&mut self, text: &str) -> bool {
        let saved_source = std::mem::replace(&mut self.source, super::SourceText::new(text, 1));
        let mut parser = crate::syntax::Parser::new(text);
        let mut defined = false;
        let ok = loop {
            let options = self.parse_options();
            match parser.next_line(&options) {
                Ok(None) => break defined,
                Ok(Some(list)) => match function_definitions(&list) {
                    Some(defs) => {
                        for def in defs {
                            self.define_function(def);
                            defined = true;
                        }
                    }
                    None => break false,
                },
                Err(_) => break false,
            }
        };
        self.source = saved_source;
        ok
    }
}
