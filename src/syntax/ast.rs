//! The syntax tree of a bash script.
//!
//! Words are parsed completely into parts here, at parse time, so that a
//! syntax error is found before anything runs. Every node that may need to
//! be pointed at in an error carries a [`Span`] of byte offsets into the
//! source; line numbers are computed from it only when needed.
//!
//! Most words are one literal part, so [`Word::parts`] is a [`Seq`] and
//! literal text a [`Text`]: both keep small contents inline (no allocation),
//! and read as a slice and a `&str`. Rare, large variants are boxed to keep
//! [`WordPart`] small.

pub use super::seq::Seq;
pub use super::text::Text;

/// A range of byte offsets into the source, `start..end`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Span {
    /// Offset of the first byte.
    pub start: u32,
    /// Offset just past the last byte.
    pub end: u32,
}

impl Span {
    /// A span from `start` to `end`.
    pub fn new(start: usize, end: usize) -> Self {
        Span { start: start as u32, end: end as u32 }
    }
}

/// A whole script or the body of a compound command: `cmd1; cmd2 & cmd3`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct List {
    /// The and-or lists, in order, each with its terminator.
    pub items: Vec<ListItem>,
}

/// One and-or list with its terminator: `a && b ;` or `a &`.
#[derive(Debug, Clone, PartialEq)]
pub struct ListItem {
    /// The and-or list.
    pub and_or: AndOr,
    /// True when terminated by `&` (run in the background).
    pub background: bool,
    /// The source range.
    pub span: Span,
}

/// `p1 && p2 || p3`: pipelines joined by `&&` and `||`, left-associative.
#[derive(Debug, Clone, PartialEq)]
pub struct AndOr {
    /// The first pipeline.
    pub first: Pipeline,
    /// The following pipelines, each with the operator before it.
    pub rest: Vec<(AndOrOp, Pipeline)>,
}

/// The operator between two pipelines of an and-or list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AndOrOp {
    /// `&&`: run the next pipeline if this one succeeded.
    And,
    /// `||`: run the next pipeline if this one failed.
    Or,
}

/// `[time [-p]] [!] cmd1 | cmd2 |& cmd3`.
#[derive(Debug, Clone, PartialEq)]
pub struct Pipeline {
    /// `!`: negate the exit status.
    pub negated: bool,
    /// `time` or `time -p` before the pipeline.
    pub timed: Option<TimeFormat>,
    /// The commands, at least one (a single one is stored inline).
    pub commands: Seq<Command>,
    /// For each `|` between commands (so `commands.len() - 1` entries):
    /// true when it was `|&`, which also pipes stderr. Empty when the
    /// pipeline has no `|&` (most have none; empty allocates nothing).
    pub pipe_stderr: Vec<bool>,
    /// The source range.
    pub span: Span,
}

/// How `time` reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeFormat {
    /// `time`: bash's default `real 0m0.000s` format.
    Default,
    /// `time -p`: POSIX `real 0.00` format.
    Posix,
}

/// One command of a pipeline.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// `VAR=x cmd arg >file`.
    Simple(SimpleCommand),
    /// A compound command with trailing redirections: `{ ...; } >file`.
    /// Boxed: it is large, and most commands are simple ones.
    Compound(Box<CompoundCommand>, Vec<Redirect>, Span),
    /// `name() compound` or `function name compound`.
    FunctionDef(FunctionDef),
}

/// `VAR=x cmd arg >file`: assignments, words and redirections.
#[derive(Debug, Clone, PartialEq)]
pub struct SimpleCommand {
    /// Leading assignments: `A=1 B+=2 cmd`.
    pub assignments: Vec<Assignment>,
    /// The command name and its arguments.
    pub words: Vec<Argument>,
    /// Redirections, in source order (they may stand anywhere among the words).
    pub redirects: Vec<Redirect>,
    /// The source range.
    pub span: Span,
}

