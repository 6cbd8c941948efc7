//! Text forms shared by the utilities: GNU's quoting of file names in
//! messages, `ls`-style mode strings, human-readable sizes and block counts,
//! decimal digits without allocating.

use crate::fs::{FileType, Metadata};
use crate::utility::Invocation;

/// True when the invocation's locale (`LC_ALL`, `LC_CTYPE`, `LANG`, first
/// set wins) uses UTF-8, as the sandbox's default `LANG=C.UTF-8` does.
pub fn locale_is_utf8(ctx: &Invocation<'_>) -> bool {
    let value = ["LC_ALL", "LC_CTYPE", "LANG"].iter().find_map(|name| ctx.env_var(name).filter(|v| !v.is_empty()));
    value.is_some_and(|v| {
        let lower = v.to_ascii_lowercase();
        lower.contains("utf-8") || lower.contains("utf8")
    })
}

/// Quotes text the way GNU's `quote()` does in messages like `mkdir: cannot
/// create directory ‘a’`: curly quotes under a UTF-8 locale, ASCII ones
/// otherwise. (Other messages, like `rm: cannot remove 'a'`, always use
/// [`quote`].)
pub fn quote_locale(ctx: &Invocation<'_>, text: &str) -> String {
    let escaped: String = text.chars().map(|c| if c.is_control() { control_escape(c) } else { c.to_string() }).collect();
    if locale_is_utf8(ctx) {
        format!("\u{2018}{escaped}\u{2019}")
    } else {
        format!("'{escaped}'")
    }
}

/// Quotes a file name the way GNU tools do in diagnostics
/// (`cannot stat 'x'`): single quotes, double quotes when the name holds a
/// single quote and nothing the shell would expand, `$'\n'` for control bytes.
pub fn quote(name: &str) -> String {
    let has_control = name.chars().any(|c| c.is_control());
    if !has_control {
        if !name.contains('\'') {
            return format!("'{name}'");
        }
        if !name.contains(['"', '$', '`', '\\', '!']) {
            return format!("\"{name}\"");
        }
        return format!("'{}'", name.replace('\'', "'\\''"));
    }
    let mut out = String::from("'");
    for c in name.chars() {
        if c.is_control() {
            out.push_str("'$'");
            out.push_str(&control_escape(c));
            out.push_str("''");
        } else if c == '\'' {
            out.push_str("'\\''");
        } else {
            out.push(c);
        }
    }
    out.push('\'');
    // `'a'$'\n'''` reads better without the empty quotes GNU also drops.
    if out.ends_with("''") && out.len() > 2 {
        out.truncate(out.len() - 2);
    }
    if let Some(rest) = out.strip_prefix("''") {
        return rest.to_string();
    }
    out
}

/// A file name as GNU's `quotef` shows it in `NAME: error` messages: bare
/// unless the shell, or the colon after it, would misread it.
pub fn quotef(name: &str) -> String {
    let special =
        name.is_empty() || name.starts_with(['#', '~']) || name.chars().any(|c| c.is_control() || " !\"$&'()*;<>?[\\]^`{|}:".contains(c));
    if special {
        quote(name)
    } else {
        name.to_string()
    }
}

/// The C escape of a control character (`\n`, `\t`, `\001`).
fn control_escape(c: char) -> String {
    match c {
        '\n' => "\\n".into(),
        '\t' => "\\t".into(),
        '\r' => "\\r".into(),
        '\x07' => "\\a".into(),
        '\x08' => "\\b".into(),
        '\x0b' => "\\v".into(),
        '\x0c' => "\\f".into(),
        other => format!("\\{:03o}", other as u32 & 0o377),
    }
}

/// The one-letter type GNU `ls -l` shows first (`d`, `-`, `l`, `c`, `p`).
pub fn type_letter(file_type: FileType) -> char {
    match file_type {
        FileType::File => '-',
        FileType::Directory => 'd',
        FileType::Symlink => 'l',
        FileType::CharDevice => 'c',
        FileType::Fifo => 'p',
    }
}

/// The ten-character mode string of `ls -l` and `stat %A` (`drwxr-xr-x`),
/// with set-id and sticky bits shown as `s`/`S` and `t`/`T`.
pub fn mode_string(file_type: FileType, mode: u32) -> String {
    let mut out = String::with_capacity(10);
    out.push(type_letter(file_type));
    let triplets = [(0o400, 0o200, 0o100, 0o4000, 's'), (0o040, 0o020, 0o010, 0o2000, 's'), (0o004, 0o002, 0o001, 0o1000, 't')];
    for (read, write, exec, special, letter) in triplets {
        out.push(if mode & read != 0 { 'r' } else { '-' });
        out.push(if mode & write != 0 { 'w' } else { '-' });
        out.push(match (mode & exec != 0, mode & special != 0) {
            (true, true) => letter,
            (false, true) => letter.to_ascii_uppercase(),
            (true, false) => 'x',
            (false, false) => '-',
        });
    }
    out
}

