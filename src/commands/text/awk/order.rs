//! The order `for (k in a)` visits keys in when `PROCINFO["sorted_in"]` is
//! not set, reproducing gawk's: an array whose first key is an integer
//! keeps integer keys in ascending order after its other keys; other keys
//! come in the order of gawk's string hash table (the sdbm hash over
//! bytes, prime table sizes growing past two entries per chain, new
//! entries at the head of their chain).

use super::value::Str;

/// Table sizes gawk's string arrays grow through.
const SIZES: &[usize] = &[
    13, 127, 1021, 8191, 16381, 32749, 65497, 131101, 262147, 524309, 1048583, 2097169, 4194319, 8388617, 16777259, 33554467,
];

/// Most entries per chain, on average, before the table grows.
const CHAIN_MAX: usize = 2;

/// gawk's string hash (sdbm, 32 bits, bytes read as signed chars).
fn hash(key: &[u8]) -> u32 {
    key.iter().fold(0u32, |h, &c| {
        let c = i32::from(c as i8) as u32;
        c.wrapping_add(h << 6).wrapping_add(h << 16).wrapping_sub(h)
    })
}

/// The integer an array key stands for, when gawk would store it as one.
fn integer_key(key: &[u8]) -> Option<i64> {
    let digits = key.strip_prefix(b"-").unwrap_or(key);
    if digits.is_empty() || digits.len() > 18 || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    if digits[0] == b'0' && (digits.len() > 1 || key.len() > 1) {
        return None;
    }
    std::str::from_utf8(key).ok()?.parse().ok()
}

/// The keys (given in insertion order) in gawk's traversal order.
pub fn gawk_order(keys: Vec<Str>) -> Vec<Str> {
    let integer_array = keys.first().is_some_and(|k| integer_key(k).is_some());
    if !integer_array {
        return hashed(keys);
    }
    let (mut integers, strings): (Vec<(i64, Str)>, Vec<Str>) = {
        let mut integers = Vec::new();
        let mut strings = Vec::new();
        for key in keys {
            match integer_key(&key) {
                Some(n) => integers.push((n, key)),
                None => strings.push(key),
            }
        }
        (integers, strings)
    };
    integers.sort_by_key(|(n, _)| *n);
    let mut out = hashed(strings);
    out.extend(integers.into_iter().map(|(_, k)| k));
    out
}

fn hashed(keys: Vec<Str>) -> Vec<Str> {
    if keys.len() < 2 {
        return keys;
    }
    let codes: Vec<u32> = keys.iter().map(|k| hash(k)).collect();
    let mut size = SIZES[0];
    // Each bucket lists its entries oldest first; the chain's head is the last.
    let mut buckets: Vec<Vec<usize>> = vec![Vec::new(); size];
    for (count, &code) in codes.iter().enumerate() {
        if (count + 1) / size > CHAIN_MAX {
            if let Some(&next) = SIZES.iter().find(|&&s| s > size) {
                let mut grown: Vec<Vec<usize>> = vec![Vec::new(); next];
                for bucket in &buckets {
                    for &item in bucket.iter().rev() {
                        grown[codes[item] as usize % next].push(item);
                    }
                }
                buckets = grown;
                size = next;
            }
        }
        buckets[code as usize % size].push(count);
    }
    let mut slots: Vec<Option<Str>> = keys.into_iter().map(Some).collect();
    let mut out = Vec::with_capacity(slots.len());
    for bucket in &buckets {
        for &item in bucket.iter().rev() {
            if let Some(key) = slots.get_mut(item).and_then(Option::take) {
                out.push(key);
            }
        }
    }
    out
}
