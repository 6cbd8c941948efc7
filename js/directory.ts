/**
 * Mounts: directories the host supplies, put at paths in the sandbox.
 *
 * A mount is a {@link DirectoryAdapter} (four async methods over paths
 * relative to its root) and a mode: read-only (every change fails with
 * `Read-only file system`) or copy-on-write (changes land in the sandbox's
 * memory; the adapter is only ever read). The engine asks the adapter
 * lazily, when a script touches a path, and only about canonical paths:
 * absolute within the adapter's root, no `.` or `..`, symlinks resolved by
 * the engine in the sandbox's own namespace. So mounting a tree of any size
 * costs nothing up front, and an adapter needs no path logic of its own.
 *
 * Built in: {@link nodeDirectory} (a directory of the machine, Node only),
 * {@link mapDirectory} (a map of contents or lazy loaders), and
 * `opfsDirectory` (a browser's Origin Private File System, in
 * opfs-directory.ts). Anything else (an object store, a zip) is a few lines
 * of {@link DirectoryAdapter}; see docs/host.md.
 */
import { WabashError } from "./errors.js";
import type { FileContent } from "./options.js";

const encoder = new TextEncoder();

/** What an adapter says about a path (as `lstat`: a symlink is described itself). */
export interface DirectoryStat {
  /** The node's kind; other kinds should be reported as `"file"`. */
  type: "file" | "directory" | "symlink";
  /** Size in bytes (a symlink's: the length of its target). */
  size: number;
  /** Permission bits such as `0o644` (default `0o644` for files, `0o755` otherwise). */
  mode?: number;
  /** Last modification, milliseconds since the epoch. */
  mtimeMs?: number;
}

/** One name in a directory. */
export interface DirectoryEntry {
  /** The name (entries with `/`, NUL, `.` or `..` are ignored). */
  name: string;
  /** Its kind, without following symlinks. */
  type: "file" | "directory" | "symlink";
}

/**
 * A tree the host supplies. Every path is absolute within the tree (`/` is
 * its root) and canonical. Reject with an error whose `code` is `"ENOENT"`
 * for a missing path (`"ENOTDIR"`, `"EACCES"`... as fits); any other
 * rejection is an I/O error in the sandbox.
 */
export interface DirectoryAdapter {
  /** Describes `path`, not following a final symlink. */
  stat(path: string): Promise<DirectoryStat>;
  /** The entries of directory `path`, in any order. */
  list(path: string): Promise<DirectoryEntry[]>;
  /** Up to `length` bytes of file `path` from `offset`; fewer (or none) at its end. */
  read(path: string, offset: number, length: number): Promise<Uint8Array>;
  /** The target of symlink `path` (optional: trees without symlinks need not have it). */
  readlink?(path: string): Promise<string>;
}

/** How a mount shows its directory. Default: read-only. */
export interface MountOptions {
  /** Every change fails with `Read-only file system` (the default). */
  readOnly?: boolean;
  /**
   * Changes land in the sandbox's memory and the directory is never
   * written; `bash.mountChanges`, `bash.mountFiles` and `bash.mountPatch`
   * give them back.
   */
  copyOnWrite?: boolean;
}

/** A directory ready to be mounted: the value type of the `mounts` option. */
export interface Mount {
  /** The adapter the engine reads. */
  readonly directory: DirectoryAdapter;
  /** Read-only or copy-on-write. */
  readonly mode: "readOnly" | "copyOnWrite";
}

/** An error with a Node-style `code`, as adapters reject with. */
export function directoryError(code: string, message: string): Error & { code: string } {
  return Object.assign(new Error(`${code}: ${message}`), { code });
}

/** The mode `options` ask for, checked. */
function modeOf(options: MountOptions | undefined): Mount["mode"] {
  if (options !== undefined && (options === null || typeof options !== "object")) {
    throw new WabashError("WABASH_INVALID_OPTIONS", "mount options must be an object");
  }
  if (options?.readOnly && options.copyOnWrite) {
    throw new WabashError("WABASH_INVALID_OPTIONS", "a mount is readOnly or copyOnWrite, not both");
  }
  if (options?.readOnly === false && !options.copyOnWrite) {
    throw new WabashError("WABASH_INVALID_OPTIONS", "a mount is readOnly unless copyOnWrite: writing through to the host is not supported");
  }
  return options?.copyOnWrite ? "copyOnWrite" : "readOnly";
}

