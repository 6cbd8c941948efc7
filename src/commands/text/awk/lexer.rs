//! Splitting awk source into tokens. Whether `/` starts a regular
//! expression or divides depends on the token before it; newlines are
//! tokens, except after the tokens that let a statement go on (`,` `{`
//! `&&` `||` `do` `else`) and after a backslash.

use std::rc::Rc;

/// A token.
#[derive(Debug, Clone, PartialEq)]
pub enum Tok {
    /// A number.
    Num(f64),
    /// A string literal, escapes decoded.
    Str(Rc<[u8]>),
    /// A regular expression literal's text (between the slashes).
    Regex(Vec<u8>),
    /// gawk's typed regex constant `@/re/`: its text as written.
    TypedRegex(Vec<u8>),
    /// `@name`: an indirect function call through the variable `name`.
    Indirect(String),
    /// A name.
    Name(String),
    /// A name followed at once by `(` (a user function call).
    FuncName(String),
    /// A built-in function's name.
    Builtin(String),
    /// A keyword (`if`, `BEGIN`, `getline`...).
    Key(&'static str),
    /// Punctuation or an operator.
    Op(&'static str),
    /// A newline.
    Newline,
    /// End of the source.
    Eof,
}

/// A token with where it starts.
#[derive(Debug, Clone)]
pub struct Token {
    /// The token.
    pub tok: Tok,
    /// Byte offset of its start in the source.
    pub start: usize,
}

const KEYWORDS: &[&str] = &[
    "BEGIN",
    "END",
    "BEGINFILE",
    "ENDFILE",
    "function",
    "func",
    "if",
    "else",
    "while",
    "for",
    "do",
    "break",
    "continue",
    "next",
    "nextfile",
    "exit",
    "return",
    "delete",
    "in",
    "getline",
    "print",
    "printf",
    "switch",
    "case",
    "default",
];

/// Names of the built-in functions.
pub const BUILTINS: &[&str] = &[
    "length", "substr", "index", "split", "sub", "gsub", "gensub", "match", "sprintf", "tolower", "toupper", "int", "sqrt", "exp", "log",
    "sin", "cos", "atan2", "rand", "srand", "systime", "strftime", "mktime", "asort", "asorti", "patsplit", "and", "or", "xor", "lshift",
    "rshift", "compl", "strtonum", "typeof", "isarray", "close", "fflush", "system",
];

const OPS: &[&str] = &[
    "**=", "&&", "||", "==", "<=", ">=", "!=", "++", "--", "+=", "-=", "*=", "/=", "%=", "^=", ">>", "!~", "|&", "**", "{", "}", "(", ")",
    "[", "]", ";", ",", "+", "-", "*", "/", "%", "^", "!", ">", "<", "|", "?", ":", "~", "$", "=",
];

/// A lexing failure: the message and the byte offset for the caret.
#[derive(Debug)]
pub struct LexError {
    /// `unterminated string`...
    pub message: String,
    /// Where to point.
    pub at: usize,
}

/// The lexer over one source text.
pub struct Lexer<'a> {
    src: &'a [u8],
    pos: usize,
    last: Option<Tok>,
    /// Set by the parser when a `/` here must start a regex (after `~`...).
    pub want_regex: bool,
    /// Warnings about the source (plain escapes), with their offsets.
    pub warnings: Vec<(usize, String)>,
}

impl<'a> Lexer<'a> {
    /// A lexer at the start of `src`.
    pub fn new(src: &'a [u8]) -> Self {
        Lexer { src, pos: 0, last: None, want_regex: false, warnings: Vec::new() }
    }

    fn peek(&self) -> Option<u8> {
        self.src.get(self.pos).copied()
    }

    fn division_allowed(&self) -> bool {
        matches!(
            &self.last,
            Some(Tok::Num(_) | Tok::Str(_) | Tok::Name(_) | Tok::Builtin(_) | Tok::Key("getline") | Tok::Regex(_) | Tok::TypedRegex(_))
                | Some(Tok::Op(")" | "]" | "$" | "++" | "--"))
        )
    }

    /// The next token.
    pub fn next(&mut self) -> Result<Token, LexError> {
        let token = self.scan()?;
        self.last = Some(token.tok.clone());
        Ok(token)
    }

