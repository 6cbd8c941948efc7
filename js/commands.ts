/**
 * Custom commands written in JavaScript. The engine finds them like its own
 * utilities (after functions and builtins; they appear in /bin, `type`,
 * `which` and `command -v`) and calls the host for each run. A run is a
 * conversation with the engine (src/wasm/host.rs): the session's `next()`
 * resolves to a script the command wants run back in the sandbox
 * (`ctx.exec`) or to its final output.
 */
import { inSandbox, type DefensePolicy } from "./defense.js";
import type { CommandSession } from "./bindings.js";
import { WabashError } from "./errors.js";
import type { BashFs, FileContent } from "./options.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** What a custom command returns. Missing output is empty; a missing `exitCode` is 0. */
export interface CommandResult {
  /** Standard output: text (written as UTF-8) or bytes. */
  stdout?: FileContent;
  /** Standard error: text (written as UTF-8) or bytes. */
  stderr?: FileContent;
  /** The exit status, 0 to 255 (other integers are taken modulo 256, as a process's would be). */
  exitCode?: number;
}

/** The output of a script a custom command ran back in the sandbox with {@link CommandContext.exec}. */
export interface CommandExecResult {
  /** Standard output as text (invalid UTF-8 replaced). */
  stdout: string;
  /** Standard error as text (invalid UTF-8 replaced). */
  stderr: string;
  /** The exit status. */
  exitCode: number;
  /** Standard output, byte for byte. */
  stdoutBytes: Uint8Array;
  /** Standard error, byte for byte. */
  stderrBytes: Uint8Array;
}

/** Where a custom command writes while it runs. */
export interface OutputWriter {
  /**
   * Writes `chunk` (text as UTF-8, or bytes) now; resolves once the sandbox
   * took it (a full pipe makes it wait). Rejects with `code` `"EPIPE"` when
   * the reader is gone (`cmd | head -1`): the command has then ended with
   * status 141, as a process killed by SIGPIPE.
   */
  write(chunk: FileContent): Promise<void>;
}

/** What a custom command receives besides its arguments. */
export interface CommandContext {
  /**
   * The command's whole standard input as text (invalid UTF-8 replaced),
   * read to its end before the command is called, up to 64 MiB (a longer
   * input fails the command with an error, never a silent cut). Empty for a
   * command defined with `{ streamStdin: true }`: it reads {@link stdinStream}.
   */
  stdin: string;
  /** The same standard input, byte for byte. */
  stdinBytes: Uint8Array;
  /**
   * Standard input as it arrives, chunk by chunk, for a command defined with
   * `{ streamStdin: true }` (`for await (const chunk of ctx.stdinStream)`);
   * for other commands it is already read (empty).
   */
  stdinStream: AsyncIterable<Uint8Array>;
  /** Standard output, written at once (what the command returns in `stdout` follows it). */
  stdout: OutputWriter;
  /** Standard error, written at once. */
  stderr: OutputWriter;
  /** The working directory (absolute). */
  cwd: string;
  /** The exported variables, as a child process would see them. */
  env: Record<string, string>;
  /** The sandbox filesystem (host rights); relative paths start at {@link cwd}. */
  fs: BashFs;
  /**
   * Runs `script` back in the sandbox as `bash -c SCRIPT` started by this
   * command would run: same working directory, exported variables and open
   * file descriptors (`exec("cat <&3")` reads the command's fd 3), with
   * `options.stdin` (default: nothing) as standard input. Output is collected
   * and returned, not written to the command's own output.
   */
  exec(script: string, options?: { stdin?: FileContent }): Promise<CommandExecResult>;
  /**
   * The abort signal of the `exec` call running this command, if it has one.
   * When it aborts, the command ends at once with status 130 (what it returns later is dropped).
   */
  signal: AbortSignal | undefined;
}

/** A custom command's implementation: `args` are its arguments without the name. */
export type CommandFunction = (args: string[], ctx: CommandContext) => CommandResult | Promise<CommandResult>;

/** A named custom command, as {@link defineCommand} makes it. */
export interface CustomCommand {
  /** The name scripts call it by. */
  readonly name: string;
  /** Runs the command. */
  readonly execute: CommandFunction;
  /** True when the command reads its input as it arrives ({@link CommandContext.stdinStream}). */
  readonly streamStdin?: boolean;
}

/** Options of {@link defineCommand}. */
export interface CommandOptions {
  /**
   * Call the command at once and let it read standard input as it arrives
   * through `ctx.stdinStream` (`ctx.stdin` is then empty), so that it works
   * on endless or slow input and keeps pace with the other stages of a
   * pipeline. Default false: `ctx.stdin` holds the whole input.
   */
  streamStdin?: boolean;
}

/** True for a name bash can run as a command: a non-empty file name. */
function isCommandName(name: unknown): name is string {
  return typeof name === "string" && name !== "" && name !== "." && name !== ".." && !/[/\0]/.test(name);
}

