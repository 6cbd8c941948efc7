//! Declaration builtins: `declare`/`typeset`, `local`, `export`,
//! `readonly`, and `unset`, with `declare -p` output exactly as bash prints it.

use super::{Arg, DeclAssignment, DeclValue};
use crate::expand::{declare_key, declare_quote, ElementKey};
use crate::host::LocalFuture;
use crate::interp::variables::{is_valid_name, is_valid_nameref_target};
use crate::interp::vars::{AssocArray, Attributes, Value, Variable};
use crate::interp::{Outcome, Shell};
use std::collections::BTreeMap;

/// The attribute changes and modes one declaration command asks for.
#[derive(Default, Clone, Copy, PartialEq)]
struct Flags {
    indexed: bool,
    assoc: bool,
    print: bool,
    functions: bool,
    function_names: bool,
    global: bool,
    set: Attributes,
    clear: Attributes,
}

fn apply_letter(attributes: &mut Attributes, letter: char) -> bool {
    match letter {
        'i' => attributes.integer = true,
        'l' => attributes.lowercase = true,
        'u' => attributes.uppercase = true,
        'r' => attributes.readonly = true,
        'x' => attributes.exported = true,
        'n' => attributes.nameref = true,
        't' => attributes.trace = true,
        _ => return false,
    }
    true
}

/// The `declare -p` line for a variable.
pub fn declare_line(name: &str, var: &Variable) -> String {
    let mut letters = var.attribute_letters();
    if letters.is_empty() {
        letters.push('-');
    }
    match &var.value {
        None => format!("declare -{letters} {name}"),
        Some(Value::Scalar(s)) => format!("declare -{letters} {name}={}", declare_quote(s)),
        Some(Value::Indexed(map)) => {
            let items: Vec<String> = map.iter().map(|(k, v)| format!("[{k}]={}", declare_quote(v))).collect();
            format!("declare -{letters} {name}=({})", items.join(" "))
        }
        Some(Value::Assoc(map)) => {
            let mut items = String::new();
            for key in &map.keys() {
                let value = map.get(key).cloned().unwrap_or_default();
                items.push_str(&format!("[{}]={} ", declare_key(key), declare_quote(&value)));
            }
            format!("declare -{letters} {name}=({items})")
        }
    }
}

async fn parse_flags(shell: &mut Shell, name: &str, args: Vec<Arg>) -> Result<(Flags, Vec<Arg>), i32> {
    let mut flags = Flags::default();
    let mut rest = Vec::with_capacity(args.len().saturating_sub(1));
    let mut options_done = false;
    for arg in args.into_iter().skip(1) {
        if let (false, Arg::Word(word)) = (options_done, &arg) {
            if word == "--" {
                options_done = true;
                continue;
            }
            let (on, letters) = match (word.strip_prefix('-'), word.strip_prefix('+')) {
                (Some(l), _) if !l.is_empty() => (true, l),
                (_, Some(l)) if !l.is_empty() => (false, l),
                _ => {
                    options_done = true;
                    rest.push(arg);
                    continue;
                }
            };
            for letter in letters.chars() {
                let target = if on { &mut flags.set } else { &mut flags.clear };
                if apply_letter(target, letter) {
                    continue;
                }
                match letter {
                    'a' => flags.indexed = on,
                    'A' => flags.assoc = on,
                    'p' => flags.print = true,
                    'f' => flags.functions = true,
                    'F' => flags.function_names = true,
                    'g' => flags.global = true,
                    _ => {
                        shell.builtin_error(name, &format!("-{letter}: invalid option")).await;
                        let usage =
                            format!("{name}: usage: {name} [-aAfFgiIlnrtux] [name[=value] ...] or {name} -p [-aAfFilnrtux] [name ...]\n");
                        let _ = shell.write_fd(2, usage.as_bytes()).await;
                        return Err(2);
                    }
                }
            }
            continue;
        }
        options_done = true;
        rest.push(arg);
    }
    if flags.set.nameref {
        shell.vars.note_namerefs();
    }
    Ok((flags, rest))
}

