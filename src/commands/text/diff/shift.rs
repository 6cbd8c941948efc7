//! GNU diff's last pass over the marks: each run of changed lines slides
//! along identical lines, first back then forward, merging with runs it
//! meets, and comes to rest at its furthest forward place unless it can
//! line up with a run of changes in the other input. This is what makes
//! an inserted `}` block start and end where a reader expects.

/// Slides the runs of changed lines in `changed` (with one sentinel `false`
/// at each end, so line `i` is `changed[i + 1]`) of both inputs.
pub fn shift_boundaries(classes: [&[u32]; 2], changed: [&mut Vec<bool>; 2]) {
    let [first, second] = changed;
    shift_one(classes[0], first, second);
    shift_one(classes[1], second, first);
}

/// A line's changed flag; out of range reads as the sentinel.
fn flag(marks: &[bool], line: isize) -> bool {
    marks.get((line + 1) as usize).copied().unwrap_or(false)
}

fn set(marks: &mut [bool], line: isize, value: bool) {
    if let Some(slot) = marks.get_mut((line + 1) as usize) {
        *slot = value;
    }
}

fn shift_one(classes: &[u32], changed: &mut [bool], other: &[bool]) {
    let class = |line: isize| classes.get(line as usize).copied();
    let end = classes.len() as isize;
    let mut i: isize = 0;
    let mut j: isize = 0;
    loop {
        while i < end && !flag(changed, i) {
            while flag(other, j) {
                j += 1;
            }
            j += 1;
            i += 1;
        }
        if i == end {
            break;
        }
        let mut start = i;
        i += 1;
        while flag(changed, i) {
            i += 1;
        }
        while flag(other, j) {
            j += 1;
        }
        let mut corresponding;
        loop {
            let run_length = i - start;
            while start > 0 && class(start - 1) == class(i - 1) {
                start -= 1;
                set(changed, start, true);
                i -= 1;
                set(changed, i, false);
                while flag(changed, start - 1) {
                    start -= 1;
                }
                j -= 1;
                while flag(other, j) {
                    j -= 1;
                }
            }
            corresponding = if flag(other, j - 1) { i } else { end };
            while i != end && class(start) == class(i) {
                set(changed, start, false);
                start += 1;
                set(changed, i, true);
                i += 1;
                while flag(changed, i) {
                    i += 1;
                }
                j += 1;
                while flag(other, j) {
                    j += 1;
                    corresponding = i;
                }
            }
            if run_length == i - start {
                break;
            }
        }
        while corresponding < i {
            start -= 1;
            set(changed, start, true);
            i -= 1;
            set(changed, i, false);
            j -= 1;
            while flag(other, j) {
                j -= 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::shift_boundaries;

    #[test]
    fn an_insertion_slides_forward() {
        // old: a b ; new: a b a b ; inserted run first marked at 0..2.
        let (old, new) = ([0u32, 1], [0u32, 1, 0, 1]);
        let mut changed_old = vec![false; 4];
        let mut changed_new = vec![false, true, true, false, false, false];
        shift_boundaries([&old, &new], [&mut changed_old, &mut changed_new]);
        assert_eq!(changed_new, vec![false, false, false, true, true, false]);
    }
}
