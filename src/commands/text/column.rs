//! `column` (util-linux): lay out the input's non-empty lines in columns
//! filled down (the default) or across (`-x`) within a width (`-c`, else
//! `COLUMNS`, else 80), or as a table (`-t`) split at `-s` characters
//! (blanks by default), joined by `-o` (two spaces by default), with `-N`
//! headers, `-R` right-aligned columns and at most `-l` columns.

use crate::commands::common::inputs;
use crate::commands::options::{parse_or_report, Long, Spec};
use crate::commands::text::input::{open_or_report, read_all, OpenError};
use crate::commands::text::output::{status_of, Output};
use crate::host::LocalFuture;
use crate::utility::Invocation;

const SPEC: Spec = Spec::new(
    "c:l:LN:o:R:s:tx",
    &[
        Long::required("columns", "c"),
        Long::flag("fillrows", "x"),
        Long::flag("keep-empty-lines", "L"),
        Long::required("output-separator", "o"),
        Long::required("right", "R"),
        Long::required("separator", "s"),
        Long::flag("table", "t"),
        Long::required("table-columns", "N"),
        Long::required("table-columns-limit", "l"),
    ],
);

/// The display width of a cell: characters, invalid bytes one each,
/// control characters (tabs too) none.
fn width(cell: &[u8]) -> usize {
    String::from_utf8_lossy(cell).chars().filter(|c| !c.is_control()).count()
}

/// True for lines util-linux skips: empty or only whitespace.
fn is_blank_line(line: &[u8]) -> bool {
    line.iter().all(u8::is_ascii_whitespace)
}

struct Table {
    separators: Option<Vec<u8>>,
    output_separator: Vec<u8>,
    right: Vec<usize>,
    headers: Option<Vec<Vec<u8>>>,
    limit: Option<usize>,
    keep_empty: bool,
}

impl Table {
    /// Splits a line into cells.
    fn cells(&self, line: &[u8]) -> Vec<Vec<u8>> {
        let mut cells: Vec<Vec<u8>> = match &self.separators {
            Some(separators) => line.split(|b| separators.contains(b)).map(<[u8]>::to_vec).collect(),
            None => line.split(|b| *b == b' ' || *b == b'\t').filter(|c| !c.is_empty()).map(<[u8]>::to_vec).collect(),
        };
        if let Some(limit) = self.limit.filter(|l| *l > 0 && cells.len() > *l) {
            let separator = self.separators.as_ref().and_then(|s| s.first().copied()).unwrap_or(b' ');
            let rest: Vec<Vec<u8>> = cells.split_off(limit - 1);
            cells.push(rest.join(&separator));
        }
        cells
    }

    fn render(&self, lines: &[Vec<u8>], out: &mut Vec<u8>) {
        let mut rows: Vec<Vec<Vec<u8>>> = Vec::new();
        if let Some(headers) = &self.headers {
            rows.push(headers.clone());
        }
        for line in lines {
            if is_blank_line(line) && !self.keep_empty {
                continue;
            }
            rows.push(self.cells(line));
        }
        let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
        let widths: Vec<usize> =
            (0..columns).map(|c| rows.iter().filter_map(|r| r.get(c)).map(|cell| width(cell)).max().unwrap_or(0)).collect();
        // Every row has every column; missing cells are empty.
        for row in &rows {
            let mut line = Vec::new();
            for index in 0..columns {
                let cell = row.get(index).map(Vec::as_slice).unwrap_or(&[]);
                let pad = widths.get(index).copied().unwrap_or(0).saturating_sub(width(cell));
                let last = index + 1 == columns;
                if self.right.contains(&(index + 1)) {
                    line.extend(std::iter::repeat_n(b' ', pad));
                    line.extend_from_slice(cell);
                } else {
                    line.extend_from_slice(cell);
                    if !last {
                        line.extend(std::iter::repeat_n(b' ', pad));
                    }
                }
                if !last {
                    line.extend_from_slice(&self.output_separator);
                }
            }
            out.extend_from_slice(&line);
            out.push(b'\n');
        }
    }
}

/// The width rounded up past the next multiple of 8, as util-linux does.
fn column_width(entries: &[Vec<u8>]) -> usize {
    let longest = entries.iter().map(|e| width(e)).max().unwrap_or(0);
    (longest + 8) & !7
}

/// Pads with tabs from `count` up to `end`.
fn tabs_to(out: &mut Vec<u8>, count: &mut usize, end: usize) {
    loop {
        let next = (*count + 8) & !7;
        if next > end {
            break;
        }
        out.push(b'\t');
        *count = next;
    }
}

