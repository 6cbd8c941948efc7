//! The jq program tree the parser builds and the evaluator walks. Names
//! are resolved while parsing: variables and local functions by how many
//! environment frames up they live, top-level functions by table index.

use super::value::Value;
use std::rc::Rc;

/// A binary operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
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
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

/// An assignment operator's kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Assign {
    /// `=`
    Set,
    /// `|=`
    Modify,
    /// `+=` and friends.
    Arith(Op),
    /// `//=`
    Alt,
}

/// One piece of a string literal.
#[derive(Debug, Clone)]
pub enum Part {
    /// Literal text.
    Text(String),
    /// `\(exp)`.
    Interp(Ast),
}

/// A destructuring pattern.
#[derive(Debug, Clone)]
pub enum Pattern {
    /// `$name`: binds the value to this variable slot of the binding.
    Var(usize),
    /// `[p, ...]`.
    Array(Vec<Pattern>),
    /// `{key: p, $v, ...}`: key expressions, the slot a `$v` key binds the
    /// member to, and the member's pattern.
    Object(Vec<(Ast, Option<usize>, Option<Pattern>)>),
}

/// Which function a call reaches.
#[derive(Debug, Clone, Copy)]
pub enum Target {
    /// A top-level definition, by index into the program's table.
    Global(usize),
    /// A definition bound in the environment, this many frames up.
    Local(usize),
    /// A closure parameter, this many frames up.
    Param(usize),
    /// A native builtin, by index.
    Native(usize),
    /// A prelude call to a definition that comes later, resolved when the
    /// prelude is complete.
    Pending(usize),
}

/// Where a variable lives.
#[derive(Debug, Clone, Copy)]
pub enum VarRef {
    /// This many frames up.
    Local(usize),
    /// A global (`$ENV`, `--arg` values), by index.
    Global(usize),
}

/// A function definition.
#[derive(Debug)]
pub struct Def {
    /// Its name.
    pub name: Rc<str>,
    /// Its parameters: true for `$name` (value) parameters.
    pub params: Vec<bool>,
    /// Its body.
    pub body: Ast,
}

/// A jq expression.
#[derive(Debug, Clone)]
pub enum Ast {
    /// `.`
    Identity,
    /// `..`
    RecurseAll,
    /// A constant.
    Lit(Value),
    /// A string with interpolations, under an optional `@format`.
    Str(Option<Rc<str>>, Vec<Part>),
    /// `@format` alone.
    Format(Rc<str>),
    /// `t[k]` / `t.k`.
    Index(Box<Ast>, Box<Ast>),
    /// `t[a:b]`.
    Slice(Box<Ast>, Option<Box<Ast>>, Option<Box<Ast>>),
    /// `t[]`.
    Each(Box<Ast>),
    /// `try a catch b`; `a?` has no catch.
    Try(Box<Ast>, Option<Box<Ast>>),
    /// `[e]`, `[]`.
    Array(Option<Box<Ast>>),
    /// `{k: v, ...}`.
    Object(Vec<(Ast, Ast)>),
    /// `-e`.
    Neg(Box<Ast>),
    /// `a | b`.
    Pipe(Box<Ast>, Box<Ast>),
    /// `a, b`.
    Comma(Box<Ast>, Box<Ast>),
    /// `a op b`.
    Bin(Op, Box<Ast>, Box<Ast>),
    /// `a and b`.
    And(Box<Ast>, Box<Ast>),
    /// `a or b`.
    Or(Box<Ast>, Box<Ast>),
    /// `a // b`.
    Alt(Box<Ast>, Box<Ast>),
    /// `lhs op= rhs`.
    Update(Assign, Box<Ast>, Box<Ast>),
    /// `if c then a else b end`.
    If(Box<Ast>, Box<Ast>, Option<Box<Ast>>),
    /// `reduce src as pats (init; update)`.
    Reduce(Box<Ast>, Vec<Pattern>, usize, Box<Ast>, Box<Ast>),
    /// `foreach src as pats (init; update; extract)`.
    Foreach(Box<Ast>, Vec<Pattern>, usize, Box<Ast>, Box<Ast>, Option<Box<Ast>>),
    /// `src as pats | body`: the patterns (alternatives of `?//`) and how
    /// many variables they bind together.
    Bind(Box<Ast>, Vec<Pattern>, usize, Box<Ast>),
    /// `label $name | body`.
    Label(Box<Ast>),
    /// `break $name`, the label this many frames up.
    Break(usize),
    /// `def f: ...; rest` (a definition bound in the environment).
    Def(Rc<Def>, Box<Ast>),
    /// A call with closure arguments.
    Call(Target, Vec<Ast>),
    /// `$name`.
    Var(VarRef),
}

