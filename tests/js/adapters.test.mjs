// The other agent frameworks, each through its own invocation path: Vercel's
// bash-tool given a Bash as its sandbox (run by generateText with the AI
// SDK's mock model), an OpenAI Agents SDK run with a scripted model, and
// LangChain tool calls as a LangGraph ToolNode makes them.
import assert from "node:assert/strict";
import { test } from "node:test";
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { createBashTool } from "bash-tool";
import { Agent, RunContext, Runner } from "@openai/agents";
import { Bash } from "../../dist/node.js";
import { createOpenAIAgentsTools } from "../../dist/openai-agents.js";
import { createLangChainTools } from "../../dist/langchain.js";

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

test("bash-tool's createBashTool takes a Bash as its sandbox", async () => {
  const bash = new Bash();
  const { tools } = await createBashTool({ sandbox: bash, destination: "/home/user/work", files: { "in.txt": "b\na\nc\n" } });
  assert.match(tools.bash.description, /\bsort\b/);
  let step = 0;
  const calls = [
    ["bash", { command: "sort in.txt | tee sorted.txt; n=7" }],
    ["writeFile", { path: "out/new.txt", content: "written" }],
    ["readFile", { path: "sorted.txt" }],
    ["bash", { command: "cat out/new.txt; echo \" $n\"; false" }],
  ];
  const model = new MockLanguageModelV3({
    doGenerate: async () => {
      const call = calls[step++];
      return call
        ? { content: [{ type: "tool-call", toolCallId: `c${step}`, toolName: call[0], input: JSON.stringify(call[1]) }], finishReason: { unified: "tool-calls", raw: "" }, usage, warnings: [] }
        : { content: [{ type: "text", text: "ok" }], finishReason: { unified: "stop", raw: "" }, usage, warnings: [] };
    },
  });
  const result = await generateText({ model, tools, stopWhen: stepCountIs(8), prompt: "go" });
  const outputs = result.steps.flatMap((s) => s.content.filter((part) => part.type === "tool-result").map((part) => part.output));
  assert.deepEqual(outputs[0], { stdout: "a\nb\nc\n", stderr: "", exitCode: 0 });
  assert.deepEqual(outputs[2], { content: "a\nb\nc\n" });
  assert.deepEqual(outputs[3], { stdout: "written 7\n", stderr: "", exitCode: 1 });
  assert.equal(await bash.fs.readFile("/home/user/work/out/new.txt"), "written");
});

/** A model for the Agents SDK that makes the given function calls, one turn each, then answers. */
function scriptedAgentsModel(turns) {
  let turn = 0;
  const requests = [];
  const respond = (request) => {
    requests.push(request);
    const calls = turns[turn++];
    const output = calls
      ? calls.map(([name, input], index) => ({ type: "function_call", callId: `call_${turn}_${index}`, name, arguments: JSON.stringify(input), status: "completed" }))
      : [{ type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: "finished" }] }];
    return { output, usage: { requests: 1, inputTokens: 1, outputTokens: 1, totalTokens: 2 }, responseId: `r${turn}` };
  };
  return {
    requests,
    model: {
      async getResponse(request) {
        return respond(request);
      },
      async *getStreamedResponse() {
        throw new Error("not streamed");
      },
    },
  };
}

test("OpenAI Agents: a Runner run calls the function tools on one Bash", async () => {
  const bash = new Bash();
  const tools = await createOpenAIAgentsTools({ bash });
  assert.deepEqual(tools.map((entry) => entry.name), ["bash", "read_file", "write_file", "list_files"]);
  for (const entry of tools) {
    assert.equal(entry.strict, true);
    assert.deepEqual(entry.parameters.required, Object.keys(entry.parameters.properties));
  }
  const { model, requests } = scriptedAgentsModel([
    [["write_file", { path: "a.txt", content: "x\ny\n" }]],
    [["bash", { script: "v=9; wc -l a.txt" }]],
    [["bash", { script: "echo $v; ls nope" }], ["read_file", { path: "a.txt", startLine: null, endLine: null }]],
    [["read_file", { path: "gone.txt", startLine: null, endLine: null }], ["list_files", { path: null, recursive: null }]],
  ]);
  const agent = new Agent({ name: "shell", instructions: "use the sandbox", model, tools });
  const result = await new Runner({ tracingDisabled: true }).run(agent, "do it");
  assert.equal(result.finalOutput, "finished");
  const outputs = result.newItems.filter((item) => item.type === "tool_call_output_item").map((item) => item.output);
  assert.deepEqual(outputs, [
    "wrote 4 bytes to /home/user/a.txt",
    "2 a.txt\n[exit code 0]",
    "9\n[stderr]\nls: cannot access 'nope': No such file or directory\n[exit code 2]",
    "x\ny\n",
    "readFile: gone.txt: No such file or directory",
    "a.txt",
  ]);
  // The model was offered the four tools with the sandbox description.
  const offered = requests[0].tools.filter((entry) => entry.type === "function");
  assert.deepEqual(offered.map((entry) => entry.name).sort(), ["bash", "list_files", "read_file", "write_file"]);
  assert.match(offered.find((entry) => entry.name === "bash").description, /Commands \(\d+\)/);
  // And a direct invoke, as the SDK's tool runner does it.
  assert.equal(await tools[0].invoke(new RunContext(), JSON.stringify({ script: "echo $v" })), "9\n[exit code 0]");
});

test("LangChain: tools invoked with arguments and with a model's tool call", async () => {
  const bash = new Bash();
  const tools = await createLangChainTools({ bash });
  const byName = Object.fromEntries(tools.map((entry) => [entry.name, entry]));
  assert.deepEqual(Object.keys(byName), ["bash", "read_file", "write_file", "list_files"]);
  assert.equal(await byName.write_file.invoke({ path: "/tmp/t.txt", content: "hello\n" }), "wrote 6 bytes to /tmp/t.txt");
  assert.equal(await byName.bash.invoke({ script: "cd /tmp; n=3; tr a-z A-Z < t.txt" }), "HELLO\n[exit code 0]");
  // A tool call as a chat model emits it (what LangGraph's ToolNode passes): a ToolMessage comes back.
  const message = await byName.bash.invoke({ type: "tool_call", id: "call_1", name: "bash", args: { script: "echo $n $PWD" } });
  assert.equal(message.tool_call_id, "call_1");
  assert.equal(message.content, "3 /tmp\n[exit code 0]");
  assert.equal(await byName.read_file.invoke({ path: "t.txt" }), "hello\n");
  assert.equal(await byName.read_file.invoke({ path: "/nope" }), "Error: readFile: /nope: No such file or directory");
  assert.equal(await byName.list_files.invoke({ path: "/tmp" }), "t.txt");
  // Bad arguments fail in LangChain's own schema check, before the sandbox.
  await assert.rejects(byName.bash.invoke({ nope: 1 }), /schema|script/i);
});
