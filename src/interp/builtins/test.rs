//! `test` and `[`: POSIX argument-count rules, then `! ( ) -a -o` precedence.

use super::{words, Arg};
use crate::host::LocalFuture;
use crate::interp::cond::{CondError, FILE_TESTS};
use crate::interp::{Outcome, Shell};

/// `test expr`.
pub fn test(shell: &mut Shell, args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        let args = words(&args);
        run_test(shell, "test", &args[1..]).await
    })
}

/// `[ expr ]`.
pub fn bracket(shell: &mut Shell, args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        let args = words(&args);
        if args.last().map(String::as_str) != Some("]") {
            shell.builtin_error("[", "missing `]'").await;
            return Ok(2);
        }
        run_test(shell, "[", &args[1..args.len() - 1]).await
    })
}

async fn run_test(shell: &mut Shell, name: &str, args: &[String]) -> Outcome {
    let mut parser = TestParser { args, position: 0 };
    match parser.expression(shell, 0).await {
        Ok(value) => {
            // A complete expression with words left over.
            if parser.position < args.len() {
                shell.builtin_error(name, "too many arguments").await;
                return Ok(2);
            }
            Ok(if value { 0 } else { 1 })
        }
        Err(CondError::Usage(message)) => {
            shell.builtin_error(name, &message).await;
            Ok(2)
        }
        Err(CondError::Expand(error)) => shell.expansion_failed(error).await,
    }
}

fn is_unary(op: &str) -> bool {
    op.len() == 2 && op.starts_with('-') && (FILE_TESTS.contains(&op[1..]) || matches!(&op[1..], "z" | "n" | "v" | "o" | "R" | "t"))
}

fn is_binary(op: &str) -> bool {
    matches!(op, "=" | "==" | "!=" | "<" | ">" | "-eq" | "-ne" | "-lt" | "-le" | "-gt" | "-ge" | "-nt" | "-ot" | "-ef")
}

struct TestParser<'a> {
    args: &'a [String],
    position: usize,
}

impl TestParser<'_> {
    fn remaining(&self) -> usize {
        self.args.len() - self.position
    }

    fn peek(&self, offset: usize) -> Option<&str> {
        self.args.get(self.position + offset).map(String::as_str)
    }

    /// An expression with `-o` (level 0) and `-a` (level 1).
    fn expression<'s>(&'s mut self, shell: &'s mut Shell, level: u8) -> crate::host::LocalFuture<'s, Result<bool, CondError>> {
        Box::pin(async move {
            if level == 0 && self.position == 0 {
                if let Some(value) = self.by_count(shell).await? {
                    return Ok(value);
                }
            }
            if level >= 2 {
                return self.primary(shell).await;
            }
            let mut value = self.expression(shell, level + 1).await?;
            let op = if level == 0 { "-o" } else { "-a" };
            while self.peek(0) == Some(op) && self.remaining() > 1 {
                self.position += 1;
                let right = self.expression(shell, level + 1).await?;
                value = if level == 0 { value || right } else { value && right };
            }
            Ok(value)
        })
    }

    /// POSIX's rules for 0 to 4 arguments.
    fn by_count<'s>(&'s mut self, shell: &'s mut Shell) -> crate::host::LocalFuture<'s, Result<Option<bool>, CondError>> {
        Box::pin(async move { self.by_count_inner(shell).await })
    }

    async fn by_count_inner(&mut self, shell: &mut Shell) -> Result<Option<bool>, CondError> {
        let args = self.args;
        let value = match args.len() {
            0 => Some(false),
            1 => Some(!args[0].is_empty()),
            2 => {
                if args[0] == "!" {
                    Some(args[1].is_empty())
                } else if is_unary(&args[0]) {
                    Some(shell.unary_test(&args[0], &args[1]).await?)
                } else {
                    return Err(CondError::Usage(format!("{}: unary operator expected", args[0])));
                }
            }
            3 => {
                if is_binary(&args[1]) {
                    Some(shell.binary_test(&args[1], &args[0], &args[2], true).await?)
                } else if args[1] == "-a" {
                    // POSIX: with three arguments `-a` and `-o` join two one-argument tests.
                    Some(!args[0].is_empty() && !args[2].is_empty())
                } else if args[1] == "-o" {
                    Some(!args[0].is_empty() || !args[2].is_empty())
                } else if args[0] == "!" {
                    self.position = 1;
                    let mut inner = TestParser { args: &args[1..], position: 0 };
                    let value = inner.by_count(shell).await?.unwrap_or(false);
                    self.position = 3;
                    Some(!value)
                } else if args[0] == "(" && args[2] == ")" {
                    Some(!args[1].is_empty())
                } else {
                    return Err(CondError::Usage(format!("{}: binary operator expected", args[1])));
                }
            }
            4 if args[0] == "!" => {
                let mut inner = TestParser { args: &args[1..], position: 0 };
                inner.by_count(shell).await?.map(|v| !v)
            }
            _ => None,
        };
        if value.is_some() {
            self.position = args.len();
        }
        Ok(value)
    }

    async fn primary(&mut self, shell: &mut Shell) -> Result<bool, CondError> {
        let Some(token) = self.peek(0).map(str::to_string) else {
            return Err(CondError::Usage("argument expected".into()));
        };
        if token == "!" {
            self.position += 1;
            let value = Box::pin(self.primary(shell)).await?;
            return Ok(!value);
        }
        if token == "(" {
            self.position += 1;
            let value = self.expression(shell, 0).await?;
            if self.peek(0) != Some(")") {
                return Err(CondError::Usage("`)' expected".into()));
            }
            self.position += 1;
            return Ok(value);
        }
        if let Some(op) = self.peek(1).filter(|op| is_binary(op)).map(str::to_string) {
            if let Some(right) = self.peek(2).map(str::to_string) {
                self.position += 3;
                return shell.binary_test(&op, &token, &right, true).await;
            }
        }
        if is_unary(&token) {
            if let Some(operand) = self.peek(1).map(str::to_string) {
                self.position += 2;
                return shell.unary_test(&token, &operand).await;
            }
        }
        self.position += 1;
        Ok(!token.is_empty())
    }
}
