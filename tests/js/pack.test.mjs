// The package as a user gets it: `npm pack` once, installed offline from the
// tarball into one consumer project, then used the ways projects use it:
// Node ESM, Node CommonJS (require), TypeScript type-checking the public API
// and every subpath (moduleResolution bundler and node16), an esbuild
// browser bundle loading the .wasm in headless Chromium, the `wabash` bin,
// and Bun and Deno where they are installed. The integrations' frameworks
// (optional peer dependencies) are linked from this checkout's node_modules.
import assert from "node:assert/strict";
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const PEERS = ["ai", "@ai-sdk", "zod", "@modelcontextprotocol", "@openai", "@langchain", "@types", "bash-tool"];
let work;
let project;
let packed;
let tarball;

before(() => {
  work = mkdtempSync(join(tmpdir(), "wabash-pack-"));
  const output = execFileSync(npm, ["pack", "--json", "--ignore-scripts", "--pack-destination", work], { cwd: ROOT, encoding: "utf8" });
  packed = JSON.parse(output)[0];
  tarball = join(work, packed.filename);
  project = join(work, "project");
  mkdirSync(project);
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "smoke", version: "1.0.0", type: "module", private: true }));
  execFileSync(npm, ["install", tarball, "--offline", "--no-audit", "--no-fund"], { cwd: project, encoding: "utf8" });
  // The frameworks, as a project using an integration has them installed
  // (linked: their own dependencies resolve from this checkout).
  for (const name of PEERS) {
    const source = join(ROOT, "node_modules", name);
    if (existsSync(source) && !existsSync(join(project, "node_modules", name))) {
      symlinkSync(source, join(project, "node_modules", name), "dir");
    }
  }
});

after(() => {
  rmSync(work, { recursive: true, force: true });
});

/** Runs a file of the consumer project with Node; returns the finished process. */
function node(file, source, args = []) {
  writeFileSync(join(project, file), source);
  return spawnSync(process.execPath, [...args, file], { cwd: project, encoding: "utf8", timeout: 60_000 });
}

test("the tarball holds one .wasm, the entries, their types and the README, and no sources", (t) => {
  const files = packed.files.map((file) => file.path);
  assert.deepEqual(files.filter((file) => file.endsWith(".wasm")), ["dist/wabash_bg.wasm"]);
  for (const entry of ["node", "browser", "workerd", "edge-light", "cli", "api", "ai", "mcp", "openai-agents", "langchain", "describe"]) {
    assert.ok(files.includes(`dist/${entry}.js`), `dist/${entry}.js`);
    if (entry !== "cli") {
      assert.ok(files.includes(`dist/${entry}.d.ts`), `dist/${entry}.d.ts`);
    }
  }
  assert.ok(files.includes("README.md"));
  assert.ok(!files.some((file) => file.startsWith("src/") || file.startsWith("js/") || file.startsWith("tests/")));
  const wasm = packed.files.find((file) => file.path === "dist/wabash_bg.wasm").size;
  t.diagnostic(`tarball ${packed.filename}: ${packed.size} bytes packed, ${packed.unpackedSize} unpacked, ${files.length} files; wasm ${wasm} bytes`);
  assert.equal(statSync(tarball).size, packed.size);
});

test("exports: conditions in the documented order, one subpath per integration, no runtime dependencies", () => {
  const manifest = JSON.parse(readFileSync(join(project, "node_modules", "wabash", "package.json"), "utf8"));
  assert.deepEqual(Object.keys(manifest.exports["."]), ["types", "workerd", "edge-light", "browser", "node", "default"]);
  for (const subpath of ["./ai", "./mcp", "./openai-agents", "./langchain"]) {
    assert.deepEqual(Object.keys(manifest.exports[subpath]), ["types", "default"], subpath);
  }
  assert.deepEqual(manifest.dependencies ?? {}, {});
  for (const peer of Object.keys(manifest.peerDependencies)) {
    assert.equal(manifest.peerDependenciesMeta[peer]?.optional, true, peer);
  }
});

