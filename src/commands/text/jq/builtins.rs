//! The builtins written in Rust: a table by name and arity, and their
//! dispatch. Most take their arguments as values (evaluated on the input,
//! every combination); a few take closures (`path(f)`, `range`, `select`).

use super::ast::Ast;
use super::eval::{err, Cx, Env, Flow, Out, Res, P};
use super::funcs::value_native;
use super::json::{dump_short, to_json};
use super::paths::getpath;
use super::value::Value;
use std::rc::Rc;

/// Natives taking closures, handled in [`call_native`].
const SPECIAL: &[(&str, usize)] = &[
    ("empty", 0),
    ("error", 0),
    ("error", 1),
    ("not", 0),
    ("select", 1),
    ("path", 1),
    ("getpath", 1),
    ("recurse", 0),
    ("recurse", 1),
    ("recurse", 2),
    ("range", 2),
    ("_range3", 3),
    ("last", 1),
    ("repeat", 1),
    ("until", 2),
    ("while", 2),
    ("_nwise", 1),
    ("input", 0),
    ("inputs", 0),
    ("debug", 0),
    ("stderr", 0),
    ("input_filename", 0),
    ("_input_line_number", 0),
    ("halt", 0),
    ("halt_error", 1),
    ("builtins", 0),
    ("now", 0),
    ("format", 1),
    ("_sub_impl", 3),
];

/// Natives over values: (name, arity).
pub const VALUE_NATIVES: &[(&str, usize)] = &[
    ("length", 0),
    ("utf8bytelength", 0),
    ("type", 0),
    ("keys", 0),
    ("keys_unsorted", 0),
    ("has", 1),
    ("_to_entries", 0),
    ("_from_entries", 0),
    ("contains", 1),
    ("tostring", 0),
    ("tonumber", 0),
    ("tojson", 0),
    ("fromjson", 0),
    ("sort", 0),
    ("_sort_by", 1),
    ("_group_by", 1),
    ("_unique_by", 1),
    ("_min_by", 1),
    ("_max_by", 1),
    ("min", 0),
    ("max", 0),
    ("reverse", 0),
    ("_flatten", 1),
    ("setpath", 2),
    ("delpaths", 1),
    ("startswith", 1),
    ("endswith", 1),
    ("split", 1),
    ("_strindices", 1),
    ("implode", 0),
    ("explode", 0),
    ("infinite", 0),
    ("nan", 0),
    ("isinfinite", 0),
    ("isnan", 0),
    ("isnormal", 0),
    ("isvalid", 1),
    ("trim", 0),
    ("ltrim", 0),
    ("rtrim", 0),
    ("_match_impl", 3),
    ("strftime", 1),
    ("strflocaltime", 1),
    ("strptime", 1),
    ("mktime", 0),
    ("gmtime", 0),
    ("localtime", 0),
    ("pow", 2),
    ("atan2", 2),
    ("fmin", 2),
    ("fmax", 2),
    ("fmod", 2),
    ("frexp", 0),
    ("modf", 0),
    ("lgamma_r", 0),
    ("modulemeta", 0),
    ("get_search_list", 0),
    ("get_prog_origin", 0),
    ("get_jq_origin", 0),
];

/// Math functions of one number.
pub const MATH1: &[&str] = &[
    "floor", "sqrt", "ceil", "round", "fabs", "trunc", "rint", "exp", "exp2", "log", "log10", "log1p", "expm1", "log2", "sin", "cos",
    "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "cbrt", "lgamma", "tgamma",
];

/// The index of a native by name and arity, if there is one.
pub fn native_index(name: &str, arity: usize) -> Option<usize> {
    if let Some(i) = SPECIAL.iter().position(|(n, a)| *n == name && *a == arity) {
        return Some(i);
    }
    if let Some(i) = VALUE_NATIVES.iter().position(|(n, a)| *n == name && *a == arity) {
        return Some(SPECIAL.len() + i);
    }
    if arity == 0 {
        if let Some(i) = MATH1.iter().position(|n| *n == name) {
            return Some(SPECIAL.len() + VALUE_NATIVES.len() + i);
        }
    }
    None
}