fn visit_pattern(p: &mut Pattern, f: &mut dyn FnMut(&mut Target)) {
    match p {
        Pattern::Var(_) => {}
        Pattern::Array(items) => items.iter_mut().for_each(|q| visit_pattern(q, f)),
        Pattern::Object(members) => {
            for (k, _, sub) in members {
                visit_calls(k, f);
                if let Some(sub) = sub {
                    visit_pattern(sub, f);
                }
            }
        }
    }
}

/// Calls `f` on each call target in `ast`, recursively (not into local
/// definitions' bodies, which the prelude does not forward-reference from).
pub fn visit_calls(ast: &mut Ast, f: &mut dyn FnMut(&mut Target)) {
    match ast {
        Ast::Identity | Ast::RecurseAll | Ast::Lit(_) | Ast::Format(_) | Ast::Break(_) | Ast::Var(_) => {}
        Ast::Array(None) => {}
        Ast::Str(_, parts) => {
            for p in parts {
                if let Part::Interp(e) = p {
                    visit_calls(e, f);
                }
            }
        }
        Ast::Index(a, b)
        | Ast::Pipe(a, b)
        | Ast::Comma(a, b)
        | Ast::Bin(_, a, b)
        | Ast::And(a, b)
        | Ast::Or(a, b)
        | Ast::Alt(a, b)
        | Ast::Update(_, a, b) => {
            visit_calls(a, f);
            visit_calls(b, f);
        }
        Ast::Slice(a, b, c) => {
            visit_calls(a, f);
            if let Some(b) = b {
                visit_calls(b, f);
            }
            if let Some(c) = c {
                visit_calls(c, f);
            }
        }
        Ast::Each(a) | Ast::Neg(a) | Ast::Label(a) | Ast::Array(Some(a)) => visit_calls(a, f),
        Ast::Try(a, b) => {
            visit_calls(a, f);
            if let Some(b) = b {
                visit_calls(b, f);
            }
        }
        Ast::Object(members) => {
            for (k, v) in members {
                visit_calls(k, f);
                visit_calls(v, f);
            }
        }
        Ast::If(a, b, c) => {
            visit_calls(a, f);
            visit_calls(b, f);
            if let Some(c) = c {
                visit_calls(c, f);
            }
        }
        Ast::Reduce(a, pats, _, b, c) => {
            visit_calls(a, f);
            pats.iter_mut().for_each(|p| visit_pattern(p, f));
            visit_calls(b, f);
            visit_calls(c, f);
        }
        Ast::Foreach(a, pats, _, b, c, d) => {
            visit_calls(a, f);
            pats.iter_mut().for_each(|p| visit_pattern(p, f));
            visit_calls(b, f);
            visit_calls(c, f);
            if let Some(d) = d {
                visit_calls(d, f);
            }
        }
        Ast::Bind(a, pats, _, b) => {
            visit_calls(a, f);
            pats.iter_mut().for_each(|p| visit_pattern(p, f));
            visit_calls(b, f);
        }
        Ast::Def(def, rest) => {
            if let Some(def) = std::rc::Rc::get_mut(def) {
                visit_calls(&mut def.body, f);
            }
            visit_calls(rest, f);
        }
        Ast::Call(target, args) => {
            f(target);
            args.iter_mut().for_each(|a| visit_calls(a, f));
        }
    }
}
