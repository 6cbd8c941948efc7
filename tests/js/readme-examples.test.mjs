// The README's "Host API" section cannot drift from the package: every
// ```js block in it is run, as written, against the built package (its
// `from "wabash"` pointed at dist/node.js), each in its own Node process
// and its own temporary directory. The blocks check themselves with
// node:assert, so a wrong output fails here.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));
const entry = pathToFileURL(join(root, "dist", "node.js")).href;

/** The ```js blocks of the README section headed `## Host API`, in order. */
function hostApiBlocks() {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const start = readme.indexOf("\n## Host API\n");
  assert.ok(start >= 0, "README.md has a Host API section");
  const next = readme.indexOf("\n## ", start + 1);
  const section = readme.slice(start, next < 0 ? undefined : next);
  return [...section.matchAll(/^```js\n([\s\S]*?)^```$/gm)].map((match) => match[1]);
}

const blocks = hostApiBlocks();

test("the Host API section has an example for each group of options", () => {
  assert.ok(blocks.length >= 8, `${blocks.length} blocks`);
  const all = blocks.join("\n");
  for (const option of [
    "files:",
    "cwd:",
    "env:",
    "mounts:",
    "allowedUrlPrefixes",
    "allowedMethods",
    "headers:",
    "onRequest",
    "fetch:",
    "executionLimits",
    "memoryLimit",
    "crashRecovery",
    "onCrash",
    "customCommands",
    "streamStdin",
    "defenseInDepth",
    "signal:",
    "timeoutMs",
    "stdin:",
    "onStdout",
    "args:",
    "snapshot()",
    "Bash.restore",
    "mountChanges",
    "mountPatch",
    "mountFiles",
    "mountDirectory",
    "mapDirectory",
    "nodeDirectory",
    "onStderr",
    "arg0",
    "maxRedirects",
    "maxResponseSize",
    "maxRequestSize",
    "resets",
    "restores",
  ]) {
    assert.ok(all.includes(option), `no example shows ${option}`);
  }
});

for (const [index, block] of blocks.entries()) {
  const title = block.split("\n").find((line) => line.startsWith("const ") || line.startsWith("await ")) ?? "";
  test(`README Host API example ${index + 1} runs: ${title.slice(0, 60)}`, () => {
    const dir = mkdtempSync(join(tmpdir(), "wabash-readme-"));
    try {
      const file = join(dir, "example.mjs");
      writeFileSync(file, block.replaceAll('from "wabash"', `from ${JSON.stringify(entry)}`));
      const run = spawnSync(process.execPath, [file], { cwd: dir, encoding: "utf8", timeout: 60_000 });
      assert.equal(run.status, 0, `example ${index + 1} failed:\n${block}\n--- stderr:\n${run.stderr}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
