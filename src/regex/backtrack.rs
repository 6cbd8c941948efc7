//! A bounded backtracking matcher for the expressions the linear-time
//! engine cannot run: those with back-references (`\(a*\)b\1`).
//!
//! The expression is compiled to a small instruction program and run with
//! an explicit stack (no recursion, so long inputs cannot overflow the call
//! stack). Every run has a step budget; running out is an error the caller
//! reports, never a hang.

use super::ast::{Bracket, Look, Node};
use super::{decode_at, is_word_at, RegexError, Unit};

/// The most instructions a program may have.
const MAX_PROGRAM: usize = 200_000;

/// The steps one search may take before it gives up.
const STEP_BUDGET: u64 = 20_000_000;

/// The steps spent looking for a longer match once one is found (POSIX
/// wants the longest); when they run out the longest found so far stands.
const LONGER_BUDGET: u64 = 1_000_000;

#[derive(Debug, Clone)]
enum Inst {
    Char(char),
    Byte(u8),
    Any,
    Set(usize),
    Look(Look),
    /// Try the first target, then the second.
    Split(usize, usize),
    Jump(usize),
    /// Record the position in a capture slot.
    Save(usize),
    /// Record the position in a progress mark (loop bodies that match empty stop).
    Mark(usize),
    /// Fail when no input was consumed since the mark.
    Progress(usize),
    Backref(usize),
    Match,
}

/// A compiled backtracking program.
#[derive(Debug, Clone)]
pub struct Program {
    insts: Vec<Inst>,
    sets: Vec<Bracket>,
    slots: usize,
    marks: usize,
    fold: bool,
    multiline: bool,
}

struct Compiler {
    insts: Vec<Inst>,
    sets: Vec<Bracket>,
    marks: usize,
}

impl Compiler {
    fn push(&mut self, inst: Inst) -> Result<usize, RegexError> {
        if self.insts.len() >= MAX_PROGRAM {
            return Err(RegexError::TooBig);
        }
        self.insts.push(inst);
        Ok(self.insts.len() - 1)
    }

    fn patch(&mut self, at: usize, inst: Inst) {
        if let Some(slot) = self.insts.get_mut(at) {
            *slot = inst;
        }
    }

    fn node(&mut self, node: &Node) -> Result<(), RegexError> {
        match node {
            Node::Empty => {}
            Node::Char(c) => {
                self.push(Inst::Char(*c))?;
            }
            Node::Byte(b) => {
                self.push(Inst::Byte(*b))?;
            }
            Node::Any => {
                self.push(Inst::Any)?;
            }
            Node::Set(bracket) => {
                self.sets.push(bracket.clone());
                self.push(Inst::Set(self.sets.len() - 1))?;
            }
            Node::Look(look) => {
                self.push(Inst::Look(*look))?;
            }
            Node::Group(inner, number) => {
                self.push(Inst::Save(number * 2))?;
                self.node(inner)?;
                self.push(Inst::Save(number * 2 + 1))?;
            }
            Node::Concat(nodes) => {
                for node in nodes {
                    self.node(node)?;
                }
            }
            Node::Alternate(branches) => {
                let mut jumps = Vec::new();
                for (index, branch) in branches.iter().enumerate() {
                    if index + 1 < branches.len() {
                        let split = self.push(Inst::Split(0, 0))?;
                        self.node(branch)?;
                        jumps.push(self.push(Inst::Jump(0))?);
                        let next = self.insts.len();
                        self.patch(split, Inst::Split(split + 1, next));
                    } else {
                        self.node(branch)?;
                    }
                }
                let end = self.insts.len();
                for jump in jumps {
                    self.patch(jump, Inst::Jump(end));
                }
            }
            Node::Repeat(inner, min, max) => {
                for _ in 0..*min {
                    self.node(inner)?;
                }
                match max {
                    None => self.star(inner)?,
                    Some(max) => {
                        let mut exits = Vec::new();
                        for _ in *min..*max {
                            exits.push(self.push(Inst::Split(0, 0))?);
                            self.node(inner)?;
                        }
                        let end = self.insts.len();
                        for split in exits {
                            self.patch(split, Inst::Split(split + 1, end));
                        }
                    }
                }
            }
            Node::Backref(number) => {
                self.push(Inst::Backref(*number))?;
            }
        }
        Ok(())
    }

