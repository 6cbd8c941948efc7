// jq benchmark (issue 12), side by side with the real jq in one run on the
// same generated input: a JSON array of 100,000 records (about 10 MB; pass
// a record count to change it). Each filter runs
//   - in wabash's wasm build under Node (dist/): a fresh Bash per run, the
//     input written untimed, `exec` timed;
//   - in the native release binary (target/release/wabash, if built): wall
//     time of `wabash --mount DIR:/data -c CMD` minus that of `-c :`;
//   - in the real jq: wall time of `bash -c CMD` minus that of `bash -c :`.
// Medians of RUNS (default 3). Outputs are compared; ratios are ours / jq.
// A benchmark, not a test.
//
// usage: [BENCH_WASM=0] node scripts/bench-jq.mjs [runs] [records] [filter]
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";

const FILTERS = {
  "map(select(.x > 5)) | length": "jq 'map(select(.x > 5)) | length' data.json",
  "group_by(.g) | map(length)": "jq -c 'group_by(.g) | map(length)' data.json",
  "[.[] | .name] | unique | length": "jq '[.[] | .name] | unique | length' data.json",
  "map(.x) | add": "jq 'map(.x) | add' data.json",
  ".[] | @csv (rows)": "jq -r '.[] | [.id, .name, .x] | @csv' data.json | wc -l",
  "pretty-print": "jq . data.json | wc -c",
  "to_entries/with_entries": "jq -c 'map(with_entries(.value |= tostring)) | length' data.json",
  "gsub over names": "jq '[.[] | .name | gsub(\"e\"; \"E\")] | length' data.json",
};

/** A deterministic pseudo-random sequence. */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state;
  };
}

function makeData(count) {
  const next = random(12);
  const records = [];
  for (let i = 0; i < count; i++) {
    const r = next();
    records.push({
      id: i,
      name: `user-${r % 5000}`,
      x: r % 11,
      g: ["alpha", "beta", "gamma", "delta"][r % 4],
      tags: ["a", "b", "c"].slice(0, (r >>> 4) % 4),
      score: ((r >>> 8) % 100000) / 100,
      active: (r & 1) === 1,
      meta: { created: 1700000000 + (r % 1000000), nested: { depth: r % 7 } },
    });
  }
  return JSON.stringify(records);
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function wall(file, args, options) {
  const start = performance.now();
  const output = execFileSync(file, args, { maxBuffer: 1 << 28, ...options });
  return [performance.now() - start, output.toString()];
}

const runs = Number(process.argv[2] ?? 3);
const count = Number(process.argv[3] ?? 100000);
const filter = process.argv[4] ?? "";
const dir = mkdtempSync(join(tmpdir(), "wabash-bench-jq-"));
process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
const data = makeData(count);
writeFileSync(join(dir, "data.json"), data);

const native = new URL("../target/release/wabash", import.meta.url).pathname;
const hasNative = existsSync(native);
// BENCH_WASM=0 skips the wasm build (when dist/ is stale or not built).
const hasWasm = process.env.BENCH_WASM !== "0" && existsSync(new URL("../dist/node.js", import.meta.url).pathname);
const Bash = hasWasm ? (await import("../dist/node.js")).Bash : null;
const files = { "/data/data.json": data };

const refVersion = execFileSync("jq", ["--version"]).toString().trim();
const gnuBase = median(Array.from({ length: runs }, () => wall("bash", ["-c", ":"], { cwd: dir })[0]));
const nativeBase = hasNative ? median(Array.from({ length: runs }, () => wall(native, ["--mount", `${dir}:/data`, "--cwd", "/data", "-c", ":"])[0])) : 0;

console.log(`node ${process.version}; ${refVersion}; ${(data.length / 1e6).toFixed(1)} MB; median of ${runs} runs; ratios are wabash / jq`);
console.log(`${"filter".padEnd(34)} ${"jq".padStart(8)} ${"wasm".padStart(8)} ${"ratio".padStart(6)} ${"native".padStart(8)} ${"ratio".padStart(6)}  output`);
for (const [name, script] of Object.entries(FILTERS)) {
  if (filter && !name.includes(filter)) continue;
  const ref = [];
  const wasm = [];
  const nat = [];
  let expected = "";
  const outputs = new Set();
  for (let i = 0; i < runs; i++) {
    const [refTime, refOut] = wall("bash", ["-c", script], { cwd: dir });
    ref.push(Math.max(0, refTime - gnuBase));
    expected = refOut;
    if (Bash) {
      const bash = new Bash({ files, cwd: "/data" });
      await bash.exec(":");
      const start = performance.now();
      const result = await bash.exec(script);
      wasm.push(performance.now() - start);
      outputs.add(result.stdout === expected ? "same" : "DIFFERENT(wasm)");
    }
    if (hasNative) {
      const [time, out] = wall(native, ["--mount", `${dir}:/data`, "--cwd", "/data", "-c", script]);
      nat.push(Math.max(0, time - nativeBase));
      outputs.add(out === expected ? "same" : "DIFFERENT(native)");
    }
  }
  const g = median(ref);
  const cell = (values) => (values.length ? `${median(values).toFixed(0).padStart(6)}ms ${(median(values) / g).toFixed(2).padStart(6)}` : `${"-".padStart(8)} ${"-".padStart(6)}`);
  console.log(`${name.padEnd(34)} ${g.toFixed(0).padStart(6)}ms ${cell(wasm)} ${cell(nat)}  ${[...outputs].join(",")}`);
}
