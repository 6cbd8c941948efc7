//! The instructions bc programs compile to. Each carries the address GNU
//! bc's own byte code would have reached at that point, which its runtime
//! error messages show (`Runtime error (func=f, adr=4): Divide by zero`).

use std::rc::Rc;

/// A storage place: one of bc's special variables or a named one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Slot {
    /// `scale`.
    Scale,
    /// `ibase`.
    Ibase,
    /// `obase`.
    Obase,
    /// `last` (or `.`).
    Last,
    /// A simple variable.
    Var(Rc<str>),
}

/// A binary arithmetic or comparison operator.
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
    Rem,
    /// `^`
    Pow,
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

/// One instruction.
#[derive(Debug, Clone)]
pub enum Op {
    /// Push a constant, converted with the current `ibase`.
    Const(Rc<str>),
    /// Push a slot's value.
    Load(Slot),
    /// Pop a value, store it, push the stored value.
    Store(Slot),
    /// Pop an index, push the array element.
    LoadElem(Rc<str>),
    /// Pop a value and an index, store the element, push the value.
    StoreElem(Rc<str>),
    /// Duplicate the index on top (for `a[i] += x`).
    DupIndex,
    /// Increment or decrement a slot by `delta`, pushing the old (`post`) or new value.
    Step { slot: Slot, delta: i8, post: bool },
    /// The same for an array element whose index is on the stack.
    StepElem { name: Rc<str>, delta: i8, post: bool },
    /// Pop two values, push the result.
    Bin(BinOp),
    /// Negate the top.
    Neg,
    /// Logical not of the top.
    Not,
    /// Jump.
    Jump(usize),
    /// Pop; jump when zero.
    JumpZero(usize),
    /// Push an array argument.
    PushArray(Rc<str>),
    /// Call a function with `args` values on the stack (`true` for arrays);
    /// `start` is the GNU address before the call code.
    Call { name: Rc<str>, args: Rc<[bool]>, start: u32 },
    /// Pop and return the value.
    Return,
    /// Return zero (or nothing from a void function).
    ReturnZero,
    /// Pop and print with a newline, setting `last` (an expression statement).
    Print,
    /// Pop and discard.
    Pop,
    /// Pop and print without a newline (`print` items).
    PrintValue,
    /// Print a string with `print`'s escapes.
    PrintStr(Rc<[u8]>),
    /// Print a string as written (a string statement).
    WriteStr(Rc<[u8]>),
    /// Stop bc.
    Halt,
    /// `sqrt` of the top.
    Sqrt,
    /// `length` of the top.
    Length,
    /// `scale` of the top.
    ScaleOf,
    /// `read()`.
    Read,
    /// `limits`.
    Limits,
}

/// An instruction and the GNU address after it.
#[derive(Debug, Clone)]
pub struct Inst {
    /// What to do.
    pub op: Op,
    /// GNU bc's program counter after this instruction.
    pub adr: u32,
}

/// A parameter or auto variable: its name and whether it is an array
/// (`by_ref` for `*a[]` parameters).
#[derive(Debug, Clone)]
pub struct Local {
    /// The name.
    pub name: Rc<str>,
    /// True for arrays.
    pub array: bool,
    /// True for array parameters passed by reference.
    pub by_ref: bool,
}

/// A user function.
#[derive(Debug)]
pub struct Function {
    /// Its name, for error messages.
    pub name: Rc<str>,
    /// Its parameters.
    pub params: Vec<Local>,
    /// Its auto variables.
    pub autos: Vec<Local>,
    /// Its code.
    pub code: Vec<Inst>,
    /// True for `define void`.
    pub void: bool,
}
