/**
 * Defense in depth: while a sandbox executes, the JavaScript globals that
 * turn data into code or reach outside the sandbox are replaced by guards,
 * so that a bug letting script text reach JavaScript (in a custom command,
 * a network callback, an output listener) finds nothing to use.
 *
 * The guards block only code that runs on a sandbox's behalf: the wrapper
 * runs every callback it makes for a sandbox (custom commands, output
 * listeners, network decisions) inside a *sandbox context*, and a guard
 * asks the context tracker whether its caller is inside one. Host code that
 * runs while an exec is waiting (its own timers, requests, other work) is
 * outside and sees the real globals behave as always.
 *
 * The context tracker is the runtime's best: in Node, AsyncLocalStorage,
 * which follows a callback across its awaits; elsewhere (browsers, workerd
 * without node compatibility) a flag set while the callback's synchronous
 * part runs, so code after its first `await` is not covered there.
 *
 * The guards are installed when code first runs for a sandbox during a
 * guarded exec (an exec that calls nothing back leaves the globals alone)
 * and the original globals put back exactly when the last guarded exec
 * ends (a count, so nested and concurrent execs on several Bash objects
 * compose; an exec that throws still ends). Each guard is built once and
 * reused while the global it wraps stays the same; one the host replaced
 * gets a guard over its new value. The wrapper's own timers and
 * WebAssembly use references captured before any patching (platform.ts).
 *
 * Not covered: `import()` (syntax, cannot be replaced), code the host
 * itself evaluates in a sandbox context on purpose, and anything reached
 * before the guards exist (references captured by a custom command's module
 * when it loaded).
 */

/** The kinds of violation, as `excludeViolationTypes` names them. */
export type ViolationType =
  | "function_constructor"
  | "async_function_constructor"
  | "generator_function_constructor"
  | "eval"
  | "timer"
  | "weak_reference"
  | "reflect"
  | "proxy"
  | "process_env"
  | "process_binding"
  | "process_dlopen"
  | "module_loading"
  | "webassembly"
  | "shared_memory"
  | "atomics"
  | "proto_setter";

/** One use of a guarded global by code running for a sandbox. */
export interface Violation {
  /** What was used. */
  type: ViolationType;
  /** A sentence naming the global. */
  message: string;
  /** Where it was used from, when the runtime says. */
  stack?: string;
  /** True when it was allowed (audit mode or an excluded type). */
  allowed: boolean;
}

/** The `defenseInDepth` option's object form. */
export interface DefenseOptions {
  /** Default true. */
  enabled?: boolean;
  /** Report violations (to `onViolation`) but let them through. */
  auditMode?: boolean;
  /** Called for every violation, blocked or allowed. */
  onViolation?: (violation: Violation) => void;
  /** Types allowed without a report of blocking (still reported as allowed). */
  excludeViolationTypes?: ViolationType[];
}

/** The policy one Bash applies to its sandbox context. */
export interface DefensePolicy {
  audit: boolean;
  onViolation: ((violation: Violation) => void) | undefined;
  excluded: ReadonlySet<ViolationType>;
}

/** Follows "are we running for a sandbox, and which policy" across calls. */
export interface ContextTracker {
  /** Runs `fn` with `policy` as the current context. */
  run<T>(policy: DefensePolicy, fn: () => T): T;
  /** Runs `fn` outside any sandbox context (the wrapper's own work). */
  exit<T>(fn: () => T): T;
  /** The policy of the code running now, if it runs for a sandbox. */
  current(): DefensePolicy | undefined;
}

// The guards delegate through these, captured before anything is patched
// (Reflect itself is one of the guarded globals).
const construct = Reflect.construct;
const apply = Reflect.apply;
const ownKeys = Reflect.ownKeys;

/** The tracker for runtimes without AsyncLocalStorage: the synchronous part of each call. */
function flagTracker(): ContextTracker {
  const stack: (DefensePolicy | undefined)[] = [];
  const within = <T>(policy: DefensePolicy | undefined, fn: () => T): T => {
    stack.push(policy);
    try {
      return fn();
    } finally {
      stack.pop();
    }
  };
  return {
    run: within,
    exit: (fn) => within(undefined, fn),
    current: () => stack[stack.length - 1],
  };
}

