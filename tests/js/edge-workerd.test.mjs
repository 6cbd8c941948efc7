// The Cloudflare Worker example (examples/cloudflare-worker) bundled as
// wrangler bundles it and run in real workerd (the npm `workerd` package)
// on 127.0.0.1: the HTTP tool endpoint, sessions kept in a KV binding
// through snapshot()/restore(), the network allowlist, and the size of what
// a deployment uploads.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { bundleForEdge, gzipSize, root } from "./support/bundle.mjs";
import { startTextServer, startWorkerd } from "./support/servers.mjs";

/** Cloudflare Workers' free plan takes at most 3 MB (gzip) per Worker. */
const FREE_PLAN_LIMIT = 3 * 1000 * 1000;

let bundle;
let workerd;
let allowed;
let refused;
let firstRequestMs;
let size;

async function post(body) {
  const response = await fetch(workerd.url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

before(async () => {
  allowed = await startTextServer("hello from the allowed server\n");
  refused = await startTextServer("this must never be read\n");
  bundle = await bundleForEdge("examples/cloudflare-worker/src/index.js");
  size = await gzipSize(bundle.dir, bundle.files);
  workerd = await startWorkerd(bundle.dir, bundle.files, { ALLOWED_URL_PREFIXES: allowed.url });
  const started = performance.now();
  const first = await post({ script: "echo first" });
  firstRequestMs = performance.now() - started;
  assert.equal(first.body.stdout, "first\n", JSON.stringify(first.body));
});

after(async () => {
  await workerd?.stop();
  await allowed?.stop();
  await refused?.stop();
  if (bundle) await rm(bundle.dir, { recursive: true, force: true });
});

test("the bundle keeps the engine registration and imports the .wasm as a module", async () => {
  const source = await readFile(join(bundle.dir, "worker.js"), "utf8");
  assert.match(source, /from\s*"\.\/wabash_bg\.wasm"/);
  assert.doesNotMatch(source, /compileStreaming|WebAssembly\.compile\(|new WebAssembly\.Module\(/);
  assert.deepEqual(bundle.files.filter((f) => f.endsWith(".wasm")), ["wabash_bg.wasm"]);
  console.log(`workerd: first request (echo) ${firstRequestMs.toFixed(1)} ms after the server listened; listening after ${workerd.listeningMs.toFixed(0)} ms`);
});

test("a POSTed script runs in workerd and returns stdout, stderr and the exit status", async () => {
  const { status, body } = await post({ script: "printf 'a\\nb\\n' | wc -l; echo oops >&2; exit 3" });
  assert.equal(status, 200);
  assert.deepEqual(body, { stdout: "2\n", stderr: "oops\n", exitCode: 3 });
});

test("stdin reaches the script", async () => {
  const { body } = await post({ script: "tr a-z A-Z", stdin: "edge\n" });
  assert.equal(body.stdout, "EDGE\n");
});

test("a session keeps files, variables and cwd between requests through KV", async () => {
  const session = `t${Date.now()}`;
  await post({ session, script: "mkdir -p proj && cd proj && echo kept > f.txt && NAME=wabash" });
  const { body } = await post({ session, script: 'pwd; cat f.txt; echo "$NAME"' });
  assert.deepEqual(body, { stdout: "/home/user/proj\nkept\nwabash\n", stderr: "", exitCode: 0 });
  const fresh = await post({ script: "cat proj/f.txt" });
  assert.equal(fresh.body.exitCode, 1);
});

test("bad requests get a 4xx with a reason", async () => {
  const get = await fetch(workerd.url);
  assert.equal(get.status, 405);
  const bad = await post({ script: 42 });
  assert.equal(bad.status, 400);
  assert.match(bad.body.error, /script/);
});

test("curl reaches an allowlisted local server and is refused elsewhere", async (t) => {
  const probe = await post({ script: "type curl >/dev/null 2>&1" });
  if (probe.body.exitCode !== 0) {
    t.skip("curl is not in the sandbox yet");
    return;
  }
  const ok = await post({ script: `curl -sS ${allowed.url}` });
  assert.deepEqual([ok.body.stdout, ok.body.exitCode], ["hello from the allowed server\n", 0]);
  const no = await post({ script: `curl -sS ${refused.url}` });
  assert.notEqual(no.body.exitCode, 0);
  assert.equal(no.body.stdout, "");
});

test("what a deployment uploads stays under the free plan's 3 MB gzip", async (t) => {
  const { raw, gzip } = size;
  console.log(`workerd upload: ${(raw / 1024).toFixed(1)} KiB raw, ${(gzip / 1024).toFixed(1)} KiB gzip (limit ${FREE_PLAN_LIMIT / 1e6} MB)`);
  // scripts/setup.sh stamps the release build it makes; the unoptimized
  // build of scripts/dev-build.sh is not what a deployment uploads.
  if (!existsSync(join(root, "dist", ".stamp"))) {
    t.skip("dist/ is a development build (scripts/dev-build.sh); the size applies to the release build");
    return;
  }
  assert.ok(gzip < FREE_PLAN_LIMIT, `${gzip} bytes gzip`);
});