    fn scan(&mut self) -> Result<Token, LexError> {
        let continues = matches!(&self.last, Some(Tok::Op("," | "{" | "&&" | "||")) | Some(Tok::Key("do" | "else")));
        loop {
            match self.peek() {
                Some(b' ' | b'\t' | b'\r') => self.pos += 1,
                Some(b'\\') if matches!(self.src.get(self.pos + 1), Some(b'\n')) => self.pos += 2,
                Some(b'\\') if self.src.get(self.pos + 1) == Some(&b'\r') && self.src.get(self.pos + 2) == Some(&b'\n') => self.pos += 3,
                Some(b'#') => {
                    while !matches!(self.peek(), None | Some(b'\n')) {
                        self.pos += 1;
                    }
                }
                Some(b'\n') if continues => self.pos += 1,
                _ => break,
            }
        }
        let start = self.pos;
        let Some(c) = self.peek() else {
            return Ok(Token { tok: Tok::Eof, start });
        };
        let tok = match c {
            b'\n' => {
                self.pos += 1;
                Tok::Newline
            }
            b'"' => Tok::Str(self.string()?.into()),
            b'/' if self.want_regex || !self.division_allowed() => {
                self.want_regex = false;
                Tok::Regex(self.regex()?)
            }
            b'@' if self.src.get(self.pos + 1) == Some(&b'/') => {
                self.pos += 1;
                self.want_regex = false;
                let open = self.pos;
                self.regex().map_err(|error| LexError { at: open.saturating_sub(1), ..error })?;
                Tok::TypedRegex(self.src.get(open + 1..self.pos - 1).unwrap_or_default().to_vec())
            }
            b'@' if self.src.get(self.pos + 1).is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_') => {
                self.pos += 1;
                let name_start = self.pos;
                while self.peek().is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_') {
                    self.pos += 1;
                }
                Tok::Indirect(String::from_utf8_lossy(&self.src[name_start..self.pos]).into_owned())
            }
            b'@' => {
                self.pos += 1;
                Tok::Op("@")
            }
            b'0'..=b'9' | b'.' if c != b'.' || self.src.get(self.pos + 1).is_some_and(u8::is_ascii_digit) => Tok::Num(self.number()),
            c if c.is_ascii_alphabetic() || c == b'_' => {
                while self.peek().is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_') {
                    self.pos += 1;
                }
                let word = String::from_utf8_lossy(&self.src[start..self.pos]).into_owned();
                if let Some(key) = KEYWORDS.iter().find(|k| **k == word) {
                    Tok::Key(if *key == "func" { "function" } else { key })
                } else if BUILTINS.contains(&word.as_str()) {
                    Tok::Builtin(word)
                } else if self.peek() == Some(b'(') {
                    Tok::FuncName(word)
                } else {
                    Tok::Name(word)
                }
            }
            _ => {
                let rest = &self.src[self.pos..];
                match OPS.iter().find(|op| rest.starts_with(op.as_bytes())) {
                    Some(op) => {
                        self.pos += op.len();
                        match *op {
                            "**" => Tok::Op("^"),
                            "**=" => Tok::Op("^="),
                            op => Tok::Op(op),
                        }
                    }
                    None => {
                        self.pos += 1;
                        return Err(LexError { message: format!("invalid char '{}' in expression", char::from(c)), at: start });
                    }
                }
            }
        };
        Ok(Token { tok, start })
    }

    fn number(&mut self) -> f64 {
        let start = self.pos;
        let src = self.src;
        if src.get(start) == Some(&b'0')
            && matches!(src.get(start + 1), Some(b'x' | b'X'))
            && src.get(start + 2).is_some_and(u8::is_ascii_hexdigit)
        {
            self.pos += 2;
            let mut value = 0f64;
            while let Some(d) = self.peek().and_then(|c| char::from(c).to_digit(16)) {
                value = value * 16.0 + f64::from(d);
                self.pos += 1;
            }
            return value;
        }
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
        }
        let int_end = self.pos;
        if self.peek() == Some(b'.') {
            self.pos += 1;
            while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                self.pos += 1;
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            let save = self.pos;
            self.pos += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            if self.peek().is_some_and(|c| c.is_ascii_digit()) {
                while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                    self.pos += 1;
                }
            } else {
                self.pos = save;
            }
        }
        let text = std::str::from_utf8(&src[start..self.pos]).unwrap_or("0");
        let digits = &src[start..int_end];
        if int_end == self.pos && digits.len() > 1 && digits[0] == b'0' && digits.iter().all(|d| (b'0'..=b'7').contains(d)) {
            return digits[1..].iter().fold(0f64, |acc, d| acc * 8.0 + f64::from(d - b'0'));
        }
        text.parse().unwrap_or(0.0)
    }

    fn string(&mut self) -> Result<Vec<u8>, LexError> {
        let start = self.pos;
        self.pos += 1;
        let mut out = Vec::new();
        loop {
            let Some(c) = self.peek() else {
                return Err(LexError { message: "unterminated string".into(), at: start });
            };
            self.pos += 1;
            match c {
                b'"' => return Ok(out),
                b'\n' => return Err(LexError { message: "unterminated string".into(), at: start }),
                b'\\' => {
                    let Some(e) = self.peek() else {
                        return Err(LexError { message: "unterminated string".into(), at: start });
                    };
                    if e == b'\n' {
                        self.pos += 1;
                        continue;
                    }
                    let (bytes, used) = escape(&self.src[self.pos..]);
                    if !b"ntr\\\"abfv01234567x".contains(&e) || (e == b'x' && bytes == b"\\x") {
                        let shown = String::from_utf8_lossy(&self.src[self.pos..self.pos + used.max(1)]).into_owned();
                        self.warnings.push((start, format!("escape sequence `\\{shown}' treated as plain `{shown}'")));
                    }
                    out.extend_from_slice(&bytes);
                    self.pos += used;
                }
                c => out.push(c),
            }
        }
    }

    fn regex(&mut self) -> Result<Vec<u8>, LexError> {
        let start = self.pos;
        self.pos += 1;
        let mut out = Vec::new();
        let mut in_bracket = false;
        loop {
            let Some(c) = self.peek() else {
                return Err(LexError { message: "unterminated regexp".into(), at: start + 1 });
            };
            self.pos += 1;
            match c {
                b'\n' => return Err(LexError { message: "unterminated regexp".into(), at: start + 1 }),
                b'\\' => match self.peek() {
                    Some(b'/') => {
                        out.push(b'/');
                        self.pos += 1;
                    }
                    Some(b'\n') => self.pos += 1,
                    Some(e) => {
                        out.push(b'\\');
                        out.push(e);
                        self.pos += 1;
                    }
                    None => out.push(b'\\'),
                },
                b'[' if !in_bracket => {
                    in_bracket = true;
                    out.push(c);
                    if self.peek() == Some(b'^') {
                        out.push(b'^');
                        self.pos += 1;
                    }
                    if self.peek() == Some(b']') {
                        out.push(b']');
                        self.pos += 1;
                    }
                }
                b'[' if in_bracket && matches!(self.peek(), Some(b':' | b'.' | b'=')) => {
                    let kind = self.src[self.pos];
                    out.push(c);
                    while let Some(d) = self.peek() {
                        out.push(d);
                        self.pos += 1;
                        if d == b']' && out.len() >= 2 && out[out.len() - 2] == kind && out.len() > 3 {
                            break;
                        }
                        if d == b'\n' {
                            break;
                        }
                    }
                }
                b']' if in_bracket => {
                    in_bracket = false;
                    out.push(c);
                }
                b'/' if !in_bracket => return Ok(out),
                c => out.push(c),
            }
        }
    }
}

