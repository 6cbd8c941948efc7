/**
 * The browser entry (and the default for other runtimes): the engine is
 * fetched next to this file and compiled once per page or worker.
 */
import { Wasm } from "./platform.js";
import { setModuleSource } from "./module-source.js";

setModuleSource(async () => {
  const url = new URL("./wabash_bg.wasm", import.meta.url);
  const response = await fetch(url);
  if (!response.ok) {
    throw new Error(`fetching ${url.href}: HTTP ${response.status}`);
  }
  if (typeof Wasm.compileStreaming === "function" && response.headers.get("content-type") === "application/wasm") {
    return Wasm.compileStreaming(response);
  }
  return Wasm.compile(await response.arrayBuffer());
});

export * from "./api.js";
