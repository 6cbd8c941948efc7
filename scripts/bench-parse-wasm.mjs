// Parser benchmark in WebAssembly (issue 3): compiles benches/parse.rs, the
// native parse benchmark, for wasm32-wasip1 with the release profile the npm
// package ships (opt-level "s", LTO) and runs it under Node's WASI. It parses
// the same ~1 MB script of typical agent commands and prints the best time.
// A benchmark, not a test; it skips (status 0) when the wasm32-wasip1 target
// cannot be installed.
//
// usage: node scripts/bench-parse-wasm.mjs [rounds]
import { execFileSync, spawnSync } from "node:child_process";
import { readFile } from "node:fs/promises";
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
  { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 64 * 1024 * 1024 },
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

const wasi = new WASI({ version: "preview1", args: ["parse"], env: { BENCH_ROUNDS: rounds } });
const module = await WebAssembly.compile(await readFile(wasmPath));
const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
console.log(`wasm (${TARGET}, release profile) under node ${process.version}, best of ${rounds}:`);
wasi.start(instance);
