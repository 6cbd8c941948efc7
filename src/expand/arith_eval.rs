//! Evaluates arithmetic text in one pass, reading and computing together as
//! bash's `expr.c` does. This is what makes bash's observable behavior come
//! out right: side effects before an error stay (`let "x=5, 1 +"` sets x),
//! operands skipped by `&&`, `||` and `?:` are read but not evaluated, and
//! every error names the expression as written and the token bash names
//! (`1/0 : division by 0 (error token is "0 ")`).

use super::arith::{apply_binary, parse_number, tokenize_prefix, ArithEnv, ArithError, Kind, Token, MAX_RECURSION};
use super::ElementKey;
use crate::syntax::ast::BinaryArithOp;

/// Evaluates `text` against `env`; `depth` counts nested variable values.
pub fn eval_text_at(text: &str, env: &mut dyn ArithEnv, depth: usize) -> Result<i64, ArithError> {
    let (tokens, pending) = tokenize_prefix(text);
    let mut pass = OnePass { env, text, tokens, pending, position: 0, noeval: 0, depth, last_key: None, read_noeval: 0 };
    if pass.tokens.is_empty() {
        return match pass.pending.take() {
            Some(error) => Err(error),
            None => Ok(0),
        };
    }
    let value = pass.comma()?;
    if pass.position < pass.tokens.len() {
        // A stray name was read, and so its value evaluated, before bash saw
        // the syntax error: an error there comes first (`y='x y'; $((y))`
        // recurses).
        if let Some(Kind::Name(name)) = pass.kind().cloned() {
            // A character bash cannot read right after a stray last name is
            // the error (`a b.c`: invalid arithmetic operator), first.
            if pass.position + 1 == pass.tokens.len() {
                if let Some(error) = pass.pending.take() {
                    return Err(error);
                }
            }
            if pass.read_noeval == 0 {
                let start = pass.tokens[pass.position].start;
                pass.read_variable(&name, None, start)?;
            }
        }
        return Err(pass.error("syntax error in expression"));
    }
    Ok(value)
}

/// The binary operator levels from loosest to tightest, below `?:`.
const LEVELS: &[&[&str]] =
    &[&["||"], &["&&"], &["|"], &["^"], &["&"], &["==", "!="], &["<", "<=", ">", ">="], &["<<", ">>"], &["+", "-"], &["*", "/", "%"]];

/// The level of a binary operator in [`LEVELS`].
fn level_of(op: &str) -> Option<usize> {
    LEVELS.iter().position(|level| level.contains(&op))
}

struct OnePass<'a> {
    env: &'a mut dyn ArithEnv,
    text: &'a str,
    tokens: Vec<Token>,
    /// A character the tokenizer could not read, right after `tokens`: it
    /// is an error only when the evaluation reaches it.
    pending: Option<ArithError>,
    position: usize,
    /// Above 0 inside operands that are read but not evaluated.
    noeval: u32,
    depth: usize,
    /// The key of the last element read (`a[i++]`), kept so that an
    /// assignment to it does not evaluate the subscript again.
    last_key: Option<ElementKey>,
    /// `noeval` when the current token was read: bash reads a name's value
    /// as it reads the token, outside skipped operands.
    read_noeval: u32,
}

