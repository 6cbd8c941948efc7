// diff benchmark (issue 13), side by side in one run: `diff` and `diff -u`
// of two 100,000-line files with 1% of their lines changed, through the
// built package (wasm in Node, the files given to the sandbox untimed) and
// the native release binary (`target/release/wabash`, files mounted), each
// against GNU diff on the same files (`bash -c` wall time minus the wall
// time of `bash -c :`). Medians; the ratio is ours / GNU's. Not a test.
//
// usage: node scripts/bench-diff.mjs [runs]
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Bash } from "../dist/node.js";

const runs = Number(process.argv[2] ?? 5);
const native = join(import.meta.dirname, "..", "target", "release", "wabash");

/** A seeded generator, so every run compares the same files. */
function generator(seed) {
  let state = seed >>> 0;
  return (bound) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state % bound;
  };
}

const random = generator(13);
const oldLines = Array.from({ length: 100000 }, (_, i) => `line ${i} ${"x".repeat(random(40))}`);
const newLines = [...oldLines];
for (let edit = 0; edit < 1000; edit++) {
  const at = random(newLines.length);
  const kind = random(3);
  if (kind === 0) newLines.splice(at, 1);
  else if (kind === 1) newLines.splice(at, 0, `inserted ${random(1e9)}`);
  else newLines[at] = `changed ${random(1e9)}`;
}
const OLD = oldLines.join("\n") + "\n";
const NEW = newLines.join("\n") + "\n";
const dir = mkdtempSync(join(tmpdir(), "wabash-bench-diff-"));
writeFileSync(join(dir, "old.txt"), OLD);
writeFileSync(join(dir, "new.txt"), NEW);
process.on("exit", () => rmSync(dir, { recursive: true, force: true }));

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const wall = (fn) => {
  const start = performance.now();
  const value = fn();
  return [performance.now() - start, value];
};
const env = { ...process.env, LC_ALL: "C.UTF-8", TZ: "UTC" };
const gnuTime = (script) => {
  const times = [];
  const empty = [];
  let output = "";
  for (let i = 0; i < runs; i++) {
    const [t, out] = wall(() => execFileSync("bash", ["-c", script + "; true"], { cwd: dir, env, maxBuffer: 1 << 28 }));
    times.push(t);
    output = out;
    empty.push(wall(() => execFileSync("bash", ["-c", ":"]))[0]);
  }
  return [Math.max(median(times) - median(empty), 0.01), output];
};

const CASES = {
  "diff (normal)": "diff --label a --label b old.txt new.txt",
  "diff -u": "diff -u --label a --label b old.txt new.txt",
};

console.log(`node ${process.version}; 100,000 lines, 1,000 edits; median of ${runs} runs`);
const bash = new Bash({ files: { "old.txt": OLD, "new.txt": NEW } });
await bash.exec("true");
for (const [name, script] of Object.entries(CASES)) {
  const [gnu, expected] = gnuTime(script);
  const ours = [];
  let same = true;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const result = await bash.exec(script);
    ours.push(performance.now() - start);
    same &&= result.stdout === expected.toString();
  }
  const wasm = median(ours);
  let nativeText = "native binary not built (cargo build --release)";
  if (existsSync(native)) {
    const nativeTimes = [];
    for (let i = 0; i < runs; i++) {
      const command = `cd /data && ${script} > /dev/null`;
      nativeTimes.push(wall(() => execFileSync(native, ["--mount", `${dir}:/data`, "-c", command + "; true"]))[0]);
    }
    const [mountOnly] = [median(Array.from({ length: runs }, () => wall(() => execFileSync(native, ["--mount", `${dir}:/data`, "-c", ":"]))[0]))];
    const nativeTime = Math.max(median(nativeTimes) - mountOnly, 0.01);
    nativeText = `native ${nativeTime.toFixed(1).padStart(7)} ms (ratio ${(nativeTime / gnu).toFixed(2)})`;
  }
  console.log(
    `${name.padEnd(14)} GNU ${gnu.toFixed(1).padStart(7)} ms   wasm ${wasm.toFixed(1).padStart(7)} ms (ratio ${(wasm / gnu).toFixed(2)})   ${nativeText}   ${same ? "same output" : "DIFFERENT OUTPUT"}`,
  );
}
