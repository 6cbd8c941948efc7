//! `pr`: paginate or columnate files for printing, as GNU pr does: page
//! headers with the file's modification time (standard input: the current
//! time) in the sandbox's time zone, columns (`-COLUMN`, `-a`), merged files
//! (`-m`), numbering (`-n`, `-N`), separators (`-s`, `-S`), widths and
//! lengths (`-w`, `-W`, `-l`), margins (`-o`), page ranges (`+FIRST[:LAST]`)
//! and the rest of GNU's options. See [`engine`] for the paginating itself.

mod engine;

use crate::calendar::{parse_tz, strftime};
use crate::commands::format::{quote_locale, quotef};
use crate::commands::options::{parse, report_usage, Long, Spec};
use crate::host::LocalFuture;
use crate::utility::Invocation;
use engine::{Input, Options, Pr, PrError};

const SPEC: Spec = Spec::new(
    "0123456789D:FJN:S::TW:abcde::fh:i::l:mn::o:rs::tvw:",
    &[
        Long::required("pages", "pages"),
        Long::required("columns", "columns"),
        Long::flag("across", "a"),
        Long::flag("show-control-chars", "c"),
        Long::flag("double-space", "d"),
        Long::required("date-format", "D"),
        Long::optional("expand-tabs", "e"),
        Long::flag("form-feed", "f"),
        Long::required("header", "h"),
        Long::optional("output-tabs", "i"),
        Long::flag("join-lines", "J"),
        Long::required("length", "l"),
        Long::flag("merge", "m"),
        Long::optional("number-lines", "n"),
        Long::required("first-line-number", "N"),
        Long::required("indent", "o"),
        Long::flag("no-file-warnings", "r"),
        Long::optional("separator", "s"),
        Long::optional("sep-string", "S"),
        Long::flag("omit-header", "t"),
        Long::flag("omit-pagination", "T"),
        Long::flag("show-nonprinting", "v"),
        Long::required("width", "w"),
        Long::required("page-width", "W"),
    ],
);

/// A command-line problem: the message, and whether the usage hint follows.
struct Bad(String, bool);

/// Reads a number as `xdectoimax` does, between `min` and `i32::MAX`.
fn number(ctx: &Invocation<'_>, text: &str, min: i64, what: &str) -> Result<i64, Bad> {
    let trimmed = text.trim_start();
    let digits = trimmed.strip_prefix(['+', '-']).unwrap_or(trimmed);
    let q = quote_locale(ctx, text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Bad(format!("{what}: {q}"), false));
    }
    match trimmed.parse::<i64>() {
        Ok(value) if value >= min && value <= i64::from(i32::MAX) => Ok(value),
        _ => Err(Bad(format!("{what}: {q}: Numerical result out of range"), false)),
    }
}

/// `-e`, `-i`, `-n`'s `[CHAR][NUMBER]`.
fn char_and_number(ctx: &Invocation<'_>, arg: &str, switch: char, character: &mut u8, count: &mut i64) -> Result<(), Bad> {
    let mut rest = arg.as_bytes();
    if let Some((&first, after)) = rest.split_first() {
        if !first.is_ascii_digit() {
            *character = first;
            rest = after;
        }
    }
    if rest.is_empty() {
        return Ok(());
    }
    let text = String::from_utf8_lossy(rest).into_owned();
    match text.trim_start().parse::<i64>() {
        Ok(n) if n > 0 && n <= i64::from(i32::MAX) => {
            *count = n;
            Ok(())
        }
        _ => Err(Bad(format!("'-{switch}' extra characters or invalid number in the argument: {}", quote_locale(ctx, &text)), true)),
    }
}

/// `FIRST[:LAST]`: `Ok(None)` when it is not a page range, `Err` for a bad number.
fn page_range(text: &str) -> Result<Option<(u64, u64)>, ()> {
    let digits_end = text.find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len());
    if digits_end == 0 {
        return Err(());
    }
    let first: u64 = text[..digits_end].parse().map_err(|_| ())?;
    if first == 0 {
        return Ok(None);
    }
    let rest = &text[digits_end..];
    let Some(last_text) = rest.strip_prefix(':') else {
        return Ok(if rest.is_empty() { Some((first, u64::MAX)) } else { None });
    };
    if last_text.is_empty() || !last_text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(());
    }
    let last: u64 = last_text.parse().map_err(|_| ())?;
    Ok((last >= first).then_some((first, last)))
}

