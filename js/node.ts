/**
 * The Node.js entry: the engine is read synchronously from the package
 * directory and compiled once per process, on first use.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { readFileSync } from "node:fs";
import { setContextTracker, type DefensePolicy } from "./defense.js";
import { setNodeDirectoryFactory } from "./directory.js";
import { nodeDirectoryMount } from "./node-directory.js";
import { setModuleSource } from "./module-source.js";
import { Wasm } from "./platform.js";

setModuleSource(() => new Wasm.Module(readFileSync(new URL("./wabash_bg.wasm", import.meta.url))));

// Defense in depth follows sandbox callbacks across their awaits.
const storage = new AsyncLocalStorage<DefensePolicy | undefined>();
setContextTracker({
  run: (policy, fn) => storage.run(policy, fn),
  exit: (fn) => storage.run(undefined, fn),
  current: () => storage.getStore(),
});

// nodeDirectory() mounts host directories.
setNodeDirectoryFactory(nodeDirectoryMount);

export * from "./api.js";
