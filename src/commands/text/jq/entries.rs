//! `to_entries` and the common case of `from_entries`, done natively: the
//! prelude's definitions (jq 1.7.1's) build and merge one object per entry,
//! which made `with_entries` the slowest filter on large inputs.

use super::value::{Map, Value};
use std::rc::Rc;

/// `to_entries` of an object or array: `{key, value}` for each member in
/// order (array indices as keys); `None` for any other input, which the
/// prelude's definition answers with `keys_unsorted`'s error.
pub fn to_entries(input: &Value) -> Option<Value> {
    let (key_name, value_name): (Rc<str>, Rc<str>) = (Rc::from("key"), Rc::from("value"));
    let entry = |key: Value, value: &Value| {
        let mut map = Map::new();
        map.insert(key_name.clone(), key);
        map.insert(value_name.clone(), value.clone());
        Value::Obj(Rc::new(map))
    };
    match input {
        Value::Obj(o) => Some(Value::arr(o.iter().map(|(k, v)| entry(Value::Str(k.clone()), v)).collect())),
        Value::Arr(a) => Some(Value::arr(a.iter().enumerate().map(|(i, v)| entry(Value::num(i as f64), v)).collect())),
        _ => None,
    }
}

/// `from_entries` when every entry is an object whose key (the first of
/// `key`, `Key`, `name`, `Name` that is neither null nor false) is a string:
/// the members in order, a later key replacing an earlier one's value in its
/// place, as the definition's `add` merges them. `None` otherwise (errors and
/// their messages are the definition's to give).
pub fn from_entries(input: &Value) -> Option<Value> {
    let entries: Box<dyn Iterator<Item = &Value>> = match input {
        Value::Arr(a) => Box::new(a.iter()),
        Value::Obj(o) => Box::new(o.iter().map(|(_, v)| v)),
        _ => return None,
    };
    let mut map = Map::new();
    for entry in entries {
        let Value::Obj(fields) = entry else { return None };
        let key = ["key", "Key", "name", "Name"]
            .iter()
            .filter_map(|name| fields.get(name))
            .find(|v| !matches!(v, Value::Null | Value::Bool(false)));
        let Some(Value::Str(key)) = key else { return None };
        let value = match fields.get("value") {
            Some(v) => v.clone(),
            None => fields.get("Value").cloned().unwrap_or(Value::Null),
        };
        map.insert(key.clone(), value);
    }
    Some(Value::Obj(Rc::new(map)))
}
