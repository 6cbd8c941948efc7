//! POSIX regular expressions (GNU flavour) for grep, sed, expr and bash's
//! `[[ =~ ]]`: one parser for basic and extended syntax, matched with POSIX
//! leftmost-longest semantics.
//!
//! Expressions without back-references are translated to the `regex`
//! crate's syntax and run by `regex-automata`, whose matching time is
//! linear in the input (the defense against catastrophic patterns). Only an
//! expression with back-references runs on the bounded backtracker, whose
//! step budget turns a pathological case into an error instead of a hang.

pub mod ast;
mod backtrack;
mod parse;
mod perl;

use ast::{Look, Node};
use backtrack::Program;
pub use parse::numeric_escape;
use regex_automata::meta;
use regex_automata::util::syntax;
use regex_automata::{Anchored, Input, MatchKind};
use std::cell::OnceCell;

/// The compiled-size limit of one expression (bytes of automaton).
const SIZE_LIMIT: usize = 8 << 20;

/// The dialect and flags of an expression.
#[derive(Debug, Clone, Default)]
pub struct Syntax {
    /// Extended (`-E`) rather than basic syntax.
    pub extended: bool,
    /// Perl-compatible syntax (`grep -P`, `rg -P`), on fancy-regex.
    pub perl: bool,
    /// With `perl`: `\d \w \s` cover Unicode (ripgrep's PCRE2 with `UCP`)
    /// rather than ASCII only (grep's PCRE2 without it).
    pub unicode_classes: bool,
    /// Follow glibc `regcomp` (sed) rather than grep's own parser in corners.
    pub glibc: bool,
    /// Read `\n`, `\t`... as the characters they name (sed).
    pub sed_escapes: bool,
    /// Refuse `[:alpha:]` outside a bracket expression (grep).
    pub reject_bare_class: bool,
    /// Match without regard to case.
    pub ignore_case: bool,
    /// `^` and `$` also match around newlines (sed's `M` flag).
    pub multiline: bool,
    /// The pattern is a literal string (`grep -F`).
    pub fixed: bool,
    /// Matches must be whole words (`grep -w`).
    pub whole_word: bool,
    /// Matches must be whole lines (`grep -x`).
    pub whole_line: bool,
    /// Matches must start at the start of the text (`expr STRING : REGEX`,
    /// whose group 1 is then `captures_at(hay, 0)`'s index 1).
    pub anchored: bool,
    /// GNU's default syntax (`re_syntax_options` 0, `tac -r`): basic
    /// syntax where bare `+` and `?` repeat, and `\+`, `\?`, `\{` are literal.
    pub emacs: bool,
}

/// Why an expression cannot be compiled or run; the messages are glibc's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RegexError {
    /// `Unmatched [, [^, [:, [., or [=`
    UnmatchedBracket,
    /// `Unmatched ( or \(`
    UnmatchedOpen,
    /// `Unmatched ) or \)`
    UnmatchedClose,
    /// `Unmatched \{`
    UnmatchedBrace,
    /// `Invalid content of \{\}`
    InvalidInterval,
    /// `Invalid range end`
    InvalidRangeEnd,
    /// `Invalid character class name`
    InvalidClassName,
    /// `Invalid collation character`
    InvalidCollation,
    /// `Invalid back reference`
    InvalidBackref,
    /// `Invalid preceding regular expression`
    InvalidPreceding,
    /// `Trailing backslash`
    TrailingBackslash,
    /// `Regular expression too big`
    TooBig,
    /// `character class syntax is [[:space:]], not [:space:]` (grep).
    BareClass,
    /// The backtracker ran out of steps.
    StepLimit,
    /// A Perl expression's backtracking budget ran out (PCRE's match limit).
    BacktrackLimit,
    /// A Perl expression nested its backtracking too deep.
    StackLimit,
    /// A Perl-syntax expression the engine does not support, with the reason.
    Perl(String),
}

