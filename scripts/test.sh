#!/bin/sh
# Runs every test layer against one build (scripts/setup.sh makes dist/):
# native cargo tests, wasm-bindgen-test tests under Node, and node:test
# tests of the wrapper, the CLI and the packed tarball. Every layer runs
# even when an earlier one fails; the status says whether all passed.
set -u
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
failed=""

run() {
  echo "==> $*" >&2
  "$@" || failed="$failed
  $*"
}

run cargo test --no-fail-fast
run cargo test --target wasm32-unknown-unknown --test wasm
run node --test tests/js/

if [ -n "$failed" ]; then
  echo "test: failed:$failed" >&2
  exit 1
fi
echo "test: all layers passed" >&2