impl OnePass<'_> {
    fn kind(&self) -> Option<&Kind> {
        self.tokens.get(self.position).map(|token| &token.kind)
    }

    fn op(&self) -> Option<&'static str> {
        match self.kind() {
            Some(Kind::Op(op)) => Some(op),
            _ => None,
        }
    }

    /// Moves to the next token (bash's `readtok`).
    fn advance(&mut self) -> Result<(), ArithError> {
        self.position += 1;
        self.read_noeval = self.noeval;
        if self.position >= self.tokens.len() {
            if let Some(error) = self.pending.take() {
                return Err(error);
            }
        }
        Ok(())
    }

    /// Bash's error token: the text from the current token on, or from the
    /// last token at the end of the expression.
    fn error_token(&self) -> &str {
        let mut index = self.position.min(self.tokens.len().saturating_sub(1));
        // `a[1]` is one token to bash: its subscript names the variable's start.
        if index > 0 && matches!(self.tokens.get(index).map(|token| &token.kind), Some(Kind::Subscript(_))) {
            index -= 1;
        }
        match self.tokens.get(index) {
            Some(token) => self.text.get(token.start..).unwrap_or(""),
            None => "",
        }
    }

    fn error(&self, message: &str) -> ArithError {
        ArithError { expression: self.text.to_string(), message: format!("{message} (error token is \"{}\")", self.error_token()) }
    }

    fn comma(&mut self) -> Result<i64, ArithError> {
        let mut value = self.assignment()?;
        while self.op() == Some(",") {
            self.advance()?;
            value = self.assignment()?;
        }
        Ok(value)
    }

    fn assignment(&mut self) -> Result<i64, ArithError> {
        let start = self.position;
        let value = self.conditional()?;
        let compound = match self.op() {
            Some("=") => None,
            Some(op) if op.len() >= 2 && op.ends_with('=') && !matches!(op, "==" | "!=" | "<=" | ">=") => {
                super::arith::binary_op(&op[..op.len() - 1])
            }
            _ => return Ok(value),
        };
        // Only a lone variable or element can be assigned.
        let Some((name, subscript)) = self.lone_lvalue(start) else {
            return Err(self.error("attempted assignment to non-variable"));
        };
        self.advance()?;
        let key = if subscript.is_some() { self.last_key.take() } else { None };
        let mut right = self.assignment()?;
        let result = match compound {
            None => right,
            Some(op) => {
                if matches!(op, BinaryArithOp::Divide | BinaryArithOp::Remainder) && right == 0 {
                    if self.noeval == 0 {
                        return Err(self.error("division by 0"));
                    }
                    right = 1;
                }
                apply_binary(op, value, right)
            }
        };
        if self.noeval == 0 {
            self.env.set_var(&name, key.as_ref(), result).map_err(|message| self.assign_failed(&name, message))?;
        }
        Ok(result)
    }

    /// The variable read from `start` to here, when that is all there was.
    fn lone_lvalue(&self, start: usize) -> Option<(String, Option<String>)> {
        match (self.tokens.get(start).map(|t| &t.kind), self.position - start) {
            (Some(Kind::Name(name)), 1) => Some((name.clone(), None)),
            (Some(Kind::Name(name)), 2) => match self.tokens.get(start + 1).map(|t| &t.kind) {
                Some(Kind::Subscript(raw)) => Some((name.clone(), Some(raw.clone()))),
                _ => None,
            },
            _ => None,
        }
    }

    fn assign_failed(&self, name: &str, message: String) -> ArithError {
        if message.ends_with(": readonly variable") {
            return ArithError { expression: name.to_string(), message: "readonly variable".into() };
        }
        ArithError { expression: self.text.to_string(), message }
    }

    fn conditional(&mut self) -> Result<i64, ArithError> {
        let condition = self.binary(0)?;
        if self.op() != Some("?") {
            return Ok(condition);
        }
        self.advance()?;
        if self.kind().is_none() || self.op() == Some(":") {
            return Err(self.error("expression expected"));
        }
        let skip_then = condition == 0;
        self.noeval += skip_then as u32;
        let then = self.comma();
        self.noeval -= skip_then as u32;
        let then = then?;
        if self.op() != Some(":") {
            return Err(self.error("`:' expected for conditional expression"));
        }
        self.advance()?;
        if self.kind().is_none() {
            return Err(self.error("expression expected"));
        }
        let skip_else = condition != 0;
        self.noeval += skip_else as u32;
        let otherwise = self.conditional();
        self.noeval -= skip_else as u32;
        let otherwise = otherwise?;
        Ok(if condition != 0 { then } else { otherwise })
    }

    /// Binary operators binding at least as tightly as `min_level`, by
    /// precedence climbing (one frame per operator, not per level, so that
    /// nested variable values stay shallow).
    fn binary(&mut self, min_level: usize) -> Result<i64, ArithError> {
        let mut left = self.power()?;
        while let Some((op, level)) = self.op().and_then(|op| level_of(op).map(|level| (op, level))) {
            if level < min_level {
                break;
            }
            let operator_end = self.tokens[self.position].start + op.len();
            self.advance()?;
            // `a && b` and `a || b` read b without evaluating it when a decides.
            let skip = (op == "&&" && left == 0) || (op == "||" && left != 0);
            self.noeval += skip as u32;
            let right = self.binary(level + 1);
            self.noeval -= skip as u32;
            let mut right = right?;
            let operator = super::arith::binary_op(op).unwrap_or(BinaryArithOp::Add);
            if matches!(operator, BinaryArithOp::Divide | BinaryArithOp::Remainder) && right == 0 {
                if self.noeval == 0 {
                    // Bash names the text after the operator.
                    let after = self.text[operator_end..].trim_start_matches([' ', '\t', '\n']);
                    return Err(ArithError {
                        expression: self.text.to_string(),
                        message: format!("division by 0 (error token is \"{after}\")"),
                    });
                }
                right = 1;
            }
            left = apply_binary(operator, left, right);
        }
        Ok(left)
    }

    fn power(&mut self) -> Result<i64, ArithError> {
        let base = self.unary()?;
        if self.op() != Some("**") {
            return Ok(base);
        }
        self.advance()?;
        let exponent = self.power()?;
        if exponent == 0 {
            return Ok(1);
        }
        if exponent < 0 {
            return Err(self.error("exponent less than 0"));
        }
        Ok(apply_binary(BinaryArithOp::Power, base, exponent))
    }

    fn unary(&mut self) -> Result<i64, ArithError> {
        match self.op() {
            Some(op @ ("!" | "~" | "-" | "+")) => {
                self.advance()?;
                let value = self.unary()?;
                Ok(match op {
                    "!" => (value == 0) as i64,
                    "~" => !value,
                    "-" => value.wrapping_neg(),
                    _ => value,
                })
            }
            Some(op @ ("++" | "--")) => {
                self.advance()?;
                let Some(Kind::Name(name)) = self.kind().cloned() else {
                    return Err(self.error("identifier expected after pre-increment or pre-decrement"));
                };
                let token_start = self.tokens[self.position].start;
                self.advance()?;
                let key = self.subscript_key(&name)?;
                let old = self.read_variable(&name, key.as_ref(), token_start)?;
                let new = if op == "++" { old.wrapping_add(1) } else { old.wrapping_sub(1) };
                if self.noeval == 0 {
                    self.env.set_var(&name, key.as_ref(), new).map_err(|message| self.assign_failed(&name, message))?;
                }
                Ok(new)
            }
            _ => self.operand(),
        }
    }

    fn operand(&mut self) -> Result<i64, ArithError> {
        match self.kind().cloned() {
            Some(Kind::Op("(")) => {
                self.advance()?;
                let value = self.comma()?;
                if self.op() != Some(")") {
                    return Err(self.error("missing `)'"));
                }
                self.advance()?;
                Ok(value)
            }
            Some(Kind::Number(literal)) => {
                // Numbers are read even where nothing is evaluated.
                // Bash ends the quoted expression at the bad number.
                let end = self.tokens[self.position].start + literal.len();
                let value = parse_number(&literal).map_err(|message| ArithError { expression: self.text[..end].to_string(), message })?;
                self.advance()?;
                Ok(value)
            }
            Some(Kind::Name(name)) => {
                let token_start = self.tokens[self.position].start;
                self.advance()?;
                let key = self.subscript_key(&name)?;
                self.last_key = key.clone();
                // A plain `x = ...` does not read x first.
                if self.op() == Some("=") {
                    return Ok(0);
                }
                let value = self.read_variable(&name, key.as_ref(), token_start)?;
                if let Some(op @ ("++" | "--")) = self.op() {
                    let new = if op == "++" { value.wrapping_add(1) } else { value.wrapping_sub(1) };
                    if self.noeval == 0 {
                        self.env.set_var(&name, key.as_ref(), new).map_err(|message| self.assign_failed(&name, message))?;
                    }
                    self.advance()?;
                }
                Ok(value)
            }
            _ => Err(self.error("syntax error: operand expected")),
        }
    }

    /// After a name: reads its `[subscript]` token, if any, into a key.
    fn subscript_key(&mut self, name: &str) -> Result<Option<ElementKey>, ArithError> {
        let Some(Kind::Subscript(raw)) = self.kind().cloned() else {
            return Ok(None);
        };
        self.advance()?;
        if self.noeval > 0 {
            return Ok(Some(ElementKey::Index(0)));
        }
        self.key(name, &raw).map(Some)
    }

    /// The key of `name[raw]`: text for an associative array, arithmetic
    /// for an indexed one.
    fn key(&mut self, name: &str, raw: &str) -> Result<ElementKey, ArithError> {
        if self.env.is_assoc(name) {
            return Ok(ElementKey::Key(raw.replace(['"', '\''], "")));
        }
        self.nested(raw).map(ElementKey::Index)
    }

    /// A variable's value read as an expression of its own.
    fn read_variable(&mut self, name: &str, key: Option<&ElementKey>, token_start: usize) -> Result<i64, ArithError> {
        if self.noeval > 0 {
            return Ok(0);
        }
        let value = self.env.get_var(name, key).map_err(|message| ArithError { expression: self.text.to_string(), message })?;
        let Some(value) = value else {
            if self.env.nounset() && !self.env.is_set_array(name) {
                return Err(ArithError { expression: name.to_string(), message: "unbound variable".into() });
            }
            return Ok(0);
        };
        // A value naming another variable is followed in a loop, not by
        // recursion, counting each step against bash's recursion limit.
        // Errors quote the value with its trailing blanks, as bash reads it.
        let mut raw = value.clone();
        let mut current = value.trim_matches([' ', '\t', '\n']).to_string();
        let mut depth = self.depth;
        // The text being read when the limit is hit: this expression at
        // the variable's token, then each name followed.
        let mut context: Option<String> = None;
        let too_deep = |context: &Option<String>| match context {
            Some(name) => recursion_error(name),
            None => ArithError {
                expression: self.text.to_string(),
                message: format!("expression recursion level exceeded (error token is \"{}\")", &self.text[token_start..]),
            },
        };
        loop {
            if current.is_empty() {
                return Ok(0);
            }
            if !current.starts_with('0') || current == "0" {
                if let Ok(number) = current.parse::<i64>() {
                    return Ok(number);
                }
            }
            if !is_plain_name(&current) {
                break;
            }
            if depth >= MAX_RECURSION {
                return Err(too_deep(&context));
            }
            depth += 1;
            context = Some(current.clone());
            let next = self.env.get_var(&current, None).map_err(|message| ArithError { expression: current.clone(), message })?;
            current = match next {
                Some(next) => {
                    raw = next.clone();
                    next.trim_matches([' ', '\t', '\n']).to_string()
                }
                None if self.env.nounset() => {
                    return Err(ArithError { expression: current, message: "unbound variable".into() });
                }
                None => return Ok(0),
            };
        }
        if depth >= MAX_RECURSION {
            return Err(too_deep(&context));
        }
        eval_text_at(&raw, &mut *self.env, depth + 1)
    }

    /// Evaluates text inside this expression (a variable's value, a
    /// subscript), with its own error context.
    fn nested(&mut self, text: &str) -> Result<i64, ArithError> {
        if self.depth >= MAX_RECURSION {
            return Err(recursion_error(text));
        }
        eval_text_at(text, &mut *self.env, self.depth + 1)
    }
}

/// Bash's error for values that refer to themselves (`a=a; $((a))`).
fn recursion_error(text: &str) -> ArithError {
    ArithError { expression: text.to_string(), message: format!("expression recursion level exceeded (error token is \"{text}\")") }
}

/// A variable name alone (no subscript, no operator).
fn is_plain_name(text: &str) -> bool {
    text.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') && text.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}
