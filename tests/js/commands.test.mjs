// Custom commands written in JS (defineCommand) against the built package:
// arguments, stdin, cwd, env, output and status; lookup order and the
// registry; ctx.exec and ctx.fs; errors that leave the sandbox usable.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Bash, defineCommand } from "../../dist/node.js";

const hello = defineCommand("hello", async (args, ctx) => ({ stdout: `hi ${args.join(",")} from ${ctx.cwd}\n`, exitCode: 0 }));

test("a custom command gets its arguments and cwd, and its output and status reach the script", async () => {
  const bash = new Bash({ customCommands: [hello, defineCommand("fail", () => ({ stderr: "no\n", exitCode: 3 }))] });
  const result = await bash.exec("cd /tmp; hello a 'b c'; fail; echo status $?");
  assert.equal(result.stdout, "hi a,b c from /tmp\nstatus 3\n");
  assert.equal(result.stderr, "no\n");
});

test("stdin is the command's whole standard input, as text and bytes; env holds the exported variables", async () => {
  const seen = [];
  const upper = defineCommand("upper", (args, ctx) => {
    seen.push([ctx.stdinBytes.length, ctx.env.SHOWN, ctx.env.HIDDEN]);
    return { stdout: ctx.stdin.toUpperCase() };
  });
  const bash = new Bash({ customCommands: [upper], env: { SHOWN: "yes" } });
  const result = await bash.exec("HIDDEN=no; printf 'abc\\n\\xff' | upper; upper <<<'here'");
  assert.equal(result.stdout, "ABC\n\uFFFDHERE\n");
  assert.deepEqual(seen, [[5, "yes", undefined], [5, "yes", undefined]]);
});

test("bytes in and out stay bytes", async () => {
  const echoBytes = defineCommand("echobytes", (args, ctx) => ({ stdout: ctx.stdinBytes }));
  const bash = new Bash({ customCommands: [echoBytes] });
  const result = await bash.exec("printf '\\x00\\xff\\n' | echobytes | base64");
  assert.equal(result.stdout, "AP8K\n");
  assert.deepEqual((await bash.exec("printf '\\xfe' | echobytes")).stdoutBytes, new Uint8Array([0xfe]));
});

test("custom commands are in the one registry: /bin, type, which, command -v, env, find -exec", async () => {
  const bash = new Bash({ customCommands: [hello] });
  const result = await bash.exec("type hello; command -v hello; which hello; ls /bin/hello; /bin/hello x; env hello y; find /bin -name hello -exec hello {} \\;");
  assert.equal(
    result.stdout,
    "hello is /usr/bin/hello\n/usr/bin/hello\n/usr/bin/hello\n/bin/hello\nhi x from /home/user\nhi y from /home/user\nhi /bin/hello from /home/user\n",
  );
  assert.equal(result.stderr, "");
});

test("functions and builtins come first; a custom command replaces a utility of the same name", async () => {
  const cat = defineCommand("cat", () => ({ stdout: "custom cat\n" }));
  const echo = defineCommand("echo", () => ({ stdout: "custom echo\n" }));
  const bash = new Bash({ customCommands: [hello, cat, echo] });
  const result = await bash.exec("cat /etc/hostname; echo builtin; hello() { builtin echo function; }; hello; command hello");
  assert.equal(result.stdout, "custom cat\nbuiltin\nfunction\nhi  from /home/user\n");
});

test("a command that throws prints NAME: MESSAGE with status 1 and the sandbox stays usable", async () => {
  const boom = defineCommand("boom", () => {
    throw new Error("it broke");
  });
  const rejects = defineCommand("rejects", async () => Promise.reject("plain reason"));
  const bad = defineCommand("bad", () => 42);
  const badCode = defineCommand("badcode", () => ({ exitCode: 1.5 }));
  const bash = new Bash({ customCommands: [boom, rejects, bad, badCode] });
  const result = await bash.exec("boom; echo $?; rejects; echo $?; bad; echo $?; badcode; echo $?");
  assert.equal(result.stdout, "1\n1\n1\n1\n");
  assert.equal(
    result.stderr,
    "boom: it broke\nrejects: plain reason\nbad: custom command must return an object { stdout, stderr, exitCode }\nbadcode: exitCode must be an integer, not 1.5\n",
  );
  assert.equal((await bash.exec("echo fine")).stdout, "fine\n");
});

