// The Vercel edge example (examples/vercel-edge) in a stand-in for Vercel's
// edge runtime: `next build`/`next start` would need Next.js and its SWC
// binaries installed and a build on every run, so the route is bundled by
// esbuild with the conditions Next uses for edge code (`edge-light`,
// `worker`, `browser`) and run in @edge-runtime/vm, the sandbox Next's own
// `next start` and Vercel's edge use, with code generation from strings and
// WebAssembly compilation from bytes disabled (as on the edge). As Next
// does, the `.wasm?module` import is handed over as a WebAssembly.Module
// compiled by the host.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { before, test } from "node:test";
import { gzipSync } from "node:zlib";
import { EdgeVM } from "@edge-runtime/vm";
import * as esbuild from "esbuild";
import { packageLink } from "../../scripts/playground.mjs";
import { root } from "./support/bundle.mjs";

const WASM_GLOBAL = "__wabash_wasm_module";
let vm;
let code;
let firstRequestMs;

/** Next's treatment of `import m from "x.wasm?module"` in edge code: a binding to a module the host compiled. */
const wasmBinding = {
  name: "wasm-binding",
  setup(build) {
    build.onResolve({ filter: /\.wasm\?module$/ }, (args) => ({ path: args.path, namespace: "wasm-binding" }));
    build.onLoad({ filter: /.*/, namespace: "wasm-binding" }, () => ({
      contents: `export default globalThis.${WASM_GLOBAL};`,
      loader: "js",
    }));
  },
};

async function call(body) {
  const response = await vm.evaluate(
    `route.POST(new Request("http://127.0.0.1/api/bash", { method: "POST", headers: { "content-type": "application/json" }, body: ${JSON.stringify(JSON.stringify(body))} }))`,
  );
  return { status: response.status, body: await response.json() };
}

before(async () => {
  const built = await esbuild.build({
    absWorkingDir: root,
    entryPoints: ["examples/vercel-edge/app/api/bash/route.js"],
    bundle: true,
    write: false,
    format: "iife",
    globalName: "route",
    platform: "neutral",
    mainFields: ["browser", "module", "main"],
    conditions: ["edge-light", "worker", "browser"],
    target: "es2022",
    minify: true,
    nodePaths: [await packageLink()],
    plugins: [wasmBinding],
    logLevel: "silent",
  });
  code = built.outputFiles[0].text;
  const module = await WebAssembly.compile(await readFile(join(root, "dist", "wabash_bg.wasm")));
  vm = new EdgeVM({
    codeGeneration: { strings: false, wasm: false },
    extend: (context) => Object.assign(context, { [WASM_GLOBAL]: module }),
  });
  vm.evaluate(code);
  const started = performance.now();
  const first = await call({ script: "echo first" });
  firstRequestMs = performance.now() - started;
  assert.equal(first.body.stdout, "first\n", JSON.stringify(first.body));
});

test("the stand-in forbids compiling WebAssembly from bytes and code from strings", async () => {
  await assert.rejects(
    vm.evaluate("WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]))"),
    /disallowed|Wasm code generation/i,
  );
  assert.throws(() => vm.evaluate("new Function('return 1')()"), /disallowed|Code generation/i);
});

test("the edge-light bundle keeps the registration and never compiles the engine itself", () => {
  assert.match(code, new RegExp(`globalThis\\.${WASM_GLOBAL}`));
  assert.doesNotMatch(code, /compileStreaming|WebAssembly\.compile\(|new WebAssembly\.Module\(/);
  const gzip = gzipSync(code, { level: 9 }).length;
  console.log(`edge-light: bundle ${(code.length / 1024).toFixed(1)} KiB raw, ${(gzip / 1024).toFixed(1)} KiB gzip (plus the .wasm); first request ${firstRequestMs.toFixed(1)} ms`);
});

test("a POSTed script runs and returns stdout, stderr and the exit status", async () => {
  const { status, body } = await call({ script: "seq 3 | paste -sd+; echo e >&2; false" });
  assert.equal(status, 200);
  assert.deepEqual([body.stdout, body.stderr, body.exitCode], ["1+2+3\n", "e\n", 1]);
});

test("the returned snapshot carries the session into the next request", async () => {
  const first = await call({ script: "cd /tmp && echo kept > f && X=1" });
  assert.equal(typeof first.body.snapshot, "string");
  const next = await call({ script: 'pwd; cat f; echo "$X"', snapshot: first.body.snapshot });
  assert.deepEqual([next.body.stdout, next.body.exitCode], ["/tmp\nkept\n1\n", 0]);
  console.log(`edge-light: snapshot of a small session ${(first.body.snapshot.length / 1024).toFixed(1)} KiB base64`);
  const bad = await call({ script: "true", snapshot: "AAAA" });
  assert.equal(bad.status, 400);
});