/// The GNU human-readable form of a byte count (`ls -h`, `du -h`): powers of
/// 1024 (1000 with `si`), rounded up, one decimal below 10 (`1.5K`, `10K`).
pub fn human_size(bytes: u64, si: bool) -> String {
    let base: u64 = if si { 1000 } else { 1024 };
    if bytes < base {
        return bytes.to_string();
    }
    let units = ['K', 'M', 'G', 'T', 'P', 'E'];
    let mut unit = 0;
    let mut divisor = base;
    while unit + 1 < units.len() && bytes / divisor >= base {
        divisor = divisor.saturating_mul(base);
        unit += 1;
    }
    let tenths = (bytes as u128 * 10).div_ceil(divisor as u128);
    let letter = |index: usize| units.get(index).copied().unwrap_or('E');
    let suffix = |index: usize| if si && index == 0 { "k".to_string() } else { letter(index).to_string() };
    if tenths < 100 {
        return format!("{}.{}{}", tenths / 10, tenths % 10, suffix(unit));
    }
    let whole = (bytes as u128).div_ceil(divisor as u128);
    if whole >= base as u128 && unit + 1 < units.len() {
        return format!("1.0{}", suffix(unit + 1));
    }
    format!("{}{}", whole, suffix(unit))
}

/// Disk usage in 1024-byte blocks as the in-memory filesystem accounts it:
/// whole 4 KiB blocks for files and directories, nothing for links and devices.
pub fn kib_blocks(metadata: &Metadata) -> u64 {
    match metadata.file_type {
        FileType::File | FileType::Directory => metadata.size.div_ceil(4096).saturating_mul(4),
        _ => 0,
    }
}

/// Right-aligns `text` to `width` columns.
pub fn pad_left(text: &str, width: usize) -> String {
    format!("{text:>width$}")
}

/// The flags, width and precision of one `%` directive of `find -printf` and
/// `stat --format`, as read after the `%`: `%-10.3p` is left-aligned, width
/// 10, precision 3. Both tools hand these to C's printf, so they mean what
/// they mean there.
#[derive(Debug, Default, PartialEq)]
pub struct Directive {
    /// `-`: pad on the right.
    pub left: bool,
    /// `0`: pad numbers with zeros after their sign or prefix.
    pub zero: bool,
    /// `+` (or `' '` for the space flag): the sign shown before a signed number.
    pub sign: Option<char>,
    /// `#`: octal numbers start with `0`, hexadecimal ones with `0x`.
    pub alternate: bool,
    /// The minimum width in characters (0 when absent).
    pub width: usize,
    /// The precision after `.` (`%.p` is precision 0, as C's printf reads it):
    /// the most characters of a text, the fewest digits of a number.
    pub precision: Option<usize>,
}

/// What one directive converts to, before its flags, width and precision apply.
#[derive(Debug, PartialEq)]
pub enum Field {
    /// Text (a name, a date, a size GNU formats as a string).
    Text(String),
    /// A signed number printed in decimal (`%d`: `+` and space flags apply).
    Signed(i64),
    /// An unsigned number printed in decimal (`%u`).
    Decimal(u64),
    /// A number printed in octal (`%o`).
    Octal(u64),
    /// A number printed in lower-case hexadecimal (`%x`).
    Hex(u64),
}

impl Directive {
    /// Reads flags (any of `flag_chars`), width and precision from `chars` at
    /// `*at`, moving `*at` past them to the conversion letter.
    pub fn scan(chars: &[char], at: &mut usize, flag_chars: &str) -> Directive {
        let mut directive = Directive::default();
        while let Some(&flag) = chars.get(*at).filter(|f| flag_chars.contains(**f)) {
            match flag {
                '-' => directive.left = true,
                '0' => directive.zero = true,
                '#' => directive.alternate = true,
                '+' => directive.sign = Some('+'),
                ' ' => directive.sign = directive.sign.or(Some(' ')),
                _ => {}
            }
            *at += 1;
        }
        directive.width = scan_number(chars, at);
        if chars.get(*at) == Some(&'.') {
            *at += 1;
            directive.precision = Some(scan_number(chars, at));
        }
        directive
    }

