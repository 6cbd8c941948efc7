//! Reading whole operands (a file, or standard input for `-`) and naming
//! them in diagnostics the way GNU tools quote file names.

use crate::commands::common::{open_input, Input};
use crate::fs::FsError;
use crate::io::{Fd, IoError};
use crate::utility::Invocation;

/// Why an operand could not be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadError {
    /// Opening or reading failed in the filesystem.
    Fs(FsError),
    /// The stream itself failed.
    Io(IoError),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Fs(error) => write!(f, "{error}"),
            ReadError::Io(IoError::Fs(error)) => write!(f, "{error}"),
            ReadError::Io(error) => write!(f, "{error}"),
        }
    }
}

/// The input an operand names: `-` is standard input.
pub fn input_for(operand: &str) -> Input {
    if operand == "-" {
        Input::Stdin
    } else {
        Input::File(operand.to_string())
    }
}

/// Opens an operand as a stream (directories give EISDIR).
pub async fn open_operand(ctx: &Invocation<'_>, operand: &str) -> Result<Fd, ReadError> {
    open_input(ctx, &input_for(operand)).await.map_err(ReadError::Fs)
}

/// Reads an operand whole.
pub async fn read_operand(ctx: &Invocation<'_>, operand: &str) -> Result<Vec<u8>, ReadError> {
    let stream = open_operand(ctx, operand).await?;
    stream.read_to_end().await.map_err(ReadError::Io)
}

/// Quotes a file name for a diagnostic as GNU's `quotef` does in the C
/// locale: unchanged when every byte is safe, else in single quotes with
/// embedded quotes written `'\''`.
pub fn quote_name(name: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "_./%+,:=@^-".contains(c) || (!c.is_ascii() && !c.is_control());
    if !name.is_empty() && name.chars().all(safe) {
        return name.to_string();
    }
    format!("'{}'", name.replace('\'', "'\\''"))
}

/// Quotes a value for a diagnostic as GNU's `quote` does in the C locale.
pub fn quote_value(value: &str) -> String {
    format!("'{value}'")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_only_when_needed() {
        assert_eq!(quote_name("a.txt"), "a.txt");
        assert_eq!(quote_name("we\\ird"), "'we\\ird'");
        assert_eq!(quote_name("it's"), "'it'\\''s'");
        assert_eq!(quote_name("a b"), "'a b'");
    }
}
