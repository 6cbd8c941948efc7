//! Unit tests of the awk interpreter: limits, large inputs, and corners
//! the recorded cases do not reach.

use crate::commands::test_support::{new_fs, run_utility};

#[test]
fn prints_fields() {
    let out = run_utility(&new_fs(), &["awk", "{print $2}"], b"a b\nc d\n");
    assert_eq!(out.stdout, "b\nd\n");
}

#[test]
fn reads_numbers_from_fields() {
    let program = r#"{ for (i = 1; i <= NF; i++) printf "%s:%.17g:%d ", $i, $i + 0, ($i == $i + 0); print "" }"#;
    let out = run_utility(&new_fs(), &["awk", program], b"-0 007 +5 123456789012345 1234567890123456789 12. 3e2 9x\n");
    assert_eq!(
        out.stdout,
        "-0:0:1 007:7:1 +5:5:1 123456789012345:123456789012345:1 1234567890123456789:1.2345678901234568e+18:1 12.:12:1 3e2:300:1 9x:9:0 \n"
    );
}
