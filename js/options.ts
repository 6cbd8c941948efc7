/** The public option and result types of {@link Bash}. */
import type { CustomCommand } from "./commands.js";

/** File contents: text (stored as UTF-8) or raw bytes. */
export type FileContent = string | Uint8Array;

/** Options of `new Bash(options)`. */
export interface BashOptions {
  /**
   * Files to create before the first command, by path. Relative paths are
   * taken from `cwd`; missing parent directories are created.
   * Example: `{ "/home/user/data.csv": "a,b\n1,2\n" }`.
   */
  files?: Record<string, FileContent>;
  /** Environment variables, exported to every command (`HOME`, `PATH`... have sandbox defaults). */
  env?: Record<string, string>;
  /** The initial working directory inside the sandbox (default `/home/user`). */
  cwd?: string;
  /**
   * Commands written in JavaScript, made with `defineCommand`. Scripts run
   * them like any utility (pipes, redirections, `xargs`, `/bin/NAME`).
   */
  customCommands?: CustomCommand[];
  /**
   * Host directories mounted at absolute paths, read lazily:
   * `{ "/project": nodeDirectory("./repo", { copyOnWrite: true }) }`
   * (`nodeDirectory` in Node, `mapDirectory` for a map of contents or lazy
   * loaders, `mountDirectory` for any adapter). Read-only mounts refuse
   * every change (`Read-only file system`); copy-on-write ones keep changes
   * in memory, never writing the host, and report them through
   * {@link Bash.mountChanges}, `mountFiles` and `mountPatch`. Snapshots and
   * crash recovery cover the sandbox's own files, not what a copy-on-write
   * mount changed.
   */
  mounts?: Record<string, import("./directory.js").Mount>;
  /** Limits on what one `exec` (and the whole session) may do; see {@link ExecutionLimits}. */
  executionLimits?: ExecutionLimits;
  /**
   * The most memory the sandbox's engine may allocate, in bytes (at least
   * 16 MiB; default and maximum 1 GiB, the engine's hard ceiling). Commands
   * that hold their data (`sort`, `tac`) stop with their own "memory
   * exhausted" error before it; past it the engine crashes with
   * `WABASH_MEMORY_LIMIT` and the sandbox recovers as `crashRecovery` says.
   * Other `Bash` objects are never affected.
   */
  memoryLimit?: number;
  /**
   * What happens when the engine crashes (a bug, or memory exhausted):
   * `"restore"` (the default) brings the sandbox back to its state before
   * the failing operation, from a copy of the last good state the wrapper
   * keeps outside the engine (its cost: time in proportion to what each
   * operation changed, and memory about the size of the sandbox's files);
   * `"reset"` keeps no copy and starts afresh from these options.
   */
  crashRecovery?: "restore" | "reset";
  /** Called after the engine crashed and the sandbox was recovered, before the failing call rejects. */
  onCrash?: (event: CrashEvent) => void;
  /**
   * Defense in depth (default on): while an exec runs, the JavaScript
   * globals that turn data into code or reach outside (`Function` and its
   * async/generator kin, `eval`, timers, `WeakRef`, `Reflect`, `Proxy`,
   * `process.env`, `process.binding`, `require`, `WebAssembly`,
   * `SharedArrayBuffer`, `Atomics`, the `__proto__` setter) throw when code
   * running for the sandbox (custom commands, output listeners, network
   * callbacks) uses them; the host's own code is unaffected.
   * `{ auditMode: true }` reports without blocking; `onViolation` hears of
   * every use; `excludeViolationTypes` lets chosen kinds through.
   */
  defenseInDepth?: boolean | import("./defense.js").DefenseOptions;
  /**
   * Network access for `curl` and `wget` (default: none). Every request is
   * checked before a byte leaves: `allowedUrlPrefixes`, `allowedMethods`
   * (GET, HEAD), `maxRedirects` (20), `timeoutMs` (30000),
   * `maxResponseSize` and `maxRequestSize` (10 MiB), secret `headers` per
   * prefix, an `onRequest` callback and a custom `fetch`; see docs/network.md.
   */
  network?: import("./network.js").NetworkOptions;
}

/** What {@link BashOptions.onCrash} receives. */
export interface CrashEvent {
  /** The error the failing call rejects with (`WABASH_TRAP` or `WABASH_MEMORY_LIMIT`). */
  error: import("./errors.js").WabashError;
  /** `"restored"`: back to the state before the failing call; `"reset"`: a fresh sandbox. */
  recovery: import("./errors.js").Recovery;
}

