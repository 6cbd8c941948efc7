//! `expr`: evaluate an expression given as separate arguments: `|`, `&`,
//! comparisons, arithmetic, `STRING : REGEX` (anchored BRE), `match`,
//! `substr`, `index`, `length` and `+ TOKEN`. Exit status 0 when the result
//! is neither empty nor zero, 1 when it is, 2 for a bad expression, 3 for
//! other errors.

use crate::commands::format::quote_locale;
use crate::commands::options::report_usage;
use crate::host::LocalFuture;
use crate::regex::{Regex, Syntax};
use crate::utility::Invocation;
use std::cmp::Ordering;

/// A value: integers stay integers until a string is needed.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Value {
    Integer(i128),
    Text(String),
}

impl Value {
    fn text(&self) -> String {
        match self {
            Value::Integer(n) => n.to_string(),
            Value::Text(s) => s.clone(),
        }
    }

    /// Empty, or an integer equal to zero (`0`, `-0`, `00`).
    fn is_null(&self) -> bool {
        match self {
            Value::Integer(n) => *n == 0,
            Value::Text(s) => {
                let digits = s.strip_prefix('-').unwrap_or(s);
                s.is_empty() || (!digits.is_empty() && digits.bytes().all(|b| b == b'0'))
            }
        }
    }

    /// The integer this value reads as, if it does (`-?[0-9]+`).
    fn integer(&self) -> Result<Option<i128>, Error> {
        match self {
            Value::Integer(n) => Ok(Some(*n)),
            Value::Text(s) => {
                if !looks_like_integer(s) {
                    return Ok(None);
                }
                s.parse::<i128>().map(Some).map_err(|_| Error::Overflow)
            }
        }
    }
}

fn looks_like_integer(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// Why evaluation stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Error {
    /// A syntax error (status 2); the text after `syntax error: `.
    Syntax(String),
    /// `non-integer argument` (status 2).
    NonInteger,
    /// `division by zero` (status 2).
    DivisionByZero,
    /// A regex that does not compile (status 2).
    Regex(String),
    /// A result beyond 128 bits (status 2).
    Overflow,
}

/// The parser and evaluator over the argument list.
struct Parser<'a, 'c, 'i> {
    ctx: &'c Invocation<'i>,
    args: &'a [String],
    position: usize,
}