/// `declare` and `typeset`.
pub fn declare(shell: &mut Shell, args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        let name = args[0].text();
        let (flags, rest) = match parse_flags(shell, &name, args).await {
            Ok(parsed) => parsed,
            Err(status) => return Ok(status),
        };
        let local = !shell.call_stack.is_empty() && !flags.global;
        declare_common(shell, &name, flags, rest, local).await
    })
}

/// `local`.
pub fn local(shell: &mut Shell, args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        if shell.call_stack.is_empty() {
            shell.builtin_error("local", "can only be used in a function").await;
            return Ok(1);
        }
        let (flags, rest) = match parse_flags(shell, "local", args).await {
            Ok(parsed) => parsed,
            Err(status) => return Ok(status),
        };
        declare_common(shell, "local", flags, rest, true).await
    })
}

/// `export`.
pub fn export(shell: &mut Shell, args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        let mut unexport = false;
        let mut print = false;
        let mut rest = Vec::new();
        for arg in args.iter().skip(1) {
            match arg {
                Arg::Word(w) if rest.is_empty() && w.starts_with('-') && w.len() > 1 => {
                    for letter in w[1..].chars() {
                        match letter {
                            'n' => unexport = true,
                            'p' => print = true,
                            'f' => {}
                            _ => {
                                shell.builtin_error("export", &format!("-{letter}: invalid option")).await;
                                let _ = shell.write_fd(2, b"export: usage: export [-fn] [name[=value] ...] or export -p\n").await;
                                return Ok(2);
                            }
                        }
                    }
                }
                other => rest.push(other.clone()),
            }
        }
        if rest.is_empty() || (print && rest.is_empty()) {
            let mut out = String::new();
            for (name, var) in shell.vars.visible() {
                if var.attributes.exported {
                    out.push_str(&declare_line(&name, var));
                    out.push('\n');
                }
            }
            shell.out(out.as_bytes()).await?;
            return Ok(0);
        }
        let mut flags = Flags::default();
        if unexport {
            flags.clear.exported = true;
        } else {
            flags.set.exported = true;
        }
        declare_common(shell, "export", flags, rest, false).await
    })
}

/// `readonly`.
pub fn readonly(shell: &mut Shell, args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        let (mut flags, rest) = match parse_flags(shell, "readonly", args).await {
            Ok(parsed) => parsed,
            Err(status) => return Ok(status),
        };
        if rest.is_empty() {
            let mut out = String::new();
            for (name, var) in shell.vars.visible() {
                if var.attributes.readonly {
                    out.push_str(&declare_line(&name, var));
                    out.push('\n');
                }
            }
            shell.out(out.as_bytes()).await?;
            return Ok(0);
        }
        flags.set.readonly = true;
        flags.print = false;
        declare_common(shell, "readonly", flags, rest, false).await
    })
}