/// The options and the files named.
fn settings(ctx: &Invocation<'_>) -> Result<(Options, Vec<String>, String, bool), Bad> {
    let args = ctx.args.get(1..).unwrap_or(&[]);
    let parsed = parse(&SPEC, args).map_err(|error| Bad(error.message(), true))?;
    let mut o = Options::default();
    let mut digits = String::new();
    let mut last_was_digit = false;
    let (mut old_options, mut old_w, mut old_s) = (false, false, false);
    let mut date_format = "%Y-%m-%d %H:%M".to_string();
    let mut pages_given = false;
    let mut ignore_failed = false;
    for (key, value) in &parsed.options {
        let text = value.clone().unwrap_or_default();
        if key.len() == 1 && key.as_bytes()[0].is_ascii_digit() {
            if !last_was_digit {
                digits.clear();
            }
            digits.push_str(key);
            last_was_digit = true;
            continue;
        }
        last_was_digit = false;
        match *key {
            "pages" => match page_range(&text) {
                Ok(Some((first, last))) => {
                    o.first_page = first;
                    o.last_page = last;
                    pages_given = true;
                }
                Ok(None) => return Err(Bad(format!("invalid page range {}", quote_locale(ctx, &text)), false)),
                Err(()) => return Err(Bad(format!("invalid --pages argument '{text}'"), false)),
            },
            "columns" => {
                o.columns = number(ctx, &text, 1, "invalid number of columns")?;
                o.explicit_columns = true;
                digits.clear();
            }
            "a" => {
                o.across = true;
                o.storing_columns = false;
            }
            "b" => o.balance_columns = true,
            "c" => o.control_prefix = true,
            "d" => o.double_space = true,
            "D" => date_format = text,
            "e" => {
                if value.is_some() {
                    char_and_number(ctx, &text, 'e', &mut o.input_tab_char, &mut o.chars_per_input_tab)?;
                }
                o.untabify_input = true;
            }
            "f" | "F" => o.form_feed = true,
            "h" => o.header = Some(text),
            "i" => {
                if value.is_some() {
                    char_and_number(ctx, &text, 'i', &mut o.output_tab_char, &mut o.chars_per_output_tab)?;
                }
                o.tabify_output = true;
            }
            "J" => o.join_lines = true,
            "l" => o.lines_per_page = number(ctx, &text, 1, "'-l PAGE_LENGTH' invalid number of lines")?,
            "m" => {
                o.parallel = true;
                o.storing_columns = false;
            }
            "n" => {
                o.numbered = true;
                if value.is_some() {
                    char_and_number(ctx, &text, 'n', &mut o.number_separator, &mut o.chars_per_number)?;
                }
            }
            "N" => {
                o.skip_count = false;
                o.start_line_num = number(ctx, &text, i64::from(i32::MIN), "'-N NUMBER' invalid starting line number")?;
            }
            "o" => o.margin = number(ctx, &text, 0, "'-o MARGIN' invalid line offset")?,
            "r" => ignore_failed = true,
            "s" => {
                old_options = true;
                old_s = true;
                if !o.use_col_separator && value.is_some() {
                    o.col_sep = text.into_bytes();
                }
            }
            "S" => {
                old_s = false;
                o.col_sep = Vec::new();
                o.use_col_separator = true;
                if value.is_some() {
                    o.col_sep = text.into_bytes();
                }
            }
            "t" => {
                o.extremities = false;
                o.keep_ff = true;
            }
            "T" => {
                o.extremities = false;
                o.keep_ff = false;
            }
            "v" => o.escapes = true,
            "w" => {
                old_options = true;
                old_w = true;
                let width = number(ctx, &text, 1, "'-w PAGE_WIDTH' invalid number of characters")?;
                if !o.truncate_lines {
                    o.chars_per_line = width;
                }
            }
            "W" => {
                old_w = false;
                o.truncate_lines = true;
                o.chars_per_line = number(ctx, &text, 1, "'-W PAGE_WIDTH' invalid number of characters")?;
            }
            _ => {}
        }
    }
    if !digits.is_empty() {
        o.columns = number(ctx, &digits, 1, "invalid number of columns")?;
        o.explicit_columns = true;
    }
    let mut files = Vec::new();
    // `+FIRST` is a page range only while no range is set yet, in argument order.
    let pages_at = args
        .iter()
        .position(|arg| arg.starts_with("--p") && !arg.starts_with("--pa=") && "--pages".starts_with(arg.split('=').next().unwrap_or("")));
    let mut range_taken = false;
    for operand in parsed.operands {
        let at = args.iter().position(|arg| *arg == operand);
        let before_pages = match (at, pages_at) {
            (Some(at), Some(pages)) => at < pages,
            _ => !pages_given,
        };
        if !range_taken && before_pages && operand.starts_with('+') {
            match page_range(&operand[1..]) {
                Ok(Some((first, last))) => {
                    if !pages_given {
                        o.first_page = first;
                        o.last_page = last;
                    }
                    range_taken = true;
                    continue;
                }
                Ok(None) => {}
                Err(()) => return Err(Bad(format!("invalid + argument '{}'", &operand[1..]), false)),
            }
        }
        files.push(operand);
    }
    if o.parallel && o.explicit_columns {
        return Err(Bad("cannot specify number of columns when printing in parallel".into(), false));
    }
    if o.parallel && o.across {
        return Err(Bad("cannot specify both printing across and printing in parallel".into(), false));
    }
    if old_options {
        if old_w {
            if o.parallel || o.explicit_columns {
                o.truncate_lines = true;
                if old_s {
                    o.use_col_separator = true;
                }
            } else {
                o.join_lines = true;
            }
        } else if !o.use_col_separator && old_s && (o.parallel || o.explicit_columns) {
            if !o.truncate_lines {
                o.join_lines = true;
                if !o.col_sep.is_empty() {
                    o.use_col_separator = true;
                }
            } else {
                o.use_col_separator = true;
            }
        }
    }
    Ok((o, files, date_format, ignore_failed))
}

