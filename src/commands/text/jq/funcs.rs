//! The builtins over plain values (`length`, `keys`, `sort`, `split`, math).

use super::eval::{err, type_error2, Cx, Flow};
use super::json::{dump_short, parse_one, to_json};
use super::ops::split;
use super::paths::{delpaths, setpath};
use super::value::{Map, Value};
use std::rc::Rc;

fn type_error(v: &Value, msg: &str) -> Flow {
    err(format!("{} ({}) {}", v.kind(), dump_short(v), msg))
}

fn need_str<'a>(v: &'a Value, msg: &str) -> Result<&'a str, Flow> {
    match v {
        Value::Str(s) => Ok(s),
        other => Err(type_error(other, msg)),
    }
}

/// Sorts by `key` in jq's order; values nested too deeply to compare are an error.
fn sort_checked<T>(v: &mut [T], key: impl Fn(&T) -> &Value) -> Result<(), Flow> {
    let deep = std::cell::Cell::new(false);
    v.sort_by(|a, b| match key(a).compare_checked(key(b)) {
        Ok(o) => o,
        Err(()) => {
            deep.set(true);
            std::cmp::Ordering::Equal
        }
    });
    if deep.get() {
        return Err(err("Comparison too deep"));
    }
    Ok(())
}

fn sorted(items: &[Value]) -> Result<Vec<Value>, Flow> {
    let mut v = items.to_vec();
    sort_checked(&mut v, |x| x)?;
    Ok(v)
}

fn keyed<'a>(input: &'a Value, keys: &'a Value, what: &str) -> Result<Vec<(&'a Value, &'a Value)>, Flow> {
    match (input, keys) {
        (Value::Arr(a), Value::Arr(k)) if a.len() == k.len() => Ok(k.iter().zip(a.iter()).collect()),
        (Value::Arr(_), _) => Err(type_error2(input, keys, &format!("cannot be {what}, as they are not both arrays"))),
        _ => Err(type_error(input, &format!("cannot be {what}, as it is not an array"))),
    }
}

fn contains(a: &Value, b: &Value) -> Result<bool, Flow> {
    contains_at(a, b, 0)
}

fn contains_at(a: &Value, b: &Value, depth: usize) -> Result<bool, Flow> {
    if depth > super::value::MAX_COMPARE_DEPTH {
        return Err(err("Containment check too deep"));
    }
    Ok(match (a, b) {
        (Value::Obj(x), Value::Obj(y)) => {
            for (k, v) in y.iter() {
                match x.get(k) {
                    Some(w) => {
                        if !contains_at(w, v, depth + 1)? {
                            return Ok(false);
                        }
                    }
                    None => return Ok(false),
                }
            }
            true
        }
        (Value::Arr(x), Value::Arr(y)) => {
            for v in y.iter() {
                let mut found = false;
                for w in x.iter() {
                    if contains_at(w, v, depth + 1)? {
                        found = true;
                        break;
                    }
                }
                if !found {
                    return Ok(false);
                }
            }
            true
        }
        (Value::Str(x), Value::Str(y)) => x.contains(&**y),
        _ if a.kind() == b.kind() => a.equals(b),
        _ => false,
    })
}

/// `_flatten($depth)` as jq 1.7.1's definition behaves (`.[]` of an array
/// or object; arrays inside opened while the depth, decremented, is not
/// 0), with a loop instead of recursion so 10000-deep arrays flatten.
fn flatten(input: &Value, depth: &Value) -> Result<Value, Flow> {
    let top: Vec<Value> = match input {
        Value::Arr(a) => a.to_vec(),
        Value::Obj(o) => o.iter().map(|(_, v)| v.clone()).collect(),
        other => return Err(err(format!("Cannot iterate over {} ({})", other.kind(), super::json::dump_short(other)))),
    };
    let mut out = Vec::new();
    let mut stack: Vec<(Rc<Vec<Value>>, usize, Value)> = vec![(Rc::new(top), 0, depth.clone())];
    while let Some((items, i, d)) = stack.pop() {
        let Some(v) = items.get(i) else { continue };
        let v = v.clone();
        stack.push((items, i + 1, d.clone()));
        match &v {
            Value::Arr(inner) if !d.equals(&Value::num(0.0)) => {
                let next = super::ops::binop(super::ast::Op::Sub, &d, &Value::num(1.0))?;
                stack.push((inner.clone(), 0, next));
            }
            _ => out.push(v),
        }
    }
    Ok(Value::arr(out))
}

