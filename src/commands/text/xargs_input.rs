//! Reading `xargs` arguments from its input, as they arrive: blank-separated
//! words with quotes and backslashes (the default), whole lines (`-I`),
//! or items ended by a delimiter with no quoting (`-0`, `-d`).

use crate::io::{Fd, READ_CHUNK};

/// How the input is cut into arguments.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Splitting {
    /// Blank-separated words; `'`, `"` and `\` quote.
    Words,
    /// One argument per line, leading blanks dropped, quotes still honoured (`-I`).
    Lines,
    /// Items ended by this byte, taken literally (`-0`, `-d`).
    Delimited(u8),
}

/// One argument and whether an input line ended right after it (for `-L`).
pub struct Item {
    /// The argument's bytes.
    pub text: Vec<u8>,
    /// A logical line ended with this item.
    pub ends_line: bool,
}

/// A quoting error, with GNU's wording.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputError {
    /// `unmatched single quote`.
    SingleQuote,
    /// `unmatched double quote`.
    DoubleQuote,
    /// The input could not be read.
    Read,
}

impl InputError {
    /// The message after `xargs: `.
    pub fn message(self) -> &'static str {
        match self {
            InputError::SingleQuote => "unmatched single quote; by default quotes are special to xargs unless you use the -0 option",
            InputError::DoubleQuote => "unmatched double quote; by default quotes are special to xargs unless you use the -0 option",
            InputError::Read => "read error",
        }
    }
}

/// Pulls arguments out of a stream.
pub struct ItemReader {
    stream: Fd,
    buffer: Vec<u8>,
    position: usize,
    finished: bool,
    splitting: Splitting,
    /// A NUL byte appeared where quotes are honoured (GNU warns once).
    pub saw_nul: bool,
}

fn is_blank(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r')
}

impl ItemReader {
    /// A reader of `stream` cut by `splitting`.
    pub fn new(stream: Fd, splitting: Splitting) -> ItemReader {
        ItemReader { stream, buffer: Vec::new(), position: 0, finished: false, splitting, saw_nul: false }
    }

    async fn next_byte(&mut self) -> Result<Option<u8>, InputError> {
        if self.position >= self.buffer.len() {
            if self.finished {
                return Ok(None);
            }
            self.buffer = self.stream.read(READ_CHUNK).await.map_err(|_| InputError::Read)?;
            self.position = 0;
            if self.buffer.is_empty() {
                self.finished = true;
                return Ok(None);
            }
        }
        let byte = self.buffer.get(self.position).copied();
        self.position += 1;
        Ok(byte)
    }

    /// The next argument, `None` at the end of the input.
    pub async fn next_item(&mut self) -> Result<Option<Item>, InputError> {
        match self.splitting {
            Splitting::Delimited(delimiter) => {
                let mut text = Vec::new();
                loop {
                    match self.next_byte().await? {
                        None if text.is_empty() => return Ok(None),
                        None => return Ok(Some(Item { text, ends_line: true })),
                        Some(byte) if byte == delimiter => return Ok(Some(Item { text, ends_line: true })),
                        Some(byte) => text.push(byte),
                    }
                }
            }
            Splitting::Words | Splitting::Lines => self.next_quoted().await,
        }
    }

    /// A word (or, for `-I`, a line) with quotes and backslashes resolved.
    async fn next_quoted(&mut self) -> Result<Option<Item>, InputError> {
        let lines = self.splitting == Splitting::Lines;
        let mut text = Vec::new();
        let mut started = false;
        let mut previous: u8 = b'\n';
        loop {
            let Some(byte) = self.next_byte().await? else {
                return Ok(started.then_some(Item { text, ends_line: true }));
            };
            match byte {
                b'\n' => {
                    if started {
                        // A line ending in a blank continues on the next one,
                        // except for `-I`, which takes every line alone.
                        let ends_line = lines || !matches!(previous, b' ' | b'\t');
                        return Ok(Some(Item { text, ends_line }));
                    }
                }
                _ if !lines && is_blank(byte) => {
                    if started {
                        return Ok(Some(Item { text, ends_line: false }));
                    }
                }
                b' ' | b'\t' if lines && !started => {}
                b'\'' | b'"' => {
                    started = true;
                    loop {
                        match self.next_byte().await? {
                            None | Some(b'\n') => {
                                return Err(if byte == b'\'' { InputError::SingleQuote } else { InputError::DoubleQuote });
                            }
                            Some(inner) if inner == byte => break,
                            Some(inner) => text.push(inner),
                        }
                    }
                }
                b'\\' => {
                    started = true;
                    if let Some(escaped) = self.next_byte().await? {
                        text.push(escaped);
                    }
                }
                _ => {
                    started = true;
                    self.saw_nul |= byte == 0;
                    text.push(byte);
                }
            }
            previous = byte;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::Stream;

    fn items(input: &str, splitting: Splitting) -> Vec<String> {
        let mut reader = ItemReader::new(Stream::input(input.as_bytes().to_vec()), splitting);
        let mut out = Vec::new();
        while let Ok(Some(item)) = crate::executor::block_on(reader.next_item()) {
            out.push(String::from_utf8_lossy(&item.text).into_owned());
        }
        out
    }

    #[test]
    fn splits_words_lines_and_items() {
        assert_eq!(items("a 'b c' \"d e\" f\\ g\n", Splitting::Words), vec!["a", "b c", "d e", "f g"]);
        assert_eq!(items("  a b\nc\n", Splitting::Lines), vec!["a b", "c"]);
        assert_eq!(items("a,b,c", Splitting::Delimited(b',')), vec!["a", "b", "c"]);
        let mut reader = ItemReader::new(Stream::input(b"a 'b".to_vec()), Splitting::Words);
        assert!(crate::executor::block_on(reader.next_item()).is_ok());
        assert_eq!(crate::executor::block_on(reader.next_item()).err(), Some(InputError::SingleQuote));
    }
}
