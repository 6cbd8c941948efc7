//! Reading, writing and deleting values at paths (`getpath`, `setpath`,
//! `delpaths`), the ground of jq's assignments.

use super::eval::{err, Flow};
use super::ops::{index_value, slice_bounds};
use super::value::{Map, Value};
use std::rc::Rc;

/// The longest path the path functions accept.
const MAX_PATH: usize = 10000;

/// The value at `path` in `v` (`null` where it does not exist).
pub fn getpath(v: &Value, path: &[Value]) -> Result<Value, Flow> {
    if path.len() > MAX_PATH {
        return Err(err("Path too deep"));
    }
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
    set_owned(v.clone(), path, new)
}

/// [`setpath`] on a value the caller gives up: containers held only by it
/// are updated in place (copy on write), so a loop updating one
/// accumulator (`reduce range(n) as $i ([]; .[$i] = $i)`) takes linear time.
pub fn set_owned(mut v: Value, path: &[Value], new: Value) -> Result<Value, Flow> {
    if path.len() > MAX_PATH {
        return Err(err("Path too deep"));
    }
    let Some((k, rest)) = path.split_first() else {
        return Ok(new);
    };
    match (&mut v, k) {
        (Value::Obj(_) | Value::Null, Value::Str(key)) => {
            if matches!(v, Value::Null) {
                v = Value::Obj(Rc::new(Map::new()));
            }
            let Value::Obj(rc) = &mut v else {
                return Ok(v);
            };
            let m = Rc::make_mut(rc);
            let child = m.get_mut(key).map(|slot| std::mem::replace(slot, Value::Null)).unwrap_or(Value::Null);
            let child = set_owned(child, rest, new)?;
            m.insert(key.clone(), child);
            Ok(v)
        }
        (Value::Arr(_) | Value::Null, Value::Num(n, _)) => {
            if n.is_nan() {
                return Err(err("Cannot set array element at NaN index"));
            }
            if matches!(v, Value::Null) {
                v = Value::arr(Vec::new());
            }
            let Value::Arr(rc) = &mut v else {
                return Ok(v);
            };
            let len = rc.len();
            let mut i = n.floor() as i64;
            if i < 0 {
                i += len as i64;
                if i < 0 {
                    return Err(err("Out of bounds negative array index"));
                }
            }
            let i = i as usize;
            if i > 10_000_000 {
                return Err(err("Array index too large"));
            }
            let a = Rc::make_mut(rc);
            let child = a.get_mut(i).map(|slot| std::mem::replace(slot, Value::Null)).unwrap_or(Value::Null);
            let child = set_owned(child, rest, new)?;
            if i >= a.len() {
                a.resize(i + 1, Value::Null);
            }
            if let Some(slot) = a.get_mut(i) {
                *slot = child;
            }
            Ok(v)
        }
        (Value::Arr(_) | Value::Null, Value::Obj(o)) => {
            let a = match &v {
                Value::Arr(a) => (**a).clone(),
                _ => Vec::new(),
            };
            let from = o.get("start").cloned().unwrap_or(Value::Null);
            let to = o.get("end").cloned().unwrap_or(Value::Null);
            let (s, e) = slice_bounds(a.len(), &from, &to)?;
            let cur = Value::arr(a.get(s..e).unwrap_or(&[]).to_vec());
            let repl = setpath(&cur, rest, new)?;
            let Value::Arr(repl) = &repl else {
                return Err(err("A slice of an array can only be assigned another array"));
            };
            let mut out = a.get(..s).unwrap_or(&[]).to_vec();
            out.extend(repl.iter().cloned());
            out.extend(a.get(e..).unwrap_or(&[]).iter().cloned());
            Ok(Value::arr(out))
        }
        (Value::Str(_), Value::Obj(_)) => Err(err("Cannot update string slices")),
        (Value::Arr(_), Value::Arr(_)) => Err(err("Cannot update field at array index of array")),
        (Value::Obj(_), _) => Err(err(format!("Cannot index object with {}", k.kind()))),
        (Value::Arr(_), Value::Str(s)) => Err(err(format!("Cannot index array with string \"{s}\""))),
        (Value::Arr(_), _) => Err(err(format!("Cannot index array with {}", k.kind()))),
        (Value::Null, _) => Err(err(format!("Cannot index null with {}", k.kind()))),
        (_, Value::Str(s)) => Err(err(format!("Cannot index {} with string \"{s}\"", v.kind()))),
        _ => Err(err(format!("Cannot index {} with {}", v.kind(), k.kind()))),
    }
}

