//! awk values: numbers, strings, strnums (input that looks numeric
//! compares as a number) and the uninitialized value, with awk's
//! conversions between them.

use std::rc::Rc;

/// A byte string shared cheaply: a fixed shared slice, or a growable
/// buffer that an append to a variable owning it alone extends in place
/// (so `s = s x` in a loop is amortized linear, as in gawk).
#[derive(Clone)]
pub enum Str {
    /// Most strings.
    Fixed(Rc<[u8]>),
    /// A string built by appending.
    Grown(Rc<Vec<u8>>),
}

impl Str {
    /// Appends `tail` to `head`, in place when `head` is a growable buffer
    /// nothing else shares.
    pub fn append(head: Str, tail: &[u8]) -> Str {
        match head {
            Str::Grown(mut buffer) => {
                if let Some(bytes) = Rc::get_mut(&mut buffer) {
                    bytes.extend_from_slice(tail);
                    return Str::Grown(buffer);
                }
                Str::Grown(Rc::new(joined(&buffer, tail)))
            }
            Str::Fixed(fixed) => Str::Grown(Rc::new(joined(&fixed, tail))),
        }
    }
}

fn joined(head: &[u8], tail: &[u8]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity((head.len() + tail.len()).max(16) * 2);
    bytes.extend_from_slice(head);
    bytes.extend_from_slice(tail);
    bytes
}

impl std::ops::Deref for Str {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Str::Fixed(bytes) => bytes,
            Str::Grown(bytes) => bytes.as_slice(),
        }
    }
}

impl AsRef<[u8]> for Str {
    fn as_ref(&self) -> &[u8] {
        self
    }
}

impl std::borrow::Borrow<[u8]> for Str {
    fn borrow(&self) -> &[u8] {
        self
    }
}

impl PartialEq for Str {
    fn eq(&self, other: &Str) -> bool {
        **self == **other
    }
}

impl Eq for Str {}

impl PartialOrd for Str {
    fn partial_cmp(&self, other: &Str) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Str {
    fn cmp(&self, other: &Str) -> std::cmp::Ordering {
        (**self).cmp(&**other)
    }
}

impl std::hash::Hash for Str {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (**self).hash(state);
    }
}

impl std::fmt::Debug for Str {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", String::from_utf8_lossy(self))
    }
}

impl Default for Str {
    fn default() -> Str {
        Str::Fixed(Rc::from(&b""[..]))
    }
}

impl From<&[u8]> for Str {
    fn from(bytes: &[u8]) -> Str {
        Str::Fixed(Rc::from(bytes))
    }
}

impl From<Vec<u8>> for Str {
    fn from(bytes: Vec<u8>) -> Str {
        Str::Fixed(Rc::from(bytes))
    }
}

impl From<Rc<[u8]>> for Str {
    fn from(bytes: Rc<[u8]>) -> Str {
        Str::Fixed(bytes)
    }
}

/// A scalar value.
#[derive(Debug, Clone, Default)]
pub enum Value {
    /// Never assigned: `""` and `0` at once.
    #[default]
    Uninit,
    /// A number.
    Num(f64),
    /// A string.
    Str(Str),
    /// A string from input (fields, `getline`, `ARGV`...): a number in
    /// comparisons when it looks like one.
    StrNum(Str),
    /// gawk's typed regex (`@/re/`): its text, a string that `~`,
    /// `match`, `sub`... use as a regex and `typeof` calls `regexp`.
    Regex(Str),
}

impl Value {
    /// A string value from bytes.
    pub fn str(bytes: &[u8]) -> Value {
        Value::Str(Str::from(bytes))
    }

    /// A strnum value from bytes.
    pub fn strnum(bytes: &[u8]) -> Value {
        Value::StrNum(Str::from(bytes))
    }

    /// The numeric value.
    pub fn num(&self) -> f64 {
        match self {
            Value::Uninit => 0.0,
            Value::Num(n) => *n,
            Value::Str(s) | Value::StrNum(s) => str_to_num(s),
            Value::Regex(_) => 0.0,
        }
    }

    /// True when the value counts as true in a condition.
    pub fn truthy(&self) -> bool {
        match self {
            Value::Uninit => false,
            Value::Num(n) => *n != 0.0,
            Value::Str(s) | Value::Regex(s) => !s.is_empty(),
            Value::StrNum(s) => match looks_numeric(s) {
                Some(n) => n != 0.0,
                None => !s.is_empty(),
            },
        }
    }

