/**
 * {@link nodeDirectory} for Node.js: a host directory as a mount adapter.
 *
 * Nothing is read before a script touches a path. The engine only ever asks
 * about canonical paths inside the tree, and this adapter checks again on
 * the host side that what it touches lies inside the real directory: the
 * directory holding a path must resolve (symlinks followed by the host) to
 * the mounted directory or below it, and the last component is never
 * followed (`lstat`, `O_NOFOLLOW`). A symlink in the tree is shown to the
 * sandbox as a symlink, and the sandbox resolves it in its own namespace,
 * so `link -> /etc/passwd` leads to the sandbox's `/etc/passwd`, never the
 * host's.
 */
import { constants, realpathSync, statSync } from "node:fs";
import { lstat, open, readdir, readlink, realpath } from "node:fs/promises";
import { dirname, join, sep } from "node:path";
import { directoryError, mountDirectory, type DirectoryStat, type Mount, type MountOptions } from "./directory.js";
import { WabashError } from "./errors.js";

/** The type name of a Node `Stats` or `Dirent`. */
function kindOf(node: { isDirectory(): boolean; isSymbolicLink(): boolean }): DirectoryStat["type"] {
  return node.isDirectory() ? "directory" : node.isSymbolicLink() ? "symlink" : "file";
}

/** Node's error as the adapter reports it: its code kept, the host path left out of the message. */
function hostError(error: unknown, path: string): Error {
  const code = typeof (error as { code?: unknown })?.code === "string" ? (error as { code: string }).code : "EIO";
  return directoryError(code, `cannot read '${path}'`);
}

/** A mount of host directory `root` (read-only unless `copyOnWrite`). */
export function nodeDirectoryMount(root: string, options?: MountOptions): Mount {
  let base: string;
  try {
    base = realpathSync(root);
  } catch (error) {
    throw new WabashError("WABASH_INVALID_OPTIONS", `nodeDirectory: cannot open ${root}: ${(error as Error).message}`, { cause: error });
  }
  if (!statSync(base).isDirectory()) {
    throw new WabashError("WABASH_INVALID_OPTIONS", `nodeDirectory: ${root} is not a directory`);
  }
  const within = (real: string): boolean => real === base || real.startsWith(base.endsWith(sep) ? base : base + sep);
  /** The host path of sandbox-relative `path`, after checking the directory holding it. */
  const hostPath = async (path: string, whole: boolean): Promise<string> => {
    const parts = path.split("/").filter((part) => part !== "");
    if (parts.some((part) => part === "." || part === ".." || part.includes("\0"))) {
      throw directoryError("EACCES", `refused path '${path}'`);
    }
    const full = join(base, ...parts);
    const checked = whole ? full : dirname(full);
    let real: string;
    try {
      real = await realpath(checked);
    } catch (error) {
      throw hostError(error, path);
    }
    if (!within(real)) {
      throw directoryError("EACCES", `'${path}' resolves outside the mounted directory`);
    }
    return parts.length === 0 ? base : full;
  };
  return mountDirectory(
    {
      async stat(path) {
        const full = await hostPath(path, path === "/");
        try {
          const stats = await lstat(full);
          return { type: kindOf(stats), size: stats.size, mode: stats.mode & 0o7777, mtimeMs: stats.mtimeMs };
        } catch (error) {
          throw hostError(error, path);
        }
      },
      async list(path) {
        const full = await hostPath(path, true);
        try {
          const entries = await readdir(full, { withFileTypes: true });
          return entries.map((entry) => ({ name: entry.name, type: kindOf(entry) }));
        } catch (error) {
          throw hostError(error, path);
        }
      },
      async read(path, offset, length) {
        const full = await hostPath(path, false);
        let handle;
        try {
          handle = await open(full, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
          const buffer = new Uint8Array(length);
          const { bytesRead } = await handle.read(buffer, 0, length, offset);
          return buffer.subarray(0, bytesRead);
        } catch (error) {
          throw hostError(error, path);
        } finally {
          await handle?.close();
        }
      },
      async readlink(path) {
        const full = await hostPath(path, false);
        try {
          return await readlink(full);
        } catch (error) {
          throw hostError(error, path);
        }
      },
    },
    options,
  );
}
