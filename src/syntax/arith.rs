//! Arithmetic expressions (`$(( ))`, `(( ))`, `for (( ))`, subscripts):
//! C precedence, `**`, ternary, comma, assignment operators, `++`/`--`,
//! `base#digits`, array elements and `$`-expansions.
//!
//! Bash reports arithmetic syntax errors only when the expression runs, so
//! text that does not parse becomes [`ArithExpr::Invalid`]; only errors in
//! nested substitutions and limits stop the parse.

use super::ast::{ArithExpr, BinaryArithOp, UnaryArithOp, Word, WordPart};
use super::parser::{Fail, PResult, Parser};

/// Why an arithmetic parse stopped.
enum ArithFail {
    /// Not valid arithmetic: the whole expression becomes `Invalid`.
    Syntax,
    /// A real parse error (a nested substitution, a limit).
    Fatal(Fail),
}

impl From<Fail> for ArithFail {
    fn from(fail: Fail) -> Self {
        ArithFail::Fatal(fail)
    }
}

type AResult<T> = Result<T, ArithFail>;

/// Binary operators (precedence from `BinaryArithOp::precedence`), longest
/// spelling first so `<<` is tried before `<`.
const BINARY: [(&str, BinaryArithOp); 19] = [
    ("**", BinaryArithOp::Power),
    ("<<", BinaryArithOp::ShiftLeft),
    (">>", BinaryArithOp::ShiftRight),
    ("<=", BinaryArithOp::LessEqual),
    (">=", BinaryArithOp::GreaterEqual),
    ("==", BinaryArithOp::Equal),
    ("!=", BinaryArithOp::NotEqual),
    ("&&", BinaryArithOp::LogicalAnd),
    ("||", BinaryArithOp::LogicalOr),
    ("*", BinaryArithOp::Multiply),
    ("/", BinaryArithOp::Divide),
    ("%", BinaryArithOp::Remainder),
    ("+", BinaryArithOp::Add),
    ("-", BinaryArithOp::Subtract),
    ("<", BinaryArithOp::Less),
    (">", BinaryArithOp::Greater),
    ("&", BinaryArithOp::BitAnd),
    ("^", BinaryArithOp::BitXor),
    ("|", BinaryArithOp::BitOr),
];

/// Assignment operators, longest first.
const ASSIGNMENTS: [(&str, Option<BinaryArithOp>); 11] = [
    ("<<=", Some(BinaryArithOp::ShiftLeft)),
    (">>=", Some(BinaryArithOp::ShiftRight)),
    ("*=", Some(BinaryArithOp::Multiply)),
    ("/=", Some(BinaryArithOp::Divide)),
    ("%=", Some(BinaryArithOp::Remainder)),
    ("+=", Some(BinaryArithOp::Add)),
    ("-=", Some(BinaryArithOp::Subtract)),
    ("&=", Some(BinaryArithOp::BitAnd)),
    ("^=", Some(BinaryArithOp::BitXor)),
    ("|=", Some(BinaryArithOp::BitOr)),
    ("=", None),
];

