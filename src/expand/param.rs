//! Parameter expansion: `$x`, `${x}`, `${#x}`, `${!x}`, arrays, and every
//! operator (`:-`, `#`, `%`, `/`, `:off:len`, `^`, `,`, `@Q`...).

use super::arith;
use super::pattern::{Pattern, PatternOptions};
use super::word::{expand_pattern, expand_string, HostArith};
use super::{ElementKey, ExpandError, ExpandHost, VarShape};
use crate::syntax::ast::{CaseMode, ParamExpansion, ParamOp, Parameter, ReplaceMode, Subscript, Word};

/// The value of a parameter before or after an operator.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// Not set.
    Unset,
    /// One string.
    One(String),
    /// Several strings (`$@`, `${a[@]}`); `star` for the `*` forms, which
    /// join into one word when quoted.
    Many(Vec<String>, bool),
}

/// What a parameter expansion yields to the word expander.
#[derive(Debug, Clone, PartialEq)]
pub enum Expansion {
    /// A value to place in the word.
    Value(Value),
    /// A word to expand in place, in the same quoting context (`${x:-word}`).
    Word(Word),
}

impl Value {
    fn is_null(&self) -> bool {
        match self {
            Value::Unset => true,
            Value::One(s) => s.is_empty(),
            Value::Many(values, _) => values.is_empty() || (values.len() == 1 && values[0].is_empty()),
        }
    }

    fn map(self, f: impl Fn(&str) -> String) -> Value {
        match self {
            Value::Unset => Value::Unset,
            Value::One(s) => Value::One(f(&s)),
            Value::Many(values, star) => Value::Many(values.iter().map(|v| f(v)).collect(), star),
        }
    }
}

/// The text bash shows in `bad substitution` for a braced expansion.
fn source_text(pe: &ParamExpansion) -> String {
    let name = match &pe.param {
        Parameter::Named(n) => n.clone(),
        Parameter::Positional(n) => n.to_string(),
        Parameter::Special(c) => c.to_string(),
    };
    format!("${{{}{}{name}}}", if pe.length { "#" } else { "" }, if pe.indirect { "!" } else { "" })
}

fn display_name(param: &Parameter) -> String {
    match param {
        Parameter::Named(n) => n.clone(),
        Parameter::Positional(n) => n.to_string(),
        Parameter::Special(c) => c.to_string(),
    }
}

/// Expands one parameter expansion.
pub async fn expand_param(host: &mut dyn ExpandHost, pe: &ParamExpansion, quoted: bool) -> Result<Expansion, ExpandError> {
    let _ = quoted;
    // ${!prefix*} and ${!prefix@}
    if let Some(ParamOp::PrefixNames { at }) = &pe.op {
        let prefix = display_name(&pe.param);
        return Ok(Expansion::Value(Value::Many(host.names_with_prefix(&prefix), !at)));
    }
    let mut param = pe.param.clone();
    let mut index = pe.index.clone();
    if pe.indirect {
        if let (Parameter::Named(name), Some(Subscript::At | Subscript::Star)) = (&param, &index) {
            let name = host.resolve_name(name);
            let star = matches!(index, Some(Subscript::Star));
            let keys = host.keys(&name);
            return apply_length_and_op(host, pe, Value::Many(keys, star)).await;
        }
        let target = match lookup(host, &param, &index, pe).await? {
            Value::One(s) => s,
            Value::Many(values, _) => values.join(" "),
            Value::Unset => {
                if host.options().nounset {
                    return Err(ExpandError::Unbound(display_name(&param)));
                }
                return Err(ExpandError::BadSubstitution(source_text(pe)));
            }
        };
        let (new_param, new_index) =
            parse_indirect_target(&target).ok_or_else(|| ExpandError::BadSubstitution(format!("${{!{}}}", display_name(&pe.param))))?;
        param = new_param;
        index = new_index;
    }
    let value = lookup(host, &param, &index, pe).await?;
    apply_length_and_op(host, &ParamExpansion { param, index, ..pe.clone() }, value).await
}

