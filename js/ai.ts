/**
 * `wabash/ai`: the sandbox as Vercel AI SDK tools (`ai` v6 or v7, an
 * optional peer dependency).
 *
 * ```ts
 * import { generateText, stepCountIs } from "ai";
 * import { Bash } from "wabash";
 * import { createBashTools } from "wabash/ai";
 * const tools = await createBashTools({ bash: new Bash() });
 * await generateText({ model, tools, stopWhen: stepCountIs(10), prompt: "..." });
 * ```
 *
 * Also {@link createSandboxSession}: the AI SDK's sandbox-session shape
 * (`experimental_sandbox` in v7) over a `Bash`.
 */
import { jsonSchema, tool, type Tool } from "ai";
import type { Bash } from "./bash.js";
import { createAgentTools, type AgentTool, type AgentToolsOptions, type BashToolOutput, type ListFilesOutput, type ReadFileOutput, type WriteFileOutput } from "./agent-tools.js";
import { describeSandbox, type DescribeOptions } from "./describe.js";

export { describeSandbox, type DescribeOptions, type DescribedMount } from "./describe.js";
export type { AgentToolsOptions, BashToolOutput, ListFilesOutput, ReadFileOutput, WriteFileOutput } from "./agent-tools.js";

/**
 * The tools {@link createBashTools} makes, keyed by the names the model sees
 * (a type, not an interface, so that it is assignable to the AI SDK's `ToolSet`).
 */
export type BashTools = {
  /** Runs a script: `{ script }` to `{ stdout, stderr, exitCode }`. */
  bash: Tool<{ script: string }, BashToolOutput>;
  /** Reads a file: `{ path, startLine?, endLine? }` to `{ content, totalLines }`. */
  readFile: Tool<{ path: string; startLine?: number; endLine?: number }, ReadFileOutput>;
  /** Writes a file: `{ path, content }` to `{ path, bytesWritten }`. */
  writeFile: Tool<{ path: string; content: string }, WriteFileOutput>;
  /** Lists a directory: `{ path?, recursive? }` to `{ entries, note? }`. */
  listFiles: Tool<{ path?: string; recursive?: boolean }, ListFilesOutput>;
};

/** One framework-neutral tool as an AI SDK tool. */
function toAiTool<Input, Output>(agentTool: AgentTool<Input, Output>): Tool<Input, Output> {
  // The generic parameters defeat `tool()`'s overload inference; the shape is
  // the one `tool()` documents in v6 and v7.
  const definition = {
    description: agentTool.description,
    inputSchema: jsonSchema<Input>(agentTool.inputSchema),
    execute: (input: Input, options: { abortSignal?: AbortSignal }) => agentTool.execute(input, options?.abortSignal),
  };
  return tool(definition as unknown as Tool<Input, Output>);
}

/**
 * The sandbox's tools for `generateText`/`streamText`: `bash`, `readFile`,
 * `writeFile` and `listFiles`, over one `Bash` whose state persists across
 * calls. The `bash` tool's description tells the model what the sandbox is
 * (from {@link describeSandbox}); long output is cut with a note.
 */
export async function createBashTools(options: AgentToolsOptions): Promise<BashTools> {
  const tools = await createAgentTools(options);
  return {
    bash: toAiTool(tools.bash),
    readFile: toAiTool(tools.readFile),
    writeFile: toAiTool(tools.writeFile),
    listFiles: toAiTool(tools.listFiles),
  };
}

/** Options of `run` and `spawn` of {@link SandboxSession}. */
export interface SandboxProcessOptions {
  /** The script to run. */
  command: string;
  /** Where it runs (default: the session's base directory). */
  workingDirectory?: string;
  /** Variables for this command only. */
  env?: Record<string, string>;
  /** Aborting interrupts the script (status 130). */
  abortSignal?: AbortSignal;
  /** For `spawn`: true to get a writable `stdin`. */
  stdin?: boolean;
}

