/**
 * The Bash class: a sandboxed shell session over its own in-memory
 * filesystem. Operations on one Bash run one at a time, in call order,
 * through a promise queue. Each Bash owns one engine instance.
 *
 * After every operation that succeeds, the wrapper brings its copy of the
 * sandbox's last good state up to date (a delta: what changed, see
 * saved-state.ts). When the instance traps, the operation fails with code
 * WABASH_TRAP (or WABASH_MEMORY_LIMIT), a new instance is built and the
 * sandbox is restored from that copy, so the session goes on from the state
 * it had before the failing operation. Only when that is impossible (the
 * option `crashRecovery: "reset"`, or a copy the engine refuses) does the
 * session start afresh, and then the error, `bash.resets` and the next
 * result's `sandboxReset` say so.
 */
import { acquireGuards, inSandbox, policyOf, releaseGuards, type DefenseOptions, type DefensePolicy } from "./defense.js";
import { startTimer, stopTimer } from "./platform.js";
import type { RunId, WasmSandbox } from "./bindings.js";
import { commandTable, type CustomCommand } from "./commands.js";
import { mountList } from "./directory.js";
import { Engine } from "./engine.js";
import { WabashError, type Recovery } from "./errors.js";
import { createHost } from "./host.js";
import { checkNetwork, createFetcher, type NetworkPolicy } from "./network.js";
import { checkLimits } from "./limits.js";
import { engineModule } from "./module-source.js";
import type {
  BashFs,
  BashOptions,
  CrashEvent,
  DirEntry,
  ExecOptions,
  ExecResult,
  ExecutionLimits,
  FileContent,
  FileStat,
  FsChanges,
  InputStream,
  MountFile,
  SandboxPolicy,
} from "./options.js";
import { SavedState } from "./saved-state.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A sandbox's engine instance and its sandbox in it. */
interface Session {
  engine: Engine;
  sandbox: WasmSandbox;
}

/** Output of the engine's exec, before decoding. */
interface RawResult {
  stdout: Uint8Array;
  stderr: Uint8Array;
  exitCode: number;
  exited: boolean;
  exitCalled: boolean;
  /** Host time the session's runs have used, this one included (what `maxSessionDurationMs` counts). */
  sessionMs?: number;
}

/**
 * When the wrapper must wake a run that waits for its time limits to be
 * seen: the nearer of `maxDurationMs` and what is left of
 * `maxSessionDurationMs` after `sessionMs`; undefined for neither.
 */
function limitWake(limits: ExecutionLimits, sessionMs: number): number | undefined {
  const left = [limits.maxDurationMs, limits.maxSessionDurationMs === undefined ? undefined : limits.maxSessionDurationMs - sessionMs];
  const positive = left.filter((ms): ms is number => ms !== undefined && ms > 0 && Number.isFinite(ms));
  return positive.length > 0 ? Math.min(...positive) : undefined;
}

function toBytes(content: FileContent, what: string): Uint8Array {
  if (typeof content === "string") {
    return encoder.encode(content);
  }
  if (content instanceof Uint8Array) {
    return content;
  }
  throw new WabashError("WABASH_INVALID_OPTIONS", `${what} must be a string or a Uint8Array`);
}

function toPairs(record: Record<string, string> | undefined, what: string): [string, string][] {
  if (record === undefined) {
    return [];
  }
  if (record === null || typeof record !== "object") {
    throw new WabashError("WABASH_INVALID_OPTIONS", `${what} must be an object of strings`);
  }
  return Object.entries(record).map(([name, value]) => {
    if (typeof value !== "string") {
      throw new WabashError("WABASH_INVALID_OPTIONS", `${what}.${name} must be a string`);
    }
    return [name, value];
  });
}

function optionalString(value: unknown, what: string): string | undefined {
  if (value !== undefined && typeof value !== "string") {
    throw new WabashError("WABASH_INVALID_OPTIONS", `${what} must be a string`);
  }
  return value;
}

/** Runs one filesystem operation on a sandbox and resolves to its value. */
type FsRunner = <T>(start: (sandbox: WasmSandbox) => RunId) => Promise<T>;

