//! Reading JSON texts (a stream of values, with jq's parse errors) and
//! writing values as jq prints them (indentation, key sorting, `-a`,
//! number formatting of jq 1.7).

use super::value::{Map, Value};
use crate::commands::format::Digits;
use rustc_hash::FxHashMap;
use std::rc::Rc;

/// Deeper values print as `<skipped: too deep>`, as in jq.
const MAX_PRINT_DEPTH: usize = if cfg!(debug_assertions) { 1000 } else { 10000 };

/// How values are written.
#[derive(Clone, Copy, Debug)]
pub struct Style {
    /// Spaces per level; 0 writes compactly.
    pub indent: usize,
    /// Indent with tabs.
    pub tab: bool,
    /// Sort object keys (`-S`).
    pub sort_keys: bool,
    /// Escape non-ASCII characters (`-a`).
    pub ascii: bool,
    /// Colour the output (`-C`).
    pub color: bool,
}

impl Style {
    /// The compact style of `tojson` and `-c`.
    pub const COMPACT: Style = Style { indent: 0, tab: false, sort_keys: false, ascii: false, color: false };
}

/// Formats a double as jq 1.7 does: the shortest digits that read back,
/// in exponent form when very large or small, infinities as the largest double.
pub fn format_number(n: f64, out: &mut String) {
    if n.is_nan() {
        out.push_str("null");
        return;
    }
    let n = if n.is_infinite() { f64::MAX.copysign(n) } else { n };
    if n == 0.0 {
        out.push_str(if n.is_sign_negative() { "-0" } else { "0" });
        return;
    }
    if n.fract() == 0.0 && n.abs() < 1e16 {
        push_integer(n as i64, out);
        return;
    }
    // Rust's `{:e}` gives the shortest round-trip digits.
    let sci = format!("{:e}", n.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(|c| c.is_ascii_digit()).collect();
    let ndigits = digits.len() as i32;
    let decpt = exp + 1;
    if n < 0.0 {
        out.push('-');
    }
    if decpt <= -4 || decpt > ndigits + 15 {
        out.push_str(digits.get(..1).unwrap_or("0"));
        if ndigits > 1 {
            out.push('.');
            out.push_str(digits.get(1..).unwrap_or(""));
        }
        out.push('e');
        let e = decpt - 1;
        out.push(if e < 0 { '-' } else { '+' });
        let e = e.abs();
        if e < 10 {
            out.push('0');
        }
        out.push_str(&e.to_string());
    } else if decpt <= 0 {
        out.push_str("0.");
        for _ in 0..-decpt {
            out.push('0');
        }
        out.push_str(&digits);
    } else if decpt >= ndigits {
        out.push_str(&digits);
        for _ in 0..decpt - ndigits {
            out.push('0');
        }
    } else {
        let (a, b) = digits.split_at(decpt as usize);
        out.push_str(a);
        out.push('.');
        out.push_str(b);
    }
}

/// Appends the decimal digits of `n` without allocating.
fn push_integer(n: i64, out: &mut String) {
    if n < 0 {
        out.push('-');
    }
    let mut digits = Digits::default();
    out.push_str(std::str::from_utf8(digits.decimal(n.unsigned_abs())).unwrap_or(""));
}

fn is_plain_integer(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) && (digits == "0" || !digits.starts_with('0'))
}

/// The canonical text of a number literal, as decNumber writes it
/// (`1.0`, `1E+2`, `100000000000000000000`).
pub fn canonical_literal(text: &str) -> Option<String> {
    let (negative, rest) = match text.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, text),
    };
    let (mantissa, exp) = match rest.find(['e', 'E']) {
        Some(i) => (rest.get(..i)?, rest.get(i + 1..)?.parse::<i64>().ok()?),
        None => (rest, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit()) || (int.is_empty() && frac.is_empty()) {
        return None;
    }
    let mut coeff: String = format!("{int}{frac}").trim_start_matches('0').to_string();
    if coeff.is_empty() {
        coeff.push('0');
    }
    let e = exp.checked_sub(frac.len() as i64)?;
    let n = coeff.len() as i64;
    let adjusted = e + n - 1;
    let mut out = String::new();
    if negative {
        out.push('-');
    }
    if e <= 0 && adjusted >= -6 {
        if e == 0 {
            out.push_str(&coeff);
        } else {
            let point = n + e;
            if point > 0 {
                let (a, b) = coeff.split_at(point as usize);
                out.push_str(a);
                out.push('.');
                out.push_str(b);
            } else {
                out.push_str("0.");
                for _ in 0..-point {
                    out.push('0');
                }
                out.push_str(&coeff);
            }
        }
    } else {
        let (a, b) = coeff.split_at(1);
        out.push_str(a);
        if !b.is_empty() {
            out.push('.');
            out.push_str(b);
        }
        out.push('E');
        out.push(if adjusted < 0 { '-' } else { '+' });
        out.push_str(&adjusted.abs().to_string());
    }
    Some(out)
}

