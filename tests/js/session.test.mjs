// Session integrity through the built package, used the way agents use it:
// one Bash, hundreds of execs over real data sizes. After every exec the
// state set at the start (a marker file, a variable, a function, the cwd,
// an option) must still be there; crashes in the middle must bring the
// session back (or say plainly that it was reset); a seeded random session
// must agree with a model of its files and variables.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { Bash, defineCommand } from "../../dist/node.js";
import { crashForTesting } from "../../dist/bash.js";

const upper = defineCommand("upper", async (_args, ctx) => ({ stdout: ctx.stdin.toUpperCase(), exitCode: 0 }));
const PROBE = 'echo "$marker|$(greet)|$PWD|$(cat /home/user/w/k)|$(wc -l < /home/user/w/big)|$(shopt -q extglob && echo on)"';
const INTACT = "42|hi|/home/user/w|keep|200000|on\n";

/** The steps of the long session; `{ abort: ms }` aborts the exec after that long, `crash` traps the engine. */
const STEPS = [
  "cut -c1-3 big | sort | uniq -c | sort -rn | head -3",
  "grep -c 7 big",
  "sed -n 's/9$/nine/p' big | wc -l",
  "tr 0-9 a-j < big | tail -1",
  "sort -rn big | head -2",
  "cat big | upper | wc -l",
  "paste -d, <(seq 5) <(seq 6 10) | tail -1",
  "while read -r l; do :; done < <(head -2000 big); echo read",
  "sleep 0.01 & sleep 0.01 & wait; echo waited",
  "cat <<EOF | wc -c\n$(seq 1000)\nEOF",
  "exec 3>out.txt; echo x >&3; exec 3>&-; cat out.txt",
  "if then",
  "nosuchcommand",
  "echo $(( 1 / 0 ))",
  "for i in $(seq 2000000); do :; done",
  { script: "while :; do :; done", abort: 30 },
  "xargs -n 1000 echo < big | wc -l",
  "split -l 50000 big part && ls part* | wc -l && rm part*",
  "upper <<< 'here string' | tr A-Z a-z",
  "f() { local x=$1; echo $((x*2)); }; f 21",
  "grep . big | wc -l",
  "sort big | uniq -c | wc -l",
  "cut -d' ' -f1 big | sort -u | wc -l",
  "{ echo a; echo b >&2; } 2>&1 | cat",
  "set -e; false; echo unreachable",
  "(cd /tmp && pwd)",
  "x=$(seq 100000 | tail -1); echo $x",
  "head -c 1000000 /dev/zero | tr '\\0' a | wc -c",
];

test("one Bash, 500 execs over a 200,000-line file: the session's state is never lost", { timeout: 600_000 }, async () => {
  const bash = new Bash({ customCommands: [upper], executionLimits: { maxLoopIterations: 1_000_000 } });
  const setup = await bash.exec(
    "marker=42; greet() { echo hi; }; mkdir -p /home/user/w && cd /home/user/w && echo keep > k && seq 200000 > big && shopt -s extglob",
  );
  assert.equal(setup.exitCode, 0, setup.stderr);
  assert.equal((await bash.exec(PROBE)).stdout, INTACT);
  const started = Date.now();
  let execs = 0;
  for (let i = 0; i < 500; i++) {
    const step = STEPS[i % STEPS.length];
    const script = typeof step === "string" ? step : step.script;
    if (i % 125 === 124) {
      await assert.rejects(bash[crashForTesting](), { code: "WABASH_TRAP", recovery: "restored" });
    } else {
      const signal = typeof step === "object" ? AbortSignal.timeout(step.abort) : undefined;
      await bash.exec(script, signal ? { signal } : {});
    }
    execs += 1;
    const probe = await bash.exec(PROBE);
    execs += 1;
    assert.equal(probe.stdout, INTACT, `after step ${i} (${JSON.stringify(script)}): ${probe.stderr}`);
  }
  assert.equal(bash.resets, 0);
  assert.equal(bash.restores, 4);
  const seconds = (Date.now() - started) / 1000;
  console.log(`long session: ${execs} execs in ${seconds.toFixed(1)} s`);
});

