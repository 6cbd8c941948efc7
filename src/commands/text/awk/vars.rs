//! Variable storage: the special variables' fixed slots, associative
//! arrays (kept in insertion order) and the cells that hold a scalar or an
//! array.

use super::value::{Str, Value};
use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::rc::Rc;

/// The special variables, in slot order (the parser reserves these first).
pub const SPECIALS: &[&str] = &[
    "NR",
    "NF",
    "FNR",
    "FS",
    "OFS",
    "ORS",
    "RS",
    "RT",
    "FILENAME",
    "SUBSEP",
    "RSTART",
    "RLENGTH",
    "CONVFMT",
    "OFMT",
    "ENVIRON",
    "ARGC",
    "ARGV",
    "IGNORECASE",
    "FIELDWIDTHS",
    "FPAT",
    "PROCINFO",
    "ERRNO",
    "BINMODE",
    "LINT",
    "TEXTDOMAIN",
];

/// Slot of `NR`.
pub const NR: usize = 0;
/// Slot of `NF`.
pub const NF: usize = 1;
/// Slot of `FNR`.
pub const FNR: usize = 2;
/// Slot of `FS`.
pub const FS: usize = 3;
/// Slot of `OFS`.
pub const OFS: usize = 4;
/// Slot of `ORS`.
pub const ORS: usize = 5;
/// Slot of `RS`.
pub const RS: usize = 6;
/// Slot of `RT`.
pub const RT: usize = 7;
/// Slot of `FILENAME`.
pub const FILENAME: usize = 8;
/// Slot of `SUBSEP`.
pub const SUBSEP: usize = 9;
/// Slot of `RSTART`.
pub const RSTART: usize = 10;
/// Slot of `RLENGTH`.
pub const RLENGTH: usize = 11;
/// Slot of `CONVFMT`.
pub const CONVFMT: usize = 12;
/// Slot of `OFMT`.
pub const OFMT: usize = 13;
/// Slot of `ENVIRON`.
pub const ENVIRON: usize = 14;
/// Slot of `ARGC`.
pub const ARGC: usize = 15;
/// Slot of `ARGV`.
pub const ARGV: usize = 16;
/// Slot of `IGNORECASE`.
pub const IGNORECASE: usize = 17;
/// Slot of `FIELDWIDTHS`.
pub const FIELDWIDTHS: usize = 18;
/// Slot of `FPAT`.
pub const FPAT: usize = 19;
/// Slot of `PROCINFO`.
pub const PROCINFO: usize = 20;

/// An associative array in insertion order.
#[derive(Debug, Default)]
pub struct Array {
    index: FxHashMap<Str, usize>,
    entries: Vec<Option<(Str, Value)>>,
    live: usize,
}

/// A shared array.
pub type ArrayRef = Rc<RefCell<Array>>;

impl Array {
    /// A new shared, empty array.
    pub fn new_ref() -> ArrayRef {
        Rc::new(RefCell::new(Array::default()))
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.live
    }

    /// The element at `key`.
    pub fn get(&self, key: &[u8]) -> Option<&Value> {
        let &at = self.index.get(key)?;
        self.entries.get(at)?.as_ref().map(|(_, v)| v)
    }

    /// True when `key` is present.
    pub fn contains(&self, key: &[u8]) -> bool {
        self.index.contains_key(key)
    }

    /// The element at `key`, created uninitialized when missing.
    pub fn entry(&mut self, key: &[u8]) -> &mut Value {
        let at = match self.index.get(key) {
            Some(&at) => at,
            None => {
                let key: Str = Str::from(key);
                self.entries.push(Some((key.clone(), Value::Uninit)));
                self.live += 1;
                let at = self.entries.len() - 1;
                self.index.insert(key, at);
                at
            }
        };
        match self.entries.get_mut(at) {
            Some(Some((_, value))) => value,
            _ => unreachable_value(),
        }
    }

    /// Sets `key` to `value`.
    pub fn set(&mut self, key: &[u8], value: Value) {
        *self.entry(key) = value;
    }

    /// Removes `key`.
    pub fn remove(&mut self, key: &[u8]) {
        if let Some(at) = self.index.remove(key) {
            if let Some(slot) = self.entries.get_mut(at) {
                *slot = None;
                self.live -= 1;
            }
            if self.live == 0 {
                self.entries.clear();
            } else if self.entries.len() > 32 && self.live * 2 < self.entries.len() {
                self.compact();
            }
        }
    }

    fn compact(&mut self) {
        self.entries.retain(Option::is_some);
        self.index.clear();
        for (at, entry) in self.entries.iter().enumerate() {
            if let Some((key, _)) = entry {
                self.index.insert(key.clone(), at);
            }
        }
    }

    /// Removes everything.
    pub fn clear(&mut self) {
        self.index.clear();
        self.entries.clear();
        self.live = 0;
    }

    /// The keys, in insertion order.
    pub fn keys(&self) -> Vec<Str> {
        self.entries.iter().flatten().map(|(k, _)| k.clone()).collect()
    }

    /// The elements, in insertion order.
    pub fn pairs(&self) -> Vec<(Str, Value)> {
        self.entries.iter().flatten().cloned().collect()
    }
}

/// A fallback for a slot that cannot be missing (keeps the code panic-free).
fn unreachable_value() -> &'static mut Value {
    Box::leak(Box::new(Value::Uninit))
}

/// What a variable holds.
#[derive(Debug, Clone)]
pub enum Cell {
    /// A scalar (or not yet used).
    Val(Value),
    /// An array.
    Arr(ArrayRef),
}

impl Default for Cell {
    fn default() -> Self {
        Cell::Val(Value::Uninit)
    }
}
