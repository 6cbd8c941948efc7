//! The printer's expression half: parameter expansions, arithmetic (fully
//! parenthesized, so precedence never changes) and `[[ ]]` expressions.

use super::ast::{ArithExpr, CaseMode, CondExpr, ParamExpansion, ParamOp, Parameter, ReplaceMode, Subscript, UnaryArithOp};
use super::printer::{print_word, Printer};

impl Printer {
    /// Writes `$x` or `${...}`.
    pub(super) fn param(&mut self, param: &ParamExpansion, _in_dquote: bool) {
        let name = match &param.param {
            Parameter::Named(name) => name.to_string(),
            Parameter::Positional(n) => n.to_string(),
            Parameter::Special(c) => c.to_string(),
        };
        if !param.braced {
            self.out.push('$');
            self.out.push_str(&name);
            return;
        }
        self.out.push_str("${");
        if param.indirect || matches!(param.op, Some(ParamOp::PrefixNames { .. })) {
            self.out.push('!');
        }
        if param.length {
            self.out.push('#');
        }
        self.out.push_str(&name);
        match &param.index {
            Some(Subscript::At) => self.out.push_str("[@]"),
            Some(Subscript::Star) => self.out.push_str("[*]"),
            Some(Subscript::Expr(word)) => {
                self.out.push('[');
                self.word(word);
                self.out.push(']');
            }
            None => {}
        }
        if let Some(op) = &param.op {
            self.param_op(op);
        }
        self.out.push('}');
    }

    fn param_op(&mut self, op: &ParamOp) {
        match op {
            ParamOp::Default { colon, word }
            | ParamOp::Assign { colon, word }
            | ParamOp::Error { colon, word }
            | ParamOp::Alternative { colon, word } => {
                if *colon {
                    self.out.push(':');
                }
                self.out.push(match op {
                    ParamOp::Default { .. } => '-',
                    ParamOp::Assign { .. } => '=',
                    ParamOp::Error { .. } => '?',
                    _ => '+',
                });
                self.word(word);
            }
            ParamOp::RemovePrefix { longest, pattern } => {
                self.out.push_str(if *longest { "##" } else { "#" });
                self.word(pattern);
            }
            ParamOp::RemoveSuffix { longest, pattern } => {
                self.out.push_str(if *longest { "%%" } else { "%" });
                self.word(pattern);
            }
            ParamOp::Replace { mode, pattern, replacement } => {
                self.out.push_str(match mode {
                    ReplaceMode::First => "/",
                    ReplaceMode::All => "//",
                    ReplaceMode::Prefix => "/#",
                    ReplaceMode::Suffix => "/%",
                });
                self.word(pattern);
                if let Some(replacement) = replacement {
                    self.out.push('/');
                    self.word(replacement);
                }
            }
            ParamOp::Substring { offset, length } => {
                self.out.push(':');
                self.word(offset);
                if let Some(length) = length {
                    self.out.push(':');
                    self.word(length);
                }
            }
            ParamOp::Case { mode, all, pattern } => {
                let c = match mode {
                    CaseMode::Upper => '^',
                    CaseMode::Lower => ',',
                    CaseMode::Toggle => '~',
                };
                self.out.push(c);
                if *all {
                    self.out.push(c);
                }
                if let Some(pattern) = pattern {
                    self.word(pattern);
                }
            }
            ParamOp::Transform(c) => {
                self.out.push('@');
                self.out.push(*c);
            }
            ParamOp::PrefixNames { at } => self.out.push(if *at { '@' } else { '*' }),
        }
    }
}

/// The text of an arithmetic expression.
pub(super) fn arith_text(expr: &ArithExpr) -> String {
    let mut out = String::new();
    arith(&mut out, expr);
    out
}

fn arith(out: &mut String, expr: &ArithExpr) {
    match expr {
        ArithExpr::Number(text) | ArithExpr::Variable(text) | ArithExpr::Invalid(text) => out.push_str(text),
        ArithExpr::Source(_, inner) => arith(out, inner),
        ArithExpr::Element(name, index) => {
            out.push_str(name);
            out.push('[');
            arith(out, index);
            out.push(']');
        }
        ArithExpr::Expansion(word) => out.push_str(&print_word(word)),
        ArithExpr::Unary(op, operand) => {
            out.push(match op {
                UnaryArithOp::Negate => '-',
                UnaryArithOp::Plus => '+',
                UnaryArithOp::Not => '!',
                UnaryArithOp::BitNot => '~',
            });
            grouped(out, operand);
        }
        ArithExpr::IncDec { increment, prefix, target } => {
            let op = if *increment { "++" } else { "--" };
            if *prefix {
                out.push_str(op);
            }
            arith(out, target);
            if !*prefix {
                out.push_str(op);
            }
        }
        ArithExpr::Binary(op, left, right) => {
            grouped(out, left);
            out.push_str(op.symbol());
            grouped(out, right);
        }
        ArithExpr::Assign(op, target, value) => {
            arith(out, target);
            if let Some(op) = op {
                out.push_str(op.symbol());
            }
            out.push('=');
            grouped(out, value);
        }
        ArithExpr::Conditional(condition, then, otherwise) => {
            grouped(out, condition);
            out.push('?');
            grouped(out, then);
            out.push(':');
            grouped(out, otherwise);
        }
        ArithExpr::Comma(left, right) => {
            grouped(out, left);
            out.push(',');
            grouped(out, right);
        }
    }
}

/// Writes an operand, in parentheses unless it is atomic.
fn grouped(out: &mut String, expr: &ArithExpr) {
    match expr {
        ArithExpr::Number(_) | ArithExpr::Variable(_) | ArithExpr::Element(..) | ArithExpr::Expansion(_) => arith(out, expr),
        _ => {
            out.push('(');
            arith(out, expr);
            out.push(')');
        }
    }
}

/// The text of a `[[ ]]` expression.
pub(super) fn cond_text(expr: &CondExpr) -> String {
    match expr {
        CondExpr::Unary(op, word) => format!("{op} {}", print_word(word)),
        CondExpr::Binary(op, left, right) => {
            format!("{} {op} {}", print_word(left), print_word(right))
        }
        CondExpr::Regex(left, right) => format!("{} =~ {}", print_word(left), print_word(right)),
        CondExpr::Word(word) => print_word(word),
        CondExpr::Not(inner) => format!("! {}", cond_text(inner)),
        CondExpr::And(left, right) => format!("{} && {}", cond_text(left), cond_text(right)),
        CondExpr::Or(left, right) => format!("{} || {}", cond_text(left), cond_text(right)),
        CondExpr::Group(inner) => format!("( {} )", cond_text(inner)),
    }
}
