//! The fast path of `sort` for whole-line byte order (plain `sort`, `-r`,
//! `-u`, `-s`, `-k1` without flags): lines compare as byte strings, so two
//! lines that compare equal are the same bytes, GNU's last-resort
//! comparison adds nothing, and an unstable sort gives the same output as a
//! stable one.
//!
//! Each line becomes a (prefix, line) pair: the prefix is the eight bytes
//! after the prefix that every line shares, read big-endian and padded with
//! zeros, so most comparisons are one integer compare; equal prefixes fall
//! back to comparing the rest of the lines.

use crate::commands::text::sort_key::{Key, Order};
use std::cmp::Ordering;

/// When `keys` is one key over the whole line with byte order and no flag
/// but `r` (the case this module sorts), whether it is reversed.
pub fn whole_line(keys: &[Key]) -> Option<bool> {
    let [key] = keys else { return None };
    let flags = &key.flags;
    let plain = key.start_field == 0
        && key.start_char == 0
        && key.end_field.is_none()
        && flags.order == Order::Text
        && !flags.skip_start_blanks
        && !flags.skip_end_blanks
        && !flags.dictionary
        && !flags.printable
        && !flags.fold;
    plain.then_some(flags.reverse)
}

/// The length of the prefix all `lines` share.
fn common_prefix(lines: &[&[u8]]) -> usize {
    let Some(first) = lines.first() else { return 0 };
    let mut shared = first.len();
    for line in lines {
        if shared == 0 {
            break;
        }
        shared = first.iter().zip(line.iter()).take(shared).take_while(|(a, b)| a == b).count();
    }
    shared
}

/// The eight bytes of `line` from `at`, big-endian, zero-padded.
fn prefix_at(line: &[u8], at: usize) -> u64 {
    let rest = line.get(at..).unwrap_or(&[]);
    match rest.get(..8) {
        Some(eight) => u64::from_be_bytes(eight.try_into().unwrap_or([0; 8])),
        None => {
            let mut bytes = [0u8; 8];
            bytes.iter_mut().zip(rest).for_each(|(to, from)| *to = *from);
            u64::from_be_bytes(bytes)
        }
    }
}

/// Sorts `lines` in byte order (descending when `reverse`).
pub fn sort(lines: Vec<&[u8]>, reverse: bool) -> Vec<&[u8]> {
    let shared = common_prefix(&lines);
    let mut pairs: Vec<(u64, &[u8])> = lines.into_iter().map(|line| (prefix_at(line, shared), line)).collect();
    let compare = |a: &(u64, &[u8]), b: &(u64, &[u8])| -> Ordering {
        a.0.cmp(&b.0).then_with(|| a.1.get(shared..).unwrap_or(&[]).cmp(b.1.get(shared..).unwrap_or(&[])))
    };
    if reverse {
        pairs.sort_unstable_by(|a, b| compare(b, a));
    } else {
        pairs.sort_unstable_by(compare);
    }
    pairs.into_iter().map(|(_, line)| line).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_by_bytes_past_a_shared_prefix() {
        let lines: Vec<&[u8]> = vec![b"ab\x00", b"ab", b"abc", b"abbbbbbbbbbz", b"abbbbbbbbbba", b"ab\xff"];
        let expected: Vec<&[u8]> = vec![b"ab", b"ab\x00", b"abbbbbbbbbba", b"abbbbbbbbbbz", b"abc", b"ab\xff"];
        assert_eq!(sort(lines.clone(), false), expected);
        let reversed: Vec<&[u8]> = expected.iter().rev().copied().collect();
        assert_eq!(sort(lines, true), reversed);
        assert_eq!(common_prefix(&[b"abc", b"abd", b"ab"]), 2);
        assert_eq!(prefix_at(b"xa", 1), u64::from(b'a') << 56);
    }
}