test("Node ESM: exec runs through the node entry of the installed package", () => {
  const run = node(
    "esm.mjs",
    `import { Bash } from "wabash";
    const bash = new Bash({ files: { "/home/user/in.txt": "packed\\n" } });
    const result = await bash.exec("echo hi | cat; cat in.txt");
    await bash.fs.writeFile("/a.txt", "ok");
    console.log(JSON.stringify({ ...result, file: await bash.fs.readFile("/a.txt") }));`,
  );
  assert.equal(run.status, 0, run.stderr);
  assert.deepEqual(JSON.parse(run.stdout), { stdout: "hi\npacked\n", stderr: "", exitCode: 0, exited: false, file: "ok" });
});

test("Node CommonJS: require('wabash') works (Node 20.19+, 22.12+), else names import()", () => {
  const run = node(
    "cjs.cjs",
    `let api;
    try {
      api = require("wabash");
    } catch (error) {
      console.log(JSON.stringify({ requireFailed: error.code, message: error.message }));
      process.exit(0);
    }
    new api.Bash().exec("echo required").then((result) => console.log(JSON.stringify(result)));`,
    ["--no-warnings"],
  );
  assert.equal(run.status, 0, run.stderr);
  const result = JSON.parse(run.stdout);
  if (process.features.require_module) {
    assert.equal(result.stdout, "required\n");
  } else {
    assert.equal(result.requireFailed, "ERR_REQUIRE_ESM");
    assert.match(result.message, /import\(\)/);
  }
});

test("the subpaths load and work from the installed package", () => {
  const run = node(
    "subpaths.mjs",
    `import { Bash, describeSandbox } from "wabash";
    import { createBashTools, createSandboxSession } from "wabash/ai";
    import { createMcpServer } from "wabash/mcp";
    import { createOpenAIAgentsTools } from "wabash/openai-agents";
    import { createLangChainTools } from "wabash/langchain";
    const bash = new Bash();
    const ai = await createBashTools({ bash });
    const out = await ai.bash.execute({ script: "echo from-ai" }, { toolCallId: "1", messages: [] });
    const openai = await createOpenAIAgentsTools({ bash });
    const langchain = await createLangChainTools({ bash });
    const server = await createMcpServer({ bash });
    const session = await createSandboxSession(bash);
    console.log(JSON.stringify({
      ai: out.stdout, keys: Object.keys(ai),
      openai: openai.map((t) => t.name), langchain: await langchain[0].invoke({ script: "echo lc" }),
      mcp: typeof server.connect, session: (await session.run({ command: "echo s" })).stdout,
      described: (await describeSandbox(bash)).includes("grep"),
    }));`,
  );
  assert.equal(run.status, 0, run.stderr);
  assert.deepEqual(JSON.parse(run.stdout), {
    ai: "from-ai\n",
    keys: ["bash", "readFile", "writeFile", "listFiles"],
    openai: ["bash", "read_file", "write_file", "list_files"],
    langchain: "lc\n[exit code 0]",
    mcp: "function",
    session: "s\n",
    described: true,
  });
});

