/**
 * The sandbox's tools for a model, independent of any agent framework: their
 * names, descriptions, JSON Schemas and what running them does. Each
 * integration (`wabash/ai`, `wabash/mcp`, `wabash/openai-agents`,
 * `wabash/langchain`) wraps these in its framework's tool shape.
 *
 * Output longer than `maxOutputChars` is cut in the middle; the note in its
 * place says how many lines and characters were left out and where the whole
 * text was saved in the sandbox, so the model can page through it with
 * `sed -n` or `head`/`tail` instead of running the command again.
 */
import type { Bash } from "./bash.js";
import { describeSandbox, type DescribeOptions } from "./describe.js";

/** Options shared by every integration's `create...Tools`. */
export interface AgentToolsOptions extends DescribeOptions {
  /** The sandbox the tools act on. State persists across tool calls. */
  bash: Bash;
  /** Most characters of one stream or file shown to the model before it is cut (default 20,000). */
  maxOutputChars?: number;
  /** Longest one `bash` tool call may run, in milliseconds (default 60,000; 0 for none). */
  timeoutMs?: number;
  /**
   * The sandbox description the tools carry; by default
   * {@link describeSandbox} makes it from the running sandbox.
   */
  description?: string;
}

/** A JSON Schema object for a tool's input. */
export interface InputSchema {
  type: "object";
  properties: Record<string, { type: string; description: string }>;
  required: string[];
  additionalProperties: false;
}

/** One tool, framework-neutral. */
export interface AgentTool<Input, Output> {
  /** The tool's name (`bash`, `readFile`...; integrations may rename). */
  name: ToolName;
  /** What the model reads about the tool. */
  description: string;
  /** The input's JSON Schema. */
  inputSchema: InputSchema;
  /** Runs the tool; rejects with an Error whose message is meant for the model. */
  execute(input: Input, signal?: AbortSignal): Promise<Output>;
  /** The result as text, for integrations whose tools return text. */
  format(output: Output): string;
}

/** The tools' names. */
export type ToolName = "bash" | "readFile" | "writeFile" | "listFiles";

/** What the `bash` tool returns. */
export interface BashToolOutput {
  /** Standard output (cut with a note when long). */
  stdout: string;
  /** Standard error (cut with a note when long). */
  stderr: string;
  /** The exit status. */
  exitCode: number;
}

/** What the `readFile` tool returns. */
export interface ReadFileOutput {
  /** The file's text, or the requested lines of it (cut with a note when long). */
  content: string;
  /** Lines in the whole file. */
  totalLines: number;
}

/** What the `writeFile` tool returns. */
export interface WriteFileOutput {
  /** The absolute path written. */
  path: string;
  /** Bytes written. */
  bytesWritten: number;
}

/** What the `listFiles` tool returns. */
export interface ListFilesOutput {
  /** Paths relative to the listed directory; directories end in `/`, symlinks in `@`. */
  entries: string[];
  /** Present when the listing was cut. */
  note?: string;
}

/** The four tools. */
export interface AgentTools {
  /** Runs a bash script. */
  bash: AgentTool<{ script: string }, BashToolOutput>;
  /** Reads a text file, or some of its lines. */
  readFile: AgentTool<{ path: string; startLine?: number; endLine?: number }, ReadFileOutput>;
  /** Creates or replaces a file. */
  writeFile: AgentTool<{ path: string; content: string }, WriteFileOutput>;
  /** Lists a directory. */
  listFiles: AgentTool<{ path?: string; recursive?: boolean }, ListFilesOutput>;
}

const DEFAULT_MAX_OUTPUT = 20_000;
const DEFAULT_TIMEOUT = 60_000;
const MAX_LISTED = 1_000;
const SAVED_DIR = "/tmp/.tool-output";

/** Lines in `text` (a last line without a newline counts). */
function lineCount(text: string): number {
  if (text === "") {
    return 0;
  }
  let lines = 0;
  for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1)) {
    lines += 1;
  }
  return text.endsWith("\n") ? lines : lines + 1;
}

/**
 * Cuts `text` to about `max` characters: the first two thirds and the last
 * third, at line boundaries where possible, with a note between them.
 */
