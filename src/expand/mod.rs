//! Word expansion, in bash's order: brace expansion, tilde expansion,
//! parameter and variable expansion, arithmetic expansion, command
//! substitution, field splitting, pathname expansion and quote removal.
//!
//! The expander reaches the interpreter only through [`ExpandHost`]: variable
//! access, command substitution, directory reading and the shell options
//! that matter here. It can be tested with a small fake host.

pub mod arith;
mod arith_eval;
mod arith_print;
mod brace;
mod error;
pub mod escapes;
mod fields;
pub mod glob;
mod param;
pub mod pattern;
mod word;

pub use error::ExpandError;
pub use param::{declare_key, declare_quote, declared_element_key, element_key, quote_for_reuse, subscript_key, to_lower, to_upper};
pub use word::{eval_arith, expand_assignment_value, expand_heredoc, expand_pattern, expand_regex, expand_string, expand_words, HostArith};

use crate::syntax::ast::List;
use async_trait::async_trait;

/// The shell options that change expansion.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ExpandOptions {
    /// `set -u`: unset variables are errors.
    pub nounset: bool,
    /// `set -f`: no pathname expansion.
    pub noglob: bool,
    /// `shopt -s nullglob`: a pattern matching nothing expands to nothing.
    pub nullglob: bool,
    /// `shopt -s failglob`: a pattern matching nothing is an error.
    pub failglob: bool,
    /// `shopt -s dotglob`: patterns match hidden files.
    pub dotglob: bool,
    /// `shopt -s nocaseglob`.
    pub nocaseglob: bool,
    /// `shopt -s extglob`.
    pub extglob: bool,
    /// `shopt -s globstar`: `**` matches directories recursively.
    pub globstar: bool,
    /// `shopt -s globskipdots`: a pattern never matches `.` and `..`.
    pub globskipdots: bool,
    /// `shopt -s nocasematch`: case-insensitive `case` and `[[ == ]]`.
    pub nocasematch: bool,
    /// `set -e`: some warnings (a bad array subscript) become errors.
    pub errexit: bool,
}

/// The shape of a variable, as the expander needs to know it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VarShape {
    /// Not set.
    Unset,
    /// A string.
    Scalar,
    /// An indexed array.
    Indexed,
    /// An associative array.
    Assoc,
}

/// How an array element is addressed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ElementKey {
    /// An indexed array's index (negative counts from the end).
    Index(i64),
    /// An associative array's key.
    Key(String),
}

/// The field separators when `IFS` is unset.
pub const DEFAULT_IFS: &str = " \t\n";

/// What the expander asks of the shell.
#[async_trait(?Send)]
pub trait ExpandHost {
    /// The expansion options in force.
    fn options(&self) -> ExpandOptions;
    /// Follows namerefs from `name` to the variable it designates.
    fn resolve_name<'a>(&self, name: &'a str) -> std::borrow::Cow<'a, str>;
    /// The shape of variable `name`.
    fn shape(&self, name: &str) -> VarShape;
    /// Whether `name` is an array holding a value (`a=()` does; `declare -a
    /// a` does not), which `set -u` arithmetic reads as 0.
    fn array_has_value(&self, name: &str) -> bool {
        let _ = name;
        false
    }
    /// `$name`: the scalar value (element 0 of an array).
    fn scalar(&self, name: &str) -> Option<String>;
    /// `$IFS`, or its default (space, tab, newline) when unset.
    fn ifs(&self) -> std::borrow::Cow<'static, str> {
        match self.scalar("IFS") {
            Some(ifs) if ifs != DEFAULT_IFS => std::borrow::Cow::Owned(ifs),
            _ => std::borrow::Cow::Borrowed(DEFAULT_IFS),
        }
    }
    /// `${name[key]}`.
    fn element(&self, name: &str, key: &ElementKey) -> Option<String>;
    /// `${name[@]}`: the values in index order.
    fn values(&self, name: &str) -> Vec<String>;
    /// `${!name[@]}`: the keys or indices.
    fn keys(&self, name: &str) -> Vec<String>;
    /// `$1`..: positional parameter `n` (1-based); `$0` for `n == 0`.
    fn positional(&self, n: usize) -> Option<String>;
    /// `$@`: all positional parameters.
    fn positionals(&self) -> Vec<String>;
    /// `$? $$ $! $- $#`.
    fn special(&self, c: char) -> Option<String>;
    /// Names of set variables starting with `prefix`, sorted (`${!prefix*}`).
    fn names_with_prefix(&self, prefix: &str) -> Vec<String>;
    /// The attribute letters of `name` as `${name@a}` shows them.
    fn attribute_letters(&self, name: &str) -> String;
    /// Assigns a scalar (`${x:=v}`, arithmetic assignment).
    fn assign(&mut self, name: &str, key: Option<ElementKey>, value: String) -> Result<(), ExpandError>;
    /// The home directory of `user` (empty: the current user), for `~user`.
    fn home_dir(&self, user: &str) -> Option<String>;
    /// The working directory.
    fn cwd(&self) -> String;
    /// Checks a string produced by expansion against the length limit.
    fn check_length(&self, length: usize) -> Result<(), ExpandError>;
    /// Runs `$(body)` in a subshell and returns its standard output.
    async fn command_substitution(&mut self, body: &List) -> Result<Vec<u8>, ExpandError>;
    /// `` `text` `` whose body did not parse: run as bash runs it, line by
    /// line, its syntax error reported then. Returns what it wrote.
    async fn unparsed_substitution(&mut self, text: &str) -> Result<Vec<u8>, ExpandError>;
    /// Starts `<(body)` or `>(body)` and returns the `/dev/fd/N` path.
    async fn process_substitution(&mut self, body: &List, input: bool) -> Result<String, ExpandError>;
    /// Lists a directory: names and whether each is a directory (following
    /// symlinks). `None` when it cannot be read.
    async fn read_dir(&mut self, path: &str) -> Option<Vec<(String, bool)>>;
    /// True when `path` exists (following symlinks).
    async fn path_exists(&mut self, path: &str) -> bool;
    /// Reports a non-fatal problem (`a: bad array subscript`) on stderr.
    async fn warn(&mut self, message: &str);
}