/// Every builtin's `name/arity`, for `builtins`.
pub fn all_names() -> Vec<String> {
    let mut names: Vec<String> = SPECIAL
        .iter()
        .chain(VALUE_NATIVES.iter())
        .filter(|(n, _)| !n.starts_with('_') && !n.contains('@') && !n.contains('$'))
        .map(|(n, a)| format!("{n}/{a}"))
        .collect();
    names.extend(MATH1.iter().map(|n| format!("{n}/0")));
    names
}

/// Calls native `index` with closure arguments `args`.
pub fn call_native<'p>(cx: &mut Cx<'p>, index: usize, args: &'p [Ast], env: &Env<'p>, input: Value, path: P, out: &mut Out<'_, 'p>) -> Res {
    if let Some((name, _)) = SPECIAL.get(index) {
        return special(cx, name, args, env, input, path, out);
    }
    let (name, arity) = match VALUE_NATIVES.get(index - SPECIAL.len()) {
        Some((n, a)) => (*n, *a),
        None => match MATH1.get(index - SPECIAL.len() - VALUE_NATIVES.len()) {
            Some(n) => (*n, 0),
            None => return Err(err("internal error: unknown builtin")),
        },
    };
    if arity == 0 {
        let v = value_native(cx, name, &input, &[])?;
        return cx.value_out(v, &path, out);
    }
    let mut vals = vec![Value::Null; arity];
    eval_args(cx, name, args, arity, env, &input, &mut vals, &path, out)
}

#[allow(clippy::too_many_arguments)]
fn eval_args<'p>(
    cx: &mut Cx<'p>,
    name: &str,
    args: &'p [Ast],
    k: usize,
    env: &Env<'p>,
    input: &Value,
    vals: &mut Vec<Value>,
    path: &P,
    out: &mut Out<'_, 'p>,
) -> Res {
    if k == 0 {
        let v = value_native(cx, name, input, vals)?;
        return cx.value_out(v, path, out);
    }
    let Some(arg) = args.get(k - 1) else {
        return Ok(());
    };
    cx.eval(arg, env, input.clone(), None, &mut |cx, v, _| {
        if let Some(slot) = vals.get_mut(k - 1) {
            *slot = v;
        }
        eval_args(cx, name, args, k - 1, env, input, vals, path, out)
    })
}