let tracker: ContextTracker = flagTracker();

/** Lets a runtime entry supply a better tracker (Node: AsyncLocalStorage). */
export function setContextTracker(next: ContextTracker): void {
  tracker = next;
}

/** The policy `options` describe, or undefined when defense is off. */
export function policyOf(options: boolean | DefenseOptions | undefined): DefensePolicy | undefined {
  if (options === false || (typeof options === "object" && options !== null && options.enabled === false)) {
    return undefined;
  }
  const object = typeof options === "object" && options !== null ? options : {};
  return {
    audit: Boolean(object.auditMode),
    onViolation: object.onViolation,
    excluded: new Set(object.excludeViolationTypes ?? []),
  };
}

/** A violation in the current context: reports it, then throws unless allowed. */
function check(type: ViolationType, what: string): void {
  const policy = tracker.current();
  if (!policy) {
    return;
  }
  const allowed = policy.audit || policy.excluded.has(type);
  const stack = new Error().stack;
  const violation: Violation = {
    type,
    message: `${what} is not available to code running for the wabash sandbox`,
    allowed,
    ...(stack === undefined ? {} : { stack }),
  };
  try {
    policy.onViolation?.(violation);
  } catch {
    // A listener that throws must not change the outcome.
  }
  if (!allowed) {
    throw new TypeError(`wabash defense in depth: ${violation.message}`);
  }
}

/** One replaced property: where, the original descriptor, and the guard's. */
interface Patch {
  target: object;
  key: PropertyKey;
  original: PropertyDescriptor | undefined;
  guard: PropertyDescriptor;
}

/** A guard for a function or constructor value: checks, then behaves as `original`. */
function guardFunction(original: (...args: unknown[]) => unknown, type: ViolationType, what: string): unknown {
  const guard = function (this: unknown, ...args: unknown[]): unknown {
    check(type, what);
    return new.target ? construct(original as never, args, new.target) : apply(original, this, args);
  };
  Object.defineProperty(guard, "name", { value: original.name });
  Object.defineProperty(guard, "length", { value: original.length });
  // `x instanceof Function` and static members keep working.
  guard.prototype = (original as { prototype?: unknown }).prototype;
  Object.setPrototypeOf(guard, Object.getPrototypeOf(original));
  return guard;
}

/** A guard object whose every function-valued member is guarded. */
function guardNamespace(original: object, type: ViolationType, what: string): object {
  const copy: Record<PropertyKey, unknown> = {};
  for (const key of ownKeys(original)) {
    const value = (original as Record<PropertyKey, unknown>)[key];
    copy[key] =
      typeof value === "function" ? guardFunction(value as (...args: unknown[]) => unknown, type, `${what}.${String(key)}`) : value;
  }
  return copy;
}

/** The constructor of a kind of function (`async function () {}` → AsyncFunction). */
function constructorOf(make: () => unknown): ((...args: unknown[]) => unknown) | undefined {
  try {
    return Object.getPrototypeOf(make()).constructor;
  } catch {
    return undefined;
  }
}

/**
 * A guard built for one original descriptor, kept so that the next exec
 * reuses it while the original is the same. `members` holds a guarded
 * namespace's member values when built: a host that replaced one of them
 * (`WebAssembly.validate = ...`) gets a new guard over the new member.
 */
interface CachedGuard {
  original: PropertyDescriptor;
  members: unknown[] | undefined;
  guard: PropertyDescriptor;
}

/** The guards built so far, by target and key (see {@link CachedGuard}). */
const guardCache = new WeakMap<object, Map<PropertyKey, CachedGuard>>();

/** The same property: every field of the two descriptors is identical. */
function sameDescriptor(a: PropertyDescriptor, b: PropertyDescriptor): boolean {
  return (
    a.value === b.value &&
    a.get === b.get &&
    a.set === b.set &&
    a.writable === b.writable &&
    a.enumerable === b.enumerable &&
    a.configurable === b.configurable
  );
}

