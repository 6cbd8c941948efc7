#!/usr/bin/env bash
# Runs the parser's cargo-fuzz target (fuzz/fuzz_targets/parse.rs: parse,
# never panic, print and re-parse to the same tree) for a number of seconds,
# seeded from the parse case files. Uses the stable toolchain with
# RUSTC_BOOTSTRAP=1 (cargo-fuzz needs nightly flags). Skips, with status 0,
# when cargo-fuzz is not installed (`cargo install cargo-fuzz` installs it).
# A crash fails the run and leaves the input under fuzz/artifacts/parse/.
# With WABASH_FUZZ_ROUND_TRIP=report (CI) a round-trip difference is printed
# and counted instead of ending the run; a panic still fails it.
#
# usage: scripts/fuzz.sh [seconds]   (default 60)
set -eu
seconds=${1:-60}
root=$(cd "$(dirname "$0")/.." && pwd)
if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "fuzz: skipped, cargo-fuzz is not installed (cargo install cargo-fuzz)"
    exit 0
fi
cd "$root/fuzz"
bash ./seed_corpus.sh >/dev/null
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
RUSTC_BOOTSTRAP=1 cargo fuzz run parse -- -max_total_time="$seconds" -max_len=4096 -timeout=10 >"$log" 2>&1 || status=$?
grep -E '^(#[0-9]+[[:space:]]+(INITED|DONE)|==[0-9]+==|SUMMARY|artifact_prefix|Test unit written|thread .* panicked|round-trip difference)' "$log" || true
if [ "$status" != 0 ]; then
    tail -40 "$log"
fi
runs=$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#')
differences=$(grep -c '^round-trip difference' "$log" || true)
echo "fuzz: ${runs:-0} executions in ${seconds}s, status $status, round-trip differences reported: ${differences:-0}"
exit "$status"
