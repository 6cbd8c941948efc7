//! Shell variables: scalars, sparse indexed arrays and associative arrays
//! with their attributes, in a stack of scopes for `local` (dynamic scoping).

use std::collections::{BTreeMap, HashMap};

/// A variable's value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// A string.
    Scalar(String),
    /// A sparse indexed array (`a=(x y)`, `a[5]=z`).
    Indexed(BTreeMap<i64, String>),
    /// An associative array (`declare -A`), in insertion order.
    Assoc(AssocArray),
}

/// An associative array, iterated in bash's order: bash keeps these in a
/// 1024-bucket hash table (FNV-1 hash), newest first within a bucket, and
/// scripts see that order in `${!a[@]}` and `declare -p`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AssocArray {
    values: HashMap<String, (String, u64)>,
    next_sequence: u64,
}

/// bash's `hash_string`: 32-bit FNV-1.
fn bash_hash(key: &str) -> u32 {
    let mut hash: u32 = 2_166_136_261;
    for byte in key.bytes() {
        hash = hash.wrapping_mul(16_777_619);
        hash ^= byte as u32;
    }
    hash
}

impl AssocArray {
    /// The value at `key`.
    pub fn get(&self, key: &str) -> Option<&String> {
        self.values.get(key).map(|(value, _)| value)
    }

    /// Sets `key` to `value`, keeping the position of an existing key.
    pub fn insert(&mut self, key: String, value: String) {
        match self.values.get_mut(&key) {
            Some(slot) => slot.0 = value,
            None => {
                self.next_sequence += 1;
                self.values.insert(key, (value, self.next_sequence));
            }
        }
    }

    /// Removes `key`.
    pub fn remove(&mut self, key: &str) {
        self.values.remove(key);
    }

    /// The keys in bash's iteration order.
    pub fn keys(&self) -> Vec<String> {
        let mut buckets: u32 = 1024;
        while self.values.len() >= (buckets as usize) * 2 {
            buckets *= 4;
        }
        let mut keys: Vec<(&String, u32, u64)> = self.values.iter().map(|(k, (_, seq))| (k, bash_hash(k) & (buckets - 1), *seq)).collect();
        keys.sort_by(|a, b| a.1.cmp(&b.1).then(b.2.cmp(&a.2)));
        keys.into_iter().map(|(k, _, _)| k.clone()).collect()
    }

    /// The values in key order.
    pub fn values(&self) -> Vec<String> {
        self.keys().iter().filter_map(|k| self.get(k).cloned()).collect()
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
}

/// Attributes set by `declare`, `export`, `readonly`, `local`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Attributes {
    /// `-x`: exported to commands.
    pub exported: bool,
    /// `-r`: read-only.
    pub readonly: bool,
    /// `-i`: assignments are evaluated arithmetically.
    pub integer: bool,
    /// `-l`: values are lowercased on assignment.
    pub lowercase: bool,
    /// `-u`: values are uppercased on assignment.
    pub uppercase: bool,
    /// `-n`: a name reference to another variable.
    pub nameref: bool,
    /// `-t`: trace (functions only, kept for `declare -p`).
    pub trace: bool,
}

/// A variable: a value (absent for `declare x` without a value) and attributes.
#[derive(Debug, Clone, PartialEq)]
pub struct Variable {
    /// The value; `None` when declared but unset (`declare x`, `local x`).
    pub value: Option<Value>,
    /// The attributes.
    pub attributes: Attributes,
}

impl Variable {
    /// A plain scalar.
    pub fn scalar(value: impl Into<String>) -> Self {
        Variable { value: Some(Value::Scalar(value.into())), attributes: Attributes::default() }
    }

    /// The scalar view: the string, or element 0 of an indexed array, or
    /// key `0` of an associative one, as bash uses `$a` for arrays.
    pub fn scalar_value(&self) -> Option<String> {
        match &self.value {
            Some(Value::Scalar(s)) => Some(s.clone()),
            Some(Value::Indexed(map)) => map.get(&0).cloned(),
            Some(Value::Assoc(map)) => map.get("0").cloned(),
            None => None,
        }
    }

    /// True when the variable is an array of either kind.
    pub fn is_array(&self) -> bool {
        matches!(self.value, Some(Value::Indexed(_)) | Some(Value::Assoc(_)))
    }
}

/// One scope: the global scope or one function call's locals.
#[derive(Debug, Clone, Default)]
pub struct Scope {
    /// The variables declared in this scope.
    pub vars: HashMap<String, Variable>,
}

/// The stack of scopes; index 0 is global.
#[derive(Debug, Clone)]
pub struct Variables {
    scopes: Vec<Scope>,
}

impl Default for Variables {
    fn default() -> Self {
        Variables { scopes: vec![Scope::default()] }
    }
}

impl Variables {
    /// The innermost variable called `name`, searching from the current
    /// function's scope out to the globals.
    pub fn get(&self, name: &str) -> Option<&Variable> {
        self.scopes.iter().rev().find_map(|scope| scope.vars.get(name))
    }

    /// Mutable access to the innermost variable called `name`.
    pub fn get_mut(&mut self, name: &str) -> Option<&mut Variable> {
        self.scopes.iter_mut().rev().find_map(|scope| scope.vars.get_mut(name))
    }

    /// Index of the scope holding `name`, if any.
    pub fn scope_of(&self, name: &str) -> Option<usize> {
        self.scopes.iter().rposition(|scope| scope.vars.contains_key(name))
    }

    /// Sets a variable in the scope where it lives, or globally when new.
    pub fn insert(&mut self, name: &str, var: Variable) {
        let index = self.scope_of(name).unwrap_or(0);
        self.scopes[index].vars.insert(name.to_string(), var);
    }

    /// Puts a variable in the current (innermost) scope (`local`).
    pub fn insert_local(&mut self, name: &str, var: Variable) {
        if let Some(scope) = self.scopes.last_mut() {
            scope.vars.insert(name.to_string(), var);
        }
    }

    /// Puts a variable in the global scope (`declare -g`).
    pub fn insert_global(&mut self, name: &str, var: Variable) {
        self.scopes[0].vars.insert(name.to_string(), var);
    }

    /// Removes the innermost `name`. Bash's `unset` of a local in an outer
    /// function's scope reveals the global again.
    pub fn remove(&mut self, name: &str) -> Option<Variable> {
        let index = self.scope_of(name)?;
        self.scopes[index].vars.remove(name)
    }

    /// True when `name` is declared in the innermost scope and it is a function scope.
    pub fn is_local_here(&self, name: &str) -> bool {
        self.scopes.len() > 1 && self.scopes.last().is_some_and(|s| s.vars.contains_key(name))
    }

    /// Enters a function call's scope.
    pub fn push_scope(&mut self) {
        self.scopes.push(Scope::default());
    }

    /// Leaves a function call's scope.
    pub fn pop_scope(&mut self) {
        if self.scopes.len() > 1 {
            self.scopes.pop();
        }
    }

    /// Depth of function scopes (0 at top level).
    pub fn depth(&self) -> usize {
        self.scopes.len() - 1
    }

    /// Every visible variable name with its variable (innermost wins), sorted.
    pub fn visible(&self) -> Vec<(String, &Variable)> {
        let mut seen: BTreeMap<&str, &Variable> = BTreeMap::new();
        for scope in &self.scopes {
            for (name, var) in &scope.vars {
                seen.insert(name, var);
            }
        }
        seen.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
    }
}
