//! A sed script parsed once into a program: commands with their addresses,
//! and the regular expressions they use.

use crate::regex::Regex;

/// A reference to a regular expression: an index into the program's table,
/// or `None` for the empty regex (`//`), which reuses the last one used.
pub type RegexRef = Option<usize>;

/// The first address of a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Address {
    /// A line number (`0` only in `0,/re/`).
    Line(u64),
    /// `$`.
    Last,
    /// `/re/`.
    Regex(RegexRef),
    /// `first~step`.
    Step(u64, u64),
}

/// The second address of a range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndAddress {
    /// `addr1,N`.
    Line(u64),
    /// `addr1,$`.
    Last,
    /// `addr1,/re/`.
    Regex(RegexRef),
    /// `addr1,+N`.
    Plus(u64),
    /// `addr1,~N`.
    Multiple(u64),
}

/// The `s` command's details.
#[derive(Debug, Clone)]
pub struct Substitute {
    /// The expression.
    pub regex: RegexRef,
    /// The replacement, in pieces.
    pub replacement: Vec<Piece>,
    /// `g`.
    pub global: bool,
    /// `N`: replace only the Nth match (and later ones with `g`).
    pub occurrence: u64,
    /// `p` flag.
    pub print: bool,
    /// `w FILE`.
    pub write: Option<String>,
}

/// A part of an `s` replacement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece {
    /// Text copied as is.
    Literal(Vec<u8>),
    /// `&` (0) or `\1`..`\9`.
    Group(usize),
    /// `\U`, `\L`, `\u`, `\l`, `\E`.
    Case(CaseChange),
}

/// A case conversion in a replacement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CaseChange {
    /// `\U`: upper case until `\E` or `\L`.
    Upper,
    /// `\L`: lower case until `\E` or `\U`.
    Lower,
    /// `\u`: the next character in upper case.
    NextUpper,
    /// `\l`: the next character in lower case.
    NextLower,
    /// `\E`: stop converting.
    End,
}

/// What a command does.
#[derive(Debug, Clone)]
pub enum Action {
    /// `{`: the index just past the matching `}`.
    Block(usize),
    /// `}`.
    EndBlock,
    /// `s/re/replacement/flags`.
    Substitute(Box<Substitute>),
    /// `y/abc/xyz/`: pairs of characters.
    Translate(Vec<(char, char)>),
    /// `a text`.
    Append(Vec<u8>),
    /// `i text`.
    Insert(Vec<u8>),
    /// `c text`.
    Change(Vec<u8>),
    /// `d`.
    Delete,
    /// `D`.
    DeleteFirstLine,
    /// `p`.
    Print,
    /// `P`.
    PrintFirstLine,
    /// `n`.
    Next,
    /// `N`.
    AppendNext,
    /// `g`.
    GetHold,
    /// `G`.
    AppendHold,
    /// `h`.
    Hold,
    /// `H`.
    AppendToHold,
    /// `x`.
    Exchange,
    /// `b`, `t`, `T`: the kind and the target index (`None`: end of script).
    Branch(BranchKind, Option<usize>),
    /// `:label`.
    Label,
    /// `q [CODE]`.
    Quit(i32),
    /// `Q [CODE]`.
    QuitSilently(i32),
    /// `l [WIDTH]` (`None`: the default width).
    List(Option<usize>),
    /// `=`.
    LineNumber,
    /// `r FILE`.
    ReadFile(String),
    /// `R FILE`.
    ReadLine(String),
    /// `w FILE`.
    WriteFile(String),
    /// `W FILE`.
    WriteFirstLine(String),
    /// `z`.
    Zap,
    /// `F`.
    FileName,
}

/// When a branch is taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BranchKind {
    /// `b`: always.
    Always,
    /// `t`: when a substitution was made since the last input line or `t`.
    IfReplaced,
    /// `T`: when none was made.
    IfNotReplaced,
}

/// One command with its addresses.
#[derive(Debug, Clone)]
pub struct Command {
    /// The first address.
    pub start: Option<Address>,
    /// The end of a range.
    pub end: Option<EndAddress>,
    /// `!`.
    pub negate: bool,
    /// What it does.
    pub action: Action,
}

/// A parsed script.
pub struct Program {
    /// The commands in order.
    pub commands: Vec<Command>,
    /// The regular expressions the commands use.
    pub regexes: Vec<Regex>,
    /// The script began with `#n`: as `-n`.
    pub quiet: bool,
    /// The files named by `w` commands and flags, created before the run.
    pub write_files: Vec<String>,
}
