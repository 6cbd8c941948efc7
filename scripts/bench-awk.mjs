// awk benchmark (issue 12), side by side with gawk in one run on the same
// generated input: a web-server log of LINES lines (default 100,000, about
// 10 MB). Each program runs
//   - in wabash's wasm build under Node (dist/): a fresh Bash per run with
//     the log in its filesystem, `exec` timed;
//   - in the native release binary (target/release/wabash, if built): wall
//     time of `wabash --mount DIR:/data -c CMD` minus that of `-c :`;
//   - in gawk: wall time of `bash -c CMD` minus that of `bash -c :`.
// Medians of RUNS (default 3). Outputs are compared; ratios are ours / gawk.
// A benchmark, not a test (not run by npm test).
//
// usage: node scripts/bench-awk.mjs [runs] [lines] [filter]
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";

const PROGRAMS = {
  "field sum": "awk '{ s += $10 } END { print s }' log.txt",
  "group-by count": "awk '{ n[$9]++ } END { for (k in n) print k, n[k] }' log.txt | sort",
  "group-by sum, -F": "awk -F'\"' '{ split($2, r, \" \"); b[r[2]] += $3 } END { for (k in b) print k, b[k] }' log.txt | sort",
  "printf report": "awk '{ printf \"%-15s %-8s %6d %8.2f\\n\", $1, $6, $9, $10 / 1024 }' log.txt | tail -n 1",
  "regex filter": "awk '/ 404 / && $7 ~ /^\\/api/ { n++ } END { print n }' log.txt",
  "gsub and length": "awk '{ gsub(/[0-9]+/, \"N\"); t += length($0) } END { print t }' log.txt",
  "NR, NF, substr": "awk 'NR % 3 == 0 { s = s substr($4, 2, 11) } END { print length(s), NF }' log.txt",
};

const PATHS = ["/api/v1/items", "/api/v1/users", "/login", "/static/app.js", "/health", "/api/v2/orders"];
const METHODS = ["GET", "GET", "GET", "POST", "PUT"];
const STATUS = [200, 200, 200, 200, 301, 404, 500];

/** A deterministic pseudo-random sequence. */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state;
  };
}

function makeLog(count) {
  const next = random(12);
  const lines = [];
  for (let i = 0; i < count; i++) {
    const r = next();
    const ip = `10.${r % 256}.${(r >>> 8) % 256}.${(r >>> 16) % 256}`;
    const minute = String((i / 60) % 60 | 0).padStart(2, "0");
    const second = String(i % 60).padStart(2, "0");
    const method = METHODS[(r >>> 5) % METHODS.length];
    const path = `${PATHS[(r >>> 9) % PATHS.length]}/${next() % 1000}`;
    const status = STATUS[(r >>> 13) % STATUS.length];
    const bytes = next() % 50000;
    lines.push(`${ip} - - [01/Mar/2024:12:${minute}:${second} +0000] "${method} ${path} HTTP/1.1" ${status} ${bytes} "-" "bench/1.0"`);
  }
  return lines.join("\n") + "\n";
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
const dir = mkdtempSync(join(tmpdir(), "wabash-bench-awk-"));
process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
const log = makeLog(count);
writeFileSync(join(dir, "log.txt"), log);

const native = new URL("../target/release/wabash", import.meta.url).pathname;
const hasNative = existsSync(native);
const hasWasm = existsSync(new URL("../dist/node.js", import.meta.url).pathname);
const Bash = hasWasm ? (await import("../dist/node.js")).Bash : null;
const gawk = execFileSync("bash", ["-c", "readlink -f \"$(command -v awk)\""]).toString().trim();

const gnuBase = median(Array.from({ length: runs }, () => wall("bash", ["-c", ":"], { cwd: dir })[0]));
const nativeBase = hasNative ? median(Array.from({ length: runs }, () => wall(native, ["--mount", `${dir}:/data`, "--cwd", "/data", "-c", ":"])[0])) : 0;

console.log(`node ${process.version}; awk is ${gawk}; ${count} lines, ${(log.length / 1e6).toFixed(1)} MB; median of ${runs} runs; ratios are wabash / gawk`);
console.log(`${"program".padEnd(20)} ${"gawk".padStart(8)} ${"wasm".padStart(8)} ${"ratio".padStart(6)} ${"native".padStart(8)} ${"ratio".padStart(6)}  output`);
for (const [name, script] of Object.entries(PROGRAMS)) {
  if (filter && !name.includes(filter)) continue;
  const gnu = [];
  const wasm = [];
  const nat = [];
  let expected = "";
  const outputs = new Set();
  for (let i = 0; i < runs; i++) {
    const [gnuTime, gnuOut] = wall("bash", ["-c", script], { cwd: dir });
    gnu.push(Math.max(0, gnuTime - gnuBase));
    expected = gnuOut;
    if (Bash) {
      const bash = new Bash({ files: { "/data/log.txt": log }, cwd: "/data" });
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
  const g = median(gnu);
  const cell = (values) => (values.length ? `${median(values).toFixed(0).padStart(6)}ms ${(median(values) / g).toFixed(2).padStart(6)}` : `${"-".padStart(8)} ${"-".padStart(6)}`);
  console.log(`${name.padEnd(20)} ${g.toFixed(0).padStart(6)}ms ${cell(wasm)} ${cell(nat)}  ${[...outputs].join(",")}`);
}
