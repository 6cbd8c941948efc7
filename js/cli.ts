#!/usr/bin/env node
/**
 * The `wabash` command: an interactive sandboxed shell, or `-c SCRIPT`, a
 * script file with arguments, or a script on standard input. The exit status
 * is the script's. `wabash mcp` serves the sandbox over the Model Context
 * Protocol instead (js/cli/mcp.ts). Runs on the package's node entry.
 */
import { readFileSync } from "node:fs";
import { Bash } from "./node.js";
import { USAGE, UsageError, parseArgs, type Invocation } from "./cli/args.js";
import { mountsFor } from "./cli/mount.js";
import { interactive } from "./cli/repl.js";

const BANNER = "wabash: sandboxed bash over an in-memory filesystem; nothing outside the sandbox is touched.";

/** Reads all of standard input (empty when it is a terminal or closed). */
function readStdin(): Uint8Array {
  if (process.stdin.isTTY) {
    return new Uint8Array();
  }
  try {
    return readFileSync(0);
  } catch {
    return new Uint8Array();
  }
}

/** Builds the sandbox the invocation describes, with its host directories mounted (lazily). */
async function createBash(invocation: Invocation): Promise<Bash> {
  const mounts = mountsFor(invocation.mounts);
  const bash = new Bash({ mounts, env: invocation.env, ...(invocation.cwd === undefined ? {} : { cwd: invocation.cwd }) });
  if (invocation.args.length > 0) {
    await bash.exec(":", { args: invocation.args });
  }
  return bash;
}

/** Runs the command line; resolves to the exit status. */
async function main(argv: readonly string[]): Promise<number> {
  if (argv[0] === "mcp") {
    // `wabash mcp`: the MCP server (a script file named mcp runs as ./mcp).
    const { mcpMain } = await import("./cli/mcp.js");
    return mcpMain(argv.slice(1));
  }
  const invocation = parseArgs(argv);
  if (invocation.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const { source } = invocation;
  if (source.kind === "stdin" && (process.stdin.isTTY || invocation.interactive)) {
    return interactive(await createBash(invocation), BANNER);
  }
  let script: string;
  let stdin: Uint8Array;
  if (source.kind === "command") {
    script = source.script;
    stdin = readStdin();
  } else if (source.kind === "file") {
    try {
      script = readFileSync(source.path, "utf8");
    } catch (error) {
      // As bash reports a script it cannot open: status 127.
      const reason = (error as { code?: string }).code === "ENOENT" ? "No such file or directory" : String(error);
      process.stderr.write(`wabash: ${source.path}: ${reason}\n`);
      return 127;
    }
    stdin = readStdin();
  } else {
    script = new TextDecoder().decode(readStdin());
    stdin = new Uint8Array();
  }
  const bash = await createBash(invocation);
  const arg0 = source.kind === "file" ? source.path : "bash";
  const result = await bash.exec(script, { stdin, args: invocation.args, arg0 });
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  return result.exitCode;
}

main(process.argv.slice(2)).then(
  (status) => {
    process.exitCode = status;
  },
  (error: unknown) => {
    const message = error instanceof UsageError || error instanceof Error ? error.message : String(error);
    process.stderr.write(`wabash: ${message}\n`);
    process.exitCode = error instanceof UsageError ? 2 : 1;
  },
);
