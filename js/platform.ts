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

/** A monotonic clock in milliseconds (`performance.now`, else `Date.now`). */
export const clock: () => number =
  typeof globalThis.performance?.now === "function" ? globalThis.performance.now.bind(globalThis.performance) : Date.now;

/** Resolves on a later macrotask (not a microtask), so I/O and timers run first. */
export function nextMacrotask(): Promise<void> {
  const immediate = startImmediate;
  if (typeof immediate === "function") {
    return new Promise((resolve) => void immediate(resolve));
  }
  if (typeof MessageChannel === "function") {
    return new Promise((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        channel.port1.close();
        resolve();
      };
      channel.port2.postMessage(null);
    });
  }
  return new Promise((resolve) => startTimer(resolve, 0));
}

/** `fetch` as it was when the package loaded (the network policy's default; undefined where there is none). */
export const hostFetch: typeof fetch | undefined = typeof globalThis.fetch === "function" ? globalThis.fetch.bind(globalThis) : undefined;

/** `clearTimeout` as it was when the package loaded. */
export const stopTimer: typeof clearTimeout = globalThis.clearTimeout.bind(globalThis);

/** Globals wasm-bindgen's glue uses, as they were when the package loaded (scripts/bindings.mjs). */
export const captured = {
  FinalizationRegistry: globalThis.FinalizationRegistry,
  Reflect: globalThis.Reflect,
};
