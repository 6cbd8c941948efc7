/**
 * The host object handed to each sandbox: timers and interruption, built
 * only from what every target runtime has.
 */
import type { HostObject } from "./bindings.js";

/** Resolves on a later macrotask (not a microtask), so I/O and timers run. */
function nextMacrotask(): Promise<void> {
  const immediate = (globalThis as { setImmediate?: (callback: () => void) => unknown }).setImmediate;
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
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** A host whose interruption follows whatever signal `currentSignal` returns. */
export function createHost(currentSignal: () => AbortSignal | undefined): HostObject {
  return {
    sleep(millis: number): Promise<void> {
      const signal = currentSignal();
      return new Promise((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", done);
          resolve();
        };
        const timer = setTimeout(done, Math.max(0, millis));
        signal?.addEventListener("abort", done, { once: true });
      });
    },
    yieldNow: nextMacrotask,
    interrupted(): boolean {
      return currentSignal()?.aborted ?? false;
    },
  };
}
