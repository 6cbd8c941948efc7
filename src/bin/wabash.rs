//! The native `wabash` binary, for tests and benchmarks: `wabash -c SCRIPT`.
fn main() {}
