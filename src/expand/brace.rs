//! Brace expansion: `{a,b}` alternatives and `{1..10..2}` / `{a..e}`
//! sequences, producing several words from one before any other expansion.

use crate::syntax::ast::{Word, WordPart};

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
            WordPart::BraceRange(range) => match sequence(&range.start, &range.end, range.step.as_deref()) {
                Some(items) => items.into_iter().map(|s| vec![WordPart::Literal(s.into())]).collect(),
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
            return Err(format!("brace expansion: more than {MAX_BRACE_WORDS} words"));
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
    Ok(results)
}

fn range_text(start: &str, end: &str, step: Option<&str>) -> String {
    match step {
        Some(step) => format!("{{{start}..{end}..{step}}}"),
        None => format!("{{{start}..{end}}}"),
    }
}

/// The items of `{start..end..step}`, or `None` when it is not a valid sequence.
fn sequence(start: &str, end: &str, step: Option<&str>) -> Option<Vec<String>> {
    let step: i64 = match step {
        Some(text) => text.parse().ok()?,
        None => 1,
    };
    let step = step.unsigned_abs().max(1) as i64;
    if let (Ok(a), Ok(b)) = (start.parse::<i64>(), end.parse::<i64>()) {
        let width = if has_leading_zero(start) || has_leading_zero(end) { start.len().max(end.len()) } else { 0 };
        let mut items = Vec::new();
        let mut value = a;
        loop {
            if (a <= b && value > b) || (a > b && value < b) || items.len() >= MAX_BRACE_WORDS {
                break;
            }
            items.push(if width > 0 { pad(value, width) } else { value.to_string() });
            value = if a <= b { value.checked_add(step)? } else { value.checked_sub(step)? };
        }
        return Some(items);
    }
    let (mut a_chars, mut b_chars) = (start.chars(), end.chars());
    let (a, b) = (a_chars.next()?, b_chars.next()?);
    if a_chars.next().is_some() || b_chars.next().is_some() || !a.is_ascii_alphabetic() || !b.is_ascii_alphabetic() {
        return None;
    }
    let (a, b) = (a as i64, b as i64);
    let mut items = Vec::new();
    let mut value = a;
    while (a <= b && value <= b) || (a > b && value >= b) {
        items.push(char::from_u32(value as u32)?.to_string());
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
        assert_eq!(sequence("1", "5", Some("2")), Some(vec!["1".into(), "3".into(), "5".into()]));
        assert_eq!(sequence("01", "03", None), Some(vec!["01".into(), "02".into(), "03".into()]));
        assert_eq!(sequence("c", "a", None), Some(vec!["c".into(), "b".into(), "a".into()]));
        assert_eq!(sequence("a", "3", None), None);
    }
}
