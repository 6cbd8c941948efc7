// The Vercel edge example (examples/vercel-edge) through Next's own build:
// the package is packed and installed from its tarball into a copy of the
// example, with next, react and react-dom from the npm registry (the
// example's devDependencies); `next build` bundles the edge route, and
// `next start` on 127.0.0.1 serves it in Next's edge sandbox, where each
// request runs a script in wabash. The copy lives in $TMPDIR/wabash-next-edge
// (or WABASH_NEXT_DIR) and keeps its node_modules and Next's build cache
// between runs: about 80 s the first time (30 s of it the install), 20 s
// after that, on our 2-core machines. It skips, saying so loudly, only when
// next cannot be installed, and fails then in CI.
import assert from "node:assert/strict";
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { gzipSync } from "node:zlib";
import { root } from "./support/bundle.mjs";
import { freePort } from "./support/servers.mjs";

const EXAMPLE = join(root, "examples", "vercel-edge");
const DIR = process.env.WABASH_NEXT_DIR ?? join(tmpdir(), "wabash-next-edge");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
let absent;
let server;
let url;
const timings = {};

/** Runs `fn`, recording its time under `name`. */
function timed(name, fn) {
  const started = performance.now();
  const value = fn();
  timings[name] = Math.round(performance.now() - started);
  return value;
}

before(async () => {
  mkdirSync(DIR, { recursive: true });
  // The example as a user has it, with this checkout's package in place of the registry's.
  rmSync(join(DIR, "app"), { recursive: true, force: true });
  cpSync(join(EXAMPLE, "app"), join(DIR, "app"), { recursive: true });
  for (const file of readdirSync(DIR)) {
    if (file.endsWith(".tgz")) rmSync(join(DIR, file));
  }
  const packed = timed("pack", () =>
    JSON.parse(execFileSync(npm, ["pack", "--json", "--ignore-scripts", "--pack-destination", DIR], { cwd: root, encoding: "utf8" }))[0],
  );
  const manifest = JSON.parse(readFileSync(join(EXAMPLE, "package.json"), "utf8"));
  manifest.dependencies = { ...manifest.dependencies, wabash: `file:./${packed.filename}` };
  writeFileSync(join(DIR, "package.json"), JSON.stringify(manifest, null, 2));
  // A fresh tarball each run: drop the lock's record of the last one.
  rmSync(join(DIR, "package-lock.json"), { force: true });
  rmSync(join(DIR, "node_modules", "wabash"), { recursive: true, force: true });
  const install = timed("install", () =>
    spawnSync(npm, ["install", "--no-audit", "--no-fund", "--prefer-offline"], { cwd: DIR, encoding: "utf8", env, timeout: 600_000 }),
  );
  if (!existsSync(join(DIR, "node_modules", "next", "package.json"))) {
    absent = `next could not be installed from the npm registry into ${DIR}: ${(install.stderr || install.error?.message || "").trim().split("\n").slice(-3).join(" ")}`;
    return;
  }
  assert.equal(install.status, 0, install.stderr);
});

after(async () => {
  if (server) {
    const exited = new Promise((done) => server.once("exit", done));
    process.kill(-server.pid, "SIGTERM");
    await Promise.race([exited, new Promise((done) => setTimeout(done, 5_000))]);
  }
});

/** Skips loudly when next is absent; reports whether the test should go on. */
function present(t) {
  if (absent) {
    assert.ok(!process.env.CI, `in CI: ${absent}`);
    process.stderr.write(`\n*** SKIPPED: the Next.js edge build of examples/vercel-edge: ${absent} ***\n\n`);
    t.skip(absent);
    return false;
  }
  return true;
}

test("next build bundles the edge route with the engine as a separate .wasm module", { timeout: 900_000 }, (t) => {
  if (!present(t)) return;
  const next = join(DIR, "node_modules", ".bin", "next");
  const build = timed("build", () => spawnSync(next, ["build"], { cwd: DIR, encoding: "utf8", env, timeout: 880_000 }));
  assert.equal(build.status, 0, `${build.stdout}\n${build.stderr}`);
  assert.match(build.stdout, /\/api\/bash/);
  // The route is an edge function, and Next hands it the engine as a wasm binding:
  // nothing compiles WebAssembly from bytes at run time.
  const functions = JSON.parse(readFileSync(join(DIR, ".next", "server", "middleware-manifest.json"), "utf8")).functions;
  const route = functions["/api/bash/route"];
  assert.ok(route, `no edge function for /api/bash in ${Object.keys(functions)}`);
  assert.equal(route.wasm.length, 1, JSON.stringify(route.wasm));
  assert.match(route.wasm[0].filePath, /wabash_bg.*\.wasm$/);
  const files = [...route.files, route.wasm[0].filePath].map((file) => readFileSync(join(DIR, ".next", file)));
  const raw = files.reduce((sum, bytes) => sum + bytes.length, 0);
  const gzip = files.reduce((sum, bytes) => sum + gzipSync(bytes, { level: 9 }).length, 0);
  timings.uploadKiB = `${Math.round(raw / 1024)} raw, ${Math.round(gzip / 1024)} gzip`;
  assert.ok(gzip < 3 * 1024 * 1024, `edge function ${gzip} bytes gzip`);
});

test("next start serves the route; each POST runs a script in the sandbox", { timeout: 120_000 }, async (t) => {
  if (!present(t)) return;
  assert.ok(existsSync(join(DIR, ".next", "BUILD_ID")), "the build did not finish");
  const port = await freePort();
  url = `http://127.0.0.1:${port}/api/bash`;
  let log = "";
  server = spawn(join(DIR, "node_modules", ".bin", "next"), ["start", "-H", "127.0.0.1", "-p", String(port)], { cwd: DIR, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  const ready = new Promise((resolve, reject) => {
    const read = (chunk) => {
      log = (log + chunk).slice(-4_000);
      if (/Ready in/.test(log)) resolve();
    };
    server.stdout.on("data", read);
    server.stderr.on("data", read);
    server.once("exit", (code) => reject(new Error(`next start exited with ${code}: ${log}`)));
    setTimeout(() => reject(new Error(`next start was not ready in 60 s: ${log}`)), 60_000).unref();
  });
  await ready;
  const post = async (body) => {
    const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    return { status: response.status, body: await response.json() };
  };
  const started = performance.now();
  const first = await post({ script: "seq 3 | paste -sd+; echo e >&2; uname -s; false" });
  timings.firstRequest = Math.round(performance.now() - started);
  assert.equal(first.status, 200, JSON.stringify(first.body));
  assert.deepEqual([first.body.stdout, first.body.stderr, first.body.exitCode], ["1+2+3\nLinux\n", "e\n", 1]);

  const kept = await post({ script: "cd /tmp && echo kept > f && X=1" });
  const again = performance.now();
  const next = await post({ script: 'pwd; cat f; echo "$X"', snapshot: kept.body.snapshot });
  timings.laterRequest = Math.round(performance.now() - again);
  assert.deepEqual([next.body.stdout, next.body.exitCode], ["/tmp\nkept\n1\n", 0]);
  assert.equal((await post({ script: "true", snapshot: "AAAA" })).status, 400);
  assert.equal((await fetch(url)).status, 405);
  t.diagnostic(`next ${JSON.parse(readFileSync(join(DIR, "node_modules", "next", "package.json"), "utf8")).version}, times (ms): ${JSON.stringify(timings)}`);
});
