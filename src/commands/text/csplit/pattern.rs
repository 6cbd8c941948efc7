//! `csplit`'s operands: the patterns (`N`, `/RE/[OFFSET]`, `%RE%[OFFSET]`,
//! each maybe followed by `{N}` or `{*}`) and the `-b` suffix format,
//! checked with GNU's messages.

use crate::regex::{Regex, Syntax};

/// What ends a piece.
pub enum Kind {
    /// A line number.
    Line(u64),
    /// An expression: a piece ends at its next matching line (plus offset).
    Regex {
        /// The compiled expression.
        regex: Box<Regex>,
        /// `%RE%`: the lines up to the match are dropped, not written.
        skip: bool,
        /// Lines after (or before, when negative) the match.
        offset: i64,
    },
}

/// One pattern and how often it repeats.
pub struct Control {
    /// What it splits at.
    pub kind: Kind,
    /// `{N}`: repeated N more times.
    pub repeat: u64,
    /// `{*}`: repeated until the input ends.
    pub forever: bool,
    /// The operand as written, for messages.
    pub text: String,
}

/// A problem with the operands: the message, and whether the usage hint follows.
pub struct PatternError(pub String);

/// Quotes as gnulib's `quote` does in a UTF-8 locale (backslashes doubled).
pub fn quote(text: &str) -> String {
    let mut out = String::from("\u{2018}");
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\{:03o}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('\u{2019}');
    out
}

/// Reads an optionally signed decimal as `xstrtoimax` does.
fn parse_signed(text: &str) -> Option<i64> {
    let text = text.trim_start_matches([' ', '\t', '\n']);
    let (negative, digits) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let value: i64 = digits.parse().ok()?;
    Some(if negative { -value } else { value })
}

/// Reads an unsigned decimal as `xstrtoumax` does (no sign but `+`).
fn parse_unsigned(text: &str) -> Option<u64> {
    let text = text.trim_start_matches([' ', '\t', '\n']);
    let digits = text.strip_prefix('+').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse::<u64>().ok().filter(|v| *v <= i64::MAX as u64)
}

fn regex_control(text: &str) -> Result<Control, PatternError> {
    let delimiter = text.chars().next().unwrap_or('/');
    let body = &text[1..];
    let Some(close) = body.rfind(delimiter) else {
        return Err(PatternError(format!("{text}: closing delimiter '{delimiter}' missing")));
    };
    let syntax = Syntax { glibc: true, ..Syntax::default() };
    let regex = Regex::new(body[..close].as_bytes(), &syntax)
        .map_err(|error| PatternError(format!("{}: invalid regular expression: {error}", quote(text))))?;
    let rest = &body[close + 1..];
    let offset = if rest.is_empty() {
        0
    } else {
        parse_signed(rest).ok_or_else(|| PatternError(format!("{}: integer expected after delimiter", quote(text))))?
    };
    Ok(Control {
        kind: Kind::Regex { regex: Box::new(regex), skip: delimiter == '%', offset },
        repeat: 0,
        forever: false,
        text: text.to_string(),
    })
}

/// Parses the patterns; warnings (a repeated line number) go to `warnings`.
pub fn parse_patterns(operands: &[String], warnings: &mut Vec<String>) -> Result<Vec<Control>, PatternError> {
    let mut controls = Vec::new();
    let mut last = 0u64;
    let mut index = 0;
    while let Some(text) = operands.get(index) {
        let mut control = if text.starts_with('/') || text.starts_with('%') {
            regex_control(text)?
        } else {
            let Some(value) = parse_unsigned(text) else {
                return Err(PatternError(format!("{}: invalid pattern", quote(text))));
            };
            if value == 0 {
                return Err(PatternError(format!("{text}: line number must be greater than zero")));
            }
            if value < last {
                return Err(PatternError(format!("line number {} is smaller than preceding line number, {last}", quote(text))));
            }
            if value == last {
                warnings.push(format!("warning: line number {} is the same as preceding line number", quote(text)));
            }
            last = value;
            Control { kind: Kind::Line(value), repeat: 0, forever: false, text: text.clone() }
        };
        if let Some(count) = operands.get(index + 1).filter(|next| next.starts_with('{')) {
            index += 1;
            let Some(inner) = count.strip_suffix('}') else {
                return Err(PatternError(format!("{}: '}}' is required in repeat count", quote(count))));
            };
            if inner == "{*" {
                control.forever = true;
            } else {
                match parse_unsigned(&inner[1..]) {
                    Some(value) => control.repeat = value,
                    None => return Err(PatternError(format!("{}}}: integer required between '{{' and '}}'", quote(inner)))),
                }
            }
        }
        controls.push(control);
        index += 1;
    }
    Ok(controls)
}

