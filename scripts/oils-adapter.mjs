#!/usr/bin/env node
// The adapter the Oils spec runner calls (`oils_spec.py --shell "node
// scripts/oils-adapter.mjs"`): runs `-c SCRIPT [ARG0 [ARGS...]]` in a sandbox
// of the built package (dist/), with the case's directory (the cwd) and
// $REPO_ROOT copied in at the same paths, and the corpus's helper programs
// (spec/bin/argv.py, ...) provided as JS custom commands whose output is byte
// for byte that of the Python helpers. examples/oils_adapter.rs is the native
// development twin of this file.
//
// usage: node scripts/oils-adapter.mjs -c SCRIPT
import { lstatSync, readFileSync, readdirSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { Bash, defineCommand } from "../dist/node.js";

/** Variables the runner sets that reach the sandbox. */
const PASSED_ENV = ["TMP", "REPO_ROOT", "SH", "LC_ALL"];

const encoder = new TextEncoder();

/** Python's repr of a bytes value without the leading `b` (Python 2's str repr). */
function pythonRepr(bytes) {
  const quote = bytes.includes(0x27) && !bytes.includes(0x22) ? '"' : "'";
  let out = quote;
  for (const byte of bytes) {
    const char = String.fromCharCode(byte);
    if (char === "\\") out += "\\\\";
    else if (char === "\n") out += "\\n";
    else if (char === "\t") out += "\\t";
    else if (char === "\r") out += "\\r";
    else if (char === quote) out += `\\${quote}`;
    else if (byte >= 0x20 && byte <= 0x7e) out += char;
    else out += `\\x${byte.toString(16).padStart(2, "0")}`;
  }
  return out + quote;
}

/** Joins byte arrays. */
function concat(parts) {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** spec/bin's helper programs. */
const helpers = [
  defineCommand("argv.py", (args) => ({
    stdout: `[${args.map((arg) => pythonRepr(encoder.encode(arg))).join(", ")}]\n`,
  })),
  defineCommand("printenv.py", (args, ctx) => ({
    stdout: args.map((name) => `${ctx.env[name] ?? "None"}\n`).join(""),
  })),
  defineCommand("stdout_stderr.py", (args) => ({
    stdout: `${args[0] ?? "STDOUT"}\n`,
    stderr: `${args[1] ?? "STDERR"}\n`,
    exitCode: /^[+-]?\d+$/.test(args[2] ?? "") ? Number(args[2]) : 0,
  })),
  defineCommand("read_from_fd.py", async (args, ctx) => {
    const out = [];
    let stdin = ctx.stdinBytes;
    for (const arg of args) {
      let data;
      if (arg === "0") {
        data = stdin.subarray(0, 1024);
        stdin = stdin.subarray(data.length);
      } else if (/^\d+$/.test(arg)) {
        const result = await ctx.exec(`head -c 1024 <&${Number(arg)}`);
        data = result.exitCode === 0 ? result.stdoutBytes : undefined;
      }
      if (data === undefined) {
        return { stdout: concat(out), stderr: `FATAL: Error reading from fd ${arg}: [Errno 9] Bad file descriptor\n`, exitCode: 1 };
      }
      out.push(encoder.encode(`${arg}: `), data);
    }
    return { stdout: concat(out) };
  }),
];

/** Copies the host directory `dir` into the sandbox at the same path, with modes and symbolic links. */
async function copyTree(bash, dir) {
  await bash.fs.mkdir(dir);
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) {
      await bash.fs.symlink(readlinkSync(path), path);
    } else if (stat.isDirectory()) {
      await copyTree(bash, path);
    } else if (stat.isFile()) {
      await bash.fs.writeFile(path, readFileSync(path));
      await bash.fs.chmod(path, stat.mode & 0o7777);
    }
  }
}

async function main(argv) {
  const at = argv.indexOf("-c");
  if (at < 0 || at + 1 >= argv.length) {
    process.stderr.write("usage: oils-adapter.mjs -c SCRIPT [ARG0 [ARGS...]]\n");
    return 2;
  }
  const script = argv[at + 1];
  const [arg0, ...args] = argv.slice(at + 2);
  const cwd = process.cwd();
  const env = Object.fromEntries(PASSED_ENV.filter((name) => process.env[name] !== undefined).map((name) => [name, process.env[name]]));
  const bash = new Bash({ env, cwd, customCommands: helpers });
  await copyTree(bash, cwd);
  if (env.REPO_ROOT) {
    await copyTree(bash, env.REPO_ROOT);
  }
  const result = await bash.exec(script, { args, ...(arg0 === undefined ? {} : { arg0 }) });
  process.stdout.write(result.stdoutBytes);
  process.stderr.write(result.stderrBytes);
  return result.exitCode;
}

process.exitCode = await main(process.argv.slice(2));
