//! The keys of `sort`: `-k POS1[,POS2]` specifications with their ordering
//! flags, and finding a key's bytes in a line as GNU does (fields split at
//! `-t SEP` or at blank-to-nonblank transitions, leading blanks kept unless
//! `b`).

/// How a key's bytes are ordered.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Order {
    /// Byte order (the C.UTF-8 collation).
    #[default]
    Text,
    /// `-n`.
    Numeric,
    /// `-g`.
    General,
    /// `-h`.
    Human,
    /// `-M`.
    Month,
    /// `-V`.
    Version,
    /// `-R`.
    Random,
}

/// The ordering flags a key carries (or the global ones).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Flags {
    /// `b` on the start position (or global `-b`).
    pub skip_start_blanks: bool,
    /// `b` on the end position (or global `-b`).
    pub skip_end_blanks: bool,
    /// `d`: only blanks and alphanumerics count.
    pub dictionary: bool,
    /// `i`: only printable bytes count.
    pub printable: bool,
    /// `f`: lowercase folds to uppercase.
    pub fold: bool,
    /// `r`.
    pub reverse: bool,
    /// `n`, `g`, `h`, `M`, `V`, `R` (the last given wins here; conflicts are
    /// reported from the counts below).
    pub order: Order,
    /// How many distinct orderings were asked for, for GNU's conflict check.
    pub orders: [bool; 7],
}

impl Flags {
    /// True when the key has no flag at all (it then inherits the global ones).
    pub fn is_plain(&self) -> bool {
        *self == Flags::default()
    }

    /// Applies one option letter; false when it is not an ordering letter.
    pub fn apply(&mut self, letter: char, position_end: bool) -> bool {
        let order = match letter {
            'b' => {
                if position_end {
                    self.skip_end_blanks = true;
                } else {
                    self.skip_start_blanks = true;
                }
                return true;
            }
            'd' => {
                self.dictionary = true;
                return true;
            }
            'i' => {
                self.printable = true;
                return true;
            }
            'f' => {
                self.fold = true;
                return true;
            }
            'r' => {
                self.reverse = true;
                return true;
            }
            'n' => Order::Numeric,
            'g' => Order::General,
            'h' => Order::Human,
            'M' => Order::Month,
            'V' => Order::Version,
            'R' => Order::Random,
            _ => return false,
        };
        self.orders[order as usize] = true;
        self.order = order;
        true
    }

    /// GNU's letters for the flags, in its order (`-gn`), for messages.
    pub fn letters(&self) -> String {
        let mut out = String::new();
        let has = |order: Order| self.orders[order as usize];
        let pairs = [
            (self.skip_start_blanks || self.skip_end_blanks, 'b'),
            (self.dictionary, 'd'),
            (self.fold, 'f'),
            (has(Order::General), 'g'),
            (has(Order::Human), 'h'),
            (self.printable, 'i'),
            (has(Order::Month), 'M'),
            (has(Order::Numeric), 'n'),
            (has(Order::Random), 'R'),
            (self.reverse, 'r'),
            (has(Order::Version), 'V'),
        ];
        for (set, letter) in pairs {
            if set {
                out.push(letter);
            }
        }
        out
    }

    /// True when GNU refuses the combination (`-n` with `-g`, `-d` with `-n`...).
    pub fn incompatible(&self) -> bool {
        let has = |order: Order| usize::from(self.orders[order as usize]);
        let other =
            usize::from(self.orders[Order::Version as usize] || self.orders[Order::Random as usize] || self.dictionary || self.printable);
        has(Order::Numeric) + has(Order::General) + has(Order::Human) + has(Order::Month) + other > 1
    }
}

/// One `-k` key: 0-based start field and character, end field and
/// character (0 = end of field), and its flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key {
    /// Start field, 0-based.
    pub start_field: usize,
    /// Characters to skip in the start field.
    pub start_char: usize,
    /// End field, 0-based (`None`: the end of the line).
    pub end_field: Option<usize>,
    /// Last character in the end field, 1-based (0: the whole field).
    pub end_char: usize,
    /// The key's flags.
    pub flags: Flags,
}

/// Why a key specification is refused, with GNU's words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyError {
    /// `invalid number at field start`.
    BadStart,
    /// `field number is zero`.
    ZeroField,
    /// `character offset is zero`.
    ZeroChar,
    /// `invalid number after '.'`.
    BadChar,
    /// `invalid number after ','`.
    BadEnd,
    /// `stray character in field spec`.
    Stray,
}

impl KeyError {
    /// The message before `: invalid field specification 'SPEC'` (or for
    /// `BadStart`, before `: invalid count at start of 'SPEC'`).
    pub fn message(&self) -> &'static str {
        match self {
            KeyError::BadStart => "invalid number at field start",
            KeyError::ZeroField => "field number is zero",
            KeyError::ZeroChar => "character offset is zero",
            KeyError::BadChar => "invalid number after '.'",
            KeyError::BadEnd => "invalid number after ','",
            KeyError::Stray => "stray character in field spec",
        }
    }
}

