//! `fold`: wrap lines at a width (`-w`, 80; `-N` too), counting columns
//! (tabs to multiples of 8, backspace, carriage return) or bytes (`-b`),
//! breaking after the last blank when `-s` asks. Streams.

use crate::commands::common::inputs;
use crate::commands::format::quote_locale;
use crate::commands::options::{parse, report_usage, Long, Spec};
use crate::commands::text::input::{open_or_report, OpenError};
use crate::commands::text::output::{status_of, Output};
use crate::host::LocalFuture;
use crate::io::READ_CHUNK;
use crate::utility::Invocation;

const SPEC: Spec = Spec::new("bsw:", &[Long::flag("bytes", "b"), Long::flag("spaces", "s"), Long::required("width", "w")]);

/// The folding state carried across chunks.
struct Folder {
    width: usize,
    bytes: bool,
    spaces: bool,
    column: usize,
    line: Vec<u8>,
}

impl Folder {
    fn advance(&self, column: usize, byte: u8) -> usize {
        if self.bytes {
            return column + 1;
        }
        match byte {
            8 => column.saturating_sub(1),
            b'\r' => 0,
            b'\t' => column + 8 - column % 8,
            _ => column + 1,
        }
    }

    /// Feeds one byte, appending finished output to `out`.
    fn feed(&mut self, byte: u8, out: &mut Vec<u8>) {
        if byte == b'\n' {
            out.extend_from_slice(&self.line);
            out.push(b'\n');
            self.line.clear();
            self.column = 0;
            return;
        }
        loop {
            self.column = self.advance(self.column, byte);
            if self.column <= self.width {
                break;
            }
            if self.spaces {
                if let Some(blank) = self.line.iter().rposition(|b| *b == b' ' || *b == b'\t') {
                    let end = blank + 1;
                    out.extend_from_slice(self.line.get(..end).unwrap_or(&[]));
                    out.push(b'\n');
                    self.line.drain(..end);
                    self.column = self.line.iter().fold(0, |column, b| self.advance(column, *b));
                    continue;
                }
            }
            if self.line.is_empty() {
                break;
            }
            out.extend_from_slice(&self.line);
            out.push(b'\n');
            self.line.clear();
            self.column = 0;
        }
        self.line.push(byte);
    }
}

/// Rewrites the obsolete `-N` width into `-w N`.
fn rewrite_width(args: &[String]) -> Vec<String> {
    args.iter()
        .map(|arg| match arg.strip_prefix('-') {
            Some(digits) if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) => format!("-w{digits}"),
            _ => arg.clone(),
        })
        .collect()
}

async fn fold(ctx: &Invocation<'_>, folder: &mut Folder, operands: &[String]) -> Result<i32, i32> {
    let mut out = Output::new(ctx);
    let mut status = 0;
    let mut folded = Vec::new();
    for input in inputs(operands) {
        let Some(stream) = open_or_report(ctx, &input, OpenError::Plain).await else {
            status = 1;
            continue;
        };
        loop {
            let Ok(chunk) = stream.read(READ_CHUNK).await else {
                status = 1;
                break;
            };
            if chunk.is_empty() {
                break;
            }
            folded.clear();
            for byte in chunk {
                folder.feed(byte, &mut folded);
            }
            out.write(&folded).await?;
        }
        out.write(&std::mem::take(&mut folder.line)).await?;
        folder.column = 0;
    }
    out.flush().await?;
    Ok(status)
}

/// Runs `fold [OPTION]... [FILE]...`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let args = rewrite_width(ctx.args.get(1..).unwrap_or(&[]));
        let parsed = match parse(&SPEC, &args) {
            Ok(parsed) => parsed,
            Err(error) => {
                report_usage(ctx, &error.message()).await;
                return 1;
            }
        };
        let width = match parsed.value("w") {
            None => 80,
            Some(text) => match text.parse::<usize>() {
                Ok(0) => {
                    ctx.report(&format!("invalid number of columns: {}: Numerical result out of range", quote_locale(ctx, text))).await;
                    return 1;
                }
                Ok(n) => n,
                Err(_) => {
                    ctx.report(&format!("invalid number of columns: {}", quote_locale(ctx, text))).await;
                    return 1;
                }
            },
        };
        let mut folder = Folder { width, bytes: parsed.has("b"), spaces: parsed.has("s"), column: 0, line: Vec::new() };
        status_of(fold(ctx, &mut folder, &parsed.operands).await)
    })
}

#[cfg(test)]
mod tests {
    use crate::commands::test_support::{new_fs, run_utility};

    #[test]
    fn folds() {
        let fs = new_fs();
        assert_eq!(run_utility(&fs, &["fold", "-w", "5"], b"a b c d e f g h").stdout, "a b c\n d e \nf g h");
        assert_eq!(run_utility(&fs, &["fold", "-s", "-w", "5"], b"a b c d e f g h").stdout, "a b \nc d \ne f \ng h");
        assert_eq!(run_utility(&fs, &["fold", "-3"], b"abcdefghij\n").stdout, "abc\ndef\nghi\nj\n");
        assert_eq!(run_utility(&fs, &["fold", "-w", "10"], b"a\tb\tc\n").stdout, "a\tb\n\tc\n");
    }
}