impl std::fmt::Display for RegexError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = match self {
            RegexError::UnmatchedBracket => "Unmatched [, [^, [:, [., or [=",
            RegexError::UnmatchedOpen => "Unmatched ( or \\(",
            RegexError::UnmatchedClose => "Unmatched ) or \\)",
            RegexError::UnmatchedBrace => "Unmatched \\{",
            RegexError::InvalidInterval => "Invalid content of \\{\\}",
            RegexError::InvalidRangeEnd => "Invalid range end",
            RegexError::InvalidClassName => "Invalid character class name",
            RegexError::InvalidCollation => "Invalid collation character",
            RegexError::InvalidBackref => "Invalid back reference",
            RegexError::InvalidPreceding => "Invalid preceding regular expression",
            RegexError::TrailingBackslash => "Trailing backslash",
            RegexError::TooBig => "Regular expression too big",
            RegexError::BareClass => "character class syntax is [[:space:]], not [:space:]",
            RegexError::StepLimit => "regular expression backtracking limit exceeded",
            RegexError::BacktrackLimit => "exceeded PCRE's backtracking limit",
            RegexError::StackLimit => "exceeded PCRE's nested backtracking limit",
            RegexError::Perl(reason) => reason,
        };
        f.write_str(text)
    }
}

/// One decoded unit of a byte string.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// A character and its encoded length.
    Char(char, usize),
    /// A byte that does not start a valid UTF-8 sequence.
    Byte(u8),
    /// The end of the string.
    End,
}

/// Decodes the unit at `pos`.
pub fn decode_at(bytes: &[u8], pos: usize) -> Unit {
    let Some(&first) = bytes.get(pos) else {
        return Unit::End;
    };
    if first < 0x80 {
        return Unit::Char(char::from(first), 1);
    }
    let width = match first {
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => return Unit::Byte(first),
    };
    match bytes.get(pos..pos + width).and_then(|slice| std::str::from_utf8(slice).ok()).and_then(|text| text.chars().next()) {
        Some(c) => Unit::Char(c, width),
        None => Unit::Byte(first),
    }
}

/// True when the character just before (`before`) or at `pos` is a word
/// character (alphanumeric or `_`).
pub fn is_word_at(hay: &[u8], pos: usize, before: bool) -> bool {
    let unit = if before {
        (1..=4.min(pos)).find_map(|back| match decode_at(hay, pos - back) {
            Unit::Char(c, len) if len == back => Some(Unit::Char(c, len)),
            _ => None,
        })
    } else {
        Some(decode_at(hay, pos))
    };
    matches!(unit, Some(Unit::Char(c, _)) if c.is_alphanumeric() || c == '_')
}

/// A match's span.
pub type Span = (usize, usize);

/// A compiled expression.
pub struct Regex {
    engine: Engine,
    node: Option<Node>,
    groups: usize,
    syntax: Syntax,
    /// The backtracking program, built when first needed.
    program: OnceCell<Result<Program, RegexError>>,
    /// What grep warns about the expression.
    warnings: Vec<&'static str>,
}

enum Engine {
    Automata {
        /// Leftmost-first matcher: finds where the leftmost match starts, and captures.
        first: meta::Regex,
        /// The same expression with all-matches semantics, for the longest end.
        longest: OnceCell<Result<meta::Regex, RegexError>>,
        pattern: String,
        /// Every match has the same length in bytes, so the leftmost-first
        /// match is also the longest at its start.
        fixed: bool,
    },
    /// Back-references: a linear-time search with a looser expression
    /// (when it compiles) finds where a match may start, then the
    /// backtracker decides.
    Backtrack { prefilter: Option<meta::Regex> },
    /// A Perl-compatible expression.
    Perl(perl::Perl),
}

fn build(pattern: &str, syntax: &Syntax, kind: MatchKind) -> Result<meta::Regex, RegexError> {
    let config = meta::Config::new().match_kind(kind).nfa_size_limit(Some(SIZE_LIMIT)).onepass_size_limit(Some(SIZE_LIMIT));
    let syntax_config = syntax::Config::new().utf8(false).case_insensitive(syntax.ignore_case).nest_limit(1000);
    meta::Regex::builder().configure(config).syntax(syntax_config).build(pattern).map_err(|_| RegexError::TooBig)
}

