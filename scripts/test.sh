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
# The same wasm-bindgen-test suite in headless Chromium (issue 16), through
# Debian's chromedriver; skipped outside CI when Chromium is missing, a
# failure in CI.
if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
  run env WASM_BINDGEN_USE_BROWSER=1 CHROMEDRIVER=/usr/bin/chromedriver \
    WASM_BINDGEN_TEST_WEBDRIVER_JSON=wasm-tests/webdriver.json \
    cargo test --target wasm32-unknown-unknown --test wasm
elif [ -n "${CI:-}" ]; then
  echo "test: Chromium or chromedriver is missing in CI" >&2
  failed="$failed
  wasm-bindgen-test in Chromium (chromium missing)"
else
  echo "==> skipped: wasm-bindgen-test in Chromium (apt-get install chromium chromium-driver)" >&2
fi
# --test-force-exit: a file whose tests have all finished ends even if a
# child process or socket it started is still winding down, so one slow
# shutdown cannot hold the whole run until CI's limit.
run node --test --test-force-exit tests/js/
# Differential fuzzing against bash (issue 17): 200 fixed-seed generated
# scripts must agree with bash 5.2 byte for byte (stdout, stderr, status),
# except the classes scripts/difffuzz/known.txt lists with reasons. Under a
# minute; skipped without python3, and (inside the script) when `bash` is
# not bash 5.2. `npm run fuzz:diff` is the long run.
if command -v python3 >/dev/null 2>&1; then
  run sh -c 'cargo build -q --bin wabash && python3 scripts/diff-fuzz.py --check --no-minimize \
    --count 200 --seed 17 --known scripts/difffuzz/known.txt >&2'
else
  echo "==> skipped: differential fuzzing against bash (python3 missing)" >&2
fi
# The parser's fuzz target for a minute (issue 3): in CI, or with
# WABASH_FUZZ=1; it skips when cargo-fuzz is not installed. A panic fails
# the layer; round-trip differences are reported.
if [ -n "${CI:-}" ] || [ -n "${WABASH_FUZZ:-}" ]; then
  run env WABASH_FUZZ_ROUND_TRIP=report bash scripts/fuzz.sh 60
fi

if [ -n "$failed" ]; then
  echo "test: failed:$failed" >&2
  exit 1
fi
echo "test: all layers passed" >&2
