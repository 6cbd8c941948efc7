// The package as a user gets it: `npm pack`, installed offline from the
// tarball into an empty project, imported through the `node` condition, and
// its `wabash` bin run.
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
let work;
let project;
let packed;

before(() => {
  work = mkdtempSync(join(tmpdir(), "wabash-pack-"));
  const output = execFileSync(npm, ["pack", "--json", "--ignore-scripts", "--pack-destination", work], { cwd: ROOT, encoding: "utf8" });
  packed = JSON.parse(output)[0];
  project = join(work, "project");
  execFileSync("mkdir", ["-p", project]);
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "smoke", version: "1.0.0", type: "module", private: true }));
  execFileSync(npm, ["install", join(work, packed.filename), "--offline", "--no-audit", "--no-fund"], { cwd: project, encoding: "utf8" });
});

after(() => {
  rmSync(work, { recursive: true, force: true });
});

test("the tarball holds one .wasm, the entries and their types, and no sources", () => {
  const files = packed.files.map((file) => file.path);
  assert.deepEqual(files.filter((file) => file.endsWith(".wasm")), ["dist/wabash_bg.wasm"]);
  for (const entry of ["node", "browser", "workerd", "edge-light", "cli", "api"]) {
    assert.ok(files.includes(`dist/${entry}.js`), `dist/${entry}.js`);
  }
  assert.ok(files.includes("dist/api.d.ts"));
  assert.ok(!files.some((file) => file.startsWith("src/") || file.startsWith("js/") || file.startsWith("tests/")));
});

test("exports conditions come in the documented order", () => {
  const manifest = JSON.parse(readFileSync(join(project, "node_modules", "wabash", "package.json"), "utf8"));
  assert.deepEqual(Object.keys(manifest.exports["."]), ["types", "workerd", "edge-light", "browser", "node", "default"]);
  assert.deepEqual(manifest.dependencies ?? {}, {});
});

test("exec runs through the node entry of the installed package", () => {
  const script = `import { Bash } from "wabash";
    const bash = new Bash({ files: { "/home/user/in.txt": "packed\\n" } });
    const result = await bash.exec("echo hi | cat; cat in.txt");
    console.log(JSON.stringify(result));`;
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: project, encoding: "utf8", timeout: 30_000 });
  assert.equal(run.status, 0, run.stderr);
  assert.deepEqual(JSON.parse(run.stdout), { stdout: "hi\npacked\n", stderr: "", exitCode: 0, exited: false });
});

test("the installed package loads and answers without the engine's help", () => {
  const script = `import { Bash } from "wabash";
    const bash = new Bash();
    await bash.fs.writeFile("/a.txt", "ok");
    console.log(await bash.fs.readFile("/a.txt"));`;
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: project, encoding: "utf8", timeout: 30_000 });
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stdout, "ok\n");
});

test("the installed wabash bin runs -c and returns the script's status", () => {
  const bin = join(project, "node_modules", ".bin", "wabash");
  assert.equal(spawnSync(bin, ["-c", "echo hi"], { encoding: "utf8" }).stdout, "hi\n");
  assert.equal(spawnSync(bin, ["-c", "false"], { encoding: "utf8" }).status, 1);
});