impl Regex {
    /// Compiles `pattern` in `syntax`.
    pub fn new(pattern: &[u8], syntax: &Syntax) -> Result<Regex, RegexError> {
        if syntax.perl {
            let perl = perl::Perl::new(pattern, syntax, !syntax.unicode_classes)?;
            let groups = perl.groups();
            let engine = Engine::Perl(perl);
            return Ok(Regex { engine, node: None, groups, syntax: syntax.clone(), program: OnceCell::new(), warnings: Vec::new() });
        }
        let parsed = if syntax.fixed { parse::literal(pattern) } else { parse::parse(pattern, syntax)? };
        Regex::from_node(wrap(parsed.node, syntax), parsed.groups, syntax, parsed.warnings)
    }

    /// Compiles a list of patterns, any of which may match (grep's `-e`
    /// list): one expression when none uses back-references, else one each.
    pub fn any_of(patterns: &[Vec<u8>], syntax: &Syntax) -> Result<Vec<Regex>, RegexError> {
        if syntax.perl || patterns.len() < 2 {
            return patterns.iter().map(|pattern| Regex::new(pattern, syntax)).collect();
        }
        let mut nodes = Vec::new();
        let mut warnings = Vec::new();
        for pattern in patterns {
            let parsed = if syntax.fixed { parse::literal(pattern) } else { parse::parse(pattern, syntax)? };
            nodes.push(parsed.node);
            warnings.extend(parsed.warnings);
        }
        if nodes.iter().any(Node::has_backref) {
            return patterns.iter().map(|pattern| Regex::new(pattern, syntax)).collect();
        }
        Ok(vec![Regex::from_node(wrap(Node::Alternate(nodes), syntax), 0, syntax, warnings)?])
    }

    /// What grep warns about the expression (`* at start of expression`).
    pub fn warnings(&self) -> &[&'static str] {
        &self.warnings
    }

    fn from_node(node: Node, groups: usize, syntax: &Syntax, warnings: Vec<&'static str>) -> Result<Regex, RegexError> {
        let engine = if node.has_backref() {
            let looser = node.without_backrefs().render(syntax.multiline);
            Engine::Backtrack { prefilter: build(&looser, syntax, MatchKind::LeftmostFirst).ok() }
        } else {
            let rendered = node.render(syntax.multiline);
            let first = build(&rendered, syntax, MatchKind::LeftmostFirst)?;
            let fixed = fixed_length(&node, syntax.ignore_case).is_some();
            Engine::Automata { first, longest: OnceCell::new(), pattern: rendered, fixed }
        };
        let regex = Regex { engine, node: Some(node), groups, syntax: syntax.clone(), program: OnceCell::new(), warnings };
        if matches!(regex.engine, Engine::Backtrack { .. }) {
            regex.program()?;
        }
        Ok(regex)
    }

    /// The number of groups.
    pub fn groups(&self) -> usize {
        self.groups
    }

    fn program(&self) -> Result<&Program, RegexError> {
        let result = self.program.get_or_init(|| match &self.node {
            Some(node) => backtrack::compile(node, self.groups, self.syntax.ignore_case, self.syntax.multiline),
            None => Err(RegexError::TooBig),
        });
        result.as_ref().map_err(Clone::clone)
    }

    /// True when the expression matches somewhere in `hay`.
    pub fn is_match(&self, hay: &[u8]) -> Result<bool, RegexError> {
        match &self.engine {
            Engine::Automata { first, .. } => Ok(first.is_match(hay)),
            Engine::Backtrack { .. } => Ok(self.find_at(hay, 0)?.is_some()),
            Engine::Perl(perl) => perl.is_match(hay),
        }
    }

