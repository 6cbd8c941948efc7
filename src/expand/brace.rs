//! Brace expansion: `{a,b}` alternatives and `{1..10..2}` / `{a..e}`
//! sequences, producing several words from one before any other expansion.

use crate::syntax::ast::{ParamExpansion, Parameter, Word, WordPart};

/// True when `word` has brace expansion parts.
pub fn has_braces(word: &Word) -> bool {
    word.parts.iter().any(|p| matches!(p, WordPart::BraceList(_) | WordPart::BraceRange(_)))
}

/// Most words one brace expansion may produce.
pub const MAX_BRACE_WORDS: usize = 1_000_000;

/// Expands the braces of `word` into words without brace parts. `Err` when
/// the expansion would exceed [`MAX_BRACE_WORDS`].
pub fn expand_braces(word: &Word) -> Result<Vec<Vec<WordPart>>, String> {
    let mut results: Vec<Vec<WordPart>> = vec![Vec::new()];
    for part in &word.parts {
        let alternatives: Vec<Vec<WordPart>> = match part {
            WordPart::BraceList(words) => {
                let mut all = Vec::new();
                for alternative in words {
                    all.extend(expand_braces(alternative)?);
                }
                all
            }
            WordPart::BraceRange(range) => match sequence(&range.start, &range.end, range.step.as_deref())? {
                // An empty item (the backslash of `{Z..a}`) is still a word.
                Some(items) => items
                    .into_iter()
                    .map(|s| vec![if s.is_empty() { WordPart::SingleQuoted(s.into()) } else { WordPart::Literal(s.into()) }])
                    .collect(),
                None => vec![vec![WordPart::Literal(range_text(&range.start, &range.end, range.step.as_deref()).into())]],
            },
            other => {
                for result in &mut results {
                    result.push(other.clone());
                }
                continue;
            }
        };
        if results.len().saturating_mul(alternatives.len()) > MAX_BRACE_WORDS {
            return Err(brace_limit_message());
        }
        let mut next = Vec::with_capacity(results.len() * alternatives.len());
        for prefix in &results {
            for alternative in &alternatives {
                let mut combined = prefix.clone();
                combined.extend(alternative.iter().cloned());
                next.push(combined);
            }
        }
        results = next;
    }
    Ok(results.into_iter().map(rescan).collect())
}

/// bash expands braces on the text of a word and then reads it again, so
/// two things appear that the parts alone do not show: a word that now
/// starts with `~` gets tilde expansion (`~{/a,/b}`), and `$name` followed
/// by name characters reads as a longer name (`{$a,b}_c` is `$a_c`).
fn rescan(pieces: Vec<WordPart>) -> Vec<WordPart> {
    let mut parts: Vec<WordPart> = Vec::with_capacity(pieces.len());
    for part in pieces {
        match (parts.last_mut(), part) {
            (Some(WordPart::Literal(text)), WordPart::Literal(more)) => text.push_str(&more),
            (_, part) => parts.push(part),
        }
    }
    let mut index = 0;
    while index + 1 < parts.len() {
        let longer = match (&parts[index], &parts[index + 1]) {
            (WordPart::Param(pe), WordPart::Literal(text)) if is_plain_name(pe) => {
                let extra: String = text.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                (!extra.is_empty()).then_some(extra)
            }
            _ => None,
        };
        match longer {
            Some(extra) => {
                if let WordPart::Param(pe) = &mut parts[index] {
                    if let Parameter::Named(name) = &mut pe.param {
                        name.push_str(&extra);
                    }
                }
                if let WordPart::Literal(text) = &mut parts[index + 1] {
                    *text = text[extra.len()..].into();
                }
                if matches!(&parts[index + 1], WordPart::Literal(text) if text.is_empty()) {
                    parts.remove(index + 1);
                }
            }
            None => index += 1,
        }
    }
    if let Some(WordPart::Literal(text)) = parts.first() {
        if let Some(rest) = text.strip_prefix('~') {
            let user_length = rest.find('/').unwrap_or(rest.len());
            let ends_prefix = user_length < rest.len() || parts.len() == 1;
            let user = &rest[..user_length];
            if ends_prefix && user.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '+')) {
                let remainder = rest[user_length..].to_string();
                let tilde = WordPart::Tilde(user.to_string());
                parts.splice(0..1, std::iter::once(tilde).chain((!remainder.is_empty()).then_some(WordPart::Literal(remainder.into()))));
            }
        }
    }
    parts
}

