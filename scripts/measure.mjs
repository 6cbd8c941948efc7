// Measures the package as built in dist/: wasm size (raw and gzip), Node
// cold start (compile + instantiate), and the latency of the first and the
// 100th `exec("echo hi")`. Each cold start runs in a fresh process; the
// medians of several runs are printed. A benchmark, not a test.
//
// usage: node scripts/measure.mjs [runs]
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";

const WASM = new URL("../dist/wabash_bg.wasm", import.meta.url);

async function child() {
  const { performance } = await import("node:perf_hooks");
  const { Engine } = await import("../dist/engine.js");
  const { Bash } = await import("../dist/node.js");
  const t0 = performance.now();
  const module = new WebAssembly.Module(readFileSync(WASM));
  const t1 = performance.now();
  await Engine.create(module);
  const t2 = performance.now();
  // A Bash object: its own instance and sandbox on first use (module cached by the entry).
  const bash = new Bash();
  await bash.fs.exists("/");
  const t3 = performance.now();
  const latencies = [];
  for (let i = 0; i < 100; i++) {
    const start = performance.now();
    await bash.exec("echo hi");
    latencies.push(performance.now() - start);
  }
  console.log(JSON.stringify({ compile: t1 - t0, instantiate: t2 - t1, firstBash: t3 - t2, first: latencies[0], hundredth: latencies[99] }));
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function main() {
  const runs = Number(process.argv[2] ?? 7);
  const bytes = readFileSync(WASM);
  const samples = [];
  for (let i = 0; i < runs; i++) {
    samples.push(JSON.parse(execFileSync(process.execPath, [new URL(import.meta.url).pathname, "--child"], { encoding: "utf8" })));
  }
  const ms = (key) => `${median(samples.map((sample) => sample[key])).toFixed(2)} ms`;
  const kib = (n) => `${(n / 1024).toFixed(1)} KiB (${n} bytes)`;
  console.log(`node ${process.version}, median of ${runs} fresh processes`);
  console.log(`wasm size, raw:              ${kib(bytes.length)}`);
  console.log(`wasm size, gzip -9:          ${kib(gzipSync(bytes, { level: 9 }).length)}`);
  console.log(`cold start, compile:         ${ms("compile")}`);
  console.log(`cold start, instantiate:     ${ms("instantiate")}`);
  console.log(`new Bash ready (instance + sandbox): ${ms("firstBash")}`);
  console.log(`exec("echo hi"), 1st:        ${ms("first")}`);
  console.log(`exec("echo hi"), 100th:      ${ms("hundredth")}`);
}

if (process.argv[2] === "--child") {
  await child();
} else {
  await main();
}