/// One argument of a simple command.
#[derive(Debug, Clone, PartialEq)]
pub enum Argument {
    /// An ordinary word.
    Word(Word),
    /// An assignment given to a declaration builtin (`declare`, `typeset`,
    /// `local`, `export`, `readonly`): `declare -a x=(1 2)`, not split or
    /// globbed. Boxed: it is large and rare, and words are many.
    Assignment(Box<Assignment>),
}

/// `name=value`, `name+=value`, `name[i]=value`, `name=(a b [k]=v)`.
#[derive(Debug, Clone, PartialEq)]
pub struct Assignment {
    /// The variable name.
    pub name: String,
    /// `[subscript]` after the name.
    pub index: Option<Word>,
    /// True for `+=`.
    pub append: bool,
    /// The value assigned.
    pub value: AssignValue,
    /// The source range.
    pub span: Span,
}

/// The right-hand side of an assignment.
#[derive(Debug, Clone, PartialEq)]
pub enum AssignValue {
    /// `x=word` (possibly empty).
    Scalar(Word),
    /// `x=(a b [k]=v)`.
    Array(Vec<ArrayElement>),
}

/// One element of an array literal: `word` or `[index]=word` or `[index]+=word`.
#[derive(Debug, Clone, PartialEq)]
pub struct ArrayElement {
    /// The explicit `[index]`, if given.
    pub index: Option<Word>,
    /// True for `[index]+=word`.
    pub append: bool,
    /// The value.
    pub value: Word,
}

/// `name() { ...; }`, `function name { ...; }`, `function name() ( ... )`.
#[derive(Debug, Clone, PartialEq)]
pub struct FunctionDef {
    /// The function's name.
    pub name: String,
    /// The body, any compound command.
    pub body: Box<CompoundCommand>,
    /// Redirections applied each time the function runs.
    pub redirects: Vec<Redirect>,
    /// True when written with the `function` keyword.
    pub keyword: bool,
    /// The source range.
    pub span: Span,
}

/// A compound command.
#[derive(Debug, Clone, PartialEq)]
pub enum CompoundCommand {
    /// `{ list; }`.
    BraceGroup(List),
    /// `( list )`: run in a subshell.
    Subshell(List),
    /// `if c; then a; elif c2; then b; else d; fi`.
    If {
        /// The `if` and `elif` branches: condition and body.
        branches: Vec<(List, List)>,
        /// The `else` body.
        else_body: Option<List>,
    },
    /// `for name in words; do body; done`, or `for name; do ...` over `"$@"`.
    For {
        /// The loop variable.
        name: String,
        /// The words after `in`; `None` when `in` is absent (iterate `"$@"`).
        words: Option<Vec<Word>>,
        /// The body.
        body: List,
    },
    /// `for (( init; cond; step )); do body; done`.
    ArithFor {
        /// The initializer (empty: nothing).
        init: Option<ArithExpr>,
        /// The condition (empty: true).
        condition: Option<ArithExpr>,
        /// The step.
        step: Option<ArithExpr>,
        /// The body.
        body: List,
    },
    /// `while cond; do body; done`.
    While {
        /// The condition.
        condition: List,
        /// The body.
        body: List,
    },
    /// `until cond; do body; done`.
    Until {
        /// The condition.
        condition: List,
        /// The body.
        body: List,
    },
    /// `case word in pat1|pat2) body ;; ... esac`.
    Case {
        /// The word matched.
        word: Word,
        /// The clauses, in order.
        clauses: Vec<CaseClause>,
    },
    /// `select name in words; do body; done`.
    Select {
        /// The variable set to the chosen word.
        name: String,
        /// The menu words; `None` for `"$@"`.
        words: Option<Vec<Word>>,
        /// The body.
        body: List,
    },
    /// `(( expr ))`: arithmetic command, status 0 when non-zero.
    Arith(ArithExpr),
    /// `[[ expr ]]`: conditional command.
    Cond(CondExpr),
    /// `coproc [NAME] command`.
    Coproc {
        /// The name (default `COPROC`).
        name: String,
        /// The coprocess body.
        body: Box<Command>,
    },
}