/** The member values of a namespace object, in key order. */
function membersOf(namespace: unknown): unknown[] {
  const object = namespace as Record<PropertyKey, unknown>;
  return ownKeys(object).flatMap((key) => [key, object[key]]);
}

/** The same member values as `members` (from {@link membersOf}). */
function sameMembers(namespace: unknown, members: unknown[]): boolean {
  const object = namespace as Record<PropertyKey, unknown>;
  const keys = ownKeys(object);
  if (keys.length * 2 !== members.length) {
    return false;
  }
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as PropertyKey;
    if (members[2 * i] !== key || members[2 * i + 1] !== object[key]) {
      return false;
    }
  }
  return true;
}

/**
 * Every patch to make, for the globals this runtime has right now. A
 * guard is built once per original and reused while the original (and, for
 * a namespace, each of its members) stays the same; a global the host
 * replaced between execs gets a guard over its new value.
 */
function plannedPatches(useCache: boolean): Patch[] {
  const patches: Patch[] = [];
  /** Queues the guard `build` makes from the current descriptor of `target[key]`. */
  const replace = (
    target: object | undefined,
    key: PropertyKey,
    build: (original: PropertyDescriptor) => PropertyDescriptor | undefined,
    namespace = false,
  ): void => {
    if (target === undefined || target === null) {
      return;
    }
    const original = Object.getOwnPropertyDescriptor(target, key);
    if (original === undefined || original.configurable === false) {
      return;
    }
    let byKey = guardCache.get(target);
    const cached = useCache ? byKey?.get(key) : undefined;
    if (
      cached !== undefined &&
      sameDescriptor(cached.original, original) &&
      (cached.members === undefined || sameMembers(original.value, cached.members))
    ) {
      patches.push({ target, key, original, guard: cached.guard });
      return;
    }
    const guard = build(original);
    if (guard === undefined) {
      return;
    }
    if (byKey === undefined) {
      byKey = new Map();
      guardCache.set(target, byKey);
    }
    byKey.set(key, { original, members: namespace ? membersOf(original.value) : undefined, guard });
    patches.push({ target, key, original, guard });
  };
  const value = (target: object, key: PropertyKey, type: ViolationType, what: string): void => {
    replace(target, key, (original) =>
      typeof original.value === "function"
        ? { value: guardFunction(original.value as (...args: unknown[]) => unknown, type, what), writable: true, configurable: true }
        : undefined,
    );
  };
  const g = globalThis as Record<string, unknown>;
  value(g, "Function", "function_constructor", "Function");
  value(g, "eval", "eval", "eval");
  for (const name of ["setTimeout", "setInterval", "setImmediate"]) {
    value(g, name, "timer", name);
  }
  value(g, "WeakRef", "weak_reference", "WeakRef");
  value(g, "FinalizationRegistry", "weak_reference", "FinalizationRegistry");
  value(g, "Proxy", "proxy", "Proxy");
  value(g, "SharedArrayBuffer", "shared_memory", "SharedArrayBuffer");
  value(g, "require", "module_loading", "require");
  for (const [name, type] of [
    ["Reflect", "reflect"],
    ["Atomics", "atomics"],
    ["WebAssembly", "webassembly"],
  ] as const) {
    replace(
      g,
      name,
      (original) =>
        original.value === undefined || original.value === null
          ? undefined
          : { value: guardNamespace(original.value as object, type, name), writable: true, configurable: true },
      true,
    );
  }
  // The constructors reachable from any function: (function () {}).constructor...
  for (const [make, type, what] of CONSTRUCTORS) {
    const ctor = constructorOf(make);
    if (ctor?.prototype) {
      replace(ctor.prototype as object, "constructor", (original) =>
        typeof original.value === "function"
          ? { value: guardFunction(original.value as (...args: unknown[]) => unknown, type, what), writable: true, configurable: true }
          : undefined,
      );
    }
  }
  const proc = g.process as Record<string, unknown> | undefined;
  if (proc) {
    replace(proc, "env", (original) => {
      if (!("value" in original)) {
        return undefined;
      }
      const env = original.value;
      return {
        get() {
          check("process_env", "process.env");
          return env;
        },
        set() {
          check("process_env", "process.env");
        },
        configurable: true,
      };
    });
    value(proc, "binding", "process_binding", "process.binding");
    value(proc, "_linkedBinding", "process_binding", "process._linkedBinding");
    value(proc, "dlopen", "process_dlopen", "process.dlopen");
    if (proc.mainModule !== undefined) {
      replace(proc, "mainModule", () => {
        const main = proc.mainModule;
        return {
          get() {
            check("module_loading", "process.mainModule");
            return main;
          },
          configurable: true,
        };
      });
    }
  }
  if (g.module !== undefined) {
    replace(g, "module", () => {
      const module = g.module;
      return {
        get() {
          check("module_loading", "module");
          return module;
        },
        configurable: true,
      };
    });
  }
  replace(Object.prototype, "__proto__", (proto) => {
    if (!proto.set || !proto.get) {
      return undefined;
    }
    const setter = proto.set;
    return {
      get: proto.get,
      set(this: unknown, next: unknown) {
        check("proto_setter", "the __proto__ setter");
        setter.call(this, next);
      },
      configurable: true,
    };
  });
  return patches;
}

