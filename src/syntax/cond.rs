//! `[[ expression ]]`: unary and binary tests, `=~` with its own quoting
//! rules, `==`/`!=` patterns (extglob always on, as in bash), `!`, `&&`,
//! `||` and parentheses.

use super::ast::{CompoundCommand, CondExpr, Word};
use super::error::ParseErrorKind;
use super::parser::{Fail, PResult, Parser};
use super::word::WordContext;

/// Bash's message for a malformed `[[ ]]` expression.
const SYNTAX_ERROR: &str = "syntax error in conditional expression";

/// Unary test operators.
const UNARY: [&str; 26] = [
    "-a", "-b", "-c", "-d", "-e", "-f", "-g", "-h", "-k", "-p", "-r", "-s", "-t", "-u", "-w", "-x", "-O", "-G", "-L", "-S", "-N", "-z",
    "-n", "-o", "-v", "-R",
];

/// Binary test operators spelled as words.
const BINARY: [&str; 14] = ["==", "=", "!=", "=~", "-eq", "-ne", "-lt", "-le", "-gt", "-ge", "-nt", "-ot", "-ef", "<"];

impl Parser<'_> {
    /// Reads the rest of `[[ ... ]]`, `[[` already read.
    pub(super) fn cond_command(&mut self) -> PResult<CompoundCommand> {
        let saved = self.extglob;
        let saved_cond = std::mem::replace(&mut self.cond_extglob, saved);
        self.extglob = true;
        let result = self.cond_body();
        self.extglob = saved;
        self.cond_extglob = saved_cond;
        result
    }

    fn cond_body(&mut self) -> PResult<CompoundCommand> {
        let expr = self.cond_or()?;
        self.cond_space()?;
        if !self.eat_reserved("]]")? {
            if self.cur().is_none() {
                return self.fail(ParseErrorKind::Other("unexpected EOF while looking for `]]'".to_string()));
            }
            if let Some(op) = self.peek_op() {
                let message = format!("syntax error in conditional expression: unexpected token `{op}'");
                return self.fail(ParseErrorKind::Other(message));
            }
            return self.cond_unexpected();
        }
        Ok(CompoundCommand::Cond(expr))
    }

    /// Skips blanks and newlines: a complete test may be followed by its
    /// `&&`, `||`, `)` or `]]` on a later line.
    fn cond_space(&mut self) -> PResult<()> {
        self.skip_linebreaks()
    }

    /// Fails at the token here with bash's conditional-command wording.
    fn cond_unexpected<T>(&self) -> PResult<T> {
        match self.token_text() {
            None => Err(Fail::at_end(ParseErrorKind::Other("unexpected token `EOF' in conditional command".to_string()))),
            Some(_) => self.fail(ParseErrorKind::Other(SYNTAX_ERROR.to_string())),
        }
    }

    /// The token here as bash names it in conditional errors (`newline` at the end).
    fn cond_token(&self) -> String {
        self.token_text().unwrap_or_else(|| "newline".to_string())
    }

    fn cond_or(&mut self) -> PResult<CondExpr> {
        let mut left = self.cond_and()?;
        loop {
            self.cond_space()?;
            if !self.eat_op("||")? {
                return Ok(left);
            }
            let right = self.cond_and()?;
            left = CondExpr::Or(Box::new(left), Box::new(right));
        }
    }

    fn cond_and(&mut self) -> PResult<CondExpr> {
        let mut left = self.cond_not()?;
        loop {
            self.cond_space()?;
            if !self.eat_op("&&")? {
                return Ok(left);
            }
            let right = self.cond_not()?;
            left = CondExpr::And(Box::new(left), Box::new(right));
        }
    }

    fn cond_not(&mut self) -> PResult<CondExpr> {
        self.cond_space()?;
        self.step()?;
        let extglob_word = self.cond_extglob && self.looking_at("!(");
        if !extglob_word && self.eat_reserved("!")? {
            self.enter()?;
            let inner = self.cond_not()?;
            self.leave();
            return Ok(CondExpr::Not(Box::new(inner)));
        }
        self.cond_primary()
    }

    /// True when the token here cannot be an operand.
    fn cond_at_end(&self) -> bool {
        self.cur().is_none()
            || self.at_reserved("]]")
            || matches!(self.peek_op(), Some("&&" | "||" | ")" | "("))
            || self.cur() == Some(b'\n')
    }

    fn cond_primary(&mut self) -> PResult<CondExpr> {
        self.cond_space()?;
        if self.eat_op("(")? {
            self.enter()?;
            let inner = match self.cond_or() {
                // Bash names no token for an operand missing at `]]`; the group reports its `)`.
                Err(fail) if self.at_reserved("]]") && matches!(&fail.kind, ParseErrorKind::Other(text) if text == SYNTAX_ERROR) => {
                    return self.fail(ParseErrorKind::Other("expected `)'".to_string()));
                }
                result => result?,
            };
            self.leave();
            self.cond_space()?;
            if !self.eat_op(")")? {
                return match self.token_text() {
                    Some(token) if token != "newline" => {
                        self.fail(ParseErrorKind::Other(format!("unexpected token `{token}', expected `)'")))
                    }
                    _ => self.fail(ParseErrorKind::Other("expected `)'".to_string())),
                };
            }
            return Ok(CondExpr::Group(Box::new(inner)));
        }
        if self.cond_at_end() {
            return self.cond_unexpected();
        }
        if let Some(op) = self.plain_word().filter(|w| UNARY.contains(w)).map(str::to_string) {
            let saved = self.pos;
            self.pos += op.len();
            self.skip_blanks();
            if !matches!(self.cur(), None | Some(b'\n')) && !self.at_reserved("]]") && !matches!(self.peek_op(), Some("&&" | "||" | ")")) {
                let operand = self.cond_word()?;
                return Ok(CondExpr::Unary(op, operand));
            }
            if self.at_reserved("]]") || matches!(self.cur(), None | Some(b'\n')) {
                let message = format!("unexpected argument `{}' to conditional unary operator", self.cond_token());
                return self.fail(ParseErrorKind::Other(message));
            }
            self.pos = saved;
        }
        let left = self.cond_word()?;
        self.skip_blanks();
        let op = match self.peek_op() {
            Some("<") => Some("<".to_string()),
            Some(">") => Some(">".to_string()),
            _ => self.plain_word().filter(|w| BINARY.contains(w)).map(str::to_string),
        };
        let Some(op) = op else {
            if matches!(self.cur(), None | Some(b'\n')) {
                return self.fail(ParseErrorKind::Other("unexpected token `newline', conditional binary operator expected".to_string()));
            }
            if self.cond_at_end() {
                return Ok(CondExpr::Word(left));
            }
            return self.fail(ParseErrorKind::Other("conditional binary operator expected".to_string()));
        };
        self.pos += op.len();
        self.token()?;
        self.skip_blanks();
        if self.at_reserved("]]") || matches!(self.cur(), None | Some(b'\n')) {
            let message = format!("unexpected argument `{}' to conditional binary operator", self.cond_token());
            return self.fail(ParseErrorKind::Other(message));
        }
        if op == "=~" {
            let Some(regex) = self.read_word(WordContext::Regex)? else {
                return self.cond_unexpected();
            };
            return Ok(CondExpr::Regex(left, regex));
        }
        let right = self.cond_word()?;
        Ok(CondExpr::Binary(op, left, right))
    }

    /// One operand word.
    fn cond_word(&mut self) -> PResult<Word> {
        self.skip_blanks();
        match self.read_word(WordContext::Pattern)? {
            Some(word) => Ok(word),
            None => self.cond_unexpected(),
        }
    }
}