/// `v` with every path in `paths` deleted. Array elements named by
/// several paths are removed together, indices counted in the original
/// array, as jq does.
pub fn delpaths(v: &Value, paths: &[Vec<Value>]) -> Result<Value, Flow> {
    if paths.iter().any(|p| p.len() > MAX_PATH) {
        return Err(err("Path too deep"));
    }
    if paths.iter().any(Vec::is_empty) {
        return Ok(Value::Null);
    }
    if paths.is_empty() {
        return Ok(v.clone());
    }
    match v {
        Value::Null => Ok(Value::Null),
        Value::Obj(o) => {
            let mut m = (**o).clone();
            let mut keys: Vec<&Value> = paths.iter().filter_map(|p| p.first()).collect();
            keys.dedup_by(|a, b| a.equals(b));
            for k in keys {
                let Value::Str(key) = k else {
                    return Err(err(format!("Cannot delete field at {} index of object", k.kind())));
                };
                let group: Vec<&Vec<Value>> = paths.iter().filter(|p| p.first().is_some_and(|f| f.equals(k))).collect();
                if group.iter().any(|p| p.len() == 1) {
                    m.remove(key);
                    continue;
                }
                if let Some(child) = m.get(key).cloned() {
                    let rests: Vec<Vec<Value>> = group.iter().map(|p| p.get(1..).unwrap_or(&[]).to_vec()).collect();
                    let child = delpaths(&child, &rests)?;
                    m.insert(key.clone(), child);
                }
            }
            Ok(Value::Obj(Rc::new(m)))
        }
        Value::Arr(a) => {
            let len = a.len();
            let mut items = (**a).clone();
            let mut remove = vec![false; len];
            for p in paths {
                let Some(k) = p.first() else { continue };
                let rest = p.get(1..).unwrap_or(&[]);
                match k {
                    Value::Num(n, _) => {
                        if n.is_nan() {
                            continue;
                        }
                        let mut i = n.floor() as i64;
                        if i < 0 {
                            i += len as i64;
                        }
                        if i < 0 || i as usize >= len {
                            continue;
                        }
                        let i = i as usize;
                        if rest.is_empty() {
                            if let Some(r) = remove.get_mut(i) {
                                *r = true;
                            }
                        } else if let Some(child) = items.get(i).cloned() {
                            let child = delpaths(&child, &[rest.to_vec()])?;
                            if let Some(slot) = items.get_mut(i) {
                                *slot = child;
                            }
                        }
                    }
                    Value::Obj(o) => {
                        let from = o.get("start").cloned().unwrap_or(Value::Null);
                        let to = o.get("end").cloned().unwrap_or(Value::Null);
                        let (s, e) = slice_bounds(len, &from, &to)?;
                        if rest.is_empty() {
                            for r in remove.iter_mut().take(e).skip(s) {
                                *r = true;
                            }
                        } else {
                            return Err(err("Cannot delete a path inside an array slice"));
                        }
                    }
                    other => return Err(err(format!("Cannot delete {} element of array", other.kind()))),
                }
            }
            let kept: Vec<Value> = items.into_iter().zip(remove).filter(|(_, r)| !r).map(|(v, _)| v).collect();
            Ok(Value::arr(kept))
        }
        other => {
            let k = paths.first().and_then(|p| p.first()).cloned().unwrap_or(Value::Null);
            match k {
                Value::Str(_) => Err(err(format!("Cannot delete field at object index of {}", other.kind()))),
                _ => Err(err(format!("Cannot delete fields from {}", other.kind()))),
            }
        }
    }
}