    /// The leftmost-longest match starting at or after `start` (`-P`:
    /// leftmost-first). Text before `start` is context for anchors.
    pub fn find_at(&self, hay: &[u8], start: usize) -> Result<Option<Span>, RegexError> {
        match &self.engine {
            Engine::Automata { first, longest, pattern, fixed } => {
                let Some(found) = first.search(&Input::new(hay).range(start..)) else {
                    return Ok(None);
                };
                if *fixed {
                    return Ok(Some((found.start(), found.end())));
                }
                let longest = longest.get_or_init(|| build(pattern, &self.syntax, MatchKind::All));
                let longest = longest.as_ref().map_err(Clone::clone)?;
                let input = Input::new(hay).range(found.start()..).anchored(Anchored::Yes);
                let end = longest.search(&input).map_or(found.end(), |m| m.end().max(found.end()));
                Ok(Some((found.start(), end)))
            }
            Engine::Backtrack { prefilter } => {
                let mut from = start;
                if let Some(prefilter) = prefilter {
                    match prefilter.search(&Input::new(hay).range(start..)) {
                        Some(candidate) => from = candidate.start(),
                        None => return Ok(None),
                    }
                }
                let slots = self.program()?.search(hay, from)?;
                Ok(slots.and_then(|slots| span(&slots, 0)))
            }
            Engine::Perl(perl) => perl.find_at(hay, start),
        }
    }

    /// The leftmost-longest match at or after `start` and its groups' spans
    /// (index 0 is the whole match).
    pub fn captures_at(&self, hay: &[u8], start: usize) -> Result<Option<Vec<Option<Span>>>, RegexError> {
        if let Engine::Perl(perl) = &self.engine {
            return perl.captures_at(hay, start);
        }
        let Some((from, to)) = self.find_at(hay, start)? else {
            return Ok(None);
        };
        if let Engine::Automata { first, .. } = &self.engine {
            let mut captures = first.create_captures();
            first.search_captures(&Input::new(hay).range(from..to).anchored(Anchored::Yes), &mut captures);
            if captures.get_match().is_some_and(|m| m.end() == to) || self.node.is_none() {
                return Ok(Some((0..=self.groups).map(|group| captures.get_group(group).map(|s| (s.start, s.end))).collect()));
            }
        }
        let slots = self.program()?.search_anchored(hay, from, to)?;
        let Some(slots) = slots else {
            return Ok(Some(std::iter::once(Some((from, to))).chain((0..self.groups).map(|_| None)).collect()));
        };
        Ok(Some((0..=self.groups).map(|group| span(&slots, group)).collect()))
    }
}

/// The length in bytes every match of `node` has, when it is fixed: plain
/// characters (ASCII ones under case folding, but not `k` and `s`, whose
/// other cases are longer), invalid bytes, assertions, and fixed
/// repetitions, sequences and alternatives of those.
fn fixed_length(node: &Node, fold: bool) -> Option<usize> {
    match node {
        Node::Empty | Node::Look(_) => Some(0),
        Node::Byte(_) => Some(1),
        Node::Char(c) if !fold => Some(c.len_utf8()),
        Node::Char(c) if c.is_ascii() && !matches!(c.to_ascii_lowercase(), 'k' | 's') => Some(1),
        Node::Group(inner, _) => fixed_length(inner, fold),
        Node::Concat(nodes) => nodes.iter().try_fold(0usize, |total, node| Some(total + fixed_length(node, fold)?)),
        Node::Alternate(nodes) => {
            let first = fixed_length(nodes.first()?, fold)?;
            nodes.iter().all(|node| fixed_length(node, fold) == Some(first)).then_some(first)
        }
        Node::Repeat(inner, min, Some(max)) if min == max => fixed_length(inner, fold)?.checked_mul(*min as usize),
        _ => None,
    }
}

/// Adds the start-of-text, whole-word or whole-line conditions around an
/// expression.
fn wrap(node: Node, syntax: &Syntax) -> Node {
    let node = if syntax.anchored { Node::Concat(vec![Node::Look(Look::TextStart), node]) } else { node };
    let (before, after) = if syntax.whole_line {
        (Look::TextStart, Look::TextEnd)
    } else if syntax.whole_word {
        (Look::NotWordBefore, Look::NotWordAfter)
    } else {
        return node;
    };
    Node::Concat(vec![Node::Look(before), node, Node::Look(after)])
}

fn span(slots: &[Option<usize>], group: usize) -> Option<Span> {
    match (slots.get(group * 2), slots.get(group * 2 + 1)) {
        (Some(Some(start)), Some(Some(end))) => Some((*start, *end)),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