fn write_string(s: &str, ascii: bool, out: &mut String) {
    out.push('"');
    let mut plain_from = 0;
    for (i, c) in s.char_indices() {
        let escape = matches!(c, '"' | '\\') || (c as u32) < 0x20 || c as u32 == 0x7f || (ascii && (c as u32) > 0x7e);
        if !escape {
            continue;
        }
        out.push_str(s.get(plain_from..i).unwrap_or(""));
        plain_from = i + c.len_utf8();
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => {
                let mut buf = [0u16; 2];
                for unit in c.encode_utf16(&mut buf) {
                    out.push_str(&format!("\\u{:04x}", unit));
                }
            }
        }
    }
    out.push_str(s.get(plain_from..).unwrap_or(""));
    out.push('"');
}

const COLOR_NULL: &str = "1;30";
const COLOR_FALSE: &str = "0;39";
const COLOR_TRUE: &str = "0;39";
const COLOR_NUM: &str = "0;39";
const COLOR_STR: &str = "0;32";
const COLOR_ARR: &str = "1;39";
const COLOR_OBJ: &str = "1;39";
const COLOR_KEY: &str = "34;1";

const SPACES: &str = "                                                                ";

fn newline(style: &Style, depth: usize, out: &mut String) {
    out.push('\n');
    if style.tab {
        for _ in 0..depth {
            out.push('\t');
        }
    } else {
        let mut n = depth * style.indent;
        while n > 0 {
            let k = n.min(SPACES.len());
            out.push_str(SPACES.get(..k).unwrap_or(""));
            n -= k;
        }
    }
}

fn color_start(style: &Style, code: &str, out: &mut String) {
    if style.color {
        out.push_str("\x1b[");
        out.push_str(code);
        out.push('m');
    }
}

fn color_end(style: &Style, out: &mut String) {
    if style.color {
        out.push_str("\x1b[0m");
    }
}