/// Reads one named input; `Err` with the message to show.
async fn read_input(ctx: &Invocation<'_>, name: &str) -> Result<(Vec<u8>, Option<f64>), String> {
    if name == "-" {
        return ctx.stdin.read_to_end().await.map(|data| (data, None)).map_err(|error| format!("standard input: {error}"));
    }
    if let Some(stream) = ctx.special_stream(name) {
        return stream.read_to_end().await.map(|data| (data, None)).map_err(|error| format!("{}: {error}", quotef(name)));
    }
    let path = ctx.resolve(name);
    let data = ctx.fs.read_file(&path).await.map_err(|error| format!("{}: {error}", quotef(name)))?;
    let mtime = ctx.fs.metadata(&path).await.ok().map(|m| m.mtime);
    Ok((data, mtime))
}

/// Runs `pr [OPTION]... [FILE]...`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let (options, files, date_format, ignore_failed) = match settings(ctx) {
            Ok(found) => found,
            Err(Bad(message, usage)) => {
                if usage {
                    report_usage(ctx, &message).await;
                } else {
                    ctx.report(&message).await;
                }
                return 1;
            }
        };
        let zone = parse_tz(ctx.env_var("TZ"));
        let now = ctx.host.now_millis();
        let date_of = |mtime: Option<f64>| strftime(mtime.unwrap_or(now), &date_format, &zone);
        let mut failed = false;
        let mut line_count = 1;
        // Each group is printed by one run: every file alone, or all at once with -m.
        let groups: Vec<Vec<String>> = if files.is_empty() {
            vec![Vec::new()]
        } else if options.parallel {
            vec![files.clone()]
        } else {
            files.iter().map(|f| vec![f.clone()]).collect()
        };
        for group in groups {
            let mut inputs = Vec::new();
            let mut mtime = None;
            if group.is_empty() {
                match ctx.stdin.read_to_end().await {
                    Ok(data) => inputs.push(Input { data, position: 0 }),
                    Err(error) => {
                        ctx.report(&format!("standard input: {error}")).await;
                        return 1;
                    }
                }
            }
            for name in &group {
                match read_input(ctx, name).await {
                    Ok((data, time)) => {
                        mtime = time;
                        inputs.push(Input { data, position: 0 });
                    }
                    Err(message) => {
                        failed = true;
                        if !ignore_failed {
                            ctx.report(&message).await;
                        }
                    }
                }
            }
            if inputs.is_empty() {
                continue;
            }
            let parallel = options.parallel && !group.is_empty();
            let (date, title) = if parallel || group.is_empty() {
                (date_of(None), String::new())
            } else {
                let name = group.first().cloned().unwrap_or_default();
                if name == "-" {
                    (date_of(None), String::new())
                } else {
                    (date_of(mtime), name)
                }
            };
            let title = options.header.clone().unwrap_or(title);
            let mut pr = match Pr::new(&options, &mut inputs, line_count, date, title) {
                Ok(pr) => pr,
                Err(PrError::TooNarrow) => {
                    ctx.report("page width too narrow").await;
                    return 1;
                }
            };
            pr.run();
            line_count = pr.line_count();
            let out = std::mem::take(&mut pr.out);
            let warnings = std::mem::take(&mut pr.warnings);
            if let Err(error) = ctx.write_out(&out).await {
                return ctx.write_failed(error).await;
            }
            for warning in warnings {
                ctx.report(&warning).await;
            }
        }
        i32::from(failed)
    })
}