export function truncateForModel(text: string, max: number, savedAt?: string): string {
  if (max <= 0 || text.length <= max) {
    return text;
  }
  let headEnd = Math.floor((max * 2) / 3);
  const headBreak = text.lastIndexOf("\n", headEnd);
  if (headBreak > headEnd / 2) {
    headEnd = headBreak + 1;
  }
  let tailStart = text.length - Math.floor(max / 3);
  const tailBreak = text.indexOf("\n", tailStart);
  if (tailBreak !== -1 && tailBreak < text.length - 1) {
    tailStart = tailBreak + 1;
  }
  const head = text.slice(0, headEnd);
  const cut = text.slice(headEnd, tailStart);
  const firstCut = lineCount(head) + (head.endsWith("\n") || head === "" ? 1 : 0);
  const lastCut = firstCut + Math.max(lineCount(cut) - 1, 0);
  const where = savedAt
    ? `the whole output is in ${savedAt}; read the cut part with \`sed -n '${firstCut},${lastCut}p' ${savedAt}\``
    : `to see it, run the command again piped to \`sed -n '${firstCut},${lastCut}p'\` (or \`head\`/\`tail\`)`;
  const note = `${head.endsWith("\n") ? "" : "\n"}[... ${count(cut.length)} characters (lines ${firstCut}-${lastCut} of ${lineCount(text)}) cut here; ${where} ...]\n`;
  return head + note + text.slice(tailStart);
}

/** `10,000` for 10000. */
function count(value: number): string {
  return value.toLocaleString("en-US");
}

/** A string input, or an error the model can act on. */
function stringInput(value: unknown, name: string): string {
  if (typeof value !== "string") {
    throw new Error(`\`${name}\` must be a string`);
  }
  return value;
}

/** An optional positive integer input. */
function lineInput(value: unknown, name: string): number | undefined {
  if (value === undefined || value === null) {
    return undefined;
  }
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1) {
    throw new Error(`\`${name}\` must be a line number, 1 or more`);
  }
  return value;
}

/** An Error whose message names the path the way a shell would. */
function fsError(tool: string, path: string, error: unknown): Error {
  const code = (error as { code?: unknown }).code;
  const reasons: Record<string, string> = {
    ENOENT: "No such file or directory",
    EISDIR: "Is a directory",
    ENOTDIR: "Not a directory",
    EACCES: "Permission denied",
    EROFS: "Read-only file system",
    ENOSPC: "No space left on device",
  };
  const reason = typeof code === "string" && reasons[code] ? reasons[code] : error instanceof Error ? error.message : String(error);
  return new Error(`${tool}: ${path}: ${reason}`);
}

/** Joins a relative path to a directory. */
function within(dir: string, name: string): string {
  if (name === "." || name === "") {
    return dir;
  }
  return dir.endsWith("/") ? `${dir}${name}` : `${dir}/${name}`;
}