async fn declare_common(shell: &mut Shell, builtin: &str, flags: Flags, rest: Vec<Arg>, local: bool) -> Outcome {
    if flags.functions || flags.function_names {
        return print_functions(shell, flags.function_names, &rest).await;
    }
    // Without names or options, `declare` lists as `set` does, then the functions.
    if rest.is_empty() && !flags.print && flags == Flags::default() && matches!(builtin, "declare" | "typeset") {
        let listing = super::set::variable_listing(shell);
        shell.out(listing.as_bytes()).await?;
        return print_functions(shell, false, &rest).await;
    }
    if flags.print || (rest.is_empty() && builtin != "local") {
        return print_variables(shell, builtin, &rest, flags).await;
    }
    let mut status = 0;
    for arg in rest {
        let decl = match arg {
            Arg::Assign(decl) => Some(decl),
            Arg::Word(word) => {
                if let Some((name, value)) = word.split_once('=') {
                    let (name, append) = match name.strip_suffix('+') {
                        Some(n) => (n.to_string(), true),
                        None => (name.to_string(), false),
                    };
                    let array_target = flags.indexed || flags.assoc || shell.vars.get(&name).is_some_and(|v| v.is_array());
                    match array_literal(shell, &word, array_target).await {
                        Some(Ok(decl)) => Some(decl),
                        Some(Err(outcome)) => return outcome,
                        None => Some(DeclAssignment { name, index: None, written_index: None, append, value: DeclValue::Scalar(value.to_string()) }),
                    }
                } else {
                    if !is_valid_name(&word) {
                        shell.builtin_error(builtin, &format!("`{word}': not a valid identifier")).await;
                        status = 1;
                        continue;
                    }
                    if flags.set.nameref {
                        let current = shell.vars.get(&word).and_then(|v| v.scalar_value());
                        if let Some(message) = current.and_then(|value| nameref_target_error(&word, &value)) {
                            shell.builtin_error(builtin, &message).await;
                            status = 1;
                            continue;
                        }
                    }
                    match declare_name(shell, builtin, &word, flags, local).await {
                        Ok(()) if flags.set.readonly => {
                            if let Some(var) = shell.vars.get_mut(&word) {
                                var.attributes.readonly = true;
                            }
                        }
                        Ok(()) => {}
                        Err(s) => status = s,
                    }
                    None
                }
            }
        };
        let Some(decl) = decl else { continue };
        if !is_valid_name(&decl.name) {
            shell.builtin_error(builtin, &format!("`{}': not a valid identifier", decl.text())).await;
            status = 1;
            continue;
        }
        let nameref_value = match (&decl.value, &decl.index) {
            (DeclValue::Scalar(value), None) if flags.set.nameref && !decl.append => Some(value.clone()),
            _ => None,
        };
        if let Some(message) = nameref_value.as_ref().and_then(|value| nameref_target_error(&decl.name, value)) {
            shell.builtin_error(builtin, &message).await;
            status = 1;
            continue;
        }
        if let Err(s) = declare_name(shell, builtin, &decl.name, flags, local).await {
            status = s;
            continue;
        }
        if let Some(target) = nameref_value {
            // `declare -n ref=target` sets the reference itself.
            if let Some(var) = shell.vars.get_mut(&decl.name) {
                var.value = Some(Value::Scalar(target));
                var.attributes.readonly |= flags.set.readonly;
            }
            continue;
        }
        // `declare -g` assigns the global even where a local shadows it.
        let hidden = if flags.global { shell.vars.hide_function_scopes() } else { Vec::new() };
        let result = match (&decl.value, flags.assoc) {
            (DeclValue::Array(items), true) => shell.assign_array(&decl.name, items, decl.append, true),
            (DeclValue::Scalar(value), true) if decl.index.is_none() => {
                shell.assign_element(&decl.name, ElementKey::Key("0".into()), value.clone(), decl.append)
            }
            _ => shell.assign_declaration(&decl),
        };
        shell.report_warnings().await;
        if result.is_ok() && flags.set.readonly {
            if let Some(var) = shell.vars.get_mut(&decl.name) {
                var.attributes.readonly = true;
            }
        }
        shell.vars.restore_scopes(hidden);
        if let Err(message) = result {
            // An unbound variable ends the shell as in any expansion.
            if let Some(name) = message.strip_suffix(": unbound variable") {
                return shell.expansion_failed(crate::expand::ExpandError::Unbound(name.to_string())).await;
            }
            // Bash reports a bad subscript without the builtin's name, and a
            // read-only variable without it for `readonly`, `export` and
            // list values (which then end the shell).
            let readonly = message.ends_with(": readonly variable");
            let list = matches!(decl.value, DeclValue::Array(_));
            if message.ends_with("]: bad array subscript") || readonly && (matches!(builtin, "readonly" | "export") || list) {
                shell.report_error(&message).await;
                if readonly && list {
                    return Err(crate::interp::Flow::Exit(1));
                }
            } else {
                shell.builtin_error(builtin, &message).await;
            }
            // An arithmetic error in an integer assignment ends the shell.
            if message.contains("(error token is \"") {
                return Err(crate::interp::Flow::Exit(1));
            }
            status = 1;
            continue;
        }
    }
    Ok(status)
}

