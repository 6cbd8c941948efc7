// Streaming execs through the built package: output reaches the listeners
// while the script still runs, standard input can arrive as a stream, a
// timeout interrupts, and the host filesystem API (stat, rm, rename,
// readdir with types, changes) behaves as documented.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Bash } from "../../dist/node.js";

test("onStdout sees the first line at once, long before the script ends", async () => {
  const bash = new Bash();
  // The instance is made first, so that its start-up (slow on a loaded machine) is not timed.
  await bash.exec("true");
  const started = Date.now();
  let firstAt;
  const chunks = [];
  const result = await bash.exec("echo first; sleep 0.5; echo second; echo err >&2", {
    onStdout: (text) => {
      firstAt ??= Date.now() - started;
      chunks.push(text);
    },
    onStderr: (text) => chunks.push(`[${text}]`),
  });
  const total = Date.now() - started;
  assert.equal(result.stdout, "first\nsecond\n");
  assert.deepEqual(chunks, ["first\n", "second\n", "[err\n]"]);
  assert.ok(firstAt < 400, `first chunk after ${firstAt} ms`);
  assert.ok(total >= 500, `total ${total} ms`);
});

test("text listeners decode multi-byte characters split across chunks", async () => {
  const bash = new Bash();
  let text = "";
  await bash.exec("printf '\\xce'; printf '\\xbb\\n'", { onStdout: (chunk) => (text += chunk) });
  assert.equal(text, "λ\n");
});

test("stdin as a ReadableStream is read as it arrives, and as an async iterable", async () => {
  const bash = new Bash();
  let pushLater;
  const stream = new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode("one\ntw"));
      pushLater = () => {
        controller.enqueue("o\nthree\n");
        controller.close();
      };
    },
  });
  setTimeout(() => pushLater(), 50);
  const result = await bash.exec("while read -r line; do echo \"got $line\"; done", { stdin: stream });
  assert.equal(result.stdout, "got one\ngot two\ngot three\n");
  async function* lines() {
    for (let i = 1; i <= 3; i++) yield `${i}\n`;
  }
  assert.equal((await bash.exec("wc -l", { stdin: lines() })).stdout, "3\n");
  // A script that stops reading early does not wait for an endless stream.
  async function* endless() {
    for (;;) yield "y\n";
  }
  assert.equal((await bash.exec("head -n 2", { stdin: endless() })).stdout, "y\ny\n");
});

test("timeoutMs interrupts a running script and says so", async () => {
  const bash = new Bash();
  const started = Date.now();
  const result = await bash.exec("echo start; while :; do :; done", { timeoutMs: 100 });
  assert.ok(Date.now() - started < 2000);
  assert.equal(result.exitCode, 130);
  assert.equal(result.stdout, "start\n");
  assert.match(result.stderr, /wabash: timed out after 100 ms\n$/);
  assert.equal((await bash.exec("echo still here")).stdout, "still here\n");
});

test("an abort stops a sleeping script within 100 ms", async () => {
  const bash = new Bash();
  await bash.exec("true");
  const controller = new AbortController();
  let abortedAt = 0;
  setTimeout(() => {
    abortedAt = Date.now();
    controller.abort();
  }, 50);
  const result = await bash.exec("sleep 10", { signal: controller.signal });
  const latency = Date.now() - abortedAt;
  assert.equal(result.exitCode, 130);
  assert.ok(latency < 100, `abort latency ${latency} ms`);
});

test("bash.fs: stat, lstat, rm, rename, readdirWithTypes, changes and checkpoint", async () => {
  const bash = new Bash({ files: { "/home/user/a.txt": "hello\n" } });
  await bash.exec("mkdir -p d/e && echo x > d/e/f && ln -s a.txt link && chmod 600 a.txt");
  const stat = await bash.fs.stat("a.txt");
  assert.equal(stat.type, "file");
  assert.equal(stat.size, 6);
  assert.equal(stat.mode, 0o600);
  assert.equal((await bash.fs.stat("link")).type, "file");
  assert.equal((await bash.fs.lstat("link")).type, "symlink");
  assert.deepEqual(await bash.fs.readdirWithTypes("/home/user"), [
    { name: "a.txt", type: "file" },
    { name: "d", type: "directory" },
    { name: "link", type: "symlink" },
  ]);
  await bash.fs.rename("a.txt", "b.txt");
  assert.equal((await bash.exec("cat b.txt")).stdout, "hello\n");
  await assert.rejects(bash.fs.rm("d"), { code: "EISDIR" });
  await bash.fs.rm("d", { recursive: true });
  await bash.fs.rm("missing", { force: true });
  await assert.rejects(bash.fs.rm("missing"), { code: "ENOENT" });
  assert.equal(await bash.fs.exists("d"), false);
  const changes = await bash.fs.changes();
  assert.ok(changes.created.includes("/home/user/b.txt"), JSON.stringify(changes));
  assert.ok(changes.deleted.includes("/home/user/a.txt"), JSON.stringify(changes));
  await bash.fs.checkpoint();
  await bash.exec("echo new > n.txt; rm b.txt");
  // A directory counts as modified for its own attributes, not for names coming and going.
  assert.deepEqual(await bash.fs.changes(), { created: ["/home/user/n.txt"], modified: [], deleted: ["/home/user/b.txt"] });
});

test("snapshot and Bash.restore carry a whole session; damaged bytes are refused", async () => {
  const bash = new Bash();
  await bash.exec("cd /tmp; v=1; f() { echo f$v; }; echo data > file; shopt -s extglob");
  const bytes = await bash.snapshot();
  const copy = await Bash.restore(bytes);
  assert.equal((await copy.exec("pwd; f; cat file; shopt -q extglob && echo on")).stdout, "/tmp\nf1\ndata\non\n");
  const damaged = bytes.slice();
  damaged[damaged.length >> 1] ^= 0xff;
  await assert.rejects(Bash.restore(damaged), { code: "WABASH_SNAPSHOT" });
});
