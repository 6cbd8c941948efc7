//! `join`: join the lines of two sorted inputs on a common field, streaming
//! one group of equal keys at a time: `-1`/`-2`/`-j` pick the fields, `-t`
//! the separator, `-a`/`-v` print unpaired lines, `-o` (and `-o auto`) and
//! `-e` shape the output, `-i` ignores case, `--header`, `-z`, and GNU's
//! order checks.

use crate::commands::common::Input;
use crate::commands::format::quote_locale;
use crate::commands::options::{parse_or_report, report_usage, Long, Spec};
use crate::commands::text::input::{open_or_report, LineReader, OpenError};
use crate::commands::text::output::{status_of, Output};
use crate::host::LocalFuture;
use crate::utility::Invocation;
use std::cmp::Ordering;

const SPEC: Spec = Spec::new(
    "1:2:a:e:ij:o:t:v:z",
    &[
        Long::flag("check-order", "check-order"),
        Long::flag("header", "header"),
        Long::flag("ignore-case", "i"),
        Long::flag("nocheck-order", "nocheck-order"),
        Long::flag("zero-terminated", "z"),
    ],
);

/// One `-o` item.
#[derive(Clone, Copy, PartialEq, Eq)]
enum OutputField {
    /// `0`: the join field.
    Key,
    /// `FILE.FIELD` (file 0 or 1, field 0-based).
    Field(usize, usize),
}

/// The `-o` choice.
enum Format {
    Default,
    Auto,
    List(Vec<OutputField>),
}

struct Settings {
    fields: [usize; 2],
    tab: Option<u8>,
    unpaired: [bool; 2],
    paired: bool,
    empty: Option<Vec<u8>>,
    format: Format,
    ignore_case: bool,
    header: bool,
    check: Option<bool>,
    terminator: u8,
}

/// A line split into fields.
struct Line {
    text: Vec<u8>,
    fields: Vec<(usize, usize)>,
}

impl Line {
    fn new(text: Vec<u8>, tab: Option<u8>) -> Line {
        let mut fields = Vec::new();
        match tab {
            Some(tab) => {
                let mut start = 0;
                for (index, byte) in text.iter().enumerate() {
                    if *byte == tab {
                        fields.push((start, index));
                        start = index + 1;
                    }
                }
                if !text.is_empty() {
                    fields.push((start, text.len()));
                }
            }
            None => {
                let blank = |b: &u8| *b == b' ' || *b == b'\t';
                let mut index = 0;
                while index < text.len() {
                    while text.get(index).is_some_and(blank) {
                        index += 1;
                    }
                    if index >= text.len() {
                        break;
                    }
                    let start = index;
                    while text.get(index).is_some_and(|b| !blank(b)) {
                        index += 1;
                    }
                    fields.push((start, index));
                }
            }
        }
        Line { text, fields }
    }

    fn field(&self, index: usize) -> Option<&[u8]> {
        self.fields.get(index).and_then(|(start, end)| self.text.get(*start..*end))
    }
}

/// One input with one line of look-ahead.
struct Side {
    name: String,
    reader: LineReader,
    next: Option<Line>,
    line_number: u64,
    warned: bool,
}

impl Settings {
    fn compare(&self, a: &Line, b: &Line, field_a: usize, field_b: usize) -> Ordering {
        let (x, y) = (a.field(field_a).unwrap_or(&[]), b.field(field_b).unwrap_or(&[]));
        if self.ignore_case {
            x.iter().map(u8::to_ascii_lowercase).cmp(y.iter().map(u8::to_ascii_lowercase))
        } else {
            x.cmp(y)
        }
    }

    /// Writes one output line for `left` and/or `right`.
    fn format_line(&self, left: Option<&Line>, right: Option<&Line>, widths: [usize; 2], out: &mut Vec<u8>) {
        let separator = self.tab.unwrap_or(b' ');
        let sides = [left, right];
        let mut first = true;
        let mut emit = |value: Option<&[u8]>, out: &mut Vec<u8>| {
            if !first {
                out.push(separator);
            }
            first = false;
            match value {
                Some(value) => out.extend_from_slice(value),
                None => out.extend_from_slice(self.empty.as_deref().unwrap_or(&[])),
            }
        };
        let key = left.and_then(|l| l.field(self.fields[0])).or_else(|| right.and_then(|r| r.field(self.fields[1])));
        match &self.format {
            Format::List(list) => {
                for item in list {
                    let value = match item {
                        OutputField::Key => key,
                        OutputField::Field(file, field) => sides[*file].and_then(|line| line.field(*field)),
                    };
                    emit(value, out);
                }
            }
            Format::Default | Format::Auto => {
                emit(key, out);
                for (file, line) in sides.iter().enumerate() {
                    let count = match (&self.format, line) {
                        (Format::Auto, _) => widths[file],
                        (_, Some(line)) => line.fields.len(),
                        (_, None) => 0,
                    };
                    for field in (0..count).filter(|f| *f != self.fields[file]) {
                        emit(line.and_then(|l| l.field(field)), out);
                    }
                }
            }
        }
        out.push(self.terminator);
    }
}

