/**
 * `--mount HOSTDIR:SANDBOXDIR[:ro|:cow]`: host directories for the CLI's
 * sandbox, through the same lazy adapter as the `mounts` option
 * ({@link nodeDirectory}): nothing is copied in, files are read when a
 * script touches them, and the host directory is never written.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Mount } from "../directory.js";
import { nodeDirectoryMount } from "../node-directory.js";

/** The `mounts` option for `--mount` specs: copy-on-write unless `ro`. */
export function mountsFor(specs: readonly { host: string; sandbox: string; mode?: "ro" | "cow" }[]): Record<string, Mount> {
  const mounts: Record<string, Mount> = {};
  for (const { host, sandbox, mode } of specs) {
    mounts[sandbox] = nodeDirectoryMount(host, mode === "ro" ? { readOnly: true } : { copyOnWrite: true });
  }
  return mounts;
}

/** Most files {@link loadTree} copies. */
const MAX_FILES = 100_000;
/** Most bytes {@link loadTree} copies. */
const MAX_BYTES = 512 * 1024 * 1024;

/** A host tree read into memory: sandbox directories and files. */
export interface LoadedTree {
  /** Sandbox directories to create, parents first. */
  directories: string[];
  /** Sandbox file paths and their bytes. */
  files: Record<string, Uint8Array>;
}

/**
 * Reads the host directory `host` whole, as the sandbox directory
 * `sandbox` (symlinks skipped), for callers that want a copy in the
 * sandbox's own files (`files` option) rather than a mount. The CLI mounts
 * with {@link mountsFor} instead.
 */
export function loadTree(host: string, sandbox: string): LoadedTree {
  const root = sandbox.replace(/\/+$/, "") || "/";
  const tree: LoadedTree = { directories: [root], files: {} };
  let count = 0;
  let bytes = 0;
  const pending: [string, string][] = [[host, root]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [hostDir, sandboxDir] = next;
    const entries = readdirSync(hostDir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      const target = sandboxDir === "/" ? `/${entry.name}` : `${sandboxDir}/${entry.name}`;
      if (entry.isDirectory()) {
        tree.directories.push(target);
        pending.push([join(hostDir, entry.name), target]);
      } else if (entry.isFile()) {
        const content = readFileSync(join(hostDir, entry.name));
        count += 1;
        bytes += content.byteLength;
        if (count > MAX_FILES || bytes > MAX_BYTES) {
          throw new Error(`--mount ${host}: more than ${MAX_FILES} files or ${MAX_BYTES} bytes`);
        }
        tree.files[target] = content;
      }
    }
  }
  return tree;
}