test("the issue's reproduction: a pipeline streaming more than a pipe holds keeps the session", async () => {
  const bash = new Bash();
  await bash.exec("x=5; echo keep > k; seq 200000 > f");
  assert.equal((await bash.exec("cat f | wc -l")).stdout, "200000\n");
  const after = await bash.exec("echo x=$x; ls; cat k");
  assert.equal(after.stdout, "x=5\nf\nk\nkeep\n");
  assert.equal(after.stderr, "");
});

test("a crash in the middle of a session brings back files, variables, functions, cwd and options", async () => {
  const bash = new Bash();
  await bash.exec("cd /tmp && mkdir -p d/e && echo one > d/e/f && declare -A m=([k]=v) && n=7 && h() { echo h$1; } && set -o pipefail && alias l=ls");
  await bash.exec("echo two >> d/e/f; rm -rf gone; n=8");
  await assert.rejects(bash[crashForTesting](), (error) => error.code === "WABASH_TRAP" && error.recovery === "restored");
  const after = await bash.exec("pwd; cat d/e/f; echo ${m[k]} $n; h 1; set -o | grep pipefail; alias");
  assert.equal(after.stdout, "/tmp\none\ntwo\nv 8\nh1\npipefail       \ton\nalias l='ls'\n");
  assert.equal(after.sandboxReset, undefined);
});

test("running out of memory is WABASH_MEMORY_LIMIT and the sandbox comes back", async () => {
  const bash = new Bash({ memoryLimit: 96 << 20 });
  await bash.exec("v=kept; echo file > f");
  await assert.rejects(bash[crashForTesting]("memory"), (error) => {
    assert.equal(error.code, "WABASH_MEMORY_LIMIT");
    assert.equal(error.recovery, "restored");
    assert.match(error.message, /out of memory/);
    return true;
  });
  assert.equal((await bash.exec("echo $v; cat f")).stdout, "kept\nfile\n");
  const other = new Bash();
  assert.equal((await other.exec("echo fine")).stdout, "fine\n");
});

test("a script that outgrows memoryLimit is WABASH_MEMORY_LIMIT and the session comes back", async () => {
  const bash = new Bash({ memoryLimit: 64 << 20, executionLimits: { maxStringLength: 1 << 30 } });
  await bash.exec("kept=yes; mkdir -p d && cd d && echo data > f; f() { echo fn; }");
  await assert.rejects(bash.exec("x=0123456789abcdef; while :; do x=$x$x; done"), (error) => {
    assert.equal(error.code, "WABASH_MEMORY_LIMIT");
    assert.equal(error.recovery, "restored");
    return true;
  });
  const after = await bash.exec("echo $kept; pwd; cat f; f");
  assert.equal(after.stdout, "yes\n/home/user/d\ndata\nfn\n");
  assert.equal(bash.restores, 1);
});

test("sort past the memory budget says memory exhausted and keeps the session", async () => {
  const bash = new Bash({ memoryLimit: 64 << 20 });
  await bash.exec("v=1; echo small > f");
  const result = await bash.exec("seq 3000000 | sort | tail -1; echo status ${PIPESTATUS[1]}");
  assert.equal(result.stderr, "sort: memory exhausted\n");
  assert.equal(result.stdout, "status 2\n");
  assert.equal((await bash.exec("echo $v; cat f; seq 5 | sort -rn | head -1")).stdout, "1\nsmall\n5\n");
  assert.equal(bash.restores, 0);
});

/** A small seeded generator (mulberry32): the same seed gives the same session. */
function generator(seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, pick: (items) => items[Math.floor(next() * items.length)], int: (n) => Math.floor(next() * n) };
}