    /// Appends `field` to `out` as C's printf would format it under this
    /// directive: text cut to the precision and padded with spaces; numbers
    /// given at least precision digits, their sign or `#` prefix, and padded
    /// with zeros (under `0` without a precision) or spaces.
    pub fn write(&self, field: &Field, out: &mut String) {
        let (prefix, digits) = match field {
            Field::Text(text) => {
                let text = match self.precision {
                    Some(limit) => text.get(..text.char_indices().nth(limit).map_or(text.len(), |(at, _)| at)).unwrap_or(text),
                    None => text,
                };
                self.pad("", text, false, out);
                return;
            }
            Field::Signed(value) => {
                let sign = if *value < 0 { Some('-') } else { self.sign };
                (sign.map(String::from).unwrap_or_default(), self.digits(value.unsigned_abs().to_string(), value.unsigned_abs()))
            }
            Field::Decimal(value) => (String::new(), self.digits(value.to_string(), *value)),
            Field::Octal(value) => {
                let digits = self.digits(format!("{value:o}"), *value);
                match self.alternate && !digits.starts_with('0') {
                    true => (String::new(), format!("0{digits}")),
                    false => (String::new(), digits),
                }
            }
            Field::Hex(value) => {
                let prefix = if self.alternate && *value != 0 { "0x" } else { "" };
                (prefix.to_string(), self.digits(format!("{value:x}"), *value))
            }
        };
        self.pad(&prefix, &digits, self.zero && self.precision.is_none(), out);
    }

    /// A number's digits widened with zeros to the precision (none at all for
    /// 0 under precision 0).
    fn digits(&self, digits: String, value: u64) -> String {
        match self.precision {
            Some(0) if value == 0 => String::new(),
            Some(least) if least > digits.len() => format!("{}{digits}", "0".repeat(least - digits.len())),
            _ => digits,
        }
    }

    /// Pads `prefix` and `body` to the width: on the right under `-`, with
    /// zeros between them when `zeros`, else with spaces on the left.
    fn pad(&self, prefix: &str, body: &str, zeros: bool, out: &mut String) {
        let fill = self.width.saturating_sub(prefix.chars().count() + body.chars().count());
        if self.left {
            out.push_str(prefix);
            out.push_str(body);
            out.extend(std::iter::repeat_n(' ', fill));
        } else if zeros {
            out.push_str(prefix);
            out.extend(std::iter::repeat_n('0', fill));
            out.push_str(body);
        } else {
            out.extend(std::iter::repeat_n(' ', fill));
            out.push_str(prefix);
            out.push_str(body);
        }
    }
}

/// Reads decimal digits at `*at` (0 when there are none; a huge number
/// saturates).
fn scan_number(chars: &[char], at: &mut usize) -> usize {
    let mut value: usize = 0;
    while let Some(digit) = chars.get(*at).and_then(|c| c.to_digit(10)) {
        value = value.saturating_mul(10).saturating_add(digit as usize);
        *at += 1;
    }
    value
}

/// A stack buffer for the decimal digits of a `u64`, so hot formatting
/// paths (awk's `printf`, jq's numbers) allocate nothing per number.
pub struct Digits([u8; 20]);

impl Default for Digits {
    fn default() -> Self {
        Digits([0; 20])
    }
}

impl Digits {
    /// The digits of `n` (at least one).
    pub fn decimal(&mut self, mut n: u64) -> &[u8] {
        let mut at = self.0.len();
        loop {
            at -= 1;
            if let Some(slot) = self.0.get_mut(at) {
                *slot = b'0' + (n % 10) as u8;
            }
            n /= 10;
            if n == 0 || at == 0 {
                break;
            }
        }
        self.0.get(at..).unwrap_or(&[])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_like_gnu() {
        assert_eq!(quote("ab"), "'ab'");
        assert_eq!(quote("a b"), "'a b'");
        assert_eq!(quote("a'b"), "\"a'b\"");
        assert_eq!(quote("a'$b"), "'a'\\''$b'");
        assert_eq!(quote("a\nb"), "'a'$'\\n''b'");
        assert_eq!(quote("a\tb"), "'a'$'\\t''b'");
        assert_eq!(quote("é"), "'é'");
    }

    #[test]
    fn modes() {
        assert_eq!(mode_string(FileType::Directory, 0o755), "drwxr-xr-x");
        assert_eq!(mode_string(FileType::Directory, 0o1777), "drwxrwxrwt");
        assert_eq!(mode_string(FileType::File, 0o4644), "-rwSr--r--");
        assert_eq!(mode_string(FileType::Symlink, 0o777), "lrwxrwxrwx");
    }

    #[test]
    fn decimal_digits() {
        let mut digits = Digits::default();
        assert_eq!(digits.decimal(0), b"0");
        assert_eq!(digits.decimal(907), b"907");
        assert_eq!(digits.decimal(u64::MAX), u64::MAX.to_string().as_bytes());
    }

    #[test]
    fn human_sizes_round_up() {
        assert_eq!(human_size(1023, false), "1023");
        assert_eq!(human_size(1500, false), "1.5K");
        assert_eq!(human_size(4096, false), "4.0K");
        assert_eq!(human_size(10189, false), "10K");
        assert_eq!(human_size(10240, false), "10K");
        assert_eq!(human_size(1_048_576, false), "1.0M");
        assert_eq!(human_size(1_048_000, false), "1.0M");
        assert_eq!(human_size(1500, true), "1.5k");
    }
}