/// A checked `-b` format: the text around one integer conversion.
pub struct SuffixFormat {
    before: String,
    flags: String,
    width: usize,
    precision: Option<usize>,
    conversion: char,
    after: String,
}

/// Checks a `-b` format as GNU's `max_out` does.
pub fn parse_suffix(format: &str) -> Result<SuffixFormat, String> {
    let chars: Vec<char> = format.chars().collect();
    let mut result: Option<SuffixFormat> = None;
    let mut literal = String::new();
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        if c != '%' {
            literal.push(c);
            i += 1;
            continue;
        }
        i += 1;
        if chars.get(i) == Some(&'%') {
            literal.push('%');
            i += 1;
            continue;
        }
        if result.is_some() {
            return Err("too many % conversion specifications in suffix".into());
        }
        let mut flags = String::new();
        let (mut thousands, mut alternative) = (false, false);
        while let Some(&f) = chars.get(i).filter(|f| matches!(f, '-' | '0' | '\'' | '#')) {
            thousands |= f == '\'';
            alternative |= f == '#';
            flags.push(f);
            i += 1;
        }
        let mut width = 0usize;
        while let Some(d) = chars.get(i).and_then(|c| c.to_digit(10)) {
            width = width.saturating_mul(10).saturating_add(d as usize).min(4096);
            i += 1;
        }
        let mut precision = None;
        if chars.get(i) == Some(&'.') {
            i += 1;
            let mut p = 0usize;
            while let Some(d) = chars.get(i).and_then(|c| c.to_digit(10)) {
                p = p.saturating_mul(10).saturating_add(d as usize).min(4096);
                i += 1;
            }
            precision = Some(p);
        }
        let conversion = match chars.get(i) {
            None => return Err("missing conversion specifier in suffix".into()),
            Some(&c) => c,
        };
        let compatible_alternative = match conversion {
            'd' | 'i' | 'u' => false,
            'o' | 'x' | 'X' => true,
            c if !c.is_control() && (c as u32) < 0x7f => return Err(format!("invalid conversion specifier in suffix: {c}")),
            c => return Err(format!("invalid conversion specifier in suffix: \\{:03o}", (c as u32) & 0xff)),
        };
        if (alternative && !compatible_alternative) || (thousands && compatible_alternative) {
            let flag = if alternative && !compatible_alternative { '#' } else { '\'' };
            return Err(format!("invalid flags in conversion specification: %{flag}{conversion}"));
        }
        i += 1;
        result = Some(SuffixFormat { before: std::mem::take(&mut literal), flags, width, precision, conversion, after: String::new() });
    }
    match result {
        Some(mut format) => {
            format.after = literal;
            Ok(format)
        }
        None => Err("missing % conversion specification in suffix".into()),
    }
}

impl SuffixFormat {
    /// The suffix for file number `n`.
    pub fn render(&self, n: usize) -> String {
        let mut digits = match self.conversion {
            'o' => format!("{n:o}"),
            'x' => format!("{n:x}"),
            'X' => format!("{n:X}"),
            _ => n.to_string(),
        };
        if let Some(precision) = self.precision {
            if digits.len() < precision {
                digits = format!("{}{digits}", "0".repeat(precision - digits.len()));
            }
        }
        if self.flags.contains('#') && n != 0 {
            digits = match self.conversion {
                'o' if !digits.starts_with('0') => format!("0{digits}"),
                'x' => format!("0x{digits}"),
                'X' => format!("0X{digits}"),
                _ => digits,
            };
        }
        let fill = self.width.saturating_sub(digits.len());
        let body = if self.flags.contains('-') {
            format!("{digits}{}", " ".repeat(fill))
        } else if self.flags.contains('0') && self.precision.is_none() {
            let (head, tail) =
                if digits.starts_with("0x") || digits.starts_with("0X") { digits.split_at(2) } else { ("", digits.as_str()) };
            format!("{head}{}{tail}", "0".repeat(fill))
        } else {
            format!("{}{digits}", " ".repeat(fill))
        };
        format!("{}{body}{}", self.before, self.after)
    }
}
