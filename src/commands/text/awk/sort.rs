//! Ordering arrays: `PROCINFO["sorted_in"]` for `for (k in a)`, and
//! `asort`/`asorti`.

use super::ast::Expr;
use super::interp::{EResult, Interp, Stop};
use super::value::{str_to_num, Str, Value};
use crate::utility::Invocation;
use std::cmp::Ordering;

/// A built-in ordering.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Order {
    IndStr,
    IndNum,
    ValType,
    ValStr,
    ValNum,
}

fn parse_order(name: &[u8]) -> Option<(Order, bool)> {
    let text = std::str::from_utf8(name).ok()?;
    let (base, descending) = if let Some(base) = text.strip_suffix("_desc") { (base, true) } else { (text.strip_suffix("_asc")?, false) };
    let order = match base {
        "@ind_str" => Order::IndStr,
        "@ind_num" => Order::IndNum,
        "@val_type" => Order::ValType,
        "@val_str" => Order::ValStr,
        "@val_num" => Order::ValNum,
        _ => return None,
    };
    Some((order, descending))
}

fn type_rank(value: &Value) -> u8 {
    match value {
        Value::Num(_) => 0,
        Value::StrNum(s) if super::value::looks_numeric(s).is_some() => 0,
        Value::Uninit => 0,
        _ => 1,
    }
}

fn compare(it: &Interp<'_>, order: Order, a: &(Str, Value), b: &(Str, Value)) -> Ordering {
    let by_key = || a.0.as_ref().cmp(b.0.as_ref());
    match order {
        Order::IndStr => by_key(),
        Order::IndNum => str_to_num(&a.0).partial_cmp(&str_to_num(&b.0)).unwrap_or(Ordering::Equal).then_with(by_key),
        Order::ValStr => it.to_str(&a.1).as_ref().cmp(it.to_str(&b.1).as_ref()).then_with(by_key),
        Order::ValNum => a.1.num().partial_cmp(&b.1.num()).unwrap_or(Ordering::Equal).then_with(by_key),
        Order::ValType => {
            let (ra, rb) = (type_rank(&a.1), type_rank(&b.1));
            ra.cmp(&rb)
                .then_with(|| {
                    if ra == 0 {
                        a.1.num().partial_cmp(&b.1.num()).unwrap_or(Ordering::Equal)
                    } else {
                        it.to_str(&a.1).as_ref().cmp(it.to_str(&b.1).as_ref())
                    }
                })
                .then_with(by_key)
        }
    }
}

/// How a `sorted_in` value or `asort`'s third argument orders.
enum How {
    /// A built-in order, descending or not.
    Builtin(Order, bool),
    /// A user comparison function, by index.
    User(usize),
    /// gawk's own order.
    Unsorted,
}

fn how_of(it: &Interp<'_>, name: &[u8]) -> EResult<How> {
    if let Some((order, descending)) = parse_order(name) {
        return Ok(How::Builtin(order, descending));
    }
    if name.is_empty() || name.starts_with(b"@") {
        return Ok(How::Unsorted);
    }
    match it.prog.functions.iter().position(|f| f.defined && f.name.as_bytes() == name) {
        Some(index) => Ok(How::User(index)),
        None => Err(Stop::Fatal(format!("sort comparison function `{}' is not defined", String::from_utf8_lossy(name)))),
    }
}

/// Sorts `pairs` as `how` says.
fn sort_pairs(it: &mut Interp<'_>, ctx: &Invocation<'_>, how: How, pairs: Vec<(Str, Value)>) -> EResult<Vec<(Str, Value)>> {
    match how {
        How::Builtin(order, descending) => {
            let mut pairs = pairs;
            pairs.sort_by(|a, b| {
                let ordering = compare(it, order, a, b);
                if descending {
                    ordering.reverse()
                } else {
                    ordering
                }
            });
            Ok(pairs)
        }
        How::User(index) => {
            let mut order: Vec<usize> = (0..pairs.len()).collect();
            let mut scratch = order.clone();
            merge_sort(&mut order, &mut scratch, &mut |a, b| {
                let (Some(a), Some(b)) = (pairs.get(a), pairs.get(b)) else {
                    return Ok(true);
                };
                it.step(ctx)?;
                let args = vec![Value::StrNum(a.0.clone()), a.1.clone(), Value::StrNum(b.0.clone()), b.1.clone()];
                Ok(it.call_values(ctx, index, args)?.num() <= 0.0)
            })?;
            Ok(order.into_iter().filter_map(|i| pairs.get(i).cloned()).collect())
        }
        How::Unsorted => Ok(pairs),
    }
}

