//! Brace expansion, found in a word's unquoted literal text after the word
//! is read: `{a,b}` becomes a [`WordPart::BraceList`], `{1..10..2}` a
//! [`WordPart::BraceRange`]; `{a}`, `{}` and unmatched braces stay literal.

use super::ast::{BraceSequence, Seq, Span, Text, Word, WordPart};
use super::parser::{PResult, Parser};

/// One unquoted character, or any other part.
enum Item {
    Char(char),
    Part(WordPart),
}

/// For each `{`, its matching `}` and whether a comma stands at its level.
struct Groups {
    close: Vec<Option<usize>>,
    comma: Vec<bool>,
}

impl Parser<'_> {
    /// Finds brace expansions in `parts`.
    pub(super) fn brace_expand(&mut self, parts: Seq<WordPart>) -> PResult<Seq<WordPart>> {
        let has_brace = parts.iter().any(|part| matches!(part, WordPart::Literal(text) if text.as_bytes().contains(&b'{')));
        if !has_brace {
            return Ok(parts);
        }
        let mut items = Vec::new();
        for part in parts {
            match part {
                WordPart::Literal(text) => items.extend(text.chars().map(Item::Char)),
                other => items.push(Item::Part(other)),
            }
        }
        let groups = find_groups(&items);
        let mut slots: Vec<Option<Item>> = items.into_iter().map(Some).collect();
        let length = slots.len();
        Ok(self.expand_range(&mut slots, &groups, 0, length)?.into())
    }

    /// Builds the parts of `slots[from..to]`.
    fn expand_range(&mut self, slots: &mut [Option<Item>], groups: &Groups, from: usize, to: usize) -> PResult<Vec<WordPart>> {
        let mut out: Vec<WordPart> = Vec::new();
        let mut index = from;
        while index < to {
            self.step()?;
            let open_here = matches!(slots.get(index), Some(Some(Item::Char('{'))));
            let close = if open_here { groups.close.get(index).copied().flatten().filter(|c| *c < to) } else { None };
            if let Some(close) = close {
                if groups.comma.get(index).copied().unwrap_or(false) {
                    self.enter()?;
                    let mut alternatives = Vec::new();
                    let mut start = index + 1;
                    let mut at = index + 1;
                    while at <= close {
                        let at_comma = at == close || is_top_comma(slots, at);
                        if at_comma {
                            let parts = self.expand_range(slots, groups, start, at)?;
                            alternatives.push(Word { parts: parts.into(), span: Span::default() });
                            start = at + 1;
                            at += 1;
                            continue;
                        }
                        at = match groups.close.get(at).copied().flatten() {
                            Some(inner_close) if matches!(slots.get(at), Some(Some(Item::Char('{')))) => inner_close + 1,
                            _ => at + 1,
                        };
                    }
                    self.leave();
                    out.push(WordPart::BraceList(alternatives));
                    index = close + 1;
                    continue;
                }
                if let Some(range) = range_part(slots, index + 1, close) {
                    out.push(range);
                    index = close + 1;
                    continue;
                }
            }
            match slots.get_mut(index).and_then(Option::take) {
                Some(Item::Char(c)) => match out.last_mut() {
                    Some(WordPart::Literal(text)) => text.push(c),
                    _ => out.push(WordPart::Literal(Text::from(c))),
                },
                Some(Item::Part(part)) => out.push(part),
                None => {}
            }
            index += 1;
        }
        Ok(out)
    }
}

/// True when `slots[at]` is a comma (nested groups are skipped by the caller).
fn is_top_comma(slots: &[Option<Item>], at: usize) -> bool {
    matches!(slots.get(at), Some(Some(Item::Char(','))))
}

/// Matches braces with a stack, noting which groups hold a comma at their own level.
fn find_groups(items: &[Item]) -> Groups {
    let mut close = vec![None; items.len()];
    let mut comma = vec![false; items.len()];
    let mut stack: Vec<usize> = Vec::new();
    for (index, item) in items.iter().enumerate() {
        match item {
            Item::Char('{') => stack.push(index),
            Item::Char('}') => {
                if let Some(open) = stack.pop() {
                    if let Some(slot) = close.get_mut(open) {
                        *slot = Some(index);
                    }
                }
            }
            Item::Char(',') => {
                if let Some(&open) = stack.last() {
                    if let Some(slot) = comma.get_mut(open) {
                        *slot = true;
                    }
                }
            }
            _ => {}
        }
    }
    Groups { close, comma }
}

/// `{1..10}`, `{a..e}`, `{1..10..2}`: the text between the braces, if a sequence.
fn range_part(slots: &[Option<Item>], from: usize, to: usize) -> Option<WordPart> {
    if to.saturating_sub(from) > 64 {
        return None;
    }
    let mut text = String::new();
    for slot in slots.get(from..to)? {
        match slot {
            Some(Item::Char(c)) => text.push(*c),
            _ => return None,
        }
    }
    let mut pieces = text.split("..");
    let start = pieces.next()?;
    let end = pieces.next()?;
    let step = pieces.next();
    if pieces.next().is_some() {
        return None;
    }
    let numeric = is_integer(start) && is_integer(end);
    let letters = is_letter(start) && is_letter(end);
    if !numeric && !letters {
        return None;
    }
    if let Some(step) = step {
        if !is_integer(step) {
            return None;
        }
    }
    Some(WordPart::BraceRange(Box::new(BraceSequence { start: start.to_string(), end: end.to_string(), step: step.map(str::to_string) })))
}

fn is_integer(text: &str) -> bool {
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

fn is_letter(text: &str) -> bool {
    let mut chars = text.chars();
    matches!((chars.next(), chars.next()), (Some(c), None) if c.is_ascii_alphabetic())
}
