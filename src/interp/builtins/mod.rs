//! Shell builtins: one table maps each name to its implementation; the
//! table is the list `type`, `enable` and `compgen -b` consult.

mod bash;
mod control;
mod declare;
mod dirs;
mod echo;
mod eval;
mod getopts;
mod hash;
mod help;
mod jobs;
mod misc;
mod printf;
mod read;
mod scan;
mod set;
mod test;
mod trap;
mod types;
mod umask;

use super::{Flow, Outcome, Shell};
use crate::expand::ElementKey;
use crate::host::LocalFuture;
use crate::io::IoError;

/// An argument to a builtin: a word, or an assignment given to a
/// declaration builtin (`declare -a x=(1 2)`).
#[derive(Debug, Clone)]
pub enum Arg {
    /// An expanded word.
    Word(String),
    /// An expanded assignment.
    Assign(DeclAssignment),
}

impl Arg {
    /// The argument as text (`name=value` for assignments).
    pub fn text(&self) -> String {
        self.as_text().into_owned()
    }

    /// [`Arg::text`], borrowed when the argument is a plain word.
    pub fn as_text(&self) -> std::borrow::Cow<'_, str> {
        match self {
            Arg::Word(word) => std::borrow::Cow::Borrowed(word),
            Arg::Assign(decl) => std::borrow::Cow::Owned(decl.text()),
        }
    }

    /// [`Arg::text`], consuming the argument.
    pub fn into_text(self) -> String {
        match self {
            Arg::Word(word) => word,
            Arg::Assign(decl) => decl.text(),
        }
    }
}

/// An assignment after expansion.
#[derive(Debug, Clone)]
pub struct DeclAssignment {
    /// The variable name.
    pub name: String,
    /// The evaluated `[subscript]`, if any.
    pub index: Option<ElementKey>,
    /// The subscript as written (`n` in `a[n]=v`), which errors name.
    pub written_index: Option<String>,
    /// `+=`.
    pub append: bool,
    /// The value.
    pub value: DeclValue,
}

/// The value of an expanded assignment.
#[derive(Debug, Clone)]
pub enum DeclValue {
    /// `x=value`.
    Scalar(String),
    /// `x=(a [k]=v)`: elements with their optional keys and `+=` flags.
    Array(Vec<(Option<String>, String, bool)>),
}

impl DeclAssignment {
    /// The assignment as `declare` would see it in text form.
    pub fn text(&self) -> String {
        let op = if self.append { "+=" } else { "=" };
        match &self.value {
            DeclValue::Scalar(value) => format!("{}{op}{value}", self.name),
            DeclValue::Array(items) => {
                let inner: Vec<String> = items
                    .iter()
                    .map(|(k, v, _)| match k {
                        Some(k) => format!("[{k}]={v}"),
                        None => v.clone(),
                    })
                    .collect();
                format!("{}{op}({})", self.name, inner.join(" "))
            }
        }
    }
}

/// The signature of a builtin.
pub type BuiltinFn = for<'a> fn(&'a mut Shell, Vec<Arg>) -> LocalFuture<'a, Outcome>;

/// Every builtin, sorted by name.
static BUILTINS: &[(&str, BuiltinFn)] = &[
    (".", eval::source),
    (":", control::colon),
    ("[", test::bracket),
    ("alias", misc::alias),
    ("bash", bash::bash),
    ("bg", jobs::bg),
    ("break", control::break_),
    ("builtin", types::builtin),
    ("caller", misc::caller),
    ("cd", dirs::cd),
    ("command", types::command),
    ("compgen", misc::compgen),
    ("complete", misc::complete),
    ("continue", control::continue_),
    ("declare", declare::declare),
    ("dirs", dirs::dirs),
    ("disown", jobs::disown),
    ("echo", echo::echo),
    ("enable", types::enable),
    ("eval", eval::eval),
    ("exec", eval::exec),
    ("exit", control::exit),
    ("export", declare::export),
    ("false", control::false_),
    ("fg", jobs::fg),
    ("getopts", getopts::getopts),
    ("hash", hash::hash),
    ("help", help::help),
    ("history", misc::history),
    ("jobs", jobs::jobs),
    ("kill", jobs::kill),
    ("let", misc::let_),
    ("local", declare::local),
    ("logout", control::logout),
    ("mapfile", read::mapfile),
    ("popd", dirs::popd),
    ("printf", printf::printf),
    ("pushd", dirs::pushd),
    ("pwd", dirs::pwd),
    ("read", read::read),
    ("readarray", read::mapfile),
    ("readonly", declare::readonly),
    ("return", control::return_),
    ("set", set::set),
    ("sh", bash::bash),
    ("shift", control::shift),
    ("shopt", set::shopt),
    ("source", eval::source),
    ("suspend", misc::suspend),
    ("test", test::test),
    ("times", misc::times),
    ("trap", trap::trap),
    ("true", control::true_),
    ("type", types::type_),
    ("typeset", declare::declare),
    ("ulimit", umask::ulimit),
    ("umask", umask::umask),
    ("unalias", misc::unalias),
    ("unset", declare::unset),
    ("wait", jobs::wait),
];

