//! `comm`: compare two sorted inputs line by line, streaming, in three
//! columns (only in the first, only in the second, in both); `-1 -2 -3`
//! hide columns, `--output-delimiter`, `--total`, `-z`, and GNU's order
//! checks (`--check-order`, `--nocheck-order`, and the default that warns
//! once unpairable lines appear).

use crate::commands::common::Input;
use crate::commands::format::quote_locale;
use crate::commands::options::{parse_or_report, report_usage, Long, Spec};
use crate::commands::text::input::{open_or_report, LineReader, OpenError};
use crate::commands::text::output::{status_of, Output};
use crate::host::LocalFuture;
use crate::utility::Invocation;
use std::cmp::Ordering;

const SPEC: Spec = Spec::new(
    "123z",
    &[
        Long::flag("check-order", "check-order"),
        Long::flag("nocheck-order", "nocheck-order"),
        Long::required("output-delimiter", "output-delimiter"),
        Long::flag("total", "total"),
        Long::flag("zero-terminated", "z"),
    ],
);

/// How input order is checked.
#[derive(Clone, Copy, PartialEq, Eq)]
enum CheckOrder {
    Default,
    Enabled,
    Disabled,
}

/// One input: its reader, current line and the line before it.
struct Side {
    reader: LineReader,
    line: Option<Vec<u8>>,
    previous: Option<Vec<u8>>,
    warned: bool,
}

impl Side {
    /// Steps to the next line. When `checking`, the line read is checked
    /// against the one it replaces; at the end of the input the last two
    /// lines are checked again, as an unpairable line may have appeared
    /// since. Returns true when this finds the input out of order (once).
    async fn advance(&mut self, terminator: u8, checking: bool) -> bool {
        let consumed = self.line.take();
        self.line = match self.reader.next_line().await {
            Ok(Some(mut line)) => {
                if line.last() == Some(&terminator) {
                    line.pop();
                }
                Some(line)
            }
            _ => None,
        };
        let pair = match (&self.line, &consumed) {
            (Some(line), Some(consumed)) => Some((consumed, line)),
            (None, Some(consumed)) => self.previous.as_ref().map(|previous| (previous, consumed)),
            _ => None,
        };
        let disorder = checking && !self.warned && pair.is_some_and(|(before, after)| before > after);
        self.warned |= disorder;
        self.previous = consumed;
        disorder
    }
}

async fn comm(ctx: &Invocation<'_>, parsed: &crate::commands::options::Parsed) -> Result<i32, i32> {
    let terminator = if parsed.has("z") { 0 } else { b'\n' };
    let show = [!parsed.has("1"), !parsed.has("2"), !parsed.has("3")];
    let delimiter = parsed.value("output-delimiter").unwrap_or("\t").as_bytes().to_vec();
    let check = if parsed.has("check-order") {
        CheckOrder::Enabled
    } else if parsed.has("nocheck-order") {
        CheckOrder::Disabled
    } else {
        CheckOrder::Default
    };
    let mut sides = Vec::new();
    for name in parsed.operands.iter().take(2) {
        let input = if name == "-" { Input::Stdin } else { Input::File(name.clone()) };
        let Some(stream) = open_or_report(ctx, &input, OpenError::Plain).await else {
            return Ok(1);
        };
        let mut side = Side { reader: LineReader::new(stream, terminator), line: None, previous: None, warned: false };
        side.advance(terminator, false).await;
        sides.push(side);
    }
    let [first, second] = sides.as_mut_slice() else {
        return Ok(1);
    };
    let mut out = Output::new(ctx);
    let mut totals = [0u64; 3];
    let mut seen_unpairable = false;
    while first.line.is_some() || second.line.is_some() {
        let order = match (&first.line, &second.line) {
            (None, _) => Ordering::Greater,
            (_, None) => Ordering::Less,
            (Some(a), Some(b)) => a.cmp(b),
        };
        let column = match order {
            Ordering::Less => 0,
            Ordering::Greater => 1,
            Ordering::Equal => 2,
        };
        if column != 2 {
            seen_unpairable = true;
        }
        totals[column] += 1;
        if show[column] {
            let line = if column == 0 { first.line.as_deref() } else { second.line.as_deref() }.unwrap_or(&[]);
            for shown in show.iter().take(column) {
                if *shown {
                    out.write(&delimiter).await?;
                }
            }
            out.write(line).await?;
            out.write(&[terminator]).await?;
        }
        // Lines are checked as they are read: always with `--check-order`,
        // by default only once an unpairable line appeared.
        let checking = check == CheckOrder::Enabled || (check == CheckOrder::Default && seen_unpairable);
        for (index, side) in [&mut *first, &mut *second].into_iter().enumerate() {
            let step = if index == 0 { order != Ordering::Greater } else { order != Ordering::Less };
            if step && side.advance(terminator, checking).await {
                out.flush().await?;
                ctx.report(&format!("file {} is not in sorted order", index + 1)).await;
                if check == CheckOrder::Enabled {
                    return Ok(1);
                }
            }
        }
    }
    if parsed.has("total") {
        let mut line = Vec::new();
        for total in totals {
            line.extend_from_slice(total.to_string().as_bytes());
            line.extend_from_slice(&delimiter);
        }
        line.extend_from_slice(b"total");
        line.push(terminator);
        out.write(&line).await?;
    }
    out.flush().await?;
    if first.warned || second.warned {
        ctx.report("input is not in sorted order").await;
        return Ok(1);
    }
    Ok(0)
}

/// Runs `comm [OPTION]... FILE1 FILE2`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let parsed = match parse_or_report(ctx, &SPEC, 1).await {
            Ok(parsed) => parsed,
            Err(status) => return status,
        };
        let message = match parsed.operands.as_slice() {
            [] => Some("missing operand".to_string()),
            [only] => Some(format!("missing operand after {}", quote_locale(ctx, only))),
            [_, _] => None,
            [_, _, extra, ..] => Some(format!("extra operand {}", quote_locale(ctx, extra))),
        };
        if let Some(message) = message {
            report_usage(ctx, &message).await;
            return 1;
        }
        status_of(comm(ctx, &parsed).await)
    })
}

#[cfg(test)]
mod tests {
    use crate::commands::test_support::{new_fs, run_utility};
    use crate::fs::Fs;

    #[test]
    fn compares_columns() {
        let fs = new_fs();
        crate::executor::block_on(fs.write_file("/home/user/a", b"a\nb\nd\n")).unwrap();
        crate::executor::block_on(fs.write_file("/home/user/b", b"b\nc\nd\ne\n")).unwrap();
        assert_eq!(run_utility(&fs, &["comm", "a", "b"], b"").stdout, "a\n\t\tb\n\tc\n\t\td\n\te\n");
        assert_eq!(run_utility(&fs, &["comm", "-12", "a", "b"], b"").stdout, "b\nd\n");
    }
}
