//! Shell variables: scalars, sparse indexed arrays and associative arrays
//! with their attributes, in a stack of scopes for `local` (dynamic scoping).

use rustc_hash::FxHashMap as HashMap;
use std::collections::BTreeMap;

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

    /// The entries in the order they were first inserted (what restoring
    /// them needs to give back the same iteration order).
    pub fn entries_in_insertion_order(&self) -> Vec<(&String, &String)> {
        let mut entries: Vec<(&String, &String, u64)> = self.values.iter().map(|(k, (v, seq))| (k, v, *seq)).collect();
        entries.sort_by_key(|entry| entry.2);
        entries.into_iter().map(|(k, v, _)| (k, v)).collect()
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
    /// `-a` given while the variable has no value yet (`declare -a x`).
    pub indexed: bool,
    /// `-A` given while the variable has no value yet (`declare -A m`).
    pub assoc: bool,
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
        self.scalar_str().map(str::to_string)
    }

    /// [`Variable::scalar_value`] without copying it.
    pub fn scalar_str(&self) -> Option<&str> {
        match &self.value {
            Some(Value::Scalar(s)) => Some(s),
            Some(Value::Indexed(map)) => map.get(&0).map(String::as_str),
            Some(Value::Assoc(map)) => map.get("0").map(String::as_str),
            None => None,
        }
    }

    /// The attribute letters in bash's order (`declare -p`, `${x@a}`):
    /// `a A i n r t x l u`; empty when there are none.
    pub fn attribute_letters(&self) -> String {
        let a = self.attributes;
        let mut letters = String::new();
        match self.value {
            Some(Value::Indexed(_)) => letters.push('a'),
            Some(Value::Assoc(_)) => letters.push('A'),
            None if a.indexed => letters.push('a'),
            None if a.assoc => letters.push('A'),
            _ => {}
        }
        for (on, letter) in [
            (a.integer, 'i'),
            (a.nameref, 'n'),
            (a.readonly, 'r'),
            (a.trace, 't'),
            (a.exported, 'x'),
            (a.lowercase, 'l'),
            (a.uppercase, 'u'),
        ] {
            if on {
                letters.push(letter);
            }
        }
        letters
    }

    /// True when the variable is an array of either kind.
    pub fn is_array(&self) -> bool {
        matches!(self.value, Some(Value::Indexed(_)) | Some(Value::Assoc(_)))
    }
}

/// How many emptied scope tables are kept for reuse.
const MAX_SPARE_TABLES: usize = 16;

/// One scope: the global scope, one function call's locals, or the
/// temporary bindings of one command (`x=1 cmd`).
#[derive(Debug, Clone, Default)]
pub struct Scope {
    /// The variables declared in this scope.
    pub vars: HashMap<String, Variable>,
    /// True for a command's temporary bindings: `local` skips it.
    pub temporary: bool,
}

/// The stack of scopes; index 0 is global.
#[derive(Debug, Clone)]
pub struct Variables {
    scopes: Vec<Scope>,
    /// False until `declare -n` (or `local -n`...) is first used: until
    /// then no name can be a reference and lookups skip following them.
    namerefs: bool,
    /// Emptied tables of left scopes, reused by the next call's scope.
    spare_tables: Vec<HashMap<String, Variable>>,
}

impl Default for Variables {
    fn default() -> Self {
        Variables { scopes: vec![Scope::default()], namerefs: false, spare_tables: Vec::new() }
    }
}

impl Variables {
    /// Records that name references may exist from now on.
    pub fn note_namerefs(&mut self) {
        self.namerefs = true;
    }

