// The wrapper against the built package (dist/node.js): the API shape,
// options, the filesystem, ordering, errors and recovery from a trap.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import { Bash, WabashError } from "../../dist/node.js";
import { crashForTesting } from "../../dist/bash.js";
import { engineModule } from "../../dist/module-source.js";

test("echo hi | cat gives hi", async () => {
  const bash = new Bash();
  assert.deepEqual(await bash.exec("echo hi | cat"), { stdout: "hi\n", stderr: "", exitCode: 0, exited: false });
});

test("files, env and cwd options shape the sandbox", async () => {
  const bash = new Bash({
    files: { "/home/user/data.csv": "a,b\n1,2\n", "rel/x.bin": new Uint8Array([104, 105, 10]) },
    env: { GREETING: "hello" },
    cwd: "/home/user",
  });
  assert.equal((await bash.exec("cat data.csv")).stdout, "a,b\n1,2\n");
  assert.equal((await bash.exec("cat rel/x.bin")).stdout, "hi\n");
  assert.equal((await bash.exec('echo "$GREETING world"')).stdout, "hello world\n");
  assert.equal((await bash.exec("pwd")).stdout, "/home/user\n");
});

test("exec options: stdin, env and cwd for one call", async () => {
  const bash = new Bash();
  assert.equal((await bash.exec("cat", { stdin: "from stdin\n" })).stdout, "from stdin\n");
  assert.equal((await bash.exec("echo $ONLY", { env: { ONLY: "once" } })).stdout, "once\n");
  assert.equal((await bash.exec("pwd", { cwd: "/tmp" })).stdout, "/tmp\n");
  assert.equal((await bash.exec("echo [$ONLY]; pwd")).stdout, "[]\n/home/user\n");
});

test("state persists across exec calls", async () => {
  const bash = new Bash();
  await bash.exec("cd /tmp; NAME=kept; echo data > f.txt");
  assert.equal((await bash.exec('pwd; echo $NAME; cat f.txt')).stdout, "/tmp\nkept\ndata\n");
  assert.equal(await bash.fs.readFile("/tmp/f.txt"), "data\n");
  assert.equal(await bash.getCwd(), "/tmp");
});

test("redirections write the in-memory filesystem", async () => {
  const bash = new Bash();
  await bash.exec("echo one > out.txt; echo two >> out.txt");
  assert.equal(await bash.fs.readFile("out.txt"), "one\ntwo\n");
});

test("fs: writeFile, readFile, readFileBytes, exists, readdir, mkdir", async () => {
  const bash = new Bash({ files: { "/home/user/a.txt": "A" } });
  await bash.fs.writeFile("/data/deep/b.txt", "B");
  await bash.fs.writeFile("c.bin", new Uint8Array([0, 255]));
  await bash.fs.mkdir("/empty/dir");
  assert.equal(await bash.fs.readFile("/data/deep/b.txt"), "B");
  assert.deepEqual(await bash.fs.readFileBytes("/home/user/c.bin"), new Uint8Array([0, 255]));
  assert.equal(await bash.fs.exists("/empty/dir"), true);
  assert.equal(await bash.fs.exists("/nope"), false);
  assert.deepEqual(await bash.fs.readdir("/home/user"), ["a.txt", "c.bin"]);
  assert.deepEqual(await bash.fs.readdir("/empty"), ["dir"]);
});

test("files the host writes belong to the sandbox user, so scripts may change them", async () => {
  const bash = new Bash();
  await bash.fs.writeFile("/data/log.txt", "one\n");
  const result = await bash.exec("echo two >> /data/log.txt; echo three > /data/new.txt");
  assert.equal(result.exitCode, 0, result.stderr);
  assert.equal(await bash.fs.readFile("/data/log.txt"), "one\ntwo\n");
  assert.equal(await bash.fs.readFile("/data/new.txt"), "three\n");
});

