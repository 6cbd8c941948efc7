#!/bin/sh
# Runs wabash's jq natively with the given arguments (for the jq conformance
# suite: python3 ../shared/conformance/jq_suite.py --jq "sh scripts/jq-native.sh").
# Build first: cargo build --release (or set WABASH to another binary).
# A `-L DIR` naming a host directory is mounted at the same path in the
# sandbox, so module tests find their modules; PAGER (which jq's man.test
# reads from the environment) is passed through.
here=$(dirname "$0")
bin=${WABASH:-$here/../target/release/wabash}
[ -x "$bin" ] || bin=$here/../target/debug/wabash
mounts=
prev=
for a in "$@"; do
    if [ "$prev" = -L ] && [ -d "$a" ]; then
        dir=$(cd "$a" && pwd)
        mounts="$mounts --mount $dir:$dir"
    fi
    prev=$a
done
exec "$bin" $mounts ${PAGER:+--env PAGER="$PAGER"} -c 'jq "$@"' jq "$@"
