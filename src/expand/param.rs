//! Parameter expansion: `$x`, `${x}`, `${#x}`, `${!x}`, arrays, and every
//! operator (`:-`, `#`, `%`, `/`, `:off:len`, `^`, `,`, `@Q`...).

use super::arith;
use super::pattern::{Pattern, PatternOptions};
use super::word::{expand_pattern, expand_string, HostArith};
use super::{ElementKey, ExpandError, ExpandHost, VarShape};
use crate::syntax::ast::{CaseMode, ParamExpansion, ParamOp, Parameter, ReplaceMode, Subscript, Text, Word, WordPart};

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

    /// True when every string is ASCII (bytes and characters agree).
    fn is_ascii(&self) -> bool {
        match self {
            Value::Unset => true,
            Value::One(s) => s.is_ascii(),
            Value::Many(values, _) => values.iter().all(|v| v.is_ascii()),
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
        Parameter::Named(n) => n.to_string(),
        Parameter::Positional(n) => n.to_string(),
        Parameter::Special(c) => c.to_string(),
    };
    format!("${{{}{}{name}}}", if pe.length { "#" } else { "" }, if pe.indirect { "!" } else { "" })
}

fn display_name(param: &Parameter) -> String {
    match param {
        Parameter::Named(n) => n.to_string(),
        Parameter::Positional(n) => n.to_string(),
        Parameter::Special(c) => c.to_string(),
    }
}

/// Expands one parameter expansion.
pub async fn expand_param(host: &mut dyn ExpandHost, pe: &ParamExpansion, quoted: bool) -> Result<Expansion, ExpandError> {
    // ${!prefix*} and ${!prefix@}
    // Unquoted with an empty IFS, bash builds `${!p*}` and `${!a[*]}` as
    // one string: names joined with nothing, keys joined with spaces.
    let joined_list = |host: &dyn ExpandHost| !quoted && host.scalar("IFS").is_some_and(|ifs| ifs.is_empty());
    if let Some(ParamOp::PrefixNames { at }) = &pe.op {
        let prefix = display_name(&pe.param);
        let names = host.names_with_prefix(&prefix);
        if !at && joined_list(host) {
            return Ok(Expansion::Value(Value::One(names.concat())));
        }
        return Ok(Expansion::Value(Value::Many(names, !at)));
    }
    if !pe.indirect {
        let value = lookup(host, &pe.param, &pe.index, pe).await?;
        return apply_length_and_op(host, pe, value, quoted).await;
    }
    let param = pe.param.clone();
    let index = pe.index.clone();
    if pe.indirect {
        // `${!a[@]}` lists the keys; with an operator it is an indirection
        // through the joined values.
        let keys_only = pe.op.is_none();
        if let (Parameter::Named(name), Some(Subscript::At | Subscript::Star), true) = (&param, &index, keys_only) {
            let name = host.resolve_name(name);
            let star = matches!(index, Some(Subscript::Star));
            let keys = host.keys(&name);
            if star && joined_list(host) && !pe.length {
                return Ok(Expansion::Value(Value::One(keys.join(" "))));
            }
            return apply_length_and_op(host, pe, Value::Many(keys, star), quoted).await;
        }
        // `${!ref}` on a nameref names its target instead of following it.
        if let (Parameter::Named(name), None) = (&param, &index) {
            if host.attribute_letters(name).contains('n') {
                let target = host.scalar(name).map(Value::One).unwrap_or(Value::Unset);
                return apply_length_and_op(host, pe, target, quoted).await;
            }
        }
        let target = match lookup(host, &param, &index, pe).await? {
            Value::One(s) => s,
            Value::Many(values, _) if !values.is_empty() => values.join(" "),
            // A declared variable without a value (`declare -A m; ${!m}`) names nothing.
            Value::Unset if matches!(&param, Parameter::Named(name) if host.shape(&host.resolve_name(name)) != VarShape::Unset) => {
                let nothing = ParamExpansion { param: Parameter::Named(Text::new()), index: None, ..pe.clone() };
                return apply_length_and_op(host, &nothing, Value::Unset, quoted).await;
            }
            _ => {
                let subscript = match index {
                    Some(Subscript::At) => "[@]",
                    Some(Subscript::Star) => "[*]",
                    _ => "",
                };
                return Err(ExpandError::Indirect(format!("{}{subscript}: invalid indirect expansion", display_name(&param))));
            }
        };
        let (new_param, new_index) =
            parse_indirect_target(&target).ok_or_else(|| ExpandError::Indirect(format!("{target}: invalid variable name")))?;
        // Under `set -u` an unset target is named as written: `!ref`.
        let written = format!("!{}", unbound_name(pe));
        let value = lookup(host, &new_param, &new_index, pe).await?;
        return match apply_length_and_op(host, &ParamExpansion { param: new_param, index: new_index, ..pe.clone() }, value, quoted).await {
            Err(ExpandError::Unbound(_)) => Err(ExpandError::Unbound(written)),
            other => other,
        };
    }
    let value = lookup(host, &param, &index, pe).await?;
    apply_length_and_op(host, &ParamExpansion { param, index, ..pe.clone() }, value, quoted).await
}

