//! bc's tokens, read one at a time so that errors come out in step with
//! the statements run before them.

/// One token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tok {
    /// A number constant as written (`12.5`, `FF`).
    Number(String),
    /// A name (`x`, `my_var`).
    Name(String),
    /// A string's bytes (without quotes).
    Str(Vec<u8>),
    /// A keyword (`while`, `scale`...).
    Key(&'static str),
    /// An operator or punctuation (`+=`, `(`, `;`...).
    Op(&'static str),
    /// A newline.
    Newline,
    /// The end of the input.
    Eof,
}

const KEYWORDS: &[&str] = &[
    "auto", "break", "continue", "define", "else", "for", "halt", "ibase", "if", "last", "length", "limits", "obase",
    "print", "quit", "read", "return", "scale", "sqrt", "void", "warranty", "while",
];

const OPERATORS: &[&str] = &[
    "++", "--", "+=", "-=", "*=", "/=", "%=", "^=", "==", "!=", "<=", ">=", "&&", "||", "+", "-", "*", "/", "%", "^",
    "=", "<", ">", "!", "(", ")", "[", "]", "{", "}", ",", ";",
];

/// A lexical error's message (`illegal character: @`), and whether it ends bc.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LexError {
    /// The message.
    pub message: String,
    /// True for errors printed without the `(file) N:` prefix that end the input.
    pub fatal: bool,
}

/// The token reader over the inputs, read as one stream (a statement may
/// run on from one file into the next, as in GNU bc).
pub struct Lexer<'a> {
    src: &'a [u8],
    pos: usize,
    /// Where each input starts, and its name in messages.
    inputs: &'a [(usize, String)],
    input: usize,
    /// The current line number (1-based), counted as newlines are read.
    pub line: u32,
}

impl<'a> Lexer<'a> {
    /// A lexer over `src`, made of `inputs` (start offset and name each).
    pub fn new(src: &'a [u8], inputs: &'a [(usize, String)]) -> Self {
        Lexer { src, pos: 0, inputs, input: 0, line: 1 }
    }

    /// The name of the input being read, as messages show it.
    pub fn file(&self) -> &str {
        self.inputs.get(self.input).map(|(_, name)| name.as_str()).unwrap_or("(standard_in)")
    }

    fn sync_input(&mut self) {
        while let Some((start, _)) = self.inputs.get(self.input + 1) {
            if self.pos < *start {
                break;
            }
            self.input += 1;
            self.line = 1;
        }
    }

    fn peek_byte(&self, offset: usize) -> Option<u8> {
        self.src.get(self.pos + offset).copied()
    }

    /// Skips to just past the next newline (error recovery).
    pub fn skip_line(&mut self) {
        while let Some(b) = self.peek_byte(0) {
            self.pos += 1;
            if b == b'\n' {
                self.line += 1;
                return;
            }
        }
    }

    /// The next token.
    pub fn next(&mut self) -> Result<Tok, LexError> {
        loop {
            self.sync_input();
            let Some(b) = self.peek_byte(0) else {
                self.line = 1;
                self.input = self.inputs.len().saturating_sub(1);
                return Ok(Tok::Eof);
            };
            match b {
                b' ' | b'\t' | 0x0b | 0x0c => self.pos += 1,
                b'\\' if self.peek_byte(1) == Some(b'\n') => {
                    self.pos += 2;
                    self.line += 1;
                }
                b'#' => {
                    while let Some(c) = self.peek_byte(0) {
                        if c == b'\n' {
                            break;
                        }
                        self.pos += 1;
                    }
                }
                b'/' if self.peek_byte(1) == Some(b'*') => {
                    self.pos += 2;
                    loop {
                        match self.peek_byte(0) {
                            None => return Err(LexError { message: "EOF encountered in a comment.".into(), fatal: true }),
                            Some(b'*') if self.peek_byte(1) == Some(b'/') => {
                                self.pos += 2;
                                break;
                            }
                            Some(c) => {
                                if c == b'\n' {
                                    self.line += 1;
                                }
                                self.pos += 1;
                            }
                        }
                    }
                }
                _ => break,
            }
        }
        let start = self.pos;
        let b = self.src[start];
        if b == b'\n' {
            self.pos += 1;
            self.line += 1;
            return Ok(Tok::Newline);
        }
        if b == b'"' {
            let Some(len) = self.src[start + 1..].iter().position(|&c| c == b'"') else {
                self.pos += 1;
                return Err(LexError { message: "illegal character: \"".into(), fatal: false });
            };
            let body = self.src[start + 1..start + 1 + len].to_vec();
            self.line += body.iter().filter(|&&c| c == b'\n').count() as u32;
            self.pos = start + len + 2;
            return Ok(Tok::Str(body));
        }
        let is_digit = |c: u8| c.is_ascii_digit() || c.is_ascii_uppercase();
        if is_digit(b) || (b == b'.' && self.peek_byte(1).is_some_and(is_digit)) {
            let mut text = String::new();
            let mut seen_dot = false;
            while let Some(c) = self.peek_byte(0) {
                if is_digit(c) || (c == b'.' && !seen_dot) {
                    seen_dot |= c == b'.';
                    text.push(char::from(c));
                    self.pos += 1;
                } else if c == b'\\' && self.peek_byte(1) == Some(b'\n') {
                    self.pos += 2;
                    self.line += 1;
                } else {
                    break;
                }
            }
            // GNU bc drops leading zeros from constants (`007` is `7`, `0.5` is `.5`).
            let trimmed = text.trim_start_matches('0');
            let text = if trimmed.is_empty() { "0".to_string() } else { trimmed.to_string() };
            return Ok(Tok::Number(text));
        }
        if b == b'.' {
            self.pos += 1;
            return Ok(Tok::Key("last"));
        }
        if b.is_ascii_lowercase() {
            let len = self.src[start..].iter().take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || **c == b'_').count();
            self.pos += len;
            let word = String::from_utf8_lossy(&self.src[start..start + len]).into_owned();
            if let Some(key) = KEYWORDS.iter().find(|k| **k == word) {
                return Ok(Tok::Key(key));
            }
            return Ok(Tok::Name(word));
        }
        for op in OPERATORS {
            if self.src[start..].starts_with(op.as_bytes()) {
                self.pos += op.len();
                return Ok(Tok::Op(op));
            }
        }
        self.pos += 1;
        let shown = match b {
            0x20..=0x7e => char::from(b).to_string(),
            0x80.. => format!("\\{b:03o}"),
            _ => format!("^{}", char::from(b ^ 0x40)),
        };
        Err(LexError { message: format!("illegal character: {shown}"), fatal: false })
    }
}
