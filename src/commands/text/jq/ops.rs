//! jq's arithmetic and comparison operators, indexing and slicing.

use super::ast::Op;
use super::eval::{err, type_error2, Flow};
use super::value::{Map, Value};
use std::cmp::Ordering;
use std::rc::Rc;

/// Applies a binary operator.
pub fn binop(op: Op, a: &Value, b: &Value) -> Result<Value, Flow> {
    Ok(match op {
        Op::Add => add(a, b)?,
        Op::Sub => match (a, b) {
            (Value::Num(x, _), Value::Num(y, _)) => Value::num(x - y),
            (Value::Arr(x), Value::Arr(y)) => Value::arr(x.iter().filter(|v| !y.iter().any(|w| w.equals(v))).cloned().collect()),
            _ => return Err(type_error2(a, b, "cannot be subtracted")),
        },
        Op::Mul => match (a, b) {
            (Value::Num(x, _), Value::Num(y, _)) => Value::num(x * y),
            (Value::Str(s), Value::Num(n, _)) | (Value::Num(n, _), Value::Str(s)) => repeat(s, *n)?,
            (Value::Obj(x), Value::Obj(y)) => Value::Obj(Rc::new(deep_merge(x, y, 0)?)),
            _ => return Err(type_error2(a, b, "cannot be multiplied")),
        },
        Op::Div => match (a, b) {
            (Value::Num(x, _), Value::Num(y, _)) => {
                if *y == 0.0 {
                    return Err(type_error2(a, b, "cannot be divided because the divisor is zero"));
                }
                Value::num(x / y)
            }
            (Value::Str(x), Value::Str(y)) => split(x, y),
            _ => return Err(type_error2(a, b, "cannot be divided")),
        },
        Op::Mod => match (a, b) {
            (Value::Num(x, _), Value::Num(y, _)) => {
                if x.is_nan() || y.is_nan() {
                    return Ok(Value::num(f64::NAN));
                }
                let xi = to_int(*x);
                let yi = to_int(*y);
                if yi == 0 {
                    return Err(type_error2(a, b, "cannot be divided (remainder) because the divisor is zero"));
                }
                if x.is_nan() || y.is_nan() {
                    Value::num(f64::NAN)
                } else {
                    let r = (xi.unsigned_abs() % yi.unsigned_abs()) as f64;
                    Value::num(if xi < 0 { -r } else { r })
                }
            }
            _ => return Err(type_error2(a, b, "cannot be divided (remainder)")),
        },
        Op::Eq | Op::Ne => {
            let e = a.equals_checked(b).map_err(|_| err("Equality check too deep"))?;
            Value::Bool(e == (op == Op::Eq))
        }
        Op::Lt | Op::Le | Op::Gt | Op::Ge => {
            let o = a.compare_checked(b).map_err(|_| err("Comparison too deep"))?;
            Value::Bool(match op {
                Op::Lt => o == Ordering::Less,
                Op::Le => o != Ordering::Greater,
                Op::Gt => o == Ordering::Greater,
                _ => o != Ordering::Less,
            })
        }
    })
}

/// Truncates toward zero into an i64 as C's cast to `intmax_t` does (saturating).
pub fn to_int(x: f64) -> i64 {
    if x.is_nan() {
        0
    } else {
        x as i64
    }
}

/// `s * n`; a result beyond 256 MiB is an error (jq 1.8's message; 1.7.1 tries to build it).
fn repeat(s: &str, n: f64) -> Result<Value, Flow> {
    if n < 0.0 || n.is_nan() {
        return Ok(Value::Null);
    }
    let times = n as usize;
    if s.len().saturating_mul(times) > 1 << 28 {
        return Err(err("Repeat string result too long"));
    }
    Ok(Value::str(&s.repeat(times)))
}

/// `a + b`.
pub fn add(a: &Value, b: &Value) -> Result<Value, Flow> {
    Ok(match (a, b) {
        (Value::Null, x) | (x, Value::Null) => x.clone(),
        (Value::Num(x, _), Value::Num(y, _)) => Value::num(x + y),
        (Value::Str(x), Value::Str(y)) => {
            let mut s = String::with_capacity(x.len() + y.len());
            s.push_str(x);
            s.push_str(y);
            Value::str(&s)
        }
        (Value::Arr(x), Value::Arr(y)) => {
            let mut v = Vec::with_capacity(x.len() + y.len());
            v.extend(x.iter().cloned());
            v.extend(y.iter().cloned());
            Value::arr(v)
        }
        (Value::Obj(x), Value::Obj(y)) => {
            let mut m = (**x).clone();
            for (k, v) in y.iter() {
                m.insert(k.clone(), v.clone());
            }
            Value::Obj(Rc::new(m))
        }
        _ => return Err(type_error2(a, b, "cannot be added")),
    })
}