/** A running command of {@link SandboxSession.spawn}. */
export interface SandboxProcess {
  /** Standard output as it is written. */
  readonly stdout: ReadableStream<Uint8Array>;
  /** Standard error as it is written. */
  readonly stderr: ReadableStream<Uint8Array>;
  /** Present when spawned with `stdin: true`; closing it ends the input. */
  readonly stdin?: WritableStream<Uint8Array>;
  /** Resolves with the exit status when the script ends. */
  wait(): Promise<{ exitCode: number }>;
  /** Interrupts the script. */
  kill(): Promise<void>;
}

/** A {@link SandboxProcess} spawned with `stdin: true`. */
export interface WritableSandboxProcess extends SandboxProcess {
  /** The script's standard input; closing it ends the input. */
  readonly stdin: WritableStream<Uint8Array>;
}

/** A path of the sandbox-session file methods. */
interface PathOptions {
  path: string;
  abortSignal?: AbortSignal;
}

/**
 * The AI SDK's sandbox session (`Experimental_SandboxSession` of `ai` v7,
 * structurally; v6 has none) over a `Bash`. Relative paths and commands
 * start in the base directory, the session's working directory when it was
 * made; a `cd` inside a command does not move it. Commands run one at a
 * time, in call order.
 */
export interface SandboxSession {
  /** What the model is told about the sandbox ({@link describeSandbox}). */
  readonly description: string;
  /** A file as a byte stream, or null when it does not exist. */
  readFile(options: PathOptions): Promise<ReadableStream<Uint8Array> | null>;
  /** A file's bytes, or null when it does not exist. */
  readBinaryFile(options: PathOptions): Promise<Uint8Array | null>;
  /** A file's text (or lines `startLine`..`endLine`, 1-based), or null when it does not exist. */
  readTextFile(options: PathOptions & { encoding?: string; startLine?: number; endLine?: number }): Promise<string | null>;
  /** Writes a file from a byte stream, creating parent directories. */
  writeFile(options: PathOptions & { content: ReadableStream<Uint8Array> }): Promise<void>;
  /** Writes a file from bytes, creating parent directories. */
  writeBinaryFile(options: PathOptions & { content: Uint8Array }): Promise<void>;
  /** Writes a file from text, creating parent directories. */
  writeTextFile(options: PathOptions & { content: string; encoding?: string }): Promise<void>;
  /** Kind and size of a path (symlinks followed), or null when it does not exist. */
  stat(options: PathOptions): Promise<{ type: "file" | "directory" | "other"; size: number } | null>;
  /** A directory's entries, or null when it does not exist. */
  listDirectory(options: PathOptions): Promise<{ name: string; type: "file" | "directory" | "symlink" | "other" }[] | null>;
  /** Deletes a file: true when it was there, false when not; rejects for a directory. */
  deleteFile(options: PathOptions): Promise<boolean>;
  /** Starts a script; its output streams as it is written (with `stdin: true`, its input is a writable stream). */
  spawn(options: SandboxProcessOptions & { stdin: true }): Promise<WritableSandboxProcess>;
  /** Starts a script whose standard input is empty. */
  spawn(options: SandboxProcessOptions & { stdin?: false }): Promise<SandboxProcess>;
  /** Starts a script; `stdin` decides whether it has a writable input. */
  spawn(options: SandboxProcessOptions): Promise<SandboxProcess | WritableSandboxProcess>;
  /** Runs a script to its end. */
  run(options: SandboxProcessOptions): Promise<{ exitCode: number; stdout: string; stderr: string }>;
}

/** True for a filesystem error meaning "not there". */
function missing(error: unknown): boolean {
  return (error as { code?: unknown }).code === "ENOENT";
}

/** Null for a missing path, else the operation's result (other errors reject). */
async function orNull<T>(operation: () => Promise<T>): Promise<T | null> {
  try {
    return await operation();
  } catch (error) {
    if (missing(error)) {
      return null;
    }
    throw error;
  }
}

