//! The built-in functions that do no I/O: string functions (on
//! characters), regex functions (`sub`, `gsub`, `gensub`, `match`,
//! `split`, `patsplit`), arithmetic, bit operations, time and types.

use super::ast::{Builtin, Expr, Var};
use super::eval::bool_value;
use super::interp::{EResult, Interp, Stop};
use super::text::{byte_offset, change_case, char_count, char_index, char_len_at};
use super::value::{Str, Value};
use super::vars::{Array, Cell, RLENGTH, RSTART};
use crate::regex::Regex;
use crate::utility::Invocation;
use std::rc::Rc;

/// Calls `builtin` with argument expressions owned by the caller.
pub fn call_owned(it: &mut Interp<'_>, ctx: &Invocation<'_>, builtin: Builtin, args: Vec<Expr>) -> EResult<Value> {
    call(it, ctx, builtin, &args)
}

fn arg_str(it: &mut Interp<'_>, ctx: &Invocation<'_>, args: &[Expr], i: usize) -> EResult<Str> {
    match args.get(i) {
        Some(e) => {
            let value = it.eval(ctx, e)?;
            Ok(it.to_str(&value))
        }
        None => Ok(Str::from(&b""[..])),
    }
}

fn arg_num(it: &mut Interp<'_>, ctx: &Invocation<'_>, args: &[Expr], i: usize) -> EResult<f64> {
    match args.get(i) {
        Some(e) => Ok(it.eval(ctx, e)?.num()),
        None => Ok(0.0),
    }
}

fn array_arg(it: &mut Interp<'_>, args: &[Expr], i: usize, function: &str) -> EResult<super::vars::ArrayRef> {
    match args.get(i) {
        Some(Expr::Var(var)) => it.array(*var).map_err(|_| Stop::Fatal(format!("{function}: argument {} is not an array", i + 1))),
        _ => Err(Stop::Fatal(format!("{function}: argument {} is not an array", i + 1))),
    }
}

