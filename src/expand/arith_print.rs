//! Arithmetic trees back to text, for error messages and re-reading.

use crate::syntax::ast::{ArithExpr, UnaryArithOp};

/// The prefix operator's source form.
pub fn unary_symbol(op: UnaryArithOp) -> &'static str {
    match op {
        UnaryArithOp::Negate => "-",
        UnaryArithOp::Plus => "+",
        UnaryArithOp::Not => "!",
        UnaryArithOp::BitNot => "~",
    }
}

/// Prints an expression compactly (`1/0`, `x+=2`), as bash echoes simple
/// expressions in its error messages.
pub fn print(expr: &ArithExpr) -> String {
    match expr {
        ArithExpr::Number(n) => n.clone(),
        ArithExpr::Variable(v) => v.clone(),
        ArithExpr::Element(name, index) => format!("{name}[{}]", print(index)),
        ArithExpr::Expansion(_) => "$".to_string(),
        ArithExpr::Invalid(text) => text.clone(),
        ArithExpr::Unary(op, e) => format!("{}{}", unary_symbol(*op), print(e)),
        ArithExpr::IncDec { increment, prefix, target } => {
            let op = if *increment { "++" } else { "--" };
            if *prefix {
                format!("{op}{}", print(target))
            } else {
                format!("{}{op}", print(target))
            }
        }
        ArithExpr::Binary(op, a, b) => format!("{}{}{}", print(a), op.symbol(), print(b)),
        ArithExpr::Assign(op, a, b) => {
            let symbol = op.map(|o| format!("{}=", o.symbol())).unwrap_or_else(|| "=".to_string());
            format!("{}{symbol}{}", print(a), print(b))
        }
        ArithExpr::Conditional(a, b, c) => format!("{}?{}:{}", print(a), print(b), print(c)),
        ArithExpr::Comma(a, b) => format!("{},{}", print(a), print(b)),
    }
}
