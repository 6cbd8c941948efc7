//! Shell arithmetic: 64-bit wrapping integers with C precedence, `**`,
//! assignment operators, `++`/`--`, `base#digits`, and bash's error texts.
//!
//! Bash parses arithmetic when it runs, after expansion: `x="1+2";
//! $((x*3))` is 9 while `$(($x*3))` is 7. So besides evaluating parse-time
//! trees, expression text is read at run time by the one-pass evaluator
//! (`arith_eval`), which uses this module's tokenizer.

use super::ElementKey;
use crate::syntax::ast::{ArithExpr, BinaryArithOp, UnaryArithOp};

/// An arithmetic failure: the expression text and bash's message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArithError {
    /// The whole expression as bash echoes it before the colon.
    pub expression: String,
    /// `division by 0 (error token is "0")` and the like.
    pub message: String,
}

impl ArithError {
    /// True for `x: unbound variable` and `x: readonly variable`, which
    /// bash reports without the `((:` prefix of expression errors.
    pub fn is_variable_error(&self) -> bool {
        matches!(self.message.as_str(), "unbound variable" | "readonly variable")
    }

    fn new(expression: &str, message: impl Into<String>) -> Self {
        ArithError { expression: expression.to_string(), message: message.into() }
    }
}

impl std::fmt::Display for ArithError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.expression.trim_start_matches([' ', '\t']), self.message)
    }
}

/// Variable access for arithmetic.
pub trait ArithEnv {
    /// The value of `name` (or `name[index]`), `None` when unset.
    fn get_var(&mut self, name: &str, index: Option<&ElementKey>) -> Result<Option<String>, String>;
    /// Assigns `value` to `name` (or `name[index]`).
    fn set_var(&mut self, name: &str, index: Option<&ElementKey>, value: i64) -> Result<(), String>;
    /// True when `name` is an associative array, whose subscripts are
    /// strings rather than arithmetic.
    fn is_assoc(&mut self, name: &str) -> bool {
        let _ = name;
        false
    }
    /// Whether `set -u` makes unset variables an error.
    fn nounset(&self) -> bool {
        false
    }
    /// Whether `name` is an array with a value: its missing elements are
    /// 0 even under `set -u`.
    fn is_set_array(&mut self, name: &str) -> bool {
        let _ = name;
        false
    }
}

/// Deepest recursion through variable values (`a=b; b=a; $((a))`).
pub(super) const MAX_RECURSION: usize = 1024;

/// Evaluates the expression text `text` in one pass, as bash does.
pub fn eval_text(text: &str, env: &mut dyn ArithEnv) -> Result<i64, ArithError> {
    super::arith_eval::eval_text_at(text, env, 0)
}

/// Evaluates a parsed expression. Its text for error messages is printed
/// from the tree only when an error happens.
pub fn eval(expr: &ArithExpr, env: &mut dyn ArithEnv) -> Result<i64, ArithError> {
    match (Evaluator { env, text: "", depth: 0 }).eval(expr) {
        Ok(value) => Ok(value),
        Err(mut error) => {
            if error.expression.is_empty() {
                error.expression = super::arith_print::print(expr);
                if let Some(rest) = error.message.strip_suffix("(error token is \"\")") {
                    let token = error_token(&error.expression, last_operand(expr));
                    error.message = format!("{rest}(error token is \"{token}\")");
                }
            }
            Err(error)
        }
    }
}

/// The right-most operand of a binary expression (what bash's error token points at).
fn last_operand(expr: &ArithExpr) -> &ArithExpr {
    match expr {
        ArithExpr::Binary(_, _, right) | ArithExpr::Assign(_, _, right) | ArithExpr::Comma(_, right) => last_operand(right),
        other => other,
    }
}

