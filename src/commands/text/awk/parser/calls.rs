//! Calls: built-in functions (names, argument counts), user functions,
//! and gawk's indirect calls `@name(args)`.

use super::{PResult, ParseError, Parser, Style};
use crate::commands::text::awk::ast::*;

impl<'a> Parser<'a> {
    /// `name(args)`: a user function call (checked once the program is read).
    pub(super) fn user_call(&mut self, name: &str) -> PResult<Expr> {
        let at = self.tok.start;
        self.advance()?;
        self.expect_op("(")?;
        self.skip_newlines()?;
        let args = if self.is_op(")") { Vec::new() } else { self.call_args()? };
        self.skip_newlines()?;
        self.expect_op(")")?;
        let index = self.function_index(name);
        self.calls.push((index, args.len(), at));
        Ok(Expr::Call(index, args))
    }

    /// `@name(args)`: an indirect call through the variable `name`.
    pub(super) fn indirect_call(&mut self, name: &str) -> PResult<Expr> {
        let at = self.tok.start;
        self.advance()?;
        let var = self.var(name);
        if !self.is_op("(") {
            return Err(ParseError::new("syntax error".into(), at + 1, Style::Caret));
        }
        self.advance()?;
        self.skip_newlines()?;
        let args = if self.is_op(")") { Vec::new() } else { self.call_args()? };
        self.skip_newlines()?;
        self.expect_op(")")?;
        for (i, arg) in args.iter().enumerate() {
            if matches!(arg, Expr::Regex(_)) {
                self.lexer.warnings.push((at, format!("regexp constant for parameter #{} yields boolean value", i + 1)));
            }
        }
        Ok(Expr::Indirect(var, args))
    }

    pub(super) fn builtin(&mut self, name: &str) -> PResult<Expr> {
        let at = self.tok.start;
        self.advance()?;
        let builtin = builtin_of(name);
        if !self.is_op("(") {
            if builtin == Builtin::Length {
                return Ok(Expr::Builtin(Builtin::Length, Vec::new()));
            }
            return self.error();
        }
        self.advance()?;
        self.skip_newlines()?;
        let mut args = Vec::new();
        if !self.is_op(")") {
            loop {
                match self.typed_regex()? {
                    Some(regex) => args.push(regex),
                    None => args.push(self.expr()?),
                }
                self.skip_newlines()?;
                if self.is_op(",") {
                    self.advance()?;
                    self.skip_newlines()?;
                } else {
                    break;
                }
            }
        }
        self.expect_op(")")?;
        let (min, max) = arity(builtin);
        if args.len() < min || args.len() > max {
            return Err(ParseError::new(format!("{name}: called with {} arguments", args.len()), at, Style::Error));
        }
        Ok(Expr::Builtin(builtin, args))
    }}

/// The built-in a name in [`BUILTINS`](crate::commands::text::awk::lexer::BUILTINS) stands for.
pub fn builtin_of(name: &str) -> Builtin {
    match name {
        "length" => Builtin::Length,
        "substr" => Builtin::Substr,
        "index" => Builtin::Index,
        "split" => Builtin::Split,
        "sub" => Builtin::Sub,
        "gsub" => Builtin::Gsub,
        "gensub" => Builtin::Gensub,
        "match" => Builtin::Match,
        "sprintf" => Builtin::Sprintf,
        "tolower" => Builtin::Tolower,
        "toupper" => Builtin::Toupper,
        "int" => Builtin::Int,
        "sqrt" => Builtin::Sqrt,
        "exp" => Builtin::Exp,
        "log" => Builtin::Log,
        "sin" => Builtin::Sin,
        "cos" => Builtin::Cos,
        "atan2" => Builtin::Atan2,
        "rand" => Builtin::Rand,
        "srand" => Builtin::Srand,
        "systime" => Builtin::Systime,
        "strftime" => Builtin::Strftime,
        "mktime" => Builtin::Mktime,
        "asort" => Builtin::Asort,
        "asorti" => Builtin::Asorti,
        "patsplit" => Builtin::Patsplit,
        "and" => Builtin::And,
        "or" => Builtin::Or,
        "xor" => Builtin::Xor,
        "lshift" => Builtin::Lshift,
        "rshift" => Builtin::Rshift,
        "compl" => Builtin::Compl,
        "strtonum" => Builtin::Strtonum,
        "typeof" => Builtin::Typeof,
        "isarray" => Builtin::Isarray,
        "close" => Builtin::Close,
        "fflush" => Builtin::Fflush,
        _ => Builtin::System,
    }
}

/// How many arguments a built-in takes (at least, at most).
pub fn arity(builtin: Builtin) -> (usize, usize) {
    use Builtin::*;
    match builtin {
        Length => (0, 1),
        Substr => (2, 3),
        Index | Atan2 | Lshift | Rshift => (2, 2),
        Split | Patsplit => (2, 4),
        Sub | Gsub => (2, 3),
        Gensub => (3, 4),
        Match => (2, 3),
        Sprintf => (1, usize::MAX),
        Tolower | Toupper | Int | Sqrt | Exp | Log | Sin | Cos | Compl | Strtonum | Typeof | Isarray | System => (1, 1),
        Rand | Systime => (0, 0),
        Srand => (0, 1),
        Strftime => (0, 3),
        Mktime => (1, 2),
        Asort | Asorti => (1, 3),
        And | Or | Xor => (2, usize::MAX),
        Close => (1, 2),
        Fflush => (0, 1),
    }
}