/// `declare -a "a=(1 2)"`: for an array, a quoted `name=(...)` argument is
/// read again as an array assignment. `None` when it is not one.
async fn array_literal(shell: &mut Shell, word: &str, array_target: bool) -> Option<Result<DeclAssignment, Outcome>> {
    let (_, value) = word.split_once('=')?;
    if !array_target || !value.starts_with('(') || !value.ends_with(')') {
        return None;
    }
    let list = crate::syntax::parse(word, &Default::default()).ok()?;
    let item = list.items.into_iter().next()?;
    let crate::syntax::ast::Command::Simple(command) = item.and_or.first.commands.into_iter().next()? else { return None };
    let assignment = command.assignments.into_iter().next().filter(|_| command.words.is_empty())?;
    Some(match shell.expand_declaration(&assignment, true).await {
        Ok(decl) => Ok(decl),
        Err(error) => Err(shell.expansion_failed(error).await),
    })
}

/// Why `value` cannot be the target of nameref `name`, in bash's words.
fn nameref_target_error(name: &str, value: &str) -> Option<String> {
    if value == name {
        Some(format!("{name}: nameref variable self references not allowed"))
    } else if !is_valid_nameref_target(value) {
        Some(format!("`{value}': invalid variable name for name reference"))
    } else {
        None
    }
}

/// Creates or updates the variable `name` with the flags' attributes.
async fn declare_name(shell: &mut Shell, builtin: &str, name: &str, flags: Flags, local: bool) -> Result<(), i32> {
    let existing = if local {
        shell.vars.get_local(name).cloned()
    } else if flags.global {
        shell.vars.get_global(name).cloned()
    } else {
        shell.vars.get(name).cloned()
    };
    let outer = shell.vars.get(name).map(|v| v.attributes).unwrap_or_default();
    if local && existing.is_none() && outer.readonly {
        // A local cannot shadow a read-only variable.
        shell.builtin_error(builtin, &format!("{name}: readonly variable")).await;
        return Err(1);
    }
    let mut var = existing.clone().unwrap_or(Variable { value: None, attributes: Attributes::default() });
    if local && existing.is_none() {
        // A local of an exported name is exported too.
        var.attributes.exported = outer.exported;
    }
    if var.attributes.readonly && flags.clear.readonly {
        shell.builtin_error(builtin, &format!("{name}: readonly variable")).await;
        return Err(1);
    }
    let a = &mut var.attributes;
    let s = flags.set;
    let c = flags.clear;
    a.integer = (a.integer || s.integer) && !c.integer;
    a.exported = (a.exported || s.exported) && !c.exported;
    a.nameref = (a.nameref || s.nameref) && !c.nameref;
    a.trace = (a.trace || s.trace) && !c.trace;
    if s.lowercase {
        a.lowercase = true;
        a.uppercase = false;
    }
    if s.uppercase {
        a.uppercase = true;
        a.lowercase = false;
    }
    if c.lowercase {
        a.lowercase = false;
    }
    if c.uppercase {
        a.uppercase = false;
    }
    // Without a value yet, the array kind is kept as an attribute
    // (`declare -A m` prints as such, not as `m=()`).
    if flags.assoc {
        match &var.value {
            Some(Value::Indexed(_)) => {
                shell.builtin_error(builtin, &format!("{name}: cannot convert indexed to associative array")).await;
                return Err(1);
            }
            None if var.attributes.indexed => {
                shell.builtin_error(builtin, &format!("{name}: cannot convert indexed to associative array")).await;
                return Err(1);
            }
            Some(Value::Assoc(_)) => {}
            Some(Value::Scalar(s)) => {
                let mut map = AssocArray::default();
                map.insert("0".to_string(), s.clone());
                var.value = Some(Value::Assoc(map));
            }
            None => var.attributes.assoc = true,
        }
    } else if flags.indexed {
        match &var.value {
            Some(Value::Assoc(_)) => {
                shell.builtin_error(builtin, &format!("{name}: cannot convert associative to indexed array")).await;
                return Err(1);
            }
            None if var.attributes.assoc => {
                shell.builtin_error(builtin, &format!("{name}: cannot convert associative to indexed array")).await;
                return Err(1);
            }
            Some(Value::Indexed(_)) => {}
            Some(Value::Scalar(s)) => var.value = Some(Value::Indexed(BTreeMap::from([(0, s.clone())]))),
            None => var.attributes.indexed = true,
        }
    }
    if local && existing.is_none() {
        if shell.options.allexport {
            var.attributes.exported = true;
        }
        shell.vars.insert_local(name, var);
    } else if flags.global {
        shell.vars.insert_global(name, var);
    } else {
        shell.vars.insert(name, var);
    }
    Ok(())
}