/// An unbraced `$name` with nothing after the name.
fn is_plain_name(pe: &ParamExpansion) -> bool {
    !pe.braced && pe.index.is_none() && pe.op.is_none() && !pe.indirect && !pe.length && matches!(pe.param, Parameter::Named(_))
}

fn range_text(start: &str, end: &str, step: Option<&str>) -> String {
    match step {
        Some(step) => format!("{{{start}..{end}..{step}}}"),
        None => format!("{{{start}..{end}}}"),
    }
}

/// The message of a brace expansion that would make too many words: an
/// error, never a silent cut.
fn brace_limit_message() -> String {
    format!("brace expansion limit ({MAX_BRACE_WORDS} words) exceeded")
}

/// The items of `{start..end..step}`, `Ok(None)` when it is not a valid
/// sequence, and an error when it would make more than [`MAX_BRACE_WORDS`].
fn sequence(start: &str, end: &str, step: Option<&str>) -> Result<Option<Vec<String>>, String> {
    let step: i64 = match step {
        Some(text) => match text.parse() {
            Ok(step) => step,
            Err(_) => return Ok(None),
        },
        None => 1,
    };
    let step = step.unsigned_abs().max(1) as i64;
    if let (Ok(a), Ok(b)) = (start.parse::<i64>(), end.parse::<i64>()) {
        let count = (i128::from(a) - i128::from(b)).unsigned_abs() / step as u128 + 1;
        if count > MAX_BRACE_WORDS as u128 {
            return Err(brace_limit_message());
        }
        let width = if has_leading_zero(start) || has_leading_zero(end) { start.len().max(end.len()) } else { 0 };
        let mut items = Vec::new();
        let mut value = a;
        loop {
            if (a <= b && value > b) || (a > b && value < b) {
                break;
            }
            items.push(if width > 0 { pad(value, width) } else { value.to_string() });
            value = match if a <= b { value.checked_add(step) } else { value.checked_sub(step) } {
                Some(next) => next,
                None => break,
            };
        }
        return Ok(Some(items));
    }
    Ok(letter_sequence(start, end, step))
}

/// The items of `{a..z..step}` for single ASCII letters, or `None`.
fn letter_sequence(start: &str, end: &str, step: i64) -> Option<Vec<String>> {
    let (mut a_chars, mut b_chars) = (start.chars(), end.chars());
    let (a, b) = (a_chars.next()?, b_chars.next()?);
    if a_chars.next().is_some() || b_chars.next().is_some() || !a.is_ascii_alphabetic() || !b.is_ascii_alphabetic() {
        return None;
    }
    let (a, b) = (a as i64, b as i64);
    let mut items = Vec::new();
    let mut value = a;
    while (a <= b && value <= b) || (a > b && value >= b) {
        // bash reads the produced text again: a lone backslash quotes nothing.
        let c = char::from_u32(value as u32)?;
        items.push(if c == '\\' { String::new() } else { c.to_string() });
        value = if a <= b { value + step } else { value - step };
    }
    Some(items)
}

fn has_leading_zero(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    digits.len() > 1 && digits.starts_with('0')
}

fn pad(value: i64, width: usize) -> String {
    if value < 0 {
        format!("-{:0>width$}", value.unsigned_abs(), width = width.saturating_sub(1))
    } else {
        format!("{value:0>width$}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequences() {
        assert_eq!(sequence("1", "5", Some("2")), Ok(Some(vec!["1".into(), "3".into(), "5".into()])));
        assert_eq!(sequence("01", "03", None), Ok(Some(vec!["01".into(), "02".into(), "03".into()])));
        assert_eq!(sequence("c", "a", None), Ok(Some(vec!["c".into(), "b".into(), "a".into()])));
        assert_eq!(sequence("a", "3", None), Ok(None));
        assert_eq!(sequence("1", "99999999", None), Err("brace expansion limit (1000000 words) exceeded".to_string()));
        assert_eq!(sequence("1", "2000000", Some("2")).map(|items| items.map(|v| v.len())), Ok(Some(1_000_000)));
    }
}