/** Reads a whole byte stream. */
async function collect(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = stream.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    chunks.push(next.value);
    size += next.value.byteLength;
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** A readable stream and the functions that feed and end it. */
function pushStream(): { stream: ReadableStream<Uint8Array>; push(bytes: Uint8Array): void; close(): void } {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  return {
    stream,
    push: (bytes) => controller.enqueue(bytes.slice()),
    close: () => controller.close(),
  };
}

/**
 * The AI SDK's sandbox session over a `Bash` (pass it as
 * `experimental_sandbox` where the installed `ai` has it).
 */
export async function createSandboxSession(bash: Bash, options: DescribeOptions = {}): Promise<SandboxSession> {
  const description = await describeSandbox(bash, options);
  const base = await bash.getCwd();
  const resolve = (path: string): string => (path.startsWith("/") ? path : base === "/" ? `/${path}` : `${base}/${path}`);

  const spawn = async (request: SandboxProcessOptions): Promise<SandboxProcess> => {
    const stdout = pushStream();
    const stderr = pushStream();
    const interrupt = new AbortController();
    const outer = request.abortSignal;
    if (outer?.aborted) {
      interrupt.abort(outer.reason);
    }
    outer?.addEventListener("abort", () => interrupt.abort(outer.reason), { once: true });
    const input = request.stdin ? new TransformStream<Uint8Array, Uint8Array>() : undefined;
    const finished = bash
      .exec(request.command, {
        cwd: request.workingDirectory === undefined ? base : resolve(request.workingDirectory),
        signal: interrupt.signal,
        onStdout: (_text, bytes) => stdout.push(bytes),
        onStderr: (_text, bytes) => stderr.push(bytes),
        ...(request.env ? { env: request.env } : {}),
        ...(input ? { stdin: input.readable } : {}),
      })
      .finally(() => {
        stdout.close();
        stderr.close();
      });
    finished.catch(() => undefined);
    return {
      stdout: stdout.stream,
      stderr: stderr.stream,
      ...(input ? { stdin: input.writable } : {}),
      wait: async () => {
        if (outer?.aborted) {
          await finished.catch(() => undefined);
          throw outer.reason;
        }
        return { exitCode: (await finished).exitCode };
      },
      kill: async () => {
        interrupt.abort();
        await finished.catch(() => undefined);
      },
    };
  };

  return {
    description,
    readFile: ({ path }) =>
      orNull(async () => {
        const bytes = await bash.fs.readFileBytes(resolve(path));
        return new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(bytes);
            controller.close();
          },
        });
      }),
    readBinaryFile: ({ path }) => orNull(() => bash.fs.readFileBytes(resolve(path))),
    readTextFile: ({ path, encoding, startLine, endLine }) =>
      orNull(async () => {
        const text = new TextDecoder(encoding ?? "utf-8").decode(await bash.fs.readFileBytes(resolve(path)));
        if (startLine === undefined && endLine === undefined) {
          return text;
        }
        const lines = text.split(/(?<=\n)/);
        return lines.slice(Math.max((startLine ?? 1) - 1, 0), endLine ?? lines.length).join("");
      }),
    writeFile: async ({ path, content }) => bash.fs.writeFile(resolve(path), await collect(content)),
    writeBinaryFile: async ({ path, content }) => bash.fs.writeFile(resolve(path), content),
    writeTextFile: async ({ path, content }) => bash.fs.writeFile(resolve(path), content),
    stat: ({ path }) =>
      orNull(async () => {
        const stat = await bash.fs.stat(resolve(path));
        return { type: stat.type === "file" || stat.type === "directory" ? stat.type : "other", size: stat.size };
      }),
    listDirectory: ({ path }) =>
      orNull(async () =>
        (await bash.fs.readdirWithTypes(resolve(path))).map((entry) => ({
          name: entry.name,
          type: entry.type === "file" || entry.type === "directory" || entry.type === "symlink" ? entry.type : "other",
        })),
      ),
    deleteFile: async ({ path }) => {
      const target = resolve(path);
      const stat = await orNull(() => bash.fs.lstat(target));
      if (stat === null) {
        return false;
      }
      if (stat.type === "directory") {
        throw Object.assign(new Error(`deleteFile: ${target}: Is a directory`), { code: "EISDIR" });
      }
      await bash.fs.rm(target);
      return true;
    },
    spawn: spawn as SandboxSession["spawn"],
    run: async (request) => {
      const result = await bash.exec(request.command, {
        cwd: request.workingDirectory === undefined ? base : resolve(request.workingDirectory),
        ...(request.env ? { env: request.env } : {}),
        ...(request.abortSignal ? { signal: request.abortSignal } : {}),
      });
      return { exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr };
    },
  };
}
