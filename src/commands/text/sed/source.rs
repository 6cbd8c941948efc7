//! sed's input: the lines of its files one after another, read one line
//! ahead so `$` is known, with the files that cannot be read reported.

use crate::commands::common::{open_input, Input};
use crate::commands::text::input::LineReader;
use crate::utility::Invocation;
use std::collections::VecDeque;
use std::rc::Rc;

/// A line of input.
pub struct Line {
    /// The text without its delimiter.
    pub text: Vec<u8>,
    /// Whether the delimiter was there (the last line may lack it).
    pub terminated: bool,
}

/// The lines of a list of inputs.
pub struct Source {
    pending: VecDeque<String>,
    reader: Option<LineReader>,
    /// The name of the file the current reader reads (`-` for stdin).
    reading: Rc<str>,
    /// The name of the file the last returned line came from.
    pub current: Rc<str>,
    lookahead: Option<(Line, Rc<str>)>,
    delimiter: u8,
    /// Some input could not be opened (exit status 2).
    pub failed: bool,
    /// Reading failed; sed stops (exit status 4).
    pub read_error: bool,
}

impl Source {
    /// A source over the named inputs (`-` is standard input).
    pub fn new(names: Vec<String>, delimiter: u8) -> Source {
        Source {
            pending: names.into(),
            reader: None,
            reading: Rc::from(""),
            current: Rc::from("-"),
            lookahead: None,
            delimiter,
            failed: false,
            read_error: false,
        }
    }

    async fn read_raw(&mut self, ctx: &Invocation<'_>) -> Option<(Line, Rc<str>)> {
        loop {
            if let Some(reader) = self.reader.as_mut() {
                match reader.next_line().await {
                    Ok(Some(mut text)) => {
                        let terminated = text.last() == Some(&self.delimiter);
                        if terminated {
                            text.pop();
                        }
                        return Some((Line { text, terminated }, self.reading.clone()));
                    }
                    Ok(None) => self.reader = None,
                    Err(()) => {
                        ctx.report(&format!("read error on {}: Input/output error", self.reading)).await;
                        self.read_error = true;
                        self.pending.clear();
                        self.reader = None;
                        return None;
                    }
                }
            }
            let name = self.pending.pop_front()?;
            let input = if name == "-" { Input::Stdin } else { Input::File(name.clone()) };
            match open_input(ctx, &input).await {
                Ok(stream) => {
                    self.reader = Some(LineReader::new(stream, self.delimiter));
                    self.reading = Rc::from(name.as_str());
                }
                Err(crate::fs::FsError::IsADirectory) => {
                    ctx.report(&format!("read error on {name}: Is a directory")).await;
                    self.read_error = true;
                    self.pending.clear();
                    return None;
                }
                Err(error) => {
                    ctx.report(&format!("can't read {name}: {error}")).await;
                    self.failed = true;
                }
            }
        }
    }

    /// The next line, or `None` at the end of all inputs.
    pub async fn next_line(&mut self, ctx: &Invocation<'_>) -> Option<Line> {
        let (line, name) = match self.lookahead.take() {
            Some(found) => found,
            None => self.read_raw(ctx).await?,
        };
        self.current = name;
        Some(line)
    }

    /// True when no line follows the last one returned.
    pub async fn at_end(&mut self, ctx: &Invocation<'_>) -> bool {
        if self.lookahead.is_none() {
            self.lookahead = self.read_raw(ctx).await;
        }
        self.lookahead.is_none()
    }
}