/// `pat1 | pat2) body ;;`.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseClause {
    /// The alternative patterns.
    pub patterns: Vec<Word>,
    /// The body.
    pub body: List,
    /// What ends the clause.
    pub terminator: CaseTerminator,
}

/// How a case clause ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CaseTerminator {
    /// `;;`: stop.
    Break,
    /// `;&`: run the next clause's body too.
    FallThrough,
    /// `;;&`: go on testing the next patterns.
    Continue,
}

/// A redirection: `[n]>word`, `{var}>&-`, `<<EOF`.
#[derive(Debug, Clone, PartialEq)]
pub struct Redirect {
    /// The fd on the left, if written.
    pub fd: Option<RedirectFd>,
    /// The operator.
    pub op: RedirectOp,
    /// The target word or here-document.
    pub target: RedirectTarget,
    /// The source range.
    pub span: Span,
}

/// The fd a redirection acts on, when written explicitly.
#[derive(Debug, Clone, PartialEq)]
pub enum RedirectFd {
    /// `2>file`.
    Number(u32),
    /// `{name}>file`: allocate an fd ≥ 10 and store it in `name`.
    Variable(String),
}

/// A redirection operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RedirectOp {
    /// `<`.
    Input,
    /// `>`.
    Output,
    /// `>>`.
    Append,
    /// `>|`: output, ignoring noclobber.
    Clobber,
    /// `<>`: open read-write.
    ReadWrite,
    /// `<&`: duplicate (or close with `-`) an input fd.
    DupInput,
    /// `>&`: duplicate (or close with `-`) an output fd; `>&word` with a
    /// non-number word means `&>word`.
    DupOutput,
    /// `&>`: stdout and stderr to a file.
    OutputBoth,
    /// `&>>`: stdout and stderr appended to a file.
    AppendBoth,
    /// `<<<`: here-string.
    HereString,
    /// `<<`: here-document.
    HereDoc,
    /// `<<-`: here-document with leading tabs stripped.
    HereDocStrip,
}

/// What a redirection points at.
#[derive(Debug, Clone, PartialEq)]
pub enum RedirectTarget {
    /// A word (file name, fd number, `-`, here-string text).
    Word(Word),
    /// A here-document body.
    HereDoc(HereDoc),
}

/// The body of `<<DELIM` ... `DELIM`.
#[derive(Debug, Clone, PartialEq)]
pub struct HereDoc {
    /// The delimiter after quote removal.
    pub delimiter: String,
    /// True when any part of the delimiter was quoted: the body is literal.
    pub quoted: bool,
    /// The body: literal text when quoted, otherwise expandable parts
    /// (parameters, command substitutions, arithmetic; backslash rules of
    /// double quotes without the quotes).
    pub body: Word,
}

/// A word: a sequence of parts that expand and join into one or more fields.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Word {
    /// The parts, in order.
    pub parts: Seq<WordPart>,
    /// The source range.
    pub span: Span,
}

