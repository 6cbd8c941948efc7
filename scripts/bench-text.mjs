// Text-tool benchmark (issue 13), side by side with GNU in one run on the
// same generated inputs: a 40 MB log of 400,000 lines and a 20,000-file tree
// for rg. Each command runs
//   - in wabash's wasm build under Node (dist/): a fresh Bash per run, the
//     input written untimed, `exec` timed;
//   - in the native release binary (target/release/wabash, if built). Its
//     `--mount` copies the whole host directory into the sandbox before the
//     script runs, so each command mounts only the inputs it names (a
//     directory of hard links to them, plus the tree for rg), and each timed
//     run is paired with a run of `-c :` with the same mounts: the figure is
//     the median of (command - baseline), the command's own time without
//     start-up or the copy in;
//   - in GNU bash: wall time of `bash -c CMD` minus that of a `bash -c :`
//     run just before it, the median of the differences.
// Medians of RUNS (default 5). Outputs are compared; ratios are ours / GNU.
// A benchmark, not a test.
//
// usage: node scripts/bench-text.mjs [runs] [filter] [--native | --wasm]
//   --native: GNU and the native binary only; --wasm: GNU and wasm only.
import { execFileSync } from "node:child_process";
import { existsSync, linkSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";

const COMMANDS = {
  "wc -l": "wc -l log.txt",
  "tr a-z A-Z": "tr a-z A-Z < log.txt > /dev/null",
  "sort": "sort log.txt > /dev/null",
  "sort -n": "sort -n nums.txt > /dev/null",
  "sort -t= -k3 -n": "sort -t= -k3 -n log.txt > /dev/null",
  "cut -f": "cut -f2,4 log.txt > /dev/null",
  "uniq -c": "uniq -c levels.txt > /dev/null",
  "grep -c literal": "grep -c 'status=500' log.txt",
  "grep -c regex": "grep -cE 'user=u[0-9]+7 ' log.txt",
  "grep -ci": "grep -ci 'warn' log.txt",
  "sed s///g | wc -l": "sed 's/user/USER/g' log.txt | wc -l",
  "diff 100,000 lines, 1% changed": "diff old.txt new.txt | wc -l",
  "cut | sort | uniq -c | sort -rn": "cut -f3 log.txt | sort | uniq -c | sort -rn",
  "rg over 20,000 files": "rg -c 'needle[0-9]' tree | wc -l",
};

const LEVELS = ["INFO", "WARN", "ERROR", "DEBUG"];
const PATHS = ["/api/v1/items", "/api/v1/users", "/login", "/static/app.js", "/health"];

/** A deterministic pseudo-random sequence. */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state;
  };
}

function makeLog() {
  const next = random(13);
  const lines = [];
  for (let i = 0; i < 400000; i++) {
    const r = next();
    const level = LEVELS[r % 4];
    const path = PATHS[(r >>> 3) % 5];
    const status = [200, 200, 200, 404, 500][(r >>> 7) % 5];
    const seconds = String(i % 60).padStart(2, "0");
    lines.push(
      `2024-03-01T12:${String((i / 60) % 60 | 0).padStart(2, "0")}:${seconds}Z\thost${r % 97}\t${level}\tuser=u${next() % 10000} ms=${next() % 5000} status=${status} path=${path}/${r % 1000} agent=bench-client/1.0 ok`,
    );
  }
  return lines.join("\n") + "\n";
}

/** Two 100,000-line files; 1% of the lines of the second are changed. */
function makeDiffPair() {
  const next = random(29);
  const old = [];
  const changed = [];
  for (let i = 0; i < 100000; i++) {
    const line = `line ${i} value=${next() % 100000} text=${(next() % 7919).toString(36)}`;
    old.push(line);
    changed.push(next() % 100 === 0 ? `${line} edited` : line);
  }
  return [old.join("\n") + "\n", changed.join("\n") + "\n"];
}

function makeTree(root) {
  const next = random(7);
  const files = {};
  for (let d = 0; d < 200; d++) {
    for (let f = 0; f < 100; f++) {
      const lines = [];
      for (let l = 0; l < 20; l++) {
        const r = next();
        lines.push(r % 53 === 0 ? `let needle${r % 10} = ${r};` : `fn item_${d}_${f}_${l}() { return ${r % 1000}; }`);
      }
      files[`tree/d${d}/f${f}.rs`] = lines.join("\n") + "\n";
    }
  }
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(root, name, ".."), { recursive: true });
    writeFileSync(join(root, name), text);
  }
  return files;
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