/// Parses the value of `x` in `${!x}` as a parameter: `name`, `name[sub]`, `3`, `@`.
fn parse_indirect_target(target: &str) -> Option<(Parameter, Option<Subscript>)> {
    if let Ok(n) = target.parse::<u32>() {
        return Some((Parameter::Positional(n), None));
    }
    if target.len() == 1 && "@*#?-$!0".contains(target) {
        return Some((Parameter::Special(target.chars().next()?), None));
    }
    let (name, subscript) = match target.find('[') {
        Some(open) if target.ends_with(']') => {
            let inner = &target[open + 1..target.len() - 1];
            let subscript = match inner {
                "@" => Subscript::At,
                "*" => Subscript::Star,
                text => Subscript::Expr(Word {
                    parts: crate::syntax::ast::Seq::One(crate::syntax::ast::WordPart::Literal(text.into())),
                    span: Default::default(),
                }),
            };
            (&target[..open], Some(subscript))
        }
        _ => (target, None),
    };
    let valid = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    valid.then(|| (Parameter::Named(name.to_string()), subscript))
}

async fn lookup(
    host: &mut dyn ExpandHost,
    param: &Parameter,
    index: &Option<Subscript>,
    pe: &ParamExpansion,
) -> Result<Value, ExpandError> {
    Ok(match param {
        Parameter::Special('@') => Value::Many(host.positionals(), false),
        Parameter::Special('*') => Value::Many(host.positionals(), true),
        Parameter::Special(c) => host.special(*c).map(Value::One).unwrap_or(Value::Unset),
        Parameter::Positional(n) => host.positional(*n as usize).map(Value::One).unwrap_or(Value::Unset),
        Parameter::Named(name) => {
            let name = host.resolve_name(name);
            match index {
                None => host.scalar(&name).map(Value::One).unwrap_or(Value::Unset),
                Some(Subscript::At) | Some(Subscript::Star) => {
                    let star = matches!(index, Some(Subscript::Star));
                    match host.shape(&name) {
                        VarShape::Unset => Value::Unset,
                        _ => Value::Many(host.values(&name), star),
                    }
                }
                Some(Subscript::Expr(word)) => {
                    let key = element_key(host, &name, word).await?;
                    let _ = pe;
                    host.element(&name, &key).map(Value::One).unwrap_or(Value::Unset)
                }
            }
        }
    })
}

/// Evaluates a subscript: a key for associative arrays, arithmetic otherwise.
pub async fn element_key(host: &mut dyn ExpandHost, name: &str, word: &Word) -> Result<ElementKey, ExpandError> {
    let text = expand_string(host, word).await?;
    if host.shape(name) == VarShape::Assoc {
        return Ok(ElementKey::Key(text));
    }
    let value = arith::eval_text(&text, &mut HostArith(host))?;
    Ok(ElementKey::Index(value))
}

async fn apply_length_and_op(host: &mut dyn ExpandHost, pe: &ParamExpansion, value: Value) -> Result<Expansion, ExpandError> {
    let is_star_or_at =
        matches!(pe.param, Parameter::Special('@') | Parameter::Special('*')) || matches!(pe.index, Some(Subscript::At | Subscript::Star));
    if pe.length {
        if pe.op.is_some() {
            return Err(ExpandError::BadSubstitution(source_text(pe)));
        }
        return Ok(Expansion::Value(Value::One(match value {
            Value::Unset => {
                if host.options().nounset && !is_star_or_at {
                    return Err(ExpandError::Unbound(display_name(&pe.param)));
                }
                "0".into()
            }
            Value::One(s) => s.chars().count().to_string(),
            Value::Many(values, _) => values.len().to_string(),
        })));
    }
    let Some(op) = &pe.op else {
        if value == Value::Unset && host.options().nounset && !is_star_or_at {
            return Err(ExpandError::Unbound(unbound_name(pe)));
        }
        return Ok(Expansion::Value(value));
    };
    let unset_or_null = |colon: bool, value: &Value| if colon { value.is_null() } else { *value == Value::Unset };
    match op {
        ParamOp::Default { colon, word } => {
            if unset_or_null(*colon, &value) {
                return Ok(Expansion::Word(word.clone()));
            }
            Ok(Expansion::Value(value))
        }
        ParamOp::Assign { colon, word } => {
            if !unset_or_null(*colon, &value) {
                return Ok(Expansion::Value(value));
            }
            let Parameter::Named(name) = &pe.param else {
                return Err(ExpandError::Assign(format!("${}: cannot assign in this way", display_name(&pe.param))));
            };
            let text = expand_string(host, word).await?;
            let name = host.resolve_name(name);
            let key = match &pe.index {
                Some(Subscript::Expr(sub)) => Some(element_key(host, &name, sub).await?),
                _ => None,
            };
            host.assign(&name, key, text.clone())?;
            Ok(Expansion::Value(Value::One(text)))
        }
        ParamOp::Error { colon, word } => {
            if !unset_or_null(*colon, &value) {
                return Ok(Expansion::Value(value));
            }
            let message = expand_string(host, word).await?;
            let message = if message.is_empty() { "parameter null or not set".to_string() } else { message };
            Err(ExpandError::NullOrUnset { name: display_name(&pe.param), message })
        }
        ParamOp::Alternative { colon, word } => {
            if unset_or_null(*colon, &value) {
                return Ok(Expansion::Value(Value::One(String::new())));
            }
            Ok(Expansion::Word(word.clone()))
        }
        _ => {
            if value == Value::Unset && host.options().nounset && !is_star_or_at {
                return Err(ExpandError::Unbound(unbound_name(pe)));
            }
            transform(host, pe, op, value).await.map(Expansion::Value)
        }
    }
}

