//! `paste`: join corresponding lines of the inputs side by side, or each
//! input's lines into one (`-s`), with a cycling delimiter list (`-d`),
//! streaming. `-` may be given several times and reads standard input in
//! turn.

use crate::commands::common::{inputs, Input};
use crate::commands::options::{parse_or_report, Long, Spec};
use crate::commands::text::input::{open_or_report, LineReader, OpenError};
use crate::commands::text::output::{status_of, Output};
use crate::host::LocalFuture;
use crate::utility::Invocation;

const SPEC: Spec = Spec::new("d:sz", &[Long::required("delimiters", "d"), Long::flag("serial", "s"), Long::flag("zero-terminated", "z")]);

/// Reads the `-d` list: `\n`, `\t`, `\\` and `\0` (no delimiter) escapes.
/// Each entry is the bytes written (empty for `\0`).
fn delimiter_list(text: &str) -> Vec<Vec<u8>> {
    let bytes = text.as_bytes();
    let mut list = Vec::new();
    let mut index = 0;
    while let Some(&byte) = bytes.get(index) {
        index += 1;
        if byte != b'\\' {
            list.push(vec![byte]);
            continue;
        }
        let Some(&next) = bytes.get(index) else {
            list.push(vec![b'\\']);
            break;
        };
        index += 1;
        list.push(match next {
            b'n' => vec![b'\n'],
            b't' => vec![b'\t'],
            b'0' => Vec::new(),
            b'b' => vec![8],
            b'f' => vec![12],
            b'r' => vec![b'\r'],
            b'v' => vec![11],
            other => vec![other],
        });
    }
    if list.is_empty() {
        list.push(Vec::new());
    }
    list
}

async fn next_line(reader: &mut LineReader, terminator: u8) -> Option<Vec<u8>> {
    match reader.next_line().await {
        Ok(Some(mut line)) => {
            if line.last() == Some(&terminator) {
                line.pop();
            }
            Some(line)
        }
        _ => None,
    }
}

async fn paste(ctx: &Invocation<'_>, operands: &[String], delimiters: &[Vec<u8>], serial: bool, terminator: u8) -> Result<i32, i32> {
    // Several `-` share one reader of standard input: `columns` maps each
    // operand to its reader.
    let mut readers: Vec<LineReader> = Vec::new();
    let mut columns: Vec<usize> = Vec::new();
    let mut stdin_reader: Option<usize> = None;
    for input in inputs(operands) {
        if let (Input::Stdin, Some(shared)) = (&input, stdin_reader) {
            columns.push(shared);
            continue;
        }
        let Some(stream) = open_or_report(ctx, &input, OpenError::Plain).await else {
            return Ok(1);
        };
        if matches!(input, Input::Stdin) {
            stdin_reader = Some(readers.len());
        }
        columns.push(readers.len());
        readers.push(LineReader::new(stream, terminator));
    }
    let mut out = Output::new(ctx);
    let delimiter = |index: usize| delimiters.get(index % delimiters.len().max(1)).map(Vec::as_slice).unwrap_or(&[]);
    if serial {
        for &column in &columns {
            let Some(reader) = readers.get_mut(column) else { continue };
            let mut index = 0;
            let mut any = false;
            while let Some(line) = next_line(reader, terminator).await {
                if any {
                    out.write(delimiter(index)).await?;
                    index += 1;
                }
                out.write(&line).await?;
                any = true;
            }
            out.write(&[terminator]).await?;
        }
        out.flush().await?;
        return Ok(0);
    }
    let mut done = vec![false; columns.len()];
    loop {
        let mut line_out = Vec::new();
        let mut any = false;
        for (index, &column) in columns.iter().enumerate() {
            let line = match readers.get_mut(column) {
                Some(reader) if !done[index] => next_line(reader, terminator).await,
                _ => None,
            };
            match line {
                Some(line) => {
                    any = true;
                    line_out.extend_from_slice(&line);
                }
                None => done[index] = true,
            }
            if index + 1 < columns.len() {
                line_out.extend_from_slice(delimiter(index));
            }
        }
        if !any {
            break;
        }
        line_out.push(terminator);
        out.write(&line_out).await?;
    }
    out.flush().await?;
    Ok(0)
}

/// Runs `paste [OPTION]... [FILE]...`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let parsed = match parse_or_report(ctx, &SPEC, 1).await {
            Ok(parsed) => parsed,
            Err(status) => return status,
        };
        let delimiters = delimiter_list(parsed.value("d").unwrap_or("\t"));
        let terminator = if parsed.has("z") { 0 } else { b'\n' };
        status_of(paste(ctx, &parsed.operands, &delimiters, parsed.has("s"), terminator).await)
    })
}

#[cfg(test)]
mod tests {
    use crate::commands::test_support::{new_fs, run_utility};

    #[test]
    fn pastes() {
        let fs = new_fs();
        assert_eq!(run_utility(&fs, &["paste", "-", "-"], b"1\n2\n3\n").stdout, "1\t2\n3\t\n");
        assert_eq!(run_utility(&fs, &["paste", "-sd,"], b"1\n2\n3\n").stdout, "1,2,3\n");
        assert_eq!(run_utility(&fs, &["paste", "-d", "\\0", "-", "-"], b"a\nb\n").stdout, "ab\n");
    }
}