    /// `inner*`, greedy, stopping when an iteration consumes nothing.
    fn star(&mut self, inner: &Node) -> Result<(), RegexError> {
        let mark = self.marks;
        self.marks += 1;
        let split = self.push(Inst::Split(0, 0))?;
        self.push(Inst::Mark(mark))?;
        self.node(inner)?;
        self.push(Inst::Progress(mark))?;
        self.push(Inst::Jump(split))?;
        let end = self.insts.len();
        self.patch(split, Inst::Split(split + 1, end));
        Ok(())
    }
}

/// Compiles an expression with `groups` groups.
pub fn compile(node: &Node, groups: usize, fold: bool, multiline: bool) -> Result<Program, RegexError> {
    let mut compiler = Compiler { insts: Vec::new(), sets: Vec::new(), marks: 0 };
    compiler.push(Inst::Save(0))?;
    compiler.node(node)?;
    compiler.push(Inst::Save(1))?;
    compiler.push(Inst::Match)?;
    Ok(Program { insts: compiler.insts, sets: compiler.sets, slots: (groups + 1) * 2, marks: compiler.marks, fold, multiline })
}

/// Undo records and alternatives on the backtracking stack.
enum Frame {
    Try(usize, usize),
    RestoreSlot(usize, Option<usize>),
    RestoreMark(usize, usize),
}

impl Program {
    /// The first match starting at or after `start`, as capture slots
    /// (`[start0, end0, start1, end1, ...]`).
    pub fn search(&self, hay: &[u8], start: usize) -> Result<Option<Vec<Option<usize>>>, RegexError> {
        let mut budget = STEP_BUDGET;
        let mut at = start;
        loop {
            if let Some(found) = self.run_at(hay, at, None, &mut budget)? {
                return Ok(Some(found));
            }
            if at >= hay.len() {
                return Ok(None);
            }
            at += match decode_at(hay, at) {
                Unit::Char(_, len) => len,
                _ => 1,
            };
        }
    }

    /// The first match that starts at `start` and ends at `end`.
    pub fn search_anchored(&self, hay: &[u8], start: usize, end: usize) -> Result<Option<Vec<Option<usize>>>, RegexError> {
        self.run_at(hay, start, Some(end), &mut STEP_BUDGET.clone())
    }