/**
 * Defines a custom command for `new Bash({ customCommands: [...] })`:
 *
 * ```ts
 * defineCommand("hello", async (args, ctx) => ({ stdout: `hi ${args[0] ?? ctx.env.USER}\n`, exitCode: 0 }))
 * ```
 *
 * A command that throws (or rejects) prints `NAME: MESSAGE` on standard error
 * and exits with status 1; the sandbox stays usable. A custom command with
 * the name of a utility replaces that utility; shell builtins and functions
 * come first, as in bash.
 */
export function defineCommand(name: string, execute: CommandFunction, options: CommandOptions = {}): CustomCommand {
  if (!isCommandName(name)) {
    throw new WabashError("WABASH_INVALID_OPTIONS", `invalid custom command name: ${JSON.stringify(name)}`);
  }
  if (typeof execute !== "function") {
    throw new WabashError("WABASH_INVALID_OPTIONS", `custom command ${name}: execute must be a function`);
  }
  if (options === null || typeof options !== "object") {
    throw new WabashError("WABASH_INVALID_OPTIONS", `custom command ${name}: options must be an object`);
  }
  return Object.freeze({ name, execute, ...(options.streamStdin ? { streamStdin: true } : {}) });
}

/** Checks `customCommands` and indexes it by name. */
export function commandTable(commands: unknown): Map<string, CustomCommand> {
  const table = new Map<string, CustomCommand>();
  if (commands === undefined) {
    return table;
  }
  if (!Array.isArray(commands)) {
    throw new WabashError("WABASH_INVALID_OPTIONS", "customCommands must be an array of defineCommand(...) results");
  }
  for (const command of commands as unknown[]) {
    const { name, execute, streamStdin } = (command ?? {}) as Partial<CustomCommand>;
    const checked = defineCommand(name as string, execute as CommandFunction, { streamStdin: Boolean(streamStdin) });
    if (table.has(checked.name)) {
      throw new WabashError("WABASH_INVALID_OPTIONS", `custom command ${checked.name} is defined twice`);
    }
    table.set(checked.name, checked);
  }
  return table;
}

/** A call as the engine sends it. */
export interface CommandCall {
  argv: string[];
  stdin: Uint8Array;
  cwd: string;
  env: [string, string][];
}

/** Output as it crosses the boundary. */
interface OutputBytes {
  stdout: Uint8Array;
  stderr: Uint8Array;
  exitCode: number;
}

/** An event of a running command, as the engine reads it. */
type CommandEvent =
  | { exec: { script: string; stdin: Uint8Array } }
  | { write: { fd: 1 | 2; bytes: Uint8Array } }
  | { read: { max: number } }
  | { done: OutputBytes };

/** Most bytes of standard input a non-streaming command receives. */
const STDIN_LIMIT = 64 << 20;
/** Bytes asked for per read of standard input. */
const READ_CHUNK = 64 << 10;

function bytes(content: FileContent | undefined, what: string): Uint8Array {
  if (content === undefined) {
    return new Uint8Array();
  }
  if (typeof content === "string") {
    return encoder.encode(content);
  }
  if (content instanceof Uint8Array) {
    return content;
  }
  throw new Error(`${what} must be a string or a Uint8Array`);
}

