#!/bin/sh
# Runs wabash's jq natively with the given arguments (for the jq conformance
# suite: python3 ../shared/conformance/jq_suite.py --jq "sh scripts/jq-native.sh").
# Build first: cargo build --release (or set WABASH to another binary).
here=$(dirname "$0")
bin=${WABASH:-$here/../target/release/wabash}
[ -x "$bin" ] || bin=$here/../target/debug/wabash
exec "$bin" -c 'jq "$@"' jq "$@"