/** A TypeScript consumer of the public API and every subpath. */
const CONSUMER_TS = `import { Bash, WabashError, defineCommand, describeSandbox, type BashOptions, type ExecResult } from "wabash";
import { createBashTools, createSandboxSession, type BashTools, type SandboxSession } from "wabash/ai";
import { createMcpServer, serveStdio, type McpServerOptions } from "wabash/mcp";
import { createOpenAIAgentsTools, type SandboxFunctionTool } from "wabash/openai-agents";
import { createLangChainTools } from "wabash/langchain";
import { generateText, stepCountIs, type LanguageModel } from "ai";
import { Agent } from "@openai/agents";

const options: BashOptions = { files: { "/a.txt": "a" }, executionLimits: { maxCommandCount: 10 } };
const bash = new Bash({ ...options, customCommands: [defineCommand("hi", async () => ({ stdout: "hi\\n", exitCode: 0 }))] });
const result: ExecResult = await bash.exec("hi");
const code: number = result.exitCode;
const prompt: string = await describeSandbox(bash, { mounts: [{ path: "/data", readOnly: true }] });
const tools: BashTools = await createBashTools({ bash, maxOutputChars: 1000 });
declare const model: LanguageModel;
export const run = () => generateText({ model, tools, stopWhen: stepCountIs(5), prompt });
const session: SandboxSession = await createSandboxSession(bash);
const mcpOptions: McpServerOptions = { bash, timeoutMs: 1000 };
export const mcp = () => [createMcpServer(mcpOptions), serveStdio];
const openai: SandboxFunctionTool[] = await createOpenAIAgentsTools({ bash });
export const agent = new Agent({ name: "a", instructions: prompt, tools: openai });
const langchain = await createLangChainTools({ bash });
export const names: string[] = langchain.map((tool) => tool.name);
export { code, session, WabashError };
// Probes that fail if a declaration degrades to \`any\` (skipLibCheck hides errors inside .d.ts files).
// @ts-expect-error the AI SDK's Tool type is real
tools.bash.notAToolField.x;
// @ts-expect-error the Agents SDK's FunctionTool type is real
openai[0].notAToolField.x;
// @ts-expect-error LangChain's tool type is real
langchain[0].notAToolField.x;
// @ts-expect-error the options are checked
await createBashTools({});
`;

