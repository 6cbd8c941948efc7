//! The sed script parser: the text of every `-e` and `-f` joined into one
//! program, with GNU sed's error messages and positions.

use super::replace::parse_replacement;
use super::script::{Action, Address, BranchKind, Command, EndAddress, Program, RegexRef, Substitute};
use crate::regex::{Regex, RegexError, Syntax};

/// What `--sandbox` says of `e`, `r` and `w`.
const SANDBOX_REFUSAL: &str = "e/r/w commands disabled in sandbox mode";

/// Where a piece of script came from, for error positions.
#[derive(Debug, Clone)]
pub enum Origin {
    /// `-e SCRIPT` (or the script operand), numbered from 1.
    Expression(usize),
    /// `-f FILE`.
    File(String),
}

/// A piece of script and where it came from.
pub struct Chunk {
    /// The script text.
    pub text: Vec<u8>,
    /// Its origin.
    pub origin: Origin,
}

/// A script error, formatted as GNU sed prints it after `sed: `, and the
/// exit status (1, or 4 for the errors GNU finds after parsing).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptError(pub String, pub i32);

/// The unit of a failure inside the parser: a message and whether it
/// carries a position.
struct Failure {
    message: String,
    /// Where it is reported: at the parser's position, at char 0, or unpositioned.
    place: Place,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    Here,
    Start,
    Nowhere,
}

fn fail<T>(message: impl Into<String>) -> Result<T, Failure> {
    Err(Failure { message: message.into(), place: Place::Here })
}

/// Parses the joined chunks into a program.
pub fn parse_script(chunks: &[Chunk], extended: bool, sandbox: bool) -> Result<Program, ScriptError> {
    let mut text = Vec::new();
    let mut starts = Vec::new();
    for (index, chunk) in chunks.iter().enumerate() {
        if index > 0 {
            text.push(b'\n');
        }
        starts.push(text.len());
        text.extend_from_slice(&chunk.text);
    }
    let mut parser = Parser {
        text: &text,
        pos: 0,
        extended,
        sandbox,
        program: Vec::new(),
        regexes: Vec::new(),
        blocks: Vec::new(),
        quiet: false,
        write_files: Vec::new(),
    };
    let result = parser.commands();
    let located = |message: String, pos: usize| -> String {
        let anchor = pos.saturating_sub(1);
        let index = starts.iter().rposition(|start| *start <= anchor).unwrap_or(0);
        let (start, chunk) = (starts.get(index).copied().unwrap_or(0), chunks.get(index));
        let local = pos.saturating_sub(start);
        match chunk.map(|chunk| &chunk.origin) {
            Some(Origin::File(name)) => {
                let line = 1 + text.get(start..pos).unwrap_or(&[]).iter().filter(|b| **b == b'\n').count();
                format!("file {name} line {line}: {message}")
            }
            Some(Origin::Expression(number)) => format!("-e expression #{number}, char {local}: {message}"),
            None => format!("-e expression #1, char {local}: {message}"),
        }
    };
    if let Err(failure) = result {
        return Err(match failure.place {
            Place::Here => ScriptError(located(failure.message, parser.pos), 1),
            Place::Start => ScriptError(format!("-e expression #1, char 0: {}", failure.message), 1),
            Place::Nowhere => ScriptError(failure.message, 4),
        });
    }
    if !parser.blocks.is_empty() {
        return Err(ScriptError(format!("-e expression #{}, char 0: unmatched `{{'", chunks.len().max(1)), 1));
    }
    Ok(Program { commands: parser.program, regexes: parser.regexes, quiet: parser.quiet, write_files: parser.write_files })
}

struct Parser<'t> {
    text: &'t [u8],
    pos: usize,
    extended: bool,
    /// `--sandbox`: `e`, `r` and `w` are refused.
    sandbox: bool,
    program: Vec<Command>,
    regexes: Vec<Regex>,
    /// Indexes of the open `{` commands.
    blocks: Vec<usize>,
    quiet: bool,
    write_files: Vec<String>,
}