fn special<'p>(cx: &mut Cx<'p>, name: &str, args: &'p [Ast], env: &Env<'p>, input: Value, path: P, out: &mut Out<'_, 'p>) -> Res {
    let arg = |i: usize| args.get(i);
    match name {
        "empty" => Ok(()),
        "error" => match arg(0) {
            None => Err(Flow::Err(input)),
            Some(a) => cx.eval(a, env, input, None, &mut |_, v, _| Err(Flow::Err(v))),
        },
        "not" => cx.value_out(Value::Bool(!input.truthy()), &path, out),
        "select" => {
            let Some(f) = arg(0) else { return Ok(()) };
            let input2 = input.clone();
            cx.eval(f, env, input, None, &mut |cx, c, _| if c.truthy() { out(cx, input2.clone(), path.clone()) } else { Ok(()) })
        }
        "path" => {
            let Some(f) = arg(0) else { return Ok(()) };
            cx.eval(f, env, input, Some(Rc::new(Vec::new())), &mut |cx, v, p| {
                let v = Value::arr(cx.finish_path(&v, p)?);
                cx.value_out(v, &path, out)
            })
        }
        "getpath" => {
            let Some(f) = arg(0) else { return Ok(()) };
            let input2 = input.clone();
            cx.eval(f, env, input, None, &mut |cx, p, _| {
                let Value::Arr(items) = &p else {
                    return Err(err("Path must be specified as an array"));
                };
                if cx.is_bad(&path) {
                    return Err(err(format!(
                        "Invalid path expression near attempt to access element {} of {}",
                        super::json::truncate(&to_json(&p), 15),
                        super::json::truncate(&to_json(&input2), 30)
                    )));
                }
                let v = getpath(&input2, items)?;
                let np = path.as_ref().map(|base| {
                    let mut n = (**base).clone();
                    n.extend(items.iter().cloned());
                    Rc::new(n)
                });
                out(cx, v, np)
            })
        }
        "recurse" => match args.len() {
            0 => recurse(cx, None, env, input, path, out),
            1 => recurse(cx, arg(0), env, input, path, out),
            _ => {
                // recurse(f; cond): def r: ., (f | select(cond) | r); r
                let (Some(f), Some(c)) = (arg(0), arg(1)) else { return Ok(()) };
                recurse_cond(cx, f, c, env, input, path, out)
            }
        },
        "range" => {
            let (Some(a), Some(b)) = (arg(0), arg(1)) else { return Ok(()) };
            let input2 = input.clone();
            cx.eval(a, env, input, None, &mut |cx, from, _| {
                cx.eval(b, env, input2.clone(), None, &mut |cx, upto, _| {
                    let (Value::Num(mut x, _), Value::Num(to, _)) = (&from, &upto) else {
                        return Err(err("Range bounds must be numeric"));
                    };
                    while x < *to {
                        cx.step()?;
                        cx.value_out(Value::num(x), &path, out)?;
                        x += 1.0;
                    }
                    Ok(())
                })
            })
        }
        "_range3" => {
            let (Some(a), Some(b), Some(c)) = (arg(0), arg(1), arg(2)) else { return Ok(()) };
            let input2 = input.clone();
            cx.eval(a, env, input, None, &mut |cx, from, _| {
                let input3 = input2.clone();
                cx.eval(b, env, input2.clone(), None, &mut |cx, upto, _| {
                    cx.eval(c, env, input3.clone(), None, &mut |cx, by, _| {
                        let (Value::Num(mut x, _), Value::Num(to, _), Value::Num(by, _)) = (&from, &upto, &by) else {
                            return Err(err("Range bounds must be numeric"));
                        };
                        if *by > 0.0 {
                            while x < *to {
                                cx.step()?;
                                cx.value_out(Value::num(x), &path, out)?;
                                x += by;
                            }
                        } else if *by < 0.0 {
                            while x > *to {
                                cx.step()?;
                                cx.value_out(Value::num(x), &path, out)?;
                                x += by;
                            }
                        } else if x < *to {
                            loop {
                                cx.step()?;
                                cx.value_out(Value::num(x), &path, out)?;
                            }
                        }
                        Ok(())
                    })
                })
            })
        }
        "last" => {
            let Some(f) = arg(0) else { return Ok(()) };
            let mut last = None;
            cx.eval(f, env, input, path.clone(), &mut |_, v, p| {
                last = Some((v, p));
                Ok(())
            })?;
            match last {
                Some((v, p)) => out(cx, v, p),
                None => cx.value_out(Value::Null, &path, out),
            }
        }
        "repeat" => {
            let Some(f) = arg(0) else { return Ok(()) };
            loop {
                cx.step()?;
                cx.eval(f, env, input.clone(), path.clone(), out)?;
            }
        }
        "until" | "while" => {
            let (Some(c), Some(u)) = (arg(0), arg(1)) else { return Ok(()) };
            loop_until(cx, name == "until", c, u, env, input, path, out)
        }
        "_nwise" => {
            let Some(n) = arg(0) else { return Ok(()) };
            let input2 = input.clone();
            cx.eval(n, env, input, None, &mut |cx, n, _| {
                let size = match n.as_f64() {
                    Some(n) if n >= 1.0 => n as usize,
                    _ => return Err(err("_nwise size must be a positive number")),
                };
                match &input2 {
                    Value::Arr(a) => {
                        if a.len() <= size {
                            return cx.value_out(input2.clone(), &path, out);
                        }
                        for chunk in a.chunks(size) {
                            cx.step()?;
                            cx.value_out(Value::arr(chunk.to_vec()), &path, out)?;
                        }
                        Ok(())
                    }
                    Value::Str(s) => {
                        let chars: Vec<char> = s.chars().collect();
                        if chars.len() <= size {
                            return cx.value_out(input2.clone(), &path, out);
                        }
                        for chunk in chars.chunks(size) {
                            cx.step()?;
                            cx.value_out(Value::str(&chunk.iter().collect::<String>()), &path, out)?;
                        }
                        Ok(())
                    }
                    other => {
                        let l = other.length().map_err(err)?;
                        let _ = l;
                        cx.value_out(other.clone(), &path, out)
                    }
                }
            })
        }
        "input" => match cx.inputs.next_input() {
            Some(Ok(v)) => cx.value_out(v, &path, out),
            Some(Err(e)) => Err(err(e)),
            None => Err(err("break")),
        },
        "inputs" => loop {
            match cx.inputs.next_input() {
                Some(Ok(v)) => cx.value_out(v, &path, out)?,
                Some(Err(e)) => return Err(err(e)),
                None => return Ok(()),
            }
        },
        "debug" => {
            let line = format!("[\"DEBUG:\",{}]\n", to_json(&input));
            cx.stderr.extend_from_slice(line.as_bytes());
            out(cx, input, path)
        }
        "stderr" => {
            match &input {
                Value::Str(s) => cx.stderr.extend_from_slice(s.as_bytes()),
                other => cx.stderr.extend_from_slice(to_json(other).as_bytes()),
            }
            out(cx, input, path)
        }
        "input_filename" => {
            let v = cx.inputs.filename();
            cx.value_out(v, &path, out)
        }
        "_input_line_number" => {
            let v = Value::num(cx.inputs.line() as f64);
            cx.value_out(v, &path, out)
        }
        "halt" => Err(Flow::Halt(0, None)),
        "halt_error" => {
            let Some(a) = arg(0) else { return Ok(()) };
            cx.eval(a, env, input.clone(), None, &mut |_, code, _| match code {
                Value::Num(n, _) => Err(Flow::Halt(n as i32, Some(input.clone()))),
                _ => Err(err("halt_error/1: number required")),
            })
        }
        "builtins" => {
            let v = Value::arr(all_names().iter().map(|s| Value::str(s)).collect());
            cx.value_out(v, &path, out)
        }
        "now" => {
            let v = Value::num(cx.now_millis / 1000.0);
            cx.value_out(v, &path, out)
        }
        "format" => {
            let Some(a) = arg(0) else { return Ok(()) };
            cx.eval(a, env, input.clone(), None, &mut |cx, f, _| match &f {
                Value::Str(f) => {
                    let v = format_value(f, &input)?;
                    cx.value_out(v, &path, out)
                }
                other => Err(err(format!("{} ({}) is not a valid format", other.kind(), dump_short(&other)))),
            })
        }
        "_sub_impl" => {
            let (Some(re), Some(rep), Some(flags)) = (arg(0), arg(1), arg(2)) else { return Ok(()) };
            let input2 = input.clone();
            cx.eval(flags, env, input, None, &mut |cx, flags, _| {
                let input3 = input2.clone();
                cx.eval(re, env, input2.clone(), None, &mut |cx, re, _| {
                    let matches = super::regex::match_impl(&input3, &re, &flags, false)?;
                    let Value::Str(text) = &input3 else { return Ok(()) };
                    let Value::Arr(matches) = &matches else { return Ok(()) };
                    let chars: Vec<char> = text.chars().collect();
                    // As jq: one result per output index of the replacement.
                    let mut results: Vec<String> = Vec::new();
                    let mut prev = 0usize;
                    for m in matches.iter() {
                        let Value::Obj(m) = m else { continue };
                        let offset = m.get("offset").and_then(Value::as_f64).unwrap_or(0.0) as usize;
                        let length = m.get("length").and_then(Value::as_f64).unwrap_or(0.0) as usize;
                        let gap: String = chars.get(prev.min(offset)..offset.min(chars.len())).unwrap_or(&[]).iter().collect();
                        let mut caps = super::value::Map::new();
                        if let Some(Value::Arr(groups)) = m.get("captures") {
                            for g in groups.iter() {
                                if let Value::Obj(g) = g {
                                    if let Some(Value::Str(name)) = g.get("name") {
                                        caps.insert(name.clone(), g.get("string").cloned().unwrap_or(Value::Null));
                                    }
                                }
                            }
                        }
                        let mut outs = Vec::new();
                        cx.eval(rep, env, Value::Obj(Rc::new(caps)), None, &mut |_, v, _| {
                            outs.push(v);
                            Ok(())
                        })?;
                        for (ix, o) in outs.iter().enumerate() {
                            let Value::Str(o) = o else {
                                return Err(super::eval::type_error2(&Value::str(&gap), o, "cannot be added"));
                            };
                            match results.get_mut(ix) {
                                Some(r) => {
                                    r.push_str(&gap);
                                    r.push_str(o);
                                }
                                None => results.push(format!("{gap}{o}")),
                            }
                        }
                        prev = offset + length;
                    }
                    if results.is_empty() {
                        return cx.value_out(input3.clone(), &path, out);
                    }
                    let tail: String = chars.get(prev.min(chars.len())..).unwrap_or(&[]).iter().collect();
                    for r in results {
                        cx.value_out(Value::str(&format!("{r}{tail}")), &path, out)?;
                    }
                    Ok(())
                })
            })
        }
        _ => Err(err(format!("{name} is not implemented"))),
    }
}