    /// True when comparisons treat the value as a number.
    pub fn is_numeric(&self) -> Option<f64> {
        match self {
            Value::Uninit => Some(0.0),
            Value::Num(n) => Some(*n),
            Value::Str(_) | Value::Regex(_) => None,
            Value::StrNum(s) => looks_numeric(s),
        }
    }
}

/// The number at the start of `s` (leading blanks skipped), as `strtod`
/// reads it in awk (decimal only; `+inf`/`-nan` with a sign).
pub fn str_to_num(s: &[u8]) -> f64 {
    prefix_number(s).map_or(0.0, |(n, _)| n)
}

/// The number at the start of `s` and where it ends.
pub fn prefix_number(s: &[u8]) -> Option<(f64, usize)> {
    let mut i = 0;
    while s.get(i).is_some_and(|c| matches!(c, b' ' | b'\t' | b'\n' | b'\r' | b'\x0b' | b'\x0c')) {
        i += 1;
    }
    let start = i;
    if matches!(s.get(i), Some(b'+' | b'-')) {
        i += 1;
        let rest = s.get(i..i + 3).unwrap_or(&[]);
        if rest.eq_ignore_ascii_case(b"inf") || rest.eq_ignore_ascii_case(b"nan") {
            let negative = s[start] == b'-';
            let value = if rest.eq_ignore_ascii_case(b"inf") { f64::INFINITY } else { f64::NAN };
            let mut end = i + 3;
            if rest.eq_ignore_ascii_case(b"inf") && s.get(i..i + 8).is_some_and(|w| w.eq_ignore_ascii_case(b"infinity")) {
                end = i + 8;
            }
            return Some((if negative { -value } else { value }, end));
        }
    }
    let digits_start = i;
    let mut whole = 0u64;
    while let Some(d) = s.get(i).filter(|d| d.is_ascii_digit()) {
        whole = whole.wrapping_mul(10).wrapping_add(u64::from(d - b'0'));
        i += 1;
    }
    let mut digits = i - digits_start;
    if digits > 0 && digits <= 15 && !matches!(s.get(i), Some(b'.' | b'e' | b'E')) {
        // An integer of at most 15 digits is exact as a double.
        let value = whole as f64;
        return Some((if s[start] == b'-' { -value } else { value }, i));
    }
    if s.get(i) == Some(&b'.') {
        i += 1;
        let fraction = i;
        while s.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        digits += i - fraction;
    }
    if digits == 0 {
        return None;
    }
    if matches!(s.get(i), Some(b'e' | b'E')) {
        let mut j = i + 1;
        if matches!(s.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        if s.get(j).is_some_and(u8::is_ascii_digit) {
            while s.get(j).is_some_and(u8::is_ascii_digit) {
                j += 1;
            }
            i = j;
        }
    }
    let text = std::str::from_utf8(&s[start..i]).ok()?;
    let text = text.strip_suffix('.').filter(|t| !t.is_empty() && *t != "+" && *t != "-").unwrap_or(text);
    let value = text.parse::<f64>().ok().or_else(|| format!("{text}0").parse::<f64>().ok())?;
    Some((value, i))
}

/// The number `s` is when all of it (blanks aside) is a number, as awk
/// decides whether input is a strnum.
pub fn looks_numeric(s: &[u8]) -> Option<f64> {
    let (value, end) = prefix_number(s)?;
    if s[end..].iter().all(|c| matches!(c, b' ' | b'\t' | b'\n' | b'\r' | b'\x0b' | b'\x0c')) {
        Some(value)
    } else {
        None
    }
}

/// True when `n` prints as an integer.
pub fn is_integral(n: f64) -> bool {
    n.is_finite() && n == n.trunc()
}

/// How gawk writes a number that is not finite.
pub fn special_number(n: f64) -> Option<&'static str> {
    if n.is_nan() {
        Some(if n.is_sign_negative() { "-nan" } else { "+nan" })
    } else if n.is_infinite() {
        Some(if n < 0.0 { "-inf" } else { "+inf" })
    } else {
        None
    }
}

/// An integral number as digits.
pub fn integer_text(n: f64) -> String {
    if n.abs() < 1e18 {
        format!("{}", n as i64)
    } else {
        format!("{n:.0}")
    }
}