test("fs errors carry Node-style codes", async () => {
  const bash = new Bash();
  await assert.rejects(bash.fs.readFile("/missing"), { code: "ENOENT", message: "ENOENT: No such file or directory, open '/missing'" });
  await bash.fs.writeFile("/f", "x");
  await assert.rejects(bash.fs.readdir("/f"), { code: "ENOTDIR" });
  await assert.rejects(bash.fs.writeFile("/f/g", "x"), { code: "ENOTDIR" });
});

test("operations run one at a time, in call order", async () => {
  const bash = new Bash();
  const order = [];
  const first = bash.exec("echo 1 > n.txt").then(() => order.push("exec1"));
  const read = bash.fs.readFile("n.txt").then((text) => order.push(`read:${text.trim()}`));
  const second = bash.exec("echo 2 > n.txt").then(() => order.push("exec2"));
  const readAgain = bash.fs.readFile("n.txt").then((text) => order.push(`read:${text.trim()}`));
  await Promise.all([first, read, second, readAgain]);
  assert.deepEqual(order, ["exec1", "read:1", "exec2", "read:2"]);
});

test("an unknown command is a bash error, not an exception, and the object stays usable", async () => {
  const bash = new Bash();
  const result = await bash.exec("nosuchcommand arg");
  assert.equal(result.exitCode, 127);
  assert.match(result.stderr, /nosuchcommand: command not found/);
  assert.equal((await bash.exec("echo still here")).stdout, "still here\n");
});

