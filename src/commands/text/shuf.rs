//! `shuf`: a random permutation of the input lines, of `-e` arguments or of
//! an `-i LO-HI` range, seeded by the host (so a host with a fixed seed gets
//! reproducible runs); `-n` limits the count, `-r` repeats (streaming, so
//! `shuf -r ... | head` ends), `-z`, `-o`.

use crate::commands::common::Input;
use crate::commands::format::quote_locale;
use crate::commands::options::{parse_or_report, report_usage, Long, Spec};
use crate::commands::text::input::{open_or_report, open_output, read_all, OpenError};
use crate::host::LocalFuture;
use crate::io::Fd;
use crate::utility::Invocation;

const SPEC: Spec = Spec::new(
    "ei:n:o:rz",
    &[
        Long::flag("echo", "e"),
        Long::required("head-count", "n"),
        Long::required("input-range", "i"),
        Long::required("output", "o"),
        Long::required("random-source", "random-source"),
        Long::flag("repeat", "r"),
        Long::flag("zero-terminated", "z"),
    ],
);

/// A small seeded generator (splitmix64).
struct Generator(u64);

impl Generator {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform index below `bound` (which must be positive).
    fn below(&mut self, bound: usize) -> usize {
        let bound = bound as u64;
        let zone = u64::MAX - u64::MAX % bound;
        loop {
            let value = self.next();
            if value < zone {
                return (value % bound) as usize;
            }
        }
    }
}

/// Parses `LO-HI`.
fn parse_range(text: &str) -> Option<(u64, u64)> {
    let (low, high) = text.split_once('-')?;
    let low: u64 = low.parse().ok()?;
    let high: u64 = high.parse().ok()?;
    (high.checked_add(1)? >= low).then_some((low, high))
}

/// Writes lines in chunks to the chosen output.
async fn write_lines(ctx: &Invocation<'_>, stream: &Fd, lines: impl Iterator<Item = Vec<u8>>, terminator: u8) -> Result<(), i32> {
    let mut buffer = Vec::new();
    for line in lines {
        buffer.extend_from_slice(&line);
        buffer.push(terminator);
        if buffer.len() >= 16 * 1024 {
            match stream.write(&buffer).await { Ok(value) => Ok(value), Err(error) => Err(ctx.write_failed(error).await) }?;
            buffer.clear();
        }
    }
    match stream.write(&buffer).await { Ok(value) => Ok(value), Err(error) => Err(ctx.write_failed(error).await) }
}