fn recurse<'p>(cx: &mut Cx<'p>, f: Option<&'p Ast>, env: &Env<'p>, input: Value, path: P, out: &mut Out<'_, 'p>) -> Res {
    out(cx, input.clone(), path.clone())?;
    cx.depth += 1;
    if cx.depth > super::eval::MAX_DEPTH {
        cx.depth -= 1;
        return Err(Flow::Stop(Some("jq: error: evaluation nested too deeply".to_string())));
    }
    let r = match f {
        None => match &input {
            Value::Arr(_) | Value::Obj(_) => cx.each(input, path, &mut |cx, v, p| recurse(cx, None, env, v, p, out)),
            _ => Ok(()),
        },
        Some(f) => cx.eval(f, env, input, path, &mut |cx, v, p| recurse(cx, Some(f), env, v, p, out)),
    };
    cx.depth -= 1;
    r
}

#[allow(clippy::too_many_arguments)]
fn recurse_cond<'p>(cx: &mut Cx<'p>, f: &'p Ast, c: &'p Ast, env: &Env<'p>, input: Value, path: P, out: &mut Out<'_, 'p>) -> Res {
    out(cx, input.clone(), path.clone())?;
    cx.eval(f, env, input, path, &mut |cx, v, p| {
        let v2 = v.clone();
        cx.eval(c, env, v, None, &mut |cx, ok, _| {
            if ok.truthy() {
                recurse_cond(cx, f, c, env, v2.clone(), p.clone(), out)
            } else {
                Ok(())
            }
        })
    })
}