/// Runs a built-in.
pub fn call(it: &mut Interp<'_>, ctx: &Invocation<'_>, builtin: Builtin, args: &[Expr]) -> EResult<Value> {
    use Builtin::*;
    Ok(match builtin {
        Length => match args.first() {
            None => Value::Num(char_count(&it.record) as f64),
            Some(Expr::Var(var)) if *var != Var::Global(super::vars::NF) => {
                let cell = it.cell_ref(*var).clone();
                match cell {
                    Cell::Arr(array) => Value::Num(array.borrow().len() as f64),
                    Cell::Val(value) => Value::Num(char_count(&it.to_str(&value)) as f64),
                }
            }
            Some(_) => Value::Num(char_count(&arg_str(it, ctx, args, 0)?) as f64),
        },
        Substr => {
            let s = arg_str(it, ctx, args, 0)?;
            let m = arg_num(it, ctx, args, 1)?;
            let start = if m.is_nan() || m < 1.0 { 1.0 } else { m.trunc() };
            let total = char_count(&s) as f64;
            let length = if args.len() > 2 {
                let n = arg_num(it, ctx, args, 2)?;
                if n.is_nan() || n < 1.0 {
                    return Ok(Value::str(b""));
                }
                n.trunc()
            } else {
                total
            };
            if start > total {
                return Ok(Value::str(b""));
            }
            let from = byte_offset(&s, (start - 1.0) as usize);
            let end_char = (start - 1.0 + length).min(total);
            let to = byte_offset(&s, end_char as usize);
            Value::str(s.get(from..to).unwrap_or(&[]))
        }
        Index => {
            if matches!(args.get(1), Some(Expr::TypedRegex(..))) {
                return Err(Stop::Fatal("index: regexp constant as second argument is not allowed".into()));
            }
            let s = arg_str(it, ctx, args, 0)?;
            let t = arg_str(it, ctx, args, 1)?;
            let found = if t.is_empty() {
                Some(0)
            } else if it.fold {
                memchr::memmem::find(&change_case(&s, false), &change_case(&t, false))
            } else {
                memchr::memmem::find(&s, &t)
            };
            Value::Num(found.map_or(0.0, |at| (char_index(&s, at) + 1) as f64))
        }
        Split => split(it, ctx, args, false)?,
        Patsplit => split(it, ctx, args, true)?,
        Sub | Gsub => {
            let regex = regex_arg(it, ctx, &args[0])?;
            let replacement = arg_str(it, ctx, args, 1)?;
            let resolved = match args.get(2) {
                None => super::eval::Resolved::Field(0.0),
                Some(e) => match it.resolve_expr(ctx, e)? {
                    Some(resolved) => resolved,
                    None => {
                        // Not assignable: gawk substitutes in a temporary.
                        let text = arg_str(it, ctx, args, 2)?;
                        let (_, count) = substitute(&regex, &text, &replacement, builtin == Gsub, None)?;
                        return Ok(Value::Num(count as f64));
                    }
                },
            };
            let current = it.resolved_get(&resolved)?;
            let text = it.to_str(&current);
            let (result, count) = substitute(&regex, &text, &replacement, builtin == Gsub, None)?;
            it.check_length(result.len())?;
            if count > 0 {
                // A typed regex stays one (gawk keeps the type of the target).
                let value = if matches!(current, Value::Regex(_)) { Value::Regex(Str::from(result)) } else { Value::Str(Str::from(result)) };
                it.resolved_set(resolved, value)?;
            }
            Value::Num(count as f64)
        }
        Gensub => {
            let regex = regex_arg(it, ctx, &args[0])?;
            let replacement = arg_str(it, ctx, args, 1)?;
            let how = it.eval(ctx, &args[2])?;
            let text = if args.len() > 3 { arg_str(it, ctx, args, 3)? } else { it.record.clone() };
            let how_text = it.to_str(&how);
            let (global, nth) = if how_text.first().is_some_and(|c| *c == b'g' || *c == b'G') {
                (true, 1)
            } else {
                let n = how.num();
                (false, if n < 1.0 { 1 } else { n as usize })
            };
            let (result, _) = substitute(&regex, &text, &replacement, global, Some(nth))?;
            it.check_length(result.len())?;
            Value::Str(Str::from(result))
        }
        Match => {
            let text = arg_str(it, ctx, args, 0)?;
            let regex = regex_arg(it, ctx, &args[1])?;
            let captures = regex.captures_at(&text, 0).map_err(|e| Stop::Fatal(e.to_string()))?;
            let array = if args.len() > 2 { Some(array_arg(it, args, 2, "match")?) } else { None };
            if let Some(array) = &array {
                array.borrow_mut().clear();
            }
            match captures {
                Some(groups) => {
                    let (from, to) = groups.first().copied().flatten().unwrap_or((0, 0));
                    let start = char_index(&text, from) + 1;
                    let length = char_count(&text[from..to]);
                    it.set_plain(RSTART, Value::Num(start as f64));
                    it.set_plain(RLENGTH, Value::Num(length as f64));
                    if let Some(array) = array {
                        let subsep = it.to_str(&it.special(super::vars::SUBSEP));
                        let mut array = array.borrow_mut();
                        for (n, group) in groups.iter().enumerate() {
                            if let Some((a, b)) = group {
                                let key = n.to_string();
                                array.set(key.as_bytes(), Value::strnum(&text[*a..*b]));
                                let mut start_key = key.as_bytes().to_vec();
                                start_key.extend_from_slice(&subsep);
                                let mut length_key = start_key.clone();
                                start_key.extend_from_slice(b"start");
                                length_key.extend_from_slice(b"length");
                                array.set(&start_key, Value::Num((char_index(&text, *a) + 1) as f64));
                                array.set(&length_key, Value::Num(char_count(&text[*a..*b]) as f64));
                            }
                        }
                    }
                    Value::Num(start as f64)
                }
                None => {
                    it.set_plain(RSTART, Value::Num(0.0));
                    it.set_plain(RLENGTH, Value::Num(-1.0));
                    Value::Num(0.0)
                }
            }
        }
        Sprintf => {
            let mut values = Vec::with_capacity(args.len());
            for arg in args {
                values.push(it.eval(ctx, arg)?);
            }
            Value::Str(Str::from(it.format_values(&values)?))
        }
        Tolower | Toupper => Value::Str(Str::from(change_case(&arg_str(it, ctx, args, 0)?, builtin == Toupper))),
        Int => Value::Num(arg_num(it, ctx, args, 0)?.trunc()),
        Sqrt => {
            let x = arg_num(it, ctx, args, 0)?;
            if x < 0.0 {
                warn(it, ctx, &format!("sqrt: received negative argument {}", number_text(x)));
                Value::Num(-f64::NAN)
            } else {
                Value::Num(x.sqrt())
            }
        }
        Exp => {
            let x = arg_num(it, ctx, args, 0)?;
            let result = x.exp();
            if (result.is_infinite() && x.is_finite()) || (result < f64::MIN_POSITIVE && x.is_finite()) {
                warn(it, ctx, &format!("exp: argument {} is out of range", number_text(x)));
            }
            Value::Num(result)
        }
        Log => {
            let x = arg_num(it, ctx, args, 0)?;
            if x < 0.0 {
                warn(it, ctx, &format!("log: received negative argument {}", number_text(x)));
                Value::Num(-f64::NAN)
            } else {
                Value::Num(x.ln())
            }
        }
        Sin => Value::Num(arg_num(it, ctx, args, 0)?.sin()),
        Cos => Value::Num(arg_num(it, ctx, args, 0)?.cos()),
        Atan2 => {
            let y = arg_num(it, ctx, args, 0)?;
            let x = arg_num(it, ctx, args, 1)?;
            Value::Num(y.atan2(x))
        }
        Rand => Value::Num(it.random.next_f64()),
        Srand => {
            let previous = it.seed;
            let seed = if args.is_empty() { (ctx.host.now_millis() / 1000.0).floor() } else { arg_num(it, ctx, args, 0)? };
            it.seed = super::random::seed_of(seed);
            it.random.seed(it.seed);
            Value::Num(previous as f64)
        }
        Systime => Value::Num((ctx.host.now_millis() / 1000.0).floor()),
        Strftime => {
            let format = if args.is_empty() { Str::from(&b"%a %b %e %H:%M:%S %Z %Y"[..]) } else { arg_str(it, ctx, args, 0)? };
            let seconds = if args.len() > 1 { arg_num(it, ctx, args, 1)?.trunc() } else { (ctx.host.now_millis() / 1000.0).floor() };
            let utc = args.len() > 2 && it.eval(ctx, &args[2])?.truthy();
            let zone = if utc { crate::calendar::Zone::utc() } else { crate::calendar::parse_tz(ctx.env_var("TZ")) };
            let format = String::from_utf8_lossy(&format).into_owned();
            Value::str(crate::calendar::strftime(seconds * 1000.0, &format, &zone).as_bytes())
        }
        Mktime => {
            let spec = arg_str(it, ctx, args, 0)?;
            let utc = args.len() > 1 && it.eval(ctx, &args[1])?.truthy();
            let zone = if utc { crate::calendar::Zone::utc() } else { crate::calendar::parse_tz(ctx.env_var("TZ")) };
            Value::Num(mktime(&spec, zone.offset))
        }
        Asort | Asorti => super::sort::asort(it, ctx, args, builtin == Asorti)?,
        And | Or | Xor => {
            let mut acc = to_bits(arg_num(it, ctx, args, 0)?);
            for i in 1..args.len() {
                let x = to_bits(arg_num(it, ctx, args, i)?);
                acc = match builtin {
                    And => acc & x,
                    Or => acc | x,
                    _ => acc ^ x,
                };
            }
            Value::Num(acc as f64)
        }
        Lshift => {
            let x = to_bits(arg_num(it, ctx, args, 0)?);
            let n = arg_num(it, ctx, args, 1)?.max(0.0) as u32;
            Value::Num(x.checked_shl(n).unwrap_or(0) as f64)
        }
        Rshift => {
            let x = to_bits(arg_num(it, ctx, args, 0)?);
            let n = arg_num(it, ctx, args, 1)?.max(0.0) as u32;
            Value::Num(x.checked_shr(n).unwrap_or(0) as f64)
        }
        Compl => Value::Num((!to_bits(arg_num(it, ctx, args, 0)?) & ((1u64 << 53) - 1)) as f64),
        Strtonum => {
            let value = it.eval(ctx, &args[0])?;
            match value {
                Value::Num(n) => Value::Num(n),
                other => Value::Num(strtonum(&it.to_str(&other))),
            }
        }
        Typeof => match &args[0] {
            Expr::Var(var) if *var != Var::Global(super::vars::NF) => match it.cell_ref(*var).clone() {
                Cell::Arr(_) => Value::str(b"array"),
                Cell::Val(value) => Value::str(type_name(&value, true)),
            },
            Expr::Index(var, subs) => {
                let key = it.key(ctx, subs)?;
                let array = it.array(*var)?;
                let value = array.borrow().get(&key).cloned();
                match value {
                    Some(value) => Value::str(type_name(&value, false)),
                    None => Value::str(b"untyped"),
                }
            }
            other => {
                let value = it.eval(ctx, other)?;
                Value::str(type_name(&value, false))
            }
        },
        Isarray => match &args[0] {
            Expr::Var(var) => bool_value(matches!(it.cell_ref(*var), Cell::Arr(_))),
            _ => bool_value(false),
        },
        Close | Fflush | System => return Err(Stop::Fatal("internal error: I/O built-in outside an I/O context".into())),
    })
}

