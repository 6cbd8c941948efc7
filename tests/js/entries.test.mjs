// The runtime entries other than node, exercised from Node where possible,
// and the engine driver's wake-up path.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { Engine } from "../../dist/engine.js";
import { createHost } from "../../dist/host.js";
import { engineModule } from "../../dist/module-source.js";
import "../../dist/node.js";

const dist = (file) => new URL(`../../dist/${file}`, import.meta.url);

test("the browser entry fetches and compiles the wasm next to it", () => {
  const script = `
    import { readFileSync } from "node:fs";
    globalThis.fetch = async (url) =>
      new Response(readFileSync(new URL(url)), { headers: { "content-type": "application/wasm" } });
    const { Bash } = await import(${JSON.stringify(dist("browser.js").href)});
    const bash = new Bash();
    await bash.fs.writeFile("/b.txt", "browser");
    console.log(await bash.fs.readFile("/b.txt"));`;
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", timeout: 30_000 });
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stdout, "browser\n");
});

test("the edge entries import the wasm as a module, never compile bytes", () => {
  const workerd = readFileSync(dist("workerd.js"), "utf8");
  const edge = readFileSync(dist("edge-light.js"), "utf8");
  assert.match(workerd, /import engine from "\.\/wabash_bg\.wasm";/);
  assert.match(edge, /import engine from "\.\/wabash_bg\.wasm\?module";/);
  for (const source of [workerd, edge]) {
    assert.doesNotMatch(source, /WebAssembly\.(compile|Module\(|instantiate)/);
  }
});

test("a run waiting on a JS promise is woken and finished", async () => {
  const engine = await Engine.create(await engineModule());
  const host = createHost(() => undefined);
  const elapsed = await engine.drive((bindings) => bindings.debugSleep(host, 30));
  assert.ok(elapsed >= 25, `slept ${elapsed} ms`);
});

test("an aborted signal cuts a host sleep short", async () => {
  const engine = await Engine.create(await engineModule());
  const controller = new AbortController();
  const host = createHost(() => controller.signal);
  setTimeout(() => controller.abort(), 10);
  const elapsed = await engine.drive((bindings) => bindings.debugSleep(host, 10_000));
  assert.ok(elapsed < 5_000, `slept ${elapsed} ms`);
});