fn unbound_name(pe: &ParamExpansion) -> String {
    match (&pe.param, &pe.index) {
        (Parameter::Named(name), Some(Subscript::Expr(word))) => {
            let text: String =
                word.parts.iter().map(|p| if let crate::syntax::ast::WordPart::Literal(s) = p { s.as_str() } else { "" }).collect();
            format!("{name}[{text}]")
        }
        (param, _) => display_name(param),
    }
}

async fn transform(host: &mut dyn ExpandHost, pe: &ParamExpansion, op: &ParamOp, value: Value) -> Result<Value, ExpandError> {
    let options = host.options();
    let pattern_options = PatternOptions { extglob: options.extglob, nocase: false };
    Ok(match op {
        ParamOp::RemovePrefix { longest, pattern } => {
            let pattern = Pattern::new(&expand_pattern(host, pattern).await?, pattern_options);
            value.map(|s| remove_affix(s, &pattern, *longest, true))
        }
        ParamOp::RemoveSuffix { longest, pattern } => {
            let pattern = Pattern::new(&expand_pattern(host, pattern).await?, pattern_options);
            value.map(|s| remove_affix(s, &pattern, *longest, false))
        }
        ParamOp::Replace { mode, pattern, replacement } => {
            let pattern_text = expand_pattern(host, pattern).await?;
            let replacement = match replacement {
                Some(word) => expand_pattern(host, word).await?,
                None => String::new(),
            };
            let pattern = Pattern::new(&pattern_text, pattern_options);
            if pattern_text.is_empty() && !matches!(mode, ReplaceMode::Prefix | ReplaceMode::Suffix) {
                value
            } else {
                value.map(|s| replace(s, &pattern, &replacement, *mode))
            }
        }
        ParamOp::Substring { offset, length } => {
            let offset_text = expand_string(host, offset).await?;
            let offset = arith::eval_text(&offset_text, &mut HostArith(host))?;
            let length = match length {
                Some(word) => {
                    let text = expand_string(host, word).await?;
                    Some(arith::eval_text(&text, &mut HostArith(host))?)
                }
                None => None,
            };
            substring(host, pe, value, offset, length)?
        }
        ParamOp::Case { mode, all, pattern } => {
            let pattern = match pattern {
                Some(word) => Some(Pattern::new(&expand_pattern(host, word).await?, pattern_options)),
                None => None,
            };
            value.map(|s| change_case(s, *mode, *all, pattern.as_ref()))
        }
        ParamOp::Transform(c) => {
            let name = match &pe.param {
                Parameter::Named(name) => host.resolve_name(name),
                other => display_name(other),
            };
            match c {
                'Q' => value.map(quote_for_reuse),
                'E' => value.map(|s| String::from_utf8_lossy(&super::escapes::decode_ansi_c(s)).into_owned()),
                'P' => value,
                'U' => value.map(|s| s.to_uppercase()),
                'u' => value.map(|s| change_case(s, CaseMode::Upper, false, None)),
                'L' => value.map(|s| s.to_lowercase()),
                'a' => {
                    let letters = host.attribute_letters(&name);
                    value.map(|_| letters.clone())
                }
                'A' => match &value {
                    Value::Unset => Value::Unset,
                    Value::One(s) => Value::One(format!("{name}={}", quote_for_reuse(s))),
                    Value::Many(values, _) => Value::One(format!(
                        "declare -a {name}=({})",
                        values.iter().enumerate().map(|(i, v)| format!("[{i}]={}", quote_for_reuse(v))).collect::<Vec<_>>().join(" ")
                    )),
                },
                'K' | 'k' => {
                    if matches!(host.shape(&name), VarShape::Indexed | VarShape::Assoc) && matches!(value, Value::Many(..)) {
                        let keys = host.keys(&name);
                        let values = host.values(&name);
                        let pairs: Vec<String> = keys
                            .iter()
                            .zip(values.iter())
                            .map(|(k, v)| if *c == 'K' { format!("{} {}", quote_key(k), quote_for_reuse(v)) } else { format!("{k} {v}") })
                            .collect();
                        if *c == 'k' {
                            Value::Many(pairs.join(" ").split(' ').map(str::to_string).collect(), false)
                        } else {
                            Value::One(pairs.join(" "))
                        }
                    } else {
                        value.map(quote_for_reuse)
                    }
                }
                _ => return Err(ExpandError::BadSubstitution(format!("${{{name}@{c}}}"))),
            }
        }
        _ => value,
    })
}