/// True when `var` has every attribute `flags` asks for (`declare -pa`
/// lists only the indexed arrays).
fn has_flag_attributes(var: &Variable, flags: Flags) -> bool {
    let a = var.attributes;
    let s = flags.set;
    (!flags.indexed || matches!(var.value, Some(Value::Indexed(_))) || (var.value.is_none() && a.indexed))
        && (!flags.assoc || matches!(var.value, Some(Value::Assoc(_))) || (var.value.is_none() && a.assoc))
        && (!s.integer || a.integer)
        && (!s.lowercase || a.lowercase)
        && (!s.uppercase || a.uppercase)
        && (!s.readonly || a.readonly)
        && (!s.exported || a.exported)
        && (!s.nameref || a.nameref)
        && (!s.trace || a.trace)
}

async fn print_variables(shell: &mut Shell, builtin: &str, names: &[Arg], flags: Flags) -> Outcome {
    let mut out = String::new();
    let mut status = 0;
    if names.is_empty() {
        let all = if builtin == "local" { shell.vars.locals() } else { shell.vars.visible() };
        // `local -p` lists every local whatever the flags (as bash).
        for (name, var) in all.into_iter().filter(|(_, var)| builtin == "local" || has_flag_attributes(var, flags)) {
            out.push_str(&declare_line(&name, var));
            out.push('\n');
        }
    } else {
        for arg in names {
            let name = arg.text();
            match shell.vars.get(&name) {
                Some(var) => {
                    out.push_str(&declare_line(&name, var));
                    out.push('\n');
                }
                None => {
                    shell.out(out.as_bytes()).await?;
                    out.clear();
                    shell.builtin_error(builtin, &format!("{name}: not found")).await;
                    status = 1;
                }
            }
        }
    }
    shell.out(out.as_bytes()).await?;
    Ok(status)
}

async fn print_functions(shell: &mut Shell, names_only: bool, names: &[Arg]) -> Outcome {
    // All functions are listed sorted; named ones in the order given.
    let selected: Vec<String> = if names.is_empty() {
        let mut all: Vec<String> = shell.functions.keys().cloned().collect();
        all.sort();
        all
    } else {
        names.iter().map(|a| a.text()).collect()
    };
    let extdebug = shell.options.get_shopt("extdebug") == Some(true);
    let mut out = String::new();
    let mut status = 0;
    for name in selected {
        match shell.functions.get(&name) {
            Some(function) => {
                if names_only && !names.is_empty() && extdebug {
                    // With extdebug: where the function was defined.
                    let line = function.source.line_of(function.def.span.start);
                    out.push_str(&format!("{name} {line} {}\n", function.error_name));
                } else if names_only && !names.is_empty() {
                    out.push_str(&format!("{name}\n"));
                } else if names_only {
                    out.push_str(&format!("declare -f {name}\n"));
                } else {
                    out.push_str(&shell.function_text(&name, function));
                    out.push('\n');
                }
            }
            None => status = 1,
        }
    }
    shell.out(out.as_bytes()).await?;
    Ok(status)
}

