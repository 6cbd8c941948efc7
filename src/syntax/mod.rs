//! The bash parser: source text to the syntax tree of [`ast`], with bash's
//! own syntax error messages, parse limits, and a printer back to source.
//!
//! Bash reads and runs a script one top-level line at a time: `shopt -s
//! extglob` or `alias` on one line affect how the next is parsed, and a
//! syntax error on line 5 is reported after lines 1-4 ran. [`Parser`] offers
//! exactly that; [`parse`] parses everything at once (`bash -n`).

mod alias;
mod arith;
pub mod ast;
mod brace;
mod bracket;
mod command;
mod command_line;
mod compound;
mod cond;
mod error;
mod heredoc;
mod lexer;
mod lines;
mod param;
mod parser;
pub mod printer;
pub mod printer_bash;
mod printer_expr;
mod redirect;
mod seq;
mod subst;
mod text;
pub mod walk;
mod word;

pub use error::{ConditionalError, ParseError, ParseErrorKind};
pub use lines::{line_number, LineIndex};
pub use parser::{completeness, parse, Completeness, ParseLimits, ParseOptions, Parser};
pub use printer::print;