/// Parses a number in bash's syntax: decimal, `0x` hex, `0` octal, `base#digits`.
pub fn parse_number(literal: &str) -> Result<i64, String> {
    let too_great = || format!("value too great for base (error token is \"{literal}\")");
    if let Some((base_text, digits)) = literal.split_once('#') {
        if base_text.starts_with('0') {
            return Err(format!("invalid number (error token is \"{literal}\")"));
        }
        let base: u32 = base_text.parse().map_err(|_| format!("invalid arithmetic base (error token is \"{literal}\")"))?;
        if !(2..=64).contains(&base) {
            return Err(format!("invalid arithmetic base (error token is \"{literal}\")"));
        }
        if digits.is_empty() {
            return Err(format!("invalid integer constant (error token is \"{literal}\")"));
        }
        let mut value: i64 = 0;
        for c in digits.chars() {
            let digit = match c {
                '0'..='9' => c as u32 - '0' as u32,
                'a'..='z' => c as u32 - 'a' as u32 + 10,
                'A'..='Z' if base <= 36 => c as u32 - 'A' as u32 + 10,
                'A'..='Z' => c as u32 - 'A' as u32 + 36,
                '@' => 62,
                '_' => 63,
                _ => return Err(too_great()),
            };
            if digit >= base {
                return Err(too_great());
            }
            value = value.wrapping_mul(base as i64).wrapping_add(digit as i64);
        }
        return Ok(value);
    }
    let (digits, base) = if let Some(hex) = literal.strip_prefix("0x").or_else(|| literal.strip_prefix("0X")) {
        (hex, 16)
    } else if literal.len() > 1 && literal.starts_with('0') {
        (&literal[1..], 8)
    } else {
        (literal, 10)
    };
    let mut value: i64 = 0;
    for c in digits.chars() {
        let digit = c.to_digit(16).ok_or_else(too_great)?;
        if digit >= base {
            return Err(too_great());
        }
        value = value.wrapping_mul(base as i64).wrapping_add(digit as i64);
    }
    Ok(value)
}

#[derive(Debug, Clone, PartialEq)]
pub(super) enum Kind {
    /// A number as written.
    Number(String),
    /// A variable name.
    Name(String),
    /// An operator or parenthesis.
    Op(&'static str),
    /// The raw text between `[` and `]` after a name.
    Subscript(String),
}

#[derive(Debug, Clone)]
pub(super) struct Token {
    /// What the token is.
    pub(super) kind: Kind,
    /// Its byte offset in the expression text.
    pub(super) start: usize,
}

const OPERATORS: &[&str] = &[
    "<<=", ">>=", "**", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "*=", "/=", "%=", "+=", "-=", "&=", "^=", "|=", "+",
    "-", "*", "/", "%", "<", ">", "=", "!", "~", "&", "^", "|", "?", ":", ",", "(", ")",
];

/// The tokens of `text` up to the first character that is not one, and the
/// error that character makes.
pub(super) fn tokenize_prefix(text: &str) -> (Vec<Token>, Option<ArithError>) {
    let mut tokens = Vec::new();
    let error = tokenize_into(text, &mut tokens).err();
    (tokens, error)
}

fn tokenize_into(text: &str, tokens: &mut Vec<Token>) -> Result<(), ArithError> {
    let bytes = text.as_bytes();
    let mut index = 0;
    while index < bytes.len() {
        let c = bytes[index];
        // Only blanks and newlines separate tokens: `\r` is an error, as in bash.
        if matches!(c, b' ' | b'\t' | b'\n') {
            index += 1;
            continue;
        }
        let start = index;
        if c.is_ascii_digit() {
            while index < bytes.len()
                && (bytes[index].is_ascii_alphanumeric() || bytes[index] == b'#' || bytes[index] == b'@' || bytes[index] == b'_')
            {
                index += 1;
            }
            tokens.push(Token { kind: Kind::Number(text[start..index].to_string()), start });
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            while index < bytes.len() && (bytes[index].is_ascii_alphanumeric() || bytes[index] == b'_') {
                index += 1;
            }
            tokens.push(Token { kind: Kind::Name(text[start..index].to_string()), start });
            if bytes.get(index) == Some(&b'[') {
                // Keep the subscript raw: an associative array's key is text.
                let mut depth = 0;
                let close = text[index..].char_indices().find_map(|(offset, c)| {
                    match c {
                        '[' => depth += 1,
                        ']' => depth -= 1,
                        _ => {}
                    }
                    (depth == 0).then_some(index + offset)
                });
                let Some(close) = close else {
                    return Err(ArithError::new(text, format!("bad array subscript (error token is \"{}\")", &text[start..])));
                };
                tokens.push(Token { kind: Kind::Subscript(text[index + 1..close].to_string()), start: index });
                index = close + 1;
            }
            continue;
        }
        match OPERATORS.iter().copied().find(|op| text[index..].starts_with(*op)) {
            // `++`/`--` is one operator after a name or before one; elsewhere
            // (`5--5`, `--5`) it is two signs, as bash reads it.
            Some(op @ ("++" | "--"))
                if !tokens.last().is_some_and(|token: &Token| matches!(token.kind, Kind::Name(_) | Kind::Subscript(_)))
                    && !text[index + 2..].trim_start_matches([' ', '\t', '\n']).starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') =>
            {
                tokens.push(Token { kind: Kind::Op(&op[..1]), start });
                index += 1;
            }
            Some(op) => {
                tokens.push(Token { kind: Kind::Op(op), start });
                index += op.len();
            }
            None => {
                // Bash names the problem by what came before: after an operand the
                // character is a bad operator, anywhere else a missing operand.
                let after_operand = tokens.last().is_some_and(|token| !matches!(token.kind, Kind::Op(_)));
                let problem = if after_operand { "invalid arithmetic operator" } else { "operand expected" };
                return Err(ArithError::new(text, format!("syntax error: {problem} (error token is \"{}\")", &text[start..])));
            }
        }
    }
    Ok(())
}

pub(super) fn binary_op(op: &str) -> Option<BinaryArithOp> {
    Some(match op {
        "**" => BinaryArithOp::Power,
        "*" => BinaryArithOp::Multiply,
        "/" => BinaryArithOp::Divide,
        "%" => BinaryArithOp::Remainder,
        "+" => BinaryArithOp::Add,
        "-" => BinaryArithOp::Subtract,
        "<<" => BinaryArithOp::ShiftLeft,
        ">>" => BinaryArithOp::ShiftRight,
        "<" => BinaryArithOp::Less,
        "<=" => BinaryArithOp::LessEqual,
        ">" => BinaryArithOp::Greater,
        ">=" => BinaryArithOp::GreaterEqual,
        "==" => BinaryArithOp::Equal,
        "!=" => BinaryArithOp::NotEqual,
        "&" => BinaryArithOp::BitAnd,
        "^" => BinaryArithOp::BitXor,
        "|" => BinaryArithOp::BitOr,
        "&&" => BinaryArithOp::LogicalAnd,
        "||" => BinaryArithOp::LogicalOr,
        _ => return None,
    })
}

struct Evaluator<'e> {
    env: &'e mut dyn ArithEnv,
    text: &'e str,
    depth: usize,
}

