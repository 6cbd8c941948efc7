/**
 * `--mount HOSTDIR:SANDBOXDIR`: copies a host directory tree into the
 * sandbox. The host side is only read; symbolic links are skipped so that a
 * link cannot pull in files from outside the tree.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** Most files one mount may copy. */
const MAX_FILES = 100_000;
/** Most bytes one mount may copy. */
const MAX_BYTES = 512 * 1024 * 1024;

/** A host tree read into memory: sandbox directories and files. */
export interface LoadedTree {
  /** Sandbox directories to create, parents first. */
  directories: string[];
  /** Sandbox file paths and their bytes. */
  files: Record<string, Uint8Array>;
}

/** Reads the host directory `host` as the sandbox directory `sandbox`. */
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