/** Mounts any adapter: `mounts: { "/data": mountDirectory(myAdapter, { copyOnWrite: true }) }`. */
export function mountDirectory(directory: DirectoryAdapter, options?: MountOptions): Mount {
  for (const method of ["stat", "list", "read"] as const) {
    if (typeof directory?.[method] !== "function") {
      throw new WabashError("WABASH_INVALID_OPTIONS", `a directory adapter needs a ${method}(path) method`);
    }
  }
  return Object.freeze({ directory, mode: modeOf(options) });
}

/** An absolute path without empty, `.` or `..` components, NUL or a trailing `/`. */
const CANONICAL = /^(?:\/(?!\.\.?(?:\/|$))[^/\0]+)+$/;

/** True for the `{ size, load }` form of {@link LazyContent}. */
function isSized(content: LazyContent | undefined): content is { size: number; load: Loader } {
  return typeof content === "object" && content !== null && !(content instanceof Uint8Array) && typeof (content as { load?: unknown }).load === "function";
}

/** `raw` made canonical (absolute, no `.` or empty components); `..` and NUL are refused. */
function canonical(raw: string): string {
  const parts = raw.split("/").filter((part) => part !== "" && part !== ".");
  if (parts.includes("..") || parts.some((part) => part.includes("\0"))) {
    throw new WabashError("WABASH_INVALID_OPTIONS", `mapDirectory: invalid path ${JSON.stringify(raw)}`);
  }
  return `/${parts.join("/")}`;
}

/** What produces a file's contents when first needed. */
export type Loader = () => FileContent | Promise<FileContent>;

/**
 * A file's contents; or a function that produces them when first needed;
 * or that function with the size known in advance (`{ size, load }`), so
 * that listing and `stat` (`ls` stats every name) need not load the file.
 */
export type LazyContent = FileContent | Loader | { size: number; load: Loader };

/**
 * A tree built from a map of paths to contents or lazy loaders; directories
 * are implied by the paths (a path ending in `/` is an empty directory). A
 * loader runs once, the first time a script touches its file (any access,
 * `stat` included, since the size must be known, unless the entry gives it:
 * `{ size, load }`). A loaded file whose length differs from its declared
 * size shows its real length from then on.
 *
 * ```ts
 * mapDirectory({ "/a.txt": "alpha\n", "/big.csv": () => fetchFromStore("big.csv") }, { copyOnWrite: true })
 * ```
 */
export function mapDirectory(entries: Record<string, LazyContent>, options?: MountOptions): Mount {
  if (entries === null || typeof entries !== "object") {
    throw new WabashError("WABASH_INVALID_OPTIONS", "mapDirectory needs an object of paths");
  }
  const directories = new Map<string, Map<string, "file" | "directory">>([["/", new Map()]]);
  const files = new Map<string, LazyContent>();
  const loaded = new Map<string, Promise<Uint8Array>>();
  const addDirectory = (path: string): Map<string, "file" | "directory"> => {
    let children = directories.get(path);
    if (!children) {
      children = new Map();
      directories.set(path, children);
      const cut = path.lastIndexOf("/");
      addDirectory(cut <= 0 ? "/" : path.slice(0, cut)).set(path.slice(cut + 1), "directory");
    }
    return children;
  };
  for (const raw in entries) {
    const content = entries[raw] as LazyContent;
    // Canonical paths (the usual case) need no splitting.
    const path = CANONICAL.test(raw) ? raw : canonical(raw);
    if (raw.endsWith("/")) {
      addDirectory(path);
      continue;
    }
    if (path === "/" || directories.has(path)) {
      throw new WabashError("WABASH_INVALID_OPTIONS", `mapDirectory: ${JSON.stringify(raw)} is a directory`);
    }
    const cut = path.lastIndexOf("/");
    addDirectory(cut === 0 ? "/" : path.slice(0, cut)).set(path.slice(cut + 1), "file");
    files.set(path, content);
  }
  const contents = (path: string): Promise<Uint8Array> => {
    let promise = loaded.get(path);
    if (!promise) {
      const source = files.get(path);
      promise = (async () => {
        const value = typeof source === "function" ? await source() : isSized(source) ? await source.load() : source;
        if (typeof value === "string") {
          return encoder.encode(value);
        }
        if (value instanceof Uint8Array) {
          return value;
        }
        throw directoryError("EIO", `the loader of ${path} gave neither a string nor a Uint8Array`);
      })();
      // A loader that failed is tried again next time.
      promise.catch(() => loaded.delete(path));
      loaded.set(path, promise);
    }
    return promise;
  };
  const missing = (path: string): Error => directoryError("ENOENT", `no such file or directory, '${path}'`);
  return mountDirectory(
    {
      async stat(path) {
        if (directories.has(path)) {
          return { type: "directory", size: 0 };
        }
        if (!files.has(path)) {
          throw missing(path);
        }
        const source = files.get(path);
        if (isSized(source) && !loaded.has(path)) {
          return { type: "file", size: source.size };
        }
        return { type: "file", size: (await contents(path)).byteLength };
      },
      async list(path) {
        const children = directories.get(path);
        if (!children) {
          throw files.has(path) ? directoryError("ENOTDIR", `not a directory, '${path}'`) : missing(path);
        }
        return [...children].map(([name, type]) => ({ name, type }));
      },
      async read(path, offset, length) {
        if (!files.has(path)) {
          throw directories.has(path) ? directoryError("EISDIR", `is a directory, '${path}'`) : missing(path);
        }
        return (await contents(path)).subarray(offset, offset + length);
      },
    },
    options,
  );
}