fn is_blank(byte: u8) -> bool {
    byte == b' ' || byte == b'\t'
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.get(self.pos).copied()
    }

    fn next(&mut self) -> Option<u8> {
        let byte = self.peek()?;
        self.pos += 1;
        Some(byte)
    }

    fn skip_blanks(&mut self) {
        while self.peek().is_some_and(is_blank) {
            self.pos += 1;
        }
    }

    fn number(&mut self) -> Option<u64> {
        let start = self.pos;
        let mut value: u64 = 0;
        while let Some(digit) = self.peek().filter(u8::is_ascii_digit) {
            value = value.saturating_mul(10).saturating_add(u64::from(digit - b'0'));
            self.pos += 1;
        }
        (self.pos > start).then_some(value)
    }

    fn commands(&mut self) -> Result<(), Failure> {
        let mut labels: Vec<(String, usize)> = Vec::new();
        let mut jumps: Vec<(usize, String)> = Vec::new();
        loop {
            while self.peek().is_some_and(|b| b.is_ascii_whitespace() || b == b';') {
                self.pos += 1;
            }
            let Some(byte) = self.peek() else { break };
            if byte == b'#' {
                if self.pos == 0 && self.text.get(1) == Some(&b'n') && matches!(self.text.get(2), None | Some(b'\n')) {
                    self.quiet = true;
                }
                while self.peek().is_some_and(|b| b != b'\n') {
                    self.pos += 1;
                }
                continue;
            }
            let start = self.address()?;
            let mut end = None;
            if start.is_some() {
                self.skip_blanks();
                if self.peek() == Some(b',') {
                    self.pos += 1;
                    self.skip_blanks();
                    end = self.end_address()?;
                    if end.is_none() {
                        self.next();
                        return fail("unexpected `,'");
                    }
                }
            }
            self.skip_blanks();
            let mut negate = false;
            if self.peek() == Some(b'!') {
                self.pos += 1;
                negate = true;
                self.skip_blanks();
                if self.peek() == Some(b'!') {
                    self.pos += 1;
                    return fail("multiple `!'s");
                }
            }
            let Some(letter) = self.next() else {
                return fail("missing command");
            };
            let zero = matches!(start, Some(Address::Line(0) | Address::Step(0, 0)));
            if zero && !matches!((start, end), (Some(Address::Line(0)), Some(EndAddress::Regex(_)))) {
                return fail("invalid usage of line address 0");
            }
            let addresses = usize::from(start.is_some()) + usize::from(end.is_some());
            let action = match letter {
                b'{' => {
                    self.blocks.push(self.program.len());
                    Action::Block(0)
                }
                b'}' => {
                    let Some(open) = self.blocks.pop().filter(|_| addresses == 0) else {
                        return fail("unexpected `}'");
                    };
                    let after = self.program.len() + 1;
                    if let Some(command) = self.program.get_mut(open) {
                        command.action = Action::Block(after);
                    }
                    self.end_of_command()?;
                    Action::EndBlock
                }
                b'=' | b'd' | b'D' | b'g' | b'G' | b'h' | b'H' | b'n' | b'N' | b'p' | b'P' | b'x' | b'z' | b'F' => {
                    self.end_of_command()?;
                    simple_action(letter)
                }
                b'l' | b'L' => {
                    self.skip_blanks();
                    let width = self.number().map(|n| usize::try_from(n).unwrap_or(usize::MAX));
                    self.end_of_command()?;
                    Action::List(width)
                }
                b'q' | b'Q' => {
                    if addresses > 1 {
                        return fail("command only uses one address");
                    }
                    self.skip_blanks();
                    let code = self.number().map_or(0, |n| i32::try_from(n & 0xff).unwrap_or(0));
                    self.end_of_command()?;
                    if letter == b'q' {
                        Action::Quit(code)
                    } else {
                        Action::QuitSilently(code)
                    }
                }
                b'a' | b'i' | b'c' => {
                    let text = self.text_argument()?;
                    match letter {
                        b'a' => Action::Append(text),
                        b'i' => Action::Insert(text),
                        _ => Action::Change(text),
                    }
                }
                b':' => {
                    if addresses > 0 {
                        return fail(": doesn't want any addresses");
                    }
                    let label = self.label();
                    if label.is_empty() {
                        return fail("\":\" lacks a label");
                    }
                    labels.push((label, self.program.len()));
                    Action::Label
                }
                b'b' | b't' | b'T' => {
                    let label = self.label();
                    if !label.is_empty() {
                        jumps.push((self.program.len(), label));
                    }
                    let kind = match letter {
                        b'b' => BranchKind::Always,
                        b't' => BranchKind::IfReplaced,
                        _ => BranchKind::IfNotReplaced,
                    };
                    Action::Branch(kind, None)
                }
                b'r' | b'R' | b'w' | b'W' | b'e' if self.sandbox => return fail(SANDBOX_REFUSAL),
                b'r' | b'R' | b'w' | b'W' => {
                    let name = self.filename()?;
                    match letter {
                        b'r' => Action::ReadFile(name),
                        b'R' => Action::ReadLine(name),
                        b'w' => {
                            self.write_files.push(name.clone());
                            Action::WriteFile(name)
                        }
                        _ => {
                            self.write_files.push(name.clone());
                            Action::WriteFirstLine(name)
                        }
                    }
                }
                b's' => self.substitute()?,
                b'y' => self.translate()?,
                b'e' => return fail("e command not supported: the sandbox runs no processes"),
                b'v' => {
                    self.skip_blanks();
                    while self.peek().is_some_and(|b| !b.is_ascii_whitespace() && b != b';' && b != b'}') {
                        self.pos += 1;
                    }
                    self.end_of_command()?;
                    Action::Label
                }
                b'#' => return fail("comments don't accept any addresses"),
                other => {
                    let shown = String::from_utf8_lossy(&[other]).into_owned();
                    return fail(format!("unknown command: `{shown}'"));
                }
            };
            self.program.push(Command { start, end, negate, action });
        }
        for (index, label) in jumps {
            let Some((_, target)) = labels.iter().find(|(name, _)| *name == label) else {
                return Err(Failure { message: format!("can't find label for jump to `{label}'"), place: Place::Nowhere });
            };
            if let Some(Command { action: Action::Branch(_, slot), .. }) = self.program.get_mut(index) {
                *slot = Some(*target);
            }
        }
        Ok(())
    }

    /// After a command: blanks, then the end of the script or line, `;`,
    /// or a `}` or `#` (left for the next round).
    fn end_of_command(&mut self) -> Result<(), Failure> {
        self.skip_blanks();
        match self.peek() {
            None | Some(b'}') | Some(b'#') => Ok(()),
            Some(b'\n') | Some(b';') => {
                self.pos += 1;
                Ok(())
            }
            Some(_) => {
                self.pos += 1;
                fail("extra characters after command")
            }
        }
    }

    fn address(&mut self) -> Result<Option<Address>, Failure> {
        match self.peek() {
            Some(b'0'..=b'9') => {
                let first = self.number().unwrap_or(0);
                if self.peek() == Some(b'~') {
                    self.pos += 1;
                    let step = self.number().unwrap_or(0);
                    return Ok(Some(Address::Step(first, step)));
                }
                Ok(Some(Address::Line(first)))
            }
            Some(b'$') => {
                self.pos += 1;
                Ok(Some(Address::Last))
            }
            Some(b'/') | Some(b'\\') => Ok(Some(Address::Regex(self.address_regex()?))),
            _ => Ok(None),
        }
    }

    fn end_address(&mut self) -> Result<Option<EndAddress>, Failure> {
        match self.peek() {
            Some(b'0'..=b'9') => Ok(Some(EndAddress::Line(self.number().unwrap_or(0)))),
            Some(b'+') | Some(b'~') => {
                let plus = self.next() == Some(b'+');
                let Some(count) = self.number() else {
                    return fail("expected newer version of sed");
                };
                Ok(Some(if plus { EndAddress::Plus(count) } else { EndAddress::Multiple(count) }))
            }
            Some(b'$') => {
                self.pos += 1;
                Ok(Some(EndAddress::Last))
            }
            Some(b'/') | Some(b'\\') => Ok(Some(EndAddress::Regex(self.address_regex()?))),
            _ => Ok(None),
        }
    }

    /// `/re/` or `\cREc`, with `I` and `M` flags.
    fn address_regex(&mut self) -> Result<RegexRef, Failure> {
        let mut delimiter = self.next().unwrap_or(b'/');
        if delimiter == b'\\' {
            match self.next() {
                Some(b'\n') | None => return fail("unterminated address regex"),
                Some(byte) => delimiter = byte,
            }
        }
        let Some(pattern) = self.delimited(delimiter, true) else {
            return fail("unterminated address regex");
        };
        let (mut ignore_case, mut multiline) = (false, false);
        loop {
            match self.peek() {
                Some(b'I') => ignore_case = true,
                Some(b'M') => multiline = true,
                _ => break,
            }
            self.pos += 1;
        }
        self.compile(&pattern, ignore_case, multiline)
    }

    fn compile(&mut self, pattern: &[u8], ignore_case: bool, multiline: bool) -> Result<RegexRef, Failure> {
        if pattern.is_empty() {
            if self.regexes.is_empty() {
                return Err(Failure { message: "no previous regular expression".to_string(), place: Place::Start });
            }
            return Ok(None);
        }
        let syntax = Syntax { extended: self.extended, glibc: true, sed_escapes: true, ignore_case, multiline, ..Syntax::default() };
        match Regex::new(pattern, &syntax) {
            Ok(regex) => {
                self.regexes.push(regex);
                Ok(Some(self.regexes.len() - 1))
            }
            Err(error) => fail(regex_message(&error)),
        }
    }

    /// Reads up to an unescaped `delimiter`. `\delimiter` becomes the bare
    /// delimiter; in a regex (`regex`), `\n` stays for the regex parser,
    /// and a newline ends the text unterminated. `None` when unterminated.
    fn delimited(&mut self, delimiter: u8, regex: bool) -> Option<Vec<u8>> {
        let mut out = Vec::new();
        loop {
            let byte = self.next()?;
            if byte == delimiter {
                return Some(out);
            }
            if byte == b'\n' && regex {
                return None;
            }
            if byte == b'[' && regex {
                out.push(byte);
                self.bracket_body(&mut out)?;
                continue;
            }
            if byte == b'\\' {
                let escaped = self.next()?;
                if escaped == delimiter && delimiter != b'\n' {
                    out.push(escaped);
                } else if escaped == b'\n' && !regex {
                    out.extend_from_slice(b"\\\n");
                } else if escaped == b'n' && delimiter == b'n' {
                    out.push(b'n');
                } else {
                    out.push(b'\\');
                    out.push(escaped);
                }
                continue;
            }
            out.push(byte);
        }
    }

    /// Copies a bracket expression after its `[`: the delimiter and
    /// backslashes inside it are ordinary. `None` when it never closes.
    fn bracket_body(&mut self, out: &mut Vec<u8>) -> Option<()> {
        let mut first = true;
        loop {
            let byte = self.next()?;
            out.push(byte);
            match byte {
                b'^' if first && out.len() >= 2 && out[out.len() - 2] == b'[' => continue,
                b']' if !first => return Some(()),
                b'[' if matches!(self.peek(), Some(b':' | b'.' | b'=')) => {
                    let kind = self.next()?;
                    out.push(kind);
                    loop {
                        let inner = self.next()?;
                        out.push(inner);
                        if inner == kind && self.peek() == Some(b']') {
                            out.push(self.next()?);
                            break;
                        }
                        if inner == b'\n' {
                            return None;
                        }
                    }
                }
                b'\n' => return None,
                _ => {}
            }
            first = false;
        }
    }

    fn substitute(&mut self) -> Result<Action, Failure> {
        let delimiter = match self.next() {
            None | Some(b'\n') | Some(b'\\') => return fail("unterminated `s' command"),
            Some(byte) => byte,
        };
        let Some(pattern) = self.delimited(delimiter, true) else {
            return fail("unterminated `s' command");
        };
        let Some(raw_replacement) = self.delimited(delimiter, false) else {
            return fail("unterminated `s' command");
        };
        let mut substitute = Substitute { regex: None, replacement: Vec::new(), global: false, occurrence: 1, print: false, write: None };
        let (mut ignore_case, mut multiline, mut numbered) = (false, false, false);
        loop {
            match self.peek() {
                Some(b'g') => {
                    self.pos += 1;
                    if substitute.global {
                        return fail("multiple `g' options to `s' command");
                    }
                    substitute.global = true;
                }
                Some(b'p') => {
                    self.pos += 1;
                    if substitute.print {
                        return fail("multiple `p' options to `s' command");
                    }
                    substitute.print = true;
                }
                Some(b'i') | Some(b'I') => {
                    self.pos += 1;
                    ignore_case = true;
                }
                Some(b'm') | Some(b'M') => {
                    self.pos += 1;
                    multiline = true;
                }
                Some(b'e') => {
                    self.pos += 1;
                    return fail("e flag not supported: the sandbox runs no processes");
                }
                Some(b'0'..=b'9') => {
                    if numbered {
                        self.number();
                        return fail("multiple number options to `s' command");
                    }
                    let value = self.number().unwrap_or(0);
                    if value == 0 {
                        return fail("number option to `s' command may not be zero");
                    }
                    substitute.occurrence = value;
                    numbered = true;
                }
                Some(b'w') => {
                    self.pos += 1;
                    if self.sandbox {
                        return fail(SANDBOX_REFUSAL);
                    }
                    let name = self.filename()?;
                    self.write_files.push(name.clone());
                    substitute.write = Some(name);
                    break;
                }
                None | Some(b'\n') | Some(b';') | Some(b'}') | Some(b'#') | Some(b' ') | Some(b'\t') => {
                    self.end_of_command()?;
                    break;
                }
                Some(_) => {
                    self.pos += 1;
                    return fail("unknown option to `s'");
                }
            }
        }
        substitute.regex = self.compile(&pattern, ignore_case, multiline)?;
        let groups = substitute.regex.and_then(|index| self.regexes.get(index)).map(Regex::groups);
        substitute.replacement = parse_replacement(&raw_replacement, groups).map_err(|message| Failure { message, place: Place::Here })?;
        Ok(Action::Substitute(Box::new(substitute)))
    }

    fn translate(&mut self) -> Result<Action, Failure> {
        let delimiter = match self.next() {
            None | Some(b'\n') | Some(b'\\') => return fail("unterminated `y' command"),
            Some(byte) => byte,
        };
        let mut sides = Vec::new();
        for _ in 0..2 {
            let mut chars = Vec::new();
            loop {
                let Some(byte) = self.next() else {
                    return fail("unterminated `y' command");
                };
                if byte == delimiter {
                    break;
                }
                let byte = if byte == b'\\' {
                    match self.next() {
                        Some(b'n') => b'\n',
                        Some(b't') => b'\t',
                        Some(b'\\') => b'\\',
                        Some(other) if other == delimiter => other,
                        Some(b'\n') => b'\n',
                        _ => return fail("unknown option to `y'"),
                    }
                } else {
                    byte
                };
                chars.push(byte);
            }
            sides.push(String::from_utf8_lossy(&chars).chars().collect::<Vec<char>>());
        }
        let (from, to) = (sides.first().cloned().unwrap_or_default(), sides.get(1).cloned().unwrap_or_default());
        if from.len() != to.len() {
            return fail("strings for `y' command are different lengths");
        }
        self.end_of_command()?;
        Ok(Action::Translate(from.into_iter().zip(to).collect()))
    }

    /// The text of `a`, `i`, `c`: the one-line GNU form or the classic
    /// `a\` followed by lines ending in `\`.
    fn text_argument(&mut self) -> Result<Vec<u8>, Failure> {
        self.skip_blanks();
        match self.peek() {
            None | Some(b'\n') => return fail("expected \\ after `a', `c' or `i'"),
            Some(b'\\') => {
                self.pos += 1;
                if self.peek() == Some(b'\n') {
                    self.pos += 1;
                }
            }
            _ => {}
        }
        let mut text = Vec::new();
        while let Some(byte) = self.next() {
            match byte {
                b'\n' => break,
                b'\\' => match self.next() {
                    Some(b't') => text.push(b'\t'),
                    Some(b'a') => text.push(0x07),
                    Some(b'f') => text.push(0x0c),
                    Some(b'v') => text.push(0x0b),
                    Some(b'r') => text.push(b'\r'),
                    Some(other) => text.push(other),
                    None => break,
                },
                other => text.push(other),
            }
        }
        if !text.is_empty() || self.text.get(self.pos.saturating_sub(1)) == Some(&b'\n') {
            text.push(b'\n');
        }
        Ok(text)
    }

    /// A label after `:`, `b`, `t`, `T`: up to a newline or `;`.
    fn label(&mut self) -> String {
        self.skip_blanks();
        let start = self.pos;
        while self.peek().is_some_and(|b| b != b'\n' && b != b';') {
            self.pos += 1;
        }
        let label = String::from_utf8_lossy(self.text.get(start..self.pos).unwrap_or(&[])).trim_end().to_string();
        if self.peek().is_some() {
            self.pos += 1;
        }
        label
    }

    /// A file name after `r`, `R`, `w`, `W`: the rest of the line.
    fn filename(&mut self) -> Result<String, Failure> {
        self.skip_blanks();
        let start = self.pos;
        while self.peek().is_some_and(|b| b != b'\n') {
            self.pos += 1;
        }
        let name = String::from_utf8_lossy(self.text.get(start..self.pos).unwrap_or(&[])).into_owned();
        if self.peek().is_some() {
            self.pos += 1;
        }
        if name.is_empty() {
            return fail("missing filename in r/R/w/W commands");
        }
        Ok(name)
    }
}

fn simple_action(letter: u8) -> Action {
    match letter {
        b'=' => Action::LineNumber,
        b'd' => Action::Delete,
        b'D' => Action::DeleteFirstLine,
        b'g' => Action::GetHold,
        b'G' => Action::AppendHold,
        b'h' => Action::Hold,
        b'H' => Action::AppendToHold,
        b'n' => Action::Next,
        b'N' => Action::AppendNext,
        b'p' => Action::Print,
        b'P' => Action::PrintFirstLine,
        b'x' => Action::Exchange,
        b'z' => Action::Zap,
        _ => Action::FileName,
    }
}

/// A regex compile error as sed words it.
fn regex_message(error: &RegexError) -> String {
    error.to_string()
}