test("a syntax error is a bash error with status 2", async () => {
  const bash = new Bash();
  const result = await bash.exec("echo ok; fi");
  assert.equal(result.exitCode, 2);
  assert.match(result.stderr, /syntax error near unexpected token `fi'/);
  assert.equal((await bash.exec("echo after")).stdout, "after\n");
});

test("odd scripts never throw", async () => {
  const bash = new Bash();
  for (const script of ["", "\0", "'", '"', "$(", "|", "&&", ";;", "\u{1F600}", "x".repeat(100_000)]) {
    const result = await bash.exec(script);
    assert.equal(typeof result.exitCode, "number", JSON.stringify(script.slice(0, 20)));
  }
});

test("runaway recursion ends in a bash error or a trap, and the object stays usable", async () => {
  const bash = new Bash();
  try {
    const result = await bash.exec("f() { f; }; f");
    assert.notEqual(result.exitCode, 0);
  } catch (error) {
    assert.equal(error.code, "WABASH_TRAP");
  }
  assert.equal((await bash.exec("echo alive")).stdout, "alive\n");
});

test("invalid arguments reject with WABASH_INVALID_OPTIONS", async () => {
  assert.throws(() => new Bash({ env: { A: 1 } }), { code: "WABASH_INVALID_OPTIONS" });
  assert.throws(() => new Bash({ files: { a: 5 } }), { code: "WABASH_INVALID_OPTIONS" });
  const bash = new Bash();
  await assert.rejects(bash.exec(42), (error) => error instanceof WabashError && error.code === "WABASH_INVALID_OPTIONS");
  await assert.rejects(bash.exec("true", { stdin: 7 }), { code: "WABASH_INVALID_OPTIONS" });
  await bash.exec("true");
});

test("a trap is a WABASH_TRAP error and the sandbox comes back as it was", async () => {
  const bash = new Bash({ files: { "/home/user/kept.txt": "from options" } });
  await bash.fs.writeFile("/home/user/later.txt", "written later");
  await assert.rejects(bash[crashForTesting](), (error) => {
    assert.ok(error instanceof WabashError);
    assert.equal(error.code, "WABASH_TRAP");
    assert.equal(error.recovery, "restored");
    assert.match(error.message, /debugPanic called.*restored to its state before this operation/);
    return true;
  });
  assert.deepEqual(await bash.fs.readdir("/home/user"), ["kept.txt", "later.txt"]);
  assert.equal(await bash.fs.readFile("later.txt"), "written later");
  assert.equal(bash.restores, 1);
  assert.equal(bash.resets, 0);
  const other = new Bash();
  await other.fs.writeFile("/x", "independent");
  await assert.rejects(bash[crashForTesting](), { code: "WABASH_TRAP" });
  assert.equal(await other.fs.readFile("/x"), "independent");
});

test("with crashRecovery: reset, a trap starts afresh and says so", async () => {
  const events = [];
  const bash = new Bash({ files: { "/home/user/kept.txt": "from options" }, crashRecovery: "reset", onCrash: (event) => events.push(event) });
  await bash.exec("echo lost > lost.txt; x=1");
  await assert.rejects(bash[crashForTesting](), (error) => {
    assert.equal(error.code, "WABASH_TRAP");
    assert.equal(error.recovery, "reset");
    assert.match(error.message, /reset: its files, variables, functions and working directory were lost/);
    return true;
  });
  assert.equal(events.length, 1);
  assert.equal(events[0].recovery, "reset");
  assert.equal(bash.resets, 1);
  const first = await bash.exec("ls; echo x=$x");
  assert.equal(first.stdout, "kept.txt\nx=\n");
  assert.equal(first.sandboxReset, true);
  assert.equal((await bash.exec("true")).sandboxReset, undefined);
});

test("sandboxes are isolated from each other", async () => {
  const one = new Bash();
  const two = new Bash();
  await one.fs.writeFile("/shared.txt", "one");
  assert.equal(await two.fs.exists("/shared.txt"), false);
});

test("the compiled module is created once and reused", async () => {
  const first = await engineModule();
  await new Bash().fs.exists("/");
  assert.equal(await engineModule(), first);
});

test("completeness tells a REPL when to ask for more", async () => {
  const bash = new Bash();
  assert.equal(await bash.completeness("echo hi"), "complete");
  assert.equal(await bash.completeness("echo 'open"), "incomplete");
  assert.equal(await bash.completeness("if true; then"), "incomplete");
});

test("an aborted signal interrupts a long-running script", () => {
  // In a child process with a hard timeout: an engine that never yields
  // would block the event loop, and no timer in this process could fire.
  const child = spawnSync(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      `import { Bash } from ${JSON.stringify(new URL("../../dist/node.js", import.meta.url).href)};
       const bash = new Bash();
       const controller = new AbortController();
       setTimeout(() => controller.abort(), 100);
       const result = await bash.exec("while true; do true; done", { signal: controller.signal });
       const next = await bash.exec("echo next");
       console.log(JSON.stringify({ status: result.exitCode, next: next.stdout }));`,
    ],
    { encoding: "utf8", timeout: 20_000 },
  );
  assert.equal(child.signal, null, "the script was not interrupted within 20 s");
  const outcome = JSON.parse(child.stdout);
  assert.notEqual(outcome.status, 0);
  assert.equal(outcome.next, "next\n");
});

test("args and arg0 set the positional parameters; exited tells an exit", async () => {
  const bash = new Bash();
  const result = await bash.exec('echo "$0:$#:$1:$2"', { args: ["a b", "c"], arg0: "script.sh" });
  assert.equal(result.stdout, "script.sh:2:a b:c\n");
  assert.equal(result.exited, false);
  const exited = await bash.exec("echo before; exit 3; echo after");
  assert.deepEqual([exited.stdout, exited.exitCode, exited.exited], ["before\n", 3, true]);
  assert.equal((await bash.exec("echo still usable")).stdout, "still usable\n");
});

test("deep recursion ends with bash's nesting error, not a crash", async () => {
  const bash = new Bash();
  const result = await bash.exec("f() { f; }; f; echo same\necho next $?");
  assert.equal(result.stdout, "next 1\n");
  assert.match(result.stderr, /maximum function nesting level exceeded \(200\)/);
});

test("a background job's process substitution runs under the JS event loop", async () => {
  const bash = new Bash();
  const result = await bash.exec("cat <(seq 3) & wait\necho sync\ncat <(true) &\necho fork");
  assert.equal(result.stdout, "1\n2\n3\nsync\nfork\n");
});