/** Makes a {@link Mount} of a host directory (registered by the Node entry). */
export type NodeDirectoryFactory = (path: string, options?: MountOptions) => Mount;

let nodeFactory: NodeDirectoryFactory | undefined;

/** Registers the Node.js implementation of {@link nodeDirectory} (the node entry does). */
export function setNodeDirectoryFactory(factory: NodeDirectoryFactory): void {
  nodeFactory = factory;
}

/**
 * A directory of the machine, mounted lazily (Node.js only): nothing is
 * read until a script touches it, and nothing outside `path` is ever read,
 * symlinks included (a symlink in the tree is shown as a symlink and
 * resolved in the sandbox; a directory on the way that resolves outside
 * `path` is refused with `Permission denied`).
 *
 * ```ts
 * new Bash({ mounts: { "/project": nodeDirectory("./repo", { copyOnWrite: true }) } })
 * ```
 */
export function nodeDirectory(path: string, options?: MountOptions): Mount {
  if (!nodeFactory) {
    throw new WabashError("WABASH_INVALID_OPTIONS", "nodeDirectory needs Node.js (import wabash through its node entry)");
  }
  return nodeFactory(path, options);
}

/** The `mounts` option as the engine receives it, checked. */
export function mountList(option: unknown): { point: string; mode: Mount["mode"]; directory: DirectoryAdapter }[] {
  if (option === undefined) {
    return [];
  }
  if (option === null || typeof option !== "object") {
    throw new WabashError("WABASH_INVALID_OPTIONS", "mounts must be an object of mount points");
  }
  return Object.entries(option as Record<string, unknown>).map(([point, mount]) => {
    const value = mount as Partial<Mount> | null;
    if (!point.startsWith("/") || point.replace(/\/+$/, "") === "") {
      throw new WabashError("WABASH_INVALID_OPTIONS", `mount point ${JSON.stringify(point)} must be an absolute path other than /`);
    }
    if (value === null || typeof value !== "object" || (value.mode !== "readOnly" && value.mode !== "copyOnWrite") || !value.directory) {
      throw new WabashError(
        "WABASH_INVALID_OPTIONS",
        `mounts[${JSON.stringify(point)}] must be made by nodeDirectory, mapDirectory or mountDirectory`,
      );
    }
    return { point, mode: value.mode, directory: guarded(value.directory) };
  });
}

/** The adapter with every answer checked to be a promise (a throw becomes a rejection). */
function guarded(directory: DirectoryAdapter): DirectoryAdapter {
  const call = async <T>(run: () => Promise<T>): Promise<T> => run();
  return {
    stat: (path) => call(() => directory.stat(path)),
    list: (path) => call(() => directory.list(path)),
    read: (path, offset, length) => call(() => directory.read(path, offset, length)),
    readlink: (path) =>
      call(() => {
        if (typeof directory.readlink !== "function") {
          throw directoryError("EINVAL", `not a symlink, '${path}'`);
        }
        return directory.readlink(path);
      }),
  };
}