/// One piece of a word.
#[derive(Debug, Clone, PartialEq)]
pub enum WordPart {
    /// Unquoted text: subject to field splitting (when it came from an
    /// expansion) and globbing. `abc`, `*.txt`.
    Literal(Text),
    /// `\c`: one backslash-escaped character, taken literally.
    Escaped(char),
    /// `'text'`.
    SingleQuoted(Text),
    /// `"text $x $(cmd)"`: the parts inside double quotes.
    DoubleQuoted(Vec<WordPart>),
    /// `$'text\n'`: the decoded bytes (escapes already applied).
    AnsiCQuoted(Vec<u8>),
    /// `$"text"`: a locale-translated string (translated to itself here).
    LocaleQuoted(Vec<WordPart>),
    /// `$name`, `${name...}`: a parameter expansion.
    Param(Box<ParamExpansion>),
    /// `$(list)` or `` `list` ``.
    CommandSub {
        /// The commands.
        body: Box<List>,
        /// True for the backtick form.
        backtick: bool,
    },
    /// `$(( expr ))` (or the obsolete `$[ expr ]`).
    Arith(Box<ArithExpr>),
    /// `<(list)` or `>(list)`.
    ProcessSub {
        /// True for `<( )`, read from the substitution.
        input: bool,
        /// The commands.
        body: Box<List>,
    },
    /// `~` or `~user` at the start of a word or after `:`/`=` in assignments.
    Tilde(String),
    /// `{a,b,c}`: brace alternatives, each a word fragment.
    BraceList(Vec<Word>),
    /// `{1..10..2}`, `{a..z}`, `{01..10}`: a brace sequence, kept as written.
    BraceRange(Box<BraceSequence>),
    /// `@(a|b)`, `*(x)`, `+(x)`, `?(x)`, `!(x)` with extglob on.
    ExtGlob {
        /// The operator character: one of `@ * + ? !`.
        op: char,
        /// The alternatives.
        patterns: Vec<Word>,
    },
    /// `${x!}`, `${}`, `${#x:-w}`: a `${...}` bash accepts when parsing but
    /// rejects when expanding (`bash: ${x!}: bad substitution`, status 1).
    /// Holds the whole text as written, `${` and `}` included.
    BadSubstitution(String),
    /// `` `fi` ``: a backquoted command whose body does not parse. Bash
    /// parses a backquote's body only when it runs, so the error is
    /// reported then (`bash: command substitution: line 1: ...`, status 2)
    /// and the command goes on. Holds the body's text, escapes removed.
    UnparsedBackquote(String),
    /// `` `x `` or `$((x` left open in a here-document body. Bash expands a
    /// body only when its command runs, and fails then (``bad substitution:
    /// no closing "`" in `x``, status 1, the command not run).
    UnclosedSubstitution {
        /// What never came: `` ` `` or `)`.
        closer: char,
        /// The text bash names: from the backquote, or the whole body for `$((`.
        text: String,
    },
}

/// The bounds of a brace sequence `{start..end..step}`, kept as written.
#[derive(Debug, Clone, PartialEq)]
pub struct BraceSequence {
    /// The start (`1`, `a`, `01`).
    pub start: String,
    /// The end.
    pub end: String,
    /// The optional increment.
    pub step: Option<String>,
}

/// A parameter expansion: `$x`, `${x}`, `${#x}`, `${x:-w}`, `${a[i]}`, `${!x}`...
#[derive(Debug, Clone, PartialEq)]
pub struct ParamExpansion {
    /// The parameter.
    pub param: Parameter,
    /// `[subscript]` after the name.
    pub index: Option<Subscript>,
    /// `${!x}`: indirection through the value of `x`.
    pub indirect: bool,
    /// `${#x}`: the length.
    pub length: bool,
    /// The operator after the name.
    pub op: Option<ParamOp>,
    /// True when written with braces.
    pub braced: bool,
}

/// The parameter of an expansion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Parameter {
    /// A variable name: `x`, `PATH` (short names are stored inline).
    Named(Text),
    /// `$1`, `${10}`.
    Positional(u32),
    /// `$@ $* $# $? $- $$ $! $0`.
    Special(char),
}

/// A subscript: `[@]`, `[*]` or an expression.
#[derive(Debug, Clone, PartialEq)]
pub enum Subscript {
    /// `[@]`.
    At,
    /// `[*]`.
    Star,
    /// `[expr]`: an arithmetic expression for indexed arrays, a key for
    /// associative ones; kept as a word and interpreted at run time.
    Expr(Word),
}

