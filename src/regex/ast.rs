//! The parsed form of a POSIX regular expression, shared by both matching
//! engines: rendered to the `regex` crate's syntax for linear-time matching,
//! or compiled to a backtracking program when back-references need it.

use std::fmt::Write;
use std::sync::OnceLock;

/// A zero-width assertion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Look {
    /// `^`: start of the text (or of a line in multi-line mode).
    LineStart,
    /// `$`: end of the text (or of a line in multi-line mode).
    LineEnd,
    /// `` \` ``: start of the whole text.
    TextStart,
    /// `\'`: end of the whole text.
    TextEnd,
    /// `\b`.
    WordBoundary,
    /// `\B`.
    NotWordBoundary,
    /// `\<`.
    WordStart,
    /// `\>`.
    WordEnd,
    /// No word character just before (the start of a `grep -w` match).
    NotWordBefore,
    /// No word character just after (the end of a `grep -w` match).
    NotWordAfter,
}

/// A named character class (`[:alpha:]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClassName {
    /// `[:alnum:]`
    Alnum,
    /// `[:alpha:]`
    Alpha,
    /// `[:blank:]`
    Blank,
    /// `[:cntrl:]`
    Cntrl,
    /// `[:digit:]`
    Digit,
    /// `[:graph:]`
    Graph,
    /// `[:lower:]`
    Lower,
    /// `[:print:]`
    Print,
    /// `[:punct:]`
    Punct,
    /// `[:space:]`
    Space,
    /// `[:upper:]`
    Upper,
    /// `[:xdigit:]`
    Xdigit,
    /// Word characters, `\w` (alphanumerics and `_`).
    Word,
}

impl ClassName {
    /// The class a `[:name:]` names.
    pub fn from_name(name: &[u8]) -> Option<ClassName> {
        Some(match name {
            b"alnum" => ClassName::Alnum,
            b"alpha" => ClassName::Alpha,
            b"blank" => ClassName::Blank,
            b"cntrl" => ClassName::Cntrl,
            b"digit" => ClassName::Digit,
            b"graph" => ClassName::Graph,
            b"lower" => ClassName::Lower,
            b"print" => ClassName::Print,
            b"punct" => ClassName::Punct,
            b"space" => ClassName::Space,
            b"upper" => ClassName::Upper,
            b"xdigit" => ClassName::Xdigit,
            _ => return None,
        })
    }

    /// True when `c` belongs to the class, as glibc's `C.UTF-8` classifies
    /// characters (digits are ASCII only; letters and cases are Unicode's).
    pub fn contains(self, c: char) -> bool {
        let alnum = c.is_alphabetic() || c.is_ascii_digit();
        let graph = !c.is_control() && !c.is_whitespace();
        match self {
            ClassName::Alnum => alnum,
            ClassName::Alpha => c.is_alphabetic(),
            ClassName::Blank => c == ' ' || c == '\t',
            ClassName::Cntrl => c.is_control(),
            ClassName::Digit => c.is_ascii_digit(),
            ClassName::Graph => graph,
            ClassName::Lower => c.is_lowercase(),
            ClassName::Print => graph || c == ' ',
            ClassName::Punct => graph && !alnum,
            ClassName::Space => c.is_whitespace(),
            ClassName::Upper => c.is_uppercase(),
            ClassName::Xdigit => c.is_ascii_hexdigit(),
            ClassName::Word => alnum || c == '_',
        }
    }

    /// The class in the `regex` crate's syntax, for use inside `[...]`:
    /// its ranges, computed once from [`ClassName::contains`] so both
    /// engines agree.
    fn render(self) -> &'static str {
        static CACHE: [OnceLock<String>; 13] = [const { OnceLock::new() }; 13];
        let Some(cell) = CACHE.get(self as usize) else {
            return "";
        };
        cell.get_or_init(|| {
            let mut out = String::new();
            let mut run: Option<(char, char)> = None;
            let close = |run: Option<(char, char)>, out: &mut String| {
                if let Some((low, high)) = run {
                    let _ = write!(out, r"\x{{{:X}}}-\x{{{:X}}}", low as u32, high as u32);
                }
            };
            for c in (0..=char::MAX as u32).filter_map(char::from_u32) {
                if !self.contains(c) {
                    continue;
                }
                run = match run {
                    Some((low, high)) if high as u32 + 1 == c as u32 || (high == '\u{D7FF}' && c == '\u{E000}') => Some((low, c)),
                    previous => {
                        close(previous, &mut out);
                        Some((c, c))
                    }
                };
            }
            close(run, &mut out);
            out
        })
    }
}

