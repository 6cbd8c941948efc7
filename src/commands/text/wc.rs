//! `wc`: count lines, words, characters and bytes, and the longest line
//! (`-l -w -m -c -L`), with GNU's column widths and `total` line.

use crate::commands::common::{inputs, Input};
use crate::commands::options::{parse_or_report, Long, Spec};
use crate::commands::text::input::{open_or_report, OpenError};
use crate::host::LocalFuture;
use crate::io::READ_CHUNK;
use crate::utility::Invocation;

const SPEC: Spec = Spec::new(
    "clLmw",
    &[
        Long::flag("bytes", "c"),
        Long::flag("chars", "m"),
        Long::flag("lines", "l"),
        Long::flag("max-line-length", "L"),
        Long::flag("words", "w"),
    ],
);

/// The counts of one input, kept across chunks.
#[derive(Default, Clone, Copy)]
struct Counts {
    lines: u64,
    words: u64,
    chars: u64,
    bytes: u64,
    max_length: u64,
    line_length: u64,
    in_word: bool,
    /// Bytes still expected to complete a UTF-8 sequence.
    continuation: u8,
}

impl Counts {
    fn add(&mut self, chunk: &[u8]) {
        self.bytes += chunk.len() as u64;
        for &byte in chunk {
            if self.continuation > 0 && (0x80..0xC0).contains(&byte) {
                self.continuation -= 1;
                continue;
            }
            self.continuation = 0;
            match byte {
                b'\n' => {
                    self.lines += 1;
                    self.chars += 1;
                    self.max_length = self.max_length.max(self.line_length);
                    self.line_length = 0;
                    self.in_word = false;
                }
                b'\t' => {
                    self.chars += 1;
                    self.line_length += 8 - self.line_length % 8;
                    self.in_word = false;
                }
                b' ' | 0x0b | 0x0c | b'\r' => {
                    self.chars += 1;
                    if byte == b' ' {
                        self.line_length += 1;
                    }
                    self.in_word = false;
                }
                0x20..=0x7e => self.start_word(1),
                0xc2..=0xf4 => {
                    self.continuation = if byte >= 0xf0 {
                        3
                    } else if byte >= 0xe0 {
                        2
                    } else {
                        1
                    };
                    self.start_word(1);
                }
                0x80..=0xff => {}
                _ => self.chars += 1,
            }
        }
    }

    /// Counts only lines and bytes (what `-l` and `-c` need).
    fn add_lines_and_bytes(&mut self, chunk: &[u8]) {
        self.bytes += chunk.len() as u64;
        self.lines += chunk.iter().filter(|&&byte| byte == b'\n').count() as u64;
    }

    fn start_word(&mut self, width: u64) {
        self.chars += 1;
        self.line_length += width;
        if !self.in_word {
            self.in_word = true;
            self.words += 1;
        }
    }

    fn finish(&mut self) {
        self.max_length = self.max_length.max(self.line_length);
    }
}

/// Which counts to print, in GNU's column order.
struct Selection {
    lines: bool,
    words: bool,
    chars: bool,
    bytes: bool,
    max_length: bool,
}

impl Selection {
    fn values(&self, counts: &Counts) -> Vec<u64> {
        let mut values = Vec::new();
        let columns = [
            (self.lines, counts.lines),
            (self.words, counts.words),
            (self.chars, counts.chars),
            (self.bytes, counts.bytes),
            (self.max_length, counts.max_length),
        ];
        for (selected, value) in columns {
            if selected {
                values.push(value);
            }
        }
        values
    }

    fn how_many(&self) -> usize {
        [self.lines, self.words, self.chars, self.bytes, self.max_length].iter().filter(|s| **s).count()
    }
}

fn format_row(values: &[u64], width: usize, name: Option<&str>) -> Vec<u8> {
    let cells: Vec<String> = values.iter().map(|v| format!("{v:>width$}")).collect();
    let mut row = cells.join(" ");
    if let Some(name) = name {
        row.push(' ');
        row.push_str(name);
    }
    row.push('\n');
    row.into_bytes()
}

