#!/usr/bin/env node
// The web figures of docs/web.md, measured on this machine against dist/:
// the .wasm's size raw and gzipped, what a Workers deployment uploads
// (gzip), workerd's first request, the edge-runtime stand-in's first
// request, and the playground's first prompt in headless Chromium with a
// cold and a warm HTTP cache, with where its time went and the machine's
// load. `node scripts/measure-web.mjs [RUNS] [--playground]` (default 5
// runs; medians; --playground measures only the playground). Not a test:
// numbers for the notes.
import { readFile, rm } from "node:fs/promises";
import { loadavg } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { buildPlayground, servePlayground } from "./playground.mjs";
import { bundleForEdge, gzipSize, root } from "../tests/js/support/bundle.mjs";
import { launchChromium } from "../tests/js/support/chromium.mjs";
import { startWorkerd } from "../tests/js/support/servers.mjs";

const args = process.argv.slice(2);
const runs = Number(args.find((arg) => /^\d+$/.test(arg)) ?? 5);
const playgroundOnly = args.includes("--playground");
const load = () => loadavg().map((value) => value.toFixed(1)).join(" ");
console.log(`load average at start: ${load()}`);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;

if (!playgroundOnly) {
  const wasm = await readFile(join(root, "dist", "wabash_bg.wasm"));
  console.log(`wasm: ${kib(wasm.length)} raw, ${kib(gzipSync(wasm, { level: 9 }).length)} gzip -9`);

  const bundle = await bundleForEdge("examples/cloudflare-worker/src/index.js");
  const upload = await gzipSize(bundle.dir, bundle.files);
  console.log(`workers upload (worker.js + wabash_bg.wasm): ${kib(upload.raw)} raw, ${kib(upload.gzip)} gzip (limit 3 MB)`);

  const firsts = [];
  const seconds = [];
  for (let run = 0; run < runs; run++) {
    const workerd = await startWorkerd(bundle.dir, bundle.files);
    const post = async () => {
      const started = performance.now();
      const response = await fetch(workerd.url, { method: "POST", body: JSON.stringify({ script: "echo hi" }) });
      await response.json();
      return performance.now() - started;
    };
    firsts.push(await post());
    seconds.push(await post());
    await workerd.stop();
  }
  await rm(bundle.dir, { recursive: true, force: true });
  console.log(`workerd: first request ${median(firsts).toFixed(1)} ms, second ${median(seconds).toFixed(1)} ms (median of ${runs} fresh processes)`);
}

const site = await buildPlayground();
const { server, url } = await servePlayground(site);
const browser = await launchChromium();
const cold = [];
const cached = [];
const engine = [];
const timelines = { cold: [], cached: [] };
for (let run = 0; run < runs; run++) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForSelector("body[data-ready]", { timeout: 60_000 });
  cold.push(await page.evaluate(() => playground.firstPromptMs));
  engine.push(await page.evaluate(() => playground.readyMs));
  timelines.cold.push(await page.evaluate(() => playground.timeline));
  await page.reload();
  await page.waitForSelector("body[data-ready]", { timeout: 60_000 });
  cached.push(await page.evaluate(() => playground.firstPromptMs));
  timelines.cached.push(await page.evaluate(() => playground.timeline));
  await context.close();
}
await browser.close();
server.close();
console.log(
  `playground: first prompt ${median(cold).toFixed(0)} ms cold, ${median(cached).toFixed(0)} ms cached ` +
    `(from navigation start, median of ${runs}; the worker's engine start ${median(engine).toFixed(0)} ms cold; all cold: ${cold.map((v) => v.toFixed(0)).join(", ")}; cached: ${cached.map((v) => v.toFixed(0)).join(", ")})`,
);
for (const [name, list] of Object.entries(timelines)) {
  const marks = Object.keys(list[0] ?? {});
  const parts = marks.map((mark) => `${mark} ${median(list.map((timeline) => timeline[mark] ?? NaN)).toFixed(0)}`);
  console.log(`playground ${name}, median ms after navigation start: ${parts.join(", ")}`);
}
console.log(`load average at end: ${load()}`);
