// `wabash mcp` driven by the MCP SDK's own stdio client, as an MCP host runs
// it: the handshake, the tool list, scripts with state kept across calls,
// files, errors, mounts and the config file, and a clean exit when the
// client closes.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer } from "node:http";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const CLI = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));
let work;

before(() => {
  work = mkdtempSync(join(tmpdir(), "wabash-mcp-"));
  mkdirSync(join(work, "data", "sub"), { recursive: true });
  writeFileSync(join(work, "data", "report.txt"), "alpha\nbeta\n");
  writeFileSync(join(work, "data", "sub", "deep.txt"), "deep\n");
});

after(() => {
  rmSync(work, { recursive: true, force: true });
});

/** Starts `wabash mcp ARGS` and connects the SDK client to it. */
async function connect(args) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp", ...args], stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (chunk) => {
    stderr += chunk;
  });
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(transport);
  const exited = new Promise((resolve) => {
    transport._process.once("exit", (code, signal) => resolve({ code, signal, stderr }));
  });
  return { client, transport, exited };
}

/** The text of a tool result. */
function text(result) {
  return result.content.map((part) => part.text).join("");
}

test("wabash mcp serves the four tools; state persists; errors are tool errors; it exits when the client closes", async () => {
  const { client, exited } = await connect(["--mount", `${join(work, "data")}:/data:ro`, "--cwd", "/data", "--max-output-chars", "500"]);
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((entry) => entry.name), ["bash", "read_file", "write_file", "list_files"]);
  const bashTool = tools.find((entry) => entry.name === "bash");
  assert.deepEqual(bashTool.inputSchema.required, ["script"]);
  assert.match(bashTool.description, /\/data \(read-only\)/);
  assert.match(bashTool.description, /Commands \(\d+\): .*\bgrep\b/);
  assert.match(client.getInstructions() ?? "", /sandboxed bash/);

  const first = await client.callTool({ name: "bash", arguments: { script: "count=$(wc -l < report.txt); cd sub; echo started" } });
  assert.equal(text(first), "started\n[exit code 0]");
  assert.equal(first.isError, undefined);
  const second = await client.callTool({ name: "bash", arguments: { script: 'echo "$count lines, in $PWD"; cat deep.txt' } });
  assert.equal(text(second), "2 lines, in /data/sub\ndeep\n[exit code 0]");

  const failed = await client.callTool({ name: "bash", arguments: { script: "grep zeta /data/report.txt" } });
  assert.equal(text(failed), "[exit code 1]");
  assert.equal(failed.isError, true);
  const readOnly = await client.callTool({ name: "bash", arguments: { script: "echo x > /data/report.txt" } });
  assert.match(text(readOnly), /Read-only file system/);

  assert.equal(text(await client.callTool({ name: "read_file", arguments: { path: "/data/report.txt", startLine: 2 } })), "beta\n");
  const missing = await client.callTool({ name: "read_file", arguments: { path: "nope.txt" } });
  assert.equal(missing.isError, true);
  assert.equal(text(missing), "readFile: nope.txt: No such file or directory");
  assert.equal(text(await client.callTool({ name: "write_file", arguments: { path: "/tmp/w.txt", content: "hi" } })), "wrote 2 bytes to /tmp/w.txt");
  assert.equal(text(await client.callTool({ name: "bash", arguments: { script: "cat /tmp/w.txt" } })), "hi[exit code 0]".replace("[", "\n["));
  assert.equal(text(await client.callTool({ name: "list_files", arguments: { path: "/data", recursive: true } })), "report.txt\nsub/\nsub/deep.txt");

  const long = text(await client.callTool({ name: "bash", arguments: { script: "seq 1 5000" } }));
  assert.match(long, /cut here; the whole output is in \/tmp\/\.tool-output\/1\.stdout/);
  assert.ok(long.length < 800, `${long.length}`);

  const unknown = await client.callTool({ name: "nope", arguments: {} });
  assert.equal(unknown.isError, true);

  await client.close();
  const { code, stderr } = await exited;
  assert.equal(code, 0, stderr);
});

test("--allow-url lets curl reach the allowed prefix only", async () => {
  const server = createServer((request, response) => response.end(`served ${request.url}\n`));
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${server.address().port}`;
  try {
    const { client, exited } = await connect(["--allow-url", `${base}/api/`]);
    const { tools } = await client.listTools();
    assert.match(tools[0].description, /only URLs starting with "http:\/\/127\.0\.0\.1:\d+\/api\/" can be fetched with curl or wget \(methods GET, HEAD\)/);
    assert.equal(text(await client.callTool({ name: "bash", arguments: { script: `curl -s ${base}/api/x` } })), "served /api/x\n[exit code 0]");
    const refused = await client.callTool({ name: "bash", arguments: { script: `curl -s ${base}/private` } });
    assert.equal(refused.isError, true);
    assert.doesNotMatch(text(refused), /served/);
    await client.close();
    assert.equal((await exited).code, 0);
  } finally {
    server.close();
  }
});

test("wabash mcp reads a JSON config file; bad flags are usage errors", async () => {
  const config = join(work, "config.json");
  writeFileSync(
    config,
    JSON.stringify({
      mounts: [{ host: "data", path: "/srv" }],
      network: { allowedUrlPrefixes: ["https://example.com/api/"] },
      env: { GREETING: "hello" },
      executionLimits: { maxCommandCount: 50 },
    }),
  );
  const { client, exited } = await connect(["--config", config, "--limit", "maxLoopIterations=1000"]);
  const { tools } = await client.listTools();
  const description = tools.find((entry) => entry.name === "bash").description;
  assert.match(description, /\/srv \(read-write/);
  assert.match(description, /only URLs starting with "https:\/\/example\.com\/api\/"/);
  assert.match(description, /50 commands per call, 1,000 loop iterations per call/);
  assert.equal(text(await client.callTool({ name: "bash", arguments: { script: "echo $GREETING; cat /srv/report.txt | head -1" } })), "hello\nalpha\n[exit code 0]");
  const limited = await client.callTool({ name: "bash", arguments: { script: "for i in $(seq 100); do :; done; true" } });
  assert.match(text(limited), /command limit \(50\) exceeded/);
  await client.close();
  assert.equal((await exited).code, 0);

  const { spawnSync } = await import("node:child_process");
  const bad = spawnSync(process.execPath, [CLI, "mcp", "--mount", "relative"], { encoding: "utf8", input: "" });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--mount relative: expected HOSTDIR:\/SANDBOXDIR\[:ro\|:cow\]/);
  const help = spawnSync(process.execPath, [CLI, "mcp", "--help"], { encoding: "utf8" });
  assert.equal(help.status, 0);
  assert.match(help.stdout, /usage: wabash mcp/);
});
