//! [`Seq`]: the sequence type of tree nodes that usually hold one item (the
//! parts of a word, the commands of a pipeline). A single item is stored in
//! the node itself and only a second one allocates. It reads as a slice
//! through `Deref`.

use std::fmt;
use std::ops::{Deref, DerefMut};

/// A sequence that keeps a single item inline.
#[derive(Clone)]
pub enum Seq<T> {
    /// Zero items, or two and more.
    Many(Vec<T>),
    /// Exactly one item.
    One(T),
}

impl<T> Seq<T> {
    /// The empty sequence (allocates nothing).
    pub const fn new() -> Self {
        Seq::Many(Vec::new())
    }

    /// Appends `item`.
    #[inline]
    pub fn push(&mut self, item: T) {
        match self {
            Seq::Many(items) if items.is_empty() => *self = Seq::One(item),
            Seq::Many(items) => items.push(item),
            Seq::One(_) => {
                if let Seq::One(first) = std::mem::replace(self, Seq::Many(Vec::with_capacity(4))) {
                    if let Seq::Many(items) = self {
                        items.push(first);
                        items.push(item);
                    }
                }
            }
        }
    }

    /// The items as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[T] {
        match self {
            Seq::Many(items) => items,
            Seq::One(item) => std::slice::from_ref(item),
        }
    }

    /// The items as a mutable slice.
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        match self {
            Seq::Many(items) => items,
            Seq::One(item) => std::slice::from_mut(item),
        }
    }

    /// The items in a `Vec`.
    pub fn into_vec(self) -> Vec<T> {
        match self {
            Seq::Many(items) => items,
            Seq::One(item) => vec![item],
        }
    }
}

impl<T> Default for Seq<T> {
    fn default() -> Self {
        Seq::new()
    }
}

impl<T> Deref for Seq<T> {
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        self.as_slice()
    }
}

impl<T> DerefMut for Seq<T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        self.as_mut_slice()
    }
}

impl<T> From<Vec<T>> for Seq<T> {
    fn from(mut items: Vec<T>) -> Self {
        match items.pop() {
            Some(item) if items.is_empty() => Seq::One(item),
            Some(item) => {
                items.push(item);
                Seq::Many(items)
            }
            None => Seq::new(),
        }
    }
}

impl<T> FromIterator<T> for Seq<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut seq = Seq::new();
        for item in iter {
            seq.push(item);
        }
        seq
    }
}

impl<T> IntoIterator for Seq<T> {
    type Item = T;
    type IntoIter = std::iter::Chain<std::option::IntoIter<T>, std::vec::IntoIter<T>>;

    fn into_iter(self) -> Self::IntoIter {
        match self {
            Seq::One(item) => Some(item).into_iter().chain(Vec::new()),
            Seq::Many(items) => None.into_iter().chain(items),
        }
    }
}

impl<'a, T> IntoIterator for &'a Seq<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl<'a, T> IntoIterator for &'a mut Seq<T> {
    type Item = &'a mut T;
    type IntoIter = std::slice::IterMut<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.as_mut_slice().iter_mut()
    }
}

impl<T: PartialEq> PartialEq for Seq<T> {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: fmt::Debug> fmt::Debug for Seq<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_item_is_inline_and_two_are_a_vec() {
        let mut seq = Seq::new();
        assert!(seq.is_empty());
        seq.push(1);
        assert!(matches!(seq, Seq::One(1)));
        seq.push(2);
        seq.push(3);
        assert_eq!(&*seq, &[1, 2, 3]);
        assert_eq!(seq.clone().into_iter().collect::<Vec<_>>(), vec![1, 2, 3]);
        assert_eq!(Seq::from(vec![7]), Seq::One(7));
        assert_eq!(Seq::from(vec![7]).into_iter().collect::<Vec<_>>(), vec![7]);
        assert_eq!(Seq::<u8>::from(Vec::new()), Seq::new());
        assert_eq!(Seq::One(5), Seq::Many(vec![5]));
        assert_eq!(format!("{:?}", Seq::One(5)), "[5]");
    }
}
