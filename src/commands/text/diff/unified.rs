//! One file's unified diff as a library function, for callers outside the
//! `diff` command (a copy-on-write mount exports its changes as a patch):
//! the same comparison and hunk format as `diff -u`, with given labels.

use super::compare::{compare, CompareOptions};
use super::equivalence::{Equality, WhiteSpace};
use super::formats::unified_hunk;
use super::hunks::group;
use super::text::Text;

/// Lines of context around each change, as `diff -u`.
const CONTEXT: usize = 3;

/// The unified diff from `old` to `new` under the header lines
/// `--- OLD_LABEL` and `+++ NEW_LABEL`; empty when they are equal. Binary
/// inputs (a NUL byte) give GNU's one line `Binary files OLD_LABEL and NEW_LABEL differ`.
pub fn unified_file_diff(old: &[u8], new: &[u8], old_label: &str, new_label: &str) -> Vec<u8> {
    if old == new {
        return Vec::new();
    }
    if old.contains(&0) || new.contains(&0) {
        return format!("Binary files {old_label} and {new_label} differ\n").into_bytes();
    }
    let texts = [Text::new(old.to_vec(), false), Text::new(new.to_vec(), false)];
    let options = CompareOptions { equality: Equality { ignore_case: false, white_space: WhiteSpace::Exact }, horizon: CONTEXT, minimal: false };
    let changes = compare(&texts[0], &texts[1], options);
    let mut out = format!("--- {old_label}\n+++ {new_label}\n").into_bytes();
    for hunk in group(&changes, Some(CONTEXT)) {
        unified_hunk(&mut out, [&texts[0], &texts[1]], hunk, CONTEXT);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::unified_file_diff;

    #[test]
    fn a_changed_line_is_one_hunk_with_context() {
        let patch = unified_file_diff(b"a\nb\nc\n", b"a\nB\nc\n", "a/f", "b/f");
        assert_eq!(String::from_utf8_lossy(&patch), "--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n");
    }

    #[test]
    fn equal_inputs_give_nothing_and_binary_ones_one_line() {
        assert!(unified_file_diff(b"x\n", b"x\n", "a", "b").is_empty());
        assert_eq!(unified_file_diff(b"\0", b"\0x", "a/f", "b/f"), b"Binary files a/f and b/f differ\n");
    }

    #[test]
    fn a_new_file_and_a_missing_newline() {
        let patch = unified_file_diff(b"", b"x", "/dev/null", "b/f");
        assert_eq!(String::from_utf8_lossy(&patch), "--- /dev/null\n+++ b/f\n@@ -0,0 +1 @@\n+x\n\\ No newline at end of file\n");
    }
}