/** The {@link BashFs} methods over `run`, with paths passed through `resolve`. */
function fsOver(run: FsRunner, resolve: (path: string) => string): BashFs {
  const at = (path: string): string => resolve(String(path));
  return {
    readFile: async (path) => decoder.decode(await run<Uint8Array>((sandbox) => sandbox.readFile(at(path)))),
    readFileBytes: (path) => run<Uint8Array>((sandbox) => sandbox.readFile(at(path))),
    writeFile: async (path, content) => {
      const bytes = toBytes(content, "content");
      await run<void>((sandbox) => sandbox.writeFile(at(path), bytes));
    },
    mkdir: (path) => run<void>((sandbox) => sandbox.mkdir(at(path))),
    exists: (path) => run<boolean>((sandbox) => sandbox.exists(at(path))),
    readdir: (path) => run<string[]>((sandbox) => sandbox.readdir(at(path))),
    chmod: async (path, mode) => {
      if (!Number.isInteger(mode) || mode < 0 || mode > 0o7777) {
        throw new WabashError("WABASH_INVALID_OPTIONS", "mode must be an integer from 0 to 0o7777");
      }
      await run<void>((sandbox) => sandbox.chmod(at(path), mode));
    },
    symlink: async (target, path) => {
      await run<void>((sandbox) => sandbox.symlink(String(target), at(path)));
    },
    stat: (path) => run<FileStat>((sandbox) => sandbox.stat(at(path), true)),
    lstat: (path) => run<FileStat>((sandbox) => sandbox.stat(at(path), false)),
    rm: async (path, options = {}) => {
      await run<void>((sandbox) => sandbox.rm(at(path), Boolean(options.recursive), Boolean(options.force)));
    },
    rename: async (from, to) => {
      await run<void>((sandbox) => sandbox.rename(at(from), at(to)));
    },
    readdirWithTypes: (path) => run<DirEntry[]>((sandbox) => sandbox.readdirTypes(at(path))),
    changes: () => run<FsChanges>((sandbox) => sandbox.changesNow()),
    checkpoint: async () => {
      await run<void>((sandbox) => sandbox.checkpointNow());
    },
  };
}

/** `path` taken from `cwd` when relative. */
function resolveFrom(cwd: string, path: string): string {
  return path.startsWith("/") ? path : `${cwd.replace(/\/+$/, "")}/${path}`;
}

/**
 * Internal, for tests of trap recovery: the method under this symbol makes
 * the engine trap on purpose. The package's entries do not export it.
 */
export const crashForTesting: unique symbol = Symbol("wabash.crashForTesting");

/** The policy the `defenseInDepth` option describes, checked. */
function checkDefense(option: unknown): DefensePolicy | undefined {
  if (option !== undefined && typeof option !== "boolean" && (option === null || typeof option !== "object")) {
    throw new WabashError("WABASH_INVALID_OPTIONS", "defenseInDepth must be a boolean or an object");
  }
  const object = typeof option === "object" && option !== null ? (option as DefenseOptions) : undefined;
  if (object?.onViolation !== undefined && typeof object.onViolation !== "function") {
    throw new WabashError("WABASH_INVALID_OPTIONS", "defenseInDepth.onViolation must be a function");
  }
  if (object?.excludeViolationTypes !== undefined && !Array.isArray(object.excludeViolationTypes)) {
    throw new WabashError("WABASH_INVALID_OPTIONS", "defenseInDepth.excludeViolationTypes must be an array");
  }
  return policyOf(option as boolean | DefenseOptions | undefined);
}

/** True for a stream of input chunks (as opposed to text or bytes). */
function isInputStream(value: unknown): value is InputStream {
  if (value === null || typeof value !== "object" || value instanceof Uint8Array) {
    return false;
  }
  return typeof (value as ReadableStream).getReader === "function" || typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === "function";
}

/**
 * The next result of `iterator`, or `undefined` as soon as `signal` aborts
 * (a stream that never yields must not hold an aborted script).
 */
