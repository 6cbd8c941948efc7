//! jq's values: JSON with insertion-ordered objects, numbers that keep the
//! literal text they were read with (as jq 1.7 prints them), and jq's total
//! order over all values.

use rustc_hash::FxHashMap;
use std::cell::Cell;
use std::cmp::Ordering;
use std::rc::Rc;

/// One jq value.
#[derive(Clone, Debug)]
pub enum Value {
    /// `null`.
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// A number, with the literal text it was read as when that is kept.
    Num(f64, Option<Rc<String>>),
    /// A string.
    Str(Rc<str>),
    /// An array.
    Arr(Rc<Vec<Value>>),
    /// An object.
    Obj(Rc<Map>),
}

/// An object's members in insertion order, indexed by key when large.
#[derive(Clone, Debug, Default)]
pub struct Map {
    entries: Vec<(Rc<str>, Value)>,
    index: Option<FxHashMap<Rc<str>, usize>>,
}

const INDEX_AT: usize = 12;

/// Comparisons look no deeper than this (values nested deeper compare equal there).
pub const MAX_COMPARE_DEPTH: usize = if cfg!(debug_assertions) { 1000 } else { 10000 };

impl Map {
    /// An empty object.
    pub fn new() -> Self {
        Map::default()
    }

    /// The number of members.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when there are no members.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn position(&self, key: &str) -> Option<usize> {
        match &self.index {
            Some(index) => index.get(key).copied(),
            None => self.entries.iter().position(|(k, _)| &**k == key),
        }
    }

    /// The value under `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.position(key).and_then(|i| self.entries.get(i)).map(|(_, v)| v)
    }

    /// The value under `key`, to change in place.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        self.position(key).and_then(|i| self.entries.get_mut(i)).map(|(_, v)| v)
    }

    /// Sets `key` to `value`, keeping the key's place when it exists.
    pub fn insert(&mut self, key: Rc<str>, value: Value) {
        if let Some(i) = self.position(&key) {
            if let Some(slot) = self.entries.get_mut(i) {
                slot.1 = value;
            }
            return;
        }
        if let Some(index) = &mut self.index {
            index.insert(key.clone(), self.entries.len());
        }
        self.entries.push((key, value));
        if self.index.is_none() && self.entries.len() > INDEX_AT {
            self.reindex();
        }
    }

    fn reindex(&mut self) {
        if self.entries.len() > INDEX_AT {
            let mut index = FxHashMap::default();
            for (i, (k, _)) in self.entries.iter().enumerate() {
                index.insert(k.clone(), i);
            }
            self.index = Some(index);
        } else {
            self.index = None;
        }
    }

    /// Removes `key`.
    pub fn remove(&mut self, key: &str) {
        if let Some(i) = self.position(key) {
            self.entries.remove(i);
            self.reindex();
        }
    }

    /// The members in insertion order.
    pub fn iter(&self) -> impl Iterator<Item = &(Rc<str>, Value)> {
        self.entries.iter()
    }

    /// The keys sorted by code point, as `keys` lists them.
    pub fn sorted_keys(&self) -> Vec<Rc<str>> {
        let mut keys: Vec<Rc<str>> = self.entries.iter().map(|(k, _)| k.clone()).collect();
        keys.sort();
        keys
    }
}

impl Value {
    /// A number without literal text.
    pub fn num(n: f64) -> Value {
        Value::Num(n, None)
    }

    /// A string value.
    pub fn str(s: &str) -> Value {
        Value::Str(Rc::from(s))
    }

    /// An array value.
    pub fn arr(v: Vec<Value>) -> Value {
        Value::Arr(Rc::new(v))
    }

