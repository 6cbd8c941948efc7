//! jq's regular expressions (`test`, `match`, `capture`, `scan`, `sub`),
//! on fancy-regex with jq's flags; offsets are in code points.

use super::eval::{err, Flow};
use super::funcs::record;
use super::json::dump_short;
use super::value::Value;

fn cp_offset(s: &str, byte: usize) -> usize {
    s.get(..byte).map(|p| p.chars().count()).unwrap_or(0)
}

/// `_match_impl(re; flags; test)`: an array of match objects, or a boolean when testing.
pub fn match_impl(input: &Value, re: &Value, flags: &Value, test: bool) -> Result<Value, Flow> {
    let Value::Str(s_rc) = input else {
        return Err(err(format!("{} ({}) cannot be matched, as it is not a string", input.kind(), dump_short(input))));
    };
    let s: &str = s_rc;
    let Value::Str(pattern) = re else {
        return Err(err(format!("{} ({}) cannot be matched, as it is not a string", re.kind(), dump_short(re))));
    };
    let flags = match flags {
        Value::Null => String::new(),
        Value::Str(f) => f.to_string(),
        other => return Err(err(format!("{} ({}) is not a string", other.kind(), dump_short(other)))),
    };
    let mut global = false;
    let mut skip_empty = false;
    let mut prefix = String::new();
    for c in flags.chars() {
        match c {
            'g' => global = true,
            'n' => skip_empty = true,
            'i' => prefix.push('i'),
            'x' => prefix.push('x'),
            's' => prefix.push('s'),
            'p' => prefix.push_str("ms"),
            'l' => {}
            _ => return Err(err(format!("{flags} is not a valid modifier string"))),
        }
    }
    let full = if prefix.is_empty() { pattern.to_string() } else { format!("(?{prefix}){pattern}") };
    let regex = fancy_regex::RegexBuilder::new(&full)
        .backtrack_limit(1_000_000)
        .build()
        .map_err(|e| err(format!("{pattern} (at offset 0) is not a valid regex: {e}")))?;
    if test && !skip_empty {
        return Ok(Value::Bool(regex.is_match(s).map_err(|e| err(e.to_string()))?));
    }
    let names: Vec<Option<&str>> = regex.capture_names().collect();
    let mut out = Vec::new();
    let mut start = 0;
    while start <= s.len() {
        let caps = match regex.captures_from_pos(s, start).map_err(|e| err(e.to_string()))? {
            Some(c) => c,
            None => break,
        };
        let Some(m) = caps.get(0) else { break };
        if !(skip_empty && m.start() == m.end()) {
            let mut groups = Vec::new();
            for (i, name) in names.iter().enumerate().skip(1) {
                let name_v = name.map(Value::str).unwrap_or(Value::Null);
                groups.push(match caps.get(i) {
                    Some(g) => record(&[
                        ("offset", Value::num(cp_offset(s, g.start()) as f64)),
                        ("length", Value::num(g.as_str().chars().count() as f64)),
                        ("string", Value::str(g.as_str())),
                        ("name", name_v),
                    ]),
                    None => record(&[
                        ("offset", Value::num(-1.0)),
                        ("length", Value::num(0.0)),
                        ("string", Value::Null),
                        ("name", name_v),
                    ]),
                });
            }
            out.push(record(&[
                ("offset", Value::num(cp_offset(s, m.start()) as f64)),
                ("length", Value::num(m.as_str().chars().count() as f64)),
                ("string", Value::str(m.as_str())),
                ("captures", Value::arr(groups)),
            ]));
        }
        if !global && !(test && out.is_empty()) {
            break;
        }
        if m.end() == m.start() {
            start = m.end() + s.get(m.end()..).and_then(|r| r.chars().next()).map(char::len_utf8).unwrap_or(1);
        } else {
            start = m.end();
        }
    }
    if test {
        return Ok(Value::Bool(!out.is_empty()));
    }
    Ok(Value::arr(out))
}