/// Decodes the escape after a backslash in a string (`n`, `t`, `\`, octal,
/// `x` hex...): the bytes it stands for and how many source bytes it used.
pub fn escape(rest: &[u8]) -> (Vec<u8>, usize) {
    let Some(&e) = rest.first() else {
        return (vec![b'\\'], 0);
    };
    let byte = match e {
        b'n' => b'\n',
        b't' => b'\t',
        b'r' => b'\r',
        b'\\' => b'\\',
        b'"' => b'"',
        b'/' => b'/',
        b'a' => 7,
        b'b' => 8,
        b'f' => 12,
        b'v' => 11,
        b'0'..=b'7' => {
            let mut value = 0u32;
            let mut used = 0;
            while used < 3 && rest.get(used).is_some_and(|d| (b'0'..=b'7').contains(d)) {
                value = value * 8 + u32::from(rest[used] - b'0');
                used += 1;
            }
            return (vec![(value & 0xff) as u8], used);
        }
        b'x' => {
            let mut value = 0u32;
            let mut used = 1;
            while used < 3 && rest.get(used).is_some_and(u8::is_ascii_hexdigit) {
                value = value * 16 + char::from(rest[used]).to_digit(16).unwrap_or(0);
                used += 1;
            }
            if used == 1 {
                return (b"\\x".to_vec(), 1);
            }
            return (vec![(value & 0xff) as u8], used);
        }
        other => return (vec![other], 1),
    };
    (vec![byte], 1)
}