/// GNU's column width: digits of the regular files' total size, at least 7
/// when some input is not a regular file, 1 for one count of one input.
async fn column_width(ctx: &Invocation<'_>, list: &[Input], selection: &Selection) -> usize {
    if list.len() == 1 && selection.how_many() == 1 {
        return 1;
    }
    let mut minimum = 1;
    let mut total: u64 = 0;
    for input in list {
        match input {
            Input::File(name) if ctx.special_stream(name).is_none() => {
                if let Ok(metadata) = ctx.fs.metadata(&ctx.resolve(name)).await {
                    if metadata.is_dir() {
                        minimum = 7;
                    } else {
                        total += metadata.size;
                    }
                }
            }
            _ => minimum = 7,
        }
    }
    total.to_string().len().max(minimum)
}

/// Runs `wc [OPTION]... [FILE]...`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let parsed = match parse_or_report(ctx, &SPEC, 1).await {
            Ok(parsed) => parsed,
            Err(status) => return status,
        };
        let mut selection = Selection {
            lines: parsed.has("l"),
            words: parsed.has("w"),
            chars: parsed.has("m"),
            bytes: parsed.has("c"),
            max_length: parsed.has("L"),
        };
        if selection.how_many() == 0 {
            (selection.lines, selection.words, selection.bytes) = (true, true, true);
        }
        // Lines and bytes alone need no decoding: a vectorized newline count.
        let only_lines_and_bytes = !(selection.words || selection.chars || selection.max_length);
        let list = inputs(&parsed.operands);
        let width = column_width(ctx, &list, &selection).await;
        let mut status = 0;
        let mut total = Counts::default();
        for input in &list {
            let Some(stream) = open_or_report(ctx, input, OpenError::Plain).await else {
                status = 1;
                continue;
            };
            let mut counts = Counts::default();
            loop {
                match stream.read(READ_CHUNK).await {
                    Ok(chunk) if chunk.is_empty() => break,
                    Ok(chunk) if only_lines_and_bytes => counts.add_lines_and_bytes(&chunk),
                    Ok(chunk) => counts.add(&chunk),
                    Err(error) => {
                        ctx.report(&format!("{}: {error}", crate::commands::text::input::input_name(input))).await;
                        status = 1;
                        break;
                    }
                }
            }
            counts.finish();
            total.lines += counts.lines;
            total.words += counts.words;
            total.chars += counts.chars;
            total.bytes += counts.bytes;
            total.max_length = total.max_length.max(counts.max_length);
            let name = match input {
                Input::File(name) => Some(name.as_str()),
                Input::Stdin if parsed.operands.is_empty() => None,
                Input::Stdin => Some("-"),
            };
            if let Err(error) = ctx.write_out(&format_row(&selection.values(&counts), width, name)).await {
                return ctx.write_failed_with(error, |_| "write error".to_string(), 1).await;
            }
        }
        if list.len() > 1 {
            if let Err(error) = ctx.write_out(&format_row(&selection.values(&total), width, Some("total"))).await {
                return ctx.write_failed_with(error, |_| "write error".to_string(), 1).await;
            }
        }
        status
    })
}

#[cfg(test)]
mod tests {
    use crate::commands::test_support::{new_fs, run_utility};

    #[test]
    fn counts_stdin() {
        let fs = new_fs();
        assert_eq!(run_utility(&fs, &["wc"], b"a b\nc\n").stdout, "      2       3       6\n");
        assert_eq!(run_utility(&fs, &["wc", "-l"], b"a b\nc\n").stdout, "2\n");
        assert_eq!(run_utility(&fs, &["wc", "-L"], b"ab\tc\n").stdout, "9\n");
        assert_eq!(run_utility(&fs, &["wc", "-m"], "é\n".as_bytes()).stdout, "2\n");
    }
}