impl Evaluator<'_> {
    fn assign_failed(&self, name: &str, message: String) -> ArithError {
        if message.ends_with(": readonly variable") {
            return ArithError { expression: name.to_string(), message: "readonly variable".into() };
        }
        self.fail(message)
    }

    fn fail(&self, message: String) -> ArithError {
        ArithError::new(self.text, message)
    }

    fn eval(&mut self, expr: &ArithExpr) -> Result<i64, ArithError> {
        match expr {
            ArithExpr::Number(literal) => parse_number(literal).map_err(|m| self.fail(m)),
            ArithExpr::Variable(name) => self.variable(name, None),
            ArithExpr::Element(name, index) => {
                let key = self.key(name, index)?;
                self.variable(name, Some(&key))
            }
            ArithExpr::Expansion(_) => Err(self.fail("syntax error: operand expected".into())),
            ArithExpr::Invalid(text) => super::arith_eval::eval_text_at(text, &mut *self.env, self.depth),
            // Bash reads the text as written, unless quoting needs the tree.
            ArithExpr::Source(source, inner) => {
                let text = &source.0;
                if text.contains(['"', '\'', '\\', '`', '$']) {
                    self.eval(inner)
                } else {
                    super::arith_eval::eval_text_at(text, &mut *self.env, self.depth)
                }
            }
            ArithExpr::Unary(op, operand) => {
                let value = self.eval(operand)?;
                Ok(match op {
                    UnaryArithOp::Negate => value.wrapping_neg(),
                    UnaryArithOp::Plus => value,
                    UnaryArithOp::Not => (value == 0) as i64,
                    UnaryArithOp::BitNot => !value,
                })
            }
            ArithExpr::IncDec { increment, prefix, target } => {
                let (name, index) = self.target(target)?;
                let old = self.variable(&name, index.as_ref())?;
                let new = if *increment { old.wrapping_add(1) } else { old.wrapping_sub(1) };
                self.env.set_var(&name, index.as_ref(), new).map_err(|m| self.assign_failed(&name, m))?;
                Ok(if *prefix { new } else { old })
            }
            ArithExpr::Binary(BinaryArithOp::LogicalAnd, left, right) => Ok((self.eval(left)? != 0 && self.eval(right)? != 0) as i64),
            ArithExpr::Binary(BinaryArithOp::LogicalOr, left, right) => Ok((self.eval(left)? != 0 || self.eval(right)? != 0) as i64),
            ArithExpr::Binary(op, left, right) => {
                let left = self.eval(left)?;
                let right_value = self.eval(right)?;
                self.apply(*op, left, right_value, right)
            }
            ArithExpr::Assign(op, target, value) => {
                let (name, index) = self.target(target)?;
                // A compound assignment reads its variable before the right
                // side runs (`x=0; ((x *= ++x))` leaves 0), as bash does.
                let current = match op {
                    Some(_) => Some(self.variable(&name, index.as_ref())?),
                    None => None,
                };
                let mut result = self.eval(value)?;
                if let (Some(op), Some(current)) = (op, current) {
                    result = self.apply(*op, current, result, value)?;
                }
                self.env.set_var(&name, index.as_ref(), result).map_err(|m| self.assign_failed(&name, m))?;
                Ok(result)
            }
            ArithExpr::Conditional(condition, then, otherwise) => {
                if self.eval(condition)? != 0 {
                    self.eval(then)
                } else {
                    self.eval(otherwise)
                }
            }
            ArithExpr::Comma(left, right) => {
                self.eval(left)?;
                self.eval(right)
            }
        }
    }

    fn target(&mut self, target: &ArithExpr) -> Result<(String, Option<ElementKey>), ArithError> {
        match target {
            ArithExpr::Variable(name) => Ok((name.clone(), None)),
            ArithExpr::Element(name, index) => {
                let key = self.key(name, index)?;
                Ok((name.clone(), Some(key)))
            }
            _ => Err(self.fail("attempted assignment to non-variable".into())),
        }
    }

    /// The element `name[index]` designates: the subscript's text (quotes
    /// removed) for an associative array, its value otherwise.
    fn key(&mut self, name: &str, index: &ArithExpr) -> Result<ElementKey, ArithError> {
        if self.env.is_assoc(name) {
            let text = match index {
                ArithExpr::Invalid(raw) => raw.replace(['"', '\''], ""),
                other => super::arith_print::print(other),
            };
            return Ok(ElementKey::Key(text));
        }
        Ok(ElementKey::Index(self.eval(index)?))
    }

    fn variable(&mut self, name: &str, index: Option<&ElementKey>) -> Result<i64, ArithError> {
        let value = self.env.get_var(name, index).map_err(|m| self.fail(m))?;
        let Some(value) = value else {
            if self.env.nounset() && !self.env.is_set_array(name) {
                return Err(ArithError { expression: name.to_string(), message: "unbound variable".into() });
            }
            return Ok(0);
        };
        let trimmed = value.trim_matches([' ', '\t', '\n']);
        if trimmed.is_empty() {
            return Ok(0);
        }
        // A plain decimal reads directly; `010` (octal) and `0x1f` go through the parser.
        if !trimmed.starts_with('0') || trimmed == "0" {
            if let Ok(number) = trimmed.parse::<i64>() {
                return Ok(number);
            }
        }
        if self.depth >= MAX_RECURSION {
            return Err(self.fail(format!("expression recursion level exceeded (error token is \"{trimmed}\")")));
        }
        super::arith_eval::eval_text_at(&value, &mut *self.env, self.depth + 1)
    }

    fn apply(&self, op: BinaryArithOp, left: i64, right: i64, right_expr: &ArithExpr) -> Result<i64, ArithError> {
        let token = || error_token(self.text, right_expr);
        match op {
            BinaryArithOp::Power if right < 0 => Err(self.fail(format!("exponent less than 0 (error token is \"{}\")", token()))),
            BinaryArithOp::Divide | BinaryArithOp::Remainder if right == 0 => {
                Err(self.fail(format!("division by 0 (error token is \"{}\")", token())))
            }
            _ => Ok(apply_binary(op, left, right)),
        }
    }
}