function nextOrAbort<T>(iterator: AsyncIterator<T>, signal: AbortSignal | undefined): Promise<IteratorResult<T> | undefined> {
  if (signal === undefined) {
    return iterator.next();
  }
  if (signal.aborted) {
    return Promise.resolve(undefined);
  }
  return new Promise((resolve, reject) => {
    const onAbort = (): void => resolve(undefined);
    signal.addEventListener("abort", onAbort, { once: true });
    iterator.next().then(
      (next) => {
        signal.removeEventListener("abort", onAbort);
        resolve(next);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/**
 * A `stdinNext()` for the engine: the next chunk of `stream` as bytes,
 * `null` at its end, and at once when `signal` aborts (the script then
 * sees the end of its input and ends with 130).
 */
function pullChunks(stream: InputStream, signal: AbortSignal | undefined): () => Promise<Uint8Array | null> {
  const iterator: AsyncIterator<Uint8Array | string> =
    typeof (stream as ReadableStream).getReader === "function"
      ? readerIterator((stream as ReadableStream<Uint8Array | string>).getReader())
      : (stream as AsyncIterable<Uint8Array | string>)[Symbol.asyncIterator]();
  return async () => {
    const next = await nextOrAbort(iterator, signal);
    if (next === undefined || next.done) {
      return null;
    }
    const chunk = next.value;
    if (typeof chunk === "string") {
      return encoder.encode(chunk);
    }
    if (chunk instanceof Uint8Array) {
      return chunk;
    }
    throw new WabashError("WABASH_INVALID_OPTIONS", "stdin stream chunks must be strings or Uint8Arrays");
  };
}

/** An async iterator over a `ReadableStream` reader (older runtimes lack `stream[Symbol.asyncIterator]`). */
function readerIterator<T>(reader: ReadableStreamDefaultReader<T>): AsyncIterator<T> {
  return {
    next: async () => {
      const { done, value } = await reader.read();
      return done ? { done: true, value: undefined } : { done: false, value: value as T };
    },
  };
}

/** An engine output callback that decodes text across chunk boundaries for `callback`. */
function textCallback(callback: (chunk: string, bytes: Uint8Array) => void, policy: DefensePolicy | undefined): (bytes: Uint8Array) => void {
  const streaming = new TextDecoder();
  return (bytes) => {
    try {
      const text = streaming.decode(bytes, { stream: true });
      inSandbox(policy, () => callback(text, bytes));
    } catch {
      // A listener that throws must not break the script.
    }
  };
}

/**
 * How long after the time limit the wrapper wakes a run that waits (a
 * `sleep`, a custom command, a request): the engine measures from a moment
 * a little after the wrapper's timer starts, and must see the limit passed.
 */
const LIMIT_MARGIN_MS = 20;

/**
 * One signal that fires when `signal` does, when `timeoutMs` passes, or
 * when the run's time limits pass after `limitMs` (the engine checks them
 * only between steps; this wakes a run that waits, and the engine then
 * ends it for the limit, status 126).
 */
function combineSignals(
  signal: AbortSignal | undefined,
  timeoutMs: number | undefined,
  limitMs: number | undefined,
): { signal: AbortSignal | undefined; timedOut(): boolean; dispose(): void } {
  const limited = limitMs !== undefined && limitMs > 0;
  if (timeoutMs === undefined && !limited) {
    return { signal, timedOut: () => false, dispose: () => undefined };
  }
  const controller = new AbortController();
  let timedOut = false;
  const forward = (): void => controller.abort(signal?.reason);
  if (signal?.aborted) {
    forward();
  }
  signal?.addEventListener("abort", forward, { once: true });
  const timer =
    timeoutMs === undefined
      ? undefined
      : startTimer(() => {
          timedOut = !controller.signal.aborted;
          controller.abort(new Error(`timed out after ${timeoutMs} ms`));
        }, timeoutMs);
  const limitTimer = limited
    ? startTimer(() => controller.abort(new Error(`time limit (${limitMs} ms) exceeded`)), limitMs + LIMIT_MARGIN_MS)
    : undefined;
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    dispose: () => {
      if (timer !== undefined) {
        stopTimer(timer);
      }
      if (limitTimer !== undefined) {
        stopTimer(limitTimer);
      }
      signal?.removeEventListener("abort", forward);
    },
  };
}

/** True for the errors that mean the engine instance is dead. */
function isCrash(error: unknown): error is WabashError {
  return error instanceof WabashError && (error.code === "WABASH_TRAP" || error.code === "WABASH_MEMORY_LIMIT");
}

/** A sandboxed bash session. State (variables, functions, cwd, files) persists across `exec` calls. */
export class Bash {
  /** The sandbox's filesystem, for the host to read and write directly. */
  readonly fs: BashFs;
  readonly #createOptions: {
    files: [string, Uint8Array][];
    env: [string, string][];
    cwd?: string;
    executionLimits: ExecutionLimits;
    memoryLimit?: number;
    mounts: ReturnType<typeof mountList>;
  };
  readonly #commands: Map<string, CustomCommand>;
  readonly #recovery: "restore" | "reset";
  readonly #onCrash: ((event: CrashEvent) => void) | undefined;
  readonly #policy: DefensePolicy | undefined;
  readonly #network: NetworkPolicy | undefined;
  readonly #saved = new SavedState();
  #current: Session | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #signal: AbortSignal | undefined;
  #resets = 0;
  #restores = 0;
  #resetPending = false;
  /** The session time the engine last reported (see {@link limitWake}). */
  #sessionMs = 0;

  /** A new sandbox. Nothing is loaded until the first operation. */
  constructor(options: BashOptions = {}) {
    const files = Object.entries(options.files ?? {}).map(
      ([path, content]): [string, Uint8Array] => [path, toBytes(content, `files[${JSON.stringify(path)}]`)],
    );
    const cwd = optionalString(options.cwd, "cwd");
    const memoryLimit = options.memoryLimit;
    if (memoryLimit !== undefined && (typeof memoryLimit !== "number" || !Number.isSafeInteger(memoryLimit) || memoryLimit < 16 << 20)) {
      throw new WabashError("WABASH_INVALID_OPTIONS", "memoryLimit must be an integer number of bytes, at least 16 MiB");
    }
    const recovery = options.crashRecovery ?? "restore";
    if (recovery !== "restore" && recovery !== "reset") {
      throw new WabashError("WABASH_INVALID_OPTIONS", 'crashRecovery must be "restore" or "reset"');
    }
    if (options.onCrash !== undefined && typeof options.onCrash !== "function") {
      throw new WabashError("WABASH_INVALID_OPTIONS", "onCrash must be a function");
    }
    this.#recovery = recovery;
    this.#onCrash = options.onCrash;
    this.#policy = checkDefense(options.defenseInDepth);
    this.#network = checkNetwork(options.network);
    this.#commands = commandTable(options.customCommands);
    this.#createOptions = {
      files,
      env: toPairs(options.env, "env"),
      executionLimits: checkLimits(options.executionLimits),
      mounts: mountList(options.mounts),
      ...(cwd === undefined ? {} : { cwd }),
      ...(memoryLimit === undefined ? {} : { memoryLimit }),
    };
    this.fs = fsOver(
      (start) => this.#enqueue(({ engine, sandbox }) => engine.drive(() => start(sandbox))),
      (path) => path,
    );
  }

  /**
   * How many times the engine crashed and the sandbox had to start afresh,
   * losing its files, variables, functions and cwd (see `crashRecovery`).
   */
  get resets(): number {
    return this.#resets;
  }

  /** How many times the engine crashed and the sandbox was brought back to its last good state. */
  get restores(): number {
    return this.#restores;
  }

  /**
   * The bounds set on this sandbox by its options: mount points (read-only
   * or not), the network allowlist, the limits. A fresh copy each time.
   */
  get policy(): SandboxPolicy {
    const { mounts, executionLimits, memoryLimit } = this.#createOptions;
    const defaultPort = (protocol: string): string => (protocol === "https:" ? "443" : "80");
    const prefixes = this.#network?.prefixes.map(
      ({ protocol, hostname, port, path }) => `${protocol}//${hostname}${port && port !== defaultPort(protocol) ? `:${port}` : ""}${path}`,
    );
    return {
      mounts: mounts.map(({ point, mode }) => ({ path: point, readOnly: mode === "readOnly" })),
      ...(this.#network && prefixes && prefixes.length > 0 ? { network: { allowedUrlPrefixes: prefixes, allowedMethods: [...this.#network.methods] } } : {}),
      limits: { ...executionLimits },
      ...(memoryLimit === undefined ? {} : { memoryLimit }),
    };
  }

  /**
   * Runs a bash script and resolves to its output and status. A script that
   * fails (syntax error, unknown command, failing command) resolves normally
   * with bash's message on `stderr` and its status in `exitCode`.
   */
  exec(script: string, options: ExecOptions = {}): Promise<ExecResult> {
    if (typeof script !== "string") {
      return Promise.reject(new WabashError("WABASH_INVALID_OPTIONS", "script must be a string"));
    }
    let input: { stdin?: Uint8Array; env: [string, string][]; cwd?: string; args?: string[]; arg0?: string };
    let stream: InputStream | undefined;
    try {
      const cwd = optionalString(options.cwd, "cwd");
      const arg0 = optionalString(options.arg0, "arg0");
      if (options.args !== undefined && (!Array.isArray(options.args) || options.args.some((a) => typeof a !== "string"))) {
        throw new WabashError("WABASH_INVALID_OPTIONS", "args must be an array of strings");
      }
      for (const name of ["onStdout", "onStderr"] as const) {
        if (options[name] !== undefined && typeof options[name] !== "function") {
          throw new WabashError("WABASH_INVALID_OPTIONS", `${name} must be a function`);
        }
      }
      const timeout = options.timeoutMs;
      if (timeout !== undefined && (typeof timeout !== "number" || !Number.isFinite(timeout) || timeout < 0)) {
        throw new WabashError("WABASH_INVALID_OPTIONS", "timeoutMs must be a non-negative number of milliseconds");
      }
      stream = isInputStream(options.stdin) ? options.stdin : undefined;
      input = {
        env: toPairs(options.env, "env"),
        ...(options.args === undefined ? {} : { args: [...options.args] }),
        ...(arg0 === undefined ? {} : { arg0 }),
        ...(options.stdin === undefined || stream ? {} : { stdin: toBytes(options.stdin as FileContent, "stdin") }),
        ...(cwd === undefined ? {} : { cwd }),
      };
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#enqueue(async ({ engine, sandbox }) => {
      const interrupt = combineSignals(options.signal, options.timeoutMs, limitWake(this.#createOptions.executionLimits, this.#sessionMs));
      this.#signal = interrupt.signal;
      const policy = this.#policy;
      const io = {
        ...(options.onStdout ? { stdout: textCallback(options.onStdout, policy) } : {}),
        ...(options.onStderr ? { stderr: textCallback(options.onStderr, policy) } : {}),
        ...(stream ? { stdinNext: pullChunks(stream, interrupt.signal) } : {}),
      };
      if (policy) {
        acquireGuards();
      }
      try {
        const raw = await engine.drive<RawResult>(() => sandbox.exec(script, input, io));
        if (typeof raw.sessionMs === "number") {
          this.#sessionMs = raw.sessionMs;
        }
        let stderrBytes = raw.stderr;
        if (interrupt.timedOut()) {
          const note = encoder.encode(`wabash: timed out after ${options.timeoutMs} ms\n`);
          const joined = new Uint8Array(stderrBytes.byteLength + note.byteLength);
          joined.set(stderrBytes, 0);
          joined.set(note, stderrBytes.byteLength);
          stderrBytes = joined;
          options.onStderr?.(decoder.decode(note), note);
        }
        const result: Record<string, unknown> = {
          stdout: decoder.decode(raw.stdout),
          stderr: decoder.decode(stderrBytes),
          exitCode: raw.exitCode,
          exited: raw.exited,
        };
        if (this.#resetPending) {
          this.#resetPending = false;
          result.sandboxReset = true;
        }
        // The bytes stay out of JSON and spreads: they repeat the text.
        return Object.defineProperties(result, {
          stdoutBytes: { value: raw.stdout, enumerable: false },
          stderrBytes: { value: stderrBytes, enumerable: false },
          // Internal, for the interactive CLI: `exit` itself ran (a fatal
          // error ends a script but not an interactive session).
          exitCalled: { value: raw.exitCalled, enumerable: false },
        }) as unknown as ExecResult;
      } finally {
        if (policy) {
          releaseGuards();
        }
        interrupt.dispose();
        this.#signal = undefined;
      }
    });
  }

  /**
   * The whole sandbox as bytes: files, variables, functions, aliases,
   * options, traps and the working directory, in a versioned, checksummed
   * format. {@link Bash.restore} brings it back (in this process or
   * another: an edge function can keep a session in a KV store).
   */
  snapshot(): Promise<Uint8Array> {
    return this.#enqueue(async ({ sandbox }) => sandbox.snapshot());
  }

  /**
   * A new sandbox holding what `bytes` (from {@link Bash.snapshot}) held;
   * `options` give what a snapshot does not carry (custom commands,
   * limits, `env` defaults are overridden by the snapshot's variables).
   * Rejects with `WABASH_SNAPSHOT` for bytes that are not a snapshot.
   */
  static async restore(bytes: Uint8Array, options: BashOptions = {}): Promise<Bash> {
    if (!(bytes instanceof Uint8Array)) {
      throw new WabashError("WABASH_INVALID_OPTIONS", "restore needs the Uint8Array that snapshot() returned");
    }
    const bash = new Bash(options);
    try {
      await bash.#enqueue(({ engine, sandbox }) => engine.drive<string[]>(() => sandbox.restoreSnapshot(bytes)));
    } catch (error) {
      if (error instanceof Error && (error as { code?: unknown }).code === "WABASH_SNAPSHOT") {
        throw new WabashError("WABASH_SNAPSHOT", error.message, { cause: error });
      }
      throw error;
    }
    return bash;
  }

  /**
   * What scripts changed under the copy-on-write mount at `point`, compared
   * with the host directory: sandbox paths created, modified (contents,
   * kind, link target or mode) and deleted, each list sorted.
   */
  mountChanges(point: string): Promise<FsChanges> {
    return this.#enqueue(({ engine, sandbox }) => engine.drive<FsChanges>(() => sandbox.mountChanges(String(point))));
  }

  /**
   * The changed nodes under the copy-on-write mount at `point`, with the
   * contents of created and modified files: what to write back to the host
   * directory to apply the changes (paths relative to the mount's root).
   */
  mountFiles(point: string): Promise<MountFile[]> {
    return this.#enqueue(({ engine, sandbox }) => engine.drive<MountFile[]>(() => sandbox.mountFiles(String(point))));
  }

  /**
   * The changes under the copy-on-write mount at `point` as a unified patch
   * (`diff -ruN` sections with `a/` and `b/` paths: `patch -p1` applies it
   * in the host directory); empty when nothing changed.
   */
  mountPatch(point: string): Promise<string> {
    return this.#enqueue(({ engine, sandbox }) => engine.drive<string>(() => sandbox.mountPatch(String(point))));
  }

  /** The session's working directory, as `cd` in earlier calls left it. */
  getCwd(): Promise<string> {
    return this.#enqueue(async ({ sandbox }) => {
      const cwd = sandbox.cwd();
      if (cwd === undefined) {
        throw new WabashError("WABASH_INTERNAL", "the session is busy");
      }
      return cwd;
    });
  }

  /**
   * Whether `source` is a complete script or needs more input (an open
   * quote, `if` without `fi`, a trailing `|`...): for a REPL's continuation prompt.
   */
  async completeness(source: string): Promise<"complete" | "incomplete"> {
    return this.#enqueue(async ({ engine }) => engine.bindings.completeness(source));
  }

  /** Internal (tests): traps the engine; rejects with code WABASH_TRAP. */
  [crashForTesting](kind: "panic" | "memory" = "panic"): Promise<never> {
    return this.#enqueue(({ engine }) =>
      engine.drive<never>((bindings) => {
        if (kind === "memory") {
          bindings.debugExhaustMemory();
        } else {
          bindings.debugPanic();
        }
        throw new WabashError("WABASH_INTERNAL", "the crash did not happen");
      }),
    );
  }

  /**
   * Runs `operation` after every earlier one, on a live session; then brings
   * the saved state up to date. A crash recovers the sandbox before the
   * operation's promise rejects, so the error can say what became of it.
   */
  #enqueue<T>(operation: (session: Session) => Promise<T>): Promise<T> {
    const result = this.#queue.then(async () => {
      const session = await this.#ready();
      try {
        const value = await operation(session);
        this.#keep(session);
        return value;
      } catch (error) {
        if (isCrash(error) || session.engine.trap) {
          throw await this.#recover(isCrash(error) ? error : (session.engine.trap as WabashError));
        }
        this.#keep(session);
        throw error;
      }
    });
    this.#queue = result.catch(() => undefined);
    return result;
  }

  /** Brings the saved state up to date with what the last operation changed. */
  #keep(session: Session): void {
    if (this.#recovery === "reset" || session.engine.trap) {
      return;
    }
    let delta;
    try {
      delta = session.sandbox.takeDelta();
    } catch (error) {
      // Taking the delta crashed the engine: the operation is lost with it.
      throw error instanceof WabashError ? error : new WabashError("WABASH_TRAP", `wabash engine crashed: ${String(error)}`, { cause: error });
    }
    this.#saved.apply(delta);
  }

  /** The current session, created when needed. */
  async #ready(): Promise<Session> {
    if (this.#current && !this.#current.engine.trap) {
      return this.#current;
    }
    this.#current = await this.#create();
    this.#keep(this.#current);
    return this.#current;
  }

  /**
   * After a crash: a new instance, restored from the saved state when there
   * is one, else fresh. Returns the error to reject the operation with.
   */
  async #recover(crash: WabashError): Promise<WabashError> {
    this.#current = undefined;
    // A new engine counts the session's time afresh; waking late is safe, early is not.
    this.#sessionMs = 0;
    let recovery: Recovery = "reset";
    let lost = "";
    try {
      const session = await this.#create();
      if (this.#recovery === "restore" && this.#saved.ready) {
        try {
          const warnings = await session.engine.drive<string[]>(() =>
            session.sandbox.restoreSaved(this.#saved.records(), this.#saved.shell()),
          );
          session.sandbox.trackChanges();
          recovery = "restored";
          lost = warnings.length > 0 ? ` (not restored: ${warnings.join("; ")})` : "";
        } catch (error) {
          lost = `: the saved state could not be restored (${error instanceof Error ? error.message : String(error)})`;
          this.#current = undefined;
          const fresh = await this.#create();
          this.#current = fresh;
          this.#saved.apply(fresh.sandbox.takeDelta());
        }
      } else {
        this.#saved.apply(session.sandbox.takeDelta());
      }
      this.#current ??= session;
    } catch (error) {
      lost = `: a new engine could not be started (${error instanceof Error ? error.message : String(error)})`;
    }
    let message: string;
    if (recovery === "restored") {
      this.#restores += 1;
      message = `${crash.message}; the sandbox was restored to its state before this operation${lost}`;
    } else {
      this.#resets += 1;
      this.#resetPending = true;
      message = `${crash.message}; the sandbox was reset: its files, variables, functions and working directory were lost${lost}`;
    }
    const error = new WabashError(crash.code, message, { cause: crash.cause ?? crash, recovery });
    try {
      this.#onCrash?.({ error, recovery });
    } catch {
      // A throwing listener must not hide the crash from the caller.
    }
    return error;
  }

  /** A fresh instance holding a fresh sandbox built from the constructor's options. */
  async #create(): Promise<Session> {
    const engine = await Engine.create(await engineModule());
    let session: Session | undefined;
    // Custom commands run while an exec holds the queue: their ctx.fs goes to
    // the sandbox directly.
    const direct: FsRunner = (start) => {
      const current = session;
      return current ? engine.drive(() => start(current.sandbox)) : Promise.reject(new WabashError("WABASH_INTERNAL", "no sandbox yet"));
    };
    const host = createHost(
      () => this.#signal,
      this.#commands,
      (cwd) => fsOver(direct, (path) => resolveFrom(cwd, path)),
      this.#policy,
      this.#network ? createFetcher(this.#network, () => this.#signal, this.#policy) : undefined,
    );
    const sandbox = await engine.drive<WasmSandbox>((bindings) => bindings.WasmSandbox.create(this.#createOptions, host));
    session = { engine, sandbox };
    return session;
  }
}