fn type_name(value: &Value, variable: bool) -> &'static [u8] {
    match value {
        Value::Uninit if variable => b"untyped",
        Value::Uninit => b"unassigned",
        Value::Num(_) => b"number",
        Value::Str(_) => b"string",
        Value::Regex(_) => b"regexp",
        Value::StrNum(s) => {
            if super::value::looks_numeric(s).is_some() {
                b"strnum"
            } else {
                b"string"
            }
        }
    }
}

fn number_text(x: f64) -> String {
    String::from_utf8_lossy(&super::format::number_to_string(x, b"%.6g")).into_owned()
}

fn warn(it: &mut Interp<'_>, ctx: &Invocation<'_>, message: &str) {
    let _ = ctx;
    it.warnings.push((it.offset, message.to_string()));
}

fn to_bits(x: f64) -> u64 {
    if x < 0.0 {
        (x.trunc() as i64) as u64
    } else {
        x.trunc() as u64
    }
}

/// gawk's `strtonum`: hex with `0x`, octal with a leading `0`, else decimal.
pub fn strtonum(s: &[u8]) -> f64 {
    let trimmed: &[u8] = {
        let start = s.iter().position(|c| !c.is_ascii_whitespace()).unwrap_or(s.len());
        &s[start..]
    };
    let (negative, body) = match trimmed.first() {
        Some(b'-') => (true, &trimmed[1..]),
        Some(b'+') => (false, &trimmed[1..]),
        _ => (false, trimmed),
    };
    let value = if body.len() > 2 && (body.starts_with(b"0x") || body.starts_with(b"0X")) {
        body[2..].iter().map_while(|c| char::from(*c).to_digit(16)).fold(0f64, |acc, d| acc * 16.0 + f64::from(d))
    } else if body.len() > 1 && body[0] == b'0' && body[1].is_ascii_digit() {
        let digits: Vec<u8> = body.iter().copied().take_while(u8::is_ascii_digit).collect();
        if digits.iter().all(|d| *d < b'8') {
            digits.iter().fold(0f64, |acc, d| acc * 8.0 + f64::from(d - b'0'))
        } else {
            super::value::str_to_num(body)
        }
    } else {
        return super::value::str_to_num(trimmed);
    };
    if negative {
        -value
    } else {
        value
    }
}

