//! The parsed form of an awk program: rules, functions, statements and
//! expressions, with variables already resolved to global or local slots.

/// A whole program.
#[derive(Debug, Default)]
pub struct Program {
    /// `BEGIN` actions in source order.
    pub begin: Vec<Block>,
    /// `END` actions.
    pub end: Vec<Block>,
    /// `BEGINFILE` actions.
    pub begin_file: Vec<Block>,
    /// `ENDFILE` actions.
    pub end_file: Vec<Block>,
    /// The pattern-action rules run for each record.
    pub rules: Vec<Rule>,
    /// User functions, indexed by [`Expr::Call`].
    pub functions: Vec<Function>,
    /// Names of the global variables, by slot.
    pub globals: Vec<String>,
    /// How many range patterns there are (each keeps its own state).
    pub ranges: usize,
    /// Where each regex literal first appears in the source.
    pub regex_offsets: Vec<usize>,
    /// Which regex literals are typed (`@/re/`).
    pub typed_regexes: Vec<usize>,
}

/// A list of statements, each with the source offset it starts at (for
/// the line runtime errors name).
pub type Block = Vec<(usize, Stmt)>;

/// A rule's pattern.
#[derive(Debug)]
pub enum Pattern {
    /// No pattern: every record.
    All,
    /// An expression.
    Expr(Expr),
    /// `start, end` with the index of its state.
    Range(Expr, Expr, usize),
}

/// A pattern with its action (`None`: print the record).
#[derive(Debug)]
pub struct Rule {
    /// When the rule runs.
    pub pattern: Pattern,
    /// What it does.
    pub action: Option<Block>,
    /// Where the rule starts in the source.
    pub offset: usize,
}

/// A user function.
#[derive(Debug)]
pub struct Function {
    /// Its name.
    pub name: String,
    /// Number of parameters (locals included).
    pub params: usize,
    /// Parameter names.
    pub param_names: Vec<String>,
    /// Its body.
    pub body: Block,
    /// Whether it was defined (not only called).
    pub defined: bool,
}

/// Where `print`/`printf`/`getline` go or come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Redirect {
    /// `> file`.
    File,
    /// `>> file`.
    Append,
    /// `| command`.
    Pipe,
}

/// A statement.
#[derive(Debug)]
pub enum Stmt {
    /// An expression for its effect.
    Expr(Expr),
    /// `print args [> dest]`.
    Print(Vec<Expr>, Option<(Redirect, Expr)>),
    /// `printf fmt, args [> dest]`.
    Printf(Vec<Expr>, Option<(Redirect, Expr)>),
    /// `if (c) a else b`.
    If(Expr, Box<Stmt>, Option<Box<Stmt>>),
    /// `while (c) body`.
    While(Expr, Box<Stmt>),
    /// `do body while (c)`.
    Do(Box<Stmt>, Expr),
    /// `for (init; cond; step) body`.
    For(Option<Box<Stmt>>, Option<Expr>, Option<Box<Stmt>>, Box<Stmt>),
    /// `for (var in array) body`.
    ForIn(LValue, Var, Box<Stmt>),
    /// `{ ... }`.
    Block(Block),
    /// `next`.
    Next,
    /// `nextfile`.
    NextFile,
    /// `exit [status]`.
    Exit(Option<Expr>),
    /// `return [value]`.
    Return(Option<Expr>),
    /// `break`.
    Break,
    /// `continue`.
    Continue,
    /// `delete a[i]` or `delete a`.
    Delete(Var, Option<Vec<Expr>>),
    /// An empty statement.
    Nop,
    /// A statement that does no I/O, run on the synchronous path.
    Sync(Box<Stmt>),
    /// gawk's `switch`.
    Switch(Box<Switch>),
}

/// `switch (subject) { case v: ... default: ... }`: one body, the labels
/// pointing into it (control falls through to the next label).
#[derive(Debug)]
pub struct Switch {
    /// The value compared.
    pub subject: Expr,
    /// The `case` labels in source order, with the body index they start at.
    pub cases: Vec<(CaseValue, usize)>,
    /// Where `default:` starts, if present.
    pub default: Option<usize>,
    /// All the statements of all the cases.
    pub body: Block,
}

