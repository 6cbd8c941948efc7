//! Variable operations with bash's rules: attributes applied on assignment
//! (`-i` arithmetic, `-l`/`-u` case, `-r` read-only), namerefs, dynamic
//! variables (`RANDOM`, `SECONDS`, `LINENO`...) and the startup environment.

use super::vars::{AssocArray, Attributes, Value, Variable};
use super::Shell;
use crate::expand::{arith, ElementKey, HostArith, VarShape};
use std::borrow::Cow;
use std::collections::BTreeMap;

/// Longest nameref chain followed before giving up, as bash.
const MAX_NAMEREF_DEPTH: usize = 8;

/// Splits `name[subscript]` into its name and subscript.
pub fn split_subscript(text: &str) -> Option<(&str, &str)> {
    let open = text.find('[')?;
    let inner = text.strip_suffix(']')?.get(open + 1..)?;
    let name = &text[..open];
    is_valid_name(name).then_some((name, inner))
}

/// True when `value` may be the target of a nameref: a variable name or
/// `name[subscript]`.
pub fn is_valid_nameref_target(value: &str) -> bool {
    is_valid_name(value) || split_subscript(value).is_some()
}

/// True for a valid variable name: `[A-Za-z_][A-Za-z0-9_]*`.
pub fn is_valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_') && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

impl Shell {
    pub(super) fn init_variables(&mut self, env: Vec<(String, String)>) {
        // The sandbox session's environment and prompts.
        let session: &[(&str, &str, bool)] = &[
            ("HOME", crate::fs::layout::HOME, true),
            ("PATH", "/usr/local/bin:/usr/bin:/bin", true),
            ("USER", crate::fs::layout::USER_NAME, true),
            ("LOGNAME", crate::fs::layout::USER_NAME, true),
            ("SHELL", "/bin/bash", true),
            ("LANG", "C.UTF-8", true),
            ("PS1", "\\s-\\v\\$ ", false),
            ("PS2", "> ", false),
            ("SHLVL", "1", true),
            ("TERM", "dumb", true),
        ];
        for (name, value, exported) in session {
            let mut var = Variable::scalar(*value);
            var.attributes.exported = *exported;
            self.vars.insert(name, var);
        }
        for (name, value) in env {
            let mut var = Variable::scalar(value);
            var.attributes.exported = true;
            self.vars.insert(&name, var);
        }
        self.init_shell_variables(4241);
        self.vars.insert("_", Variable::scalar("/bin/bash"));
        let cwd = self.cwd.clone();
        let mut pwd = Variable::scalar(cwd);
        pwd.attributes.exported = true;
        self.vars.insert("PWD", pwd);
    }

    /// The variables bash gives itself at startup whatever its environment
    /// holds (a child `bash` too): IFS, PS4, OPTIND, BASH_VERSION,
    /// BASH_VERSINFO, UID, PPID..., a default PATH when the environment has
    /// none, and OLDPWD exported without a value.
    pub(super) fn init_shell_variables(&mut self, parent_pid: u32) {
        let own: &[(&str, &str)] = &[
            ("HOSTNAME", crate::fs::layout::HOST_NAME),
            ("IFS", " \t\n"),
            ("PS4", "+ "),
            ("OPTIND", "1"),
            ("OPTERR", "1"),
            ("BASH", "/bin/bash"),
            ("BASH_VERSION", "5.2.15(1)-release"),
            ("MACHTYPE", "x86_64-pc-linux-gnu"),
            ("HOSTTYPE", "x86_64"),
            ("OSTYPE", "linux-gnu"),
        ];
        // bash never takes IFS from its environment (it keeps the export).
        if let Some(ifs) = self.vars.get("IFS") {
            let exported = ifs.attributes.exported;
            let mut var = Variable::scalar(" \t\n");
            var.attributes.exported = exported;
            self.vars.insert("IFS", var);
        }
        for (name, value) in own {
            if self.vars.get(name).is_none() {
                let mut var = Variable::scalar(*value);
                var.attributes.integer = *name == "OPTIND";
                self.vars.insert(name, var);
            }
        }
        if self.vars.get("PATH").is_none() {
            self.vars.insert("PATH", Variable::scalar("/usr/local/bin:/usr/local/sbin:/usr/bin:/usr/sbin:/bin:/sbin:."));
        }
        let mut versinfo = BTreeMap::new();
        for (i, part) in ["5", "2", "15", "1", "release", "x86_64-pc-linux-gnu"].iter().enumerate() {
            versinfo.insert(i as i64, part.to_string());
        }
        self.vars.insert(
            "BASH_VERSINFO",
            Variable { value: Some(Value::Indexed(versinfo)), attributes: Attributes { readonly: true, ..Default::default() } },
        );
        for (name, value) in ["UID", "EUID", "PPID"].iter().zip([
            crate::fs::layout::SANDBOX_UID.to_string(),
            crate::fs::layout::SANDBOX_UID.to_string(),
            parent_pid.to_string(),
        ]) {
            self.vars.insert(
                name,
                Variable {
                    value: Some(Value::Scalar(value)),
                    attributes: Attributes { readonly: true, integer: true, ..Default::default() },
                },
            );
        }
        if self.vars.get("OLDPWD").is_none() {
            // bash starts with OLDPWD exported but without a value.
            self.vars.insert("OLDPWD", Variable { value: None, attributes: Attributes { exported: true, ..Default::default() } });
        }
    }