/// Fills columns down, then across.
fn fill_columns(entries: &[Vec<u8>], total_width: usize, out: &mut Vec<u8>) {
    let column = column_width(entries);
    let columns = (total_width / column).max(1);
    let rows = entries.len().div_ceil(columns);
    for row in 0..rows {
        let mut end = column;
        let mut count = 0;
        let mut index = row;
        for _ in 0..columns {
            let Some(entry) = entries.get(index) else { break };
            out.extend_from_slice(entry);
            count += width(entry);
            index += rows;
            if index >= entries.len() {
                break;
            }
            tabs_to(out, &mut count, end);
            end += column;
        }
        out.push(b'\n');
    }
}

/// Fills rows across, then down (`-x`).
fn fill_rows(entries: &[Vec<u8>], total_width: usize, out: &mut Vec<u8>) {
    let column = column_width(entries);
    let columns = (total_width / column).max(1);
    let mut end = column;
    let mut count = 0;
    let mut in_row = 0;
    for (index, entry) in entries.iter().enumerate() {
        out.extend_from_slice(entry);
        count += width(entry);
        in_row += 1;
        if index + 1 == entries.len() {
            break;
        }
        if in_row == columns {
            out.push(b'\n');
            count = 0;
            in_row = 0;
            end = column;
        } else {
            tabs_to(out, &mut count, end);
            end += column;
        }
    }
    if count > 0 {
        out.push(b'\n');
    }
}

async fn column(ctx: &Invocation<'_>, parsed: &crate::commands::options::Parsed) -> Result<i32, i32> {
    let mut status = 0;
    let mut lines: Vec<Vec<u8>> = Vec::new();
    for input in inputs(&parsed.operands) {
        let Some(stream) = open_or_report(ctx, &input, OpenError::Plain).await else {
            status = 1;
            continue;
        };
        let Ok(data) = read_all(&stream).await else {
            status = 1;
            continue;
        };
        let body = data.strip_suffix(b"\n").unwrap_or(&data);
        if !data.is_empty() {
            lines.extend(body.split(|b| *b == b'\n').map(<[u8]>::to_vec));
        }
    }
    let mut text = Vec::new();
    if parsed.has("t") {
        let list = |key: &str| -> Vec<usize> {
            parsed.value(key).map(|v| v.split(',').filter_map(|n| n.trim().parse().ok()).collect()).unwrap_or_default()
        };
        let table = Table {
            separators: parsed.value("s").map(|s| s.as_bytes().to_vec()),
            output_separator: parsed.value("o").unwrap_or("  ").as_bytes().to_vec(),
            right: list("R"),
            headers: parsed.value("N").map(|n| n.split(',').map(|h| h.as_bytes().to_vec()).collect()),
            limit: parsed.value("l").and_then(|l| l.parse().ok()),
            keep_empty: parsed.has("L"),
        };
        table.render(&lines, &mut text);
    } else {
        let total_width =
            parsed.value("c").and_then(|c| c.parse().ok()).or_else(|| ctx.env_var("COLUMNS").and_then(|c| c.parse().ok())).unwrap_or(80);
        let entries: Vec<Vec<u8>> = lines.into_iter().filter(|l| !is_blank_line(l)).collect();
        if parsed.has("x") {
            fill_rows(&entries, total_width, &mut text);
        } else {
            fill_columns(&entries, total_width, &mut text);
        }
    }
    let mut out = Output::new(ctx);
    out.write(&text).await?;
    out.flush().await?;
    Ok(status)
}

/// Runs `column [OPTION]... [FILE]...`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let parsed = match parse_or_report(ctx, &SPEC, 1).await {
            Ok(parsed) => parsed,
            Err(status) => return status,
        };
        for key in ["c", "l"] {
            if let Some(value) = parsed.value(key) {
                if value.parse::<usize>().is_err() {
                    ctx.report(&format!("invalid columns argument: '{value}'")).await;
                    return 1;
                }
            }
        }
        status_of(column(ctx, &parsed).await)
    })
}

#[cfg(test)]
mod tests {
    use crate::commands::test_support::{new_fs, run_utility};

    #[test]
    fn tables_and_fills() {
        let fs = new_fs();
        assert_eq!(run_utility(&fs, &["column", "-t"], b"a b c\nlonger x y\n").stdout, "a       b  c\nlonger  x  y\n");
        assert_eq!(run_utility(&fs, &["column", "-t", "-s,", "-o", " | "], b"a,b\nc,d\n").stdout, "a | b\nc | d\n");
        assert_eq!(run_utility(&fs, &["column"], b"1\n2\n3\n").stdout, "1\t2\t3\n");
        assert_eq!(run_utility(&fs, &["column", "-c", "10"], b"1\n2\n").stdout, "1\n2\n");
    }
}
