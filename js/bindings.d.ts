// Types of dist/bindings.js, which scripts/bindings.mjs generates from
// wasm-bindgen's glue for src/wasm/. Internal: not part of the public API.

/** The id of one engine operation in progress, polled by the wrapper (src/wasm/run.rs). */
export type RunId = number;

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
  /** Sends a `curl`/`wget` request through the network policy (js/network.ts); rejects with `{ kind, message, limit? }`. */
  fetch(request: unknown): Promise<unknown>;
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
  exec(script: string, options: unknown, io: unknown): RunId;
  readFile(path: string): RunId;
  writeFile(path: string, data: Uint8Array): RunId;
  mkdir(path: string): RunId;
  exists(path: string): RunId;
  readdir(path: string): RunId;
  chmod(path: string, mode: number): RunId;
  symlink(target: string, path: string): RunId;
  /** What changed since the last call, for the wrapper's copy of the last good state. */
  takeDelta(): import("./saved-state.js").RawDelta;
  /** Starts tracking changes without returning them. */
  trackChanges(): void;
  /** Rebuilds the sandbox from the wrapper's copy; resolves to what could not be restored. */
  restoreSaved(records: Uint8Array, shell: Uint8Array): RunId;
  /** The whole sandbox as bytes. */
  snapshot(): Uint8Array;
  /** Replaces the sandbox with a snapshot; resolves to what could not be restored. */
  restoreSnapshot(bytes: Uint8Array): RunId;
  stat(path: string, follow: boolean): RunId;
  rm(path: string, recursive: boolean, force: boolean): RunId;
  rename(from: string, to: string): RunId;
  readdirTypes(path: string): RunId;
  changesNow(): RunId;
  checkpointNow(): RunId;
  /** `{ created, modified, deleted }` of the copy-on-write mount at `point`. */
  mountChanges(point: string): RunId;
  /** The changed nodes of the copy-on-write mount at `point`, with contents. */
  mountFiles(point: string): RunId;
  /** The changes of the copy-on-write mount at `point` as a unified patch. */
  mountPatch(point: string): RunId;
  /** The session's working directory; undefined while a run holds the session. */
  cwd(): string | undefined;
  free(): void;
}

/** The glue of one instance. */
export interface Bindings {
  WasmSandbox: { create(options: unknown, host: HostObject): RunId };
  completeness(source: string): "complete" | "incomplete";
  setPanicReporter(callback: (message: string) => void): void;
  setWakeHandler(callback: (id: number) => void): void;
  debugPanic(): void;
  debugSleep(host: HostObject, millis: number): RunId;
  /** Makes as much progress as possible on a run; true once finished. Throws a coded error for an unknown run, anything else is a trap. */
  pollRun(id: RunId): boolean;
  /** The value of a finished run, which then leaves the engine's table; throws its error (with a `code`) when it failed. */
  takeRunResult(id: RunId): unknown;
  /** Drops a run whatever its state. */
  cancelRun(id: RunId): void;
  /** How many runs the engine holds (tests: none may leak). */
  runCount(): number;
  /** Bytes the instance has allocated. */
  memoryAllocated(): number;
  /** The instance's memory cap in bytes (Infinity when none). */
  memoryLimit(): number;
  /** Allocates until the instance runs out of memory (tests). */
  debugExhaustMemory(): number;
  __wbg_set_wasm(exports: WebAssembly.Exports): void;
}

/** Fresh glue state for one new instance. */
export function createBindings(): Bindings & WebAssembly.ModuleImports;