/// One member of a bracket expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BracketItem {
    /// A single character (also `[=c=]` and `[.c.]`).
    Char(char),
    /// A byte that is not valid UTF-8.
    Byte(u8),
    /// `a-z`.
    Range(char, char),
    /// `[:alpha:]`.
    Class(ClassName),
}

/// A bracket expression (`[a-z]`, `[^[:space:]]`) or a class escape (`\w`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bracket {
    /// `[^...]`.
    pub negated: bool,
    /// The members.
    pub items: Vec<BracketItem>,
}

impl Bracket {
    /// True when the character `c` is in the set; `fold` compares without case.
    pub fn matches_char(&self, c: char, fold: bool) -> bool {
        let hit = |c: char| {
            self.items.iter().any(|item| match item {
                BracketItem::Char(x) => *x == c,
                BracketItem::Byte(_) => false,
                BracketItem::Range(low, high) => (*low..=*high).contains(&c),
                BracketItem::Class(class) => class.contains(c),
            })
        };
        let found = hit(c) || (fold && (c.to_lowercase().any(hit) || c.to_uppercase().any(hit)));
        found != self.negated
    }

    /// True when the invalid byte `b` is in the set.
    pub fn matches_byte(&self, b: u8) -> bool {
        let hit = self.items.contains(&BracketItem::Byte(b));
        hit && !self.negated
    }
}

/// A node of the parsed expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node {
    /// Matches the empty string.
    Empty,
    /// A character.
    Char(char),
    /// A byte that is not valid UTF-8.
    Byte(u8),
    /// `.`.
    Any,
    /// A bracket expression or class escape.
    Set(Bracket),
    /// A zero-width assertion.
    Look(Look),
    /// `\(...\)` / `(...)`, with its group number (from 1).
    Group(Box<Node>, usize),
    /// A sequence.
    Concat(Vec<Node>),
    /// `a\|b` / `a|b`.
    Alternate(Vec<Node>),
    /// `x*`, `x\{n,m\}`...: the node, the minimum and the maximum (`None`: unbounded).
    Repeat(Box<Node>, u32, Option<u32>),
    /// `\1`..`\9`.
    Backref(usize),
}

impl Node {
    /// True when the expression uses a back-reference.
    pub fn has_backref(&self) -> bool {
        match self {
            Node::Backref(_) => true,
            Node::Group(inner, _) | Node::Repeat(inner, _, _) => inner.has_backref(),
            Node::Concat(nodes) | Node::Alternate(nodes) => nodes.iter().any(Node::has_backref),
            _ => false,
        }
    }

    /// A looser expression without back-references: each `\N` becomes a copy
    /// of group N's expression. Whatever the original matches, this matches
    /// too, so a linear-time search with it can rule lines out before the
    /// backtracker runs.
    pub fn without_backrefs(&self) -> Node {
        let mut groups = Vec::new();
        self.collect_groups(&mut groups);
        self.substitute_backrefs(&groups)
    }

    fn collect_groups<'a>(&'a self, groups: &mut Vec<(usize, &'a Node)>) {
        match self {
            Node::Group(inner, number) => {
                groups.push((*number, inner));
                inner.collect_groups(groups);
            }
            Node::Repeat(inner, _, _) => inner.collect_groups(groups),
            Node::Concat(nodes) | Node::Alternate(nodes) => nodes.iter().for_each(|node| node.collect_groups(groups)),
            _ => {}
        }
    }

    fn substitute_backrefs(&self, groups: &[(usize, &Node)]) -> Node {
        match self {
            // The copy drops its anchors: `\(^a\)\1` matches `aa`, the second
            // `a` being text, not at a line start.
            Node::Backref(number) => match groups.iter().find(|(n, _)| n == number) {
                Some((_, inner)) => inner.substitute_backrefs(groups).without_looks(),
                None => Node::Repeat(Box::new(Node::Any), 0, None),
            },
            Node::Group(inner, number) => Node::Group(Box::new(inner.substitute_backrefs(groups)), *number),
            Node::Repeat(inner, min, max) => Node::Repeat(Box::new(inner.substitute_backrefs(groups)), *min, *max),
            Node::Concat(nodes) => Node::Concat(nodes.iter().map(|node| node.substitute_backrefs(groups)).collect()),
            Node::Alternate(nodes) => Node::Alternate(nodes.iter().map(|node| node.substitute_backrefs(groups)).collect()),
            other => other.clone(),
        }
    }