/** The kinds of function whose constructors are guarded. */
const CONSTRUCTORS: [() => unknown, ViolationType, string][] = [
  [() => function () {}, "function_constructor", "Function"],
  [() => async function () {}, "async_function_constructor", "AsyncFunction"],
  [() => function* () {}, "generator_function_constructor", "GeneratorFunction"],
  [() => async function* () {}, "generator_function_constructor", "AsyncGeneratorFunction"],
];

/** Execs running with defense on (each holds the guards while it runs). */
let active = 0;
/** The patches in place, when the guards are installed. */
let applied: Patch[] | undefined;
/** Benchmarks only: build every guard afresh and install it when an exec starts. */
let eager = false;

/**
 * Internal, for scripts/bench-host.mjs: `true` brings back the behaviour
 * before the guards were cached and lazy (every guard built afresh and
 * installed when an exec starts), to measure both in one run.
 */
export function setEagerGuardsForBenchmark(enabled: boolean): void {
  eager = enabled;
}

/** Puts the guards in place (once, until {@link uninstall}). */
function install(): void {
  if (applied !== undefined) {
    return;
  }
  applied = plannedPatches(!eager);
  for (const patch of applied) {
    Object.defineProperty(patch.target, patch.key, patch.guard);
  }
}

/** Puts every original back exactly. */
function uninstall(): void {
  if (applied === undefined) {
    return;
  }
  for (const patch of applied.reverse()) {
    if (patch.original) {
      Object.defineProperty(patch.target, patch.key, patch.original);
    }
  }
  applied = undefined;
}

/**
 * A guarded exec starts. The guards go in when code first runs for a
 * sandbox during it ({@link inSandbox}: a custom command, a listener, a
 * network callback), not before: only such code is guarded, and an exec
 * that calls back nothing pays nothing. They stay until the last guarded
 * exec ends.
 */
export function acquireGuards(): void {
  active += 1;
  if (eager) {
    install();
  }
}

/** A guarded exec ended; the last one puts every original global back exactly. */
export function releaseGuards(): void {
  if (active === 0) {
    return;
  }
  active -= 1;
  if (active === 0) {
    uninstall();
  }
}

/** True while guards are installed (tests). */
export function guardsInstalled(): boolean {
  return applied !== undefined;
}

/** Runs `fn` on a sandbox's behalf under `policy` (no policy: as is), the guards in place. */
export function inSandbox<T>(policy: DefensePolicy | undefined, fn: () => T): T {
  if (!policy) {
    return fn();
  }
  if (active === 0) {
    // Outside every exec (the wrapper makes no such call): its synchronous part is guarded.
    acquireGuards();
    install();
    try {
      return tracker.run(policy, fn);
    } finally {
      releaseGuards();
    }
  }
  install();
  return tracker.run(policy, fn);
}

/** Runs `fn` as the wrapper's own work, outside any sandbox context. */
export function outsideSandbox<T>(fn: () => T): T {
  return tracker.exit(fn);
}
