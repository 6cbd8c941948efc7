/**
 * One WebAssembly instance of the engine and the loop that drives its
 * operations. Each Bash object owns one Engine; the compiled Module is shared
 * by all of them. The engine never runs on its own: every operation is a Run
 * that this file polls inside a `try`, so a trap is caught here, reported as
 * a WabashError with code WABASH_TRAP, and the instance is marked dead.
 */
import { outsideSandbox } from "./defense.js";
import { clock, nextMacrotask, Wasm } from "./platform.js";
import { createBindings, type Bindings, type RunId } from "./bindings.js";
import { WabashError, hasCode } from "./errors.js";

/**
 * How long the engines may keep the event loop busy with microtasks alone
 * before a step waits for a macrotask. A pipeline whose stages only ever
 * wake each other (a custom command reading a fast producer) would
 * otherwise starve timers and I/O: the host's own, and the abort signal's.
 */
const SLICE_MS = 10;

/** When the current unbroken run of microtask steps began; undefined when a macrotask ran since. */
let sliceStart: number | undefined;

/** Runs `step` on a microtask, or after the next macrotask once the current slice is used up. */
function scheduleStep(step: () => void): void {
  const now = clock();
  if (sliceStart === undefined) {
    sliceStart = now;
    void nextMacrotask().then(() => {
      sliceStart = undefined;
    });
  }
  if (now - sliceStart < SLICE_MS) {
    queueMicrotask(step);
  } else {
    void nextMacrotask().then(step);
  }
}

/** A live instance of the engine. */
export class Engine {
  readonly bindings: Bindings;
  readonly #wakers = new Map<number, () => void>();
  #panicMessage: string | undefined;
  #trap: WabashError | undefined;

  private constructor(bindings: Bindings) {
    this.bindings = bindings;
    bindings.setPanicReporter((message) => {
      this.#panicMessage = message;
    });
    bindings.setWakeHandler((id) => this.#wakers.get(id)?.());
  }

  /** Instantiates `module` with fresh glue. */
  static async create(module: WebAssembly.Module): Promise<Engine> {
    const bindings = createBindings();
    const imports: WebAssembly.Imports = {};
    for (const entry of Wasm.Module.imports(module)) {
      imports[entry.module] = bindings;
    }
    const instance = await Wasm.instantiate(module, imports);
    bindings.__wbg_set_wasm(instance.exports);
    const start = instance.exports["__wbindgen_start"];
    if (typeof start === "function") {
      start();
    }
    return new Engine(bindings);
  }

  /** The trap that killed this instance, if one did. */
  get trap(): WabashError | undefined {
    return this.#trap;
  }

  /**
   * Starts an operation and polls it to completion. Once the run has
   * finished, nothing reaches it again: a wake that arrives during its last
   * poll finds it gone from `#wakers` and the `done` flag set, and the engine
   * itself answers any late poll with an error rather than a trap.
   */
  drive<T>(start: (bindings: Bindings) => RunId): Promise<T> {
    // The engine's own work never runs in a sandbox's defense context, even
    // when a custom command (which does) starts it through ctx.fs or ctx.exec.
    return outsideSandbox(() => this.#drive<T>(start));
  }

  #drive<T>(start: (bindings: Bindings) => RunId): Promise<T> {
    if (this.#trap) {
      return Promise.reject(this.#trap);
    }
    const bindings = this.bindings;
    return new Promise<T>((resolve, reject) => {
      let id: RunId;
      try {
        id = start(bindings);
      } catch (error) {
        reject(hasCode(error) ? error : this.#die(error));
        return;
      }
      let scheduled = false;
      let done = false;
      const finish = (): void => {
        done = true;
        this.#wakers.delete(id);
      };
      const step = (): void => {
        scheduled = false;
        if (done) {
          return;
        }
        if (this.#trap) {
          finish();
          reject(this.#trap);
          return;
        }
        let finished: boolean;
        try {
          finished = bindings.pollRun(id);
        } catch (error) {
          finish();
          reject(hasCode(error) ? error : this.#die(error));
          return;
        }
        if (!finished) {
          return;
        }
        finish();
        try {
          resolve(bindings.takeRunResult(id) as T);
        } catch (error) {
          reject(hasCode(error) ? error : this.#die(error));
        }
      };
      this.#wakers.set(id, () => {
        if (!scheduled && !done) {
          scheduled = true;
          scheduleStep(() => outsideSandbox(step));
        }
      });
      step();
    });
  }

  /**
   * Marks the instance dead after a trap and wakes every waiting run to
   * fail. An allocation that failed (an abort without a panic message) is
   * reported as `WABASH_MEMORY_LIMIT`, everything else as `WABASH_TRAP`.
   */
  #die(cause: unknown): WabashError {
    const message = cause instanceof Error ? cause.message : String(cause);
    const outOfMemory =
      this.#panicMessage === undefined && cause instanceof Wasm.RuntimeError && /unreachable/i.test(message);
    let detail = this.#panicMessage ?? message;
    if (outOfMemory) {
      detail = `out of memory (${this.#memoryReport()})`;
    } else if (cause instanceof RangeError && /call stack/i.test(message)) {
      detail = "stack overflow";
    }
    this.#trap = new WabashError(outOfMemory ? "WABASH_MEMORY_LIMIT" : "WABASH_TRAP", `wabash engine crashed: ${detail}`, { cause });
    for (const wake of [...this.#wakers.values()]) {
      wake();
    }
    return this.#trap;
  }

  /** What the dead instance had allocated against its cap, as far as it can still tell. */
  #memoryReport(): string {
    try {
      const allocated = this.bindings.memoryAllocated();
      const limit = this.bindings.memoryLimit();
      const mib = (bytes: number): string => `${Math.round(bytes / 1048576)} MiB`;
      return Number.isFinite(limit) ? `${mib(allocated)} allocated, limit ${mib(limit)}` : `${mib(allocated)} allocated`;
    } catch {
      return "allocation failed";
    }
  }
}
