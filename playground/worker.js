// The playground's shell: one wabash session in a Web Worker, so a long
// script never blocks the page. The page talks to it with messages
// (shell-client.js); output streams back as it is written.
import { Bash, setEngineModule } from "wabash";
import { DEFAULT_OPTIONS } from "./defaults.js";

const workerStartMs = performance.now();

const HOME = "/home/user";
/** What the file tree shows: the places a user can write. */
const TREE_ROOTS = [HOME, "/tmp"];
/** At most this many entries are listed, so a huge tree cannot stall the page. */
const TREE_LIMIT = 2000;

let bash;
let options = {};
let running;

/** A fresh session with `next` options, keeping the current one's state. */
async function configure(next) {
  options = next;
  const settings = {
    cwd: HOME,
    executionLimits: next.executionLimits ?? {},
    ...(next.network ? { network: next.network } : {}),
  };
  if (bash) {
    const saved = await bash.snapshot();
    bash = await Bash.restore(saved, settings);
  } else {
    bash = new Bash({ ...settings, files: next.files ?? {} });
  }
  await bash.getCwd();
}

/** Lists the tree under the roots, directories first, within TREE_LIMIT entries. */
async function tree() {
  let count = 0;
  const walk = async (path) => {
    const node = { path, name: path.split("/").pop() || "/", type: "directory", children: [] };
    let entries;
    try {
      entries = await bash.fs.readdirWithTypes(path);
    } catch (error) {
      node.error = String(error.message ?? error);
      return node;
    }
    entries.sort((a, b) => Number(b.type === "directory") - Number(a.type === "directory") || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (++count > TREE_LIMIT) {
        node.truncated = true;
        break;
      }
      const child = path === "/" ? `/${entry.name}` : `${path}/${entry.name}`;
      node.children.push(entry.type === "directory" ? await walk(child) : { path: child, name: entry.name, type: entry.type });
    }
    return node;
  };
  const roots = [];
  for (const root of TREE_ROOTS) {
    roots.push(await walk(root));
  }
  return roots;
}

/** Paths completing `word` (relative to the session's cwd, or starting with / or ~/); directories end in /. */
async function fileCandidates(word) {
  const cwd = await bash.getCwd();
  const slash = word.lastIndexOf("/");
  const typed = word.slice(0, slash + 1);
  const prefix = word.slice(slash + 1);
  const dir = typed === "" ? cwd : typed.startsWith("~/") ? HOME + typed.slice(1) : typed.startsWith("/") ? typed : `${cwd}/${typed}`;
  let entries;
  try {
    entries = await bash.fs.readdirWithTypes(dir);
  } catch {
    return [];
  }
  return entries
    .filter((entry) => entry.name.startsWith(prefix) && (prefix.startsWith(".") || !entry.name.startsWith(".")))
    .map((entry) => `${typed}${entry.name}${entry.type === "directory" ? "/" : ""}`)
    .sort();
}

/** The sandbox's user files (home and temporary directories) as a tar.gz. */
async function archive() {
  const result = await bash.exec("cd / && tar -czf - home/user tmp", { cwd: "/" });
  if (result.exitCode !== 0) {
    throw new Error(result.stderr.trim() || `tar exited with ${result.exitCode}`);
  }
  return result.stdoutBytes;
}

/** Unpacks a tar.gz into the sandbox at /, as the download made it. */
async function unpack(bytes) {
  const result = await bash.exec("tar -xzf - -C /", { stdin: bytes, cwd: "/" });
  if (result.exitCode !== 0) {
    throw new Error(result.stderr.trim() || `tar exited with ${result.exitCode}`);
  }
}

// The engine: posted by the page when it started this worker under the name
// "engine-from-page" (index.html compiles it while the worker starts), else
// fetched and compiled here by the package's browser entry.
let engineFromPage;
const engineSupplied =
  self.name === "engine-from-page"
    ? new Promise((resolve) => {
        engineFromPage = resolve;
      })
    : Promise.resolve();

// The session starts as soon as the engine is there, with the page's
// default options: it needs no message from the page's script.
const early = engineSupplied.then(() => configure(DEFAULT_OPTIONS)).then(() => performance.now());
early.catch(() => undefined);

const handlers = {
  async init(message) {
    const wanted = message.options ?? {};
    let engineReady;
    try {
      engineReady = await early;
    } catch {
      // Tried again below with the page's options, which reports the error.
      bash = undefined;
    }
    if (engineReady === undefined || JSON.stringify(wanted) !== JSON.stringify(DEFAULT_OPTIONS)) {
      await configure(wanted);
      engineReady = performance.now();
    }
    const wasm = performance.getEntriesByType("resource").find((entry) => entry.name.endsWith(".wasm"));
    return {
      readyMs: engineReady - workerStartMs,
      cwd: await bash.getCwd(),
      timeOrigin: performance.timeOrigin,
      marks: { workerStart: workerStartMs, wasmResponseEnd: wasm?.responseEnd, engineReady },
    };
  },
  async settings(message) {
    await configure({ ...options, ...message.options });
    return { cwd: await bash.getCwd() };
  },
  async exec(message) {
    const controller = new AbortController();
    running = controller;
    try {
      const result = await bash.exec(message.script, {
        signal: controller.signal,
        onStdout: (text) => postMessage({ type: "output", id: message.id, stream: "stdout", text }),
        onStderr: (text) => postMessage({ type: "output", id: message.id, stream: "stderr", text }),
      });
      return { exitCode: result.exitCode, exited: result.exited, cwd: await bash.getCwd(), aborted: controller.signal.aborted };
    } finally {
      running = undefined;
    }
  },
  async complete(message) {
    return bash.completeness(message.source);
  },
  async tree() {
    return tree();
  },
  async read(message) {
    return bash.fs.readFileBytes(message.path);
  },
  async write(message) {
    const parent = message.path.slice(0, message.path.lastIndexOf("/")) || "/";
    await bash.fs.mkdir(parent);
    await bash.fs.writeFile(message.path, message.content);
  },
  async archive() {
    return archive();
  },
  async unpack(message) {
    await unpack(message.bytes);
  },
  async candidates(message) {
    if (message.kind === "command") {
      const result = await bash.exec('compgen -c -- "$1"', { args: [message.word] });
      return [...new Set(result.stdout.split("\n").filter(Boolean))].sort();
    }
    return fileCandidates(message.word);
  },
  async commands() {
    const result = await bash.exec("compgen -c | sort -u");
    return result.stdout.split("\n").filter(Boolean);
  },
};

self.onmessage = async (event) => {
  const message = event.data;
  if (message.type === "stop") {
    running?.abort();
    return;
  }
  if (message.type === "engine") {
    // Without a module (the page could not compile it), the entry loads its own.
    if (message.module) setEngineModule(message.module);
    engineFromPage?.();
    return;
  }
  const handler = handlers[message.type];
  if (!handler) {
    postMessage({ type: "reply", id: message.id, error: `unknown request ${message.type}` });
    return;
  }
  try {
    const value = await handler(message);
    postMessage({ type: "reply", id: message.id, value });
  } catch (error) {
    postMessage({ type: "reply", id: message.id, error: String(error?.message ?? error) });
  }
};