    /// True once a name reference may exist.
    pub fn may_have_namerefs(&self) -> bool {
        self.namerefs
    }

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
        if let Some(existing) = self.get_mut(name) {
            *existing = var;
        } else {
            self.scopes[0].vars.insert(name.to_string(), var);
        }
    }

    /// Index of the running function's scope (0 at top level): the
    /// innermost scope that is not a command's temporary bindings.
    fn function_scope(&self) -> usize {
        self.scopes.iter().rposition(|scope| !scope.temporary).unwrap_or(0)
    }

    /// Puts a variable in the running function's scope (`local`).
    pub fn insert_local(&mut self, name: &str, var: Variable) {
        let index = self.function_scope();
        put(&mut self.scopes[index].vars, name, var);
    }

    /// The running function's own variable called `name`.
    pub fn get_local(&self, name: &str) -> Option<&Variable> {
        self.scopes[self.function_scope()].vars.get(name)
    }

    /// Puts a variable in the innermost scope, which must be a command's
    /// temporary bindings (`x=1 cmd`).
    pub fn insert_temporary(&mut self, name: &str, var: Variable) {
        if let Some(scope) = self.scopes.last_mut().filter(|scope| scope.temporary) {
            put(&mut scope.vars, name, var);
        }
    }

    /// The global variable called `name`.
    pub fn get_global(&self, name: &str) -> Option<&Variable> {
        self.scopes[0].vars.get(name)
    }

    /// Takes every scope but the global one away (so that an assignment
    /// reaches the global variable); [`Variables::restore_scopes`] puts them back.
    pub fn hide_function_scopes(&mut self) -> Vec<Scope> {
        self.scopes.split_off(1)
    }

    /// Puts back scopes taken by [`Variables::hide_function_scopes`].
    pub fn restore_scopes(&mut self, scopes: Vec<Scope>) {
        self.scopes.extend(scopes);
    }

    /// The global variables, in no particular order.
    pub fn globals(&self) -> impl Iterator<Item = (&String, &Variable)> {
        self.scopes[0].vars.iter()
    }

    /// Replaces every variable with `globals`, dropping all other scopes
    /// (a saved session's state coming back).
    pub fn replace_globals(&mut self, globals: Vec<(String, Variable)>) {
        self.scopes.truncate(1);
        self.scopes[0].vars = globals.into_iter().collect();
    }

    /// Puts a variable in the global scope (`declare -g`).
    pub fn insert_global(&mut self, name: &str, var: Variable) {
        put(&mut self.scopes[0].vars, name, var);
    }

    /// Removes the innermost `name`. Bash's `unset` of a local in an outer
    /// function's scope reveals the global again.
    pub fn remove(&mut self, name: &str) -> Option<Variable> {
        let index = self.scope_of(name)?;
        self.scopes[index].vars.remove(name)
    }

    /// True when the innermost `name` is a local of the running function.
    pub fn is_local_here(&self, name: &str) -> bool {
        let index = self.function_scope();
        index > 0 && self.scope_of(name) == Some(index)
    }

    /// Enters a function call's scope.
    pub fn push_scope(&mut self) {
        let vars = self.spare_tables.pop().unwrap_or_default();
        self.scopes.push(Scope { vars, temporary: false });
    }

    /// Enters a command's temporary bindings.
    pub fn push_temporary_scope(&mut self) {
        let vars = self.spare_tables.pop().unwrap_or_default();
        self.scopes.push(Scope { vars, temporary: true });
    }

    /// Leaves a scope whose variables are no longer wanted, keeping its
    /// table for the next scope.
    pub fn drop_scope(&mut self) {
        if self.scopes.len() > 1 {
            if let Some(mut scope) = self.scopes.pop() {
                scope.vars.clear();
                if self.spare_tables.len() < MAX_SPARE_TABLES && scope.vars.capacity() <= 64 {
                    self.spare_tables.push(scope.vars);
                }
            }
        }
    }

    /// Leaves a function call's scope or a command's temporary bindings,
    /// returning its variables.
    pub fn pop_scope(&mut self) -> HashMap<String, Variable> {
        if self.scopes.len() > 1 {
            return self.scopes.pop().map(|scope| scope.vars).unwrap_or_default();
        }
        HashMap::default()
    }

    /// The running function's local variables, sorted by name.
    pub fn locals(&self) -> Vec<(String, &Variable)> {
        let mut locals: Vec<(String, &Variable)> =
            self.scopes[self.function_scope()].vars.iter().map(|(name, var)| (name.clone(), var)).collect();
        locals.sort_by(|a, b| a.0.cmp(&b.0));
        locals
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

/// Sets `name` in one scope's table, reusing the key when it is there.
fn put(vars: &mut HashMap<String, Variable>, name: &str, var: Variable) {
    match vars.get_mut(name) {
        Some(existing) => *existing = var,
        None => {
            vars.insert(name.to_string(), var);
        }
    }
}