/// A `case` constant.
#[derive(Debug)]
pub enum CaseValue {
    /// A number (compared as `==` does).
    Num(f64),
    /// A string (compared as `==` does).
    Str(super::value::Str),
    /// `/re/` or `@/re/`: matched against the subject.
    Regex(usize),
}

/// A variable reference: a global or a function local, by slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Var {
    /// A global slot.
    Global(usize),
    /// A local (parameter) slot of the running function.
    Local(usize),
}

/// Something assignable.
#[derive(Debug)]
pub enum LValue {
    /// A scalar variable.
    Var(Var),
    /// `a[i, j]`.
    Index(Var, Vec<Expr>),
    /// `$expr`.
    Field(Box<Expr>),
}

/// Binary operators evaluated on two values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Mod,
    /// `^`
    Pow,
    /// concatenation
    Concat,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `==`
    Eq,
    /// `!=`
    Ne,
}

/// Built-in functions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Builtin {
    Length,
    Substr,
    Index,
    Split,
    Sub,
    Gsub,
    Gensub,
    Match,
    Sprintf,
    Tolower,
    Toupper,
    Int,
    Sqrt,
    Exp,
    Log,
    Sin,
    Cos,
    Atan2,
    Rand,
    Srand,
    Systime,
    Strftime,
    Mktime,
    Asort,
    Asorti,
    Patsplit,
    And,
    Or,
    Xor,
    Lshift,
    Rshift,
    Compl,
    Strtonum,
    Typeof,
    Isarray,
    Close,
    Fflush,
    System,
}

/// The forms of `getline`.
#[derive(Debug)]
pub enum GetlineSource {
    /// Plain `getline [var]`: the main input.
    Main,
    /// `getline [var] < file`.
    File(Box<Expr>),
    /// `cmd | getline [var]`.
    Command(Box<Expr>),
}

/// An expression.
#[derive(Debug)]
pub enum Expr {
    /// A number constant.
    Num(f64),
    /// A string constant.
    Str(super::value::Str),
    /// `/re/` alone: matches against `$0`.
    Regex(usize),
    /// `@/re/`: a regex value (the literal's index and its text).
    TypedRegex(usize, super::value::Str),
    /// A variable.
    Var(Var),
    /// `a[i, j]`.
    Index(Var, Vec<Expr>),
    /// `$expr`.
    Field(Box<Expr>),
    /// `v = v e` on an ordinary variable: appends in place when it can.
    Append(Var, Box<Expr>),
    /// `lv = e` or `lv op= e`.
    Assign(Box<LValue>, Option<BinOp>, Box<Expr>),
    /// `++lv`/`--lv` (true: increment).
    PreIncr(Box<LValue>, bool),
    /// `lv++`/`lv--`.
    PostIncr(Box<LValue>, bool),
    /// A binary operator.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `&&`
    And(Box<Expr>, Box<Expr>),
    /// `||`
    Or(Box<Expr>, Box<Expr>),
    /// `!e`
    Not(Box<Expr>),
    /// `-e`
    Neg(Box<Expr>),
    /// `+e`
    Plus(Box<Expr>),
    /// `s ~ re` (true) or `s !~ re`.
    Match(Box<Expr>, Box<Expr>, bool),
    /// `c ? a : b`
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `(i, j) in a`
    In(Vec<Expr>, Var),
    /// A call of a user function by index.
    Call(usize, Vec<Expr>),
    /// A built-in call.
    Builtin(Builtin, Vec<Expr>),
    /// `@var(args)`: a call of the function whose name `var` holds.
    Indirect(Var, Vec<Expr>),
    /// `getline [var] ...`.
    Getline(GetlineSource, Option<Box<LValue>>),
    /// A parenthesized list `(a, b)` (only valid before `in`), kept for errors.
    Group(Vec<Expr>),
}