test("exit codes are taken modulo 256; a missing exitCode is 0", async () => {
  const code = defineCommand("code", (args) => (args[0] === undefined ? {} : { exitCode: Number(args[0]) }));
  const bash = new Bash({ customCommands: [code] });
  assert.equal((await bash.exec("code 257; echo $?; code; echo $?; code 255; echo $?")).stdout, "1\n0\n255\n");
});

test("custom commands work in pipelines, substitutions and with redirections", async () => {
  const bash = new Bash({ customCommands: [hello] });
  const result = await bash.exec('x=$(hello s); echo "[$x]"; hello p | wc -c; hello f > out.txt; cat out.txt');
  assert.equal(result.stdout, "[hi s from /home/user]\n21\nhi f from /home/user\n");
});

test("ctx.exec runs a script back in the sandbox with the command's variables and fds", async () => {
  const run = defineCommand("run", async (args, ctx) => {
    const first = await ctx.exec(args[0], { stdin: "given\n" });
    const second = await ctx.exec("echo err >&2; exit 7");
    return { stdout: `${first.stdout}|${second.stderr}|${second.exitCode}\n` };
  });
  const bash = new Bash({ customCommands: [run] });
  const result = await bash.exec('export V=exported; L=local; run \'echo "$V-$L"; cat; cat <&3\' 3<<<fd3');
  assert.equal(result.stdout, "exported-\ngiven\nfd3\n|err\n|7\n");
});

test("ctx.exec calls made together are all answered", async () => {
  const many = defineCommand("many", async (args, ctx) => {
    const results = await Promise.all(["echo 1", "echo 2", "echo 3"].map((script) => ctx.exec(script)));
    return { stdout: results.map((r) => r.stdout).join("") };
  });
  const bash = new Bash({ customCommands: [many] });
  assert.equal((await bash.exec("many")).stdout, "1\n2\n3\n");
});

test("ctx.exec can call custom commands, and ctx.fs reads and writes the sandbox during the exec", async () => {
  const inner = defineCommand("inner", () => ({ stdout: "inner\n" }));
  const outer = defineCommand("outer", async (args, ctx) => {
    await ctx.fs.writeFile("made.txt", "by outer\n");
    const text = await ctx.fs.readFile("/home/user/input.txt");
    const nested = await ctx.exec("inner; cat made.txt");
    return { stdout: text + nested.stdout };
  });
  const bash = new Bash({ customCommands: [inner, outer], files: { "/home/user/input.txt": "input\n" } });
  assert.equal((await bash.exec("cd /tmp && outer")).stdout, "input\ninner\nby outer\n");
  assert.equal(await bash.fs.readFile("/tmp/made.txt"), "by outer\n");
});

test("a command gets the exec's abort signal", async () => {
  let seen;
  const peek = defineCommand("peek", (args, ctx) => {
    seen = ctx.signal;
    return {};
  });
  const bash = new Bash({ customCommands: [peek] });
  const controller = new AbortController();
  await bash.exec("peek", { signal: controller.signal });
  assert.equal(seen, controller.signal);
});

test("custom commands survive a reset after a trap", async () => {
  const { crashForTesting } = await import("../../dist/bash.js");
  const bash = new Bash({ customCommands: [hello] });
  await assert.rejects(bash[crashForTesting](), { code: "WABASH_TRAP" });
  assert.equal((await bash.exec("hello again")).stdout, "hi again from /home/user\n");
});

test("bad definitions are WABASH_INVALID_OPTIONS errors", () => {
  for (const name of ["", "a/b", "..", "x\0y", 5]) {
    assert.throws(() => defineCommand(name, () => ({})), { code: "WABASH_INVALID_OPTIONS" });
  }
  assert.throws(() => defineCommand("ok", "not a function"), { code: "WABASH_INVALID_OPTIONS" });
  assert.throws(() => new Bash({ customCommands: [hello, hello] }), { code: "WABASH_INVALID_OPTIONS" });
  assert.throws(() => new Bash({ customCommands: hello }), { code: "WABASH_INVALID_OPTIONS" });
  assert.throws(() => new Bash({ customCommands: [{ name: "x" }] }), { code: "WABASH_INVALID_OPTIONS" });
});

test("aborting the exec ends a command that never settles, and the sandbox stays usable", async () => {
  const hang = defineCommand("hang", () => new Promise(() => {}));
  const bash = new Bash({ customCommands: [hang] });
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 50);
  const result = await bash.exec("hang", { signal: controller.signal });
  assert.equal(result.exitCode, 130);
  assert.equal((await bash.exec("echo usable")).stdout, "usable\n");
});
