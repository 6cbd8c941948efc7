/**
 * What a model is told about the sandbox: a few hundred tokens saying what
 * the shell is, which commands exist, the limits, the mounted paths and the
 * network policy. The command list is read from the running sandbox (its
 * `/bin`, which lists the command registry and the custom commands), so it
 * stays true as commands are added. Used by every agent integration
 * (`wabash/ai`, `wabash/mcp`, `wabash/openai-agents`, `wabash/langchain`).
 */
import type { Bash } from "./bash.js";
import type { ExecutionLimits } from "./options.js";

/** A host directory visible in the sandbox, as the description names it. */
export interface DescribedMount {
  /** Where it appears in the sandbox, such as `/data`. */
  path: string;
  /** True when the sandbox may only read it. */
  readOnly?: boolean;
}

/**
 * What {@link describeSandbox} says beyond what it reads from the sandbox.
 * Mounts, network and limits default to the `Bash`'s own (`bash.policy`).
 */
export interface DescribeOptions {
  /** Host directories mounted into the sandbox. */
  mounts?: DescribedMount[];
  /**
   * The network policy given to the `Bash` (its `network` option): without
   * one, or with no allowed prefixes, the description says there is no network.
   */
  network?: { allowedUrlPrefixes?: string[]; allowedMethods?: string[] };
  /** The execution limits given to the `Bash`, so the model knows them. */
  limits?: ExecutionLimits;
  /** Most characters of one tool result before it is cut (said in the description). */
  maxOutputChars?: number;
  /** Appended to the description as its last paragraph. */
  extraInstructions?: string;
}

/** What a look at the running sandbox finds. */
interface Inventory {
  commands: string[];
  builtins: string[];
  version: string;
  cwd: string;
}

// One subshell, so the session keeps its options and variables; `$?` is the
// only trace (the model's next call starts a new command anyway).
const PROBE = `(
  shopt -s nullglob
  for f in /bin/* /usr/bin/*; do printf 'c %s\\n' "\${f##*/}"; done
  compgen -b | while IFS= read -r b; do printf 'b %s\\n' "$b"; done
  printf 'v %s\\n' "$BASH_VERSION"
  printf 'd %s\\n' "$PWD"
)`;

/** Reads the command list, builtins, version and working directory from the sandbox. */
async function inventory(bash: Bash): Promise<Inventory> {
  const result = await bash.exec(PROBE);
  const commands = new Set<string>();
  const builtins = new Set<string>();
  let version = "5.2";
  let cwd = "/home/user";
  for (const line of result.stdout.split("\n")) {
    const value = line.slice(2);
    if (line.startsWith("c ")) {
      commands.add(value);
    } else if (line.startsWith("b ")) {
      builtins.add(value);
    } else if (line.startsWith("v ") && value !== "") {
      version = value;
    } else if (line.startsWith("d ") && value !== "") {
      cwd = value;
    }
  }
  return { commands: [...commands].sort(), builtins: [...builtins].sort(), version, cwd };
}

/** `10,000` for 10000. */
function count(value: number): string {
  return value.toLocaleString("en-US");
}

/** The limits sentence, naming only the limits that were set. */
function limitsLine(limits: ExecutionLimits | undefined): string {
  const parts: string[] = [];
  if (limits?.maxDurationMs) {
    parts.push(`${count(limits.maxDurationMs)} ms per call`);
  }
  if (limits?.maxCommandCount) {
    parts.push(`${count(limits.maxCommandCount)} commands per call`);
  }
  if (limits?.maxLoopIterations) {
    parts.push(`${count(limits.maxLoopIterations)} loop iterations per call`);
  }
  if (limits?.maxOutputSize) {
    parts.push(`${count(limits.maxOutputSize)} bytes of output per call`);
  }
  const stop = "a script over a limit stops with `bash: limit: ...` on stderr and status 126";
  return parts.length > 0 ? `Limits: ${parts.join(", ")}; ${stop}.` : `Limits: generous per-call budgets; ${stop}.`;
}

/** The network sentence. */
function networkLine(network: DescribeOptions["network"], commands: readonly string[]): string {
  const prefixes = network?.allowedUrlPrefixes ?? [];
  if (prefixes.length === 0) {
    return "Network: none. Nothing can be downloaded or installed; work with the files and commands that are here.";
  }
  const tools = ["curl", "wget"].filter((name) => commands.includes(name));
  const via = tools.length > 0 ? ` with ${tools.join(" or ")}` : "";
  const methods = ` (methods ${(network?.allowedMethods?.length ? network.allowedMethods : ["GET", "HEAD"]).join(", ")})`;
  return `Network: only URLs starting with ${prefixes.map((prefix) => JSON.stringify(prefix)).join(", ")} can be fetched${via}${methods}; anything else is refused.`;
}

/**
 * Describes the sandbox to a model, for a system prompt or a tool
 * description: the shell and its version, the working directory, every
 * command the sandbox has (read from it now), the limits, the mounts and the
 * network policy, and how to read long output. Runs one small script in the
 * session (in a subshell, so nothing of the session changes but `$?`).
 */
export async function describeSandbox(bash: Bash, options: DescribeOptions = {}): Promise<string> {
  const found = await inventory(bash);
  // What the options do not say, the sandbox's own policy does.
  const policy = (bash as { policy?: Bash["policy"] }).policy;
  const lines = [
    `A sandboxed bash ${found.version} shell (wabash) over an in-memory filesystem. It is not a real machine: ` +
      "there are no host processes, no package managers, no compilers or interpreters (no apt, pip, npm, python, node, gcc); " +
      "only the commands listed here exist, each a built-in reimplementation of the GNU tool.",
    `You are user "user" (not root) in ${found.cwd}; /tmp is writable. Files, variables, functions and the working directory persist from one call to the next.`,
    `Commands (${found.commands.length}): ${found.commands.join(" ")}.`,
    `Shell builtins: the bash 5.2 set (${found.builtins.length}, such as cd, declare, printf, read, test, [[ ]], mapfile, trap).`,
  ];
  const mounts = options.mounts ?? policy?.mounts ?? [];
  if (mounts.length > 0) {
    lines.push(
      `Host directories mounted: ${mounts.map((mount) => `${mount.path} (${mount.readOnly ? "read-only" : "read-write, changes stay in the sandbox"})`).join(", ")}.`,
    );
  }
  lines.push(networkLine(options.network ?? policy?.network, found.commands));
  lines.push(limitsLine(options.limits ?? policy?.limits));
  const cut = options.maxOutputChars === undefined ? "" : ` over ${count(options.maxOutputChars)} characters`;
  lines.push(
    `Long output${cut} is cut in the middle with a note saying how much was left out and where the full text was saved; ` +
      "read it in parts with `head -n`, `tail -n`, `sed -n '100,200p' FILE` or `grep -n`.",
  );
  if (options.extraInstructions) {
    lines.push(options.extraInstructions);
  }
  return lines.join("\n");
}
