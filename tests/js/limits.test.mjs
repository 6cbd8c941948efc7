// The executionLimits option against the built package: every per-exec
// limit and the session totals end the script with an error that names the
// limit and its value, and the Bash object stays usable.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Bash } from "../../dist/node.js";

/** Runs `script` in a Bash with `limits`, then checks the object still works. */
async function breach(limits, script) {
  const bash = new Bash({ executionLimits: limits });
  const result = await bash.exec(script);
  assert.equal((await bash.exec("echo usable")).stdout, "usable\n");
  return result;
}

test("maxCommandCount stops a run and the next run starts a fresh count", async () => {
  const bash = new Bash({ executionLimits: { maxCommandCount: 50 } });
  const result = await bash.exec("for i in $(seq 100); do echo $i; done");
  assert.equal(result.exitCode, 126);
  assert.equal(result.stderr, "bash: limit: command limit (50) exceeded\n");
  assert.ok(result.stdout.startsWith("1\n2\n"));
  assert.equal((await bash.exec("for i in 1 2 3; do :; done; echo ok")).stdout, "ok\n");
});

test("maxLoopIterations", async () => {
  const result = await breach({ maxLoopIterations: 10 }, "i=0; while :; do i=$((i+1)); done");
  assert.equal(result.stderr, "bash: limit: loop iteration limit (10) exceeded\n");
  assert.equal(result.exitCode, 126);
});

test("maxCallDepth", async () => {
  const result = await breach({ maxCallDepth: 7 }, "f() { f; }; f");
  assert.match(result.stderr, /f: maximum function nesting level exceeded \(7\)/);
  assert.notEqual(result.exitCode, 0);
});

test("maxSubstitutionDepth", async () => {
  const result = await breach({ maxSubstitutionDepth: 3 }, "echo $(echo $(echo $(echo $(echo deep))))");
  assert.match(result.stderr, /substitution depth limit \(3\) exceeded/);
  const bash = new Bash({ executionLimits: { maxSubstitutionDepth: 3 } });
  assert.match((await bash.exec("( ( ( ( echo deep ) ) ) )")).stderr, /subshell depth limit \(3\) exceeded/);
});

test("maxStringLength", async () => {
  const result = await breach({ maxStringLength: 1000 }, "x=a; while :; do x=$x$x; done");
  assert.match(result.stderr, /string length limit \(1000 bytes\) exceeded/);
  assert.notEqual(result.exitCode, 0);
});

test("maxArrayElements", async () => {
  const result = await breach({ maxArrayElements: 5 }, "a=(); for i in 1 2 3 4 5 6 7; do a+=($i); done; echo ${#a[@]}");
  assert.match(result.stderr, /array element limit \(5\) exceeded/);
});

test("maxOutputSize is an error, never a silent cut", async () => {
  const result = await breach({ maxOutputSize: 100 }, "while :; do echo 0123456789; done");
  assert.match(result.stderr, /output limit \(100 bytes\) exceeded/);
  assert.equal(result.exitCode, 126);
  assert.ok(result.stdout.length <= 100);
});

test("maxDurationMs", async () => {
  const result = await breach({ maxDurationMs: 50 }, "while :; do :; done");
  assert.equal(result.stderr, "bash: limit: time limit (50 ms) exceeded\n");
  assert.equal(result.exitCode, 126);
});

test("session totals add up across execs", async () => {
  const bash = new Bash({ executionLimits: { maxSessionCommandCount: 5 } });
  assert.equal((await bash.exec("echo 1; echo 2; echo 3")).stdout, "1\n2\n3\n");
  const second = await bash.exec("echo 4; echo 5; echo 6");
  assert.equal(second.stdout, "4\n5\n");
  assert.equal(second.stderr, "bash: limit: session command limit (5) exceeded\n");
  assert.equal(second.exitCode, 126);
  // The session is spent, but the object answers and its files stay readable.
  assert.equal((await bash.exec("echo 7")).exitCode, 126);
  await bash.fs.writeFile("/kept", "yes");
  assert.equal(await bash.fs.readFile("/kept"), "yes");

  const loops = new Bash({ executionLimits: { maxSessionLoopIterations: 5 } });
  assert.equal((await loops.exec("for i in 1 2 3; do :; done; echo ok")).stdout, "ok\n");
  assert.match((await loops.exec("for i in 1 2 3; do :; done")).stderr, /session loop iteration limit \(5\) exceeded/);

  const time = new Bash({ executionLimits: { maxSessionDurationMs: 60 } });
  assert.equal((await time.exec("sleep 0.04; echo first")).stdout, "first\n");
  assert.match((await time.exec("sleep 0.03; while :; do :; done")).stderr, /session time limit \(60 ms\) exceeded/);
});

test("defaults let ordinary scripts run", async () => {
  const bash = new Bash();
  const result = await bash.exec("x=0; for i in $(seq 1 100000); do x=$((x+i)); done; echo $x");
  assert.equal(result.stdout, "5000050000\n");
});

test("bad limits are WABASH_INVALID_OPTIONS errors", () => {
  for (const executionLimits of [5, [], { maxCommandCount: -1 }, { maxCommandCount: 1.5 }, { maxDurationMs: "10" }, { maxCommands: 5 }]) {
    assert.throws(() => new Bash({ executionLimits }), { code: "WABASH_INVALID_OPTIONS" }, JSON.stringify(executionLimits));
  }
});