impl Parser<'_> {
    /// Parses the text between `start` and `end` as arithmetic.
    pub(super) fn arith_range(&mut self, start: usize, end: usize) -> PResult<ArithExpr> {
        let saved_end = self.end;
        let saved_pos = self.pos;
        self.pos = start;
        self.end = end;
        let depth = self.depth;
        let result = self.arith_all();
        self.depth = depth;
        self.end = saved_end;
        self.pos = saved_pos;
        match result {
            Ok(expr) => Ok(expr),
            Err(ArithFail::Syntax) => Ok(ArithExpr::Invalid(self.slice(start, end).to_string())),
            Err(ArithFail::Fatal(fail)) => Err(fail),
        }
    }

    /// The whole expression of `$(( ))`, `$[ ]`, `(( ))` or a `for (( ))`
    /// part: its tree together with its text.
    pub(super) fn arith_source(&mut self, start: usize, end: usize) -> PResult<ArithExpr> {
        Ok(match self.arith_range(start, end)? {
            ArithExpr::Invalid(text) => ArithExpr::Invalid(text),
            expr => ArithExpr::Source(self.slice(start, end).to_string(), Box::new(expr)),
        })
    }

    /// The whole range as one expression (empty text is `0`).
    fn arith_all(&mut self) -> AResult<ArithExpr> {
        self.arith_blanks();
        if self.cur().is_none() {
            return Ok(ArithExpr::Number("0".to_string()));
        }
        let expr = self.arith_comma()?;
        self.arith_blanks();
        if self.cur().is_some() {
            return Err(ArithFail::Syntax);
        }
        Ok(expr)
    }

    fn arith_blanks(&mut self) {
        while let Some(b' ' | b'\t' | b'\n') = self.cur() {
            self.pos += 1;
        }
        while self.looking_at("\\\n") {
            self.pos += 2;
            self.arith_blanks();
        }
    }

    /// Consumes `op` unless it is the start of a longer operator in `longer`.
    fn arith_eat(&mut self, op: &str, longer: &[&str]) -> bool {
        self.arith_blanks();
        if !self.looking_at(op) || longer.iter().any(|l| self.looking_at(l)) {
            return false;
        }
        self.pos += op.len();
        true
    }

    fn arith_comma(&mut self) -> AResult<ArithExpr> {
        let mut left = self.arith_assign()?;
        while self.arith_eat(",", &[]) {
            let right = self.arith_assign()?;
            left = ArithExpr::Comma(Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn arith_assign(&mut self) -> AResult<ArithExpr> {
        self.step()?;
        self.enter()?;
        let left = self.arith_ternary()?;
        self.arith_blanks();
        let assignment = ASSIGNMENTS.iter().find(|(text, _)| self.looking_at(text) && !(*text == "=" && self.looking_at("=="))).copied();
        let result = match assignment {
            Some((text, op)) => {
                if !matches!(left, ArithExpr::Variable(_) | ArithExpr::Element(..)) {
                    return Err(ArithFail::Syntax);
                }
                self.pos += text.len();
                let right = self.arith_assign()?;
                ArithExpr::Assign(op, Box::new(left), Box::new(right))
            }
            None => left,
        };
        self.leave();
        Ok(result)
    }

    fn arith_ternary(&mut self) -> AResult<ArithExpr> {
        let condition = self.arith_binary(1)?;
        if !self.arith_eat("?", &[]) {
            return Ok(condition);
        }
        self.enter()?;
        let then = self.arith_comma()?;
        if !self.arith_eat(":", &[]) {
            return Err(ArithFail::Syntax);
        }
        let otherwise = self.arith_assign()?;
        self.leave();
        Ok(ArithExpr::Conditional(Box::new(condition), Box::new(then), Box::new(otherwise)))
    }

    /// Binary operators binding at least as tightly as `min`, by precedence climbing.
    fn arith_binary(&mut self, min: u8) -> AResult<ArithExpr> {
        let mut left = self.arith_unary()?;
        loop {
            self.arith_blanks();
            let found = BINARY.iter().find(|(text, _)| self.looking_at(text) && !self.arith_longer(text)).copied();
            let Some((text, op)) = found else {
                return Ok(left);
            };
            let precedence = op.precedence();
            if precedence < min {
                return Ok(left);
            }
            self.pos += text.len();
            self.enter()?;
            let next = if op == BinaryArithOp::Power { precedence } else { precedence + 1 };
            let right = self.arith_binary(next)?;
            self.leave();
            left = ArithExpr::Binary(op, Box::new(left), Box::new(right));
        }
    }

    /// True when the operator `text` here is really part of a longer one.
    fn arith_longer(&self, text: &str) -> bool {
        let next = self.peek_at(text.len());
        match text {
            "|" => matches!(next, Some(b'|' | b'=')),
            "&" => matches!(next, Some(b'&' | b'=')),
            "^" => next == Some(b'='),
            "<" => matches!(next, Some(b'<' | b'=')),
            ">" => matches!(next, Some(b'>' | b'=')),
            "<<" | ">>" => next == Some(b'='),
            "+" => next == Some(b'=') || (next == Some(b'+') && self.arith_variable_at(2)),
            "-" => next == Some(b'=') || (next == Some(b'-') && self.arith_variable_at(2)),
            "*" => matches!(next, Some(b'*' | b'=')),
            "/" | "%" => next == Some(b'='),
            _ => false,
        }
    }

    /// True when a name starts at `offset` from here, after blanks: what
    /// makes bash read `++`/`--` as one operator rather than two signs.
    fn arith_variable_at(&self, offset: usize) -> bool {
        let mut at = offset;
        while matches!(self.peek_at(at), Some(b' ' | b'\t' | b'\n')) {
            at += 1;
        }
        self.peek_at(at).is_some_and(|c| c.is_ascii_alphabetic() || c == b'_')
    }

    fn arith_unary(&mut self) -> AResult<ArithExpr> {
        self.step()?;
        self.arith_blanks();
        for (text, increment) in [("++", true), ("--", false)] {
            // `--` is a decrement only before a name; `--5` is `-(-5)`.
            if self.looking_at(text) && self.arith_variable_at(2) {
                self.pos += 2;
                self.enter()?;
                let target = self.arith_unary()?;
                self.leave();
                if !matches!(target, ArithExpr::Variable(_) | ArithExpr::Element(..)) {
                    return Err(ArithFail::Syntax);
                }
                return Ok(ArithExpr::IncDec { increment, prefix: true, target: Box::new(target) });
            }
        }
        let op = match self.cur() {
            Some(b'-') => Some(UnaryArithOp::Negate),
            Some(b'+') => Some(UnaryArithOp::Plus),
            Some(b'!') => Some(UnaryArithOp::Not),
            Some(b'~') => Some(UnaryArithOp::BitNot),
            _ => None,
        };
        if let Some(op) = op {
            self.pos += 1;
            self.enter()?;
            let operand = self.arith_unary()?;
            self.leave();
            return Ok(ArithExpr::Unary(op, Box::new(operand)));
        }
        let primary = self.arith_primary()?;
        if matches!(primary, ArithExpr::Variable(_) | ArithExpr::Element(..)) {
            self.arith_blanks();
            for (text, increment) in [("++", true), ("--", false)] {
                if self.looking_at(text) {
                    self.pos += 2;
                    return Ok(ArithExpr::IncDec { increment, prefix: false, target: Box::new(primary) });
                }
            }
        }
        Ok(primary)
    }

    fn arith_primary(&mut self) -> AResult<ArithExpr> {
        self.arith_blanks();
        if self.cur() == Some(b'(') {
            self.pos += 1;
            self.enter()?;
            let inner = self.arith_comma()?;
            self.leave();
            if !self.arith_eat(")", &[]) {
                return Err(ArithFail::Syntax);
            }
            // An expansion's value is read as expression text, so its
            // parentheses stay with it: `2 * ($x)` with x='1+2' is 6.
            if let ArithExpr::Expansion(word) = inner {
                let mut parts = vec![WordPart::Literal("(".into())];
                parts.extend(word.parts.iter().cloned());
                parts.push(WordPart::Literal(")".into()));
                return Ok(ArithExpr::Expansion(Word { parts: parts.into(), span: word.span }));
            }
            return Ok(inner);
        }
        let start = self.pos;
        let mut parts: Vec<WordPart> = Vec::new();
        let mut expanded = false;
        loop {
            match self.cur() {
                Some(b) if b.is_ascii_alphanumeric() || b == b'_' || b == b'#' || b == b'@' => {
                    let rest = self.rest();
                    let length = rest
                        .iter()
                        .position(|b| !(b.is_ascii_alphanumeric() || *b == b'_' || *b == b'#' || *b == b'@'))
                        .unwrap_or(rest.len());
                    let text = self.slice(self.pos, self.pos + length);
                    match parts.last_mut() {
                        Some(WordPart::Literal(previous)) => previous.push_str(text),
                        _ => parts.push(WordPart::Literal(text.into())),
                    }
                    self.pos += length;
                }
                Some(b'$') => match self.dollar(false)? {
                    Some(part) => {
                        parts.push(part);
                        expanded = true;
                    }
                    None => return Err(ArithFail::Syntax),
                },
                Some(b'`') => {
                    parts.push(self.backquote(false)?);
                    expanded = true;
                }
                Some(b'"') => {
                    parts.push(WordPart::DoubleQuoted(self.double_quoted()?));
                    expanded = true;
                }
                _ => break,
            }
        }
        if expanded {
            return Ok(ArithExpr::Expansion(Word { parts: parts.into(), span: self.span(start, self.pos) }));
        }
        let text = match parts.pop() {
            Some(WordPart::Literal(text)) => text.into_string(),
            _ => return Err(ArithFail::Syntax),
        };
        if text.as_bytes().first().is_some_and(u8::is_ascii_digit) {
            return Ok(ArithExpr::Number(text));
        }
        if !super::lexer::is_name(&text) {
            return Err(ArithFail::Syntax);
        }
        if self.cur() == Some(b'[') {
            let Some(close) = self.matching_bracket(self.pos) else {
                return Err(ArithFail::Syntax);
            };
            let index = self.arith_range(self.pos + 1, close)?;
            if matches!(index, ArithExpr::Invalid(_)) {
                return Err(ArithFail::Syntax);
            }
            self.pos = close + 1;
            return Ok(ArithExpr::Element(text, Box::new(index)));
        }
        Ok(ArithExpr::Variable(text))
    }
}
