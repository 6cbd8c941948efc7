//! Reading, writing and deleting values at paths (`getpath`, `setpath`,
//! `delpaths`), the ground of jq's assignments.

use super::eval::{err, Flow};
use super::json::dump_short;
use super::ops::{index_value, slice_bounds};
use super::value::{Map, Value};
use std::rc::Rc;

/// The value at `path` in `v` (`null` where it does not exist).
pub fn getpath(v: &Value, path: &[Value]) -> Result<Value, Flow> {
    let mut cur = v.clone();
    for (i, k) in path.iter().enumerate() {
        if matches!(cur, Value::Null) {
            return Ok(Value::Null);
        }
        cur = match index_value(&cur, k) {
            Ok(x) => x,
            Err(e) => {
                let _ = i;
                return Err(e);
            }
        };
    }
    Ok(cur)
}

/// `v` with the value at `path` replaced by `new`.
pub fn setpath(v: &Value, path: &[Value], new: Value) -> Result<Value, Flow> {
    let Some((k, rest)) = path.split_first() else {
        return Ok(new);
    };
    match (v, k) {
        (Value::Obj(_) | Value::Null, Value::Str(key)) => {
            let mut m = match v {
                Value::Obj(o) => (**o).clone(),
                _ => Map::new(),
            };
            let child = m.get(key).cloned().unwrap_or(Value::Null);
            let child = setpath(&child, rest, new)?;
            m.insert(key.clone(), child);
            Ok(Value::Obj(Rc::new(m)))
        }
        (Value::Arr(_) | Value::Null, Value::Num(n, _)) => {
            let mut a = match v {
                Value::Arr(a) => (**a).clone(),
                _ => Vec::new(),
            };
            if n.is_nan() {
                return Err(err("Cannot set array element at NaN index"));
            }
            let mut i = n.floor() as i64;
            if i < 0 {
                i += a.len() as i64;
                if i < 0 {
                    return Err(err("Out of bounds negative array index"));
                }
            }
            let i = i as usize;
            if i > 100_000_000 {
                return Err(err("Array index too large"));
            }
            let child = a.get(i).cloned().unwrap_or(Value::Null);
            let child = setpath(&child, rest, new)?;
            if i >= a.len() {
                a.resize(i + 1, Value::Null);
            }
            if let Some(slot) = a.get_mut(i) {
                *slot = child;
            }
            Ok(Value::arr(a))
        }
        (Value::Arr(_) | Value::Null, Value::Obj(o)) => {
            let a = match v {
                Value::Arr(a) => (**a).clone(),
                _ => Vec::new(),
            };
            let from = o.get("start").cloned().unwrap_or(Value::Null);
            let to = o.get("end").cloned().unwrap_or(Value::Null);
            let (s, e) = slice_bounds(a.len(), &from, &to)?;
            let cur = Value::arr(a.get(s..e).unwrap_or(&[]).to_vec());
            let repl = setpath(&cur, rest, new)?;
            let Value::Arr(repl) = repl else {
                return Err(err("A slice of an array can only be assigned another array"));
            };
            let mut out = a.get(..s).unwrap_or(&[]).to_vec();
            out.extend(repl.iter().cloned());
            out.extend(a.get(e..).unwrap_or(&[]).iter().cloned());
            Ok(Value::arr(out))
        }
        (Value::Obj(_), _) => Err(err(format!("Cannot index object with {}", k.kind()))),
        (Value::Arr(_), Value::Str(s)) => Err(err(format!("Cannot index array with string \"{s}\""))),
        (Value::Arr(_), _) => Err(err(format!("Cannot index array with {}", k.kind()))),
        (Value::Null, _) => Err(err(format!("Cannot index null with {}", k.kind()))),
        (_, Value::Str(s)) => Err(err(format!("Cannot index {} with string \"{s}\"", v.kind()))),
        _ => Err(err(format!("Cannot index {} with {}", v.kind(), k.kind()))),
    }
}

/// `v` with every path in `paths` deleted (longest paths first, as jq does).
pub fn delpaths(v: &Value, paths: &[Vec<Value>]) -> Result<Value, Flow> {
    let mut sorted: Vec<&Vec<Value>> = paths.iter().collect();
    sorted.sort_by(|a, b| Value::arr(b.to_vec()).compare(&Value::arr(a.to_vec())));
    let mut cur = v.clone();
    for p in sorted {
        cur = delpath(&cur, p)?;
    }
    Ok(cur)
}

fn delpath(v: &Value, path: &[Value]) -> Result<Value, Flow> {
    let Some((k, rest)) = path.split_first() else {
        return Ok(Value::Null);
    };
    if matches!(v, Value::Null) {
        return Ok(Value::Null);
    }
    if !rest.is_empty() {
        let child = index_value(v, k)?;
        if matches!(child, Value::Null) && !matches!(k, Value::Obj(_)) {
            return Ok(v.clone());
        }
        let child = delpath(&child, rest)?;
        return setpath(v, std::slice::from_ref(k), child);
    }
    match (v, k) {
        (Value::Obj(o), Value::Str(key)) => {
            let mut m = (**o).clone();
            m.remove(key);
            Ok(Value::Obj(Rc::new(m)))
        }
        (Value::Arr(a), Value::Num(n, _)) => {
            let mut i = n.floor() as i64;
            if i < 0 {
                i += a.len() as i64;
                if i < 0 {
                    return Err(err("Out of bounds negative array index"));
                }
            }
            let mut a = (**a).clone();
            if (i as usize) < a.len() {
                a.remove(i as usize);
            }
            Ok(Value::arr(a))
        }
        (Value::Arr(a), Value::Obj(o)) => {
            let from = o.get("start").cloned().unwrap_or(Value::Null);
            let to = o.get("end").cloned().unwrap_or(Value::Null);
            let (s, e) = slice_bounds(a.len(), &from, &to)?;
            let mut out = a.get(..s).unwrap_or(&[]).to_vec();
            out.extend(a.get(e..).unwrap_or(&[]).iter().cloned());
            Ok(Value::arr(out))
        }
        (Value::Obj(_), _) => Err(err(format!("Cannot delete field at {} index of object", k.kind()))),
        (Value::Arr(_), _) => Err(err(format!("Cannot delete {} element of array", k.kind()))),
        _ => Err(err(format!("Cannot delete fields from {}", v.kind()))),
    }
    .map_err(|e| match e {
        Flow::Err(Value::Str(s)) if s.is_empty() => err(dump_short(v)),
        other => other,
    })
}