/** Checks what a command returned and converts it to bytes. */
function outputOf(result: unknown): OutputBytes {
  if (result === null || typeof result !== "object") {
    throw new Error("custom command must return an object { stdout, stderr, exitCode }");
  }
  const { stdout, stderr, exitCode = 0 } = result as CommandResult;
  if (!Number.isInteger(exitCode)) {
    throw new Error(`exitCode must be an integer, not ${String(exitCode)}`);
  }
  return { stdout: bytes(stdout, "stdout"), stderr: bytes(stderr, "stderr"), exitCode: exitCode & 255 };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** What a running command may use besides the call itself. */
export interface CommandServices {
  /** The filesystem for `ctx.fs`, relative paths resolved against `cwd`. */
  fs(cwd: string): BashFs;
  /** The abort signal of the running `exec`. */
  signal(): AbortSignal | undefined;
  /** The defense-in-depth policy the command runs under, if any. */
  policy?: DefensePolicy;
}

/** Starts `command` on `call` and returns the session the engine converses with. */
export function startCommand(command: CustomCommand, call: CommandCall, services: CommandServices): CommandSession {
  const events: CommandEvent[] = [];
  // The engine answers requests (exec, write, read) one at a time, in order.
  const replies: ((answer: unknown) => void)[] = [];
  let waiting: ((event: CommandEvent) => void) | undefined;
  let finished = false;
  const push = (event: CommandEvent): void => {
    const wake = waiting;
    waiting = undefined;
    if (wake) {
      wake(event);
    } else {
      events.push(event);
    }
  };
  const request = (event: CommandEvent): Promise<unknown> =>
    new Promise((resolve) => {
      replies.push(resolve);
      push(event);
    });
  const ended = (): WabashError =>
    new WabashError("WABASH_INVALID_OPTIONS", `${command.name}: the command has already finished`);
  const readChunk = async (): Promise<Uint8Array> => {
    if (finished) {
      return new Uint8Array();
    }
    const answer = await request({ read: { max: READ_CHUNK } });
    return answer instanceof Uint8Array ? answer : new Uint8Array();
  };
  const writer = (fd: 1 | 2): OutputWriter => ({
    async write(chunk) {
      if (finished) {
        throw ended();
      }
      const data = bytes(chunk, fd === 1 ? "stdout" : "stderr");
      const answer = (await request({ write: { fd, bytes: data } })) as { error?: string } | undefined;
      if (answer?.error) {
        if (answer.error === "EPIPE") {
          finished = true;
        }
        throw Object.assign(new Error(`${command.name}: write error: ${answer.error === "EPIPE" ? "Broken pipe" : "Input/output error"}`), {
          code: answer.error,
        });
      }
    },
  });
  const stdinStream: AsyncIterable<Uint8Array> = {
    [Symbol.asyncIterator]: () => ({
      next: async () => {
        const chunk = command.streamStdin ? await readChunk() : new Uint8Array();
        return chunk.byteLength === 0 ? { done: true, value: undefined } : { done: false, value: chunk };
      },
    }),
  };
  const ctx: CommandContext = {
    stdin: "",
    stdinBytes: call.stdin,
    stdinStream,
    stdout: writer(1),
    stderr: writer(2),
    cwd: call.cwd,
    env: Object.fromEntries(call.env),
    fs: services.fs(call.cwd),
    signal: services.signal(),
    exec(script, options = {}) {
      if (finished) {
        return Promise.reject(new WabashError("WABASH_INVALID_OPTIONS", `${command.name}: ctx.exec called after the command finished`));
      }
      if (typeof script !== "string") {
        return Promise.reject(new WabashError("WABASH_INVALID_OPTIONS", "script must be a string"));
      }
      let stdin: Uint8Array;
      try {
        stdin = bytes(options.stdin, "stdin");
      } catch (error) {
        return Promise.reject(new WabashError("WABASH_INVALID_OPTIONS", messageOf(error)));
      }
      return request({ exec: { script, stdin } }).then((answer) => {
        const output = answer as OutputBytes;
        return {
          stdout: decoder.decode(output.stdout),
          stderr: decoder.decode(output.stderr),
          exitCode: output.exitCode,
          stdoutBytes: output.stdout,
          stderrBytes: output.stderr,
        };
      });
    },
  };
  // An abort ends a command that is still running as Ctrl-C would (status
  // 130); whatever it returns later is dropped.
  const finish = (output: OutputBytes): void => {
    if (!finished) {
      finished = true;
      push({ done: output });
    }
  };
  ctx.signal?.addEventListener("abort", () => finish({ stdout: new Uint8Array(), stderr: new Uint8Array(), exitCode: 130 }), {
    once: true,
  });
  /** Reads the whole standard input first, for a command that does not stream it. */
  const readAll = async (): Promise<void> => {
    if (command.streamStdin || call.stdin.byteLength > 0) {
      ctx.stdin = decoder.decode(call.stdin);
      return;
    }
    const chunks: Uint8Array[] = [];
    let total = 0;
    for (let chunk = await readChunk(); chunk.byteLength > 0; chunk = await readChunk()) {
      total += chunk.byteLength;
      if (total > STDIN_LIMIT) {
        throw new Error(`standard input is larger than the ${STDIN_LIMIT}-byte limit of custom commands`);
      }
      chunks.push(chunk);
    }
    const whole = new Uint8Array(total);
    let at = 0;
    for (const chunk of chunks) {
      whole.set(chunk, at);
      at += chunk.byteLength;
    }
    ctx.stdinBytes = whole;
    ctx.stdin = decoder.decode(whole);
  };
  // Started on a later microtask: the engine is inside a poll right now.
  void Promise.resolve()
    .then(readAll)
    .then(() => inSandbox(services.policy, () => command.execute(call.argv.slice(1), ctx)))
    .then(outputOf)
    .catch((error: unknown): OutputBytes => ({
      stdout: new Uint8Array(),
      stderr: encoder.encode(`${command.name}: ${messageOf(error)}\n`),
      exitCode: (error as { code?: unknown })?.code === "EPIPE" ? 141 : 1,
    }))
    .then(finish);
  return {
    next: () => {
      const event = events.shift();
      return event ? Promise.resolve(event) : new Promise((resolve) => (waiting = resolve));
    },
    reply: (answer: unknown) => replies.shift()?.(answer),
  };
}