/// `until(cond; next)` and `while(cond; update)` as loops while each step
/// has one outcome, recursing only when a closure yields several.
#[allow(clippy::too_many_arguments)]
fn loop_until<'p>(
    cx: &mut Cx<'p>,
    until: bool,
    c: &'p Ast,
    u: &'p Ast,
    env: &Env<'p>,
    input: Value,
    path: P,
    out: &mut Out<'_, 'p>,
) -> Res {
    let mut cur = (input, path);
    loop {
        cx.step()?;
        let mut conds = Vec::new();
        cx.eval(c, env, cur.0.clone(), None, &mut |_, v, _| {
            conds.push(v.truthy());
            Ok(())
        })?;
        let mut next_states = Vec::new();
        for ok in &conds {
            if until == *ok {
                if until {
                    out(cx, cur.0.clone(), cur.1.clone())?;
                }
                continue;
            }
            if !until {
                out(cx, cur.0.clone(), cur.1.clone())?;
            }
            let mut states = Vec::new();
            cx.eval(u, env, cur.0.clone(), cur.1.clone(), &mut |_, v, p| {
                states.push((v, p));
                Ok(())
            })?;
            next_states.push(states);
        }
        let total: usize = next_states.iter().map(Vec::len).sum();
        if total == 1 && conds.len() == 1 {
            if let Some(state) = next_states.pop().and_then(|mut s| s.pop()) {
                cur = state;
                continue;
            }
        }
        for states in next_states {
            for (v, p) in states {
                cx.depth += 1;
                if cx.depth > super::eval::MAX_DEPTH {
                    cx.depth -= 1;
                    return Err(Flow::Stop(Some("jq: error: evaluation nested too deeply".to_string())));
                }
                let r = loop_until(cx, until, c, u, env, v, p, out);
                cx.depth -= 1;
                r?;
            }
        }
        return Ok(());
    }
}

/// Applies `@name` to a value.
pub fn format_value(name: &str, v: &Value) -> Result<Value, Flow> {
    super::format::apply(name, v)
}
