//! Unit tests of the awk interpreter: limits, large inputs, and corners
//! the recorded cases do not reach.

use crate::commands::test_support::{new_fs, run_utility};

#[test]
fn prints_fields() {
    let out = run_utility(&new_fs(), &["awk", "{print $2}"], b"a b\nc d\n");
    assert_eq!(out.stdout, "b\nd\n");
}
