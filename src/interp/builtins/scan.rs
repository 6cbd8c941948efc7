//! The option scanner the builtins share (bash's `internal_getopt`):
//! letters bundle (`-rs`), a letter marked `:` in the spec takes its
//! argument joined (`-d,`) or as the next word (`-d ,`), `--` ends the
//! options, and the first word that is not an option (or `-` alone) starts
//! the operands. Errors print bash's `NAME: -x: invalid option` or
//! `NAME: -x: option requires an argument` and the builtin's usage line.

use super::super::{Outcome, Shell};

/// The options found (letter and argument) and the index of the first operand.
pub struct Scanned {
    /// `(letter, argument)` in command-line order.
    pub options: Vec<(char, Option<String>)>,
    /// Index in the words of the first operand.
    pub rest: usize,
}

/// Why a command line was refused.
#[derive(Debug, PartialEq, Eq)]
pub enum ScanError {
    /// A letter the spec does not list.
    Invalid(char),
    /// A letter that takes an argument, at the end of the words.
    Missing(char),
}

/// Scans `words` (the builtin's name first) against `spec` (`"a:d:rs"`).
pub fn scan(words: &[String], spec: &str) -> Result<Scanned, ScanError> {
    let mut options = Vec::new();
    let mut index = 1;
    while let Some(word) = words.get(index) {
        if word == "--" {
            index += 1;
            break;
        }
        if !word.starts_with('-') || word.len() == 1 {
            break;
        }
        let letters: Vec<(usize, char)> = word.char_indices().skip(1).collect();
        for &(at, letter) in &letters {
            let Some(position) = spec.find(letter).filter(|_| letter != ':') else {
                return Err(ScanError::Invalid(letter));
            };
            if spec[position + letter.len_utf8()..].starts_with(':') {
                let joined = &word[at + letter.len_utf8()..];
                let value = if joined.is_empty() {
                    index += 1;
                    words.get(index).cloned().ok_or(ScanError::Missing(letter))?
                } else {
                    joined.to_string()
                };
                options.push((letter, Some(value)));
                break;
            }
            options.push((letter, None));
        }
        index += 1;
    }
    Ok(Scanned { options, rest: index })
}

impl Shell {
    /// Scans a builtin's words, reporting a bad command line as bash does
    /// (the message, then `usage`); `Err` carries the status 2 to return.
    pub(super) async fn scan_options(&mut self, words: &[String], spec: &str, usage: &str) -> Result<Scanned, Outcome> {
        match scan(words, spec) {
            Ok(scanned) => Ok(scanned),
            Err(error) => {
                let name = words.first().map(String::as_str).unwrap_or("");
                let message = match error {
                    ScanError::Invalid(letter) => format!("-{letter}: invalid option"),
                    ScanError::Missing(letter) => format!("-{letter}: option requires an argument"),
                };
                self.builtin_error(name, &message).await;
                let _ = self.write_fd(2, format!("{name}: usage: {usage}\n").as_bytes()).await;
                Err(Ok(2))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn joined_and_separate_arguments() {
        let scanned = scan(&words(&["mapfile", "-d,", "-t", "parts"]), "d:n:O:s:tu:C:c:").unwrap();
        assert_eq!(scanned.options, vec![('d', Some(",".into())), ('t', None)]);
        assert_eq!(scanned.rest, 3);
        let scanned = scan(&words(&["read", "-rd", "", "x"]), "a:d:rs").unwrap();
        assert_eq!(scanned.options, vec![('r', None), ('d', Some(String::new()))]);
        assert_eq!(scanned.rest, 3);
        let scanned = scan(&words(&["cd", "--", "-x"]), "LPe@").unwrap();
        assert_eq!(scanned.rest, 2);
        assert_eq!(scan(&words(&["cd", "-x"]), "LP").err(), Some(ScanError::Invalid('x')));
        assert_eq!(scan(&words(&["read", "-d"]), "d:").err(), Some(ScanError::Missing('d')));
    }
}