const flags = process.argv.slice(2).filter((arg) => arg.startsWith("--"));
const positional = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));
for (const flag of flags) {
  if (flag !== "--native" && flag !== "--wasm") throw new Error(`unknown option ${flag}`);
}
const runs = Number(positional[0] ?? 5);
const filter = positional[1] ?? "";
const dir = mkdtempSync(join(tmpdir(), "wabash-bench-text-"));
process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
const log = makeLog();
const nums = log.split("\n").slice(0, -1).map((line) => line.split("ms=")[1].split(" ")[0]).join("\n") + "\n";
const levels = log.split("\n").slice(0, -1).map((line) => line.split("\t")[2]).sort().join("\n") + "\n";
const [oldText, newText] = makeDiffPair();
const inputs = { "log.txt": log, "nums.txt": nums, "levels.txt": levels, "old.txt": oldText, "new.txt": newText };
for (const [name, text] of Object.entries(inputs)) writeFileSync(join(dir, name), text);
const tree = makeTree(dir);

const native = new URL("../target/release/wabash", import.meta.url).pathname;
const hasNative = !flags.includes("--wasm") && existsSync(native);
const hasWasm = !flags.includes("--native") && existsSync(new URL("../dist/node.js", import.meta.url).pathname);
const Bash = hasWasm ? (await import("../dist/node.js")).Bash : null;

const files = {};
for (const [name, text] of Object.entries(inputs)) files[`/data/${name}`] = text;
for (const [name, text] of Object.entries(tree)) files[`/data/${name}`] = text;

/**
 * The native binary's arguments mounting only what `script` names: the
 * inputs it mentions, hard-linked into a directory of their own, at /data,
 * and the tree at /data/tree if it is used.
 */
function nativeMounts(index, script) {
  const only = join(dir, "only", String(index));
  mkdirSync(only, { recursive: true });
  for (const name of Object.keys(inputs)) {
    if (script.includes(name)) linkSync(join(dir, name), join(only, name));
  }
  const mounts = ["--mount", `${only}:/data`];
  if (/\btree\b/.test(script)) mounts.push("--mount", `${join(dir, "tree")}:/data/tree`);
  return [...mounts, "--cwd", "/data"];
}

const load = () => loadavg().map((value) => value.toFixed(2)).join(" ");
console.log(`node ${process.version}; median of ${runs} runs; ratios are wabash / GNU; load ${load()}`);
console.log(`${"command".padEnd(32)} ${"GNU".padStart(8)} ${"wasm".padStart(8)} ${"ratio".padStart(6)} ${"native".padStart(8)} ${"ratio".padStart(6)}  output`);
for (const [index, [name, script]] of Object.entries(COMMANDS).entries()) {
  if (filter && !name.includes(filter)) continue;
  const mounts = hasNative ? nativeMounts(index, script) : [];
  const gnu = [];
  const wasm = [];
  const nat = [];
  let expected = "";
  const outputs = new Set();
  for (let i = 0; i < runs; i++) {
    const [gnuBase] = wall("bash", ["-c", ":"], { cwd: dir });
    const [gnuTime, gnuOut] = wall("bash", ["-c", script], { cwd: dir });
    gnu.push(Math.max(0, gnuTime - gnuBase));
    expected = gnuOut;
    if (Bash) {
      const bash = new Bash({ files, cwd: "/data" });
      await bash.exec(":");
      const start = performance.now();
      const result = await bash.exec(script);
      wasm.push(performance.now() - start);
      outputs.add(result.stdout === expected ? "same" : "DIFFERENT(wasm)");
    }
    if (hasNative) {
      const [base] = wall(native, [...mounts, "-c", ":"]);
      const [time, out] = wall(native, [...mounts, "-c", script]);
      nat.push(Math.max(0, time - base));
      outputs.add(out === expected ? "same" : "DIFFERENT(native)");
    }
  }
  const g = median(gnu);
  const ratio = (value) => (g > 0 ? (value / g).toFixed(2) : "-");
  const cell = (values) => (values.length ? `${median(values).toFixed(0).padStart(6)}ms ${ratio(median(values)).padStart(6)}` : `${"-".padStart(8)} ${"-".padStart(6)}`);
  console.log(`${name.padEnd(32)} ${g.toFixed(0).padStart(6)}ms ${cell(wasm)} ${cell(nat)}  ${[...outputs].join(",")}`);
}
console.log(`load at the end ${load()}`);