fn quote_key(key: &str) -> String {
    if key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        key.to_string()
    } else {
        quote_for_reuse(key)
    }
}

/// Quotes `s` so the shell reads it back as the same string (`${x@Q}`).
pub fn quote_for_reuse(s: &str) -> String {
    if s.chars().any(|c| c.is_control()) {
        let mut out = String::from("$'");
        for c in s.chars() {
            match c {
                '\n' => out.push_str("\\n"),
                '\t' => out.push_str("\\t"),
                '\r' => out.push_str("\\r"),
                '\x1b' => out.push_str("\\E"),
                '\'' => out.push_str("\\'"),
                '\\' => out.push_str("\\\\"),
                c if c.is_control() => out.push_str(&format!("\\{:03o}", c as u32)),
                c => out.push(c),
            }
        }
        out.push('\'');
        return out;
    }
    format!("'{}'", s.replace('\'', "'\\''"))
}

fn remove_affix(s: &str, pattern: &Pattern, longest: bool, prefix: bool) -> String {
    if pattern.is_literal() {
        let literal = pattern.literal_text();
        let stripped = if prefix { s.strip_prefix(literal.as_str()) } else { s.strip_suffix(literal.as_str()) };
        return stripped.unwrap_or(s).to_string();
    }
    let chars: Vec<char> = s.chars().collect();
    let n = chars.len();
    let candidates: Box<dyn Iterator<Item = usize>> = match (prefix, longest) {
        (true, false) => Box::new(0..=n),
        (true, true) => Box::new((0..=n).rev()),
        (false, false) => Box::new((0..=n).rev()),
        (false, true) => Box::new(0..=n),
    };
    for cut in candidates {
        let (matched, rest) = if prefix { (&chars[..cut], &chars[cut..]) } else { (&chars[cut..], &chars[..cut]) };
        if pattern.matches_chars(matched, false) {
            return rest.iter().collect();
        }
    }
    s.to_string()
}

fn expand_replacement(replacement: &str, matched: &[char]) -> String {
    let mut out = String::new();
    let mut chars = replacement.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                if let Some(next) = chars.next() {
                    out.push(next);
                }
            }
            '&' => out.extend(matched.iter()),
            c => out.push(c),
        }
    }
    out
}

