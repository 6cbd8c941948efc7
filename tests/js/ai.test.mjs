// wabash/ai driven by the real AI SDK: its mock language model asks for tool
// calls, generateText runs them against a Bash, and the test reads what the
// model was sent and what came back. Also the sandbox description and the
// sandbox-session shape.
import assert from "node:assert/strict";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { Bash, defineCommand, describeSandbox, nodeDirectory } from "../../dist/node.js";
import { createBashTools, createSandboxSession } from "../../dist/ai.js";
import { truncateForModel } from "../../dist/agent-tools.js";

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** A mock model that makes the given tool calls, one step each, then answers "done". */
function scriptedModel(steps) {
  let step = 0;
  return new MockLanguageModelV3({
    doGenerate: async () => {
      const calls = steps[step++];
      if (calls === undefined) {
        return { content: [{ type: "text", text: "done" }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] };
      }
      return {
        content: calls.map(([toolName, input], index) => ({ type: "tool-call", toolCallId: `call-${step}-${index}`, toolName, input: JSON.stringify(input) })),
        finishReason: { unified: "tool-calls", raw: "tool_calls" },
        usage,
        warnings: [],
      };
    },
  });
}

/** Every tool result and tool error of a generateText run, in order. */
function outcomes(result) {
  return result.steps.flatMap((step) =>
    step.content.filter((part) => part.type === "tool-result" || part.type === "tool-error").map((part) => ({ type: part.type, tool: part.toolName, output: part.output ?? part.error })),
  );
}

test("describeSandbox lists the commands the sandbox has now, custom ones included", async () => {
  const bash = new Bash({ customCommands: [defineCommand("frobnicate", async () => ({ stdout: "", exitCode: 0 }))] });
  const text = await describeSandbox(bash, { mounts: [{ path: "/data", readOnly: true }] });
  const commands = /Commands \((\d+)\): (.*)\./.exec(text);
  assert.ok(commands, text);
  const names = commands[2].split(" ");
  assert.equal(names.length, Number(commands[1]));
  for (const name of ["cat", "grep", "sed", "sort", "find", "frobnicate"]) {
    assert.ok(names.includes(name), `${name} in ${commands[2]}`);
  }
  // The same list the shell itself sees.
  const listed = (await bash.exec("ls /bin")).stdout.trim().split(/\s+/);
  assert.deepEqual(names.filter((name) => !listed.includes(name)), []);
  assert.match(text, /bash 5\.2/);
  assert.match(text, /\/data \(read-only\)/);
  assert.match(text, /Network: none/);
  assert.ok(text.length < 4000, `${text.length} characters`);
  const allowed = await describeSandbox(bash, { network: { allowedUrlPrefixes: ["https://api.example.com/"] } });
  assert.match(allowed, /only URLs starting with "https:\/\/api\.example\.com\/"/);
  // The probe leaves the session's state alone.
  await bash.exec("set -u; x=1; cd /tmp");
  const before = (await bash.exec('echo "$x $PWD $-"')).stdout;
  await describeSandbox(bash);
  assert.equal((await bash.exec('echo "$x $PWD $-"')).stdout, before);
  assert.match(before, /^1 \/tmp .*u/);
});

test("describeSandbox reads the mounts, network and limits from the Bash's own policy", async () => {
  const bash = new Bash({
    mounts: { "/srv/data": nodeDirectory(fileURLToPath(new URL(".", import.meta.url)), { readOnly: true }) },
    network: { allowedUrlPrefixes: ["https://api.example.com/v1/", "http://127.0.0.1:8080/"], allowedMethods: ["GET", "POST"] },
    executionLimits: { maxCommandCount: 500, maxDurationMs: 2_000 },
  });
  assert.deepEqual(bash.policy, {
    mounts: [{ path: "/srv/data", readOnly: true }],
    network: { allowedUrlPrefixes: ["https://api.example.com/v1/", "http://127.0.0.1:8080/"], allowedMethods: ["GET", "POST"] },
    limits: { maxCommandCount: 500, maxDurationMs: 2_000 },
  });
  const text = await describeSandbox(bash);
  assert.match(text, /Host directories mounted: \/srv\/data \(read-only\)\./);
  assert.match(text, /Network: only URLs starting with "https:\/\/api\.example\.com\/v1\/", "http:\/\/127\.0\.0\.1:8080\/" can be fetched with curl or wget \(methods GET, POST\)/);
  assert.match(text, /Limits: 2,000 ms per call, 500 commands per call;/);
  // Explicit options win.
  assert.match(await describeSandbox(bash, { network: {} }), /Network: none\./);
  assert.deepEqual(new Bash().policy, { mounts: [], limits: {} });
});