/// The operator of a braced parameter expansion.
#[derive(Debug, Clone, PartialEq)]
pub enum ParamOp {
    /// `${x:-w}` (colon: also when empty) and `${x-w}`.
    Default { colon: bool, word: Word },
    /// `${x:=w}` and `${x=w}`.
    Assign { colon: bool, word: Word },
    /// `${x:?w}` and `${x?w}`.
    Error { colon: bool, word: Word },
    /// `${x:+w}` and `${x+w}`.
    Alternative { colon: bool, word: Word },
    /// `${x#p}` and `${x##p}` (longest).
    RemovePrefix { longest: bool, pattern: Word },
    /// `${x%p}` and `${x%%p}` (longest).
    RemoveSuffix { longest: bool, pattern: Word },
    /// `${x/p/r}`, `${x//p/r}`, `${x/#p/r}`, `${x/%p/r}`.
    Replace { mode: ReplaceMode, pattern: Word, replacement: Option<Word> },
    /// `${x:offset}` and `${x:offset:length}` (arithmetic, kept as words).
    Substring { offset: Word, length: Option<Word> },
    /// `${x^p}` `${x^^p}` `${x,p}` `${x,,p}` `${x~p}` `${x~~p}`.
    Case { mode: CaseMode, all: bool, pattern: Option<Word> },
    /// `${x@Q}` and the other transformations (`Q E P A a U u L K k`).
    Transform(char),
    /// `${!prefix*}` and `${!prefix@}` (true for `@`): names starting with prefix.
    PrefixNames { at: bool },
}

/// Which occurrence `${x/p/r}` replaces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReplaceMode {
    /// `/`: the first match.
    First,
    /// `//`: every match.
    All,
    /// `/#`: a match at the start.
    Prefix,
    /// `/%`: a match at the end.
    Suffix,
}

/// The case conversion of `${x^p}` and friends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CaseMode {
    /// `^`: to upper case.
    Upper,
    /// `,`: to lower case.
    Lower,
    /// `~`: toggle.
    Toggle,
}

/// An arithmetic expression, as in `$(( ))`, `(( ))`, `let`, subscripts.
///
/// Bash reports arithmetic syntax errors only when the expression runs, so a
/// malformed expression parses to [`ArithExpr::Invalid`] and fails at run time.
#[derive(Debug, Clone, PartialEq)]
pub enum ArithExpr {
    /// A numeric literal as written: `42`, `0x1f`, `017`, `2#101`.
    Number(String),
    /// A variable name: `x` (its value is evaluated recursively as an expression).
    Variable(String),
    /// `a[expr]`.
    Element(String, Box<ArithExpr>),
    /// A `$`-expansion inside the expression (`$x`, `${x}`, `$(cmd)`): its
    /// text is substituted and the expression re-read, as bash does.
    Expansion(Word),
    /// A prefix operator: `-x`, `+x`, `!x`, `~x`.
    Unary(UnaryArithOp, Box<ArithExpr>),
    /// `++x`, `--x`, `x++`, `x--`.
    IncDec {
        /// True for `++`.
        increment: bool,
        /// True for the prefix form.
        prefix: bool,
        /// The variable or element changed.
        target: Box<ArithExpr>,
    },
    /// A binary operator: `a + b`, `a ** b`, `a && b`.
    Binary(BinaryArithOp, Box<ArithExpr>, Box<ArithExpr>),
    /// `x = v`, `x += v` and the other assignment operators (`None`: plain `=`).
    Assign(Option<BinaryArithOp>, Box<ArithExpr>, Box<ArithExpr>),
    /// `c ? a : b`.
    Conditional(Box<ArithExpr>, Box<ArithExpr>, Box<ArithExpr>),
    /// `a, b`: evaluate both, yield the last.
    Comma(Box<ArithExpr>, Box<ArithExpr>),
    /// An expression bash would reject when it runs: the raw text.
    Invalid(String),
    /// A whole expression of `$(( ))`, `$[ ]`, `(( ))` or `for (( ))` as
    /// written, with its tree: bash reads the text when it runs, so its
    /// errors quote the text as written (`1/0 : division by 0 ...`).
    Source(String, Box<ArithExpr>),
}

/// A prefix arithmetic operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnaryArithOp {
    /// `-`.
    Negate,
    /// `+`.
    Plus,
    /// `!`.
    Not,
    /// `~`.
    BitNot,
}

