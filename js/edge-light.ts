/**
 * The Vercel edge entry: like workerd, compiling from bytes is forbidden; the
 * `?module` import makes the bundler hand over the compiled WebAssembly.Module.
 */
import engine from "./wabash_bg.wasm?module";
import { setModuleSource } from "./module-source.js";

setModuleSource(() => engine);

export * from "./api.js";