    fn without_looks(&self) -> Node {
        match self {
            Node::Look(_) => Node::Empty,
            Node::Group(inner, number) => Node::Group(Box::new(inner.without_looks()), *number),
            Node::Repeat(inner, min, max) => Node::Repeat(Box::new(inner.without_looks()), *min, *max),
            Node::Concat(nodes) => Node::Concat(nodes.iter().map(Node::without_looks).collect()),
            Node::Alternate(nodes) => Node::Alternate(nodes.iter().map(Node::without_looks).collect()),
            other => other.clone(),
        }
    }

    /// The expression in the `regex` crate's syntax. `multiline` makes `^`
    /// and `$` match around newlines.
    pub fn render(&self, multiline: bool) -> String {
        let mut out = String::new();
        self.render_into(&mut out, multiline);
        out
    }

    fn render_into(&self, out: &mut String, multiline: bool) {
        match self {
            Node::Empty => out.push_str("(?:)"),
            Node::Char(c) => push_char(out, *c),
            Node::Byte(b) => {
                let _ = write!(out, r"(?-u:\x{b:02X})");
            }
            Node::Any => out.push_str("(?s:.)"),
            Node::Set(bracket) => render_bracket(out, bracket),
            Node::Look(look) => out.push_str(match (look, multiline) {
                (Look::LineStart, false) | (Look::TextStart, _) => r"\A",
                (Look::LineEnd, false) | (Look::TextEnd, _) => r"\z",
                (Look::LineStart, true) => "(?m:^)",
                (Look::LineEnd, true) => "(?m:$)",
                (Look::WordBoundary, _) => r"\b",
                (Look::NotWordBoundary, _) => r"\B",
                (Look::WordStart, _) => r"\b{start}",
                (Look::WordEnd, _) => r"\b{end}",
                (Look::NotWordBefore, _) => r"\b{start-half}",
                (Look::NotWordAfter, _) => r"\b{end-half}",
            }),
            Node::Group(inner, _) => {
                out.push('(');
                inner.render_into(out, multiline);
                out.push(')');
            }
            Node::Concat(nodes) => nodes.iter().for_each(|node| node.render_into(out, multiline)),
            Node::Alternate(nodes) => {
                out.push_str("(?:");
                for (index, node) in nodes.iter().enumerate() {
                    if index > 0 {
                        out.push('|');
                    }
                    node.render_into(out, multiline);
                }
                out.push(')');
            }
            Node::Repeat(inner, min, max) => {
                out.push_str("(?:");
                inner.render_into(out, multiline);
                out.push(')');
                let _ = match max {
                    None => write!(out, "{{{min},}}"),
                    Some(max) => write!(out, "{{{min},{max}}}"),
                };
            }
            Node::Backref(_) => out.push_str("(?:)"),
        }
    }
}

fn push_char(out: &mut String, c: char) {
    if c.is_ascii_alphanumeric() || (!c.is_ascii() && !c.is_whitespace()) {
        out.push(c);
    } else {
        let _ = write!(out, r"\x{{{:X}}}", c as u32);
    }
}

fn render_bracket(out: &mut String, bracket: &Bracket) {
    let bytes: Vec<u8> = bracket.items.iter().filter_map(|item| if let BracketItem::Byte(b) = item { Some(*b) } else { None }).collect();
    // Raw bytes need a class of their own in the crate's byte mode.
    if !bytes.is_empty() && !bracket.negated {
        out.push_str("(?:(?-u:[");
        for b in &bytes {
            let _ = write!(out, r"\x{b:02X}");
        }
        out.push_str("])|");
    }
    out.push('[');
    if bracket.negated {
        out.push('^');
    }
    let mut empty = true;
    for item in &bracket.items {
        match item {
            BracketItem::Char(c) => push_char(out, *c),
            BracketItem::Byte(_) => continue,
            BracketItem::Range(low, high) => {
                push_char(out, *low);
                out.push('-');
                push_char(out, *high);
            }
            BracketItem::Class(class) => {
                out.push('[');
                out.push_str(class.render());
                out.push(']');
            }
        }
        empty = false;
    }
    if empty {
        // A set with no characters: an intersection that is empty.
        out.push_str(r"\x00&&\x01");
    }
    out.push(']');
    if !bytes.is_empty() && !bracket.negated {
        out.push(')');
    }
}
