// Bundles an app the way its users' tools do, against this checkout's
// package (`wabash` resolves through a node_modules link to the checkout,
// so package.json's export conditions and `sideEffects` are the real ones).
import { copyFile, mkdir, mkdtemp, readFile, readdir, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import * as esbuild from "esbuild";
import { packageLink } from "../../../scripts/playground.mjs";

/** The repository's root folder. */
export const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

/**
 * An esbuild plugin doing what wrangler (and Next for edge routes) do with
 * `import x from "./file.wasm"` and `"./file.wasm?module"`: the file stays a
 * separate module the runtime compiles, the import is kept, and the file is
 * copied next to the bundle.
 */
function wasmModules(copied) {
  return {
    name: "wasm-modules",
    setup(build) {
      build.onResolve({ filter: /\.wasm(\?module)?$/ }, (args) => {
        const file = resolve(args.resolveDir, args.path.replace(/\?module$/, ""));
        copied.add(file);
        return { path: `./${basename(file)}`, external: true };
      });
    },
  };
}

/**
 * Bundles `entry` for a worker runtime with esbuild as wrangler runs it
 * (`conditions` workerd/worker/browser, ESM, .wasm imports kept as modules)
 * into a new temporary folder; resolves to the folder and its files.
 */
export async function bundleForEdge(entry, { conditions = ["workerd", "worker", "browser"], out = "worker.js", define = {} } = {}) {
  const outdir = await mkdtemp(join(tmpdir(), "wabash-edge-"));
  const copied = new Set();
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: [entry],
    outfile: join(outdir, out),
    bundle: true,
    format: "esm",
    platform: "neutral",
    mainFields: ["browser", "module", "main"],
    conditions,
    target: "es2022",
    minify: true,
    define,
    nodePaths: [await packageLink()],
    plugins: [wasmModules(copied)],
    logLevel: "silent",
  });
  for (const file of copied) {
    await copyFile(file, join(outdir, basename(file)));
  }
  return { dir: outdir, files: await readdir(outdir) };
}

/**
 * Bundles `entry` for a browser page with esbuild (the `browser`
 * condition); the .wasm is copied next to the bundle, where the entry
 * fetches it. Resolves to the output folder.
 */
export async function bundleForBrowser(entry, outdir) {
  await mkdir(outdir, { recursive: true });
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: [entry],
    outdir,
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    nodePaths: [await packageLink()],
    logLevel: "silent",
  });
  await copyFile(join(root, "dist", "wabash_bg.wasm"), join(outdir, "wabash_bg.wasm"));
  return outdir;
}

/** The gzip (level 9) size of `files` in `dir` (default: all) together, as an upload counts it. */
export async function gzipSize(dir, files) {
  let raw = 0;
  let gzip = 0;
  for (const name of files ?? (await readdir(dir))) {
    const path = join(dir, name);
    if ((await stat(path)).isFile()) {
      const bytes = await readFile(path);
      raw += bytes.length;
      gzip += gzipSync(bytes, { level: 9 }).length;
    }
  }
  return { raw, gzip };
}

/**
 * Bundles `entry` for a browser page with Rollup and its node-resolve
 * plugin (the `browser` condition, package.json `sideEffects` honored), as
 * Vite's production build does; the .wasm is copied next to the bundle.
 */
export async function bundleWithRollup(entry, outdir) {
  const { rollup } = await import("rollup");
  const { nodeResolve } = await import("@rollup/plugin-node-resolve");
  const build = await rollup({
    input: join(root, entry),
    plugins: [nodeResolve({ browser: true, exportConditions: ["browser"], modulePaths: [await packageLink()] })],
    onwarn: () => undefined,
  });
  await build.write({ dir: outdir, format: "es", inlineDynamicImports: true });
  await build.close();
  await copyFile(join(root, "dist", "wabash_bg.wasm"), join(outdir, "wabash_bg.wasm"));
  return outdir;
}
