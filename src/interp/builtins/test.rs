//! `test` and `[`: POSIX's rules by argument count for up to four arguments,
//! then a recursive-descent grammar with `! ( ) -a -o`, as bash reads them.
//!
//! bash evaluates while it parses (both sides of `-a` and `-o`, no short
//! circuit), so an operand's error (`x: integer expression expected`) is
//! reported before a syntax error further right. The grammar:
//!
//! ```text
//! expr := and ( -o and )*
//! and  := term ( -a term )*
//! term := !... term | ( expr ) | word binop word | unop word | word
//! ```
//!
//! Words left over after a complete expression are `syntax error: `W'
//! unexpected` when the first starts with `-`, else `too many arguments`.

use super::{words, Arg};
use crate::host::LocalFuture;
use crate::interp::cond::{CondError, FILE_TESTS};
use crate::interp::{Outcome, Shell};

/// `test expr`.
pub fn test(shell: &mut Shell, args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        let args = words(&args);
        run_test(shell, "test", &args[1..], false).await
    })
}

/// `[ expr ]`.
pub fn bracket(shell: &mut Shell, args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        let args = words(&args);
        if args.len() < 2 || args.last().map(String::as_str) != Some("]") {
            shell.builtin_error("[", "missing `]'").await;
            return Ok(2);
        }
        run_test(shell, "[", &args[1..args.len() - 1], true).await
    })
}

/// Runs the expression `args`; `bracket` when they were closed by `]`.
async fn run_test(shell: &mut Shell, name: &str, args: &[String], bracket: bool) -> Outcome {
    if args.is_empty() {
        return Ok(1);
    }
    let mut parser = TestParser { args, pos: 0, bracket };
    let result = match parser.by_count(shell).await {
        Ok(_) if parser.pos < args.len() => Err(CondError::Usage(leftover_message(&args[parser.pos]))),
        other => other,
    };
    match result {
        Ok(value) => Ok(if value { 0 } else { 1 }),
        Err(CondError::Usage(message)) => {
            shell.builtin_error(name, &message).await;
            Ok(2)
        }
        Err(CondError::Expand(error)) => shell.expansion_failed(error).await,
    }
}

/// The complaint about the first word after a complete expression.
fn leftover_message(word: &str) -> String {
    if word.starts_with('-') {
        format!("syntax error: `{word}' unexpected")
    } else {
        "too many arguments".into()
    }
}

/// A unary operator of `test`: `-` and one letter of the file tests or
/// `z n v o R t`.
fn is_unary(op: &str) -> bool {
    op.len() == 2 && op.starts_with('-') && (FILE_TESTS.contains(&op[1..]) || matches!(&op[1..], "z" | "n" | "v" | "o" | "R" | "t"))
}

/// A binary operator of `test` (`=~` is only `[[`'s).
fn is_binary(op: &str) -> bool {
    matches!(op, "=" | "==" | "!=" | "<" | ">" | "-eq" | "-ne" | "-lt" | "-le" | "-gt" | "-ge" | "-nt" | "-ot" | "-ef")
}

/// A one-argument test: true when the word is not empty.
fn one_arg(word: &str) -> bool {
    !word.is_empty()
}

/// A word `-t` takes as its file descriptor: an integer with optional blanks.
fn is_number(word: &str) -> bool {
    let trimmed = word.trim_matches(|c: char| c.is_ascii_whitespace());
    let digits = trimmed.strip_prefix(['-', '+']).unwrap_or(trimmed);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) && trimmed.parse::<i64>().is_ok()
}

fn argument_expected() -> CondError {
    CondError::Usage("argument expected".into())
}

struct TestParser<'a> {
    args: &'a [String],
    pos: usize,
    /// `[`'s closing `]` follows the words: bash names it in
    /// "`)' expected, found ]".
    bracket: bool,
}