/// A binary arithmetic operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinaryArithOp {
    /// `**`.
    Power,
    /// `*`.
    Multiply,
    /// `/`.
    Divide,
    /// `%`.
    Remainder,
    /// `+`.
    Add,
    /// `-`.
    Subtract,
    /// `<<`.
    ShiftLeft,
    /// `>>`.
    ShiftRight,
    /// `<`.
    Less,
    /// `<=`.
    LessEqual,
    /// `>`.
    Greater,
    /// `>=`.
    GreaterEqual,
    /// `==`.
    Equal,
    /// `!=`.
    NotEqual,
    /// `&`.
    BitAnd,
    /// `^`.
    BitXor,
    /// `|`.
    BitOr,
    /// `&&`.
    LogicalAnd,
    /// `||`.
    LogicalOr,
}

impl BinaryArithOp {
    /// How tightly the operator binds: `||` is 1, `**` is 11.
    pub fn precedence(self) -> u8 {
        match self {
            BinaryArithOp::Power => 11,
            BinaryArithOp::Multiply | BinaryArithOp::Divide | BinaryArithOp::Remainder => 10,
            BinaryArithOp::Add | BinaryArithOp::Subtract => 9,
            BinaryArithOp::ShiftLeft | BinaryArithOp::ShiftRight => 8,
            BinaryArithOp::Less | BinaryArithOp::LessEqual | BinaryArithOp::Greater | BinaryArithOp::GreaterEqual => 7,
            BinaryArithOp::Equal | BinaryArithOp::NotEqual => 6,
            BinaryArithOp::BitAnd => 5,
            BinaryArithOp::BitXor => 4,
            BinaryArithOp::BitOr => 3,
            BinaryArithOp::LogicalAnd => 2,
            BinaryArithOp::LogicalOr => 1,
        }
    }

    /// The operator as written in source (`**`, `<<`, `&&`).
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryArithOp::Power => "**",
            BinaryArithOp::Multiply => "*",
            BinaryArithOp::Divide => "/",
            BinaryArithOp::Remainder => "%",
            BinaryArithOp::Add => "+",
            BinaryArithOp::Subtract => "-",
            BinaryArithOp::ShiftLeft => "<<",
            BinaryArithOp::ShiftRight => ">>",
            BinaryArithOp::Less => "<",
            BinaryArithOp::LessEqual => "<=",
            BinaryArithOp::Greater => ">",
            BinaryArithOp::GreaterEqual => ">=",
            BinaryArithOp::Equal => "==",
            BinaryArithOp::NotEqual => "!=",
            BinaryArithOp::BitAnd => "&",
            BinaryArithOp::BitXor => "^",
            BinaryArithOp::BitOr => "|",
            BinaryArithOp::LogicalAnd => "&&",
            BinaryArithOp::LogicalOr => "||",
        }
    }
}

/// The expression inside `[[ ]]`.
#[derive(Debug, Clone, PartialEq)]
pub enum CondExpr {
    /// `-f word`, `-z word`, `-v name`...: the operator without `-`'s meaning
    /// resolved, kept as written (`"-f"`).
    Unary(String, Word),
    /// `a == pattern`, `a != pattern`, `a < b`, `a -eq b`...
    Binary(String, Word, Word),
    /// `word =~ regex`.
    Regex(Word, Word),
    /// A lone word: true when non-empty.
    Word(Word),
    /// `! expr`.
    Not(Box<CondExpr>),
    /// `a && b`.
    And(Box<CondExpr>, Box<CondExpr>),
    /// `a || b`.
    Or(Box<CondExpr>, Box<CondExpr>),
    /// `( expr )`.
    Group(Box<CondExpr>),
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Words are the most numerous nodes: their size decides how much a
    /// parse copies, and one-literal words must not allocate.
    #[test]
    fn word_nodes_stay_small() {
        assert!(std::mem::size_of::<Text>() <= 32);
        assert!(std::mem::size_of::<WordPart>() <= 40);
        assert!(std::mem::size_of::<Word>() <= 56);
        assert!(std::mem::size_of::<Argument>() <= 56);
    }
}