async fn shuf(ctx: &Invocation<'_>, parsed: &crate::commands::options::Parsed) -> Result<i32, i32> {
    let q = |text: &str| quote_locale(ctx, text);
    let terminator = if parsed.has("z") { 0 } else { b'\n' };
    if parsed.has("e") && parsed.has("i") {
        report_usage(ctx, "cannot combine -e and -i options").await;
        return Ok(1);
    }
    let count = match parsed.value("n") {
        None => None,
        Some(text) => match text.parse::<u64>() {
            Ok(n) => Some(usize::try_from(n).unwrap_or(usize::MAX)),
            Err(_) => {
                ctx.report(&format!("invalid line count: {}", q(text))).await;
                return Ok(1);
            }
        },
    };
    if parsed.has("random-source") {
        ctx.report("--random-source is not supported in the sandbox").await;
        return Ok(1);
    }
    let mut range: Option<(u64, u64)> = None;
    let mut lines: Vec<Vec<u8>> = Vec::new();
    if let Some(text) = parsed.value("i") {
        range = match parse_range(text) {
            Some(found) => Some(found),
            None => {
                ctx.report(&format!("invalid input range: {}", q(text))).await;
                return Ok(1);
            }
        };
        if let Some(extra) = parsed.operands.first() {
            report_usage(ctx, &format!("extra operand {}", q(extra))).await;
            return Ok(1);
        }
    } else if parsed.has("e") {
        lines = parsed.operands.iter().map(|s| s.as_bytes().to_vec()).collect();
    } else {
        if let Some(extra) = parsed.operands.get(1) {
            report_usage(ctx, &format!("extra operand {}", q(extra))).await;
            return Ok(1);
        }
        let input = match parsed.operands.first().filter(|name| name.as_str() != "-") {
            Some(name) => Input::File(name.clone()),
            None => Input::Stdin,
        };
        let Some(stream) = open_or_report(ctx, &input, OpenError::Plain).await else {
            return Ok(1);
        };
        let Ok(data) = read_all(&stream).await else {
            return Ok(1);
        };
        if !data.is_empty() {
            let body = data.strip_suffix(&[terminator]).unwrap_or(&data);
            lines = body.split(|b| *b == terminator).map(<[u8]>::to_vec).collect();
        }
    }
    let output = match parsed.value("o") {
        Some(name) => match open_output(ctx, name, false).await {
            Ok(stream) => stream,
            Err(error) => {
                ctx.report(&format!("{name}: {error}")).await;
                return Ok(1);
            }
        },
        None => ctx.stdout.clone(),
    };
    let mut generator = Generator(ctx.host.random_seed() ^ (ctx.host.now_millis() as u64).rotate_left(23));
    let population = match range {
        Some((low, high)) => usize::try_from((high + 1).saturating_sub(low)).unwrap_or(usize::MAX),
        None => lines.len(),
    };
    let item = |index: usize| -> Vec<u8> {
        match range {
            Some((low, _)) => (low + index as u64).to_string().into_bytes(),
            None => lines.get(index).cloned().unwrap_or_default(),
        }
    };
    if parsed.has("r") {
        if population == 0 {
            if count == Some(0) {
                return Ok(0);
            }
            ctx.report("no lines to repeat").await;
            return Ok(1);
        }
        let mut left = count;
        loop {
            let batch = left.map_or(1024, |n| n.min(1024));
            if batch == 0 {
                return Ok(0);
            }
            let picks: Vec<Vec<u8>> = (0..batch).map(|_| item(generator.below(population))).collect();
            write_lines(ctx, &output, picks.into_iter(), terminator).await?;
            left = left.map(|n| n - batch);
            if ctx.host.interrupted() {
                return Ok(130);
            }
        }
    }
    let wanted = count.unwrap_or(population).min(population);
    // A partial Fisher-Yates over indices, with only the swapped ones
    // remembered, written as it goes.
    let mut swapped = std::collections::HashMap::new();
    let mut position = 0;
    while position < wanted {
        let end = (position + 1024).min(wanted);
        let mut picks = Vec::with_capacity(end - position);
        for current in position..end {
            let pick = current + generator.below(population - current);
            let at_pick = *swapped.get(&pick).unwrap_or(&pick);
            let at_current = *swapped.get(&current).unwrap_or(&current);
            swapped.insert(pick, at_current);
            picks.push(item(at_pick));
        }
        write_lines(ctx, &output, picks.into_iter(), terminator).await?;
        position = end;
    }
    Ok(0)
}

/// Runs `shuf [OPTION]... [FILE]`, `shuf -e [ARG]...`, `shuf -i LO-HI`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let parsed = match parse_or_report(ctx, &SPEC, 1).await {
            Ok(parsed) => parsed,
            Err(status) => return status,
        };
        match shuf(ctx, &parsed).await {
            Ok(status) | Err(status) => status,
        }
    })
}

#[cfg(test)]
mod tests {
    use crate::commands::test_support::{new_fs, run_utility};

    #[test]
    fn permutes() {
        let fs = new_fs();
        let out = run_utility(&fs, &["shuf", "-i", "1-50"], b"");
        let mut numbers: Vec<u32> = out.stdout.lines().map(|l| l.parse().unwrap()).collect();
        numbers.sort_unstable();
        assert_eq!(numbers, (1..=50).collect::<Vec<_>>());
        assert_eq!(run_utility(&fs, &["shuf", "-n", "3", "-e", "a", "b", "c", "d"], b"").stdout.lines().count(), 3);
        assert_eq!(run_utility(&fs, &["shuf", "-r", "-n", "4", "-e", "x"], b"").stdout, "x\nx\nx\nx\n");
    }
}