/// `unset [-fvn] name...`.
pub fn unset(shell: &mut Shell, args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        let words = super::words(&args);
        let mut functions = false;
        let mut variables = false;
        let mut nameref = false;
        let mut index = 1;
        while let Some(word) = words.get(index) {
            if word == "--" {
                index += 1;
                break;
            }
            let Some(letters) = word.strip_prefix('-').filter(|l| !l.is_empty()) else { break };
            for letter in letters.chars() {
                match letter {
                    'f' => functions = true,
                    'v' => variables = true,
                    'n' => nameref = true,
                    _ => {
                        shell.builtin_error("unset", &format!("-{letter}: invalid option")).await;
                        let _ = shell.write_fd(2, b"unset: usage: unset [-f] [-v] [-n] [name ...]\n").await;
                        return Ok(2);
                    }
                }
            }
            index += 1;
        }
        let mut status = 0;
        for name in &words[index.min(words.len())..] {
            if functions && !variables {
                shell.functions.remove(name);
                continue;
            }
            if let Some(open) = name.find('[').filter(|_| name.ends_with(']')) {
                let base = shell.resolve_nameref(&name[..open]);
                let subscript = &name[open + 1..name.len() - 1];
                // An element of an unset variable: nothing to do, the
                // subscript not even evaluated.
                if shell.vars.get(&base).is_none() {
                    continue;
                }
                let key = if subscript == "@" || subscript == "*" {
                    None
                } else {
                    match crate::expand::subscript_key(shell, &base, subscript).await {
                        Ok(key) => Some(key),
                        // `set -u` and an unset name in the subscript: fatal.
                        Err(e) if e.to_string().ends_with(": unbound variable") => return shell.expansion_failed(e).await,
                        Err(e) => {
                            shell.builtin_error("unset", &e.to_string()).await;
                            status = 1;
                            continue;
                        }
                    }
                };
                if let Some(var) = shell.vars.get_mut(&base) {
                    if var.attributes.readonly {
                        let message = format!("{base}: cannot unset: readonly variable");
                        shell.builtin_error("unset", &message).await;
                        status = 1;
                        continue;
                    }
                    match (&mut var.value, key) {
                        (Some(Value::Assoc(map)), _) if subscript == "@" || subscript == "*" => *map = AssocArray::default(),
                        (Some(Value::Assoc(map)), Some(ElementKey::Key(key))) => map.remove(&key),
                        (Some(Value::Indexed(map)), None) => map.clear(),
                        (Some(Value::Indexed(map)), Some(ElementKey::Index(i))) => {
                            let i = if i < 0 { map.keys().next_back().copied().unwrap_or(-1) + 1 + i } else { i };
                            if i < 0 {
                                shell.builtin_error("unset", &format!("[{subscript}]: bad array subscript")).await;
                                status = 1;
                                continue;
                            }
                            map.remove(&i);
                        }
                        (Some(Value::Scalar(_)), Some(ElementKey::Index(0))) => var.value = None,
                        _ => {}
                    }
                }
                continue;
            }
            if !is_valid_name(name) {
                // Not a variable name, but possibly a function's (`a-b`).
                if variables {
                    shell.builtin_error("unset", &format!("`{name}': not a valid identifier")).await;
                    status = 1;
                } else {
                    shell.functions.remove(name);
                }
                continue;
            }
            let target = if nameref { name.clone() } else { shell.resolve_nameref(name).into_owned() };
            if shell.vars.get(&target).is_some() || shell.var_shape(&target) != crate::expand::VarShape::Unset {
                if let Err(message) = shell.unset_variable(&target) {
                    shell.builtin_error("unset", &message).await;
                    status = 1;
                }
            } else if !variables {
                shell.functions.remove(name);
            }
        }
        Ok(status)
    })
}
