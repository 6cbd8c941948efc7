//! Building fields from expanded pieces: field splitting with bash's IFS
//! rules, and the glob pattern that goes with each field (quoted characters
//! escaped so they match only themselves).

use super::pattern::escape;

/// A finished field: its text, its pattern form, and whether the pattern
/// has active glob characters.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Field {
    /// The text after quote removal.
    pub text: String,
    /// The text as a pattern: quoted characters backslash-escaped.
    pub pattern: String,
    /// True when an unquoted glob character is present.
    pub globbable: bool,
}

/// Accumulates pieces into fields.
pub struct FieldBuilder<'i> {
    ifs: &'i str,
    escaper: fn(&str) -> String,
    fields: Vec<Field>,
    current: Field,
    /// The current field exists even if empty (quoted text, or a delimiter started it).
    started: bool,
    /// The last delimiter seen was IFS whitespace (absorbs a following non-whitespace delimiter).
    after_whitespace_split: bool,
}

impl<'i> FieldBuilder<'i> {
    /// A builder splitting on `ifs`.
    pub fn new(ifs: &'i str) -> Self {
        Self::with_escaper(ifs, escape)
    }

    /// A builder whose pattern form escapes quoted text with `escaper`
    /// (glob escaping by default; regex escaping for `=~`).
    pub fn with_escaper(ifs: &'i str, escaper: fn(&str) -> String) -> Self {
        FieldBuilder { ifs, escaper, fields: Vec::new(), current: Field::default(), started: false, after_whitespace_split: false }
    }

    /// Adds text that is quoted: never split, never a pattern.
    pub fn push_quoted(&mut self, text: &str) {
        self.current.text.push_str(text);
        self.current.pattern.push_str(&(self.escaper)(text));
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
        self.current.text.push_str(text);
        if glob_active {
            self.current.pattern.push_str(text);
            self.current.globbable = true;
        } else {
            self.current.pattern.push_str(&(self.escaper)(text));
        }
        self.started = true;
        self.after_whitespace_split = false;
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
                let mut buffer = [0u8; 4];
                self.current.pattern.push_str(c.encode_utf8(&mut buffer));
                if matches!(c, '*' | '?' | '[') {
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

    /// Adds a pattern fragment built elsewhere (an extglob group): `text` is
    /// what the field holds if nothing matches, `pattern` the active pattern.
    pub fn push_pattern(&mut self, text: &str, pattern: &str) {
        self.current.text.push_str(text);
        self.current.pattern.push_str(pattern);
        self.current.globbable = true;
        self.started = true;
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

    /// The finished fields.
    pub fn finish(mut self) -> Vec<Field> {
        if self.started {
            self.finish_field();
        }
        self.fields
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(ifs: &str, text: &str) -> Vec<String> {
        let mut builder = FieldBuilder::new(ifs);
        builder.push_split(text);
        builder.finish().into_iter().map(|f| f.text).collect()
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