/// Appends `value` written in `style` to `out`.
pub fn dump(value: &Value, style: &Style, depth: usize, out: &mut String) {
    if depth > MAX_PRINT_DEPTH {
        out.push_str("<skipped: too deep>");
        return;
    }
    let pretty = style.indent > 0 || style.tab;
    match value {
        Value::Null => {
            color_start(style, COLOR_NULL, out);
            out.push_str("null");
            color_end(style, out);
        }
        Value::Bool(b) => {
            color_start(style, if *b { COLOR_TRUE } else { COLOR_FALSE }, out);
            out.push_str(if *b { "true" } else { "false" });
            color_end(style, out);
        }
        Value::Num(n, lit) => {
            color_start(style, COLOR_NUM, out);
            match lit {
                // Plain integers are already in canonical form.
                Some(l) if !n.is_nan() && is_plain_integer(l) => out.push_str(l),
                Some(l) if !n.is_nan() => match canonical_literal(l) {
                    Some(text) => out.push_str(&text),
                    None => format_number(*n, out),
                },
                _ => format_number(*n, out),
            }
            color_end(style, out);
        }
        Value::Str(s) => {
            color_start(style, COLOR_STR, out);
            write_string(s, style.ascii, out);
            color_end(style, out);
        }
        Value::Arr(a) => {
            color_start(style, COLOR_ARR, out);
            out.push('[');
            if a.is_empty() {
                out.push(']');
                color_end(style, out);
                return;
            }
            for (i, v) in a.iter().enumerate() {
                if i > 0 {
                    color_start(style, COLOR_ARR, out);
                    out.push(',');
                }
                if pretty {
                    newline(style, depth + 1, out);
                }
                color_end(style, out);
                dump(v, style, depth + 1, out);
            }
            color_start(style, COLOR_ARR, out);
            if pretty {
                newline(style, depth, out);
            }
            color_start(style, COLOR_ARR, out);
            out.push(']');
            color_end(style, out);
        }
        Value::Obj(o) => {
            color_start(style, COLOR_OBJ, out);
            out.push('{');
            if o.is_empty() {
                out.push('}');
                color_end(style, out);
                return;
            }
            let keys: Vec<Rc<str>> = if style.sort_keys { o.sorted_keys() } else { o.iter().map(|(k, _)| k.clone()).collect() };
            for (i, k) in keys.iter().enumerate() {
                if i > 0 {
                    color_start(style, COLOR_OBJ, out);
                    out.push(',');
                }
                if pretty {
                    newline(style, depth + 1, out);
                }
                color_end(style, out);
                if style.color {
                    out.push_str("\x1b[");
                    out.push_str(COLOR_KEY);
                    out.push('m');
                    write_string(k, style.ascii, out);
                    out.push_str("\x1b[0m");
                    color_start(style, COLOR_OBJ, out);
                    out.push(':');
                    if pretty {
                        out.push(' ');
                    }
                    color_end(style, out);
                } else {
                    write_string(k, style.ascii, out);
                    out.push(':');
                    if pretty {
                        out.push(' ');
                    }
                }
                if let Some(v) = o.get(k) {
                    dump(v, style, depth + 1, out);
                }
            }
            color_start(style, COLOR_OBJ, out);
            if pretty {
                newline(style, depth, out);
            }
            color_start(style, COLOR_OBJ, out);
            out.push('}');
            color_end(style, out);
        }
    }
}

/// The compact JSON text of `value` (`tojson`).
pub fn to_json(value: &Value) -> String {
    let mut out = String::new();
    dump(value, &Style::COMPACT, 0, &mut out);
    out
}

/// The compact text of `value` cut to 11 bytes and `...`, as error messages show it.
pub fn dump_short(value: &Value) -> String {
    truncate(&to_json(value), 15)
}

/// Cuts `text` to fit a C buffer of `size` bytes, marking the cut with `...`.
pub fn truncate(text: &str, size: usize) -> String {
    if text.len() <= size - 1 {
        return text.to_string();
    }
    let bytes = text.as_bytes().get(..size - 4).unwrap_or(b"");
    format!("{}...", String::from_utf8_lossy(bytes))
}

/// Object keys and short strings already read, shared instead of allocated
/// again: records of one shape repeat the same keys thousands of times.
/// Holds at most [`Interner::CAPACITY`] texts; once full it only looks up.
#[derive(Default)]
pub struct Interner {
    texts: FxHashMap<Box<[u8]>, Rc<str>>,
}

impl Interner {
    /// How many distinct texts are kept.
    const CAPACITY: usize = 4096;
    /// Longer object keys are not kept.
    const MAX_KEY: usize = 64;
    /// Longer string values are not kept.
    const MAX_VALUE: usize = 16;

    /// True when texts as long as `body` are kept (keys or values).
    fn fits(body: &[u8], key: bool) -> bool {
        body.len() <= if key { Self::MAX_KEY } else { Self::MAX_VALUE }
    }

    /// The shared text of the string whose bytes are `body`, when kept.
    fn get(&self, body: &[u8], key: bool) -> Option<Rc<str>> {
        Self::fits(body, key).then(|| self.texts.get(body).cloned()).flatten()
    }

    /// Keeps `text` (read from `body`, checked plain) while there is room.
    fn keep(&mut self, body: &[u8], text: &Rc<str>, key: bool) {
        if self.texts.len() < Self::CAPACITY && Self::fits(body, key) {
            self.texts.insert(Box::from(body), text.clone());
        }
    }
}

/// A JSON text reader over bytes: values one after another.
pub struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
    /// Newlines consumed so far.
    pub line: usize,
    line_start: usize,
    depth: usize,
    /// Where the last error was found (reading stops at the end after one).
    pub failed_at: usize,
    /// Texts shared across the values read; a caller reading a stream of
    /// values hands it from reader to reader ([`Reader::interner`]).
    pub interner: Interner,
}

/// A parse error: the message with its position.
pub type ParseError = String;

