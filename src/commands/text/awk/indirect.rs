//! gawk's indirect function calls `@name(args)`: the variable's value
//! names a user function or a built-in, checked when the call runs with
//! gawk's messages.

use super::ast::{Builtin, Var};
use super::interp::{EResult, Interp, Stop};
use super::lexer::BUILTINS;
use super::parser::{arity, builtin_of};
use crate::utility::Invocation;

/// What an indirect call runs.
pub enum Target {
    /// A user function, by index.
    User(usize),
    /// A built-in function.
    Builtin(Builtin),
}

impl Interp<'_> {
    /// The function the variable `var` names, for a call with `count`
    /// arguments.
    pub fn indirect_target(&mut self, ctx: &Invocation<'_>, var: Var, count: usize) -> EResult<Target> {
        let value = self.get_var(var)?;
        let name = self.to_str(&value);
        let prog = self.prog;
        if let Some(index) = prog.functions.iter().position(|f| f.defined && f.name.as_bytes() == &*name) {
            if let Some(function) = prog.functions.get(index) {
                if count > function.params {
                    let message = format!("function `{}' called with more arguments than declared", function.name);
                    self.warnings.push((self.offset, message));
                }
            }
            let _ = ctx;
            return Ok(Target::User(index));
        }
        let text = String::from_utf8_lossy(&name).into_owned();
        if !BUILTINS.contains(&text.as_str()) {
            return Err(Stop::Fatal(format!("`{text}' is not a function, so it cannot be called indirectly")));
        }
        let builtin = builtin_of(&text);
        let (min, max) = match builtin {
            Builtin::Length => (1, 1),
            other => arity(other),
        };
        match builtin {
            Builtin::Sub | Builtin::Gsub if count == 3 => {
                return Err(Stop::Fatal(format!("{text}: can be called indirectly only with two arguments")));
            }
            Builtin::Gensub if !(3..=4).contains(&count) => {
                return Err(Stop::Fatal("indirect call to gensub requires three or four arguments".into()));
            }
            _ => {}
        }
        if count < min || count > max {
            return Err(Stop::Fatal(format!("{text}: called with {count} arguments")));
        }
        Ok(Target::Builtin(builtin))
    }
}