/// `$name`, `${name}`, `$1`, `$@`, `$?`...: a parameter with no operator,
/// subscript, length or indirection, expanded without suspending. `None`
/// when the expansion is not of that kind (or goes through a nameref to an
/// array element), for [`expand_param`] to do.
pub fn expand_plain_param(host: &dyn ExpandHost, pe: &ParamExpansion) -> Option<Result<Value, ExpandError>> {
    if pe.op.is_some() || pe.index.is_some() || pe.length || pe.indirect {
        return None;
    }
    let value = match &pe.param {
        Parameter::Special('@') => Value::Many(host.positionals(), false),
        Parameter::Special('*') => Value::Many(host.positionals(), true),
        Parameter::Special(c) => host.special(*c).map(Value::One).unwrap_or(Value::Unset),
        Parameter::Positional(n) => host.positional(*n as usize).map(Value::One).unwrap_or(Value::Unset),
        Parameter::Named(name) => {
            let resolved = host.resolve_name(name);
            if resolved.contains('[') {
                return None;
            }
            host.scalar(&resolved).map(Value::One).unwrap_or(Value::Unset)
        }
    };
    let is_star_or_at = matches!(pe.param, Parameter::Special('@') | Parameter::Special('*'));
    if value == Value::Unset && !is_star_or_at && host.options().nounset {
        return Some(Err(ExpandError::Unbound(unbound_name(pe))));
    }
    Some(Ok(value))
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
                text => Subscript::Expr(parse_subscript(text)),
            };
            (&target[..open], Some(subscript))
        }
        _ => (target, None),
    };
    let valid = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    valid.then(|| (Parameter::Named(name.into()), subscript))
}

async fn lookup(
    host: &mut dyn ExpandHost,
    param: &Parameter,
    index: &Option<Subscript>,
    pe: &ParamExpansion,
) -> Result<Value, ExpandError> {
    // A nameref to an element (`declare -n r='a[2]'`) reads that element.
    if let (Parameter::Named(name), None) = (param, index) {
        let resolved = host.resolve_name(name);
        if resolved.contains('[') {
            return match parse_indirect_target(&resolved) {
                Some((param, index @ Some(_))) => Box::pin(lookup(host, &param, &index, pe)).await,
                _ => Ok(Value::Unset),
            };
        }
    }
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
                        VarShape::Unset => Value::Many(Vec::new(), star),
                        _ => Value::Many(host.values(&name), star),
                    }
                }
                Some(Subscript::Expr(word)) => {
                    if word.parts.is_empty() {
                        return Err(ExpandError::BadSubstitution(format!("${{{name}[]}}")));
                    }
                    let key = element_key(host, &name, word).await?;
                    if let ElementKey::Index(i) = key {
                        // A negative index counts back from the end of an
                        // indexed array; before its start, or on an unset,
                        // empty or scalar variable, it is an error.
                        let below_start = i < 0
                            && match host.shape(&name) {
                                VarShape::Indexed => host
                                    .keys(&name)
                                    .last()
                                    .and_then(|k| k.parse::<i64>().ok())
                                    .is_none_or(|last| last + 1 + i < 0),
                                VarShape::Assoc => false,
                                _ => true,
                            };
                        if below_start {
                            // A warning, except under `set -e`, where bash stops.
                            if host.options().errexit {
                                return Err(ExpandError::Subscript(arith::ArithError {
                                    expression: name.to_string(),
                                    message: "bad array subscript".into(),
                                }));
                            }
                            host.warn(&format!("{name}: bad array subscript")).await;
                            return Ok(Value::Unset);
                        }
                    }
                    host.element(&name, &key).map(Value::One).unwrap_or(Value::Unset)
                }
            }
        }
    })
}