/** One random operation: what it does to the model, and how the sandbox does it. */
function randomOperation(random, model) {
  const names = ["a", "b", "c", "d"];
  const dirs = ["", "x/", "x/y/"];
  const path = () => `${random.pick(dirs)}${random.pick(names)}`;
  const text = () => `${random.pick(["alpha", "beta", "γάμμα", "tab\there", "a b"])}${random.int(1000)}`;
  const kind = random.pick(["write", "append", "remove", "move", "copy", "set", "unset", "host-write", "big", "crash"]);
  switch (kind) {
    case "write": {
      const p = path();
      const t = text();
      model.files.set(p, `${t}\n`);
      return { script: `printf '%s\\n' '${t}' > ${p}` };
    }
    case "append": {
      const p = path();
      const t = text();
      model.files.set(p, `${model.files.get(p) ?? ""}${t}\n`);
      return { script: `printf '%s\\n' '${t}' >> ${p}` };
    }
    case "remove": {
      const p = path();
      model.files.delete(p);
      return { script: `rm -f ${p}` };
    }
    case "move": {
      const from = path();
      const to = path();
      if (!model.files.has(from) || from === to) {
        return { script: "true" };
      }
      model.files.set(to, model.files.get(from));
      model.files.delete(from);
      return { script: `mv ${from} ${to}` };
    }
    case "copy": {
      const from = path();
      const to = path();
      if (!model.files.has(from) || from === to) {
        return { script: "true" };
      }
      model.files.set(to, model.files.get(from));
      return { script: `cp ${from} ${to}` };
    }
    case "set": {
      const name = `v_${random.pick(names)}`;
      const value = text();
      model.vars.set(name, value);
      return { script: `${name}='${value}'` };
    }
    case "unset": {
      const name = `v_${random.pick(names)}`;
      model.vars.delete(name);
      return { script: `unset ${name}` };
    }
    case "host-write": {
      const p = path();
      const t = text();
      model.files.set(p, t);
      return { host: p, content: t };
    }
    case "big": {
      const p = path();
      const count = 50_000 + random.int(100_000);
      let body = "";
      for (let i = 1; i <= count; i++) body += `${i}\n`;
      model.files.set(p, body);
      return { script: `seq ${count} | sort -n | cat > ${p}` };
    }
    default:
      return { crash: true };
  }
}

test("a seeded random session agrees with a model of its files and variables", { timeout: 600_000 }, async () => {
  const seed = Number(process.env.WABASH_SEED ?? 20261202);
  const random = generator(seed);
  const bash = new Bash({ cwd: "/home/user/r", files: { "/home/user/r/x/y/.keep": "" } });
  const model = { files: new Map([["x/y/.keep", ""]]), vars: new Map() };
  for (let step = 0; step < 300; step++) {
    const op = randomOperation(random, model);
    const where = `seed ${seed}, step ${step}: ${JSON.stringify(op).slice(0, 120)}`;
    if (op.crash) {
      await assert.rejects(bash[crashForTesting](), { code: "WABASH_TRAP" }, where);
    } else if (op.host) {
      await bash.fs.writeFile(op.host, op.content);
    } else {
      const result = await bash.exec(op.script);
      assert.equal(result.exitCode, 0, `${where}: ${result.stderr}`);
    }
    if (step % 10 === 9 || op.crash) {
      const listing = await bash.exec(
        "find . -type f | sort | while read -r f; do printf '%s %s\\n' \"${f#./}\" \"$(md5sum < \"$f\" | cut -c1-8)\"; done; for v in ${!v_@}; do printf '%s=%s\\n' \"$v\" \"${!v}\"; done",
      );
      const expected = await new Bash({ files: Object.fromEntries([...model.files].map(([p, t]) => [`/m/${p}`, t])) }).exec(
        `cd /m; find . -type f | sort | while read -r f; do printf '%s %s\\n' "\${f#./}" "$(md5sum < "$f" | cut -c1-8)"; done`,
      );
      const vars = [...model.vars].sort(([a], [b]) => (a < b ? -1 : 1)).map(([n, v]) => `${n}=${v}\n`).join("");
      assert.equal(listing.stdout, expected.stdout + vars, where);
    }
  }
  assert.equal(bash.resets, 0);
});

test("the wabash CLI keeps one session across lines typed on stdin", () => {
  const cli = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));
  const lines = [
    "x=41; f() { echo f$1; }; mkdir -p w && cd w",
    "seq 200000 > big",
    "cut -c1-2 big | sort | uniq -c | wc -l",
    "x=$((x+1)); f 1",
    "if then",
    "cat big | grep -c 5",
    "echo x=$x; pwd; wc -l < big; f 2",
  ];
  const run = spawnSync(process.execPath, [cli, "-i"], { input: `${lines.join("\n")}\n`, encoding: "utf8", timeout: 120_000 });
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /f1\n/);
  assert.match(run.stdout, /x=42\n\/home\/user\/w\n200000\nf2\n/);
  assert.match(run.stderr, /syntax error/);
});
