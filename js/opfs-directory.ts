/**
 * A browser's Origin Private File System as a mount: `opfsDirectory(handle)`
 * turns a `FileSystemDirectoryHandle` (from `navigator.storage.getDirectory()`,
 * in a page or a worker) into a {@link DirectoryAdapter}. Like every mount it
 * is lazy (a file is read when a script touches it, in the slices the
 * script reads) and never written: read-only, or copy-on-write with the
 * changes handed back by `bash.mountFiles` for the host to store.
 *
 * The handle types are described structurally here, so the package needs no
 * DOM typings and any object with the same shape (a polyfill, a test double)
 * works too.
 */
import { directoryError, mountDirectory, type DirectoryAdapter, type DirectoryEntry, type DirectoryStat, type Mount, type MountOptions } from "./directory.js";

/** The part of a `FileSystemFileHandle` the adapter uses. */
export interface OpfsFileHandle {
  /** `"file"`. */
  readonly kind: "file";
  /** The file's contents and metadata. */
  getFile(): Promise<{ size: number; lastModified: number; slice(start: number, end: number): { arrayBuffer(): Promise<ArrayBuffer> } }>;
}

/** The part of a `FileSystemDirectoryHandle` the adapter uses. */
export interface OpfsDirectoryHandle {
  /** `"directory"`. */
  readonly kind: "directory";
  /** The child directory `name` (rejects with `NotFoundError` or `TypeMismatchError`). */
  getDirectoryHandle(name: string): Promise<OpfsDirectoryHandle>;
  /** The child file `name` (rejects with `NotFoundError` or `TypeMismatchError`). */
  getFileHandle(name: string): Promise<OpfsFileHandle>;
  /** The children, as `[name, handle]` pairs. */
  entries(): AsyncIterable<[string, OpfsDirectoryHandle | OpfsFileHandle]>;
}

/** The adapter's error for a DOMException `error` met at `path`. */
function translate(error: unknown, path: string): Error {
  const name = (error as { name?: unknown } | null)?.name;
  if (name === "NotFoundError") return directoryError("ENOENT", path);
  if (name === "TypeMismatchError") return directoryError("ENOTDIR", path);
  if (name === "NotAllowedError" || name === "SecurityError") return directoryError("EACCES", path);
  return error instanceof Error ? error : new Error(String(error));
}

/** Walks from `root` to the handle at canonical `path` (`/` is the root). */
async function lookUp(root: OpfsDirectoryHandle, path: string): Promise<OpfsDirectoryHandle | OpfsFileHandle> {
  const names = path.split("/").filter((name) => name !== "");
  let directory = root;
  for (const [index, name] of names.entries()) {
    const last = index === names.length - 1;
    try {
      if (!last) {
        directory = await directory.getDirectoryHandle(name);
        continue;
      }
      // A name is one kind or the other: ask for a file first, as most paths are files.
      return await directory.getFileHandle(name).catch(async (error: unknown) => {
        if ((error as { name?: unknown } | null)?.name !== "TypeMismatchError") throw error;
        return directory.getDirectoryHandle(name);
      });
    } catch (error) {
      throw translate(error, path);
    }
  }
  return directory;
}

/** The {@link DirectoryAdapter} over an OPFS directory handle. */
export function opfsAdapter(root: OpfsDirectoryHandle): DirectoryAdapter {
  return {
    async stat(path: string): Promise<DirectoryStat> {
      const handle = await lookUp(root, path);
      if (handle.kind === "directory") return { type: "directory", size: 0 };
      const file = await handle.getFile().catch((error: unknown) => Promise.reject(translate(error, path)));
      return { type: "file", size: file.size, mtimeMs: file.lastModified };
    },
    async list(path: string): Promise<DirectoryEntry[]> {
      const handle = await lookUp(root, path);
      if (handle.kind !== "directory") throw directoryError("ENOTDIR", path);
      const entries: DirectoryEntry[] = [];
      try {
        for await (const [name, child] of handle.entries()) {
          entries.push({ name, type: child.kind === "directory" ? "directory" : "file" });
        }
      } catch (error) {
        throw translate(error, path);
      }
      return entries;
    },
    async read(path: string, offset: number, length: number): Promise<Uint8Array> {
      const handle = await lookUp(root, path);
      if (handle.kind !== "file") throw directoryError("EISDIR", path);
      try {
        const file = await handle.getFile();
        return new Uint8Array(await file.slice(offset, offset + length).arrayBuffer());
      } catch (error) {
        throw translate(error, path);
      }
    },
  };
}

/**
 * Mounts an OPFS directory: `mounts: { "/work": opfsDirectory(await
 * navigator.storage.getDirectory(), { copyOnWrite: true }) }`. Read-only by
 * default; the directory itself is never written.
 */
export function opfsDirectory(root: OpfsDirectoryHandle, options?: MountOptions): Mount {
  return mountDirectory(opfsAdapter(root), options);
}