/**
 * Execution limits. Every limit error names the limit and its value. The
 * budgets (commands, loop iterations, output, time, session totals) stop the
 * script with `bash: limit: command limit (1000) exceeded` on stderr and exit
 * status 126; the size limits (call depth, substitution depth, string length,
 * array elements) fail the way bash's own errors do
 * (`f: maximum function nesting level exceeded (200)`). The sandbox stays
 * usable for the next `exec` (a spent session limit fails every later `exec`
 * too). Per-run limits start again at each `exec`; the `maxSession...` ones
 * add up over the Bash object's life. Defaults are generous enough for
 * ordinary scripts; a session limit of 0 (the default) means none, as does a
 * `maxDurationMs` of 0.
 */
export interface ExecutionLimits {
  /** Most commands (builtins, utilities, function calls) one exec may start. Default 10,000,000. */
  maxCommandCount?: number;
  /** Most loop iterations one exec may run, over all loops. Default 10,000,000. */
  maxLoopIterations?: number;
  /** Deepest function call nesting (bash's FUNCNEST). Default 200. */
  maxCallDepth?: number;
  /** Deepest nesting of command substitutions and subshells. Default 100. */
  maxSubstitutionDepth?: number;
  /** Longest string one variable or expansion may hold, in bytes. Default 64 MiB. */
  maxStringLength?: number;
  /** Most elements one array may hold. Default 1,000,000. */
  maxArrayElements?: number;
  /** Most bytes one exec may write to stdout, and to stderr. Default 64 MiB. */
  maxOutputSize?: number;
  /** Longest exec, in milliseconds of wall-clock time. Default 0 (none). */
  maxDurationMs?: number;
  /** Most commands over all execs of the session. Default 0 (none). */
  maxSessionCommandCount?: number;
  /** Most loop iterations over all execs of the session. Default 0 (none). */
  maxSessionLoopIterations?: number;
  /** Most milliseconds spent running, over all execs of the session. Default 0 (none). */
  maxSessionDurationMs?: number;
  /** Most awk steps (statements and loop iterations) per exec. Default 100,000,000. */
  maxAwkIterations?: number;
  /** Most jq evaluation steps per exec. Default 100,000,000. */
  maxJqIterations?: number;
  /** Most sed commands run (branch loops included) per exec. Default 100,000,000. */
  maxSedIterations?: number;
  /** Most bc instructions run per exec. Default 100,000,000. */
  maxBcIterations?: number;
}

/** Standard input that arrives over time: a web `ReadableStream` or any async iterable of chunks. */
export type InputStream = ReadableStream<Uint8Array | string> | AsyncIterable<Uint8Array | string>;

/** Options of one {@link Bash.exec} call. */
export interface ExecOptions {
  /**
   * What the script reads on standard input (default: nothing, end of file
   * at once): text, bytes, or a stream the script reads as it arrives
   * (`read` waits for the next line; the stream ends the input).
   */
  stdin?: FileContent | InputStream;
  /**
   * Called with each chunk the script writes to standard output, as it is
   * written (text decoded across chunk boundaries, and the bytes). The
   * result still holds the whole output.
   */
  onStdout?: (chunk: string, bytes: Uint8Array) => void;
  /** Like {@link ExecOptions.onStdout}, for standard error. */
  onStderr?: (chunk: string, bytes: Uint8Array) => void;
  /**
   * Interrupts the script after this many milliseconds, as `signal` would
   * (status 130), with `wabash: timed out after N ms` on stderr.
   */
  timeoutMs?: number;
  /** Variables exported for this call only, on top of the session's. */
  env?: Record<string, string>;
  /** The working directory for this call only. */
  cwd?: string;
  /** Positional parameters `$1`... for this call (the session keeps them afterwards, as `set --` would). */
  args?: string[];
  /** `$0` for this call (default `bash`). */
  arg0?: string;
  /** Aborting it interrupts the script, as Ctrl-C does in a terminal. */
  signal?: AbortSignal;
}

/** The outcome of one {@link Bash.exec} call. */
export interface ExecResult {
  /** Everything the script wrote to standard output (invalid UTF-8 replaced). */
  stdout: string;
  /** Everything the script wrote to standard error (invalid UTF-8 replaced). */
  stderr: string;
  /** The exit status, as `$?` would show it: 0 for success, 127 for command not found... */
  exitCode: number;
  /** True when the script ended through `exit` (or a fatal error) rather than by reaching its end. */
  exited: boolean;
  /**
   * Present (true) on the first result after the engine crashed and the
   * sandbox had to start afresh, losing its state (see `crashRecovery`).
   */
  sandboxReset?: true;
  /** Standard output, byte for byte, for binary output (not enumerable: JSON and spreads leave it out). */
  readonly stdoutBytes: Uint8Array;
  /** Standard error, byte for byte (not enumerable). */
  readonly stderrBytes: Uint8Array;
}