fn mktime(spec: &[u8], offset: i64) -> f64 {
    let text = String::from_utf8_lossy(spec);
    let parts: Vec<i64> = text.split_ascii_whitespace().map_while(|w| w.parse::<i64>().ok()).collect();
    if parts.len() < 6 {
        return -1.0;
    }
    let (year, month, day, hour, minute, second) = (parts[0], parts[1], parts[2], parts[3], parts[4], parts[5]);
    let year = year + (month - 1).div_euclid(12);
    let month = (month - 1).rem_euclid(12) + 1;
    let Ok(month) = u32::try_from(month) else { return -1.0 };
    let days = crate::calendar::civil::days_from_civil(year, month, 1) + (day - 1);
    let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second - offset;
    seconds as f64
}

fn regex_arg(it: &mut Interp<'_>, ctx: &Invocation<'_>, expr: &Expr) -> EResult<Rc<Regex>> {
    it.regex_operand(ctx, expr)
}

/// Replaces matches of `regex` in `text`: all (`global`), the first, or
/// the `nth` (gensub, with `\N` groups). Returns the text and the count.
pub fn substitute(regex: &Regex, text: &[u8], replacement: &[u8], global: bool, gensub: Option<usize>) -> EResult<(Vec<u8>, usize)> {
    let mut out = Vec::with_capacity(text.len());
    let mut pos = 0;
    let mut count = 0;
    let mut seen = 0;
    let mut last_end: Option<usize> = None;
    let needs_groups = gensub.is_some() && replacement.contains(&b'\\');
    while pos <= text.len() {
        let groups = if needs_groups {
            regex.captures_at(text, pos).map_err(|e| Stop::Fatal(e.to_string()))?
        } else {
            regex.find_at(text, pos).map_err(|e| Stop::Fatal(e.to_string()))?.map(|span| vec![Some(span)])
        };
        let Some(groups) = groups else { break };
        let Some((start, end)) = groups.first().copied().flatten() else { break };
        if start == end && last_end == Some(start) {
            // An empty match right after a match: step over a character.
            if start >= text.len() {
                break;
            }
            let len = char_len_at(text, start).max(1);
            out.extend_from_slice(&text[pos..start + len]);
            pos = start + len;
            continue;
        }
        seen += 1;
        let wanted = match gensub {
            Some(nth) => global || seen == nth,
            None => true,
        };
        out.extend_from_slice(&text[pos..start]);
        if wanted {
            count += 1;
            match gensub {
                Some(_) => expand_gensub(&mut out, replacement, text, &groups),
                None => expand_sub(&mut out, replacement, &text[start..end]),
            }
        } else {
            out.extend_from_slice(&text[start..end]);
        }
        if start == end {
            if start >= text.len() {
                pos = text.len() + 1;
                break;
            }
            let len = char_len_at(text, start).max(1);
            out.extend_from_slice(&text[start..start + len]);
            pos = start + len;
        } else {
            pos = end;
        }
        last_end = Some(end);
        let done = match gensub {
            Some(nth) => !global && seen >= nth,
            None => !global,
        };
        if done {
            break;
        }
    }
    if pos <= text.len() {
        out.extend_from_slice(&text[pos..]);
    }
    Ok((out, count))
}

