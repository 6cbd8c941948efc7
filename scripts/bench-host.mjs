#!/usr/bin/env node
// The host features' costs (issue 14), on the built package: defense in
// depth per exec and per custom-command call, mounting a 100,000-file host
// tree lazily against copying it in, abort latency, snapshot sizes. Writes
// a 100,000-file tree under the system temp directory and removes it.
// Not a test.
//
// usage: node scripts/bench-host.mjs [FILES or "defense"]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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

/** Median ms per exec of each of `runs` ([label, bash, script]), their rounds interleaved. */
async function interleaved(runs, rounds) {
  const times = runs.map(() => []);
  for (const [, bash, script] of runs) {
    await bash.exec(script);
  }
  for (let i = 0; i < rounds; i++) {
    for (const [index, [, bash, script]] of runs.entries()) {
      times[index].push(await timed(() => bash.exec(script)));
    }
  }
  return times.map(median);
}

async function defense() {
  const noop = defineCommand("noop", () => ({}));
  const on = new Bash({ customCommands: [noop] });
  const off = new Bash({ customCommands: [noop], defenseInDepth: false });
  const calls = 1000;
  const loop = `for ((i = 0; i < ${calls}; i++)); do noop; done`;
  const bare = `for ((i = 0; i < ${calls}; i++)); do :; done`;
  const us = (ms) => `${(ms * 1000).toFixed(0)} us`;
  console.log("defense in depth: before (every guard built afresh and installed at each exec) and now (cached, installed at the first callback)");
  const results = {};
  const policy = policyOf(true);
  for (const [label, before] of [
    ["before", true],
    ["now", false],
  ]) {
    setEagerGuardsForBenchmark(before);
    const [execOn, execOff] = await interleaved(
      [
        ["on", on, "true"],
        ["off", off, "true"],
      ],
      300,
    );
    const [loopOn, loopOff, bareOn] = await interleaved(
      [
        ["on", on, loop],
        ["off", off, loop],
        ["bare", on, bare],
      ],
      7,
    );
    const guards = [];
    for (let i = 0; i < 2000; i++) {
      const started = performance.now();
      acquireGuards();
      inSandbox(policy, () => undefined);
      releaseGuards();
      guards.push(performance.now() - started);
    }
    results[label] = { execOn, execOff, loopOn, loopOff, bareOn, guards: median(guards) };
  }
  setEagerGuardsForBenchmark(false);
  for (const [label, r] of Object.entries(results)) {
    console.log(`  ${label}: exec "true" ${us(r.execOn)} on, ${us(r.execOff)} off: +${us(r.execOn - r.execOff)} per exec` +
      ` (installing and removing the guards: ${us(r.guards)})`);
    console.log(
      `  ${label}: custom command call ${(((r.loopOn - r.bareOn) / calls) * 1000).toFixed(1)} us on, ` +
        `${(((r.loopOff - r.bareOn) / calls) * 1000).toFixed(1)} us off: +${(((r.loopOn - r.loopOff) / calls) * 1000).toFixed(1)} us per call`,
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
  for (const script of ["sleep 100", "while :; do :; done", "hang", "yes | hang | cat"]) {
    const latencies = [];
    for (let i = 0; i < 20; i++) {
      const controller = new AbortController();
      let at = 0;
      setTimeout(() => {
        at = performance.now();
        controller.abort();
      }, 20);
      await bash.exec(script, { signal: controller.signal });
      latencies.push(performance.now() - at);
    }
    console.log(`  ${script}: median ${median(latencies).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms`);
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

// `node scripts/bench-host.mjs defense` runs only the defense part.
await defense();
if (process.argv[2] !== "defense") {
  await abort();
  await snapshots();
  await mounts();
}
