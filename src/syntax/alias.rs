//! Alias expansion at parse time: an alias name in command position is
//! replaced by its value, which is then read as source text.

use super::parser::{PResult, Parser};
use std::borrow::Cow;

impl Parser<'_> {
    /// Replaces the alias name at the read position with its value; true
    /// when it did. An alias is not expanded again inside its own value.
    pub(super) fn expand_alias(&mut self) -> PResult<bool> {
        let pos = self.pos;
        self.alias_guard.retain(|(_, end)| *end > pos);
        let Some(name) = self.plain_word().map(str::to_string) else { return Ok(false) };
        let Some(value) = self.aliases.get(&name).cloned() else { return Ok(false) };
        if self.alias_guard.iter().any(|(guarded, _)| *guarded == name) {
            return Ok(false);
        }
        self.step()?;
        let mut text = String::with_capacity(self.text.len() + value.len());
        text.push_str(self.slice(0, pos));
        text.push_str(&value);
        text.push_str(self.slice(pos + name.len(), self.text.len()));
        let grown = value.len() as isize - name.len() as isize;
        self.end = (self.end as isize + grown).max(0) as usize;
        for (_, end) in &mut self.alias_guard {
            *end = (*end as isize + grown).max(0) as usize;
        }
        self.alias_guard.push((name, pos + value.len()));
        self.text = Cow::Owned(text);
        Ok(true)
    }
}
