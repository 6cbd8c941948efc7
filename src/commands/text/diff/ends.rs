//! The identical prefix and suffix of two inputs, found on bytes before any
//! line is compared, as GNU diff does: only the lines between them (plus a
//! horizon of context lines on each side) take part in the comparison, so
//! the choices the later stages make depend on where these ends fall.

use super::text::Text;

/// The lines of both inputs that take part in the comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Region {
    /// Lines before the region (the same number in both inputs).
    pub prefix_lines: usize,
    /// The number of lines in the region of each input.
    pub lines: [usize; 2],
}

/// Finds the region of `old` and `new` outside their identical ends,
/// keeping `horizon` lines of each end inside it.
pub fn region(old: &Text, new: &Text, horizon: usize) -> Region {
    let (a, b) = (&old.data, &new.data);
    let (n0, n1) = (a.len(), b.len());
    let mut p = a.iter().zip(b.iter()).take_while(|(x, y)| x == y).count();
    // The newline added to an unterminated last line is no part of a prefix
    // the other input lacks it in.
    let past0 = n0 - usize::from(old.missing_newline) < p;
    let past1 = n1 - usize::from(new.missing_newline) < p;
    if past0 != past1 {
        p -= 1;
    }
    let mut keep = horizon;
    while p > 0 {
        if a.get(p - 1) == Some(&b'\n') {
            if keep == 0 {
                break;
            }
            keep -= 1;
        }
        p -= 1;
    }
    let prefix_end = p;
    let (mut s0, mut s1) = (n0, n1);
    if old.missing_newline == new.missing_newline {
        let mut begin = prefix_end + n0.saturating_sub(n1);
        while s0 != begin {
            s0 -= 1;
            s1 -= 1;
            if a.get(s0) != b.get(s1) {
                s0 += 1;
                s1 += 1;
                begin = s0;
                break;
            }
        }
        let at_line_start = |data: &Vec<u8>, at: usize| at == 0 || data.get(at - 1) == Some(&b'\n');
        let mut extra = horizon + usize::from(!(at_line_start(a, s0) && at_line_start(b, s1)));
        while extra > 0 && s0 != n0 {
            extra -= 1;
            while let Some(&byte) = a.get(s0) {
                s0 += 1;
                if byte == b'\n' {
                    break;
                }
            }
        }
        s1 += s0 - begin;
    }
    let prefix_lines = old.starts.partition_point(|&start| start < prefix_end);
    let end0 = old.starts.partition_point(|&start| start < s0);
    let end1 = new.starts.partition_point(|&start| start < s1);
    Region { prefix_lines, lines: [end0.saturating_sub(prefix_lines), end1.saturating_sub(prefix_lines)] }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(bytes: &[u8]) -> Text {
        Text::new(bytes.to_vec(), false)
    }

    #[test]
    fn ends_are_skipped_with_a_horizon() {
        let (a, b) = (text(b"1\n2\n3\n4\n5\n"), text(b"1\n2\nx\n4\n5\n"));
        assert_eq!(region(&a, &b, 0), Region { prefix_lines: 2, lines: [1, 1] });
        assert_eq!(region(&a, &b, 1), Region { prefix_lines: 1, lines: [3, 3] });
        assert_eq!(region(&text(b"a"), &text(b"a\n"), 0), Region { prefix_lines: 0, lines: [1, 1] });
        assert_eq!(region(&text(b"a\n"), &text(b"a\nb\n"), 0), Region { prefix_lines: 1, lines: [0, 1] });
    }
}
