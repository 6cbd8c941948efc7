//! The search for a shortest edit script: Myers' O(ND) algorithm with the
//! middle-snake divide and conquer, shaped as GNU diff shapes it (the same
//! order of diagonals, the same tie-breaks, and its "too expensive" cutoff
//! that settles for a good split instead of the best one on hard inputs),
//! so that among scripts of equal cost it picks the one GNU diff picks.
//! The recursion is an explicit stack, so no input can overflow it.

/// Where a range splits, and whether each half must be searched exactly.
struct Split {
    x: isize,
    y: isize,
    low_minimal: bool,
    high_minimal: bool,
}

/// The state of one search.
struct Search<'s> {
    old: &'s [u32],
    new: &'s [u32],
    /// Furthest x reached on each diagonal, forward and backward; index
    /// `diagonal + offset`.
    forward: Vec<isize>,
    backward: Vec<isize>,
    offset: isize,
    too_expensive: isize,
}

/// Marks in `deleted` and `inserted` (indexed like `old` and `new`) the
/// elements a short edit script from `old` to `new` deletes and inserts.
pub fn mark_changes(old: &[u32], new: &[u32], minimal: bool, deleted: &mut [bool], inserted: &mut [bool]) {
    let diagonals = old.len() + new.len() + 3;
    let mut too_expensive: isize = 1;
    let mut rest = diagonals;
    while rest != 0 {
        rest >>= 2;
        too_expensive <<= 1;
    }
    let mut search = Search {
        old,
        new,
        forward: vec![0; diagonals],
        backward: vec![0; diagonals],
        offset: new.len() as isize + 1,
        too_expensive: too_expensive.max(4096),
    };
    let mut stack = vec![(0isize, old.len() as isize, 0isize, new.len() as isize, minimal)];
    while let Some((mut xoff, mut xlim, mut yoff, mut ylim, minimal)) = stack.pop() {
        while xoff < xlim && yoff < ylim && search.equal(xoff, yoff) {
            xoff += 1;
            yoff += 1;
        }
        while xoff < xlim && yoff < ylim && search.equal(xlim - 1, ylim - 1) {
            xlim -= 1;
            ylim -= 1;
        }
        if xoff == xlim {
            for y in yoff..ylim {
                if let Some(flag) = inserted.get_mut(y as usize) {
                    *flag = true;
                }
            }
        } else if yoff == ylim {
            for x in xoff..xlim {
                if let Some(flag) = deleted.get_mut(x as usize) {
                    *flag = true;
                }
            }
        } else {
            let split = search.diagonal(xoff, xlim, yoff, ylim, minimal);
            stack.push((split.x, xlim, split.y, ylim, split.high_minimal));
            stack.push((xoff, split.x, yoff, split.y, split.low_minimal));
        }
    }
}