/// Parses a subscript held as text (a nameref's `a[$k]`, `unset 'm["k"]'`)
/// the way the shell parses it in `name[subscript]=`: quotes, `$var` and
/// `$(...)` inside keep their meaning.
pub fn parse_subscript(text: &str) -> Word {
    let literal =
        || Word { parts: crate::syntax::ast::Seq::One(crate::syntax::ast::WordPart::Literal(text.into())), span: Default::default() };
    if !text.contains(['$', '`', '\'', '"', '\\']) {
        return literal();
    }
    let Ok(list) = crate::syntax::parse(&format!("_[{text}]="), &Default::default()) else { return literal() };
    let parsed = list.items.into_iter().next().and_then(|item| match item.and_or.first.commands.into_iter().next() {
        Some(crate::syntax::ast::Command::Simple(command)) if command.words.is_empty() && command.assignments.len() == 1 => {
            command.assignments.into_iter().next().and_then(|a| a.index)
        }
        _ => None,
    });
    parsed.unwrap_or_else(literal)
}

/// The element a subscript held as text designates in array `name`.
pub async fn subscript_key(host: &mut dyn ExpandHost, name: &str, text: &str) -> Result<ElementKey, ExpandError> {
    element_key(host, name, &parse_subscript(text)).await
}

/// Evaluates a subscript: a key for associative arrays, arithmetic otherwise.
pub async fn element_key(host: &mut dyn ExpandHost, name: &str, word: &Word) -> Result<ElementKey, ExpandError> {
    if host.shape(name) == VarShape::Assoc {
        return Ok(ElementKey::Key(expand_string(host, word).await?));
    }
    // An index is arithmetic, where single quotes are not quotes: bash
    // reads `a['1']` as the text `'1'` (an error), as in `$(( '1' ))`.
    let text = match with_single_quotes_kept(word) {
        Some(kept) => expand_string(host, &kept).await?,
        None => expand_string(host, word).await?,
    };
    index_value(host, &text)
}

/// [`element_key`] for a subscript a declaration builtin received as an
/// argument (`declare a['1']=5`): quote removal has already happened
/// there, so single quotes are quotes. Also returns the expanded text,
/// which the builtin's errors name (`declare a[$n]=v`: `a[-7]`).
pub async fn declared_element_key(host: &mut dyn ExpandHost, name: &str, word: &Word) -> Result<(ElementKey, String), ExpandError> {
    let text = expand_string(host, word).await?;
    if host.shape(name) == VarShape::Assoc {
        return Ok((ElementKey::Key(text.clone()), text));
    }
    Ok((index_value(host, &text)?, text))
}

/// An indexed array's subscript text evaluated as arithmetic; an error
/// there is [`ExpandError::Subscript`] (bash exits on it).
fn index_value(host: &mut dyn ExpandHost, text: &str) -> Result<ElementKey, ExpandError> {
    match arith::eval_text(text, &mut HostArith(host)) {
        Ok(value) => Ok(ElementKey::Index(value)),
        Err(error) if !error.is_variable_error() => Err(ExpandError::Subscript(error)),
        Err(error) => Err(error.into()),
    }
}

/// `word` with its single-quoted and `$'...'` parts as literal text,
/// quotes included; `None` when it has none.
fn with_single_quotes_kept(word: &Word) -> Option<Word> {
    let quoted = |part: &WordPart| matches!(part, WordPart::SingleQuoted(_) | WordPart::AnsiCQuoted(_));
    if !word.parts.iter().any(quoted) {
        return None;
    }
    let parts: Vec<WordPart> = word
        .parts
        .iter()
        .map(|part| match part {
            WordPart::SingleQuoted(text) => WordPart::Literal(format!("'{}'", text.as_str()).into()),
            WordPart::AnsiCQuoted(bytes) => WordPart::Literal(format!("'{}'", String::from_utf8_lossy(bytes)).into()),
            other => other.clone(),
        })
        .collect();
    Some(Word { parts: parts.into(), span: word.span })
}