test("truncateForModel keeps the head and tail and says what was cut and how to see it", () => {
  const text = Array.from({ length: 1000 }, (_, index) => `line ${index + 1}`).join("\n") + "\n";
  const cut = truncateForModel(text, 600, "/tmp/out.txt");
  assert.ok(cut.length < 900);
  assert.ok(cut.startsWith("line 1\nline 2\n"));
  assert.ok(cut.endsWith("line 1000\n"));
  const note = /\[\.\.\. ([\d,]+) characters \(lines (\d+)-(\d+) of 1000\) cut here; the whole output is in \/tmp\/out\.txt; read the cut part with `sed -n '(\d+),(\d+)p' \/tmp\/out\.txt` \.\.\.\]/.exec(cut);
  assert.ok(note, cut);
  const [first, last] = [Number(note[2]), Number(note[3])];
  // The lines around the note are exactly the ones before and after the cut.
  assert.ok(cut.includes(`line ${first - 1}\n[...`));
  assert.ok(cut.includes(`...]\nline ${last + 1}\n`));
  assert.equal(truncateForModel("short", 600), "short");
});

test("generateText calls the tools: bash, writeFile, readFile, listFiles, with state across calls", async () => {
  const bash = new Bash();
  const tools = await createBashTools({ bash });
  const model = scriptedModel([
    [["bash", { script: "mkdir -p proj && cd proj && x=42 && echo made" }]],
    [["writeFile", { path: "notes.txt", content: "one\ntwo\nthree\n" }]],
    [["bash", { script: 'echo "x=$x in $PWD"; wc -l < notes.txt; echo oops >&2; exit 3' }]],
    [["readFile", { path: "notes.txt", startLine: 2, endLine: 3 }], ["listFiles", { path: "/home/user", recursive: true }]],
    [["readFile", { path: "missing.txt" }]],
  ]);
  const result = await generateText({ model, tools, stopWhen: stepCountIs(10), prompt: "work in the sandbox" });
  assert.equal(result.text, "done");
  assert.deepEqual(outcomes(result).slice(0, 5), [
    { type: "tool-result", tool: "bash", output: { stdout: "made\n", stderr: "", exitCode: 0 } },
    { type: "tool-result", tool: "writeFile", output: { path: "/home/user/proj/notes.txt", bytesWritten: 14 } },
    { type: "tool-result", tool: "bash", output: { stdout: "x=42 in /home/user/proj\n3\n", stderr: "oops\n", exitCode: 3 } },
    { type: "tool-result", tool: "readFile", output: { content: "two\nthree\n", totalLines: 3 } },
    { type: "tool-result", tool: "listFiles", output: { entries: ["proj/", "proj/notes.txt"] } },
  ]);
  const [missing] = outcomes(result).slice(5);
  assert.equal(missing.type, "tool-error");
  assert.match(String(missing.output?.message ?? missing.output), /readFile: missing\.txt: No such file or directory/);
  // What the model was told: the four tools, their schemas, and the sandbox.
  const sent = model.doGenerateCalls[0].tools;
  assert.deepEqual(sent.map((entry) => entry.name).sort(), ["bash", "listFiles", "readFile", "writeFile"]);
  const bashTool = sent.find((entry) => entry.name === "bash");
  assert.deepEqual(bashTool.inputSchema.required, ["script"]);
  assert.match(bashTool.description, /Commands \(\d+\): .*\bgrep\b/);
  assert.match(bashTool.description, /Network: none/);
});