    /// Follows namerefs from `name` to the variable it designates: a name,
    /// or `name[subscript]` when a nameref points at an element. A circular
    /// chain yields the empty string, which designates nothing.
    pub(super) fn resolve_nameref<'a>(&self, name: &'a str) -> Cow<'a, str> {
        if !self.vars.may_have_namerefs() {
            return Cow::Borrowed(name);
        }
        match self.vars.get(name) {
            Some(var) if var.attributes.nameref => Cow::Owned(self.follow_nameref(name)),
            _ => Cow::Borrowed(name),
        }
    }

    /// Follows the chain of namerefs that starts at `name` (see
    /// [`Shell::resolve_nameref`]).
    fn follow_nameref(&self, name: &str) -> String {
        let mut current = name.to_string();
        for _ in 0..MAX_NAMEREF_DEPTH {
            match self.vars.get(&current) {
                Some(var) if var.attributes.nameref => match &var.value {
                    Some(Value::Scalar(target)) if !target.is_empty() => {
                        if target == name {
                            return String::new();
                        }
                        if split_subscript(target).is_some() {
                            return target.clone();
                        }
                        current = target.clone();
                    }
                    _ => return current,
                },
                _ => return current,
            }
        }
        String::new()
    }

    /// A dynamic array (FUNCNAME, BASH_SOURCE, BASH_LINENO, PIPESTATUS).
    pub(super) fn dynamic_array(&self, name: &str) -> Option<Vec<String>> {
        Some(match name {
            "FUNCNAME" => {
                if self.call_stack.is_empty() {
                    return None;
                }
                let mut names: Vec<String> = self.call_stack.iter().rev().map(|f| f.name.clone()).collect();
                if let Some(_script) = self.main_script() {
                    names.push("main".to_string());
                }
                names
            }
            "BASH_SOURCE" => {
                let mut names: Vec<String> = self.call_stack.iter().rev().map(|f| f.source_name.to_string()).collect();
                names.extend(self.main_script());
                names
            }
            "BASH_LINENO" => {
                let mut lines: Vec<String> = self.call_stack.iter().rev().map(|f| f.call_line.to_string()).collect();
                if self.main_script().is_some() {
                    lines.push("0".to_string());
                }
                lines
            }
            "PIPESTATUS" => self.pipestatus.iter().map(|s| s.to_string()).collect(),
            _ => return None,
        })
    }

    /// The script the shell runs (`bash file`), whose frame ends the
    /// FUNCNAME/BASH_SOURCE stacks as `main`; `None` for `bash -c`.
    fn main_script(&self) -> Option<String> {
        let name = self.syntax_prefix.strip_suffix(": eval").unwrap_or(&self.syntax_prefix);
        (!name.starts_with("bash")).then(|| name.to_string())
    }

    /// The shape of a variable (after nameref resolution by the caller).
    pub(super) fn var_shape(&self, name: &str) -> VarShape {
        if matches!(name, "FUNCNAME" | "BASH_SOURCE" | "BASH_LINENO" | "PIPESTATUS") && self.vars.get(name).is_none() {
            return if self.dynamic_array(name).is_some() { VarShape::Indexed } else { VarShape::Unset };
        }
        let declared = self.vars.get(name).map(|v| v.attributes).unwrap_or_default();
        match self.vars.get(name).and_then(|v| v.value.as_ref()) {
            None if declared.assoc => VarShape::Assoc,
            None if declared.indexed => VarShape::Indexed,
            None => {
                if matches!(name, "RANDOM" | "LINENO" | "SECONDS" | "EPOCHSECONDS" | "EPOCHREALTIME" | "BASHPID" | "BASH_SUBSHELL")
                    && !self.plain_specials.iter().any(|n| n == name)
                {
                    VarShape::Scalar
                } else {
                    VarShape::Unset
                }
            }
            Some(Value::Scalar(_)) => VarShape::Scalar,
            Some(Value::Indexed(_)) => VarShape::Indexed,
            Some(Value::Assoc(_)) => VarShape::Assoc,
        }
    }

    /// Applies the variable's `-i`, `-l`, `-u` attributes to a new value.
    fn transform_value(&mut self, attributes: Attributes, value: String) -> Result<String, String> {
        let value = if attributes.integer {
            match arith::eval_text(&value, &mut HostArith(self)) {
                Ok(n) => n.to_string(),
                Err(e) => return Err(e.to_string()),
            }
        } else {
            value
        };
        Ok(if attributes.lowercase {
            crate::expand::to_lower(&value)
        } else if attributes.uppercase {
            crate::expand::to_upper(&value)
        } else {
            value
        })
    }

    /// Assigns a scalar (or element 0 of an array) with bash's rules.
    /// `Err` holds the message (`x: readonly variable`).
    pub fn assign_scalar(&mut self, name: &str, value: String, append: bool) -> Result<(), String> {
        // The common case in one lookup: a plain variable that exists,
        // with no attribute that changes the value or forbids the change.
        let plain_target = !append
            && !self.vars.may_have_namerefs()
            && value.len() <= self.limits.max_string_bytes
            && !matches!(name, "RANDOM" | "SECONDS")
            && is_valid_name(name);
        if plain_target {
            let exported = self.options.allexport;
            if let Some(var) = self.vars.get_mut(name) {
                let a = var.attributes;
                if !(a.readonly || a.integer || a.lowercase || a.uppercase || a.nameref) {
                    set_scalar_view(var, value);
                    var.attributes.exported |= exported;
                    return Ok(());
                }
            }
        }
        let name = match self.resolve_nameref(name) {
            resolved if resolved.is_empty() && !name.is_empty() => return Err(format!("warning: {name}: circular name reference")),
            resolved => resolved,
        };
        let name = name.as_ref();
        if let Some((base, subscript)) = split_subscript(name) {
            if subscript == "@" || subscript == "*" {
                return Err(format!("{name}: bad array subscript"));
            }
            let (base, subscript) = (base.to_string(), subscript.to_string());
            let key = self.subscript_key(&base, &subscript)?;
            return self.assign_element(&base, key, value, append);
        }
        if matches!(name, "RANDOM" | "SECONDS") && !self.plain_specials.iter().any(|n| n == name) {
            if name == "RANDOM" {
                if let Ok(seed) = value.trim().parse::<u64>() {
                    self.random_cell.set(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
                }
            } else {
                let seconds = value.trim().parse::<i64>().unwrap_or(0);
                self.seconds_base_ms = Some(self.host.now_millis() - seconds as f64 * 1000.0);
            }
        }
        if !is_valid_name(name) {
            return Err(format!("`{name}': not a valid identifier"));
        }
        let attributes = self.vars.get(name).map(|v| v.attributes).unwrap_or_default();
        if attributes.readonly {
            return Err(format!("{name}: readonly variable"));
        }
        if value.len() > self.limits.max_string_bytes {
            return Err(format!("{name}: string length limit ({} bytes) exceeded", self.limits.max_string_bytes));
        }
        let new_value = if append {
            let current = self.vars.get(name).and_then(|v| v.scalar_str()).unwrap_or_default();
            if attributes.integer {
                let current = current.parse::<i64>().unwrap_or(0);
                let added = self.transform_value(attributes, value)?;
                current.wrapping_add(added.parse::<i64>().unwrap_or(0)).to_string()
            } else {
                let joined = format!("{current}{value}");
                self.transform_value(attributes, joined)?
            }
        } else {
            self.transform_value(attributes, value)?
        };
        let exported = self.options.allexport;
        let Some(var) = self.vars.get_mut(name) else {
            let mut var = Variable { value: None, attributes };
            set_scalar_view(&mut var, new_value);
            var.attributes.exported |= exported;
            self.vars.insert(name, var);
            return Ok(());
        };
        set_scalar_view(var, new_value);
        var.attributes.exported |= exported;
        Ok(())
    }

    /// Assigns `name[key]=value`, creating an indexed array if needed.
    pub fn assign_element(&mut self, name: &str, key: ElementKey, value: String, append: bool) -> Result<(), String> {
        let name = self.resolve_nameref(name);
        if !is_valid_name(&name) {
            return Err(format!("`{name}': not a valid identifier"));
        }
        let existing = self.vars.get(&name);
        let attributes = existing.map(|v| v.attributes).unwrap_or_default();
        if attributes.readonly {
            return Err(format!("{name}: readonly variable"));
        }
        let existing_value = existing.and_then(|v| v.value.as_ref());
        // A negative index counts back from the end of an indexed array.
        let key = match (existing_value, key) {
            (Some(Value::Indexed(map)), ElementKey::Index(i)) if i < 0 => {
                let resolved = map.keys().next_back().copied().unwrap_or(-1) + 1 + i;
                if resolved < 0 {
                    return Err(format!("{name}[{i}]: bad array subscript"));
                }
                ElementKey::Index(resolved)
            }
            (_, ElementKey::Key(k)) if k.is_empty() => {
                return Err(format!("{name}[]: bad array subscript"));
            }
            (_, key) => key,
        };
        let current = if append {
            match (existing_value, &key) {
                (Some(Value::Indexed(map)), ElementKey::Index(i)) => map.get(i).cloned(),
                (Some(Value::Assoc(map)), ElementKey::Key(k)) => map.get(k).cloned(),
                (Some(Value::Scalar(s)), ElementKey::Index(0)) => Some(s.clone()),
                _ => None,
            }
        } else {
            None
        };
        let value = match (append, attributes.integer) {
            // `-i`: `+=` adds.
            (true, true) => {
                let added = self.transform_value(attributes, value)?.parse::<i64>().unwrap_or(0);
                let current = current.and_then(|c| c.trim().parse::<i64>().ok()).unwrap_or(0);
                current.wrapping_add(added).to_string()
            }
            (true, false) => self.transform_value(attributes, format!("{}{value}", current.unwrap_or_default()))?,
            (false, _) => self.transform_value(attributes, value)?,
        };
        let limit = self.limits.max_array_elements;
        let Some(var) = self.vars.get_mut(&name) else {
            let value = match key {
                ElementKey::Index(i) if i < 0 => return Err(format!("{name}[{i}]: bad array subscript")),
                ElementKey::Index(i) => Value::Indexed(BTreeMap::from([(i, value)])),
                ElementKey::Key(k) => {
                    let mut map = AssocArray::default();
                    map.insert(k, value);
                    Value::Assoc(map)
                }
            };
            self.vars.insert(&name, Variable { value: Some(value), attributes });
            return Ok(());
        };
        match (&mut var.value, key) {
            (Some(Value::Assoc(map)), ElementKey::Key(k)) => map.insert(k, value),
            (Some(Value::Assoc(map)), ElementKey::Index(i)) => map.insert(i.to_string(), value),
            (Some(Value::Indexed(map)), ElementKey::Index(index)) => {
                if map.len() >= limit && !map.contains_key(&index) {
                    return Err(format!("{name}: array element limit ({limit}) exceeded"));
                }
                map.insert(index, value);
            }
            (slot, ElementKey::Index(i)) => {
                if i < 0 {
                    return Err(format!("{name}[{i}]: bad array subscript"));
                }
                let mut map = BTreeMap::new();
                if let Some(Value::Scalar(s)) = slot.take() {
                    map.insert(0, s);
                }
                map.insert(i, value);
                *slot = Some(Value::Indexed(map));
            }
            (slot, ElementKey::Key(k)) => {
                let mut map = AssocArray::default();
                map.insert(k, value);
                *slot = Some(Value::Assoc(map));
            }
        }
        Ok(())
    }

    /// `name=(...)`: replaces (or with `+=` extends) an array. Elements are
    /// assigned in order, so a subscript sees the elements before it
    /// (`a=([0]=5 [a[0]]=x)`); the values were expanded beforehand.
    pub(super) fn assign_array(
        &mut self,
        name: &str,
        items: &[(Option<String>, String, bool)],
        append: bool,
        force_assoc: bool,
    ) -> Result<(), String> {
        let name = self.resolve_nameref(name);
        if !is_valid_name(&name) {
            return Err(format!("`{name}': not a valid identifier"));
        }
        let current = self.vars.get(&name);
        let attributes = current.map(|var| var.attributes).unwrap_or_default();
        let (current_len, assoc_now) = match current.and_then(|var| var.value.as_ref()) {
            Some(Value::Indexed(map)) => (map.len(), false),
            Some(Value::Assoc(map)) => (map.len(), true),
            Some(Value::Scalar(_)) => (1, false),
            // `declare -A m` without a value yet makes `m=(...)` associative.
            None => (0, current.is_some() && attributes.assoc),
        };
        if attributes.readonly {
            return Err(format!("{name}: readonly variable"));
        }
        if items.len() > self.limits.max_array_elements {
            return Err(format!("{name}: array element limit ({}) exceeded", self.limits.max_array_elements));
        }
        let exported = self.options.allexport;
        let is_assoc = force_assoc || assoc_now;
        if is_assoc {
            // A failed element (an `-i` value that is not arithmetic, the
            // element limit) leaves the array as it was: only when one can
            // fail is the old map copied rather than taken.
            let may_fail = attributes.integer || current_len + items.len() > self.limits.max_array_elements;
            let original = match self.vars.get_mut(&name).and_then(|v| v.value.as_mut()) {
                Some(Value::Assoc(map)) if may_fail => map.clone(),
                Some(Value::Assoc(map)) => std::mem::take(map),
                _ => AssocArray::default(),
            };
            // Without `+=` on the array, `[k]+=v` appends to the old value (as bash 5.2).
            let (mut map, replaced) = if append { (original, None) } else { (AssocArray::default(), Some(original)) };
            let keyed = items.iter().any(|(key, _, _)| key.is_some());
            let mut pending_key: Option<String> = None;
            for (key, value, element_append) in items {
                match key {
                    Some(key) => {
                        let base = replaced.as_ref().unwrap_or(&map);
                        let value =
                            if *element_append { format!("{}{value}", base.get(key).cloned().unwrap_or_default()) } else { value.clone() };
                        map.insert(key.clone(), self.transform_value(attributes, value)?);
                    }
                    None if keyed => self.warnings.push(format!("{name}: {value}: must use subscript when assigning associative array")),
                    None => match pending_key.take() {
                        Some(key) => map.insert(key, self.transform_value(attributes, value.clone())?),
                        None => pending_key = Some(value.clone()),
                    },
                }
            }
            if let Some(key) = pending_key {
                map.insert(key, String::new());
            }
            if map.len() > self.limits.max_array_elements {
                return Err(format!("{name}: array element limit ({}) exceeded", self.limits.max_array_elements));
            }
            self.store_array(&name, Value::Assoc(map), attributes, exported);
            return Ok(());
        }
        // Taken out of the variable, not copied: `a+=(x)` on a long array
        // stays cheap.
        let old = self.vars.get_mut(&name).and_then(|v| v.value.take());
        let start = match (old, append) {
            (Some(Value::Indexed(map)), true) => map,
            (Some(Value::Scalar(s)), true) => BTreeMap::from([(0, s)]),
            _ => BTreeMap::new(),
        };
        self.store_array(&name, Value::Indexed(start), attributes, exported);
        let last_index = |shell: &Shell| match shell.vars.get(&name).and_then(|v| v.value.as_ref()) {
            Some(Value::Indexed(map)) => map.keys().next_back().copied(),
            _ => None,
        };
        let mut next = last_index(self).map_or(0, |k| k + 1);
        for (key, value, element_append) in items {
            let index = match key {
                Some(key) => {
                    let parsed = arith::eval_text(key, &mut HostArith(self)).map_err(|e| e.to_string())?;
                    if parsed < 0 {
                        let resolved = last_index(self).unwrap_or(-1) + 1 + parsed;
                        if resolved < 0 {
                            return Err(format!("{name}[{key}]: bad array subscript"));
                        }
                        resolved
                    } else {
                        parsed
                    }
                }
                None => next,
            };
            let value = if *element_append {
                format!("{}{value}", self.element_value(&name, &ElementKey::Index(index)).unwrap_or_default())
            } else {
                value.clone()
            };
            let value = self.transform_value(attributes, value)?;
            let limit = self.limits.max_array_elements;
            if let Some(Value::Indexed(map)) = self.vars.get_mut(&name).and_then(|v| v.value.as_mut()) {
                if map.len() >= limit && !map.contains_key(&index) {
                    return Err(format!("{name}: array element limit ({limit}) exceeded"));
                }
                map.insert(index, value);
            }
            next = index + 1;
        }
        Ok(())
    }

    /// Stores an array value in `name`, creating the variable with
    /// `attributes` when it does not exist.
    fn store_array(&mut self, name: &str, value: Value, attributes: Attributes, exported: bool) {
        match self.vars.get_mut(name) {
            Some(var) => {
                var.value = Some(value);
                var.attributes.exported |= exported;
            }
            None => {
                let mut var = Variable { value: Some(value), attributes };
                var.attributes.exported |= exported;
                self.vars.insert(name, var);
            }
        }
    }

    /// Reports the warnings queued by an assignment.
    pub(super) async fn report_warnings(&mut self) {
        for warning in std::mem::take(&mut self.warnings) {
            self.report_error(&warning).await;
        }
    }

    /// Reads `name[key]`.
    pub(super) fn element_value(&self, name: &str, key: &ElementKey) -> Option<String> {
        if let Some(values) = self.dynamic_array(name).filter(|_| self.vars.get(name).is_none()) {
            return match key {
                ElementKey::Index(i) => {
                    let index = if *i < 0 { values.len() as i64 + i } else { *i };
                    usize::try_from(index).ok().and_then(|i| values.get(i).cloned())
                }
                ElementKey::Key(_) => None,
            };
        }
        let var = self.vars.get(name)?;
        match (&var.value, key) {
            (Some(Value::Indexed(map)), ElementKey::Index(i)) => {
                if *i < 0 {
                    let max = map.keys().next_back().copied()?;
                    map.get(&(max + 1 + i)).cloned()
                } else {
                    map.get(i).cloned()
                }
            }
            (Some(Value::Assoc(map)), ElementKey::Key(k)) => map.get(k).cloned(),
            (Some(Value::Assoc(map)), ElementKey::Index(i)) => map.get(&i.to_string()).cloned(),
            (Some(Value::Scalar(s)), ElementKey::Index(0)) => Some(s.clone()),
            (Some(Value::Scalar(s)), ElementKey::Index(-1)) => Some(s.clone()),
            _ => None,
        }
    }

    /// All values of an array (or the one value of a scalar).
    pub(super) fn array_values(&self, name: &str) -> Vec<String> {
        if self.vars.get(name).is_none() {
            if let Some(values) = self.dynamic_array(name) {
                return values;
            }
        }
        match self.vars.get(name).and_then(|v| v.value.as_ref()) {
            Some(Value::Scalar(s)) => vec![s.clone()],
            Some(Value::Indexed(map)) => map.values().cloned().collect(),
            Some(Value::Assoc(map)) => map.values(),
            None => Vec::new(),
        }
    }

    /// All keys of an array (`0` for a scalar).
    pub(super) fn array_keys(&self, name: &str) -> Vec<String> {
        if self.vars.get(name).is_none() {
            if let Some(values) = self.dynamic_array(name) {
                return (0..values.len()).map(|i| i.to_string()).collect();
            }
        }
        match self.vars.get(name).and_then(|v| v.value.as_ref()) {
            Some(Value::Scalar(_)) => vec!["0".to_string()],
            Some(Value::Indexed(map)) => map.keys().map(|k| k.to_string()).collect(),
            Some(Value::Assoc(map)) => map.keys(),
            None => Vec::new(),
        }
    }

    /// `unset name`: `Err` with bash's message for read-only variables.
    pub(super) fn unset_variable(&mut self, name: &str) -> Result<(), String> {
        if matches!(name, "RANDOM" | "SECONDS" | "LINENO" | "EPOCHSECONDS" | "EPOCHREALTIME" | "BASHPID" | "BASH_SUBSHELL")
            && !self.plain_specials.iter().any(|n| n == name)
        {
            self.plain_specials.push(name.to_string());
        }
        if let Some(var) = self.vars.get(name) {
            if var.attributes.readonly {
                return Err(format!("{name}: cannot unset: readonly variable"));
            }
        }
        // A local of the running function stays local but unset (it keeps
        // shadowing the caller's variable), as bash does.
        if self.vars.is_local_here(name) {
            if let Some(var) = self.vars.get_mut(name) {
                var.value = None;
                var.attributes = Default::default();
            }
            return Ok(());
        }
        self.vars.remove(name);
        Ok(())
    }

    /// Assigns to `name` or `name[subscript]` (as `read`, `printf -v` and
    /// `getopts` accept).
    pub async fn assign_name(&mut self, name: &str, value: String) -> Result<(), String> {
        let Some(open) = name.find('[').filter(|_| name.ends_with(']')) else {
            return self.assign_scalar(name, value, false);
        };
        let base = self.resolve_nameref(&name[..open]);
        if !is_valid_name(&base) {
            return Err(format!("`{name}': not a valid identifier"));
        }
        let subscript = &name[open + 1..name.len() - 1];
        let key = crate::expand::subscript_key(self, &base, subscript).await.map_err(|e| e.to_string())?;
        self.assign_element(&base, key, value, false)
    }

    /// The element key a subscript's text designates in `base`: the text
    /// itself for an associative array, its arithmetic value otherwise.
    pub(super) fn subscript_key(&mut self, base: &str, subscript: &str) -> Result<ElementKey, String> {
        Ok(if self.var_shape(base) == VarShape::Assoc {
            let unquoted = subscript.trim_matches(|c| c == '"' || c == '\'');
            ElementKey::Key(unquoted.to_string())
        } else {
            ElementKey::Index(arith::eval_text(subscript, &mut HostArith(self)).map_err(|e| e.to_string())?)
        })
    }
}

/// Stores `value` as the variable's scalar view: element 0 of an array
/// (key `0` of an associative one), else the whole value.
fn set_scalar_view(var: &mut Variable, value: String) {
    let attributes = var.attributes;
    match &mut var.value {
        Some(Value::Indexed(map)) => {
            map.insert(0, value);
        }
        Some(Value::Assoc(map)) => map.insert("0".to_string(), value),
        None if attributes.assoc => {
            let mut map = AssocArray::default();
            map.insert("0".to_string(), value);
            var.value = Some(Value::Assoc(map));
        }
        None if attributes.indexed => var.value = Some(Value::Indexed(BTreeMap::from([(0, value)]))),
        _ => var.value = Some(Value::Scalar(value)),
    }
}
