//! Arithmetic trees back to text, for error messages and re-reading.

use crate::syntax::ast::{ArithExpr, BinaryArithOp, UnaryArithOp};

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
        ArithExpr::Source(_, inner) => print(inner),
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

/// How tightly an expression holds together when printed without
/// parentheses: 0 for `a, b`, 1 for assignments, 2 for `?:`, 3..=13 for
/// binary operators by precedence, 20 for operands and prefix operators.
pub fn strength(expr: &ArithExpr) -> u8 {
    match expr {
        ArithExpr::Comma(..) => 0,
        ArithExpr::Assign(..) => 1,
        ArithExpr::Conditional(..) => 2,
        ArithExpr::Binary(op, ..) => op.precedence() + 2,
        ArithExpr::Source(_, inner) => strength(inner),
        _ => 20,
    }
}

/// The weakest strength each operand of `expr` may have to be printed
/// without parentheses, in the order the operands are printed.
pub fn operand_strengths(expr: &ArithExpr) -> [u8; 3] {
    match expr {
        ArithExpr::Source(_, inner) => operand_strengths(inner),
        ArithExpr::Binary(op, ..) if *op == BinaryArithOp::Power => [strength(expr) + 1, strength(expr), 0],
        ArithExpr::Binary(..) => [strength(expr), strength(expr) + 1, 0],
        ArithExpr::Conditional(..) => [3, 0, 1],
        ArithExpr::Assign(..) => [20, 1, 0],
        ArithExpr::Comma(..) => [0, 1, 0],
        ArithExpr::Unary(..) => [20, 0, 0],
        _ => [0, 0, 0],
    }
}

/// `text`, the printed form of `operand`, in parentheses when it binds
/// more loosely than `minimum`.
pub fn group(text: String, operand: &ArithExpr, minimum: u8) -> String {
    if strength(operand) < minimum {
        format!("({text})")
    } else {
        text
    }
}
