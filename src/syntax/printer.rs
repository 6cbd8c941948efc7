//! placeholder
use super::ast::List; /// Prints. 
pub fn print(_l: &List) -> String { String::new() }