fn deep_merge(x: &Map, y: &Map, depth: usize) -> Result<Map, Flow> {
    if depth > super::value::MAX_COMPARE_DEPTH {
        return Err(err("Object merge too deep"));
    }
    let mut m = x.clone();
    for (k, v) in y.iter() {
        let merged = match (m.get(k), v) {
            (Some(Value::Obj(a)), Value::Obj(b)) => Value::Obj(Rc::new(deep_merge(a, b, depth + 1)?)),
            _ => v.clone(),
        };
        m.insert(k.clone(), merged);
    }
    Ok(m)
}

/// `a / b` on strings: split by a separator.
pub fn split(s: &str, sep: &str) -> Value {
    if s.is_empty() {
        return Value::arr(Vec::new());
    }
    if sep.is_empty() {
        return Value::arr(s.chars().map(|c| Value::str(c.encode_utf8(&mut [0; 4]))).collect());
    }
    Value::arr(s.split(sep).map(Value::str).collect())
}

/// `base[key]`.
pub fn index_value(base: &Value, key: &Value) -> Result<Value, Flow> {
    match (base, key) {
        (Value::Obj(o), Value::Str(k)) => Ok(o.get(k).cloned().unwrap_or(Value::Null)),
        (Value::Arr(a), Value::Num(n, _)) => {
            if n.is_nan() {
                return Ok(Value::Null);
            }
            let i = n.floor().clamp(i32::MIN as f64, i32::MAX as f64) as i64;
            let i = if i < 0 { i + a.len() as i64 } else { i };
            if i < 0 {
                return Ok(Value::Null);
            }
            Ok(a.get(i as usize).cloned().unwrap_or(Value::Null))
        }
        (Value::Null, Value::Str(_) | Value::Num(..) | Value::Obj(_)) => Ok(Value::Null),
        (Value::Arr(_) | Value::Str(_), Value::Obj(o)) => {
            let from = o.get("start").cloned().unwrap_or(Value::Null);
            let to = o.get("end").cloned().unwrap_or(Value::Null);
            slice_value(base, &from, &to)
        }
        (Value::Arr(a), Value::Arr(b)) => Ok(indices_of(a, b)),
        (_, Value::Str(k)) if k.len() < 30 => Err(err(format!("Cannot index {} with string \"{}\"", base.kind(), k))),
        _ => Err(err(format!("Cannot index {} with {}", base.kind(), key.kind()))),
    }
}

/// The positions where `b` occurs in `a` as a sub-array.
pub fn indices_of(a: &[Value], b: &[Value]) -> Value {
    let mut out = Vec::new();
    if b.is_empty() {
        return Value::Null;
    }
    if a.len() >= b.len() {
        for i in 0..=a.len() - b.len() {
            if a.iter().skip(i).zip(b.iter()).all(|(x, y)| x.equals(y)) {
                out.push(Value::num(i as f64));
            }
        }
    }
    Value::arr(out)
}

/// Resolves slice bounds over a length as jq does.
pub fn slice_bounds(len: usize, from: &Value, to: &Value) -> Result<(usize, usize), Flow> {
    let len_f = len as f64;
    let start = match from {
        Value::Null => 0.0,
        Value::Num(n, _) => *n,
        _ => return Err(err("Start and end indices of an array slice must be numbers")),
    };
    let end = match to {
        Value::Null => len_f,
        Value::Num(n, _) => *n,
        _ => return Err(err("Start and end indices of an array slice must be numbers")),
    };
    let mut s = if start.is_nan() { 0.0 } else { start };
    if s < 0.0 {
        s += len_f;
    }
    let s = s.clamp(0.0, len_f).floor();
    let mut e = if end.is_nan() { len_f } else { end };
    if e < 0.0 {
        e += len_f;
    }
    let e = if e < 0.0 { s } else { e };
    let e = e.min(len_f);
    let e = e.ceil().min(len_f);
    let e = if e < s { s } else { e };
    Ok((s as usize, e as usize))
}

/// `base[from:to]`.
pub fn slice_value(base: &Value, from: &Value, to: &Value) -> Result<Value, Flow> {
    match base {
        Value::Null => Ok(Value::Null),
        Value::Arr(a) => {
            let (s, e) = slice_bounds(a.len(), from, to)?;
            Ok(Value::arr(a.get(s..e).unwrap_or(&[]).to_vec()))
        }
        Value::Str(st) => {
            // jq slices strings by code points.
            let chars: Vec<char> = st.chars().collect();
            let (s, e) = slice_bounds(chars.len(), from, to)?;
            Ok(Value::str(&chars.get(s..e).unwrap_or(&[]).iter().collect::<String>()))
        }
        _ => Err(err(format!("Cannot index {} with object", base.kind()))),
    }
}