impl Parser<'_, '_, '_> {
    fn q(&self, text: &str) -> String {
        quote_locale(self.ctx, text)
    }

    /// Consumes the next argument when it is `word`.
    fn next_is(&mut self, word: &str) -> bool {
        let found = self.args.get(self.position).is_some_and(|arg| arg == word);
        if found {
            self.position += 1;
        }
        found
    }

    fn require_more(&self) -> Result<(), Error> {
        if self.position >= self.args.len() {
            let previous = self.args.get(self.position.wrapping_sub(1)).map(String::as_str).unwrap_or("");
            return Err(Error::Syntax(format!("missing argument after {}", self.q(previous))));
        }
        Ok(())
    }

    /// `A | B`.
    fn or(&mut self, evaluate: bool) -> Result<Value, Error> {
        let mut left = self.and(evaluate)?;
        while self.next_is("|") {
            let right = self.and(evaluate && left.is_null())?;
            if left.is_null() {
                left = if right.is_null() { Value::Integer(0) } else { right };
            }
        }
        Ok(left)
    }

    /// `A & B`.
    fn and(&mut self, evaluate: bool) -> Result<Value, Error> {
        let mut left = self.comparison(evaluate)?;
        while self.next_is("&") {
            let right = self.comparison(evaluate && !left.is_null())?;
            if left.is_null() || right.is_null() {
                left = Value::Integer(0);
            }
        }
        Ok(left)
    }

    /// `< <= = == != >= >`.
    fn comparison(&mut self, evaluate: bool) -> Result<Value, Error> {
        let mut left = self.sum(evaluate)?;
        loop {
            let operator = match self.args.get(self.position).map(String::as_str) {
                Some(op @ ("<" | "<=" | "=" | "==" | "!=" | ">=" | ">")) => op.to_string(),
                _ => return Ok(left),
            };
            self.position += 1;
            let right = self.sum(evaluate)?;
            if !evaluate {
                continue;
            }
            let (a, b) = (left.text(), right.text());
            let ordering = if looks_like_integer(&a) && looks_like_integer(&b) {
                match (a.parse::<i128>(), b.parse::<i128>()) {
                    (Ok(x), Ok(y)) => x.cmp(&y),
                    _ => compare_integer_text(&a, &b),
                }
            } else {
                a.as_bytes().cmp(b.as_bytes())
            };
            let truth = match operator.as_str() {
                "<" => ordering == Ordering::Less,
                "<=" => ordering != Ordering::Greater,
                "=" | "==" => ordering == Ordering::Equal,
                "!=" => ordering != Ordering::Equal,
                ">=" => ordering != Ordering::Less,
                _ => ordering == Ordering::Greater,
            };
            left = Value::Integer(i128::from(truth));
        }
    }

    fn arithmetic(&self, evaluate: bool, operator: &str, left: &Value, right: &Value) -> Result<Value, Error> {
        if !evaluate {
            return Ok(Value::Integer(0));
        }
        let (Some(a), Some(b)) = (left.integer()?, right.integer()?) else {
            return Err(Error::NonInteger);
        };
        let result = match operator {
            "+" => a.checked_add(b),
            "-" => a.checked_sub(b),
            "*" => a.checked_mul(b),
            _ if b == 0 => return Err(Error::DivisionByZero),
            "/" => a.checked_div(b),
            _ => a.checked_rem(b),
        };
        result.map(Value::Integer).ok_or(Error::Overflow)
    }

    /// `+ -`.
    fn sum(&mut self, evaluate: bool) -> Result<Value, Error> {
        let mut left = self.product(evaluate)?;
        loop {
            let operator = match self.args.get(self.position).map(String::as_str) {
                Some(op @ ("+" | "-")) => op.to_string(),
                _ => return Ok(left),
            };
            self.position += 1;
            let right = self.product(evaluate)?;
            left = self.arithmetic(evaluate, &operator, &left, &right)?;
        }
    }

    /// `* / %`.
    fn product(&mut self, evaluate: bool) -> Result<Value, Error> {
        let mut left = self.colon(evaluate)?;
        loop {
            let operator = match self.args.get(self.position).map(String::as_str) {
                Some(op @ ("*" | "/" | "%")) => op.to_string(),
                _ => return Ok(left),
            };
            self.position += 1;
            let right = self.colon(evaluate)?;
            left = self.arithmetic(evaluate, &operator, &left, &right)?;
        }
    }

    /// `STRING : REGEX`.
    fn colon(&mut self, evaluate: bool) -> Result<Value, Error> {
        let mut left = self.unary(evaluate)?;
        while self.next_is(":") {
            let right = self.unary(evaluate)?;
            if evaluate {
                left = regex_match(&left.text(), &right.text())?;
            }
        }
        Ok(left)
    }

    /// `+ TOKEN`, `length`, `match`, `index`, `substr`.
    fn unary(&mut self, evaluate: bool) -> Result<Value, Error> {
        if self.next_is("+") {
            self.require_more()?;
            let token = self.args.get(self.position).cloned().unwrap_or_default();
            self.position += 1;
            return Ok(Value::Text(token));
        }
        if self.next_is("length") {
            let value = self.unary(evaluate)?;
            return Ok(Value::Integer(char_count(&value.text()) as i128));
        }
        if self.next_is("match") {
            let string = self.unary(evaluate)?;
            let pattern = self.unary(evaluate)?;
            return if evaluate { regex_match(&string.text(), &pattern.text()) } else { Ok(Value::Integer(0)) };
        }
        if self.next_is("index") {
            let string = self.unary(evaluate)?.text();
            let chars = self.unary(evaluate)?.text();
            let position = string.chars().position(|c| chars.contains(c)).map_or(0, |p| p + 1);
            return Ok(Value::Integer(position as i128));
        }
        if self.next_is("substr") {
            let string = self.unary(evaluate)?.text();
            let start = self.unary(evaluate)?;
            let length = self.unary(evaluate)?;
            let (Ok(Some(start)), Ok(Some(length))) = (start.integer(), length.integer()) else {
                return Ok(Value::Text(String::new()));
            };
            let total = char_count(&string) as i128;
            if start <= 0 || length <= 0 || start > total {
                return Ok(Value::Text(String::new()));
            }
            let skip = usize::try_from(start - 1).unwrap_or(usize::MAX);
            let take = usize::try_from(length).unwrap_or(usize::MAX);
            return Ok(Value::Text(string.chars().skip(skip).take(take).collect()));
        }
        self.primary(evaluate)
    }

    /// `( EXPR )` or a token.
    fn primary(&mut self, evaluate: bool) -> Result<Value, Error> {
        self.require_more()?;
        if self.next_is("(") {
            let value = self.or(evaluate)?;
            if self.position >= self.args.len() {
                let previous = self.args.get(self.position.wrapping_sub(1)).map(String::as_str).unwrap_or("");
                return Err(Error::Syntax(format!("expecting ')' after {}", self.q(previous))));
            }
            if !self.next_is(")") {
                let found = self.args.get(self.position).map(String::as_str).unwrap_or("");
                return Err(Error::Syntax(format!("expecting ')' instead of {}", self.q(found))));
            }
            return Ok(value);
        }
        if self.next_is(")") {
            return Err(Error::Syntax("unexpected ')'".into()));
        }
        let token = self.args.get(self.position).cloned().unwrap_or_default();
        self.position += 1;
        Ok(Value::Text(token))
    }
}