test("long output is cut for the model, saved whole in the sandbox, and can be paged", async () => {
  const bash = new Bash();
  const tools = await createBashTools({ bash, maxOutputChars: 2_000 });
  const model = scriptedModel([[["bash", { script: "seq 1 20000" }]]]);
  const result = await generateText({ model, tools, stopWhen: stepCountIs(3), prompt: "count" });
  const { stdout } = outcomes(result)[0].output;
  assert.ok(stdout.length < 2_500, `${stdout.length}`);
  const note = /lines (\d+)-(\d+) of 20000\) cut here; the whole output is in (\S+); read the cut part with `(sed -n '\d+,\d+p' \S+)`/.exec(stdout);
  assert.ok(note, stdout);
  const paged = await bash.exec(`${note[4]} | head -n 2`);
  assert.equal(paged.stdout, `${note[1]}\n${Number(note[1]) + 1}\n`);
});

test("createSandboxSession gives the AI SDK sandbox-session shape over a Bash", async () => {
  const bash = new Bash({ files: { "/home/user/a.txt": "1\n2\n3\n" } });
  const session = await createSandboxSession(bash);
  assert.match(session.description, /Commands/);
  assert.deepEqual(await session.run({ command: "cd /tmp; pwd; cat a.txt 2>&1 | head -1" }), { exitCode: 0, stdout: "/tmp\ncat: a.txt: No such file or directory\n", stderr: "" });
  // A `cd` does not move the base directory.
  assert.equal((await session.run({ command: "cat a.txt | wc -l" })).stdout, "3\n");
  assert.equal((await session.run({ command: "pwd", workingDirectory: "/tmp" })).stdout, "/tmp\n");
  assert.equal((await session.run({ command: "echo $V", env: { V: "v" } })).stdout, "v\n");
  assert.equal(await session.readTextFile({ path: "a.txt", startLine: 2, endLine: 3 }), "2\n3\n");
  assert.equal(await session.readTextFile({ path: "nope" }), null);
  assert.equal(await session.readBinaryFile({ path: "nope" }), null);
  await session.writeTextFile({ path: "dir/b.txt", content: "bee" });
  await session.writeBinaryFile({ path: "c.bin", content: new Uint8Array([0, 1, 2]) });
  await session.writeFile({ path: "d.txt", content: new Blob(["stream"]).stream() });
  assert.equal(new TextDecoder().decode(await new Response(await session.readFile({ path: "d.txt" })).arrayBuffer()), "stream");
  assert.deepEqual(await session.stat({ path: "dir" }), { type: "directory", size: (await bash.fs.stat("/home/user/dir")).size });
  assert.deepEqual(await session.stat({ path: "c.bin" }), { type: "file", size: 3 });
  assert.equal(await session.stat({ path: "nope" }), null);
  assert.deepEqual(await session.listDirectory({ path: "dir" }), [{ name: "b.txt", type: "file" }]);
  assert.equal(await session.listDirectory({ path: "nope" }), null);
  assert.equal(await session.deleteFile({ path: "c.bin" }), true);
  assert.equal(await session.deleteFile({ path: "c.bin" }), false);
  await assert.rejects(session.deleteFile({ path: "dir" }), /Is a directory/);

  const process = await session.spawn({ command: "while read -r line; do echo \"got $line\"; done; echo bye >&2; exit 4", stdin: true });
  const writer = process.stdin.getWriter();
  await writer.write(new TextEncoder().encode("a\nb\n"));
  await writer.close();
  const [out, err, status] = await Promise.all([new Response(process.stdout).text(), new Response(process.stderr).text(), process.wait()]);
  assert.deepEqual([out, err, status], ["got a\ngot b\n", "bye\n", { exitCode: 4 }]);

  const sleeper = await session.spawn({ command: "echo start; sleep 30; echo never" });
  const reader = sleeper.stdout.getReader();
  assert.equal(new TextDecoder().decode((await reader.read()).value), "start\n");
  const started = Date.now();
  await sleeper.kill();
  assert.equal((await sleeper.wait()).exitCode, 130);
  assert.ok(Date.now() - started < 5_000);
});
