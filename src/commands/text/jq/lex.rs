//! jq's tokens, read on demand from the program text (string literals are
//! read by the parser itself, since `\(...)` nests whole expressions).

use std::rc::Rc;

/// One token.
#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// An identifier or keyword (`map`, `if`, `mod::name`).
    Ident(Rc<str>),
    /// `.name`.
    Field(Rc<str>),
    /// `$name`.
    Var(Rc<str>),
    /// `@name`.
    Format(Rc<str>),
    /// A number literal, with its text.
    Num(f64, Rc<String>),
    /// The opening quote of a string.
    Quote,
    /// Punctuation and operators (`|`, `//=`, `?//`, `..`).
    Punct(&'static str),
    /// End of the program.
    Eof,
    /// A character jq does not know.
    Invalid(char),
}

const PUNCTS: &[&str] = &[
    "?//", "//=", "|=", "+=", "-=", "*=", "/=", "%=", "==", "!=", "<=", ">=", "//", "..", "|", ",", "+", "-", "*", "/", "%", "=", "<", ">",
    ".", "[", "]", "(", ")", "{", "}", ":", ";", "?",
];

/// A cursor over the program's characters.
pub struct Lexer {
    /// The program's characters.
    pub src: Vec<char>,
    /// The current position.
    pub pos: usize,
}

fn ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

fn ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

impl Lexer {
    /// A lexer over `text`.
    pub fn new(text: &str) -> Self {
        Lexer { src: text.chars().collect(), pos: 0 }
    }

    /// The character at `pos + ahead`.
    pub fn at(&self, ahead: usize) -> Option<char> {
        self.src.get(self.pos + ahead).copied()
    }

    /// Skips blanks and comments.
    pub fn skip_space(&mut self) {
        while let Some(c) = self.at(0) {
            if c.is_whitespace() {
                self.pos += 1;
            } else if c == '#' {
                while let Some(c) = self.at(0) {
                    if c == '\n' {
                        break;
                    }
                    if c == '\\' && self.at(1).is_some() {
                        self.pos += 1;
                    }
                    self.pos += 1;
                }
            } else {
                break;
            }
        }
    }

    /// The 1-based line of the current position.
    pub fn line(&self) -> usize {
        1 + self.src.iter().take(self.pos).filter(|c| **c == '\n').count()
    }

    fn word(&mut self) -> String {
        let mut s = String::new();
        while let Some(c) = self.at(0) {
            if ident_char(c) {
                s.push(c);
                self.pos += 1;
            } else if c == ':' && self.at(1) == Some(':') && self.at(2).is_some_and(ident_start) {
                s.push_str("::");
                self.pos += 2;
            } else {
                break;
            }
        }
        s
    }

    /// Reads the next token, returning it with the position it started at.
    pub fn next(&mut self) -> (Tok, usize) {
        self.skip_space();
        let start = self.pos;
        let Some(c) = self.at(0) else {
            return (Tok::Eof, start);
        };
        if c == '"' {
            self.pos += 1;
            return (Tok::Quote, start);
        }
        if ident_start(c) {
            return (Tok::Ident(Rc::from(self.word().as_str())), start);
        }
        if c == '$' && self.at(1).is_some_and(ident_start) {
            self.pos += 1;
            return (Tok::Var(Rc::from(self.word().as_str())), start);
        }
        if c == '@' && self.at(1).is_some_and(ident_start) {
            self.pos += 1;
            return (Tok::Format(Rc::from(self.word().as_str())), start);
        }
        if c == '.' && self.at(1).is_some_and(ident_start) {
            self.pos += 1;
            return (Tok::Field(Rc::from(self.word().as_str())), start);
        }
        if c.is_ascii_digit() || (c == '.' && self.at(1).is_some_and(|d| d.is_ascii_digit())) {
            let mut text = String::new();
            while let Some(d) = self.at(0) {
                if d.is_ascii_digit() || d == '.' {
                    text.push(d);
                    self.pos += 1;
                } else {
                    break;
                }
            }
            if matches!(self.at(0), Some('e' | 'E')) {
                let sign = matches!(self.at(1), Some('+' | '-'));
                let digit_at = if sign { 2 } else { 1 };
                if self.at(digit_at).is_some_and(|d| d.is_ascii_digit()) {
                    for _ in 0..digit_at {
                        text.push(self.at(0).unwrap_or('e'));
                        self.pos += 1;
                    }
                    while let Some(d) = self.at(0).filter(char::is_ascii_digit) {
                        text.push(d);
                        self.pos += 1;
                    }
                }
            }
            let value = text.parse::<f64>().unwrap_or(f64::NAN);
            return (Tok::Num(value, Rc::new(text)), start);
        }
        for p in PUNCTS {
            let len = p.chars().count();
            if self.src.get(self.pos..self.pos + len).is_some_and(|s| s.iter().copied().eq(p.chars())) {
                self.pos += len;
                return (Tok::Punct(p), start);
            }
        }
        self.pos += 1;
        (Tok::Invalid(c), start)
    }
}

/// How bison names a token in `unexpected ...`.
pub fn describe(tok: &Tok) -> String {
    match tok {
        Tok::Ident(name) => match &**name {
            "def" | "if" | "then" | "elif" | "else" | "end" | "as" | "reduce" | "foreach" | "try" | "catch" | "label" | "import"
            | "include" | "module" | "and" | "or" | "__loc__" => format!("{name}"),
            _ => "IDENT".to_string(),
        },
        Tok::Field(_) => "FIELD".to_string(),
        Tok::Var(_) => "'$'".to_string(),
        Tok::Format(_) => "FORMAT".to_string(),
        Tok::Num(..) => "LITERAL".to_string(),
        Tok::Quote => "QQSTRING_START".to_string(),
        Tok::Punct(p) => match *p {
            "?//" => "\"?//\"".to_string(),
            "//=" | "|=" | "+=" | "-=" | "*=" | "/=" | "%=" | "==" | "!=" | "<=" | ">=" | "//" | ".." => format!("{p}"),
            _ => format!("'{p}'"),
        },
        Tok::Eof => "end of file".to_string(),
        Tok::Invalid(_) => "INVALID_CHARACTER".to_string(),
    }
}
