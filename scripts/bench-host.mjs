#!/usr/bin/env node
// The host features' costs (issue 14), on the built package: defense in
// depth per exec and per custom-command call, mounting a 100,000-file host
// tree lazily against copying it in, abort latency, snapshot sizes. Writes
// a 100,000-file tree under the system temp directory and removes it.
// Not a test.
//
// usage: node scripts/bench-host.mjs [FILES | defense | abort | snapshots | mounts]
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Bash, defineCommand, nodeDirectory } from "../dist/node.js";
import { loadTree } from "../dist/cli/mount.js";
import { acquireGuards, inSandbox, policyOf, releaseGuards, setEagerGuardsForBenchmark } from "../dist/defense.js";

const FILES = Number(process.argv[2]) || 100_000;


function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function timed(run) {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

/** Median ms per exec of `script` on `bash`, over `rounds` (after a warm-up). */
async function perExec(bash, script, rounds) {
  await bash.exec(script);
  const times = [];
  for (let i = 0; i < rounds; i++) {
    times.push(await timed(() => bash.exec(script)));
  }
  return median(times);
}

/**
 * One defense measurement in this process (a child of {@link defense}):
 * `mode` is "off" (defense off), "before" (every guard built afresh and
 * installed when each exec starts, as before the cache) or "now". Prints
 * JSON: median µs of `exec("true")`, of one iteration of a loop calling a
 * custom command and of one of an empty loop, and of installing the guards.
 */
async function defenseChild(mode) {
  setEagerGuardsForBenchmark(mode === "before");
  const noop = defineCommand("noop", () => ({}));
  const bash = new Bash({ customCommands: [noop], defenseInDepth: mode !== "off" });
  const calls = 500;
  const loop = `for ((i = 0; i < ${calls}; i++)); do noop; done`;
  const bare = `for ((i = 0; i < ${calls}; i++)); do :; done`;
  const exec = await perExec(bash, "true", 300);
  const loops = [];
  const bares = [];
  for (let i = 0; i < 7; i++) {
    loops.push(await timed(() => bash.exec(loop)));
    bares.push(await timed(() => bash.exec(bare)));
  }
  const policy = policyOf(true);
  const guards = [];
  for (let i = 0; i < 1000 && mode !== "off"; i++) {
    const started = performance.now();
    acquireGuards();
    inSandbox(policy, () => undefined);
    releaseGuards();
    guards.push(performance.now() - started);
  }
  console.log(
    JSON.stringify({
      exec: exec * 1000,
      // One loop iteration calling the command, its share of the loop itself included: the
      // guards slow the engine's own work too while they are in place.
      call: (median(loops) / calls) * 1000,
      bare: (median(bares) / calls) * 1000,
      guards: mode === "off" ? 0 : median(guards) * 1000,
    }),
  );
}

/**
 * Defense in depth before and after the guards were cached and made lazy,
 * side by side: each mode in its own process (patching Object.prototype
 * slows later code in the same process, defense off included), the three
 * alternated seven times; the median of each.
 */
async function defense() {
  const modes = ["off", "before", "now"];
  const runs = Object.fromEntries(modes.map((mode) => [mode, []]));
  for (let round = 0; round < 7; round++) {
    for (const mode of modes) {
      const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--defense-child", mode], { encoding: "utf8" });
      runs[mode].push(JSON.parse(child.stdout));
    }
  }
  const at = (mode, key) => median(runs[mode].map((run) => run[key]));
  console.log("defense in depth (each mode in its own process, 7 rounds alternated, medians)");
  console.log(`  exec "true": off ${at("off", "exec").toFixed(0)} us`);
  console.log(`  a loop iteration calling a custom command: off ${at("off", "call").toFixed(1)} us (an empty one: ${at("off", "bare").toFixed(1)} us)`);
  for (const mode of ["before", "now"]) {
    console.log(
      `  ${mode}: exec "true" ${at(mode, "exec").toFixed(0)} us (+${(at(mode, "exec") - at("off", "exec")).toFixed(0)}),` +
        ` a loop iteration calling a custom command ${at(mode, "call").toFixed(1)} us (+${(at(mode, "call") - at("off", "call")).toFixed(1)}),` +
        ` installing and removing the guards ${at(mode, "guards").toFixed(0)} us`,
    );
  }
}

async function mounts() {
  const root = mkdtempSync(join(tmpdir(), "wabash-bench-"));
  try {
    const tree = join(root, "tree");
    let written = 0;
    for (let d = 0; d < 100 && written < FILES; d++) {
      mkdirSync(join(tree, `d${d}`), { recursive: true });
      for (let f = 0; f < Math.ceil(FILES / 100) && written < FILES; f++, written++) {
        writeFileSync(join(tree, `d${d}`, `f${f}.txt`), `file ${d}/${f}\n`);
      }
    }
    console.log(`mounting a host tree of ${written} files (new Bash + first exec reading one file)`);
    const baseline = await timed(async () => {
      await new Bash().exec("true");
    });
    let lazy;
    const lazyMs = await timed(async () => {
      const bash = new Bash({ mounts: { "/tree": nodeDirectory(tree, { readOnly: true }) } });
      lazy = (await bash.exec("cat /tree/d42/f7.txt")).stdout;
    });
    const walk = await timed(async () => {
      const bash = new Bash({ mounts: { "/tree": nodeDirectory(tree, { readOnly: true }) } });
      await bash.exec("find /tree -type f | wc -l");
    });
    let copied;
    const copyMs = await timed(async () => {
      const loaded = loadTree(tree, "/tree");
      const bash = new Bash({ files: loaded.files });
      copied = (await bash.exec("cat /tree/d42/f7.txt")).stdout;
    });
    console.log(`  empty sandbox: ${baseline.toFixed(0)} ms`);
    console.log(`  lazy mount (nodeDirectory): ${lazyMs.toFixed(0)} ms  (${lazy.trim()})`);
    console.log(`  copy-in (read every file, files option): ${copyMs.toFixed(0)} ms  (${copied.trim()})`);
    console.log(`  lazy mount, then find over every file: ${walk.toFixed(0)} ms`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

async function abort() {
  const hang = defineCommand("hang", () => new Promise(() => {}));
  const bash = new Bash({ customCommands: [hang] });
  await bash.exec("true");
  console.log("abort latency (signal aborted 20 ms into the exec; 20 rounds)");
  for (const script of ["sleep 100", "while :; do :; done", "hang", "yes | hang | cat", "cat /dev/zero | hang", "sleep 100 | cat"]) {
    const latencies = [];
    const statuses = new Set();
    for (let i = 0; i < 20; i++) {
      const controller = new AbortController();
      let at = 0;
      setTimeout(() => {
        at = performance.now();
        controller.abort();
      }, 20);
      statuses.add((await bash.exec(script, { signal: controller.signal })).exitCode);
      latencies.push(performance.now() - at);
    }
    console.log(`  ${script}: median ${median(latencies).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms, status ${[...statuses].join(", ")}`);
  }
}

async function snapshots() {
  console.log("snapshot sizes");
  const cases = [
    ["empty sandbox", "true"],
    ["1,000 files of 25 bytes", "mkdir data; for i in $(seq 1000); do echo \"line $i of a file\" > data/f$i.txt; done"],
    ["1,000 files of 10 KB", "mkdir data; for i in $(seq 1000); do head -c 10240 /dev/zero > data/f$i.bin; done"],
    ["100 variables and 20 functions", "for i in $(seq 100); do declare v$i=value$i; done; for i in $(seq 20); do eval \"f$i() { echo $i; }\"; done"],
  ];
  for (const [name, script] of cases) {
    const bash = new Bash();
    await bash.exec(script);
    let bytes;
    const took = await timed(async () => {
      bytes = await bash.snapshot();
    });
    const restore = await timed(() => Bash.restore(bytes).then((copy) => copy.exec("true")));
    console.log(`  ${name}: ${bytes.byteLength.toLocaleString("en")} bytes (snapshot ${took.toFixed(1)} ms, restore + first exec ${restore.toFixed(0)} ms)`);
  }
}

// `node scripts/bench-host.mjs defense` (or abort, snapshots, mounts) runs that part only.
const PARTS = { defense, abort, snapshots, mounts };
if (process.argv[2] === "--defense-child") {
  await defenseChild(process.argv[3]);
} else {
  for (const [name, part] of Object.entries(PARTS)) {
    if (!(process.argv[2] in PARTS) || process.argv[2] === name) {
      await part();
    }
  }
}
