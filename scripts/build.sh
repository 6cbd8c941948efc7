#!/bin/sh
# Builds the npm package into dist/: the engine to WebAssembly (cargo),
# its JS glue (wasm-bindgen, made a per-instance factory), wasm-opt from the
# npm `binaryen` package, and the TypeScript wrapper (tsc).
set -eu
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

cargo build --release --target wasm32-unknown-unknown --lib
rm -rf pkg
wasm-bindgen --target bundler --out-dir pkg --out-name wabash "${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/release/wabash.wasm"
mkdir -p dist
# The features rustc emits for wasm32 (plus simd128), so wasm-opt may keep
# and use them; nothing here is newer than Node 20 and Safari 16.4.
node_modules/.bin/wasm-opt -Oz \
  --enable-simd --enable-bulk-memory --enable-sign-ext --enable-mutable-globals \
  --enable-nontrapping-float-to-int --enable-reference-types --enable-multivalue \
  pkg/wabash_bg.wasm -o dist/wabash_bg.wasm
node scripts/bindings.mjs pkg/wabash_bg.js dist/bindings.js
node_modules/.bin/tsc -p tsconfig.json
cp js/bindings.d.ts dist/bindings.d.ts
chmod +x dist/cli.js
