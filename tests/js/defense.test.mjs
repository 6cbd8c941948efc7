// Defense in depth through the built package: code running for a sandbox
// (custom commands, output listeners) cannot use the guarded globals, the
// host's own code can at the same moment, the originals come back exactly,
// and audit mode reports without blocking.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Bash, defineCommand } from "../../dist/node.js";
import { guardsInstalled } from "../../dist/defense.js";

const ORIGINALS = {
  Function: globalThis.Function,
  eval: globalThis.eval,
  setTimeout: globalThis.setTimeout,
  Reflect: globalThis.Reflect,
  Proxy: globalThis.Proxy,
  WebAssembly: globalThis.WebAssembly,
  SharedArrayBuffer: globalThis.SharedArrayBuffer,
  Atomics: globalThis.Atomics,
  WeakRef: globalThis.WeakRef,
  functionConstructor: Object.getOwnPropertyDescriptor(Function.prototype, "constructor"),
  env: Object.getOwnPropertyDescriptor(process, "env"),
  proto: Object.getOwnPropertyDescriptor(Object.prototype, "__proto__"),
};

function assertRestored() {
  assert.equal(guardsInstalled(), false);
  for (const name of ["Function", "eval", "setTimeout", "Reflect", "Proxy", "WebAssembly", "SharedArrayBuffer", "Atomics", "WeakRef"]) {
    assert.equal(globalThis[name], ORIGINALS[name], name);
  }
  assert.deepEqual(Object.getOwnPropertyDescriptor(Function.prototype, "constructor"), ORIGINALS.functionConstructor);
  assert.deepEqual(Object.getOwnPropertyDescriptor(process, "env"), ORIGINALS.env);
  assert.deepEqual(Object.getOwnPropertyDescriptor(Object.prototype, "__proto__"), ORIGINALS.proto);
}

/** A custom command that tries `attempt` and reports what happened. */
function probe(name, attempt) {
  return defineCommand(name, async () => {
    try {
      const value = await attempt();
      return { stdout: `allowed ${String(value)}\n`, exitCode: 0 };
    } catch (error) {
      return { stdout: `blocked ${error.message}\n`, exitCode: 1 };
    }
  });
}

const ATTEMPTS = {
  fn: () => Function("return 1+1")(),
  ctor: () => (function () {}).constructor("return 2")(),
  asyncctor: () => (async function () {}).constructor("return 3")(),
  gen: () => Object.getPrototypeOf(function* () {}).constructor("yield 4")().next().value,
  evaluate: () => globalThis.eval("5"),
  timer: () => new Promise((resolve) => setTimeout(() => resolve(6), 1)),
  weak: () => typeof new WeakRef({}),
  reflect: () => Reflect.ownKeys({ a: 1 }).length,
  proxy: () => typeof new Proxy({}, {}),
  env: () => typeof process.env.PATH,
  binding: () => typeof process.binding("fs"),
  wasm: () => WebAssembly.validate(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])),
  shared: () => new SharedArrayBuffer(8).byteLength,
  atomics: () => Atomics.add(new Int32Array(new ArrayBuffer(8)), 0, 1),
  proto: () => {
    const object = {};
    object.__proto__ = { x: 1 };
    return object.x;
  },
};

test("every guarded global is blocked inside a custom command during an exec, and restored after", async () => {
  const commands = Object.entries(ATTEMPTS).map(([name, attempt]) => probe(name, attempt));
  const bash = new Bash({ customCommands: commands });
  for (const name of Object.keys(ATTEMPTS)) {
    const result = await bash.exec(name);
    assert.match(result.stdout, /^blocked wabash defense in depth: .* is not available to code running for the wabash sandbox\n$/, name);
    assert.equal(result.exitCode, 1, name);
  }
  assertRestored();
  // Outside an exec the same calls work.
  assert.equal(ATTEMPTS.fn(), 2);
  assert.equal(ATTEMPTS.reflect(), 1);
});

test("the host's own Function works while a custom command's is blocked at the same moment", async () => {
  let hostResult;
  let hostError;
  const slow = defineCommand("slow", async (_args, ctx) => {
    const blocked = (() => {
      try {
        Function("return 1")();
        return "no";
      } catch {
        return "yes";
      }
    })();
    // Let host timers run while this command is in the middle of its work.
    await ctx.exec("sleep 0.05");
    return { stdout: `blocked=${blocked}\n`, exitCode: 0 };
  });
  const bash = new Bash({ customCommands: [slow] });
  const host = new Promise((resolve) =>
    setTimeout(() => {
      try {
        hostResult = Function("return 40 + 2")();
      } catch (error) {
        hostError = error;
      }
      resolve();
    }, 10),
  );
  const result = await bash.exec("slow");
  await host;
  assert.equal(result.stdout, "blocked=yes\n");
  assert.equal(hostError, undefined);
  assert.equal(hostResult, 42);
  assertRestored();
});