/** Builds the four tools over `options.bash`, with the sandbox description in the `bash` tool's. */
export async function createAgentTools(options: AgentToolsOptions): Promise<AgentTools> {
  const { bash } = options;
  const maxOutput = options.maxOutputChars ?? DEFAULT_MAX_OUTPUT;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT;
  const sandbox = options.description ?? (await describeSandbox(bash, { ...options, maxOutputChars: maxOutput }));
  let saved = 0;

  /** A path as the model means it: relative to the session's current directory. */
  const resolve = async (path: string): Promise<string> => (path.startsWith("/") ? path : within(await bash.getCwd(), path));

  /** Cuts a long stream, first saving the whole of it where the model can page through it. */
  const shorten = async (text: string, bytes: Uint8Array, stream: string): Promise<string> => {
    if (maxOutput <= 0 || text.length <= maxOutput) {
      return text;
    }
    saved += 1;
    const path = `${SAVED_DIR}/${saved}.${stream}`;
    try {
      await bash.fs.writeFile(path, bytes);
      return truncateForModel(text, maxOutput, path);
    } catch {
      return truncateForModel(text, maxOutput);
    }
  };

  const bashTool: AgentTools["bash"] = {
    name: "bash",
    description: `Runs a bash script in the sandbox and returns its stdout, stderr and exit code.\n\n${sandbox}`,
    inputSchema: {
      type: "object",
      properties: { script: { type: "string", description: "The bash script to run (one command or many lines)." } },
      required: ["script"],
      additionalProperties: false,
    },
    async execute(input, signal) {
      const script = stringInput(input?.script, "script");
      const result = await bash.exec(script, {
        ...(timeoutMs > 0 ? { timeoutMs } : {}),
        ...(signal ? { signal } : {}),
      });
      return {
        stdout: await shorten(result.stdout, result.stdoutBytes, "stdout"),
        stderr: await shorten(result.stderr, result.stderrBytes, "stderr"),
        exitCode: result.exitCode,
      };
    },
    format(output) {
      const parts = [output.stdout];
      if (output.stderr !== "") {
        parts.push(`${output.stdout === "" || output.stdout.endsWith("\n") ? "" : "\n"}[stderr]\n${output.stderr}`);
      }
      const text = parts.join("");
      return `${text}${text === "" || text.endsWith("\n") ? "" : "\n"}[exit code ${output.exitCode}]`;
    },
  };

  const readFile: AgentTools["readFile"] = {
    name: "readFile",
    description:
      "Reads a text file from the sandbox (relative paths start at the working directory). " +
      "Give startLine and endLine (1-based, inclusive) to read part of a long file.",
    inputSchema: {
      type: "object",
      properties: {
        path: { type: "string", description: "The file's path." },
        startLine: { type: "integer", description: "First line to return (default 1)." },
        endLine: { type: "integer", description: "Last line to return (default: the end)." },
      },
      required: ["path"],
      additionalProperties: false,
    },
    async execute(input) {
      const path = stringInput(input?.path, "path");
      const start = lineInput(input?.startLine, "startLine");
      const end = lineInput(input?.endLine, "endLine");
      let text: string;
      try {
        text = await bash.fs.readFile(await resolve(path));
      } catch (error) {
        throw fsError("readFile", path, error);
      }
      const totalLines = lineCount(text);
      if (start === undefined && end === undefined) {
        return { content: truncateForModel(text, maxOutput, path), totalLines };
      }
      const lines = text.split("\n");
      const from = (start ?? 1) - 1;
      const to = Math.min(end ?? totalLines, totalLines);
      const part = lines.slice(from, Math.max(to, from)).join("\n");
      const content = to < totalLines || text.endsWith("\n") ? `${part}${part === "" ? "" : "\n"}` : part;
      return { content: truncateForModel(content, maxOutput, path), totalLines };
    },
    format(output) {
      return output.content;
    },
  };

  const writeFile: AgentTools["writeFile"] = {
    name: "writeFile",
    description: "Creates or replaces a file in the sandbox with the given text, creating missing parent directories.",
    inputSchema: {
      type: "object",
      properties: {
        path: { type: "string", description: "The file's path." },
        content: { type: "string", description: "The whole new content of the file." },
      },
      required: ["path", "content"],
      additionalProperties: false,
    },
    async execute(input) {
      const path = stringInput(input?.path, "path");
      const content = stringInput(input?.content, "content");
      const bytes = new TextEncoder().encode(content);
      const absolute = await resolve(path);
      try {
        await bash.fs.writeFile(absolute, bytes);
      } catch (error) {
        throw fsError("writeFile", path, error);
      }
      return { path: absolute, bytesWritten: bytes.byteLength };
    },
    format(output) {
      return `wrote ${count(output.bytesWritten)} bytes to ${output.path}`;
    },
  };

  const listFiles: AgentTools["listFiles"] = {
    name: "listFiles",
    description:
      "Lists a directory in the sandbox (default: the working directory); with recursive, everything under it. " +
      "Directories end in /, symbolic links in @.",
    inputSchema: {
      type: "object",
      properties: {
        path: { type: "string", description: "The directory (default: the working directory)." },
        recursive: { type: "boolean", description: "List subdirectories too." },
      },
      required: [],
      additionalProperties: false,
    },
    async execute(input) {
      const root = await resolve(input?.path === undefined || input.path === null ? "." : stringInput(input.path, "path"));
      const recursive = input?.recursive === true;
      const entries: string[] = [];
      const pending: string[] = [""];
      let note: string | undefined;
      for (let prefix = pending.shift(); prefix !== undefined; prefix = pending.shift()) {
        const dir = prefix === "" ? root : within(root, prefix.slice(0, -1));
        let listed;
        try {
          listed = await bash.fs.readdirWithTypes(dir);
        } catch (error) {
          throw fsError("listFiles", dir, error);
        }
        for (const entry of listed) {
          if (entries.length >= MAX_LISTED) {
            note = `only the first ${count(MAX_LISTED)} entries are listed; use \`find\` in the bash tool to narrow it down`;
            break;
          }
          const suffix = entry.type === "directory" ? "/" : entry.type === "symlink" ? "@" : "";
          entries.push(`${prefix}${entry.name}${suffix}`);
          if (recursive && entry.type === "directory") {
            pending.push(`${prefix}${entry.name}/`);
          }
        }
        if (note) {
          break;
        }
      }
      return note === undefined ? { entries } : { entries, note };
    },
    format(output) {
      const text = output.entries.join("\n");
      return output.note ? `${text}\n[${output.note}]` : text === "" ? "(empty directory)" : text;
    },
  };

  return { bash: bashTool, readFile, writeFile, listFiles };
}
