//! Ordering arrays: `PROCINFO["sorted_in"]` for `for (k in a)`, and
//! `asort`/`asorti`.

use super::ast::Expr;
use super::interp::{EResult, Interp, Stop};
use super::value::{str_to_num, Str, Value};
use super::vars::{Array, Cell};
use crate::utility::Invocation;
use std::cmp::Ordering;
use std::rc::Rc;

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
    let (base, descending) = if let Some(base) = text.strip_suffix("_desc") {
        (base, true)
    } else {
        (text.strip_suffix("_asc")?, false)
    };
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

/// The keys of `array` in the order `sorted_in` names (insertion order
/// for `@unsorted` or an unknown name).
pub fn ordered_keys(it: &Interp<'_>, array: &Array, sorted_in: &[u8]) -> EResult<Vec<Str>> {
    let Some((order, descending)) = parse_order(sorted_in) else {
        return Ok(super::order::gawk_order(array.keys()));
    };
    let mut pairs = array.pairs();
    pairs.sort_by(|a, b| {
        let ordering = compare(it, order, a, b);
        if descending {
            ordering.reverse()
        } else {
            ordering
        }
    });
    Ok(pairs.into_iter().map(|(k, _)| k).collect())
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
    let mut pairs = source.borrow().pairs();
    let (order, descending) = match &how {
        Some(how) => parse_order(how).ok_or_else(|| Stop::Fatal(format!("{name}: invalid sort specification `{}'", String::from_utf8_lossy(how))))?,
        None if indices => (Order::IndStr, false),
        None => (Order::ValType, false),
    };
    pairs.sort_by(|a, b| {
        let ordering = compare(it, order, a, b);
        if descending {
            ordering.reverse()
        } else {
            ordering
        }
    });
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
    let _ = Cell::default();
    let _: Rc<[u8]> = Rc::from(&b""[..]);
    Ok(Value::Num(count as f64))
}