/// True when the shell's character type locale is not UTF-8 (`LC_ALL=C`,
/// or no locale variable at all): lengths then count bytes.
fn byte_locale(host: &dyn ExpandHost) -> bool {
    let locale = ["LC_ALL", "LC_CTYPE", "LANG"].iter().find_map(|name| host.scalar(name).filter(|value| !value.is_empty()));
    match locale {
        Some(value) => {
            let value = value.to_ascii_lowercase();
            !(value.contains("utf-8") || value.contains("utf8"))
        }
        None => true,
    }
}

async fn apply_length_and_op(host: &mut dyn ExpandHost, pe: &ParamExpansion, value: Value, quoted: bool) -> Result<Expansion, ExpandError> {
    let is_star_or_at =
        matches!(pe.param, Parameter::Special('@') | Parameter::Special('*')) || matches!(pe.index, Some(Subscript::At | Subscript::Star));
    if pe.length {
        if pe.op.is_some() {
            return Err(ExpandError::BadSubstitution(source_text(pe)));
        }
        return Ok(Expansion::Value(Value::One(match value {
            Value::Unset => {
                if host.options().nounset && !is_star_or_at {
                    // `${#a[i]}`: an unset element of an array counts 0; an
                    // array without a value is an error that ends the line only.
                    if let (Parameter::Named(name), Some(Subscript::Expr(_))) = (&pe.param, &pe.index) {
                        return match host.shape(&host.resolve_name(name)) {
                            VarShape::Unset => Err(ExpandError::UnboundArray(name.to_string())),
                            VarShape::Scalar => Err(ExpandError::Unbound(name.to_string())),
                            VarShape::Indexed | VarShape::Assoc => Ok(Expansion::Value(Value::One("0".into()))),
                        };
                    }
                    return Err(ExpandError::Unbound(display_name(&pe.param)));
                }
                "0".into()
            }
            Value::One(s) if !s.is_ascii() && byte_locale(host) => s.len().to_string(),
            Value::One(s) => s.chars().count().to_string(),
            Value::Many(values, _) => {
                // `${#a[@]}` of an array without a value is an error under `set -u`.
                if let (Parameter::Named(name), Some(Subscript::At | Subscript::Star)) = (&pe.param, &pe.index) {
                    if host.options().nounset && host.shape(&host.resolve_name(name)) == VarShape::Unset {
                        return Err(ExpandError::UnboundArray(name.to_string()));
                    }
                }
                values.len().to_string()
            }
        })));
    }
    let Some(op) = &pe.op else {
        if value == Value::Unset && host.options().nounset && !is_star_or_at {
            return Err(ExpandError::Unbound(unbound_name(pe)));
        }
        return Ok(Expansion::Value(value));
    };
    // `$@` and `${a[@]}` with no elements count as unset; with a colon, the
    // quoted `*` forms are null when their IFS-joined text is empty.
    let separator = match host.scalar("IFS") {
        Some(ifs) => ifs.chars().next().map(String::from).unwrap_or_default(),
        None => " ".to_string(),
    };
    let unset_or_null = |colon: bool, value: &Value| match value {
        // Through `${!ref}`, an array is null only when it has no elements.
        Value::Many(values, _) if colon && pe.indirect => values.is_empty(),
        Value::Many(values, star) if colon && *star && quoted => values.join(&separator).is_empty(),
        Value::Many(values, _) if !colon => values.is_empty(),
        _ if colon => value.is_null(),
        _ => *value == Value::Unset,
    };
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
            let message = match (message.is_empty(), colon) {
                (false, _) => message,
                (true, true) => "parameter null or not set".to_string(),
                (true, false) => "parameter not set".to_string(),
            };
            Err(ExpandError::NullOrUnset { name: display_name(&pe.param), message })
        }
        ParamOp::Alternative { colon, word } => {
            if unset_or_null(*colon, &value) {
                return Ok(Expansion::Value(match value {
                    Value::Many(_, star) => Value::Many(Vec::new(), star),
                    _ => Value::One(String::new()),
                }));
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
        // Bash writes `$1` for the bare form and `1` inside braces.
        (Parameter::Positional(n), _) if !pe.braced => format!("${n}"),
        (Parameter::Positional(n), _) => n.to_string(),
        (param, _) => display_name(param),
    }
}