impl<'a> TestParser<'a> {
    fn arg(&self, index: usize) -> &'a str {
        self.args.get(index).map(String::as_str).unwrap_or("")
    }

    fn at_end(&self) -> bool {
        self.pos >= self.args.len()
    }

    /// POSIX's rules for one to four arguments, else the full grammar.
    async fn by_count(&mut self, shell: &mut Shell) -> Result<bool, CondError> {
        let count = self.args.len();
        match count {
            1 => {
                self.pos = count;
                Ok(one_arg(self.arg(0)))
            }
            2 => {
                let value = self.two_arguments(shell).await?;
                self.pos = count;
                Ok(value)
            }
            3 => self.three_arguments(shell).await,
            4 if self.arg(0) == "!" => {
                self.pos = 1;
                Ok(!self.three_arguments(shell).await?)
            }
            4 if self.arg(0) == "(" && self.arg(3) == ")" => {
                self.pos = 1;
                let value = self.two_arguments(shell).await?;
                self.pos = count;
                Ok(value)
            }
            _ => self.expr(shell).await,
        }
    }

    /// Two words from `pos`: `! word` or `unop word`.
    async fn two_arguments(&mut self, shell: &mut Shell) -> Result<bool, CondError> {
        let first = self.arg(self.pos);
        if first == "!" {
            return Ok(self.arg(self.pos + 1).is_empty());
        }
        if is_unary(first) {
            return self.unary_operator(shell).await;
        }
        Err(CondError::Usage(format!("{first}: unary operator expected")))
    }

    /// Three words from `pos`: a binary test, `-a`/`-o` of two words,
    /// `! two words` or `( word )` (any words starting with `(` and `)`).
    async fn three_arguments(&mut self, shell: &mut Shell) -> Result<bool, CondError> {
        let (first, middle, last) = (self.arg(self.pos), self.arg(self.pos + 1), self.arg(self.pos + 2));
        let value = if is_binary(middle) {
            shell.binary_test(middle, first, last, true).await?
        } else if middle == "-a" {
            one_arg(first) && one_arg(last)
        } else if middle == "-o" {
            one_arg(first) || one_arg(last)
        } else if first == "!" {
            self.pos += 1;
            !self.two_arguments(shell).await?
        } else if first.starts_with('(') && last.starts_with(')') {
            // bash looks at the first characters only here.
            one_arg(middle)
        } else {
            return Err(CondError::Usage(format!("{middle}: binary operator expected")));
        };
        self.pos = self.args.len();
        Ok(value)
    }

    /// `and ( -o and )*`, both sides always evaluated.
    fn expr<'s>(&'s mut self, shell: &'s mut Shell) -> LocalFuture<'s, Result<bool, CondError>> {
        Box::pin(async move {
            if self.at_end() {
                return Err(argument_expected());
            }
            let mut value = self.and(shell).await?;
            while !self.at_end() && self.arg(self.pos) == "-o" {
                self.pos += 1;
                let right = self.and(shell).await?;
                value = value || right;
            }
            Ok(value)
        })
    }

    /// `term ( -a term )*`, both sides always evaluated.
    async fn and(&mut self, shell: &mut Shell) -> Result<bool, CondError> {
        let mut value = self.term(shell).await?;
        while !self.at_end() && self.arg(self.pos) == "-a" {
            self.pos += 1;
            let right = self.term(shell).await?;
            value = value && right;
        }
        Ok(value)
    }

    /// Leading `!`s, then `( expr )`, a binary test, a unary test or a word.
    async fn term(&mut self, shell: &mut Shell) -> Result<bool, CondError> {
        if self.at_end() {
            return Err(argument_expected());
        }
        let mut negate = false;
        while !self.at_end() && self.arg(self.pos) == "!" {
            self.pos += 1;
            if self.at_end() {
                return Err(argument_expected());
            }
            negate = !negate;
        }
        let value = if self.arg(self.pos) == "(" {
            self.pos += 1;
            if self.at_end() {
                return Err(argument_expected());
            }
            let value = self.expr(shell).await?;
            if self.at_end() {
                let found = if self.bracket { ", found ]" } else { "" };
                return Err(CondError::Usage(format!("`)' expected{found}")));
            }
            let close = self.arg(self.pos);
            if close != ")" {
                return Err(CondError::Usage(format!("`)' expected, found {close}")));
            }
            self.pos += 1;
            value
        } else if self.pos + 3 <= self.args.len() && is_binary(self.arg(self.pos + 1)) {
            let (left, op, right) = (self.arg(self.pos), self.arg(self.pos + 1), self.arg(self.pos + 2));
            let value = shell.binary_test(op, left, right, true).await?;
            self.pos += 3;
            value
        } else if self.pos + 2 <= self.args.len() && is_unary(self.arg(self.pos)) {
            self.unary_operator(shell).await?
        } else {
            let value = one_arg(self.arg(self.pos));
            self.pos += 1;
            value
        };
        Ok(value != negate)
    }

    /// A unary operator at `pos` and its operand. `-t` takes the next word
    /// only when it is a number (and is false, leaving the word, otherwise).
    async fn unary_operator(&mut self, shell: &mut Shell) -> Result<bool, CondError> {
        let op = self.arg(self.pos);
        self.pos += 1;
        if op == "-t" {
            if self.at_end() {
                return shell.unary_test(op, "1").await;
            }
            if !is_number(self.arg(self.pos)) {
                return Ok(false);
            }
            let operand = self.arg(self.pos);
            self.pos += 1;
            return shell.unary_test(op, operand).await;
        }
        if self.at_end() {
            return Err(argument_expected());
        }
        let operand = self.arg(self.pos);
        self.pos += 1;
        shell.unary_test(op, operand).await
    }
}