/// jq's limit on nesting in JSON texts (lower in unoptimized builds, whose
/// larger frames would not fit 10000 levels in a test thread's stack).
const MAX_DEPTH: usize = if cfg!(debug_assertions) { 1000 } else { 10000 };

impl<'a> Reader<'a> {
    /// A reader over `data`.
    pub fn new(data: &'a [u8]) -> Self {
        Reader { data, pos: 0, line: 0, line_start: 0, depth: 0, failed_at: 0, interner: Interner::default() }
    }

    /// A reader over `data` continuing at `pos`, where `line` newlines
    /// have been read and the current line starts at `line_start`, so
    /// messages give positions in the whole text.
    pub fn resume(data: &'a [u8], pos: usize, line: usize, line_start: usize) -> Self {
        Reader { data, pos, line, line_start, depth: 0, failed_at: 0, interner: Interner::default() }
    }

    /// Where the current line starts.
    pub fn line_start(&self) -> usize {
        self.line_start
    }

    fn peek(&self) -> Option<u8> {
        self.data.get(self.pos).copied()
    }

    fn bump(&mut self) -> Option<u8> {
        let b = self.peek()?;
        self.pos += 1;
        if b == b'\n' {
            self.line += 1;
            self.line_start = self.pos;
        }
        Some(b)
    }

    fn skip_ws(&mut self) {
        while let Some(b) = self.peek() {
            if b == b' ' || b == b'\t' || b == b'\n' || b == b'\r' || b == 0xef || b == 0xbb || b == 0xbf && self.pos < 3 {
                self.bump();
            } else {
                break;
            }
        }
    }

    fn error(&self, message: &str) -> ParseError {
        format!("{message} at line {}, column {}", self.line + 1, self.pos - self.line_start)
    }

    fn error_at_eof(&self, message: &str) -> ParseError {
        format!("{message} at EOF at line {}, column {}", self.line + 1, self.pos - self.line_start)
    }

    /// How many bytes have been consumed.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// The next value, `None` at the end of the input.
    pub fn next_value(&mut self) -> Option<Result<Value, ParseError>> {
        self.skip_ws();
        self.peek()?;
        let value = self.value();
        if value.is_ok() {
            // jq counts the delimiter after a top-level scalar as read.
            if let Some(b) = self.peek() {
                if b == b'\n' || b == b' ' || b == b'\t' || b == b'\r' {
                    self.bump();
                }
            }
        } else {
            // After an error nothing more is read.
            self.failed_at = self.pos;
            self.pos = self.data.len();
        }
        Some(value)
    }

    fn value(&mut self) -> Result<Value, ParseError> {
        self.skip_ws();
        let Some(b) = self.peek() else {
            return Err(self.error_at_eof("Unfinished JSON term"));
        };
        match b {
            b'{' => {
                self.bump();
                self.enter()?;
                let mut map = Map::new();
                self.skip_ws();
                if self.peek() == Some(b'}') {
                    self.bump();
                    self.depth -= 1;
                    return Ok(Value::Obj(Rc::new(map)));
                }
                loop {
                    self.skip_ws();
                    match self.peek() {
                        Some(b'"') => {}
                        None => return Err(self.error_at_eof("Unfinished JSON term")),
                        Some(_) => {
                            self.bump();
                            return Err(self.error("Object keys must be strings"));
                        }
                    }
                    self.bump();
                    let key = self.string_rc(true)?;
                    self.skip_ws();
                    match self.bump() {
                        Some(b':') => {}
                        None => return Err(self.error_at_eof("Unfinished JSON term")),
                        Some(_) => return Err(self.error("Objects must consist of key:value pairs")),
                    }
                    let v = self.value()?;
                    map.insert(key, v);
                    self.skip_ws();
                    match self.bump() {
                        Some(b',') => continue,
                        Some(b'}') => break,
                        None => return Err(self.error_at_eof("Unfinished JSON term")),
                        Some(_) => return Err(self.error("Expected separator between values")),
                    }
                }
                self.depth -= 1;
                Ok(Value::Obj(Rc::new(map)))
            }
            b'[' => {
                self.bump();
                self.enter()?;
                let mut items = Vec::new();
                self.skip_ws();
                if self.peek() == Some(b']') {
                    self.bump();
                    self.depth -= 1;
                    return Ok(Value::arr(items));
                }
                loop {
                    items.push(self.value()?);
                    self.skip_ws();
                    match self.bump() {
                        Some(b',') => continue,
                        Some(b']') => break,
                        None => return Err(self.error_at_eof("Unfinished JSON term")),
                        Some(_) => return Err(self.error("Expected separator between values")),
                    }
                }
                self.depth -= 1;
                Ok(Value::arr(items))
            }
            b'"' => {
                self.bump();
                Ok(Value::Str(self.string_rc(false)?))
            }
            b']' | b'}' => {
                self.bump();
                Err(self.error(if b == b']' { "Unmatched ']'" } else { "Unmatched '}'" }))
            }
            b',' => {
                self.bump();
                Err(self.error("Expected value before ','"))
            }
            b':' => {
                self.bump();
                Err(self.error("':' not as part of an object"))
            }
            _ => self.literal(),
        }
    }