    fn run_at(&self, hay: &[u8], start: usize, end: Option<usize>, budget: &mut u64) -> Result<Option<Vec<Option<usize>>>, RegexError> {
        let mut slots: Vec<Option<usize>> = vec![None; self.slots];
        let mut marks: Vec<usize> = vec![usize::MAX; self.marks];
        let mut stack = vec![Frame::Try(0, start)];
        let mut best: Option<(usize, Vec<Option<usize>>)> = None;
        let mut longer_budget = LONGER_BUDGET;
        while let Some(frame) = stack.pop() {
            let (mut pc, mut pos) = match frame {
                Frame::Try(pc, pos) => (pc, pos),
                Frame::RestoreSlot(slot, value) => {
                    if let Some(entry) = slots.get_mut(slot) {
                        *entry = value;
                    }
                    continue;
                }
                Frame::RestoreMark(mark, value) => {
                    if let Some(entry) = marks.get_mut(mark) {
                        *entry = value;
                    }
                    continue;
                }
            };
            loop {
                let exhausted = match best {
                    Some(_) => longer_budget.checked_sub(1).map(|left| longer_budget = left).is_none(),
                    None => budget.checked_sub(1).map(|left| *budget = left).is_none(),
                };
                if exhausted {
                    return match best {
                        Some((_, slots)) => Ok(Some(slots)),
                        None => Err(RegexError::StepLimit),
                    };
                }
                let Some(inst) = self.insts.get(pc) else { break };
                match inst {
                    Inst::Match => {
                        if end.is_some_and(|end| end == pos) {
                            return Ok(Some(slots));
                        }
                        if end.is_none() && best.as_ref().is_none_or(|(longest, _)| pos > *longest) {
                            best = Some((pos, slots.clone()));
                        }
                        break;
                    }
                    Inst::Char(want) => match decode_at(hay, pos) {
                        Unit::Char(c, len) if c == *want || (self.fold && chars_fold_equal(c, *want)) => {
                            pos += len;
                            pc += 1;
                        }
                        _ => break,
                    },
                    Inst::Byte(want) => {
                        if hay.get(pos) != Some(want) {
                            break;
                        }
                        pos += 1;
                        pc += 1;
                    }
                    Inst::Any => match decode_at(hay, pos) {
                        Unit::Char(_, len) => {
                            pos += len;
                            pc += 1;
                        }
                        _ => break,
                    },
                    Inst::Set(index) => {
                        let Some(set) = self.sets.get(*index) else { break };
                        let (hit, len) = match decode_at(hay, pos) {
                            Unit::Char(c, len) => (set.matches_char(c, self.fold), len),
                            Unit::Byte(b) => (set.matches_byte(b), 1),
                            Unit::End => (false, 0),
                        };
                        if !hit {
                            break;
                        }
                        pos += len;
                        pc += 1;
                    }
                    Inst::Look(look) => {
                        if !look_matches(*look, hay, pos, self.multiline) {
                            break;
                        }
                        pc += 1;
                    }
                    Inst::Split(first, second) => {
                        stack.push(Frame::Try(*second, pos));
                        pc = *first;
                    }
                    Inst::Jump(target) => pc = *target,
                    Inst::Save(slot) => {
                        let old = slots.get(*slot).copied().flatten();
                        stack.push(Frame::RestoreSlot(*slot, old));
                        if let Some(entry) = slots.get_mut(*slot) {
                            *entry = Some(pos);
                        }
                        pc += 1;
                    }
                    Inst::Mark(mark) => {
                        let old = marks.get(*mark).copied().unwrap_or(usize::MAX);
                        stack.push(Frame::RestoreMark(*mark, old));
                        if let Some(entry) = marks.get_mut(*mark) {
                            *entry = pos;
                        }
                        pc += 1;
                    }
                    Inst::Progress(mark) => {
                        if marks.get(*mark) == Some(&pos) {
                            break;
                        }
                        pc += 1;
                    }
                    Inst::Backref(number) => {
                        let (Some(Some(from)), Some(Some(to))) = (slots.get(number * 2), slots.get(number * 2 + 1)) else {
                            break;
                        };
                        let Some(text) = hay.get(*from..*to) else { break };
                        let Some(candidate) = hay.get(pos..pos + text.len()) else { break };
                        let equal = candidate == text || (self.fold && bytes_fold_equal(candidate, text));
                        if !equal {
                            break;
                        }
                        pos += text.len();
                        pc += 1;
                    }
                }
            }
        }
        Ok(best.map(|(_, slots)| slots))
    }
}

fn chars_fold_equal(a: char, b: char) -> bool {
    a.to_lowercase().eq(b.to_lowercase())
}

fn bytes_fold_equal(a: &[u8], b: &[u8]) -> bool {
    String::from_utf8_lossy(a).to_lowercase() == String::from_utf8_lossy(b).to_lowercase()
}

/// True when the assertion holds at `pos`.
pub fn look_matches(look: Look, hay: &[u8], pos: usize, multiline: bool) -> bool {
    let before = pos > 0 && is_word_at(hay, pos, true);
    let after = is_word_at(hay, pos, false);
    match look {
        Look::LineStart => pos == 0 || (multiline && hay.get(pos - 1) == Some(&b'\n')),
        Look::LineEnd => pos == hay.len() || (multiline && hay.get(pos) == Some(&b'\n')),
        Look::TextStart => pos == 0,
        Look::TextEnd => pos == hay.len(),
        Look::WordBoundary => before != after,
        Look::NotWordBoundary => before == after,
        Look::WordStart => !before && after,
        Look::WordEnd => before && !after,
        Look::NotWordBefore => !before,
        Look::NotWordAfter => !after,
    }
}
