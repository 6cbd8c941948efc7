/**
 * wabash: a bash-compatible shell sandbox over an in-memory filesystem.
 *
 * ```ts
 * import { Bash } from "wabash";
 * const bash = new Bash({ files: { "/home/user/a.txt": "hello\n" } });
 * const { stdout, exitCode } = await bash.exec("cat a.txt | wc -l");
 * ```
 *
 * Every runtime entry (node, browser, workerd, edge-light) exports exactly this.
 */
export { Bash } from "./bash.js";
export {
  defineCommand,
  type CommandContext,
  type CommandExecResult,
  type CommandFunction,
  type CommandOptions,
  type CommandResult,
  type CustomCommand,
  type OutputWriter,
} from "./commands.js";
export {
  mapDirectory,
  mountDirectory,
  nodeDirectory,
  type DirectoryAdapter,
  type DirectoryEntry,
  type DirectoryStat,
  type LazyContent,
  type Mount,
  type MountOptions,
} from "./directory.js";
export { opfsAdapter, opfsDirectory, type OpfsDirectoryHandle, type OpfsFileHandle } from "./opfs-directory.js";
export { WabashError, type Recovery, type WabashErrorCode } from "./errors.js";
export type { DefenseOptions, Violation, ViolationType } from "./defense.js";
export type { NetworkDecision, NetworkOptions, NetworkRequest } from "./network.js";
export type {
  BashFs,
  BashOptions,
  CrashEvent,
  DirEntry,
  ExecOptions,
  ExecResult,
  ExecutionLimits,
  FileContent,
  FileKind,
  FileStat,
  FsChanges,
  InputStream,
  MountFile,
  SandboxPolicy,
} from "./options.js";
export { describeSandbox, type DescribeOptions, type DescribedMount } from "./describe.js";
export { setEngineModule } from "./module-source.js";