/// Orders two integers too long for `i128` by their digits.
fn compare_integer_text(a: &str, b: &str) -> Ordering {
    let sign = |s: &str| if s.starts_with('-') { -1 } else { 1 };
    let digits = |s: &str| s.trim_start_matches('-').trim_start_matches('0').to_string();
    match (sign(a), sign(b)) {
        (1, -1) => Ordering::Greater,
        (-1, 1) => Ordering::Less,
        (s, _) => {
            let (x, y) = (digits(a), digits(b));
            let ordering = x.len().cmp(&y.len()).then_with(|| x.cmp(&y));
            if s < 0 {
                ordering.reverse()
            } else {
                ordering
            }
        }
    }
}

/// Characters in `text` (each invalid byte counting as one).
fn char_count(text: &str) -> usize {
    text.chars().count()
}

/// `STRING : REGEX`: the first group's text, or the matched length.
fn regex_match(string: &str, pattern: &str) -> Result<Value, Error> {
    let syntax = Syntax { anchored: true, ..Syntax::default() };
    let regex = Regex::new(pattern.as_bytes(), &syntax).map_err(|e| Error::Regex(e.to_string()))?;
    let has_group = regex.groups() > 0;
    let text = string.as_bytes();
    let captures = regex.captures_at(text, 0).map_err(|e| Error::Regex(e.to_string()))?;
    let matched = |group: usize| {
        let span = captures.as_ref().and_then(|spans| spans.get(group).copied().flatten());
        String::from_utf8_lossy(span.and_then(|(start, end)| text.get(start..end)).unwrap_or(&[])).into_owned()
    };
    match &captures {
        Some(_) if has_group => Ok(Value::Text(matched(1))),
        Some(_) => Ok(Value::Integer(matched(0).chars().count() as i128)),
        None if has_group => Ok(Value::Text(String::new())),
        None => Ok(Value::Integer(0)),
    }
}

/// Runs `expr EXPRESSION`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let mut args: &[String] = ctx.args.get(1..).unwrap_or(&[]);
        if args.first().is_some_and(|a| a == "--") {
            args = &args[1..];
        }
        if args.is_empty() {
            report_usage(ctx, "missing operand").await;
            return 2;
        }
        let mut parser = Parser { ctx, args, position: 0 };
        let result = parser.or(true).and_then(|value| match parser.args.get(parser.position) {
            Some(extra) => Err(Error::Syntax(format!("unexpected argument {}", parser.q(extra)))),
            None => Ok(value),
        });
        match result {
            Ok(value) => {
                let line = format!("{}\n", value.text());
                if let Err(error) = ctx.write_out(line.as_bytes()).await {
                    return ctx.write_failed_with(error, |error| format!("write error: {error}"), 3).await;
                }
                i32::from(value.is_null())
            }
            Err(error) => {
                let message = match error {
                    Error::Syntax(text) => format!("syntax error: {text}"),
                    Error::NonInteger => "non-integer argument".into(),
                    Error::DivisionByZero => "division by zero".into(),
                    Error::Regex(text) => text,
                    Error::Overflow => "result too large".into(),
                };
                ctx.report(&message).await;
                2
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use crate::commands::test_support::{new_fs, run_utility};

    #[test]
    fn evaluates() {
        let fs = new_fs();
        let expr = |args: &[&str]| {
            let out = run_utility(&fs, &[&["expr"], args].concat(), b"");
            (out.stdout, out.status)
        };
        assert_eq!(expr(&["1", "+", "2", "*", "3"]), ("7\n".into(), 0));
        assert_eq!(expr(&["abc", ":", "a\\(b\\)"]), ("b\n".into(), 0));
        assert_eq!(expr(&["abc", ":", "x"]), ("0\n".into(), 1));
        assert_eq!(expr(&["", "|", "0"]), ("0\n".into(), 1));
        assert_eq!(expr(&["substr", "hello", "2", "3"]), ("ell\n".into(), 0));
        assert_eq!(expr(&["1", "/", "0"]).1, 2);
        assert_eq!(expr(&["0", "&", "1", "/", "0"]), ("0\n".into(), 1));
        assert_eq!(expr(&["9223372036854775807", "+", "1"]), ("9223372036854775808\n".into(), 0));
    }
}
