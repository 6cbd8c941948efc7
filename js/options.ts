/** The public option and result types of {@link Bash}. */

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
}

/** Options of one {@link Bash.exec} call. */
export interface ExecOptions {
  /** What the script reads on standard input (default: nothing, end of file at once). */
  stdin?: FileContent;
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
}
