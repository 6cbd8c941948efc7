// Local servers the web tests start and stop themselves, on 127.0.0.1 only:
// a free port, a tiny HTTP server for the sandbox's curl to call, and a
// real workerd process.
import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import { join } from "node:path";
import workerdPackage from "workerd";

/**
 * The workerd binary itself (the package's default export), not the
 * node_modules/.bin wrapper: killing the wrapper would leave the server running.
 */
const WORKERD = workerdPackage.default;

/** A port on 127.0.0.1 that was free a moment ago. */
export async function freePort() {
  const server = createServer();
  await new Promise((ready) => server.listen(0, "127.0.0.1", ready));
  const { port } = server.address();
  await new Promise((done) => server.close(done));
  return port;
}

/** An HTTP server on 127.0.0.1 answering every GET with `body`; resolves to its URL and a stop function. */
export async function startTextServer(body) {
  const server = createServer((request, response) => {
    response.writeHead(200, { "content-type": "text/plain" }).end(body);
  });
  await new Promise((ready) => server.listen(0, "127.0.0.1", ready));
  // Stopping also ends kept-alive connections (a client such as workerd may
  // hold one open), or close() would wait for them forever.
  const stop = () =>
    new Promise((done) => {
      server.close(done);
      server.closeAllConnections();
    });
  return { url: `http://127.0.0.1:${server.address().port}/`, stop };
}

/** Polls `url` until it answers (any status) or `ms` pass. */
export async function waitForHttp(url, ms = 20_000) {
  const deadline = Date.now() + ms;
  let last;
  while (Date.now() < deadline) {
    try {
      await fetch(url, { method: "HEAD", signal: AbortSignal.timeout(1_000) });
      return;
    } catch (error) {
      last = error;
      await new Promise((wake) => setTimeout(wake, 50));
    }
  }
  throw new Error(`${url} did not answer within ${ms} ms: ${last}`);
}

const KV_WORKER = `
const store = new Map();
export default {
  async fetch(request) {
    const key = decodeURIComponent(new URL(request.url).pathname.slice(1));
    if (request.method === "PUT") {
      store.set(key, new Uint8Array(await request.arrayBuffer()));
      return new Response(null, { status: 200 });
    }
    if (request.method === "DELETE") {
      store.delete(key);
      return new Response(null, { status: 200 });
    }
    const value = store.get(key);
    return value ? new Response(value) : new Response("not found", { status: 404 });
  },
};
`;

/**
 * Runs the bundled worker in `dir` (worker.js plus its .wasm modules) in
 * real workerd from the npm package, on 127.0.0.1, with a KV namespace
 * (an in-memory KV service) bound as SESSIONS, `vars` as text bindings,
 * and outbound fetch allowed to loopback addresses only.
 */
export async function startWorkerd(dir, files, vars = {}) {
  const port = await freePort();
  await writeFile(join(dir, "kv.js"), KV_WORKER);
  const modules = [
    `(name = "worker.js", esModule = embed "worker.js")`,
    ...files.filter((f) => f.endsWith(".wasm")).map((f) => `(name = "${f}", wasm = embed "${f}")`),
  ];
  const bindings = [
    `(name = "SESSIONS", kvNamespace = "kv")`,
    ...Object.entries(vars).map(([name, value]) => `(name = "${name}", text = ${JSON.stringify(value)})`),
  ];
  const config = `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .mainWorker),
    (name = "kv", worker = .kvWorker),
    (name = "loopback", network = (allow = ["local", "private", "public"], deny = [])),
  ],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);
const mainWorker :Workerd.Worker = (
  modules = [${modules.join(", ")}],
  bindings = [${bindings.join(", ")}],
  compatibilityDate = "2025-11-01",
  globalOutbound = "loopback",
);
const kvWorker :Workerd.Worker = (
  modules = [(name = "kv.js", esModule = embed "kv.js")],
  compatibilityDate = "2025-11-01",
);
`;
  await writeFile(join(dir, "config.capnp"), config);
  const started = performance.now();
  const child = spawn(WORKERD, ["serve", join(dir, "config.capnp")], {
    cwd: dir,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  child.stdout.on("data", (chunk) => (log += chunk));
  child.stderr.on("data", (chunk) => (log += chunk));
  const exited = new Promise((done) => child.once("exit", done));
  const url = `http://127.0.0.1:${port}/`;
  try {
    await Promise.race([
      waitForHttp(url),
      exited.then((code) => {
        throw new Error(`workerd exited with ${code}: ${log}`);
      }),
    ]);
  } catch (error) {
    child.kill();
    throw error;
  }
  return {
    url,
    listeningMs: performance.now() - started,
    log: () => log,
    stop: async () => {
      child.kill();
      // workerd drains before it exits on SIGTERM; do not wait on it forever.
      const killer = setTimeout(() => child.kill("SIGKILL"), 3000);
      await exited;
      clearTimeout(killer);
    },
  };
}
