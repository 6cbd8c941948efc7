//! The parser of POSIX basic and extended regular expressions in their GNU
//! flavour (`\+ \? \|` in basic ones, `\< \> \b \B \w \W \s \S` and the
//! buffer anchors, bracket expressions with classes, equivalence and
//! collating forms, intervals, back-references).
//!
//! Two GNU parsers differ in corners, and both are followed: grep's (a
//! leading `*` in an extended expression is ignored, a malformed `{` is
//! literal) and glibc's `regcomp` used by sed (both are errors).

use super::ast::{Bracket, BracketItem, ClassName, Look, Node};
use super::{decode_at, RegexError, Syntax, Unit};

/// The largest repetition count (`RE_DUP_MAX`).
const MAX_REPEAT: u32 = 32767;

/// How deeply groups may nest before the expression is refused.
const MAX_NESTING: usize = 500;

/// A parsed expression and the number of its groups.
pub struct Parsed {
    /// The expression.
    pub node: Node,
    /// How many `\(...\)` groups it has.
    pub groups: usize,
    /// What grep warns about (`* at start of expression`).
    pub warnings: Vec<&'static str>,
}

/// Parses `pattern` in the given syntax.
pub fn parse(pattern: &[u8], syntax: &Syntax) -> Result<Parsed, RegexError> {
    let mut parser = Parser { pattern, pos: 0, syntax, groups: 0, closed: Vec::new(), warnings: Vec::new() };
    let node = parser.alternation(0)?;
    if parser.pos < pattern.len() {
        // Only a stray close of a group stops the top level.
        return Err(RegexError::UnmatchedClose);
    }
    Ok(Parsed { node, groups: parser.groups, warnings: parser.warnings })
}

/// A literal string as an expression (`grep -F`).
pub fn literal(pattern: &[u8]) -> Parsed {
    let syntax = Syntax::default();
    let mut parser = Parser { pattern, pos: 0, syntax: &syntax, groups: 0, closed: Vec::new(), warnings: Vec::new() };
    let mut nodes = Vec::new();
    while parser.pos < pattern.len() {
        nodes.push(parser.literal());
    }
    Parsed { node: Node::Concat(nodes), groups: 0, warnings: Vec::new() }
}

struct Parser<'p> {
    pattern: &'p [u8],
    pos: usize,
    syntax: &'p Syntax,
    groups: usize,
    /// Group numbers whose close has been seen (back-references may name them).
    closed: Vec<usize>,
    warnings: Vec<&'static str>,
}

