//! Building fields from expanded pieces: field splitting with bash's IFS
//! rules, and the glob pattern that goes with each field (quoted characters
//! escaped so they match only themselves).

use super::pattern::escape;

/// A finished field: its text, which parts of it were quoted, and whether
/// an unquoted glob character is present. The pattern form is built only
/// when a glob or a pattern operator needs it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Field {
    /// The text after quote removal.
    pub text: String,
    /// Byte ranges of `text` that were quoted.
    quoted: Vec<(usize, usize)>,
    /// Byte ranges whose pattern form differs from their text (extglob groups).
    overrides: Vec<(usize, usize, String)>,
    /// True when an unquoted glob character is present.
    pub globbable: bool,
}

/// Whether a builder records which ranges were quoted (patterns need
/// them; plain strings do not).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum QuoteTracking {
    On,
    Off,
}

impl Field {
    /// The field as a POSIX extended regular expression for `[[ =~ ]]`, as
    /// bash builds it: a quoted character that is special in a regular
    /// expression gets a backslash, except inside a bracket expression,
    /// where quoted characters are copied as they are (`["a-z"]` is `[a-z]`).
    pub fn regex_pattern(&self) -> String {
        let mut out = String::with_capacity(self.text.len() + 8);
        let mut quoted = self.quoted.iter().peekable();
        // Inside a bracket expression: the byte offset just after its `[`
        // (and `^`), where a `]` is still a member.
        let mut bracket: Option<usize> = None;
        let mut chars = self.text.char_indices().peekable();
        while let Some((index, c)) = chars.next() {
            while quoted.peek().is_some_and(|(_, end)| *end <= index) {
                quoted.next();
            }
            let is_quoted = quoted.peek().is_some_and(|(start, _)| *start <= index);
            match bracket {
                None if is_quoted => {
                    if "\\.[]{}()*+?^$|".contains(c) {
                        out.push('\\');
                    }
                    out.push(c);
                }
                None => {
                    out.push(c);
                    if c == '[' {
                        let mut first = index + 1;
                        if let Some(&(_, '^')) = chars.peek() {
                            out.push('^');
                            chars.next();
                            first += 1;
                        }
                        bracket = Some(first);
                    }
                }
                Some(first) => {
                    out.push(c);
                    match c {
                        ']' if index != first => bracket = None,
                        '[' if matches!(chars.peek(), Some((_, ':' | '.' | '='))) => {
                            let Some((_, kind)) = chars.next() else { break };
                            out.push(kind);
                            // Copy the class name through its closing `:]`.
                            let mut previous = kind;
                            for (_, inner) in chars.by_ref() {
                                out.push(inner);
                                if previous == kind && inner == ']' {
                                    break;
                                }
                                previous = inner;
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
        out
    }

    /// The field as a pattern: quoted ranges escaped with `escaper`.
    pub fn pattern_with(&self, escaper: fn(&str) -> String) -> String {
        let mut out = String::with_capacity(self.text.len() + 8);
        let mut position = 0;
        let mut quoted = self.quoted.iter().peekable();
        let mut overrides = self.overrides.iter().peekable();
        while position < self.text.len() {
            if let Some((start, end, pattern)) = overrides.peek().filter(|(s, _, _)| *s == position).cloned() {
                out.push_str(pattern);
                position = *end;
                overrides.next();
                let _ = start;
                continue;
            }
            if let Some(&&(start, end)) = quoted.peek() {
                if start == position {
                    out.push_str(&escaper(&self.text[start..end]));
                    position = end;
                    quoted.next();
                    continue;
                }
            }
            let next_quoted = quoted.peek().map(|r| r.0).unwrap_or(self.text.len());
            let next_override = overrides.peek().map(|r| r.0).unwrap_or(self.text.len());
            let stop = next_quoted.min(next_override).max(position + 1).min(self.text.len());
            let stop = (stop..=self.text.len()).find(|&i| self.text.is_char_boundary(i)).unwrap_or(self.text.len());
            out.push_str(&self.text[position..stop]);
            position = stop;
        }
        out
    }

    /// The field as a glob pattern.
    pub fn pattern(&self) -> String {
        self.pattern_with(escape)
    }
}

/// Accumulates pieces into fields.
pub struct FieldBuilder<'i> {
    ifs: &'i str,
    fields: Vec<Field>,
    current: Field,
    /// The current field exists even if empty (quoted text, or a delimiter started it).
    started: bool,
    /// The last delimiter seen was IFS whitespace (absorbs a following non-whitespace delimiter).
    after_whitespace_split: bool,
    quotes: QuoteTracking,
}

impl<'i> FieldBuilder<'i> {
    /// A builder splitting on `ifs`.
    pub fn new(ifs: &'i str) -> Self {
        FieldBuilder {
            ifs,
            fields: Vec::new(),
            current: Field::default(),
            started: false,
            after_whitespace_split: false,
            quotes: QuoteTracking::On,
        }
    }

    /// A builder for one plain string: no splitting, and no record of
    /// quoting, which only patterns use.
    pub fn plain_text() -> FieldBuilder<'static> {
        FieldBuilder { quotes: QuoteTracking::Off, ..FieldBuilder::new("") }
    }

    fn push_quoted_range(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        let start = self.current.text.len();
        self.current.text.push_str(text);
        if self.quotes == QuoteTracking::Off {
            return;
        }
        match self.current.quoted.last_mut() {
            Some(last) if last.1 == start => last.1 = self.current.text.len(),
            _ => self.current.quoted.push((start, self.current.text.len())),
        }
    }

    /// Adds text that is quoted: never split, never a pattern.
    pub fn push_quoted(&mut self, text: &str) {
        self.push_quoted_range(text);
        self.started = true;
        self.after_whitespace_split = false;
    }

    /// Marks the current field as present even if it stays empty (`""`).
    pub fn mark_present(&mut self) {
        self.started = true;
        self.after_whitespace_split = false;
    }

    /// Adds unquoted literal text from the source: not split, glob-active.
    pub fn push_literal(&mut self, text: &str, glob_active: bool) {
        if text.is_empty() {
            return;
        }
        if glob_active {
            self.current.text.push_str(text);
            if text.contains(['*', '?', '[', '(']) {
                self.current.globbable = true;
            }
        } else {
            self.push_quoted_range(text);
        }
        self.started = true;
        self.after_whitespace_split = false;
    }

    /// Adds a pattern fragment built elsewhere (an extglob group): `text` is
    /// what the field holds if nothing matches, `pattern` the active pattern.
    pub fn push_pattern(&mut self, text: &str, pattern: &str) {
        let start = self.current.text.len();
        self.current.text.push_str(text);
        self.current.overrides.push((start, self.current.text.len(), pattern.to_string()));
        self.current.globbable = true;
        self.started = true;
        self.after_whitespace_split = false;
    }

    /// True when IFS is empty (no field splitting).
    pub fn ifs_is_empty(&self) -> bool {
        self.ifs.is_empty()
    }

    /// Adds the unquoted result of an expansion: split on IFS, glob-active.
    pub fn push_split(&mut self, text: &str) {
        if self.ifs.is_empty() {
            self.push_literal(text, true);
            return;
        }
        for c in text.chars() {
            if self.ifs.contains(c) {
                if matches!(c, ' ' | '\t' | '\n') {
                    if self.started {
                        self.finish_field();
                        self.after_whitespace_split = true;
                    }
                } else {
                    if !self.started && !self.after_whitespace_split {
                        self.fields.push(Field::default());
                    } else if self.started {
                        self.finish_field();
                    }
                    self.started = false;
                    self.after_whitespace_split = false;
                }
            } else {
                self.current.text.push(c);
                // `(` may open an extglob group (`@(a|b)` from a variable).
                if matches!(c, '*' | '?' | '[' | '(') {
                    self.current.globbable = true;
                }
                self.started = true;
                self.after_whitespace_split = false;
            }
        }
    }

    /// Ends the current field and starts a new one (between `"$@"` elements).
    pub fn break_field(&mut self) {
        if self.started {
            self.finish_field();
        }
        self.after_whitespace_split = false;
    }

    /// Forces the current field to end even if empty, starting a new one
    /// that is already present (for the next `"$@"` element).
    pub fn break_field_present(&mut self) {
        let field = std::mem::take(&mut self.current);
        self.fields.push(field);
        self.started = true;
        self.after_whitespace_split = false;
    }

    fn finish_field(&mut self) {
        let field = std::mem::take(&mut self.current);
        self.fields.push(field);
        self.started = false;
    }

    /// The finished fields (the last one never goes through the list, so
    /// a single field costs no list).
    pub fn finish(self) -> impl Iterator<Item = Field> {
        let last = self.started.then_some(self.current);
        self.fields.into_iter().chain(last)
    }

    /// The fields' texts joined by `separator`: the one string of an
    /// expansion that does not split.
    pub fn finish_joined(mut self, separator: &str) -> String {
        if self.fields.is_empty() {
            return if self.started { std::mem::take(&mut self.current.text) } else { String::new() };
        }
        self.finish().map(|field| field.text).collect::<Vec<_>>().join(separator)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(ifs: &str, text: &str) -> Vec<String> {
        let mut builder = FieldBuilder::new(ifs);
        builder.push_split(text);
        builder.finish().map(|f| f.text).collect()
    }

    #[test]
    fn whitespace_and_delimiters() {
        assert_eq!(split(" \t\n", "  a  b "), vec!["a", "b"]);
        assert_eq!(split(":", "a::b"), vec!["a", "", "b"]);
        assert_eq!(split(":", ":a:"), vec!["", "a"]);
        assert_eq!(split(": ", "a : b"), vec!["a", "b"]);
        assert_eq!(split(": ", "a:  :b"), vec!["a", "", "b"]);
        assert_eq!(split(" ", ""), Vec::<String>::new());
    }
}
