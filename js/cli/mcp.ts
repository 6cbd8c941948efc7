/**
 * `wabash mcp`: serves one sandbox over the Model Context Protocol on
 * standard input and output (see js/mcp.ts), set up from flags and an
 * optional JSON config file. Standard output carries the protocol only;
 * errors go to standard error.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { NetworkOptions } from "../network.js";
import type { BashOptions, ExecutionLimits } from "../options.js";
import { UsageError } from "./args.js";
import { mountsFor } from "./mount.js";

/** Help text of `wabash mcp --help`. */
export const MCP_USAGE = `usage: wabash mcp [--config FILE] [--mount HOSTDIR:/SANDBOXDIR[:ro|:cow]]...
                  [--allow-url PREFIX]... [--cwd DIR] [--env K=V]...
                  [--limit NAME=N]... [--memory-limit BYTES]
                  [--timeout-ms N] [--max-output-chars N]

Serves a bash sandbox as a Model Context Protocol server over stdio, with
the tools bash, read_file, write_file and list_files. One server process is
one session: files, variables and the working directory persist across
calls. It ends when the client closes standard input.

  --config FILE         JSON with any of: mounts [{host, path, readOnly}],
                        network {allowedUrlPrefixes, allowedMethods, headers,
                        timeoutMs, maxResponseSize, ...}, cwd, env,
                        executionLimits, memoryLimit, timeoutMs,
                        maxOutputChars (flags add to it)
  --mount H:S[:M]       host directory H at S in the sandbox (repeatable); M
                        is cow (the default: changes stay in the sandbox) or
                        ro (read-only); the host is never written
  --allow-url PREFIX    let curl/wget reach URLs starting with PREFIX
                        (repeatable; without it there is no network)
  --cwd DIR             start in DIR inside the sandbox (default /home/user)
  --env K=V             export K=V in the sandbox (repeatable)
  --limit NAME=N        an execution limit, such as maxCommandCount=100000
                        or maxDurationMs=10000 (repeatable; README lists them)
  --memory-limit BYTES  most memory the sandbox's engine may use
  --timeout-ms N        longest one bash call may run (default 60000; 0: none)
  --max-output-chars N  cut longer tool output, with a note (default 20000)
  -h, --help            show this help

Register it with an MCP client as the command \`npx wabash mcp\`.
`;

/** A host directory to mount. */
export interface McpMount {
  /** The host directory. */
  host: string;
  /** Where it appears in the sandbox. */
  path: string;
  /** True when the sandbox may only read it. */
  readOnly: boolean;
}

/** The server's configuration, from the config file and the flags. */
export interface McpConfig {
  help: boolean;
  mounts: McpMount[];
  network: NetworkOptions & { allowedUrlPrefixes: string[] };
  cwd?: string;
  env: Record<string, string>;
  executionLimits?: ExecutionLimits;
  memoryLimit?: number;
  timeoutMs?: number;
  maxOutputChars?: number;
}

/** Parses `HOSTDIR:/SANDBOXDIR[:ro|:cow]` (the same syntax as `wabash --mount`). */
function parseMount(spec: string): McpMount {
  let rest = spec;
  let readOnly = false;
  const mode = /:(ro|cow)$/.exec(rest);
  if (mode) {
    readOnly = mode[1] === "ro";
    rest = rest.slice(0, mode.index);
  }
  const colon = rest.lastIndexOf(":");
  const path = rest.slice(colon + 1);
  if (colon <= 0 || !path.startsWith("/")) {
    throw new UsageError(`--mount ${spec}: expected HOSTDIR:/SANDBOXDIR[:ro|:cow]`);
  }
  return { host: rest.slice(0, colon), path, readOnly };
}

/** A non-negative integer flag value. */
function integer(name: string, text: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value)) {
    throw new UsageError(`${name} ${text}: expected a whole number`);
  }
  return value;
}

