// Parser benchmark in WebAssembly (issue 3): compiles benches/parse.rs, the
// native parse benchmark, for wasm32-wasip1 the way scripts/build.sh builds
// the npm package's engine (release profile: opt-level "s", LTO; the simd128
// target feature; then wasm-opt -Oz with the same features) and runs it under
// Node's WASI. It parses the same ~1 MB script of typical agent commands and
// prints the best and median times. The package itself cannot be timed on
// that script: its default parse limits stop at 100,000 tokens.
// A benchmark, not a test; it skips (status 0) when the wasm32-wasip1 target
// cannot be installed, and says so when wasm-opt is missing (no `npm ci`).
//
// usage: node scripts/bench-parse-wasm.mjs [rounds]
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { WASI } from "node:wasi";

const TARGET = "wasm32-wasip1";
const root = fileURLToPath(new URL("..", import.meta.url));
const rounds = process.argv[2] ?? "10";

function targetInstalled() {
  const listed = spawnSync("rustup", ["target", "list", "--installed"], { encoding: "utf8" });
  if (listed.status === 0 && listed.stdout.split("\n").includes(TARGET)) {
    return true;
  }
  const added = spawnSync("rustup", ["target", "add", TARGET], { stdio: "inherit" });
  return added.status === 0;
}

if (!targetInstalled()) {
  console.log(`bench-parse-wasm: skipped, the ${TARGET} target is not installed and could not be added`);
  process.exit(0);
}

const messages = execFileSync(
  "cargo",
  ["build", "--release", "--bench", "parse", "--target", TARGET, "--message-format=json-render-diagnostics"],
  {
    cwd: root,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    maxBuffer: 64 * 1024 * 1024,
    // .cargo/config.toml gives simd128 to wasm32-unknown-unknown only.
    env: { ...process.env, CARGO_TARGET_WASM32_WASIP1_RUSTFLAGS: "-C target-feature=+simd128" },
  },
);
const wasmPath = messages
  .split("\n")
  .filter((line) => line.startsWith("{"))
  .map((line) => JSON.parse(line))
  .find((message) => message.reason === "compiler-artifact" && message.target?.name === "parse" && message.executable)?.executable;
if (!wasmPath) {
  console.error("bench-parse-wasm: cargo did not report the benchmark's wasm file");
  process.exit(1);
}

// The optimization pass scripts/build.sh gives the package's wasm.
const wasmOpt = join(root, "node_modules", ".bin", "wasm-opt");
let benchPath = wasmPath;
let pass = "no wasm-opt pass: node_modules/.bin/wasm-opt is missing";
if (existsSync(wasmOpt)) {
  benchPath = join(tmpdir(), `wabash-bench-parse-${process.pid}.wasm`);
  const features = ["simd", "bulk-memory", "sign-ext", "mutable-globals", "nontrapping-float-to-int", "reference-types", "multivalue"];
  execFileSync(wasmOpt, ["-Oz", ...features.map((feature) => `--enable-${feature}`), wasmPath, "-o", benchPath], { stdio: "inherit" });
  pass = "wasm-opt -Oz";
}

const wasi = new WASI({ version: "preview1", args: ["parse"], env: { BENCH_ROUNDS: rounds } });
const module = await WebAssembly.compile(await readFile(benchPath));
const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
console.log(`wasm (${TARGET}, release profile, simd128, ${pass}) under node ${process.version}, ${rounds} rounds:`);
wasi.start(instance);
if (benchPath !== wasmPath) {
  await rm(benchPath, { force: true });
}