/// Reads digits at the start of `text`: the number (saturated) and the rest.
fn number(text: &str) -> Option<(usize, &str)> {
    let end = text.find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len());
    if end == 0 {
        return None;
    }
    let value = text[..end].parse::<usize>().unwrap_or(usize::MAX);
    Some((value, &text[end..]))
}

/// Parses `F[.C][OPTS][,F[.C][OPTS]]`.
pub fn parse_key(spec: &str) -> Result<Key, KeyError> {
    let mut key = Key { start_field: 0, start_char: 0, end_field: None, end_char: 0, flags: Flags::default() };
    let (field, mut rest) = number(spec).ok_or(KeyError::BadStart)?;
    if field == 0 {
        return Err(KeyError::ZeroField);
    }
    key.start_field = field - 1;
    if let Some(after_dot) = rest.strip_prefix('.') {
        let (character, after) = number(after_dot).ok_or(KeyError::BadChar)?;
        if character == 0 {
            return Err(KeyError::ZeroChar);
        }
        key.start_char = character - 1;
        rest = after;
    }
    while let Some(letter) = rest.chars().next().filter(|c| *c != ',') {
        if !key.flags.apply(letter, false) {
            return Err(KeyError::Stray);
        }
        rest = &rest[letter.len_utf8()..];
    }
    if let Some(after_comma) = rest.strip_prefix(',') {
        let (field, after) = number(after_comma).ok_or(KeyError::BadEnd)?;
        if field == 0 {
            return Err(KeyError::ZeroField);
        }
        key.end_field = Some(field - 1);
        rest = after;
        if let Some(after_dot) = rest.strip_prefix('.') {
            let (character, after) = number(after_dot).ok_or(KeyError::BadChar)?;
            key.end_char = character;
            rest = after;
        }
        for letter in rest.chars() {
            if !key.flags.apply(letter, true) {
                return Err(KeyError::Stray);
            }
        }
    } else if !rest.is_empty() {
        return Err(KeyError::Stray);
    }
    Ok(key)
}

/// Blanks as GNU sort counts them: space, tab and newline.
pub fn is_blank(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n')
}

/// The byte range of `key` in `line`, fields separated by `tab` (or blanks).
pub fn key_range(line: &[u8], key: &Key, tab: Option<u8>) -> (usize, usize) {
    let limit = line.len();
    let at = |i: usize| line.get(i).copied().unwrap_or(0);
    // Start.
    let mut start = 0;
    let mut fields = key.start_field;
    while start < limit && fields > 0 {
        fields -= 1;
        match tab {
            Some(tab) => {
                while start < limit && at(start) != tab {
                    start += 1;
                }
                if start < limit {
                    start += 1;
                }
            }
            None => {
                while start < limit && is_blank(at(start)) {
                    start += 1;
                }
                while start < limit && !is_blank(at(start)) {
                    start += 1;
                }
            }
        }
    }
    if key.flags.skip_start_blanks {
        while start < limit && is_blank(at(start)) {
            start += 1;
        }
    }
    start = start.saturating_add(key.start_char).min(limit);
    // End.
    let Some(end_field) = key.end_field else {
        return (start, limit);
    };
    let mut end = 0;
    let mut fields = if key.end_char == 0 { end_field + 1 } else { end_field };
    while end < limit && fields > 0 {
        fields -= 1;
        match tab {
            Some(tab) => {
                while end < limit && at(end) != tab {
                    end += 1;
                }
                if end < limit && (fields > 0 || key.end_char != 0) {
                    end += 1;
                }
            }
            None => {
                while end < limit && is_blank(at(end)) {
                    end += 1;
                }
                while end < limit && !is_blank(at(end)) {
                    end += 1;
                }
            }
        }
    }
    if key.end_char != 0 {
        if key.flags.skip_end_blanks {
            while end < limit && is_blank(at(end)) {
                end += 1;
            }
        }
        end = end.saturating_add(key.end_char).min(limit);
    }
    (start, end.max(start))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slice<'a>(line: &'a str, spec: &str, tab: Option<u8>) -> &'a str {
        let key = parse_key(spec).unwrap();
        let (start, end) = key_range(line.as_bytes(), &key, tab);
        &line[start..end]
    }

    #[test]
    fn keys_find_fields() {
        assert_eq!(slice("a b c", "2", None), " b c");
        assert_eq!(slice("a b c", "2,2", None), " b");
        assert_eq!(slice("a b c", "2b,2", None), "b");
        assert_eq!(slice("a:b:c", "2,2", Some(b':')), "b");
        assert_eq!(slice("a:b:c", "2", Some(b':')), "b:c");
        assert_eq!(slice("abc def", "1.2,1.3", None), "bc");
        assert_eq!(slice("abc def", "2.2", None), "def");
        assert_eq!(parse_key("0"), Err(KeyError::ZeroField));
        assert_eq!(parse_key("1.0"), Err(KeyError::ZeroChar));
        assert_eq!(parse_key("a"), Err(KeyError::BadStart));
        assert_eq!(parse_key("1.2x"), Err(KeyError::Stray));
        assert!(parse_key("2n,3r").unwrap().flags.reverse);
    }
}
