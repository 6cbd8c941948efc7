/** The `wabash` command line, shared by the interactive and batch modes. */

/** Help text of `wabash --help`. */
export const USAGE = `usage: wabash [--cwd DIR] [--env K=V]... [--mount HOSTDIR:SANDBOXDIR[:ro|:cow]]...
              [-c SCRIPT [NAME [ARG...]] | FILE [ARG...]]
       wabash mcp [OPTION...]   (an MCP server over stdio; wabash mcp --help)

Runs bash in a sandbox over an in-memory filesystem. Nothing outside the
sandbox is touched: no host files (a mounted directory is read when a
script touches it, never written), no processes, no network.

With no -c and no FILE, reads the script from standard input, or starts an
interactive shell when standard input is a terminal.

  -c SCRIPT        run SCRIPT; NAME is $0, ARGs are $1...
  FILE             run the host file FILE; ARGs are $1...
  --cwd DIR        start in DIR inside the sandbox (default /home/user)
  --env K=V        export K=V in the sandbox (repeatable)
  --mount H:S[:M]  mount host directory H at S (repeatable); M is cow (the
                   default: changes stay in memory) or ro (read-only)
  -i               interactive even when standard input is not a terminal
  -h, --help       show this help
`;

/** Where the script comes from. */
export type Source = { kind: "command"; script: string } | { kind: "file"; path: string } | { kind: "stdin" };

/** A parsed command line. */
export interface Invocation {
  /** `--help` was given. */
  help: boolean;
  /** `-i`: interactive even when standard input is not a terminal. */
  interactive: boolean;
  /** `--cwd DIR`. */
  cwd: string | undefined;
  /** `--env K=V`, in order. */
  env: Record<string, string>;
  /** `--mount HOSTDIR:SANDBOXDIR[:ro|:cow]`, split (mode `cow` when not given). */
  mounts: { host: string; sandbox: string; mode: "ro" | "cow" }[];
  /** The script's source. */
  source: Source;
  /** Positional parameters (`$1`...). */
  args: string[];
}

/** A command line the CLI refuses; its message is printed after `wabash: `. */
export class UsageError extends Error {}

/** Parses the arguments after the program name. */
export function parseArgs(argv: readonly string[]): Invocation {
  const invocation: Invocation = { help: false, interactive: false, cwd: undefined, env: {}, mounts: [], source: { kind: "stdin" }, args: [] };
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
      invocation.help = true;
    } else if (argument === "-i") {
      invocation.interactive = true;
    } else if (argument === "--cwd") {
      invocation.cwd = value("--cwd");
    } else if (argument === "--env") {
      const pair = value("--env");
      const equals = pair.indexOf("=");
      if (equals <= 0) {
        throw new UsageError(`--env ${pair}: expected NAME=VALUE`);
      }
      invocation.env[pair.slice(0, equals)] = pair.slice(equals + 1);
    } else if (argument === "--mount") {
      const spec = value("--mount");
      let rest = spec;
      let mode: "ro" | "cow" = "cow";
      const suffix = /:(ro|cow)$/.exec(rest);
      if (suffix) {
        mode = suffix[1] as "ro" | "cow";
        rest = rest.slice(0, suffix.index);
      }
      const colon = rest.lastIndexOf(":");
      const sandbox = rest.slice(colon + 1);
      if (colon <= 0 || !sandbox.startsWith("/")) {
        throw new UsageError(`--mount ${spec}: expected HOSTDIR:/SANDBOXDIR[:ro|:cow]`);
      }
      invocation.mounts.push({ host: rest.slice(0, colon), sandbox, mode });
    } else if (argument === "-c") {
      invocation.source = { kind: "command", script: value("-c") };
      // Like bash: the word after the script is $0, the rest are $1...
      invocation.args = argv.slice(index + 1);
      return invocation;
    } else if (argument === "--") {
      break;
    } else if (argument.startsWith("-") && argument.length > 1) {
      throw new UsageError(`${argument}: invalid option`);
    } else {
      invocation.source = { kind: "file", path: argument };
      invocation.args = argv.slice(index);
      return invocation;
    }
  }
  const file = argv[index];
  if (file !== undefined) {
    invocation.source = { kind: "file", path: file };
    invocation.args = argv.slice(index + 1);
  }
  return invocation;
}

