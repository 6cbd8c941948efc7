//! [`Text`]: the string type of literal word parts. Most literal text in a
//! script is short (`ls`, `-la`, `src/`), so up to [`INLINE_CAPACITY`]
//! bytes are stored inside the node itself and only longer text allocates;
//! this halves the allocations of a parse. It reads as a `&str` through
//! `Deref`.

use std::borrow::Borrow;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;

/// Text up to this many bytes is stored inline.
pub const INLINE_CAPACITY: usize = 30;

/// An immutable-looking string that stores short text inline.
#[derive(Clone)]
pub struct Text(Repr);

#[derive(Clone)]
enum Repr {
    /// Up to [`INLINE_CAPACITY`] bytes of UTF-8, the length first.
    Inline(u8, [u8; INLINE_CAPACITY]),
    /// Longer text.
    Heap(String),
}

impl Text {
    /// The empty text.
    pub const fn new() -> Self {
        Text(Repr::Inline(0, [0; INLINE_CAPACITY]))
    }

    /// The text as a string slice.
    #[inline]
    pub fn as_str(&self) -> &str {
        match &self.0 {
            // Inline bytes are only ever copied from whole `&str`s, so this
            // never fails; the empty fallback keeps it panic-free regardless.
            Repr::Inline(length, bytes) => std::str::from_utf8(bytes.get(..usize::from(*length)).unwrap_or(&[])).unwrap_or(""),
            Repr::Heap(text) => text,
        }
    }

    /// The text's bytes (without the UTF-8 check `as_str` makes).
    #[inline]
    pub fn as_bytes(&self) -> &[u8] {
        match &self.0 {
            Repr::Inline(length, bytes) => bytes.get(..usize::from(*length)).unwrap_or(&[]),
            Repr::Heap(text) => text.as_bytes(),
        }
    }

    /// The length in bytes.
    pub fn len(&self) -> usize {
        self.as_bytes().len()
    }

    /// True when the text is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.as_bytes().is_empty()
    }

    /// Appends `more`.
    pub fn push_str(&mut self, more: &str) {
        match &mut self.0 {
            Repr::Heap(text) => text.push_str(more),
            Repr::Inline(length, bytes) => {
                let old = usize::from(*length);
                let new = old + more.len();
                match bytes.get_mut(old..new) {
                    Some(room) if new <= INLINE_CAPACITY => {
                        room.copy_from_slice(more.as_bytes());
                        *length = new as u8;
                    }
                    _ => {
                        let mut text = String::with_capacity(new);
                        text.push_str(self.as_str());
                        text.push_str(more);
                        self.0 = Repr::Heap(text);
                    }
                }
            }
        }
    }

    /// Appends one character.
    pub fn push(&mut self, c: char) {
        self.push_str(c.encode_utf8(&mut [0; 4]));
    }

    /// The text as an owned `String`.
    pub fn into_string(self) -> String {
        match self.0 {
            Repr::Heap(text) => text,
            Repr::Inline(..) => self.as_str().to_string(),
        }
    }
}

impl Text {
    /// The `length` bytes of `source` from `start` (which must start and end
    /// on character boundaries): short text is copied inline through a
    /// fixed-size window when the source has the room, which compiles to a
    /// few moves instead of a call to `memcpy`. Out-of-range input gives
    /// the empty text.
    #[inline]
    pub fn from_source(source: &str, start: usize, length: usize) -> Self {
        let bytes = source.as_bytes();
        if length > INLINE_CAPACITY {
            return source.get(start..start + length).map_or_else(Text::new, |text| Text(Repr::Heap(text.to_string())));
        }
        let mut inline = [0; INLINE_CAPACITY];
        if let Some(window) = bytes.get(start..start + INLINE_CAPACITY) {
            // Bytes past `length` are never read: `as_str` stops at the length.
            inline.copy_from_slice(window);
        } else if let (Some(room), Some(text)) = (inline.get_mut(..length), bytes.get(start..start + length)) {
            room.copy_from_slice(text);
        } else {
            return Text::new();
        }
        Text(Repr::Inline(length as u8, inline))
    }
}

impl Default for Text {
    fn default() -> Self {
        Text::new()
    }
}

impl Deref for Text {
    type Target = str;

    #[inline]
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Text {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl Borrow<str> for Text {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl From<&str> for Text {
    fn from(text: &str) -> Self {
        let mut bytes = [0; INLINE_CAPACITY];
        match bytes.get_mut(..text.len()) {
            Some(room) => {
                room.copy_from_slice(text.as_bytes());
                Text(Repr::Inline(text.len() as u8, bytes))
            }
            None => Text(Repr::Heap(text.to_string())),
        }
    }
}

impl From<String> for Text {
    fn from(text: String) -> Self {
        if text.len() <= INLINE_CAPACITY {
            Text::from(text.as_str())
        } else {
            Text(Repr::Heap(text))
        }
    }
}

impl From<char> for Text {
    fn from(c: char) -> Self {
        Text::from(&*c.encode_utf8(&mut [0; 4]))
    }
}

impl From<Text> for String {
    fn from(text: Text) -> Self {
        text.into_string()
    }
}

impl PartialEq for Text {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Text {}

impl PartialEq<str> for Text {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Text {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for Text {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other
    }
}

impl Hash for Text {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_stays_inline_and_long_text_moves_to_the_heap() {
        let mut text = Text::from("ab");
        assert!(matches!(text.0, Repr::Inline(2, _)));
        text.push('é');
        text.push_str(&"x".repeat(26));
        assert!(matches!(text.0, Repr::Inline(30, _)));
        text.push('y');
        assert!(matches!(text.0, Repr::Heap(_)));
        assert_eq!(text.as_str(), format!("abé{}y", "x".repeat(26)));
        assert_eq!(Text::from("x".repeat(40)).len(), 40);
        assert_eq!(Text::from('€'), "€");
        assert_eq!(Text::default(), "");
        let source = format!("ab cd{}", "z".repeat(40));
        assert_eq!(Text::from_source(&source, 3, 2), "cd");
        assert_eq!(Text::from_source(&source, 3, 35), &source[3..38]);
        assert_eq!(Text::from_source("xyz", 1, 2), "yz");
        assert_eq!(Text::from_source("xyz", 2, 5), "");
    }

    #[test]
    fn compares_and_hashes_as_its_string() {
        let long = "y".repeat(50);
        assert_eq!(Text::from(long.as_str()), Text::from(long.clone()));
        assert_eq!(String::from(Text::from("q")), "q");
        assert_eq!(format!("{:?} {}", Text::from("a\"b"), Text::from("c")), "\"a\\\"b\" c");
    }
}