fn replace(s: &str, pattern: &Pattern, replacement: &str, mode: ReplaceMode) -> String {
    if pattern.is_literal() && !replacement.contains(['&', '\\']) {
        let literal = pattern.literal_text();
        return match mode {
            ReplaceMode::First => s.replacen(literal.as_str(), replacement, 1),
            ReplaceMode::All => s.replace(literal.as_str(), replacement),
            ReplaceMode::Prefix => match s.strip_prefix(literal.as_str()) {
                Some(rest) => format!("{replacement}{rest}"),
                None => s.to_string(),
            },
            ReplaceMode::Suffix => match s.strip_suffix(literal.as_str()) {
                Some(rest) => format!("{rest}{replacement}"),
                None => s.to_string(),
            },
        };
    }
    let chars: Vec<char> = s.chars().collect();
    let n = chars.len();
    match mode {
        ReplaceMode::Prefix => {
            for end in (0..=n).rev() {
                if pattern.matches_chars(&chars[..end], false) {
                    let mut out = expand_replacement(replacement, &chars[..end]);
                    out.extend(&chars[end..]);
                    return out;
                }
            }
            s.to_string()
        }
        ReplaceMode::Suffix => {
            for start in 0..=n {
                if pattern.matches_chars(&chars[start..], false) {
                    let mut out: String = chars[..start].iter().collect();
                    out.push_str(&expand_replacement(replacement, &chars[start..]));
                    return out;
                }
            }
            s.to_string()
        }
        ReplaceMode::First | ReplaceMode::All => {
            let mut out = String::new();
            let mut start = 0;
            let mut replaced = false;
            while start < n {
                if replaced && mode == ReplaceMode::First {
                    break;
                }
                let hit = (start + 1..=n).rev().find(|&end| pattern.matches_chars(&chars[start..end], false));
                match hit {
                    Some(end) => {
                        out.push_str(&expand_replacement(replacement, &chars[start..end]));
                        start = end;
                        replaced = true;
                    }
                    None => {
                        out.push(chars[start]);
                        start += 1;
                    }
                }
            }
            out.extend(&chars[start.min(n)..]);
            out
        }
    }
}

fn substring(host: &mut dyn ExpandHost, pe: &ParamExpansion, value: Value, offset: i64, length: Option<i64>) -> Result<Value, ExpandError> {
    let slice = |len: usize| -> Result<Option<(usize, usize)>, ExpandError> {
        let len = len as i64;
        let start = if offset < 0 { len + offset } else { offset };
        if start < 0 || start > len {
            return Ok(None);
        }
        let end = match length {
            None => len,
            Some(l) if l < 0 => {
                let end = len + l;
                if end < start {
                    return Err(ExpandError::Arith(arith::ArithError {
                        expression: l.to_string(),
                        message: "substring expression < 0".into(),
                    }));
                }
                end
            }
            Some(l) => (start + l).min(len),
        };
        Ok(Some((start as usize, end as usize)))
    };
    Ok(match value {
        Value::Unset => Value::Unset,
        Value::One(s) => {
            let chars: Vec<char> = s.chars().collect();
            match slice(chars.len())? {
                Some((a, b)) => Value::One(chars[a..b].iter().collect()),
                None => Value::One(String::new()),
            }
        }
        Value::Many(values, star) => {
            // `${@:0}` includes $0; `${@:1}` starts at $1.
            let mut all = values;
            if matches!(pe.param, Parameter::Special('@') | Parameter::Special('*')) {
                all.insert(0, host.positional(0).unwrap_or_default());
            }
            match slice(all.len())? {
                Some((a, b)) => Value::Many(all[a..b].to_vec(), star),
                None => Value::Many(Vec::new(), star),
            }
        }
    })
}

fn change_case(s: &str, mode: CaseMode, all: bool, pattern: Option<&Pattern>) -> String {
    let mut out = String::with_capacity(s.len());
    for (index, c) in s.chars().enumerate() {
        let eligible = (all || index == 0) && pattern.is_none_or(|p| p.matches(&c.to_string(), false));
        if !eligible {
            out.push(c);
            continue;
        }
        match mode {
            CaseMode::Upper => out.extend(c.to_uppercase()),
            CaseMode::Lower => out.extend(c.to_lowercase()),
            CaseMode::Toggle => {
                if c.is_uppercase() {
                    out.extend(c.to_lowercase())
                } else {
                    out.extend(c.to_uppercase())
                }
            }
        }
    }
    out
}