impl Side {
    /// Reads the next line into the look-ahead, checking order against the
    /// line it replaces.
    async fn advance(&mut self, settings: &Settings, which: usize, checking: bool) -> Option<(String, u64, Vec<u8>)> {
        self.advance_from(settings, which, checking, None).await
    }

    /// Like [`Side::advance`], moving the replaced line into `keep` if given.
    async fn advance_from(
        &mut self,
        settings: &Settings,
        which: usize,
        checking: bool,
        keep: Option<&mut Vec<Line>>,
    ) -> Option<(String, u64, Vec<u8>)> {
        let previous = self.next.take();
        self.next = match self.reader.next_line().await {
            Ok(Some(mut text)) => {
                if text.last() == Some(&settings.terminator) {
                    text.pop();
                }
                self.line_number += 1;
                Some(Line::new(text, settings.tab))
            }
            _ => None,
        };
        let field = settings.fields[which];
        let mut report = None;
        if let (true, false, Some(previous), Some(next)) = (checking, self.warned, &previous, &self.next) {
            if settings.compare(previous, next, field, field) == Ordering::Greater {
                self.warned = true;
                report = Some((self.name.clone(), self.line_number, next.text.clone()));
            }
        }
        if let (Some(keep), Some(previous)) = (keep, previous) {
            keep.push(previous);
        }
        report
    }
}

/// Parses a field number (1-based) into a 0-based index.
fn field_number(text: &str) -> Option<usize> {
    text.parse::<usize>().ok().filter(|n| *n > 0).map(|n| n - 1)
}

async fn settings(ctx: &Invocation<'_>) -> Result<(Settings, Vec<String>), i32> {
    let parsed = parse_or_report(ctx, &SPEC, 1).await?;
    let mut settings = Settings {
        fields: [0, 0],
        tab: None,
        unpaired: [false, false],
        paired: true,
        empty: None,
        format: Format::Default,
        ignore_case: false,
        header: false,
        check: None,
        terminator: b'\n',
    };
    for (key, value) in &parsed.options {
        let text = value.as_deref().unwrap_or("");
        let q = quote_locale(ctx, text);
        match *key {
            "1" | "2" | "j" => {
                let Some(index) = field_number(text) else {
                    ctx.report(&format!("invalid field number: {q}")).await;
                    return Err(1);
                };
                match *key {
                    "1" => settings.fields[0] = index,
                    "2" => settings.fields[1] = index,
                    _ => settings.fields = [index, index],
                }
            }
            "a" | "v" => {
                let file = match text {
                    "1" => 0,
                    "2" => 1,
                    _ => {
                        ctx.report(&format!("invalid field number: {q}")).await;
                        return Err(1);
                    }
                };
                settings.unpaired[file] = true;
                if *key == "v" {
                    settings.paired = false;
                }
            }
            "e" => settings.empty = Some(text.as_bytes().to_vec()),
            "o" if text == "auto" => settings.format = Format::Auto,
            "o" => {
                let mut list = match std::mem::replace(&mut settings.format, Format::Default) {
                    Format::List(list) => list,
                    _ => Vec::new(),
                };
                for item in text.split([',', ' ', '\t']).filter(|s| !s.is_empty()) {
                    let field = if item == "0" {
                        OutputField::Key
                    } else {
                        let Some((file, field)) = item.split_once('.') else {
                            ctx.report(&format!("invalid field specifier: {}", quote_locale(ctx, item))).await;
                            return Err(1);
                        };
                        let file = match file {
                            "1" => 0,
                            "2" => 1,
                            _ => {
                                ctx.report(&format!("invalid file number in field spec: {}", quote_locale(ctx, item))).await;
                                return Err(1);
                            }
                        };
                        let Some(field) = field_number(field) else {
                            ctx.report(&format!("invalid field number: {}", quote_locale(ctx, field))).await;
                            return Err(1);
                        };
                        OutputField::Field(file, field)
                    };
                    list.push(field);
                }
                settings.format = Format::List(list);
            }
            "t" => {
                settings.tab = match text.as_bytes() {
                    [] => Some(b'\n'),
                    [single] => Some(*single),
                    b"\\0" => Some(0),
                    _ => {
                        ctx.report(&format!("multi-character tab {q}")).await;
                        return Err(1);
                    }
                }
            }
            "i" => settings.ignore_case = true,
            "header" => settings.header = true,
            "check-order" => settings.check = Some(true),
            "nocheck-order" => settings.check = Some(false),
            "z" => settings.terminator = 0,
            _ => {}
        }
    }
    let message = match parsed.operands.as_slice() {
        [] => Some("missing operand".to_string()),
        [only] => Some(format!("missing operand after {}", quote_locale(ctx, only))),
        [_, _] => None,
        [_, _, extra, ..] => Some(format!("extra operand {}", crate::commands::format::quote(extra))),
    };
    if let Some(message) = message {
        report_usage(ctx, &message).await;
        return Err(1);
    }
    if parsed.operands.iter().all(|name| name == "-") {
        // GNU appends the stale errno of an earlier probe.
        ctx.report("both files cannot be standard input: No such file or directory").await;
        return Err(1);
    }
    Ok((settings, parsed.operands))
}