/** Reads the JSON config file into `config` (paths relative to the file). */
function readConfig(file: string, config: McpConfig): void {
  let data: Record<string, unknown>;
  try {
    data = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  } catch (error) {
    throw new UsageError(`--config ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    throw new UsageError(`--config ${file}: expected a JSON object`);
  }
  const base = resolve(file, "..");
  const mounts = data.mounts ?? [];
  if (!Array.isArray(mounts)) {
    throw new UsageError(`--config ${file}: mounts must be an array`);
  }
  for (const mount of mounts as Record<string, unknown>[]) {
    if (typeof mount?.host !== "string" || typeof mount.path !== "string" || !mount.path.startsWith("/")) {
      throw new UsageError(`--config ${file}: each mount needs host and an absolute path`);
    }
    config.mounts.push({ host: resolve(base, mount.host), path: mount.path, readOnly: mount.readOnly === true });
  }
  const network = data.network as Record<string, unknown> | undefined;
  if (network !== undefined) {
    const { allowedUrlPrefixes, ...rest } = network;
    if (allowedUrlPrefixes !== undefined) {
      if (!Array.isArray(allowedUrlPrefixes) || !allowedUrlPrefixes.every((prefix) => typeof prefix === "string")) {
        throw new UsageError(`--config ${file}: network.allowedUrlPrefixes must be an array of strings`);
      }
      config.network.allowedUrlPrefixes.push(...(allowedUrlPrefixes as string[]));
    }
    // The rest (allowedMethods, headers, timeoutMs...) as the Bash's network option takes it; it checks them.
    Object.assign(config.network, rest);
  }
  if (typeof data.cwd === "string") {
    config.cwd = data.cwd;
  }
  if (data.env !== undefined) {
    Object.assign(config.env, data.env);
  }
  if (data.executionLimits !== undefined) {
    config.executionLimits = data.executionLimits as ExecutionLimits;
  }
  for (const key of ["memoryLimit", "timeoutMs", "maxOutputChars"] as const) {
    if (typeof data[key] === "number") {
      config[key] = data[key] as number;
    }
  }
}

/** Parses the arguments after `mcp`. */
export function parseMcpArgs(argv: readonly string[]): McpConfig {
  const config: McpConfig = { help: false, mounts: [], network: { allowedUrlPrefixes: [] }, env: {} };
  let index = 0;
  const value = (name: string): string => {
    const next = argv[index++];
    if (next === undefined) {
      throw new UsageError(`${name}: option requires an argument`);
    }
    return next;
  };
  while (index < argv.length) {
    const argument = argv[index++] ?? "";
    if (argument === "-h" || argument === "--help") {
      config.help = true;
    } else if (argument === "--config") {
      readConfig(value("--config"), config);
    } else if (argument === "--mount") {
      config.mounts.push(parseMount(value("--mount")));
    } else if (argument === "--allow-url") {
      config.network.allowedUrlPrefixes.push(value("--allow-url"));
    } else if (argument === "--cwd") {
      config.cwd = value("--cwd");
    } else if (argument === "--env") {
      const pair = value("--env");
      const equals = pair.indexOf("=");
      if (equals <= 0) {
        throw new UsageError(`--env ${pair}: expected NAME=VALUE`);
      }
      config.env[pair.slice(0, equals)] = pair.slice(equals + 1);
    } else if (argument === "--limit") {
      const pair = value("--limit");
      const equals = pair.indexOf("=");
      if (equals <= 0) {
        throw new UsageError(`--limit ${pair}: expected NAME=NUMBER`);
      }
      const limits: Record<string, number> = { ...config.executionLimits };
      limits[pair.slice(0, equals)] = integer("--limit", pair.slice(equals + 1));
      config.executionLimits = limits as ExecutionLimits;
    } else if (argument === "--memory-limit") {
      config.memoryLimit = integer("--memory-limit", value("--memory-limit"));
    } else if (argument === "--timeout-ms") {
      config.timeoutMs = integer("--timeout-ms", value("--timeout-ms"));
    } else if (argument === "--max-output-chars") {
      config.maxOutputChars = integer("--max-output-chars", value("--max-output-chars"));
    } else {
      throw new UsageError(`mcp: ${argument}: invalid option`);
    }
  }
  return config;
}

/** Runs `wabash mcp ARGS`: serves until the client goes; resolves to the exit status. */
export async function mcpMain(argv: readonly string[]): Promise<number> {
  const config = parseMcpArgs(argv);
  if (config.help) {
    process.stdout.write(MCP_USAGE);
    return 0;
  }
  let server: typeof import("../mcp.js");
  try {
    server = await import("../mcp.js");
  } catch (error) {
    if ((error as { code?: string }).code === "ERR_MODULE_NOT_FOUND" && String(error).includes("@modelcontextprotocol/sdk")) {
      process.stderr.write("wabash mcp: needs the MCP SDK next to wabash: npm install @modelcontextprotocol/sdk\n");
      return 1;
    }
    throw error;
  }
  const { Bash } = await import("../node.js");
  const options: BashOptions = {
    // Mounted lazily, as `wabash --mount` does: read-only, or copy-on-write (changes stay in the sandbox).
    mounts: mountsFor(config.mounts.map((mount) => ({ host: mount.host, sandbox: mount.path, mode: mount.readOnly ? "ro" : "cow" }))),
    env: config.env,
    ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
    ...(config.executionLimits === undefined ? {} : { executionLimits: config.executionLimits }),
    ...(config.memoryLimit === undefined ? {} : { memoryLimit: config.memoryLimit }),
    ...(config.network.allowedUrlPrefixes.length > 0 ? { network: config.network } : {}),
  };
  const bash = new Bash(options);
  // The description reads the mounts, network and limits from bash.policy.
  const running = await server.serveStdio({
    bash,
    ...(config.timeoutMs === undefined ? {} : { timeoutMs: config.timeoutMs }),
    ...(config.maxOutputChars === undefined ? {} : { maxOutputChars: config.maxOutputChars }),
  });
  const stop = (): void => {
    void running.close();
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  await running.closed;
  return 0;
}