async fn transform(host: &mut dyn ExpandHost, pe: &ParamExpansion, op: &ParamOp, value: Value) -> Result<Value, ExpandError> {
    let options = host.options();
    let pattern_options = PatternOptions { extglob: options.extglob, nocase: false };
    // In the C locale patterns match bytes: each byte stands as one character.
    let bytes = !value.is_ascii() && byte_locale(host);
    let narrow = |text: &str| if bytes { text.bytes().map(char::from).collect() } else { text.to_string() };
    let widen = |text: String| {
        if bytes {
            String::from_utf8_lossy(&text.chars().map(|c| c as u32 as u8).collect::<Vec<u8>>()).into_owned()
        } else {
            text
        }
    };
    Ok(match op {
        ParamOp::RemovePrefix { longest, pattern } => {
            let pattern = Pattern::new(&narrow(&expand_pattern(host, pattern).await?), pattern_options);
            value.map(|s| widen(remove_affix(&narrow(s), &pattern, *longest, true)))
        }
        ParamOp::RemoveSuffix { longest, pattern } => {
            let pattern = Pattern::new(&narrow(&expand_pattern(host, pattern).await?), pattern_options);
            value.map(|s| widen(remove_affix(&narrow(s), &pattern, *longest, false)))
        }
        ParamOp::Replace { mode, pattern, replacement } => {
            let pattern_text = narrow(&expand_pattern(host, pattern).await?);
            let replacement = match replacement {
                Some(word) => narrow(&super::word::expand_replacement(host, word).await?),
                None => String::new(),
            };
            let pattern = Pattern::new(&pattern_text, pattern_options);
            if pattern_text.is_empty() && !matches!(mode, ReplaceMode::Prefix | ReplaceMode::Suffix) {
                value
            } else {
                value.map(|s| widen(replace(&narrow(s), &pattern, &replacement, *mode)))
            }
        }
        ParamOp::Substring { offset, length } => {
            if offset.parts.is_empty() && length.is_none() {
                // `${s:}`: an offset or a length is required.
                let subscript = match &pe.index {
                    Some(Subscript::At) => "[@]",
                    Some(Subscript::Star) => "[*]",
                    _ => "",
                };
                return Err(ExpandError::BadSubstitution(format!("${{{}{subscript}:}}", display_name(&pe.param))));
            }
            // Bash skips the arithmetic of an unset value.
            if matches!(&value, Value::Unset) {
                return Ok(value);
            }
            // Its errors name the parameter: `x: 2:3: syntax error ...`.
            let named = |mut error: arith::ArithError| {
                if !error.is_variable_error() {
                    let subscript = match &pe.index {
                        Some(Subscript::At) => "[@]",
                        Some(Subscript::Star) => "[*]",
                        _ => "",
                    };
                    error.expression = format!("{}{subscript}: {}", display_name(&pe.param), error.expression);
                }
                error
            };
            let offset_text = expand_string(host, offset).await?;
            let offset = arith::eval_text(&offset_text, &mut HostArith(host)).map_err(named)?;
            // An offset past the end gives nothing, the length unread.
            if let Some(empty) = substring_past_end(host, pe, &value, offset) {
                return Ok(empty);
            }
            let length = match length {
                Some(word) => {
                    let text = expand_string(host, word).await?;
                    Some((arith::eval_text(&text, &mut HostArith(host)).map_err(named)?, text))
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
                Parameter::Named(name) => host.resolve_name(name).into_owned(),
                other => display_name(other),
            };
            match c {
                'Q' => value.map(quote_for_reuse),
                'E' => value.map(|s| String::from_utf8_lossy(&super::escapes::decode_ansi_c(s)).into_owned()),
                'P' => value,
                'U' => value.map(to_upper),
                'u' => value.map(|s| change_case(s, CaseMode::Upper, false, None)),
                'L' => value.map(to_lower),
                'a' => {
                    let letters = host.attribute_letters(&name);
                    match value {
                        Value::Unset if !letters.is_empty() => Value::One(letters),
                        value => value.map(|_| letters.clone()),
                    }
                }
                // Positional and special parameters are no variables: `$@`
                // becomes a `set --` command, the others nothing.
                'A' if !matches!(pe.param, Parameter::Named(_)) => match (&pe.param, value) {
                    (Parameter::Special('@' | '*'), Value::Many(values, _)) if !values.is_empty() => {
                        let quoted: Vec<String> = values.iter().map(|v| quote_for_reuse(v)).collect();
                        Value::One(format!("set -- {}", quoted.join(" ")))
                    }
                    (_, Value::Unset) => Value::Unset,
                    _ => Value::One(String::new()),
                },
                'A' | 'K' | 'k' => {
                    let whole_array = matches!(value, Value::Many(..)) && matches!(host.shape(&name), VarShape::Indexed | VarShape::Assoc);
                    if whole_array {
                        array_transform(host, &name, *c)
                    } else if *c == 'A' {
                        let letters = host.attribute_letters(&name);
                        let prefix = if letters.is_empty() { String::new() } else { format!("declare -{letters} ") };
                        value.map(|s| format!("{prefix}{name}={}", quote_for_reuse(s)))
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

/// Quotes a value as `declare -p` does: in double quotes, escaping `"$\``.
pub fn declare_quote(value: &str) -> String {
    if value.chars().any(|c| c.is_control()) {
        return quote_for_reuse(value);
    }
    let mut out = String::with_capacity(value.len() + 2);
    out.push('"');
    for c in value.chars() {
        if matches!(c, '"' | '\\' | '$' | '`') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// An associative array key as `declare -p` shows it: bare when it is a
/// word, double-quoted otherwise.
pub fn declare_key(key: &str) -> String {
    if key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        key.to_string()
    } else {
        declare_quote(key)
    }
}

/// `${a[@]@A}`, `${a[@]@K}` and `${a[@]@k}` on a whole array: the
/// `declare` command that recreates it, the key-value pairs quoted, or
/// each key and value as separate words.
fn array_transform(host: &mut dyn ExpandHost, name: &str, op: char) -> Value {
    let assoc = host.shape(name) == VarShape::Assoc;
    let pairs: Vec<(String, String)> = host.keys(name).into_iter().zip(host.values(name)).collect();
    match op {
        'k' => Value::Many(pairs.into_iter().flat_map(|(k, v)| [k, v]).collect(), false),
        'K' => {
            let items: Vec<String> =
                pairs.iter().map(|(k, v)| format!("{} {}", if assoc { declare_key(k) } else { k.clone() }, declare_quote(v))).collect();
            Value::One(if assoc { format!("{} ", items.join(" ")) } else { items.join(" ") })
        }
        _ => {
            let letters = host.attribute_letters(name);
            let items: Vec<String> =
                pairs.iter().map(|(k, v)| format!("[{}]={}", if assoc { declare_key(k) } else { k.clone() }, declare_quote(v))).collect();
            let body = if assoc && !items.is_empty() { format!("{} ", items.join(" ")) } else { items.join(" ") };
            Value::One(format!("declare -{letters} {name}=({body})"))
        }
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

/// The empty result of `${x:offset...}` when `offset` lies past a string's
/// end or past an array's last element (bash then does not evaluate the
/// length, nor complain of a negative one); `None` otherwise.
fn substring_past_end(host: &mut dyn ExpandHost, pe: &ParamExpansion, value: &Value, offset: i64) -> Option<Value> {
    match value {
        Value::One(s) => {
            let len = s.chars().count() as i64;
            let start = if offset < 0 { len + offset } else { offset };
            (start < 0 || start > len).then(|| Value::One(String::new()))
        }
        Value::Many(values, star) => {
            let (Parameter::Named(name), Some(Subscript::At | Subscript::Star)) = (&pe.param, &pe.index) else { return None };
            let name = host.resolve_name(name).into_owned();
            let past = match host.shape(&name) {
                VarShape::Indexed => {
                    let indices: Vec<i64> = host.keys(&name).iter().filter_map(|k| k.parse().ok()).collect();
                    let end = indices.last().map_or(0, |last| last + 1);
                    let start = if offset < 0 { end + offset } else { offset };
                    start < 0 || !indices.iter().any(|i| *i >= start)
                }
                VarShape::Assoc => {
                    let len = values.len() as i64 + 1;
                    let start = if offset < 0 { len + offset } else { offset };
                    start < 0 || start.max(1) > values.len() as i64
                }
                VarShape::Unset => true,
                _ => false,
            };
            past.then(|| Value::Many(Vec::new(), *star))
        }
        Value::Unset => None,
    }
}

fn substring_error(text: &str) -> ExpandError {
    // The text is shown as written, leading spaces included.
    ExpandError::Assign(format!("{text}: substring expression < 0"))
}

/// `${x:offset:length}` on a string, `$@` (positions, `$0` first) or an
/// array (offsets are indices: a sparse array's slice starts at the first
/// element at or after `offset`).
fn substring(
    host: &mut dyn ExpandHost,
    pe: &ParamExpansion,
    value: Value,
    offset: i64,
    length: Option<(i64, String)>,
) -> Result<Value, ExpandError> {
    Ok(match value {
        Value::Unset => Value::Unset,
        Value::One(s) => {
            let chars: Vec<char> = s.chars().collect();
            let len = chars.len() as i64;
            let start = if offset < 0 { len + offset } else { offset };
            if start < 0 || start > len {
                return Ok(Value::One(String::new()));
            }
            let end = match length {
                None => len,
                Some((l, text)) if l < 0 => {
                    if len + l < start {
                        return Err(substring_error(&text));
                    }
                    len + l
                }
                Some((l, _)) => start.saturating_add(l).min(len),
            };
            Value::One(chars[start as usize..end as usize].iter().collect())
        }
        Value::Many(values, star) => {
            let count = match length {
                Some((l, text)) if l < 0 => return Err(substring_error(&text)),
                Some((l, _)) => l as usize,
                None => usize::MAX,
            };
            let indexed_array = match (&pe.param, &pe.index) {
                (Parameter::Named(name), Some(Subscript::At | Subscript::Star)) => {
                    let name = host.resolve_name(name);
                    (host.shape(&name) == VarShape::Indexed).then(|| host.keys(&name))
                }
                _ => None,
            };
            let assoc_array = match (&pe.param, &pe.index) {
                (Parameter::Named(name), Some(Subscript::At | Subscript::Star)) => {
                    let name = host.resolve_name(name);
                    host.shape(&name) == VarShape::Assoc
                }
                _ => false,
            };
            let selected: Vec<String> = match indexed_array {
                // An associative array's values count from 1, as positional
                // parameters do without a `$0`; a length of 0 still gives one.
                None if assoc_array => {
                    let len = values.len() as i64 + 1;
                    let start = if offset < 0 { len + offset } else { offset };
                    if start < 0 || start > len {
                        return Ok(Value::Many(Vec::new(), star));
                    }
                    values.into_iter().skip(start.max(1) as usize - 1).take(count.max(1)).collect()
                }
                Some(keys) => {
                    let indices: Vec<i64> = keys.iter().filter_map(|k| k.parse().ok()).collect();
                    let end = indices.last().map_or(0, |last| last + 1);
                    let start = if offset < 0 { end + offset } else { offset };
                    if start < 0 {
                        return Ok(Value::Many(Vec::new(), star));
                    }
                    indices.iter().zip(values).filter(|(i, _)| **i >= start).map(|(_, v)| v).take(count).collect()
                }
                None => {
                    // `${@:0}` includes $0; `${@:1}` starts at $1.
                    let mut all = values;
                    if matches!(pe.param, Parameter::Special('@') | Parameter::Special('*')) {
                        all.insert(0, host.positional(0).unwrap_or_default());
                    }
                    let len = all.len() as i64;
                    let start = if offset < 0 { len + offset } else { offset };
                    if start < 0 || start > len {
                        return Ok(Value::Many(Vec::new(), star));
                    }
                    all.into_iter().skip(start as usize).take(count).collect()
                }
            };
            Value::Many(selected, star)
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
            CaseMode::Upper => out.push(upper_char(c)),
            CaseMode::Lower => out.push(lower_char(c)),
            CaseMode::Toggle => {
                if c.is_uppercase() {
                    out.push(lower_char(c))
                } else {
                    out.push(upper_char(c))
                }
            }
        }
    }
    out
}

/// The upper case of `c` as bash's `towupper` gives it: one character, so
/// `ß` (whose full upper case is `SS`) stays as it is.
fn upper_char(c: char) -> char {
    let mut upper = c.to_uppercase();
    match (upper.next(), upper.next()) {
        (Some(u), None) => u,
        _ => c,
    }
}

/// The lower case of `c`, one character for one (`towlower`).
fn lower_char(c: char) -> char {
    let mut lower = c.to_lowercase();
    match (lower.next(), lower.next()) {
        (Some(l), None) => l,
        _ => c,
    }
}

/// `s` in upper case, character by character (`${x^^}`, `declare -u`).
pub fn to_upper(s: &str) -> String {
    s.chars().map(upper_char).collect()
}

/// `s` in lower case, character by character (`${x,,}`, `declare -l`).
pub fn to_lower(s: &str) -> String {
    s.chars().map(lower_char).collect()
}
