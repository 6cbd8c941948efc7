/**
 * Where the compiled engine comes from. Each runtime entry (node, browser,
 * workerd, edge-light) registers how to get the WebAssembly.Module; the
 * module is then compiled once per process or isolate and shared by every
 * Bash object.
 */
import { WabashError } from "./errors.js";

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