/// Applies a binary operator with 64-bit wrapping arithmetic. Division by
/// zero and negative exponents are the caller's errors; here they give 0 and 1.
pub(super) fn apply_binary(op: BinaryArithOp, left: i64, right: i64) -> i64 {
    match op {
        BinaryArithOp::Power => {
            let mut result: i64 = 1;
            let mut base = left;
            let mut exponent = right.max(0) as u64;
            while exponent > 0 {
                if exponent & 1 == 1 {
                    result = result.wrapping_mul(base);
                }
                base = base.wrapping_mul(base);
                exponent >>= 1;
            }
            result
        }
        BinaryArithOp::Multiply => left.wrapping_mul(right),
        BinaryArithOp::Divide if right == 0 => 0,
        BinaryArithOp::Remainder if right == 0 => 0,
        BinaryArithOp::Divide => left.wrapping_div(right),
        BinaryArithOp::Remainder => left.wrapping_rem(right),
        BinaryArithOp::Add => left.wrapping_add(right),
        BinaryArithOp::Subtract => left.wrapping_sub(right),
        BinaryArithOp::ShiftLeft => left.wrapping_shl(right as u32),
        BinaryArithOp::ShiftRight => left.wrapping_shr(right as u32),
        BinaryArithOp::Less => (left < right) as i64,
        BinaryArithOp::LessEqual => (left <= right) as i64,
        BinaryArithOp::Greater => (left > right) as i64,
        BinaryArithOp::GreaterEqual => (left >= right) as i64,
        BinaryArithOp::Equal => (left == right) as i64,
        BinaryArithOp::NotEqual => (left != right) as i64,
        BinaryArithOp::BitAnd => left & right,
        BinaryArithOp::BitXor => left ^ right,
        BinaryArithOp::BitOr => left | right,
        BinaryArithOp::LogicalAnd => (left != 0 && right != 0) as i64,
        BinaryArithOp::LogicalOr => (left != 0 || right != 0) as i64,
    }
}

