// Types of dist/bindings.js, which scripts/bindings.mjs generates from
// wasm-bindgen's glue for src/wasm/. Internal: not part of the public API.

/** One engine operation in progress, polled by the wrapper (src/wasm/run.rs). */
export interface Run {
  /** The id the wake handler receives for this run. */
  readonly id: number;
  /** Makes as much progress as possible; true once finished. Throws only on a trap. */
  poll(): boolean;
  /** The value of a finished run; throws its error (with a `code`) when it failed. */
  result(): unknown;
  /** Frees the run's memory in the instance. */
  free(): void;
}

/** What the engine asks of the wrapper while a sandbox runs (src/wasm/host.rs). */
export interface HostObject {
  /** Resolves after `millis` milliseconds, or earlier when interrupted. */
  sleep(millis: number): Promise<void>;
  /** Resolves on a later macrotask, so timers and I/O callbacks get to run. */
  yieldNow(): Promise<void>;
  /** True once the running script has been asked to stop. */
  interrupted(): boolean;
  /** The names of the custom commands. */
  commandNames(): string[];
  /** Starts a custom command on `call` (`{ argv, stdin, cwd, env }`). */
  startCommand(call: unknown): CommandSession;
}

/** One running custom command, as the engine converses with it (src/wasm/host.rs). */
export interface CommandSession {
  /** The next event: `{ exec: { script, stdin } }` or `{ done: { stdout, stderr, exitCode } }`. */
  next(): Promise<unknown>;
  /** Answers the oldest `exec` event with `{ stdout, stderr, exitCode }`. */
  reply(output: unknown): void;
}

/** A sandbox inside one instance (src/wasm/sandbox.rs). */
export interface WasmSandbox {
  exec(script: string, options: unknown): Run;
  readFile(path: string): Run;
  writeFile(path: string, data: Uint8Array): Run;
  mkdir(path: string): Run;
  exists(path: string): Run;
  readdir(path: string): Run;
  chmod(path: string, mode: number): Run;
  symlink(target: string, path: string): Run;
  /** The session's working directory; undefined while a run holds the session. */
  cwd(): string | undefined;
  free(): void;
}

/** The glue of one instance. */
export interface Bindings {
  WasmSandbox: { create(options: unknown, host: HostObject): Run };
  completeness(source: string): "complete" | "incomplete";
  setPanicReporter(callback: (message: string) => void): void;
  setWakeHandler(callback: (id: number) => void): void;
  debugPanic(): void;
  debugSleep(host: HostObject, millis: number): Run;
  __wbg_set_wasm(exports: WebAssembly.Exports): void;
}

/** Fresh glue state for one new instance. */
export function createBindings(): Bindings & WebAssembly.ModuleImports;