fn math1(name: &str, x: f64) -> Option<f64> {
    Some(match name {
        "floor" => x.floor(),
        "sqrt" => x.sqrt(),
        "ceil" => x.ceil(),
        "round" => x.round(),
        "fabs" => x.abs(),
        "trunc" => x.trunc(),
        "rint" => {
            let r = x.round();
            if (x - x.trunc()).abs() == 0.5 {
                2.0 * (x / 2.0).round()
            } else {
                r
            }
        }
        "exp" => x.exp(),
        "exp2" => x.exp2(),
        "log" => x.ln(),
        "log10" => x.log10(),
        "log1p" => x.ln_1p(),
        "expm1" => x.exp_m1(),
        "log2" => x.log2(),
        "sin" => x.sin(),
        "cos" => x.cos(),
        "tan" => x.tan(),
        "asin" => x.asin(),
        "acos" => x.acos(),
        "atan" => x.atan(),
        "sinh" => x.sinh(),
        "cosh" => x.cosh(),
        "tanh" => x.tanh(),
        "asinh" => x.asinh(),
        "acosh" => x.acosh(),
        "atanh" => x.atanh(),
        "cbrt" => x.cbrt(),
        "lgamma" => lgamma(x),
        "tgamma" => lgamma(x).exp() * if x < 0.0 && (x.floor() as i64) % 2 != 0 { -1.0 } else { 1.0 },
        _ => return None,
    })
}