/// The text bash shows as the error token for an operand: the source from
/// where the operand starts to the end, when it can be found.
fn error_token(text: &str, operand: &ArithExpr) -> String {
    let needle = match operand {
        ArithExpr::Number(n) => n.clone(),
        ArithExpr::Variable(n) => n.clone(),
        ArithExpr::Unary(_, inner) => return error_token(text, inner),
        _ => return String::new(),
    };
    match text.rfind(&needle) {
        Some(index) => text[index..].to_string(),
        None => needle,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[derive(Default)]
    struct Env(HashMap<String, String>);

    impl ArithEnv for Env {
        fn get_var(&mut self, name: &str, _index: Option<&ElementKey>) -> Result<Option<String>, String> {
            Ok(self.0.get(name).cloned())
        }
        fn set_var(&mut self, name: &str, _index: Option<&ElementKey>, value: i64) -> Result<(), String> {
            self.0.insert(name.into(), value.to_string());
            Ok(())
        }
    }

    fn calc(text: &str) -> Result<i64, String> {
        eval_text(text, &mut Env::default()).map_err(|e| e.to_string())
    }

    #[test]
    fn precedence_and_operators() {
        assert_eq!(calc("1 + 2 * 3"), Ok(7));
        assert_eq!(calc("-2 ** 2"), Ok(4));
        assert_eq!(calc("2 ** 3 ** 2"), Ok(512));
        assert_eq!(calc("7 % 3 << 2"), Ok(4));
        assert_eq!(calc("1 ? 2 : 3"), Ok(2));
        assert_eq!(calc("0x1f + 017 + 2#101 + 64#_"), Ok(31 + 15 + 5 + 63));
        assert_eq!(calc("9223372036854775807 + 1"), Ok(i64::MIN));
        assert_eq!(calc("x = 5, x *= 2, x++ + x"), Ok(21));
    }

    #[test]
    fn bash_error_messages() {
        assert_eq!(calc("1/0").unwrap_err(), "1/0: division by 0 (error token is \"0\")");
        assert_eq!(calc("1+").unwrap_err(), "1+: syntax error: operand expected (error token is \"+\")");
        assert_eq!(calc("08").unwrap_err(), "08: value too great for base (error token is \"08\")");
        assert_eq!(calc("1 2").unwrap_err(), "1 2: syntax error in expression (error token is \"2\")");
        assert_eq!(calc("2**-1").unwrap_err(), "2**-1: exponent less than 0 (error token is \"1\")");
        assert_eq!(calc("1=2").unwrap_err(), "1=2: attempted assignment to non-variable (error token is \"=2\")");
        assert_eq!(calc("65#1").unwrap_err(), "65#1: invalid arithmetic base (error token is \"65#1\")");
    }

    #[test]
    fn variables_are_evaluated_recursively() {
        let mut env = Env::default();
        env.0.insert("x".into(), "1+2".into());
        assert_eq!(eval_text("x*3", &mut env), Ok(9));
    }
}
