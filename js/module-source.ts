/**
 * Where the compiled engine comes from. Each runtime entry (node, browser,
 * workerd, edge-light) registers how to get the WebAssembly.Module; the
 * module is then compiled once per process or isolate and shared by every
 * Bash object.
 */
import { WabashError } from "./errors.js";
import { Wasm } from "./platform.js";

/** Produces the compiled engine module. */
export type ModuleSource = () => WebAssembly.Module | Promise<WebAssembly.Module>;

let source: ModuleSource | undefined;
let compiled: Promise<WebAssembly.Module> | undefined;

/** Registers the runtime's way to get the module (called by each entry). */
export function setModuleSource(next: ModuleSource): void {
  source = next;
}

/** The compiled engine module, compiled on first use and then reused. */
export function engineModule(): Promise<WebAssembly.Module> {
  if (!compiled) {
    const current = source;
    compiled = (async () => {
      if (!current) {
        throw new WabashError("WABASH_LOAD", "wabash: no runtime entry registered the engine module");
      }
      return current();
    })().catch((cause: unknown) => {
      compiled = undefined;
      throw cause instanceof WabashError
        ? cause
        : new WabashError("WABASH_LOAD", `wabash: cannot load the engine: ${String(cause)}`, { cause });
    });
  }
  return compiled;
}

/**
 * Supplies the compiled engine (a `WebAssembly.Module`, or a promise of one)
 * for every `Bash` that starts after this call, in place of the runtime
 * entry's own loading: for a page that compiled it with
 * `WebAssembly.compileStreaming` and posted it to a worker, or an app that
 * keeps the `.wasm` somewhere else.
 */
export function setEngineModule(module: WebAssembly.Module | PromiseLike<WebAssembly.Module>): void {
  const isModule = module instanceof Wasm.Module;
  const isPromise = typeof (module as { then?: unknown } | null)?.then === "function";
  if (!isModule && !isPromise) {
    throw new WabashError("WABASH_INVALID_OPTIONS", "setEngineModule needs a WebAssembly.Module or a promise of one");
  }
  source = async () => {
    const resolved = await module;
    if (!(resolved instanceof Wasm.Module)) {
      throw new WabashError("WABASH_INVALID_OPTIONS", "setEngineModule: the promise did not give a WebAssembly.Module");
    }
    return resolved;
  };
  compiled = undefined;
}