    fn enter(&mut self) -> Result<(), ParseError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.error("Exceeds depth limit for parsing"));
        }
        Ok(())
    }

    fn literal(&mut self) -> Result<Value, ParseError> {
        let start = self.pos;
        // A literal's bytes hold no newline, so the line stays as it is.
        let rest = self.data.get(start..).unwrap_or(&[]);
        let len = rest
            .iter()
            .position(|&b| !(b.is_ascii_alphanumeric() || b == b'.' || b == b'-' || b == b'+' || b >= 0x80))
            .unwrap_or(rest.len());
        self.pos += len;
        if let Some(n) = rest.get(..len).and_then(small_integer) {
            return Ok(Value::Num(n, None));
        }
        if self.pos == start {
            self.bump();
            return Err(self.error("Invalid literal"));
        }
        let word = std::str::from_utf8(self.data.get(start..self.pos).unwrap_or(b"")).unwrap_or("");
        let at_eof = self.peek().is_none();
        match word {
            "null" => return Ok(Value::Null),
            "true" => return Ok(Value::Bool(true)),
            "false" => return Ok(Value::Bool(false)),
            "nan" | "NaN" | "-nan" | "-NaN" => return Ok(Value::num(f64::NAN)),
            "infinity" | "Infinity" => return Ok(Value::num(f64::INFINITY)),
            "-infinity" | "-Infinity" => return Ok(Value::num(f64::NEG_INFINITY)),
            _ => {}
        }
        match parse_number(word) {
            Some(n) if prints_as_written(word) => Ok(Value::Num(n, None)),
            Some(n) => Ok(Value::Num(n, Some(Rc::new(word.strip_prefix('+').unwrap_or(word).to_string())))),
            None if at_eof => {
                // jq reports a word cut by the end of input as it goes.
                Err(self.error_at_eof("Unfinished JSON term").replace("Unfinished JSON term at EOF", "Invalid numeric literal at EOF"))
            }
            None => {
                self.bump();
                Err(self.error("Invalid numeric literal"))
            }
        }
    }

    /// A string after its opening quote (an object key when `key`), shared;
    /// plain strings (no escapes, valid UTF-8, no control characters) are
    /// taken straight from the input, or from the interner when seen before.
    fn string_rc(&mut self, key: bool) -> Result<Rc<str>, ParseError> {
        let data = self.data;
        let rest = data.get(self.pos..).unwrap_or(&[]);
        if let Some(end) = memchr::memchr2(b'"', b'\\', rest) {
            if rest.get(end) == Some(&b'"') {
                if let Some(body) = rest.get(..end) {
                    if let Some(value) = self.interner.get(body, key) {
                        self.pos += end + 1;
                        return Ok(value);
                    }
                    if !body.iter().any(|b| *b < 0x20) {
                        if let Ok(text) = std::str::from_utf8(body) {
                            let value: Rc<str> = Rc::from(text);
                            self.interner.keep(body, &value, key);
                            self.pos += end + 1;
                            return Ok(value);
                        }
                    }
                }
            }
        }
        Ok(Rc::from(self.string()?.as_str()))
    }

    fn string(&mut self) -> Result<String, ParseError> {
        let mut bytes: Vec<u8> = Vec::new();
        loop {
            let Some(b) = self.bump() else {
                return Err(self.error_at_eof("Unfinished JSON term"));
            };
            match b {
                b'"' => break,
                b'\\' => {
                    let Some(e) = self.bump() else {
                        return Err(self.error_at_eof("Unfinished JSON term"));
                    };
                    match e {
                        b'n' => bytes.push(b'\n'),
                        b't' => bytes.push(b'\t'),
                        b'r' => bytes.push(b'\r'),
                        b'b' => bytes.push(8),
                        b'f' => bytes.push(12),
                        b'/' => bytes.push(b'/'),
                        b'\\' => bytes.push(b'\\'),
                        b'"' => bytes.push(b'"'),
                        b'u' => {
                            let unit = self.hex4()?;
                            let c = if (0xd800..0xdc00).contains(&unit) {
                                if self.data.get(self.pos..self.pos + 2) == Some(b"\\u") {
                                    self.bump();
                                    self.bump();
                                    let low = self.hex4()?;
                                    if (0xdc00..0xe000).contains(&low) {
                                        char::from_u32(0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00))
                                    } else {
                                        None
                                    }
                                } else {
                                    None
                                }
                            } else {
                                char::from_u32(unit)
                            };
                            let mut buf = [0u8; 4];
                            bytes.extend_from_slice(c.unwrap_or('\u{fffd}').encode_utf8(&mut buf).as_bytes());
                        }
                        _ => return Err(self.error("Invalid escape")),
                    }
                }
                _ => bytes.push(b),
            }
        }
        Ok(match String::from_utf8(bytes) {
            Ok(s) => s,
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
        })
    }

    fn hex4(&mut self) -> Result<u32, ParseError> {
        let mut unit = 0u32;
        for _ in 0..4 {
            let d = self.bump().and_then(|b| (b as char).to_digit(16));
            match d {
                Some(d) => unit = unit * 16 + d,
                None => return Err(self.error("Invalid escape")),
            }
        }
        Ok(unit)
    }
}