async fn join(ctx: &Invocation<'_>, settings: &Settings, operands: &[String]) -> Result<i32, i32> {
    let mut sides = Vec::new();
    for name in operands {
        let input = if name == "-" { Input::Stdin } else { Input::File(name.clone()) };
        let Some(stream) = open_or_report(ctx, &input, OpenError::Plain).await else {
            return Ok(1);
        };
        sides.push(Side {
            name: name.clone(),
            reader: LineReader::new(stream, settings.terminator),
            next: None,
            line_number: 0,
            warned: false,
        });
    }
    let [left, right] = sides.as_mut_slice() else {
        return Ok(1);
    };
    let mut out = Output::new(ctx);
    let mut text = Vec::new();
    let enabled = settings.check == Some(true);
    let mut seen_unpairable = false;
    let checking = |seen: bool| settings.check != Some(false) && (enabled || seen);
    left.advance(settings, 0, false).await;
    right.advance(settings, 1, false).await;
    let widths = [left.next.as_ref().map_or(0, |l| l.fields.len()), right.next.as_ref().map_or(0, |l| l.fields.len())];
    let mut disorder: Vec<(String, u64, Vec<u8>)> = Vec::new();
    if settings.header {
        if left.next.is_some() || right.next.is_some() {
            text.clear();
            settings.format_line(left.next.as_ref(), right.next.as_ref(), widths, &mut text);
            out.write(&text).await?;
        }
        left.advance(settings, 0, false).await;
        right.advance(settings, 1, false).await;
    }
    loop {
        for report in disorder.drain(..) {
            out.flush().await?;
            let (name, number, line) = report;
            ctx.report(&format!("{name}:{number}: is not sorted: {}", String::from_utf8_lossy(&line))).await;
            if enabled {
                return Ok(1);
            }
        }
        let order = match (&left.next, &right.next) {
            (None, None) => break,
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (Some(a), Some(b)) => settings.compare(a, b, settings.fields[0], settings.fields[1]),
        };
        if order != Ordering::Equal {
            // GNU counts a line as unpairable only while the other input
            // still has lines; after that its order is no longer checked.
            let both = left.next.is_some() && right.next.is_some();
            let (side, which) = if order == Ordering::Less { (&mut *left, 0) } else { (&mut *right, 1) };
            if settings.unpaired[which] {
                text.clear();
                let line = side.next.as_ref();
                if which == 0 {
                    settings.format_line(line, None, widths, &mut text);
                } else {
                    settings.format_line(None, line, widths, &mut text);
                }
                out.write(&text).await?;
            }
            disorder.extend(side.advance(settings, which, checking(seen_unpairable)).await);
            seen_unpairable |= both;
            continue;
        }
        // Gather every line with this key on both sides.
        let mut group_left = Vec::new();
        let mut group_right = Vec::new();
        for (side, which, group) in [(&mut *left, 0, &mut group_left), (&mut *right, 1, &mut group_right)] {
            let field = settings.fields[which];
            loop {
                disorder.extend(side.advance_keep(settings, which, checking(seen_unpairable), group).await);
                let same = match (&side.next, group.first()) {
                    (Some(next), Some(first)) => settings.compare(next, first, field, field) == Ordering::Equal,
                    _ => false,
                };
                if !same {
                    break;
                }
            }
        }
        if settings.paired {
            for a in &group_left {
                for b in &group_right {
                    text.clear();
                    settings.format_line(Some(a), Some(b), widths, &mut text);
                    out.write(&text).await?;
                }
            }
        }
    }
    out.flush().await?;
    if left.warned || right.warned {
        ctx.report("input is not in sorted order").await;
        return Ok(1);
    }
    Ok(0)
}

impl Side {
    /// Moves the look-ahead line into `group` and reads the next one.
    async fn advance_keep(
        &mut self,
        settings: &Settings,
        which: usize,
        checking: bool,
        group: &mut Vec<Line>,
    ) -> Option<(String, u64, Vec<u8>)> {
        self.advance_from(settings, which, checking, Some(group)).await
    }
}

/// Runs `join [OPTION]... FILE1 FILE2`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let (settings, operands) = match settings(ctx).await {
            Ok(found) => found,
            Err(status) => return status,
        };
        status_of(join(ctx, &settings, &operands).await)
    })
}
