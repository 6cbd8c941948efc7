//! `tail`: the last lines or bytes of each input (`-n [+]N`, `-c [+]N`,
//! `-q`, `-v`, `-z`). Following (`-f`, `-F`) is refused: the sandbox has no
//! files that grow while a command waits.

use crate::commands::common::inputs;
use crate::commands::options::{parse, report_usage, Long, Spec};
use crate::commands::text::count::rewrite_obsolete;
use crate::commands::text::head::{amount_of, header, Amount};
use crate::commands::text::input::{open_or_report, read_all, OpenError};
use crate::host::LocalFuture;
use crate::utility::Invocation;

const SPEC: Spec = Spec::new(
    "c:fFn:qs:vz",
    &[
        Long::required("bytes", "c"),
        Long::optional("follow", "f"),
        Long::required("lines", "n"),
        Long::flag("quiet", "q"),
        Long::flag("silent", "q"),
        Long::required("sleep-interval", "s"),
        Long::flag("verbose", "v"),
        Long::flag("zero-terminated", "z"),
    ],
);

/// The slice of `data` that `amount` selects from its end (or from `+N`).
fn tail_of(data: &[u8], amount: Amount, delimiter: u8) -> &[u8] {
    let to_usize = |value: u64| usize::try_from(value).unwrap_or(usize::MAX);
    match amount {
        Amount::Bytes(count) if count.plus => data.get(to_usize(count.value.max(1)) - 1..).unwrap_or(&[]),
        Amount::Bytes(count) => data.get(data.len().saturating_sub(to_usize(count.value))..).unwrap_or(&[]),
        Amount::Lines(count) if count.plus => {
            let skip = to_usize(count.value.max(1)) - 1;
            let start = data.iter().enumerate().filter(|(_, b)| **b == delimiter).nth(skip.wrapping_sub(1));
            match (skip, start) {
                (0, _) => data,
                (_, Some((index, _))) => data.get(index + 1..).unwrap_or(&[]),
                (_, None) => &[],
            }
        }
        Amount::Lines(count) => {
            let mut wanted = to_usize(count.value);
            if wanted == 0 {
                return &[];
            }
            let body = match data.last() {
                Some(last) if *last == delimiter => data.get(..data.len() - 1).unwrap_or(&[]),
                _ => data,
            };
            for (index, byte) in body.iter().enumerate().rev() {
                if *byte == delimiter {
                    wanted -= 1;
                    if wanted == 0 {
                        return data.get(index + 1..).unwrap_or(&[]);
                    }
                }
            }
            data
        }
    }
}

/// Runs `tail [OPTION]... [FILE]...`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let mut args = ctx.args.clone();
        rewrite_obsolete(&mut args, true);
        let parsed = match parse(&SPEC, args.get(1..).unwrap_or(&[])) {
            Ok(parsed) => parsed,
            Err(error) => {
                report_usage(ctx, &error.message()).await;
                return 1;
            }
        };
        if parsed.has("f") || parsed.has("F") {
            ctx.report("following files (-f, -F) is not supported in the sandbox").await;
            return 1;
        }
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
            let Ok(data) = read_all(&stream).await else {
                status = 1;
                continue;
            };
            if let Err(error) = ctx.write_out(tail_of(&data, amount, delimiter)).await {
                return ctx.write_failed(error).await;
            }
        }
        status
    })
}

#[cfg(test)]
mod tests {
    use crate::commands::test_support::{new_fs, run_utility};

    #[test]
    fn ends_and_offsets() {
        let fs = new_fs();
        assert_eq!(run_utility(&fs, &["tail", "-n", "2"], b"a\nb\nc\n").stdout, "b\nc\n");
        assert_eq!(run_utility(&fs, &["tail", "-n", "+2"], b"a\nb\nc\n").stdout, "b\nc\n");
        assert_eq!(run_utility(&fs, &["tail", "-1"], b"a\nb\nc").stdout, "c");
        assert_eq!(run_utility(&fs, &["tail", "-c", "2"], b"abc\n").stdout, "c\n");
        assert_eq!(run_utility(&fs, &["tail", "-c", "+3"], b"abcd").stdout, "cd");
        assert_eq!(run_utility(&fs, &["tail", "-f"], b"").status, 1);
    }
}