fn lgamma(x: f64) -> f64 {
    // Lanczos approximation.
    if x < 0.5 {
        let s = (std::f64::consts::PI / (std::f64::consts::PI * x).sin()).abs().ln();
        return s - lgamma(1.0 - x);
    }
    let g = 7.0;
    let c = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    let x = x - 1.0;
    let mut a = c[0];
    let t = x + g + 0.5;
    for (i, ci) in c.iter().enumerate().skip(1) {
        a += ci / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// `tostring`.
pub fn tostring(v: &Value) -> Value {
    match v {
        Value::Str(_) => v.clone(),
        other => Value::str(&to_json(other)),
    }
}

fn num_arg(v: &Value, name: &str) -> Result<f64, Flow> {
    let _ = name;
    v.as_f64().ok_or_else(|| type_error(v, "number required"))
}

/// Runs the value builtin `name` on `input` with argument values `args`.
pub fn value_native(cx: &mut Cx<'_>, name: &str, input: &Value, args: &[Value]) -> Result<Value, Flow> {
    let null = Value::Null;
    let a0 = args.first().unwrap_or(&null);
    let a1 = args.get(1).unwrap_or(&null);
    Ok(match name {
        "length" => input.length().map_err(err)?,
        "utf8bytelength" => Value::num(need_str(input, "only strings have UTF-8 byte length")?.len() as f64),
        "type" => Value::str(input.kind()),
        "modulemeta" => match input {
            Value::Str(name) => cx.library.modulemeta(name).map_err(err)?,
            _ => return Err(err("modulemeta input module name must be a string")),
        },
        "get_search_list" => Value::arr(cx.library.search_list.iter().map(|d| Value::str(d)).collect()),
        "get_prog_origin" => Value::str(&cx.library.prog_origin),
        "get_jq_origin" => Value::str(super::modules::ORIGIN),
        "keys" | "keys_unsorted" => match input {
            Value::Obj(o) => {
                let keys = if name == "keys" { o.sorted_keys() } else { o.iter().map(|(k, _)| k.clone()).collect() };
                Value::arr(keys.into_iter().map(Value::Str).collect())
            }
            Value::Arr(a) => Value::arr((0..a.len()).map(|i| Value::num(i as f64)).collect()),
            other => return Err(type_error(other, "has no keys")),
        },
        "_to_entries" => super::entries::to_entries(input).unwrap_or(Value::Null),
        "_from_entries" => super::entries::from_entries(input).unwrap_or(Value::Null),
        "has" => match (input, a0) {
            (Value::Obj(o), Value::Str(k)) => Value::Bool(o.get(k).is_some()),
            (Value::Arr(a), Value::Num(n, _)) => Value::Bool(*n >= 0.0 && (*n as usize) < a.len()),
            (Value::Null, _) => Value::Bool(false),
            _ => return Err(err(format!("Cannot check whether {} has a {} key", input.kind(), a0.kind()))),
        },
        "contains" => {
            if input.kind() != a0.kind() {
                return Err(type_error2(input, a0, "cannot have their containment checked"));
            }
            Value::Bool(contains(input, a0)?)
        }
        "tostring" => tostring(input),
        "tonumber" => match input {
            Value::Num(..) => input.clone(),
            Value::Str(s) => {
                // jq 1.7.1 parses the string (up to a NUL, as C reads it) as JSON.
                let text = s.split('\0').next().unwrap_or("");
                match parse_one(text) {
                    Ok(n @ Value::Num(..)) => n,
                    Ok(_) => return Err(type_error(input, "cannot be parsed as a number")),
                    Err(e) => return Err(err(format!("{e} (while parsing '{text}')"))),
                }
            }
            other => return Err(type_error(other, "cannot be parsed as a number")),
        },
        "tojson" => Value::str(&to_json(input)),
        "fromjson" => {
            let s = need_str(input, "only strings can be parsed")?;
            match parse_one(s) {
                Ok(v) => v,
                Err(e) => return Err(err(format!("{e} (while parsing '{s}')"))),
            }
        }
        "sort" => match input {
            Value::Arr(a) => Value::arr(sorted(a)?),
            other => return Err(type_error(other, "cannot be sorted, as it is not an array")),
        },
        "_sort_by" => {
            let mut pairs = keyed(input, a0, "sorted")?;
            sort_checked(&mut pairs, |x| x.0)?;
            Value::arr(pairs.into_iter().map(|(_, v)| v.clone()).collect())
        }
        "_group_by" => {
            let mut pairs = keyed(input, a0, "grouped")?;
            sort_checked(&mut pairs, |x| x.0)?;
            let mut groups: Vec<Value> = Vec::new();
            let mut current: Vec<Value> = Vec::new();
            let mut last: Option<&Value> = None;
            for (k, v) in pairs {
                if let Some(l) = last {
                    if !l.equals(k) {
                        groups.push(Value::arr(std::mem::take(&mut current)));
                    }
                }
                current.push(v.clone());
                last = Some(k);
            }
            if !current.is_empty() {
                groups.push(Value::arr(current));
            }
            Value::arr(groups)
        }
        "_unique_by" => {
            let mut pairs = keyed(input, a0, "sorted")?;
            sort_checked(&mut pairs, |x| x.0)?;
            let mut out: Vec<Value> = Vec::new();
            let mut last: Option<&Value> = None;
            for (k, v) in pairs {
                if last.is_none_or(|l| !l.equals(k)) {
                    out.push(v.clone());
                }
                last = Some(k);
            }
            Value::arr(out)
        }
        "_min_by" | "_max_by" => {
            let pairs = keyed(input, a0, "iterated over")?;
            let mut best: Option<(&Value, &Value)> = None;
            for (k, v) in pairs {
                best = match best {
                    None => Some((k, v)),
                    Some((bk, bv)) => {
                        let o = k.compare(bk);
                        let better = if name == "_min_by" { o == std::cmp::Ordering::Less } else { o != std::cmp::Ordering::Less };
                        if better {
                            Some((k, v))
                        } else {
                            Some((bk, bv))
                        }
                    }
                };
            }
            best.map(|(_, v)| v.clone()).unwrap_or(Value::Null)
        }
        "min" | "max" => match input {
            Value::Arr(a) => {
                let mut best: Option<&Value> = None;
                for v in a.iter() {
                    best = match best {
                        None => Some(v),
                        Some(b) => {
                            let o = v.compare(b);
                            if (name == "min" && o == std::cmp::Ordering::Less) || (name == "max" && o != std::cmp::Ordering::Less) {
                                Some(v)
                            } else {
                                Some(b)
                            }
                        }
                    };
                }
                best.cloned().unwrap_or(Value::Null)
            }
            other => return Err(type_error(other, "cannot be sorted, as it is not an array")),
        },
        "unique" => match input {
            Value::Arr(a) => {
                let mut v = sorted(a)?;
                v.dedup_by(|x, y| x.equals(y));
                Value::arr(v)
            }
            other => return Err(type_error(other, "cannot be sorted, as it is not an array")),
        },
        "reverse" => match input {
            Value::Arr(a) => Value::arr(a.iter().rev().cloned().collect()),
            Value::Str(s) => Value::str(&s.chars().rev().collect::<String>()),
            Value::Null => Value::arr(Vec::new()),
            other => return Err(type_error(other, "cannot be reversed, as it is not an array")),
        },
        "_flatten" => flatten(input, a0)?,
        "setpath" => match a0 {
            Value::Arr(p) => setpath(input, p, a1.clone())?,
            _ => return Err(err("Path must be specified as an array")),
        },
        "delpaths" => match a0 {
            Value::Arr(ps) => {
                let mut paths = Vec::new();
                for p in ps.iter() {
                    match p {
                        Value::Arr(p) => paths.push((**p).clone()),
                        _ => return Err(err("Path must be specified as an array")),
                    }
                }
                delpaths(input, &paths)?
            }
            _ => return Err(err("Paths must be specified as an array")),
        },
        "startswith" | "endswith" => match (input, a0) {
            (Value::Str(s), Value::Str(t)) => Value::Bool(if name == "startswith" { s.starts_with(&**t) } else { s.ends_with(&**t) }),
            _ => return Err(err(format!("{name}() requires string inputs"))),
        },
        "split" => match (input, a0) {
            (Value::Str(s), Value::Str(sep)) => split(s, sep),
            _ => return Err(err("split input and separator must be strings")),
        },
        "_strindices" => match (input, a0) {
            (Value::Str(s), Value::Str(t)) => {
                let mut out = Vec::new();
                if !t.is_empty() {
                    let mut start = 0;
                    while let Some(i) = s.get(start..).and_then(|r| r.find(&**t)) {
                        out.push(Value::num((start + i) as f64));
                        start += i + 1;
                        while !s.is_char_boundary(start) {
                            start += 1;
                        }
                    }
                }
                Value::arr(out)
            }
            _ => return Err(err("Cannot determine indices")),
        },
        "implode" => match input {
            Value::Arr(a) => {
                let mut s = String::new();
                for v in a.iter() {
                    match v {
                        Value::Num(n, _) if !n.is_nan() => {
                            let code = n.trunc();
                            let c = if (0.0..=1_114_111.0).contains(&code) { char::from_u32(code as u32) } else { None };
                            s.push(c.unwrap_or('\u{fffd}'));
                        }
                        other => {
                            return Err(err(format!(
                                "{} ({}) can't be imploded, unicode codepoint needs to be numeric",
                                other.kind(),
                                dump_short(other)
                            )));
                        }
                    }
                }
                Value::str(&s)
            }
            _ => return Err(err("implode input must be an array")),
        },
        "explode" => match input {
            Value::Str(s) => Value::arr(s.chars().map(|c| Value::num(c as u32 as f64)).collect()),
            _ => return Err(err("explode input must be a string")),
        },
        "infinite" => Value::num(f64::INFINITY),
        "nan" => Value::num(f64::NAN),
        "isinfinite" => Value::Bool(num_arg(input, "isinfinite")?.is_infinite()),
        "isnan" => Value::Bool(num_arg(input, "isnan")?.is_nan()),
        "isnormal" => Value::Bool(input.as_f64().is_some_and(f64::is_normal)),
        "isvalid" => Value::Bool(true),
        "trim" | "ltrim" | "rtrim" => {
            let s = need_str(input, "trim input must be a string")?;
            Value::str(match name {
                "trim" => s.trim(),
                "ltrim" => s.trim_start(),
                _ => s.trim_end(),
            })
        }
        "_match_impl" => super::regex::match_impl(input, a0, a1, args.get(2).is_some_and(Value::truthy))?,
        "strftime" | "strflocaltime" => super::time::strftime(input, a0, name)?,
        "strptime" => super::time::strptime(input, a0)?,
        "mktime" => super::time::mktime(input)?,
        "gmtime" | "localtime" => super::time::gmtime(input, name)?,
        "pow" => Value::num(num_arg(a0, "pow")?.powf(num_arg(a1, "pow")?)),
        "atan2" => Value::num(num_arg(a0, "atan2")?.atan2(num_arg(a1, "atan2")?)),
        "fmin" => Value::num(num_arg(a0, "fmin")?.min(num_arg(a1, "fmin")?)),
        "fmax" => Value::num(num_arg(a0, "fmax")?.max(num_arg(a1, "fmax")?)),
        "fmod" => Value::num(num_arg(a0, "fmod")? % num_arg(a1, "fmod")?),
        "frexp" => {
            let x = num_arg(input, "frexp")?;
            let (m, e) = frexp(x);
            Value::arr(vec![Value::num(m), Value::num(e as f64)])
        }
        "modf" => {
            let x = num_arg(input, "modf")?;
            let i = x.trunc();
            Value::arr(vec![Value::num(if x.is_infinite() { 0.0f64.copysign(x) } else { x - i }), Value::num(i)])
        }
        "lgamma_r" => {
            let x = num_arg(input, "lgamma_r")?;
            Value::arr(vec![Value::num(lgamma(x)), Value::num(1.0)])
        }
        _ => {
            if let Some(x) = input.as_f64() {
                if let Some(r) = math1(name, x) {
                    return Ok(Value::num(r));
                }
            }
            if super::builtins::MATH1.contains(&name) {
                return Err(type_error(input, "number required"));
            }
            let _ = cx;
            return Err(err(format!("{name} is not implemented")));
        }
    })
}

fn frexp(x: f64) -> (f64, i32) {
    if x == 0.0 || x.is_nan() || x.is_infinite() {
        return (x, 0);
    }
    let bits = x.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32;
    if exp == 0 {
        let (m, e) = frexp(x * 2f64.powi(54));
        return (m, e - 54);
    }
    let e = exp - 1022;
    let m = f64::from_bits((bits & !(0x7ff << 52)) | (1022 << 52));
    (m, e)
}

/// An object from members, for builtins building records.
pub fn record(members: &[(&str, Value)]) -> Value {
    let mut m = Map::new();
    for (k, v) in members {
        m.insert(Rc::from(*k), v.clone());
    }
    Value::Obj(Rc::new(m))
}
