/**
 * The JavaScript globals the wrapper itself needs, captured when the package
 * loads: defense in depth (defense.ts) replaces them while sandboxes run,
 * and the wrapper's own timers and its own WebAssembly instances must keep
 * working through that.
 */

/** `WebAssembly` as it was when the package loaded. */
export const Wasm: typeof WebAssembly = globalThis.WebAssembly;

/** `setTimeout` as it was when the package loaded. */
export const startTimer: typeof setTimeout = globalThis.setTimeout.bind(globalThis);

/** `setImmediate` as it was when the package loaded (Node, Bun); undefined elsewhere. */
export const startImmediate: ((callback: () => void) => unknown) | undefined = (
  globalThis as { setImmediate?: (callback: () => void) => unknown }
).setImmediate?.bind(globalThis);

/** `fetch` as it was when the package loaded (the network policy's default; undefined where there is none). */
export const hostFetch: typeof fetch | undefined = typeof globalThis.fetch === "function" ? globalThis.fetch.bind(globalThis) : undefined;

/** `clearTimeout` as it was when the package loaded. */
export const stopTimer: typeof clearTimeout = globalThis.clearTimeout.bind(globalThis);

/** Globals wasm-bindgen's glue uses, as they were when the package loaded (scripts/bindings.mjs). */
export const captured = {
  FinalizationRegistry: globalThis.FinalizationRegistry,
  Reflect: globalThis.Reflect,
};