    /// jq's type name (`null`, `boolean`, `number`, `string`, `array`, `object`).
    pub fn kind(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Num(..) => "number",
            Value::Str(_) => "string",
            Value::Arr(_) => "array",
            Value::Obj(_) => "object",
        }
    }

    fn rank(&self) -> u8 {
        match self {
            Value::Null => 0,
            Value::Bool(false) => 1,
            Value::Bool(true) => 2,
            Value::Num(..) => 3,
            Value::Str(_) => 4,
            Value::Arr(_) => 5,
            Value::Obj(_) => 6,
        }
    }

    /// False only for `null` and `false`.
    pub fn truthy(&self) -> bool {
        !matches!(self, Value::Null | Value::Bool(false))
    }

    /// The number, when this is one.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Num(n, _) => Some(*n),
            _ => None,
        }
    }

    /// jq's total order: null < false < true < numbers < strings < arrays < objects.
    pub fn compare(&self, other: &Value) -> Ordering {
        self.compare_at(other, 0, &Cell::new(false))
    }

    /// [`Value::compare`], or `Err` when the values nest too deeply to compare.
    pub fn compare_checked(&self, other: &Value) -> Result<Ordering, ()> {
        let deep = Cell::new(false);
        let o = self.compare_at(other, 0, &deep);
        if deep.get() {
            return Err(());
        }
        Ok(o)
    }

    fn compare_at(&self, other: &Value, depth: usize, deep: &Cell<bool>) -> Ordering {
        if depth > MAX_COMPARE_DEPTH {
            deep.set(true);
            return Ordering::Equal;
        }
        let (a, b) = (self.rank(), other.rank());
        if a != b {
            return a.cmp(&b);
        }
        match (self, other) {
            (Value::Num(x, _), Value::Num(y, _)) => x.partial_cmp(y).unwrap_or_else(|| {
                // jq sorts nan below every number.
                if x.is_nan() && !y.is_nan() {
                    Ordering::Less
                } else if !x.is_nan() && y.is_nan() {
                    Ordering::Greater
                } else {
                    Ordering::Less
                }
            }),
            (Value::Str(x), Value::Str(y)) => x.as_bytes().cmp(y.as_bytes()),
            (Value::Arr(x), Value::Arr(y)) => {
                for (p, q) in x.iter().zip(y.iter()) {
                    let o = p.compare_at(q, depth + 1, deep);
                    if o != Ordering::Equal {
                        return o;
                    }
                }
                x.len().cmp(&y.len())
            }
            (Value::Obj(x), Value::Obj(y)) => {
                let (kx, ky) = (x.sorted_keys(), y.sorted_keys());
                let o = kx.cmp(&ky);
                if o != Ordering::Equal {
                    return o;
                }
                for k in &kx {
                    let o = match (x.get(k), y.get(k)) {
                        (Some(p), Some(q)) => p.compare_at(q, depth + 1, deep),
                        _ => Ordering::Equal,
                    };
                    if o != Ordering::Equal {
                        return o;
                    }
                }
                Ordering::Equal
            }
            _ => Ordering::Equal,
        }
    }

    /// Equality as jq's `==`.
    pub fn equals(&self, other: &Value) -> bool {
        self.equals_at(other, 0, &Cell::new(false))
    }

    /// [`Value::equals`], or `Err` when the values nest too deeply to compare.
    pub fn equals_checked(&self, other: &Value) -> Result<bool, ()> {
        let deep = Cell::new(false);
        let e = self.equals_at(other, 0, &deep);
        if deep.get() {
            return Err(());
        }
        Ok(e)
    }

    fn equals_at(&self, other: &Value, depth: usize, deep: &Cell<bool>) -> bool {
        if depth > MAX_COMPARE_DEPTH {
            deep.set(true);
            return true;
        }
        match (self, other) {
            (Value::Num(x, _), Value::Num(y, _)) => x == y,
            (Value::Str(x), Value::Str(y)) => x == y,
            (Value::Obj(x), Value::Obj(y)) => {
                x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| v.equals_at(w, depth + 1, deep)))
            }
            (Value::Arr(x), Value::Arr(y)) => x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| p.equals_at(q, depth + 1, deep)),
            _ => self.compare(other) == Ordering::Equal,
        }
    }

    /// The length as jq's `length` sees it, or the error text.
    pub fn length(&self) -> Result<Value, String> {
        Ok(match self {
            Value::Null => Value::num(0.0),
            Value::Bool(_) => return Err(format!("boolean ({}) has no length", crate::commands::text::jq::json::dump_short(self))),
            Value::Num(n, _) => Value::num(n.abs()),
            Value::Str(s) => Value::num(s.chars().count() as f64),
            Value::Arr(a) => Value::num(a.len() as f64),
            Value::Obj(o) => Value::num(o.len() as f64),
        })
    }
}

impl Drop for Value {
    /// Drops nested arrays and objects with a loop, not recursion, so a
    /// value nested a million levels deep (`reduce range(1e6) as $_ ([]; [.])`)
    /// does not overflow the stack when it goes away.
    fn drop(&mut self) {
        let mut stack: Vec<Value> = Vec::new();
        take_children(self, &mut stack);
        while let Some(mut v) = stack.pop() {
            take_children(&mut v, &mut stack);
        }
    }
}

/// Moves the children of `v` into `stack` when `v` holds the last reference to them.
fn take_children(v: &mut Value, stack: &mut Vec<Value>) {
    match v {
        Value::Arr(rc) => {
            if let Some(items) = Rc::get_mut(rc) {
                if items.iter().any(|x| matches!(x, Value::Arr(_) | Value::Obj(_))) {
                    stack.append(items);
                }
            }
        }
        Value::Obj(rc) => {
            if let Some(map) = Rc::get_mut(rc) {
                if map.entries.iter().any(|(_, x)| matches!(x, Value::Arr(_) | Value::Obj(_))) {
                    map.index = None;
                    stack.extend(map.entries.drain(..).map(|(_, x)| x));
                }
            }
        }
        _ => {}
    }
}
