// The `wabash` CLI (dist/cli.js) as a user runs it: -c, script files with
// arguments, scripts on stdin, options, --mount, the interactive shell.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const CLI = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));

function wabash(args, input = "") {
  return spawnSync(process.execPath, [CLI, ...args], { input, encoding: "utf8", timeout: 30_000 });
}

function temporaryDirectory() {
  return mkdtempSync(join(tmpdir(), "wabash-cli-"));
}

test("--help explains the sandbox and exits 0", () => {
  const run = wabash(["--help"]);
  assert.equal(run.status, 0);
  assert.match(run.stdout, /usage: wabash/);
  assert.match(run.stdout, /Nothing outside the\s+sandbox is touched/);
});

test("a bad option is a usage error with status 2", () => {
  const run = wabash(["--bogus"]);
  assert.equal(run.status, 2);
  assert.equal(run.stderr, "wabash: --bogus: invalid option\n");
  assert.equal(wabash(["--env", "novalue", "-c", "true"]).status, 2);
  assert.equal(wabash(["--mount", "relative", "-c", "true"]).status, 2);
});

test("-c runs the script and returns its status", () => {
  const run = wabash(["-c", "echo hi | cat"]);
  assert.equal(run.stdout, "hi\n");
  assert.equal(run.status, 0);
  assert.equal(wabash(["-c", "false"]).status, 1);
  assert.equal(wabash(["-c", "true && false || true"]).status, 0);
});

test("-c passes NAME and arguments", () => {
  const run = wabash(["-c", 'echo "$1|$2"', "name", "a b", "it's"]);
  assert.equal(run.stdout, "a b|it's\n");
});

test("an unknown command prints bash's error and exits 127", () => {
  const run = wabash(["-c", "nosuchcommand"]);
  assert.equal(run.status, 127);
  assert.match(run.stderr, /nosuchcommand: command not found/);
});

test("a script file runs with its arguments", () => {
  const dir = temporaryDirectory();
  try {
    const script = join(dir, "script.sh");
    writeFileSync(script, 'echo "first: $1"\nfalse\n');
    const run = wabash([script, "one"]);
    assert.equal(run.stdout, "first: one\n");
    assert.equal(run.status, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a missing script file is status 127, as in bash", () => {
  const run = wabash(["/no/such/script.sh"]);
  assert.equal(run.status, 127);
  assert.equal(run.stderr, "wabash: /no/such/script.sh: No such file or directory\n");
});

test("a script on stdin runs", () => {
  const run = wabash([], "echo from stdin\ncd /tmp; pwd\n");
  assert.equal(run.stdout, "from stdin\n/tmp\n");
  assert.equal(run.status, 0);
});

test("-c reads piped stdin as the script's input", () => {
  assert.equal(wabash(["-c", "cat"], "piped\n").stdout, "piped\n");
});

test("--cwd and --env set up the sandbox", () => {
  const run = wabash(["--cwd", "/tmp", "--env", "A=1=2", "-c", 'pwd; echo "$A"']);
  assert.equal(run.stdout, "/tmp\n1=2\n");
});

test("--mount copies a host directory in and never writes it", () => {
  const dir = temporaryDirectory();
  try {
    mkdirSync(join(dir, "sub"));
    mkdirSync(join(dir, "empty"));
    writeFileSync(join(dir, "a.txt"), "alpha\n");
    writeFileSync(join(dir, "sub", "b.txt"), "beta\n");
    const before = readdirSync(dir, { recursive: true }).sort();
    const run = wabash(["--mount", `${dir}:/project`, "--cwd", "/project", "-c", "cat a.txt sub/b.txt; echo new > a.txt; echo x > c.txt; cat a.txt"]);
    assert.equal(run.stdout, "alpha\nbeta\nnew\n");
    assert.deepEqual(readdirSync(dir, { recursive: true }).sort(), before);
    assert.equal(readFileSync(join(dir, "a.txt"), "utf8"), "alpha\n");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("--mount loads files and directories even before the engine runs them", () => {
  const dir = temporaryDirectory();
  try {
    mkdirSync(join(dir, "empty"));
    writeFileSync(join(dir, "a.txt"), "alpha\n");
    const run = wabash(["--mount", `${dir}:/project`, "-c", "true"]);
    assert.equal(run.status, 0, run.stderr);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  assert.equal(wabash(["--mount", "/definitely/not/here:/x", "-c", "true"]).status, 1);
});

test("--mount DIR:PATH:ro refuses changes; :cow keeps them in memory; a bad mode is a usage error", () => {
  const dir = temporaryDirectory();
  try {
    writeFileSync(join(dir, "a.txt"), "alpha\n");
    const ro = wabash(["--mount", `${dir}:/ro:ro`, "-c", "cat /ro/a.txt; echo x > /ro/a.txt"]);
    assert.equal(ro.stdout, "alpha\n");
    assert.match(ro.stderr, /\/ro\/a\.txt: Read-only file system/);
    const cow = wabash(["--mount", `${dir}:/cow:cow`, "-c", "echo beta > /cow/a.txt; cat /cow/a.txt"]);
    assert.equal(cow.stdout, "beta\n");
    assert.equal(readFileSync(join(dir, "a.txt"), "utf8"), "alpha\n");
    assert.equal(wabash(["--mount", `${dir}:relative`, "-c", "true"]).status, 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the interactive shell prompts, continues incomplete input and exits at end of input", () => {
  const run = wabash(["-i"], "echo hi\necho 'two\nlines'\ncd /tmp\nfalse\n");
  assert.equal(run.status, 1);
  const lines = run.stdout.split("\n");
  assert.match(lines[0], /nothing outside the sandbox is touched/);
  assert.match(run.stdout, /user@sandbox:~\$ hi\n/);
  assert.match(run.stdout, /> two\nlines\n/);
  assert.match(run.stdout, /user@sandbox:\/tmp\$ /);
  assert.match(run.stdout, /exit\n$/);
});

test("the interactive shell leaves on exit with its status", () => {
  const run = wabash(["-i"], "exit 3\necho never\n");
  assert.equal(run.status, 3);
  assert.doesNotMatch(run.stdout, /never/);
});