/// The value of an integer literal of at most 15 digits (`0`, `-42`; not
/// `007`), which prints back as written without its text kept.
fn small_integer(word: &[u8]) -> Option<f64> {
    let (negative, digits) = match word.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, word),
    };
    if digits.is_empty() || digits.len() > 15 || (digits.len() > 1 && digits.first() == Some(&b'0')) {
        return None;
    }
    let mut n: i64 = 0;
    for &b in digits {
        if !b.is_ascii_digit() {
            return None;
        }
        n = n * 10 + i64::from(b - b'0');
    }
    let n = n as f64;
    Some(if negative { -n } else { n })
}

/// True when a decimal literal prints back exactly as the double it reads
/// as would print, so its text need not be kept: a nonzero integer part, at
/// most 15 significant digits and no trailing zero (`-12.5`, `3.25`; not
/// `1.0`, `0.5`, `1e3`). Integers are [`small_integer`]'s.
fn prints_as_written(word: &str) -> bool {
    let body = word.strip_prefix('-').unwrap_or(word);
    let Some((int, frac)) = body.split_once('.') else { return false };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    digits(int) && digits(frac) && int.len() + frac.len() <= 15 && !int.starts_with('0') && !frac.ends_with('0')
}

/// Reads a JSON number (also jq's forms like `.5`, `1.`, `+1`? no), `None` when invalid.
pub fn parse_number(word: &str) -> Option<f64> {
    let body = word.strip_prefix('-').or_else(|| word.strip_prefix('+')).unwrap_or(word);
    let first = body.bytes().next()?;
    if !(first.is_ascii_digit() || first == b'.') {
        return None;
    }
    if !body.bytes().all(|b| b.is_ascii_digit() || b == b'.' || b == b'e' || b == b'E' || b == b'+' || b == b'-') {
        return None;
    }
    word.parse::<f64>().ok()
}

/// Parses one whole JSON text (`fromjson`, `--argjson`): exactly one value.
pub fn parse_one(text: &str) -> Result<Value, ParseError> {
    let mut reader = Reader::new(text.as_bytes());
    match reader.next_value() {
        None => Err("Expected JSON value".to_string()),
        Some(Err(e)) => Err(e),
        Some(Ok(v)) => match reader.next_value() {
            None => Ok(v),
            Some(Ok(_)) => Err("Unexpected extra JSON values".to_string()),
            Some(Err(e)) => Err(e),
        },
    }
}
