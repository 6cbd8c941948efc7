/**
 * The Cloudflare Workers entry: workerd forbids compiling WebAssembly from
 * bytes, so the engine is imported as a module and the bundler (wrangler)
 * hands over the compiled WebAssembly.Module.
 */
import engine from "./wabash_bg.wasm";
import { setModuleSource } from "./module-source.js";

setModuleSource(() => engine);

export * from "./api.js";