test("audit mode reports and lets through; excluded types pass; onViolation hears everything", async () => {
  const seen = [];
  const bash = new Bash({
    customCommands: [probe("fn", ATTEMPTS.fn), probe("proxy", ATTEMPTS.proxy)],
    defenseInDepth: { auditMode: true, onViolation: (v) => seen.push(v) },
  });
  assert.equal((await bash.exec("fn")).stdout, "allowed 2\n");
  assert.equal(seen.length, 1);
  assert.equal(seen[0].type, "function_constructor");
  assert.equal(seen[0].allowed, true);
  const excluded = new Bash({
    customCommands: [probe("proxy", ATTEMPTS.proxy), probe("fn", ATTEMPTS.fn)],
    defenseInDepth: { excludeViolationTypes: ["proxy"] },
  });
  assert.equal((await excluded.exec("proxy")).stdout, "allowed object\n");
  assert.match((await excluded.exec("fn")).stdout, /^blocked/);
  const off = new Bash({ customCommands: [probe("fn", ATTEMPTS.fn)], defenseInDepth: false });
  assert.equal((await off.exec("fn")).stdout, "allowed 2\n");
  assertRestored();
});

test("concurrent and nested execs on several Bash objects restore the globals exactly; a throwing exec too", async () => {
  const nest = defineCommand("nest", async (_args, ctx) => {
    const inner = await ctx.exec("echo inner");
    return { stdout: inner.stdout, exitCode: 0 };
  });
  const boom = defineCommand("boom", async () => {
    throw new Error("kaput");
  });
  const one = new Bash({ customCommands: [nest, boom] });
  const two = new Bash({ customCommands: [nest] });
  const results = await Promise.all([one.exec("nest; sleep 0.02; nest"), two.exec("sleep 0.01; nest"), one.exec("boom")]);
  assert.equal(results[0].stdout, "inner\ninner\n");
  assert.equal(results[1].stdout, "inner\n");
  assert.equal(results[2].stderr, "boom: kaput\n");
  assertRestored();
  await assert.rejects(one.exec("true", { stdin: 42 }), { code: "WABASH_INVALID_OPTIONS" });
  assertRestored();
});

test("the package's own WebAssembly keeps working: a new Bash made inside a custom command", async () => {
  const spawn = defineCommand("spawn", async () => {
    const inner = new Bash({ defenseInDepth: false });
    return { stdout: (await inner.exec("echo nested-sandbox")).stdout, exitCode: 0 };
  });
  const bash = new Bash({ customCommands: [spawn] });
  assert.equal((await bash.exec("spawn")).stdout, "nested-sandbox\n");
  assertRestored();
});

test("output listeners run in the sandbox context too", async () => {
  const seen = [];
  const bash = new Bash();
  const result = await bash.exec("echo hi", {
    onStdout: () => {
      try {
        Function("return 1")();
        seen.push("allowed");
      } catch {
        seen.push("blocked");
      }
    },
  });
  assert.equal(result.stdout, "hi\n");
  assert.deepEqual(seen, ["blocked"]);
  assertRestored();
});

test("a global the host replaced between execs is guarded in its new form and comes back as the host set it", async () => {
  const slow = defineCommand("slow", async (_args, ctx) => {
    await ctx.exec("sleep 0.05");
    return {};
  });
  const bash = new Bash({ customCommands: [probe("timer", ATTEMPTS.timer), probe("wasm", ATTEMPTS.wasm), slow] });
  // The first execs build the guards (and keep them for the next ones).
  assert.match((await bash.exec("timer; wasm")).stdout, /^blocked .*\nblocked .*\n$/);
  const originalTimeout = globalThis.setTimeout;
  const originalValidate = WebAssembly.validate;
  let hostCalls = 0;
  const replacedTimeout = function setTimeout(...args) {
    hostCalls += 1;
    return originalTimeout(...args);
  };
  const replacedValidate = function validate(bytes) {
    hostCalls += 1;
    return originalValidate(bytes);
  };
  globalThis.setTimeout = replacedTimeout;
  WebAssembly.validate = replacedValidate;
  try {
    // Host code that runs during the exec reaches the host's replacements.
    const hostDuring = new Promise((resolve) =>
      originalTimeout(() => {
        globalThis.setTimeout(resolve, 0);
        assert.equal(WebAssembly.validate(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])), true);
      }, 20),
    );
    const result = await bash.exec("timer; wasm; slow");
    await hostDuring;
    assert.match(result.stdout, /^blocked .*setTimeout.*\nblocked .*WebAssembly\.validate.*\n$/);
    assert.ok(hostCalls >= 2, "the host's own calls during the exec went to its replacements");
    // The sandbox's attempts never reached them.
    assert.equal(globalThis.setTimeout, replacedTimeout);
    assert.equal(WebAssembly.validate, replacedValidate);
    assert.equal(guardsInstalled(), false);
  } finally {
    globalThis.setTimeout = originalTimeout;
    WebAssembly.validate = originalValidate;
  }
  assertRestored();
});

test("the guards are in place only once code runs for the sandbox, and until the exec ends", async () => {
  let during;
  const look = defineCommand("look", () => {
    during = guardsInstalled();
    return {};
  });
  const bash = new Bash({ customCommands: [look] });
  const plain = bash.exec("sleep 0.05");
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(guardsInstalled(), false, "an exec that calls nothing back leaves the globals alone");
  await plain;
  await bash.exec("look; sleep 0.01");
  assert.equal(during, true);
  assertRestored();
});