for (const [name, compilerOptions] of [
  ["bundler", { module: "esnext", moduleResolution: "bundler" }],
  ["node16", { module: "node16", moduleResolution: "node16" }],
]) {
  test(`TypeScript (moduleResolution ${name}) type-checks the public API and each subpath`, { timeout: 300_000 }, () => {
    const dir = join(project, `ts-${name}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module", private: true }));
    writeFileSync(join(dir, "index.ts"), CONSUMER_TS);
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        // skipLibCheck: checking the frameworks' own declarations takes minutes; the probes
        // at the end of index.ts catch a wabash declaration that lost its types.
        compilerOptions: { ...compilerOptions, target: "es2022", strict: true, noEmit: true, skipLibCheck: true, types: ["node"], lib: ["es2022", "dom"] },
        files: ["index.ts"],
      }),
    );
    const run = spawnSync(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", dir], { cwd: dir, encoding: "utf8", timeout: 300_000 });
    assert.equal(run.stdout, "");
    assert.equal(run.status, 0, run.stderr);
  });
}

test("the wabash bin runs -c and returns the script's status", () => {
  const bin = join(project, "node_modules", ".bin", "wabash");
  assert.equal(spawnSync(bin, ["-c", "echo hi"], { encoding: "utf8" }).stdout, "hi\n");
  assert.equal(spawnSync(bin, ["-c", "false"], { encoding: "utf8" }).status, 1);
});

/** Where Chromium is, if it is installed. */
function chromium() {
  for (const candidate of ["chromium", "chromium-browser", "google-chrome"]) {
    const found = spawnSync("sh", ["-c", `command -v ${candidate}`], { encoding: "utf8" }).stdout.trim();
    if (found) {
      return found;
    }
  }
  return undefined;
}

test("esbuild bundles the browser entry; the page loads the .wasm next to the bundle and runs a script", async (t) => {
  const out = join(project, "web");
  mkdirSync(out, { recursive: true });
  writeFileSync(
    join(project, "web-entry.js"),
    `import { Bash } from "wabash";
    const bash = new Bash();
    bash.exec("echo from the browser | tr a-z A-Z; uname -s").then(
      (result) => fetch("/result", { method: "POST", body: JSON.stringify(result) }),
      (error) => fetch("/result", { method: "POST", body: JSON.stringify({ error: String(error) }) }),
    );`,
  );
  const esbuild = await import(join(ROOT, "node_modules", "esbuild", "lib", "main.js"));
  const built = await esbuild.build({
    entryPoints: [join(project, "web-entry.js")],
    bundle: true,
    format: "esm",
    platform: "browser",
    outfile: join(out, "app.js"),
    absWorkingDir: project,
    logLevel: "silent",
  });
  assert.deepEqual(built.errors, []);
  const bundle = readFileSync(join(out, "app.js"), "utf8");
  // The bundle took the browser entry and looks for the engine next to itself.
  assert.match(bundle, /new URL\("\.\/wabash_bg\.wasm", import\.meta\.url\)/);
  assert.doesNotMatch(bundle, /node:fs/);
  // The one deployment step esbuild leaves to the user: the .wasm next to the bundle.
  copyFileSync(join(project, "node_modules", "wabash", "dist", "wabash_bg.wasm"), join(out, "wabash_bg.wasm"));
  writeFileSync(join(out, "index.html"), `<!doctype html><script type="module" src="./app.js"></script>`);

  const browser = chromium();
  if (!browser) {
    t.skip("Chromium is not installed (apt-get install chromium)");
    return;
  }
  const types = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm" };
  let report;
  const reported = new Promise((resolve) => {
    report = resolve;
  });
  const server = createServer((request, response) => {
    if (request.method === "POST") {
      let body = "";
      request.on("data", (chunk) => (body += chunk));
      request.on("end", () => {
        response.end();
        report(JSON.parse(body));
      });
      return;
    }
    const path = join(out, request.url === "/" ? "index.html" : request.url.slice(1));
    if (!existsSync(path)) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { "content-type": types[path.slice(path.lastIndexOf("."))] ?? "application/octet-stream" });
    response.end(readFileSync(path));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${server.address().port}/`;
  const profile = join(work, "chromium-profile");
  const child = spawn(browser, ["--headless=new", "--no-sandbox", "--disable-gpu", `--user-data-dir=${profile}`, url], { stdio: "ignore" });
  try {
    const timeout = new Promise((resolve) => setTimeout(() => resolve({ error: "no result from the page in 60 s" }), 60_000));
    const result = await Promise.race([reported, timeout]);
    assert.deepEqual(result, { stdout: "FROM THE BROWSER\nLinux\n", stderr: "", exitCode: 0, exited: false });
  } finally {
    child.kill();
    server.close();
  }
});

for (const runtime of ["bun", "deno"]) {
  test(`${runtime} runs the installed package`, (t) => {
    const found = spawnSync("sh", ["-c", `command -v ${runtime}`], { encoding: "utf8" }).stdout.trim();
    if (!found) {
      const reason = `${runtime} is not installed (npm install -g ${runtime} brings it from the npm registry)`;
      // In CI scripts/setup.sh installs it, so a missing one is a failure there.
      assert.ok(!process.env.CI, `in CI: ${reason}`);
      process.stderr.write(`\n*** SKIPPED: the ${runtime} packaging check: ${reason} ***\n\n`);
      t.skip(reason);
      return;
    }
    writeFileSync(
      join(project, `${runtime}.mjs`),
      `import { Bash } from "wabash";
      const result = await new Bash().exec("echo $((6 * 7)) | cat");
      console.log(JSON.stringify(result));`,
    );
    const args = runtime === "deno" ? ["run", "--allow-read", "--allow-env", `${runtime}.mjs`] : [`${runtime}.mjs`];
    const run = spawnSync(found, args, { cwd: project, encoding: "utf8", timeout: 60_000, env: { ...process.env, NO_COLOR: "1" } });
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), { stdout: "42\n", stderr: "", exitCode: 0, exited: false });
    t.diagnostic(`${runtime} --version: ${spawnSync(found, ["--version"], { encoding: "utf8" }).stdout.trim().split("\n")[0]}`);
  });
}
