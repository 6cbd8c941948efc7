#!/usr/bin/env node
// Builds the browser playground (playground/) into static files with
// esbuild, and serves them on 127.0.0.1.
//
//   node scripts/playground.mjs                 build into target/playground and serve (port 8080, or --port N)
//   node scripts/playground.mjs --build [DIR]   only build (default target/playground)
//
// The page bundles the package's `browser` entry (dist/, from
// scripts/setup.sh or scripts/dev-build.sh); the engine stays one .wasm file
// next to the worker, fetched once and compiled with compileStreaming.
import { createHash } from "node:crypto";
import { copyFile, mkdir, readFile, rm, stat, symlink } from "node:fs/promises";
import { createServer } from "node:http";
import { dirname, extname, join, normalize, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * A node_modules folder holding `wabash` as a link to this checkout, for
 * bundlers to resolve the package as an app that installed it would: by
 * its package.json (export conditions, `sideEffects`). Resolves to the folder.
 */
export async function packageLink() {
  const modules = join(root, "target", "self", "node_modules");
  await mkdir(modules, { recursive: true });
  await symlink(root, join(modules, "wabash"), "dir").catch((error) => {
    if (error.code !== "EEXIST") throw error;
  });
  return modules;
}

/** Builds the playground into `outdir` and resolves to the files written. */
export async function buildPlayground(outdir = join(root, "target", "playground")) {
  await stat(join(root, "dist", "wabash_bg.wasm")).catch(() => {
    throw new Error("dist/wabash_bg.wasm is missing: run `sh scripts/setup.sh` (or scripts/dev-build.sh) first");
  });
  await rm(outdir, { recursive: true, force: true });
  await mkdir(outdir, { recursive: true });
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: ["playground/main.js", "playground/worker.js", "playground/style.css"],
    outdir,
    bundle: true,
    format: "esm",
    platform: "browser",
    target: ["es2022", "chrome111", "firefox115", "safari16.4"],
    minify: true,
    legalComments: "linked",
    nodePaths: [await packageLink()],
    logLevel: "warning",
  });
  await copyFile(join(root, "playground", "index.html"), join(outdir, "index.html"));
  await copyFile(join(root, "dist", "wabash_bg.wasm"), join(outdir, "wabash_bg.wasm"));
  return outdir;
}

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".wasm": "application/wasm",
  ".txt": "text/plain; charset=utf-8",
};

/**
 * Serves `dir` on `host:port` (0 picks a free port); resolves to the server
 * and its URL. Files carry an ETag and `Cache-Control: no-cache`, so a
 * reload revalidates and reuses the cached .wasm (and V8's compiled code).
 */
export async function servePlayground(dir, { host = "127.0.0.1", port = 0 } = {}) {
  const base = resolve(dir);
  const server = createServer(async (request, response) => {
    try {
      const path = decodeURIComponent(new URL(request.url ?? "/", "http://localhost").pathname);
      const file = normalize(join(base, path.endsWith("/") ? `${path}index.html` : path));
      if (file !== base && !file.startsWith(base + sep)) {
        response.writeHead(403).end();
        return;
      }
      const body = await readFile(file);
      const etag = `"${createHash("sha1").update(body).digest("hex").slice(0, 16)}"`;
      const headers = {
        "content-type": TYPES[extname(file)] ?? "application/octet-stream",
        "cache-control": "no-cache",
        etag,
      };
      if (request.headers["if-none-match"] === etag) {
        response.writeHead(304, headers).end();
        return;
      }
      response.writeHead(200, { ...headers, "content-length": body.length });
      response.end(request.method === "HEAD" ? undefined : body);
    } catch {
      response.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
    }
  });
  await new Promise((ready, fail) => {
    server.once("error", fail);
    server.listen(port, host, ready);
  });
  const address = server.address();
  return { server, url: `http://${host}:${address.port}/` };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const buildOnly = args.includes("--build");
  const outArg = buildOnly ? args[args.indexOf("--build") + 1] : undefined;
  const portIndex = args.indexOf("--port");
  const port = portIndex >= 0 ? Number(args[portIndex + 1]) : 8080;
  const outdir = await buildPlayground(outArg && !outArg.startsWith("--") ? resolve(outArg) : undefined);
  console.log(`playground: built into ${outdir}`);
  if (!buildOnly) {
    const { url } = await servePlayground(outdir, { port });
    console.log(`playground: open ${url} (Ctrl-C stops the server)`);
  }
}
