// Host features of issue 14 through the built package: custom commands that
// stream (input as it arrives, output at once, concurrent with the rest of
// a pipeline), abort latency with a command that never settles and with a
// busy loop, snapshot sizes and damaged snapshots, and crash isolation
// between Bash objects running at the same time.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Bash, defineCommand } from "../../dist/node.js";
import { crashForTesting } from "../../dist/bash.js";

test("a streaming custom command reads input as it arrives and writes at once", async () => {
  const seen = [];
  const upper = defineCommand(
    "upper",
    async (_args, ctx) => {
      let chunks = 0;
      for await (const chunk of ctx.stdinStream) {
        seen.push([Date.now(), new TextDecoder().decode(chunk)]);
        chunks += 1;
        await ctx.stdout.write(new TextDecoder().decode(chunk).toUpperCase());
      }
      return { stderr: `${chunks} chunks\n` };
    },
    { streamStdin: true },
  );
  const bash = new Bash({ customCommands: [upper] });
  await bash.exec("true");
  const started = Date.now();
  let firstOutput;
  const result = await bash.exec("for i in a b c; do echo $i; sleep 0.2; done | upper", {
    onStdout: () => {
      firstOutput ??= Date.now() - started;
    },
  });
  assert.equal(result.stdout, "A\nB\nC\n");
  assert.equal(result.stderr, "3 chunks\n");
  // The first line was out before the second one was even produced.
  assert.ok(started + firstOutput <= seen[1][0], `first output after ${firstOutput} ms`);
  // The command saw each line while the producer was still running.
  assert.ok(seen[1][0] - seen[0][0] >= 150, "the input came in as produced");
});

test("a streaming command on endless input stops when its reader does (status 141)", async () => {
  const copy = defineCommand(
    "copy",
    async (_args, ctx) => {
      for await (const chunk of ctx.stdinStream) {
        await ctx.stdout.write(chunk);
      }
      return {};
    },
    { streamStdin: true },
  );
  const bash = new Bash({ customCommands: [copy] });
  const result = await bash.exec('yes | copy | head -n 2; echo "${PIPESTATUS[@]}"');
  assert.equal(result.stdout, "y\ny\n141 141 0\n");
});

test("ctx.stdout and ctx.stderr write while a command runs; the returned output follows", async () => {
  const talk = defineCommand("talk", async (_args, ctx) => {
    await ctx.stdout.write("one\n");
    await ctx.stderr.write(new TextEncoder().encode("warn\n"));
    await new Promise((resolve) => setTimeout(resolve, 300));
    return { stdout: "two\n" };
  });
  const bash = new Bash({ customCommands: [talk], defenseInDepth: false });
  const started = Date.now();
  let firstAt;
  const result = await bash.exec("talk; echo $?", { onStdout: () => (firstAt ??= Date.now() - started) });
  assert.equal(result.stdout, "one\ntwo\n0\n");
  assert.equal(result.stderr, "warn\n");
  assert.ok(firstAt < 200, `first output after ${firstAt} ms`);
  // Non-streaming commands still get their whole input in ctx.stdin.
  const count = defineCommand("count", (_args, ctx) => ({ stdout: `${ctx.stdin.split("\n").length - 1}\n` }));
  const counting = new Bash({ customCommands: [count] });
  assert.equal((await counting.exec("seq 100000 | count")).stdout, "100000\n");
});

test("an abort stops a command that never settles, and a busy loop, within 100 ms", async () => {
  const hang = defineCommand("hang", () => new Promise(() => {}));
  const bash = new Bash({ customCommands: [hang] });
  await bash.exec("true");
  for (const script of ["hang", "while :; do :; done", "echo x | hang | cat"]) {
    const controller = new AbortController();
    let abortedAt = 0;
    setTimeout(() => {
      abortedAt = performance.now();
      controller.abort();
    }, 50);
    const result = await bash.exec(script, { signal: controller.signal });
    const latency = performance.now() - abortedAt;
    // An aborted pipeline ends with 130 too, as bash killed by SIGINT (whatever `cat` said).
    assert.equal(result.exitCode, 130, script);
    assert.ok(latency < 100, `${script}: abort latency ${latency.toFixed(1)} ms`);
  }
  assert.equal((await bash.exec("echo usable")).stdout, "usable\n");
});

test("a snapshot of 1,000 files restores whole; its size is reported; every kind of damage is refused clearly", async () => {
  const bash = new Bash();
  const made = await bash.exec('mkdir -p data; for i in $(seq 1000); do echo "line $i of a small file" > data/f$i.txt; done; x=42');
  assert.equal(made.stderr, "");
  const bytes = await bash.snapshot();
  // Contents alone are ~26 KB; the whole sandbox (default layout included) stays small.
  assert.ok(bytes.byteLength < 400_000, `snapshot of 1,000 files: ${bytes.byteLength} bytes`);
  const copy = await Bash.restore(bytes);
  assert.equal((await copy.exec("ls data | wc -l; cat data/f777.txt; echo $x")).stdout, "1000\nline 777 of a small file\n42\n");
  const damages = {
    truncated: bytes.slice(0, bytes.byteLength - 9),
    flipped: (() => {
      const b = bytes.slice();
      b[100] ^= 1;
      return b;
    })(),
    magic: (() => {
      const b = bytes.slice();
      b[0] = 0x58;
      return b;
    })(),
    version: (() => {
      const b = bytes.slice();
      b[8] = 99;
      return b;
    })(),
    empty: new Uint8Array(),
  };
  for (const [kind, damaged] of Object.entries(damages)) {
    await assert.rejects(Bash.restore(damaged), (error) => {
      assert.equal(error.code, "WABASH_SNAPSHOT", kind);
      assert.match(error.message, /cannot restore the snapshot: /, kind);
      return true;
    });
  }
  await assert.rejects(Bash.restore("not bytes"), { code: "WABASH_INVALID_OPTIONS" });
});

test("a crash or out-of-memory in one Bash leaves another running at the same moment untouched", async () => {
  const victim = new Bash({ memoryLimit: 64 << 20 });
  const bystander = new Bash({ memoryLimit: 64 << 20 });
  await bystander.exec("kept=yes; echo data > f");
  const running = bystander.exec("for i in $(seq 200); do echo $i; done | tail -1; sleep 0.05; echo $kept; cat f");
  const [crash, oom, output] = await Promise.allSettled([victim[crashForTesting]("panic"), victim[crashForTesting]("memory"), running]);
  assert.equal(crash.reason.code, "WABASH_TRAP");
  assert.equal(oom.reason.code, "WABASH_MEMORY_LIMIT");
  assert.equal(output.value.stdout, "200\nyes\ndata\n");
  assert.equal((await victim.exec("echo back")).stdout, "back\n");
  assert.throws(() => new Bash({ memoryLimit: 1000 }), { code: "WABASH_INVALID_OPTIONS" });
});
