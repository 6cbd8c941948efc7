// wabash/ai under the AI SDK v7 on Node 22 (run by tests/js/ai-v7.test.mjs
// with the Node 22 binary this folder installs): v7's mock language model
// calls the four tools through generateText, and a tool reads the
// `experimental_sandbox` session that generateText hands it, made by
// createSandboxSession. Exits non-zero on the first failed check and prints
// one JSON line of what ran.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { generateText, stepCountIs, tool, jsonSchema } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { Bash } from "wabash";
import { createBashTools, createSandboxSession } from "wabash/ai";

const aiVersion = JSON.parse(readFileSync(new URL("./node_modules/ai/package.json", import.meta.url), "utf8")).version;
assert.match(aiVersion, /^7\./, `ai ${aiVersion} is not v7`);
assert.ok(Number(process.versions.node.split(".")[0]) >= 22, `Node ${process.version} is older than 22`);

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** A v4 mock model that makes the given tool calls, one step each, then answers "done". */
function scriptedModel(steps) {
  let step = 0;
  return new MockLanguageModelV4({
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

const bash = new Bash();
const tools = await createBashTools({ bash, maxOutputChars: 2_000 });
const model = scriptedModel([
  [["bash", { script: "mkdir -p proj && cd proj && x=42 && echo made" }]],
  [["writeFile", { path: "notes.txt", content: "one\ntwo\nthree\n" }]],
  [["bash", { script: 'echo "x=$x in $PWD"; wc -l < notes.txt; echo oops >&2; exit 3' }]],
  [["readFile", { path: "notes.txt", startLine: 2, endLine: 3 }], ["listFiles", { path: "/home/user", recursive: true }]],
  [["bash", { script: "seq 1 20000" }]],
  [["readFile", { path: "missing.txt" }]],
]);
const result = await generateText({ model, tools, stopWhen: stepCountIs(10), prompt: "work in the sandbox" });
assert.equal(result.text, "done");
const seen = outcomes(result);
assert.deepEqual(seen.slice(0, 5), [
  { type: "tool-result", tool: "bash", output: { stdout: "made\n", stderr: "", exitCode: 0 } },
  { type: "tool-result", tool: "writeFile", output: { path: "/home/user/proj/notes.txt", bytesWritten: 14 } },
  { type: "tool-result", tool: "bash", output: { stdout: "x=42 in /home/user/proj\n3\n", stderr: "oops\n", exitCode: 3 } },
  { type: "tool-result", tool: "readFile", output: { content: "two\nthree\n", totalLines: 3 } },
  { type: "tool-result", tool: "listFiles", output: { entries: ["proj/", "proj/notes.txt"] } },
]);
assert.match(seen[5].output.stdout, /cut here; the whole output is in \S+; read the cut part with `sed -n/);
assert.ok(seen[5].output.stdout.length < 2_500);
assert.equal(seen[6].type, "tool-error");
assert.match(String(seen[6].output?.message ?? seen[6].output), /readFile: missing\.txt: No such file or directory/);
const sent = model.doGenerateCalls[0].tools;
assert.deepEqual(sent.map((entry) => entry.name).sort(), ["bash", "listFiles", "readFile", "writeFile"]);
assert.match(sent.find((entry) => entry.name === "bash").description, /bash 5\.2.*Commands \(\d+\): .*\bgrep\b/s);

// v7 hands `experimental_sandbox` to every tool's execute; ours is a Bash.
const sandboxBash = new Bash({ files: { "/home/user/data.txt": "b\na\nc\n" } });
const session = await createSandboxSession(sandboxBash);
const viaSandbox = tool({
  description: "sorts a file in the sandbox the SDK hands over",
  inputSchema: jsonSchema({ type: "object", properties: { path: { type: "string" } }, required: ["path"] }),
  execute: async ({ path }, options) => {
    const sandbox = options.experimental_sandbox;
    const run = await sandbox.run({ command: `sort ${path}` });
    const text = await sandbox.readTextFile({ path, startLine: 2, endLine: 2 });
    return { sorted: run.stdout, second: text, description: sandbox.description.includes("bash 5.2") };
  },
});
const sandboxed = await generateText({
  model: scriptedModel([[["sorter", { path: "data.txt" }]]]),
  tools: { sorter: viaSandbox },
  experimental_sandbox: session,
  stopWhen: stepCountIs(3),
  prompt: "sort",
});
assert.deepEqual(outcomes(sandboxed), [{ type: "tool-result", tool: "sorter", output: { sorted: "a\nb\nc\n", second: "a\n", description: true } }]);

console.log(JSON.stringify({ node: process.version, ai: aiVersion, toolResults: seen.length, sandboxSession: "ok" }));