/// A stable top-down merge sort with a comparison that may fail (a user
/// function); `first_le(a, b)` says `a` may come before `b`. Never panics,
/// whatever the comparison answers.
fn merge_sort(items: &mut [usize], scratch: &mut [usize], first_le: &mut dyn FnMut(usize, usize) -> EResult<bool>) -> EResult<()> {
    let n = items.len();
    if n < 2 || scratch.len() < n {
        return Ok(());
    }
    let half = n / 2;
    {
        let (left, right) = items.split_at_mut(half);
        let (left_scratch, right_scratch) = scratch.split_at_mut(half);
        merge_sort(left, left_scratch, first_le)?;
        merge_sort(right, right_scratch, first_le)?;
    }
    let (mut i, mut j, mut k) = (0, half, 0);
    while i < half && j < n {
        if first_le(items[i], items[j])? {
            scratch[k] = items[i];
            i += 1;
        } else {
            scratch[k] = items[j];
            j += 1;
        }
        k += 1;
    }
    while i < half {
        scratch[k] = items[i];
        i += 1;
        k += 1;
    }
    while j < n {
        scratch[k] = items[j];
        j += 1;
        k += 1;
    }
    items.copy_from_slice(&scratch[..n]);
    Ok(())
}

/// The keys of `array` in the order `sorted_in` names: a built-in order,
/// a user comparison function, or gawk's own order for `@unsorted`.
pub fn ordered_keys(it: &mut Interp<'_>, ctx: &Invocation<'_>, array: &super::vars::ArrayRef, sorted_in: &[u8]) -> EResult<Vec<Str>> {
    let how = how_of(it, sorted_in)?;
    if let How::Unsorted = how {
        return Ok(super::order::gawk_order(array.borrow().keys()));
    }
    let keys = super::order::gawk_order(array.borrow().keys());
    let pairs = {
        let array = array.borrow();
        keys.into_iter()
            .map(|k| {
                let value = array.get(&k).cloned().unwrap_or_default();
                (k, value)
            })
            .collect()
    };
    let sorted = sort_pairs(it, ctx, how, pairs)?;
    Ok(sorted.into_iter().map(|(k, _)| k).collect())
}

/// `asort(src [, dest [, how]])` and `asorti`.
pub fn asort(it: &mut Interp<'_>, ctx: &Invocation<'_>, args: &[Expr], indices: bool) -> EResult<Value> {
    let name = if indices { "asorti" } else { "asort" };
    let array_of = |it: &mut Interp<'_>, i: usize| -> EResult<super::vars::ArrayRef> {
        match args.get(i) {
            Some(Expr::Var(var)) => it.array(*var).map_err(|_| Stop::Fatal(format!("{name}: argument {} is not an array", i + 1))),
            _ => Err(Stop::Fatal(format!("{name}: argument {} is not an array", i + 1))),
        }
    };
    let source = array_of(it, 0)?;
    let dest = if args.len() > 1 { array_of(it, 1)? } else { source.clone() };
    let how = match args.get(2) {
        Some(e) => {
            let value = it.eval(ctx, e)?;
            Some(it.to_str(&value).to_vec())
        }
        None => None,
    };
    let how = match &how {
        Some(text) => match how_of(it, text)? {
            How::Unsorted => return Err(Stop::Fatal(format!("{name}: invalid sort specification `{}'", String::from_utf8_lossy(text)))),
            other => other,
        },
        None if indices => How::Builtin(Order::IndStr, false),
        None => How::Builtin(Order::ValType, false),
    };
    let pairs = source.borrow().pairs();
    let pairs = sort_pairs(it, ctx, how, pairs)?;
    let count = pairs.len();
    let mut dest = dest.borrow_mut();
    dest.clear();
    for (i, (key, value)) in pairs.into_iter().enumerate() {
        let slot = (i + 1).to_string();
        if indices {
            dest.set(slot.as_bytes(), Value::StrNum(key));
        } else {
            dest.set(slot.as_bytes(), value);
        }
    }
    Ok(Value::Num(count as f64))
}
