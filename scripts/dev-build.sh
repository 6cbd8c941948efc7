#!/bin/sh
# A quick build of dist/ for development: the engine at opt-level 1 without
# wasm-opt (a minute instead of ten), the same glue and wrapper steps as
# scripts/build.sh. Removes dist/.stamp, so the next `npm test` or
# `scripts/setup.sh` makes the release build again.
set -eu
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
target="${CARGO_TARGET_DIR:-target}"

CARGO_PROFILE_DEV_OPT_LEVEL=1 CARGO_PROFILE_DEV_DEBUG=0 cargo build --target wasm32-unknown-unknown --lib
rm -rf pkg
wasm-bindgen --target bundler --out-dir pkg --out-name wabash "$target/wasm32-unknown-unknown/debug/wabash.wasm"
mkdir -p dist
cp pkg/wabash_bg.wasm dist/wabash_bg.wasm
node scripts/bindings.mjs pkg/wabash_bg.js dist/bindings.js
node_modules/.bin/tsc -p tsconfig.json
cp js/bindings.d.ts dist/bindings.d.ts
chmod +x dist/cli.js
rm -f dist/.stamp