/// The builtin called `name`: for builtins that answer `--help` as bash's
/// do, a wrapper that does so before their own parsing.
pub fn find(name: &str) -> Option<BuiltinFn> {
    let builtin = find_plain(name)?;
    Some(if help::answers_help_option(name) { with_help_option } else { builtin })
}

/// The builtin called `name`, as the table holds it.
fn find_plain(name: &str) -> Option<BuiltinFn> {
    BUILTINS.binary_search_by(|(n, _)| (*n).cmp(name)).ok().map(|i| BUILTINS[i].1)
}

/// Runs the builtin named by `args[0]`, first answering `NAME --help`.
fn with_help_option(shell: &mut Shell, args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        if let Some(outcome) = help::help_option(shell, &args).await {
            return outcome;
        }
        let name = args.first().map(Arg::text).unwrap_or_default();
        match find_plain(&name) {
            Some(builtin) => builtin(shell, args).await,
            None => Ok(127),
        }
    })
}

/// All builtin names, sorted.
pub fn names() -> impl Iterator<Item = &'static str> {
    BUILTINS.iter().map(|(n, _)| *n)
}

/// POSIX special builtins: prefix assignments before them persist.
pub fn is_special(name: &str) -> bool {
    matches!(
        name,
        ":" | "."
            | "break"
            | "continue"
            | "eval"
            | "exec"
            | "exit"
            | "export"
            | "readonly"
            | "return"
            | "set"
            | "shift"
            | "source"
            | "times"
            | "trap"
            | "unset"
    )
}

/// Converts builtin arguments to plain words.
pub fn words(args: &[Arg]) -> Vec<String> {
    args.iter().map(Arg::text).collect()
}

impl Shell {
    /// Writes builtin output to stdout; a closed pipe ends the (sub)shell
    /// with 141 as SIGPIPE would.
    pub(super) async fn out(&mut self, data: &[u8]) -> Result<(), Flow> {
        self.write_fd(1, data).await
    }

    /// Writes to an fd with the same rules as [`Shell::out`].
    /// A write to a closed or failing descriptor is remembered for
    /// [`Shell::run_builtin`] to report.
    pub(super) async fn write_fd(&mut self, fd: usize, data: &[u8]) -> Result<(), Flow> {
        let result = match self.fds.get(fd) {
            Some(stream) => stream.write(data).await,
            None => Err(IoError::BadDescriptor),
        };
        match result {
            Ok(()) => Ok(()),
            Err(IoError::BrokenPipe) => Err(Flow::Exit(141)),
            Err(IoError::OutputLimit) => {
                Err(self.limit_exceeded(format!("output limit ({} bytes) exceeded", self.limits.max_output_bytes)).await)
            }
            Err(error) => {
                self.write_error.get_or_insert_with(|| error.to_string());
                Ok(())
            }
        }
    }

    /// Runs a builtin; one whose output could not be written reports
    /// `NAME: write error: REASON` and returns 1, as bash's builtins do.
    pub(super) async fn run_builtin(&mut self, builtin: BuiltinFn, args: Vec<Arg>) -> Outcome {
        let name = args.first().map(Arg::text).unwrap_or_default();
        let outer = self.write_error.take();
        let result = builtin(self, args).await;
        let failed = std::mem::replace(&mut self.write_error, outer);
        match (result, failed) {
            (Ok(_), Some(reason)) => {
                self.builtin_error(&name, &format!("write error: {reason}")).await;
                Ok(1)
            }
            (result, _) => result,
        }
    }

    /// Reports `bash: line N: NAME: message` for a builtin.
    pub(super) async fn builtin_error(&self, name: &str, message: &str) {
        self.report_error(&format!("{name}: {message}")).await;
    }

    /// Performs an expanded assignment (as a bare assignment or via `declare`).
    pub(super) fn assign_declaration(&mut self, decl: &DeclAssignment) -> Result<(), String> {
        // Errors about the element name its subscript as written: `a[n]`.
        let element = |key: &ElementKey| match (&decl.written_index, key) {
            (Some(written), _) => format!("{}[{written}]", decl.name),
            (None, ElementKey::Index(i)) => format!("{}[{i}]", decl.name),
            (None, ElementKey::Key(k)) => format!("{}[{k}]", decl.name),
        };
        match (&decl.value, &decl.index) {
            (DeclValue::Scalar(value), None) => self.assign_scalar(&decl.name, value.clone(), decl.append),
            (DeclValue::Scalar(value), Some(key)) => {
                self.assign_element(&decl.name, key.clone(), value.clone(), decl.append).map_err(|message| {
                    match message.strip_suffix("]: bad array subscript").and_then(|m| m.strip_prefix(&format!("{}[", decl.name))) {
                        Some(_) => format!("{}: bad array subscript", element(key)),
                        None => message,
                    }
                })
            }
            (DeclValue::Array(_), Some(key)) => Err(format!("{}: cannot assign list to array member", element(key))),
            (DeclValue::Array(items), None) => self.assign_array(&decl.name, items, decl.append, false),
        }
    }
}
