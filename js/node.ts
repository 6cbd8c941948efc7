/**
 * The Node.js entry: the engine is read synchronously from the package
 * directory and compiled once per process, on first use.
 */
import { readFileSync } from "node:fs";
import { setModuleSource } from "./module-source.js";

setModuleSource(() => new WebAssembly.Module(readFileSync(new URL("./wabash_bg.wasm", import.meta.url))));

export * from "./api.js";