impl Search<'_> {
    fn equal(&self, x: isize, y: isize) -> bool {
        match (self.old.get(x as usize), self.new.get(y as usize)) {
            (Some(a), Some(b)) => a == b,
            _ => false,
        }
    }

    fn fd(&self, d: isize) -> isize {
        self.forward.get((d + self.offset) as usize).copied().unwrap_or(-1)
    }

    fn bd(&self, d: isize) -> isize {
        self.backward.get((d + self.offset) as usize).copied().unwrap_or(isize::MAX)
    }

    fn set_fd(&mut self, d: isize, x: isize) {
        if let Some(slot) = self.forward.get_mut((d + self.offset) as usize) {
            *slot = x;
        }
    }

    fn set_bd(&mut self, d: isize, x: isize) {
        if let Some(slot) = self.backward.get_mut((d + self.offset) as usize) {
            *slot = x;
        }
    }

    /// Finds the midpoint of the shortest edit script for the range,
    /// searching forward from its top and backward from its bottom at once.
    fn diagonal(&mut self, xoff: isize, xlim: isize, yoff: isize, ylim: isize, find_minimal: bool) -> Split {
        let dmin = xoff - ylim;
        let dmax = xlim - yoff;
        let fmid = xoff - yoff;
        let bmid = xlim - ylim;
        let (mut fmin, mut fmax, mut bmin, mut bmax) = (fmid, fmid, bmid, bmid);
        let odd = (fmid - bmid) & 1 != 0;
        self.set_fd(fmid, xoff);
        self.set_bd(bmid, xlim);
        let mut cost: isize = 1;
        loop {
            if fmin > dmin {
                fmin -= 1;
                self.set_fd(fmin - 1, -1);
            } else {
                fmin += 1;
            }
            if fmax < dmax {
                fmax += 1;
                self.set_fd(fmax + 1, -1);
            } else {
                fmax -= 1;
            }
            let mut d = fmax;
            while d >= fmin {
                let (low, high) = (self.fd(d - 1), self.fd(d + 1));
                let x0 = if low < high { high } else { low + 1 };
                let (mut x, mut y) = (x0, x0 - d);
                while x < xlim && y < ylim && self.equal(x, y) {
                    x += 1;
                    y += 1;
                }
                self.set_fd(d, x);
                if odd && bmin <= d && d <= bmax && self.bd(d) <= x {
                    return Split { x, y, low_minimal: true, high_minimal: true };
                }
                d -= 2;
            }
            if bmin > dmin {
                bmin -= 1;
                self.set_bd(bmin - 1, isize::MAX);
            } else {
                bmin += 1;
            }
            if bmax < dmax {
                bmax += 1;
                self.set_bd(bmax + 1, isize::MAX);
            } else {
                bmax -= 1;
            }
            let mut d = bmax;
            while d >= bmin {
                let (low, high) = (self.bd(d - 1), self.bd(d + 1));
                let x0 = if low < high { low } else { high - 1 };
                let (mut x, mut y) = (x0, x0 - d);
                while xoff < x && yoff < y && self.equal(x - 1, y - 1) {
                    x -= 1;
                    y -= 1;
                }
                self.set_bd(d, x);
                if !odd && fmin <= d && d <= fmax && x <= self.fd(d) {
                    return Split { x, y, low_minimal: true, high_minimal: true };
                }
                d -= 2;
            }
            if !find_minimal && cost >= self.too_expensive {
                return self.best_guess(xoff, xlim, yoff, ylim, [fmin, fmax, bmin, bmax]);
            }
            cost += 1;
        }
    }

    /// Gives up on an expensive range: splits it at the furthest point
    /// either search reached.
    fn best_guess(&self, xoff: isize, xlim: isize, yoff: isize, ylim: isize, bounds: [isize; 4]) -> Split {
        let [fmin, fmax, bmin, bmax] = bounds;
        let (mut forward_best, mut forward_x) = (-1isize, 0isize);
        let mut d = fmax;
        while d >= fmin {
            let mut x = self.fd(d).min(xlim);
            let mut y = x - d;
            if ylim < y {
                x = ylim + d;
                y = ylim;
            }
            if forward_best < x + y {
                forward_best = x + y;
                forward_x = x;
            }
            d -= 2;
        }
        let (mut backward_best, mut backward_x) = (isize::MAX, 0isize);
        let mut d = bmax;
        while d >= bmin {
            let mut x = self.bd(d).max(xoff);
            let mut y = x - d;
            if y < yoff {
                x = yoff + d;
                y = yoff;
            }
            if x + y < backward_best {
                backward_best = x + y;
                backward_x = x;
            }
            d -= 2;
        }
        if (xlim + ylim) - backward_best < forward_best - (xoff + yoff) {
            Split { x: forward_x, y: forward_best - forward_x, low_minimal: true, high_minimal: false }
        } else {
            Split { x: backward_x, y: backward_best - backward_x, low_minimal: false, high_minimal: true }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::mark_changes;

    #[test]
    fn marks_a_shortest_script() {
        let (old, new) = ([1u32, 2, 3, 4], [1u32, 3, 4, 5]);
        let (mut deleted, mut inserted) = (vec![false; 4], vec![false; 4]);
        mark_changes(&old, &new, false, &mut deleted, &mut inserted);
        assert_eq!(deleted, vec![false, true, false, false]);
        assert_eq!(inserted, vec![false, false, false, true]);
    }
}
