//! `head`: the first lines or bytes of each input (`-n [-]N`, `-c [-]N`,
//! `-q`, `-v`, `-z`), with `==> NAME <==` headers for several inputs.

use crate::commands::common::{inputs, Input};
use crate::commands::format::quote_locale;
use crate::commands::options::{parse, report_usage, Long, Spec};
use crate::commands::text::count::{parse_count, rewrite_obsolete, Count};
use crate::commands::text::input::{open_or_report, read_all, LineReader, OpenError};
use crate::host::LocalFuture;
use crate::io::{Fd, READ_CHUNK};
use crate::utility::Invocation;

const SPEC: Spec = Spec::new(
    "c:n:qvz",
    &[
        Long::required("bytes", "c"),
        Long::required("lines", "n"),
        Long::flag("quiet", "q"),
        Long::flag("silent", "q"),
        Long::flag("verbose", "v"),
        Long::flag("zero-terminated", "z"),
    ],
);

/// What to take from each input.
#[derive(Clone, Copy)]
pub enum Amount {
    /// `-n N` / `-n -N`.
    Lines(Count),
    /// `-c N` / `-c -N`.
    Bytes(Count),
}

/// The `==> NAME <==` header line, with a blank line before all but the first.
pub fn header(input: &Input, first: bool) -> Vec<u8> {
    let name = match input {
        Input::File(name) => name.as_str(),
        Input::Stdin => "standard input",
    };
    format!("{}==> {name} <==\n", if first { "" } else { "\n" }).into_bytes()
}

/// Parses `-n`/`-c` options into the amount, reporting bad numbers (as
/// GNU, without the leading `-` of `-n -x`).
pub async fn amount_of(ctx: &Invocation<'_>, options: &[(&'static str, Option<String>)]) -> Result<Amount, i32> {
    let mut amount = Amount::Lines(Count { value: 10, minus: false, plus: false });
    for (key, value) in options {
        let text = value.as_deref().unwrap_or("");
        let (kind, make): (&str, fn(Count) -> Amount) = match *key {
            "n" => ("lines", Amount::Lines),
            "c" => ("bytes", Amount::Bytes),
            _ => continue,
        };
        match parse_count(text) {
            Some(count) => amount = make(count),
            None => {
                let shown = text.strip_prefix('-').unwrap_or(text);
                ctx.report(&format!("invalid number of {kind}: {}", quote_locale(ctx, shown))).await;
                return Err(1);
            }
        }
    }
    Ok(amount)
}

/// Writes the head of one stream; `Err(status)` to stop at once.
async fn head_stream(ctx: &Invocation<'_>, stream: Fd, amount: Amount, delimiter: u8) -> Result<(), i32> {
    let write = |data: Vec<u8>| async move { match ctx.write_out(&data).await { Ok(value) => Ok(value), Err(error) => Err(ctx.write_failed(error).await) } };
    match amount {
        Amount::Lines(count) if !count.minus => {
            let mut reader = LineReader::new(stream, delimiter);
            for _ in 0..count.value {
                match reader.next_line().await {
                    Ok(Some(line)) => write(line).await?,
                    Ok(None) => break,
                    Err(()) => return Err(1),
                }
            }
        }
        Amount::Bytes(count) if !count.minus => {
            let mut left = count.value;
            while left > 0 {
                let want = usize::try_from(left).unwrap_or(usize::MAX).min(READ_CHUNK);
                let chunk = stream.read(want).await.map_err(|_| 1)?;
                if chunk.is_empty() {
                    break;
                }
                left -= chunk.len() as u64;
                write(chunk).await?;
            }
        }
        Amount::Lines(count) => {
            let data = read_all(&stream).await.map_err(|_| 1)?;
            let mut ends: Vec<usize> = data.iter().enumerate().filter(|(_, b)| **b == delimiter).map(|(i, _)| i + 1).collect();
            if data.last().is_some_and(|b| *b != delimiter) {
                ends.push(data.len());
            }
            let keep = ends.len().saturating_sub(usize::try_from(count.value).unwrap_or(usize::MAX));
            let end = if keep == 0 { 0 } else { ends.get(keep - 1).copied().unwrap_or(0) };
            write(data.get(..end).unwrap_or(&[]).to_vec()).await?;
        }
        Amount::Bytes(count) => {
            let data = read_all(&stream).await.map_err(|_| 1)?;
            let end = data.len().saturating_sub(usize::try_from(count.value).unwrap_or(usize::MAX));
            write(data.get(..end).unwrap_or(&[]).to_vec()).await?;
        }
    }
    Ok(())
}

/// Runs `head [OPTION]... [FILE]...`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let mut args = ctx.args.clone();
        rewrite_obsolete(&mut args, false);
        let parsed = match parse(&SPEC, args.get(1..).unwrap_or(&[])) {
            Ok(parsed) => parsed,
            Err(error) => {
                report_usage(ctx, &error.message()).await;
                return 1;
            }
        };
        let amount = match amount_of(ctx, &parsed.options).await {
            Ok(amount) => amount,
            Err(status) => return status,
        };
        let delimiter = if parsed.has("z") { 0 } else { b'\n' };
        let list = inputs(&parsed.operands);
        let mut headers = list.len() > 1;
        for (key, _) in &parsed.options {
            match *key {
                "q" => headers = false,
                "v" => headers = true,
                _ => {}
            }
        }
        let mut status = 0;
        let mut first = true;
        for input in &list {
            let Some(stream) = open_or_report(ctx, input, OpenError::CannotOpen).await else {
                status = 1;
                continue;
            };
            if headers {
                if let Err(error) = ctx.write_out(&header(input, first)).await {
                    return ctx.write_failed(error).await;
                }
            }
            first = false;
            match head_stream(ctx, stream, amount, delimiter).await {
                Ok(()) => {}
                Err(1) => status = 1,
                Err(code) => return code,
            }
        }
        status
    })
}

#[cfg(test)]
mod tests {
    use crate::commands::test_support::{new_fs, run_utility};

    #[test]
    fn lines_and_bytes() {
        let fs = new_fs();
        assert_eq!(run_utility(&fs, &["head", "-n", "2"], b"a\nb\nc\n").stdout, "a\nb\n");
        assert_eq!(run_utility(&fs, &["head", "-2"], b"a\nb\nc\n").stdout, "a\nb\n");
        assert_eq!(run_utility(&fs, &["head", "-n", "-1"], b"a\nb\nc").stdout, "a\nb\n");
        assert_eq!(run_utility(&fs, &["head", "-c", "3"], b"abcdef").stdout, "abc");
        assert_eq!(run_utility(&fs, &["head", "-c", "-2"], b"abcdef").stdout, "abcd");
        let out = run_utility(&fs, &["head", "-n", "x"], b"");
        assert!(out.stderr.starts_with("head: invalid number of lines: "));
        assert_eq!(out.status, 1);
    }
}
