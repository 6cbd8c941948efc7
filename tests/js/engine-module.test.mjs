// setEngineModule: a compiled engine supplied by the app (a page that
// compiled it and posted it to a worker, as the playground does) is the one
// every later Bash runs on; anything else is refused.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { Bash, WabashError, setEngineModule } from "../../dist/node.js";
import { engineModule } from "../../dist/module-source.js";
import { root } from "./support/bundle.mjs";

const bytes = await readFile(join(root, "dist", "wabash_bg.wasm"));

test("a supplied module (or a promise of one) is the engine later Bash objects use", async () => {
  const module = await WebAssembly.compile(bytes);
  setEngineModule(module);
  assert.equal(await engineModule(), module);
  assert.equal((await new Bash().exec("echo supplied")).stdout, "supplied\n");
  const promised = WebAssembly.compile(bytes);
  setEngineModule(promised);
  assert.equal(await engineModule(), await promised);
  assert.equal((await new Bash().exec("echo $((1 + 1))")).stdout, "2\n");
});

test("anything but a module or a promise of one is refused", async () => {
  for (const bad of [undefined, null, bytes, "wabash_bg.wasm", {}]) {
    assert.throws(() => setEngineModule(bad), (error) => error instanceof WabashError && error.code === "WABASH_INVALID_OPTIONS");
  }
  setEngineModule(Promise.resolve("not a module"));
  await assert.rejects(new Bash().exec("true"), (error) => error instanceof WabashError && error.code === "WABASH_INVALID_OPTIONS");
  // A failed load is not kept: the next supplied module works.
  setEngineModule(await WebAssembly.compile(bytes));
  assert.equal((await new Bash().exec("echo recovered")).stdout, "recovered\n");
});