impl Parser<'_> {
    fn extended(&self) -> bool {
        self.syntax.extended
    }

    fn peek(&self) -> Option<u8> {
        self.pattern.get(self.pos).copied()
    }

    fn peek_at(&self, offset: usize) -> Option<u8> {
        self.pattern.get(self.pos + offset).copied()
    }

    fn rest_starts_with(&self, text: &[u8]) -> bool {
        self.pattern.get(self.pos..).is_some_and(|rest| rest.starts_with(text))
    }

    /// True at `|` (extended) or `\|` (basic).
    fn at_alternation(&self) -> bool {
        if self.extended() {
            self.peek() == Some(b'|')
        } else {
            self.rest_starts_with(b"\\|")
        }
    }

    /// True at `)` (extended) or `\)` (basic).
    fn at_group_close(&self) -> bool {
        if self.extended() {
            self.peek() == Some(b')')
        } else {
            self.rest_starts_with(b"\\)")
        }
    }

    fn alternation(&mut self, depth: usize) -> Result<Node, RegexError> {
        let mut branches = vec![self.branch(depth)?];
        while self.at_alternation() {
            self.pos += if self.extended() { 1 } else { 2 };
            branches.push(self.branch(depth)?);
        }
        Ok(if branches.len() == 1 { branches.pop().unwrap_or(Node::Empty) } else { Node::Alternate(branches) })
    }

    fn branch(&mut self, depth: usize) -> Result<Node, RegexError> {
        let mut items: Vec<Node> = Vec::new();
        loop {
            if self.peek().is_none() || self.at_alternation() {
                break;
            }
            if self.at_group_close() {
                if depth > 0 {
                    break;
                }
                if !self.extended() {
                    return Err(RegexError::UnmatchedClose);
                }
                if self.syntax.glibc {
                    return Err(RegexError::UnmatchedClose);
                }
            }
            let at_start = items.is_empty() || (!self.extended() && items.len() == 1 && items[0] == Node::Look(Look::LineStart));
            let Some(atom) = self.atom(at_start, depth)? else {
                continue;
            };
            let atom = self.postfix(atom)?;
            items.push(atom);
        }
        Ok(match items.len() {
            0 => Node::Empty,
            1 => items.pop().unwrap_or(Node::Empty),
            _ => Node::Concat(items),
        })
    }

    /// One atom; `None` when what was read is ignored (a leading `*` in
    /// grep's extended syntax).
    fn atom(&mut self, at_start: bool, depth: usize) -> Result<Option<Node>, RegexError> {
        let Some(byte) = self.peek() else {
            return Ok(Some(Node::Empty));
        };
        let extended = self.extended();
        match byte {
            b'^' if extended || at_start => {
                self.pos += 1;
                return Ok(Some(Node::Look(Look::LineStart)));
            }
            b'$' if extended || self.dollar_is_anchor() => {
                self.pos += 1;
                return Ok(Some(Node::Look(Look::LineEnd)));
            }
            b'.' => {
                self.pos += 1;
                return Ok(Some(Node::Any));
            }
            b'[' => {
                self.pos += 1;
                return self.bracket().map(|set| Some(Node::Set(set)));
            }
            b'*' if at_start => {
                self.pos += 1;
                if !extended {
                    return Ok(Some(Node::Char('*')));
                }
                if self.syntax.glibc {
                    return Err(RegexError::InvalidPreceding);
                }
                self.warnings.push("* at start of expression");
                return Ok(None);
            }
            b'+' | b'?' if extended && at_start => {
                self.pos += 1;
                if self.syntax.glibc {
                    return Err(RegexError::InvalidPreceding);
                }
                self.warnings.push(if byte == b'+' { "+ at start of expression" } else { "? at start of expression" });
                return Ok(None);
            }
            b'{' if extended && at_start && self.syntax.glibc => return Err(RegexError::InvalidPreceding),
            b'{' if extended && at_start => {
                if let Some((_, _, length)) = self.interval(1)? {
                    self.pos += length;
                    self.warnings.push("{...} at start of expression");
                    return Ok(None);
                }
            }
            b'(' if extended => {
                self.pos += 1;
                return self.group(depth).map(Some);
            }
            b'\\' => return self.escape(at_start, depth),
            _ => {}
        }
        Ok(Some(self.literal()))
    }

    /// In basic syntax `$` anchors only at the end of the pattern or of a
    /// branch or group.
    fn dollar_is_anchor(&self) -> bool {
        let next = self.pos + 1;
        match self.pattern.get(next..) {
            None | Some([]) => true,
            Some(rest) => rest.starts_with(b"\\)") || rest.starts_with(b"\\|"),
        }
    }

    /// Decodes the unit at the cursor and moves past it.
    fn take_unit(&mut self) -> Unit {
        let unit = decode_at(self.pattern, self.pos);
        self.pos += match unit {
            Unit::Char(_, len) => len,
            Unit::Byte(_) => 1,
            Unit::End => 0,
        };
        unit
    }

    fn literal(&mut self) -> Node {
        match self.take_unit() {
            Unit::Char(c, _) => Node::Char(c),
            Unit::Byte(b) => Node::Byte(b),
            Unit::End => Node::Empty,
        }
    }

    fn group(&mut self, depth: usize) -> Result<Node, RegexError> {
        if depth >= MAX_NESTING {
            return Err(RegexError::TooBig);
        }
        self.groups += 1;
        let number = self.groups;
        let inner = self.alternation(depth + 1)?;
        if !self.at_group_close() {
            return Err(RegexError::UnmatchedOpen);
        }
        self.pos += if self.extended() { 1 } else { 2 };
        self.closed.push(number);
        Ok(Node::Group(Box::new(inner), number))
    }

    fn escape(&mut self, at_start: bool, depth: usize) -> Result<Option<Node>, RegexError> {
        let Some(next) = self.peek_at(1) else {
            return Err(RegexError::TrailingBackslash);
        };
        let extended = self.extended();
        let node = match next {
            b'(' if !extended => {
                self.pos += 2;
                return self.group(depth).map(Some);
            }
            b'{' if !extended && at_start => {
                if self.syntax.glibc {
                    return Err(RegexError::InvalidPreceding);
                }
                Node::Char('{')
            }
            b'1'..=b'9' => {
                let number = usize::from(next - b'0');
                if !self.closed.contains(&number) {
                    return Err(RegexError::InvalidBackref);
                }
                Node::Backref(number)
            }
            b'w' | b'W' | b's' | b'S' => {
                let class = if next.eq_ignore_ascii_case(&b'w') { ClassName::Word } else { ClassName::Space };
                Node::Set(Bracket { negated: next.is_ascii_uppercase(), items: vec![BracketItem::Class(class)] })
            }
            b'b' => Node::Look(Look::WordBoundary),
            b'B' => Node::Look(Look::NotWordBoundary),
            b'<' => Node::Look(Look::WordStart),
            b'>' => Node::Look(Look::WordEnd),
            b'`' => Node::Look(Look::TextStart),
            b'\'' => Node::Look(Look::TextEnd),
            b'n' if self.syntax.sed_escapes => Node::Char('\n'),
            b't' if self.syntax.sed_escapes => Node::Char('\t'),
            b'r' if self.syntax.sed_escapes => Node::Char('\r'),
            b'f' if self.syntax.sed_escapes => Node::Char('\x0c'),
            b'v' if self.syntax.sed_escapes => Node::Char('\x0b'),
            b'a' if self.syntax.sed_escapes => Node::Char('\x07'),
            b'd' | b'o' | b'x' | b'c' if self.syntax.sed_escapes => {
                if let Some((value, length)) = numeric_escape(self.pattern.get(self.pos + 1..).unwrap_or(&[])) {
                    self.pos += 1 + length;
                    return Ok(Some(if value < 0x80 { Node::Char(char::from(value)) } else { Node::Byte(value) }));
                }
                self.pos += 1;
                return Ok(Some(self.literal()));
            }
            _ => {
                self.pos += 1;
                return Ok(Some(self.literal()));
            }
        };
        self.pos += 2;
        Ok(Some(node))
    }

    /// Applies any repetition operators following an atom.
    fn postfix(&mut self, mut atom: Node) -> Result<Node, RegexError> {
        let mut repeated = false;
        loop {
            let extended = self.extended();
            let emacs = self.syntax.emacs && !extended;
            let (min, max, len) = match self.peek() {
                Some(b'*') => (0, None, 1),
                Some(b'+') if extended || emacs => (1, None, 1),
                Some(b'?') if extended || emacs => (0, Some(1), 1),
                Some(b'\\') if !extended && !emacs && self.peek_at(1) == Some(b'+') => (1, None, 2),
                Some(b'\\') if !extended && !emacs && self.peek_at(1) == Some(b'?') => (0, Some(1), 2),
                Some(b'{') if extended => match self.interval(1)? {
                    Some(found) => found,
                    None => return Ok(atom),
                },
                Some(b'\\') if !extended && !emacs && self.peek_at(1) == Some(b'{') => match self.interval(2)? {
                    Some(found) => found,
                    None => return Ok(atom),
                },
                _ => return Ok(atom),
            };
            // glibc refuses `a**` and `a*\{2\}` in basic syntax (`\+` and `\?` stack).
            let stacks = len == 2;
            if repeated && self.syntax.glibc && !extended && !stacks {
                return Err(RegexError::InvalidPreceding);
            }
            if atom == Node::Look(Look::LineStart) {
                // `^*`: in basic syntax the star is a literal; grep warns of
                // an extended one, which repeats the anchor; glibc refuses it.
                if !extended {
                    return Ok(atom);
                }
                if self.syntax.glibc {
                    return Err(RegexError::InvalidPreceding);
                }
                self.warnings.push("* at start of expression");
            }
            self.pos += len;
            atom = Node::Repeat(Box::new(atom), min, max);
            repeated = true;
        }
    }

    /// Reads `{n}`, `{n,}`, `{,m}`, `{n,m}` after the `{` (or `\{`) of
    /// `open` bytes: the bounds and the whole length. `None` when grep reads
    /// the brace as a literal.
    fn interval(&self, open: usize) -> Result<Option<(u32, Option<u32>, usize)>, RegexError> {
        let extended = self.extended();
        let body_start = self.pos + open;
        let mut cursor = body_start;
        let number = |cursor: &mut usize| -> Option<u64> {
            let start = *cursor;
            let mut value: u64 = 0;
            while let Some(digit) = self.pattern.get(*cursor).filter(|b| b.is_ascii_digit()) {
                value = (value * 10 + u64::from(digit - b'0')).min(u64::from(u32::MAX));
                *cursor += 1;
            }
            (*cursor > start).then_some(value)
        };
        let min = number(&mut cursor);
        let mut max = min.map(Some);
        if self.pattern.get(cursor) == Some(&b',') {
            cursor += 1;
            max = Some(number(&mut cursor));
        }
        let close: &[u8] = if extended { b"}" } else { b"\\}" };
        let closed = self.pattern.get(cursor..).is_some_and(|rest| rest.starts_with(close));
        let malformed = !closed || (min.is_none() && max.is_none());
        if malformed {
            if extended && !self.syntax.glibc {
                return Ok(None);
            }
            let closes_later = self.pattern.get(body_start..).is_some_and(|rest| rest.windows(close.len()).any(|w| w == close));
            return Err(if closes_later { RegexError::InvalidInterval } else { RegexError::UnmatchedBrace });
        }
        let min = min.unwrap_or(0);
        let max = max.flatten();
        if max.is_some_and(|max| max < min) {
            return Err(RegexError::InvalidInterval);
        }
        if min > u64::from(MAX_REPEAT) || max.is_some_and(|max| max > u64::from(MAX_REPEAT)) {
            return Err(RegexError::TooBig);
        }
        let length = cursor + close.len() - self.pos;
        Ok(Some((min as u32, max.map(|max| max as u32), length)))
    }

    /// Reads a bracket expression after its `[`.
    fn bracket(&mut self) -> Result<Bracket, RegexError> {
        let mut bracket = Bracket { negated: false, items: Vec::new() };
        let content_start = self.pos;
        if self.peek() == Some(b'^') {
            bracket.negated = true;
            self.pos += 1;
        }
        let mut first = true;
        loop {
            let Some(byte) = self.peek() else {
                return Err(RegexError::UnmatchedBracket);
            };
            if byte == b']' && !first {
                self.pos += 1;
                break;
            }
            first = false;
            let low = self.bracket_element()?;
            let low = match low {
                Element::Class(class) => {
                    bracket.items.push(BracketItem::Class(class));
                    continue;
                }
                Element::Byte(b) => {
                    bracket.items.push(BracketItem::Byte(b));
                    continue;
                }
                Element::Char(c) => c,
            };
            if self.peek() == Some(b'-') && self.peek_at(1).is_some_and(|b| b != b']') {
                self.pos += 1;
                let high = match self.bracket_element()? {
                    Element::Char(c) => c,
                    _ => return Err(RegexError::InvalidRangeEnd),
                };
                if high < low {
                    return Err(RegexError::InvalidRangeEnd);
                }
                bracket.items.push(BracketItem::Range(low, high));
            } else {
                bracket.items.push(BracketItem::Char(low));
            }
        }
        let content = self.pattern.get(content_start..self.pos.saturating_sub(1)).unwrap_or(&[]);
        if self.syntax.reject_bare_class && content.len() >= 2 && content.starts_with(b":") && content.ends_with(b":") {
            return Err(RegexError::BareClass);
        }
        Ok(bracket)
    }

    fn bracket_element(&mut self) -> Result<Element, RegexError> {
        let opener = self.peek_at(1);
        if self.peek() == Some(b'[') && matches!(opener, Some(b':' | b'=' | b'.')) {
            let kind = opener.unwrap_or(b':');
            let body_start = self.pos + 2;
            let rest = self.pattern.get(body_start..).unwrap_or(&[]);
            let Some(length) = rest.windows(2).position(|w| w[0] == kind && w[1] == b']') else {
                return Err(RegexError::UnmatchedBracket);
            };
            let body = rest.get(..length).unwrap_or(&[]);
            self.pos = body_start + length + 2;
            if kind == b':' {
                return ClassName::from_name(body).map(Element::Class).ok_or(RegexError::InvalidClassName);
            }
            return match decode_at(body, 0) {
                Unit::Char(c, len) if len == body.len() => Ok(Element::Char(c)),
                Unit::Byte(b) if body.len() == 1 => Ok(Element::Byte(b)),
                _ => Err(RegexError::InvalidCollation),
            };
        }
        if self.syntax.sed_escapes && self.peek() == Some(b'\\') {
            let escaped = match self.peek_at(1) {
                Some(b'n') => Some('\n'),
                Some(b't') => Some('\t'),
                Some(b'r') => Some('\r'),
                Some(b'f') => Some('\x0c'),
                Some(b'v') => Some('\x0b'),
                Some(b'a') => Some('\x07'),
                Some(b'\\') => Some('\\'),
                _ => None,
            };
            if let Some(c) = escaped {
                self.pos += 2;
                return Ok(Element::Char(c));
            }
        }
        match self.take_unit() {
            Unit::Char(c, _) => Ok(Element::Char(c)),
            Unit::Byte(b) => Ok(Element::Byte(b)),
            Unit::End => Err(RegexError::UnmatchedBracket),
        }
    }
}

/// Reads sed's `\dNNN`, `\oNNN`, `\xHH` or `\cX` from `text` (which starts
/// at the letter): the byte and the length read, letter included.
pub fn numeric_escape(text: &[u8]) -> Option<(u8, usize)> {
    let (&letter, rest) = text.split_first()?;
    if letter == b'c' {
        let &control = rest.first()?;
        return Some((control.to_ascii_uppercase() ^ 0x40, 2));
    }
    let (radix, width) = match letter {
        b'd' => (10, 3),
        b'o' => (8, 3),
        b'x' => (16, 2),
        _ => return None,
    };
    let digits = rest.iter().take(width).take_while(|b| char::from(**b).is_digit(radix)).count();
    let text = std::str::from_utf8(rest.get(..digits)?).ok()?;
    let value = u32::from_str_radix(text, radix).ok()?;
    Some((u8::try_from(value & 0xff).ok()?, 1 + digits))
}

enum Element {
    Char(char),
    Byte(u8),
    Class(ClassName),
}
