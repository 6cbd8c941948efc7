//! GNU diff's first pass: lines that match nothing in the other input are
//! set aside as changed before the search, and so are lines matching very
//! many lines there when they sit inside a run of such lines. The search
//! then runs on the lines that remain, which keeps it fast and decides,
//! among edit scripts of equal cost, which one diff reports.

/// A line's state in the first pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mark {
    /// Kept for the search.
    Keep,
    /// Matches no line of the other input.
    Discard,
    /// Matches many lines of the other input: discarded only inside a run.
    Provisional,
}

/// The lines of one input that remain for the search.
pub struct Kept {
    /// Their classes.
    pub classes: Vec<u32>,
    /// Their indexes among all the lines.
    pub indexes: Vec<usize>,
}

/// Splits each input's lines into those kept for the search and those
/// discarded, marking the discarded ones in `changed`. With `minimal`,
/// nothing is discarded.
pub fn discard_confusing_lines(classes: [&[u32]; 2], changed: [&mut [bool]; 2], minimal: bool) -> [Kept; 2] {
    let class_count = classes.iter().flat_map(|c| c.iter()).max().map_or(0, |&m| m as usize + 1);
    let mut counts = [vec![0usize; class_count], vec![0usize; class_count]];
    for (side, list) in classes.iter().enumerate() {
        for &class in list.iter() {
            counts[side][class as usize] += 1;
        }
    }
    let mut marks = [initial_marks(classes[0], &counts[1]), initial_marks(classes[1], &counts[0])];
    for list in marks.iter_mut() {
        settle_runs(list);
    }
    let mut kept = Vec::with_capacity(2);
    for (side, changed) in changed.into_iter().enumerate() {
        let mut result = Kept { classes: Vec::new(), indexes: Vec::new() };
        for (index, (&class, &mark)) in classes[side].iter().zip(marks[side].iter()).enumerate() {
            if minimal || mark == Mark::Keep {
                result.classes.push(class);
                result.indexes.push(index);
            } else if let Some(flag) = changed.get_mut(index) {
                *flag = true;
            }
        }
        kept.push(result);
    }
    let second = kept.pop().unwrap_or(Kept { classes: Vec::new(), indexes: Vec::new() });
    let first = kept.pop().unwrap_or(Kept { classes: Vec::new(), indexes: Vec::new() });
    [first, second]
}

/// Marks lines matching nothing in the other input, and lines matching
/// more than about 5 * sqrt(lines / 64) * 2 of them as provisional.
fn initial_marks(classes: &[u32], other_counts: &[usize]) -> Vec<Mark> {
    let mut many = 5usize;
    let mut quarter = classes.len() / 64;
    loop {
        quarter >>= 2;
        if quarter == 0 {
            break;
        }
        many *= 2;
    }
    classes
        .iter()
        .map(|&class| match other_counts.get(class as usize).copied().unwrap_or(0) {
            0 => Mark::Discard,
            count if count > many => Mark::Provisional,
            _ => Mark::Keep,
        })
        .collect()
}

/// Keeps provisional lines unless they sit inside a run of discards that
/// starts and ends with a definite one and is not too provisional.
fn settle_runs(marks: &mut [Mark]) {
    let end = marks.len();
    let mut i = 0;
    while i < end {
        if marks[i] == Mark::Provisional {
            marks[i] = Mark::Keep;
        } else if marks[i] == Mark::Discard {
            let mut j = i;
            let mut provisional = 0usize;
            while j < end && marks[j] != Mark::Keep {
                if marks[j] == Mark::Provisional {
                    provisional += 1;
                }
                j += 1;
            }
            while j > i && marks[j - 1] == Mark::Provisional {
                j -= 1;
                marks[j] = Mark::Keep;
                provisional -= 1;
            }
            let length = j - i;
            if provisional * 4 > length {
                for mark in marks[i..j].iter_mut() {
                    if *mark == Mark::Provisional {
                        *mark = Mark::Keep;
                    }
                }
            } else {
                trim_run(&mut marks[i..j]);
            }
            i = j - 1;
        }
        i += 1;
    }
}

/// Within a run of discards, cancels long subruns of provisional lines and
/// the provisional lines near either end of the run.
fn trim_run(run: &mut [Mark]) {
    let length = run.len();
    let mut minimum = 1usize;
    let mut quarter = length >> 2;
    loop {
        quarter >>= 2;
        if quarter == 0 {
            break;
        }
        minimum <<= 1;
    }
    minimum += 1;
    let mut consecutive = 0usize;
    let mut j = 0usize;
    while j < length {
        if run[j] != Mark::Provisional {
            consecutive = 0;
        } else {
            consecutive += 1;
            if consecutive == minimum {
                // Back up to the start of the subrun to cancel all of it.
                j -= consecutive;
            } else if consecutive > minimum {
                run[j] = Mark::Keep;
            }
        }
        j += 1;
    }
    cancel_near_end(run.iter_mut());
    cancel_near_end(run.iter_mut().rev());
}

/// Cancels provisional lines from one end of a run until three definite
/// discards in a row, or a definite one at least eight lines in.
fn cancel_near_end<'m>(marks: impl Iterator<Item = &'m mut Mark>) {
    let mut consecutive = 0;
    for (offset, mark) in marks.enumerate() {
        if offset >= 8 && *mark == Mark::Discard {
            break;
        }
        match *mark {
            Mark::Provisional => {
                consecutive = 0;
                *mark = Mark::Keep;
            }
            Mark::Keep => consecutive = 0,
            Mark::Discard => consecutive += 1,
        }
        if consecutive == 3 {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unmatched_lines_are_discarded() {
        let (a, b) = ([0u32, 1, 2], [0u32, 2, 3]);
        let (mut c0, mut c1) = (vec![false; 3], vec![false; 3]);
        let [k0, k1] = discard_confusing_lines([&a, &b], [&mut c0, &mut c1], false);
        assert_eq!((k0.indexes, k1.indexes), (vec![0, 2], vec![0, 1]));
        assert_eq!((c0, c1), (vec![false, true, false], vec![false, false, true]));
    }

    #[test]
    fn provisional_lines_need_a_run() {
        let mut marks = vec![Mark::Provisional, Mark::Discard, Mark::Keep];
        settle_runs(&mut marks);
        assert_eq!(marks, vec![Mark::Keep, Mark::Discard, Mark::Keep]);
    }
}