fn expand_sub(out: &mut Vec<u8>, replacement: &[u8], matched: &[u8]) {
    let mut i = 0;
    while i < replacement.len() {
        let c = replacement[i];
        if c == b'\\' && matches!(replacement.get(i + 1), Some(b'&')) {
            out.push(b'&');
            i += 2;
        } else if c == b'\\' && matches!(replacement.get(i + 1), Some(b'\\')) {
            out.push(b'\\');
            i += 2;
        } else if c == b'&' {
            out.extend_from_slice(matched);
            i += 1;
        } else {
            out.push(c);
            i += 1;
        }
    }
}

fn expand_gensub(out: &mut Vec<u8>, replacement: &[u8], text: &[u8], groups: &[Option<(usize, usize)>]) {
    let mut i = 0;
    let group = |n: usize| groups.get(n).copied().flatten().and_then(|(a, b)| text.get(a..b)).unwrap_or(&[]);
    while i < replacement.len() {
        let c = replacement[i];
        match (c, replacement.get(i + 1)) {
            (b'\\', Some(d)) if d.is_ascii_digit() => {
                out.extend_from_slice(group(usize::from(d - b'0')));
                i += 2;
            }
            (b'\\', Some(b'&')) => {
                out.push(b'&');
                i += 2;
            }
            (b'\\', Some(b'\\')) => {
                out.push(b'\\');
                i += 2;
            }
            (b'&', _) => {
                out.extend_from_slice(group(0));
                i += 1;
            }
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
}

fn split(it: &mut Interp<'_>, ctx: &Invocation<'_>, args: &[Expr], pattern: bool) -> EResult<Value> {
    let name = if pattern { "patsplit" } else { "split" };
    let text = arg_str(it, ctx, args, 0)?;
    let array = array_arg(it, args, 1, name)?;
    let seps = if args.len() > 3 { Some(array_arg(it, args, 3, name)?) } else { None };
    let splitter = match args.get(2) {
        None if pattern => it.splitter_of_fpat()?,
        None => it.splitter.clone(),
        Some(Expr::Regex(index) | Expr::TypedRegex(index, _)) => {
            let regex = it.literal(*index)?;
            if pattern {
                super::fields::Splitter::Pattern(regex)
            } else {
                super::fields::Splitter::Regex(regex)
            }
        }
        Some(e) => {
            let value = it.eval(ctx, e)?;
            let fs = it.to_str(&value);
            if pattern {
                super::fields::Splitter::Pattern(it.dynamic_regex(&value)?)
            } else {
                super::fields::splitter_for(&fs, &mut it.cache, it.fold)
                    .map_err(|err| Stop::Fatal(super::interp::regex_error(&fs, &err)))?
            }
        }
    };
    let splitter = match splitter {
        super::fields::Splitter::Widths(_) => super::fields::Splitter::Space,
        other => other,
    };
    let mut spans = Vec::new();
    super::fields::split(&text, &splitter, false, &mut spans);
    let mut array = array.borrow_mut();
    array.clear();
    for (i, (a, b)) in spans.iter().enumerate() {
        array.set((i + 1).to_string().as_bytes(), Value::strnum(&text[*a..*b]));
    }
    if let Some(seps) = seps {
        let mut seps = seps.borrow_mut();
        seps.clear();
        fill_seps(&mut seps, &text, &spans, pattern || matches!(splitter, super::fields::Splitter::Space));
    }
    Ok(Value::Num(spans.len() as f64))
}

fn fill_seps(seps: &mut Array, text: &[u8], spans: &[(usize, usize)], outer: bool) {
    if spans.is_empty() {
        if outer && !text.is_empty() {
            seps.set(b"0", Value::strnum(text));
        }
        return;
    }
    if outer && spans[0].0 > 0 {
        seps.set(b"0", Value::strnum(&text[..spans[0].0]));
    }
    for i in 1..spans.len() {
        let between = &text[spans[i - 1].1..spans[i].0];
        seps.set(i.to_string().as_bytes(), Value::strnum(between));
    }
    let last = spans[spans.len() - 1].1;
    if outer && last < text.len() {
        seps.set(spans.len().to_string().as_bytes(), Value::strnum(&text[last..]));
    }
}

impl Interp<'_> {
    fn splitter_of_fpat(&mut self) -> EResult<super::fields::Splitter> {
        let fpat = self.special(super::vars::FPAT);
        let text = self.to_str(&fpat);
        let text = if text.is_empty() { Str::from(&b"[^[:space:]]+"[..]) } else { text };
        let regex = self.cache.get(&text, self.fold).map_err(|e| Stop::Fatal(super::interp::regex_error(&text, &e)))?;
        Ok(super::fields::Splitter::Pattern(regex))
    }
}