/** Direct access to the sandbox's in-memory filesystem. Relative paths start at the initial `cwd`. */
export interface BashFs {
  /** Reads a file as UTF-8 text. Rejects with `code` `ENOENT`, `EISDIR`... like Node's `fs`. */
  readFile(path: string): Promise<string>;
  /** Reads a file as bytes. */
  readFileBytes(path: string): Promise<Uint8Array>;
  /** Creates or replaces a file, creating missing parent directories. */
  writeFile(path: string, content: FileContent): Promise<void>;
  /** Creates a directory and its missing parents (`mkdir -p`). */
  mkdir(path: string): Promise<void>;
  /** True when the path exists. */
  exists(path: string): Promise<boolean>;
  /** The names in a directory, sorted, without `.` and `..`. */
  readdir(path: string): Promise<string[]>;
  /** Sets a file's permission bits, such as `0o755`. */
  chmod(path: string, mode: number): Promise<void>;
  /** Creates a symbolic link at `path` that points to `target` (stored as given). */
  symlink(target: string, path: string): Promise<void>;
  /** What `stat(2)` knows of a path, following symlinks. Rejects with `ENOENT`... */
  stat(path: string): Promise<FileStat>;
  /** Like {@link BashFs.stat}, but a symlink is described itself. */
  lstat(path: string): Promise<FileStat>;
  /**
   * Removes a file or an empty directory; with `recursive`, a directory and
   * everything in it; with `force`, a missing path is not an error (`rm -rf`).
   */
  rm(path: string, options?: { recursive?: boolean; force?: boolean }): Promise<void>;
  /** Renames a file or directory, replacing a file at the target (`rename(2)`). */
  rename(from: string, to: string): Promise<void>;
  /** The entries of a directory with their kinds, sorted by name. */
  readdirWithTypes(path: string): Promise<DirEntry[]>;
  /**
   * The absolute paths created, modified and deleted since the last
   * {@link BashFs.checkpoint} (or since the sandbox was made), each list sorted.
   */
  changes(): Promise<FsChanges>;
  /** Makes now the point {@link BashFs.changes} compares with. */
  checkpoint(): Promise<void>;
}

/** The kind of a filesystem node. */
export type FileKind = "file" | "directory" | "symlink" | "device" | "fifo";

/** What {@link BashFs.stat} returns. */
export interface FileStat {
  /** The node's kind. */
  type: FileKind;
  /** Size in bytes (a symlink's is the length of its target). */
  size: number;
  /** Permission bits, such as `0o644`. */
  mode: number;
  /** Number of hard links. */
  nlink: number;
  /** Owner (1000 is the sandbox user, 0 root). */
  uid: number;
  /** Group. */
  gid: number;
  /** Inode number. */
  ino: number;
  /** Last access, milliseconds since the epoch. */
  atimeMs: number;
  /** Last modification, milliseconds since the epoch. */
  mtimeMs: number;
  /** Last status change, milliseconds since the epoch. */
  ctimeMs: number;
}

/** One entry of {@link BashFs.readdirWithTypes}. */
export interface DirEntry {
  /** The name. */
  name: string;
  /** Its kind, without following symlinks. */
  type: FileKind;
}

/** What {@link BashFs.changes} returns. */
export interface FsChanges {
  /** Paths that did not exist at the checkpoint. */
  created: string[];
  /** Paths whose contents or attributes changed. */
  modified: string[];
  /** Paths that existed at the checkpoint and are gone. */
  deleted: string[];
}

/** One changed node of a copy-on-write mount, as {@link Bash.mountFiles} lists it. */
export interface MountFile {
  /** The path relative to the mount's root, such as `/src/main.rs`. */
  path: string;
  /** How it differs from the host directory. */
  change: "created" | "modified" | "deleted";
  /** Its kind (for a deleted path, the kind it had). */
  type: "file" | "directory" | "symlink";
  /** A created or modified file's bytes, a symlink's target; `null` for directories and deleted paths. */
  content: Uint8Array | string | null;
}

/**
 * What {@link Bash.policy} reports: the bounds the host set on a sandbox, as
 * given to its constructor, for telling a model what it may do
 * (`describeSandbox` reads it).
 */
export interface SandboxPolicy {
  /** Mount points, and whether each is read-only. */
  mounts: { path: string; readOnly: boolean }[];
  /** The network allowlist; absent when the sandbox has no network. */
  network?: { allowedUrlPrefixes: string[]; allowedMethods: string[] };
  /** The execution limits that were set (the defaults apply to the others). */
  limits: ExecutionLimits;
  /** The memory limit that was set, in bytes. */
  memoryLimit?: number;
}
