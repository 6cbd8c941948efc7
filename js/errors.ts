/**
 * Errors the wrapper raises. Scripts never raise them: a script that fails
 * gets bash's message on stderr and a status, like in bash.
 */

/** Stable codes of {@link WabashError}. */
export type WabashErrorCode =
  /**
   * The engine crashed (a bug: a panic or a stack overflow). The sandbox was
   * brought back to its state before the failing operation
   * (`error.recovery === "restored"`) or, where that was not possible, reset
   * to a fresh one (`"reset"`); the message says which.
   */
  | "WABASH_TRAP"
  /** The engine ran out of memory (the `memoryLimit` option); recovered as for `WABASH_TRAP`. */
  | "WABASH_MEMORY_LIMIT"
  /** Bytes given to `Bash.restore` or `bash.restore` are not a snapshot this version reads. */
  | "WABASH_SNAPSHOT"
  /** An option had the wrong type or shape. */
  | "WABASH_INVALID_OPTIONS"
  /** An internal invariant failed in the boundary. */
  | "WABASH_INTERNAL"
  /** The engine could not be loaded or compiled. */
  | "WABASH_LOAD";

/** What became of a sandbox whose engine crashed. */
export type Recovery = "restored" | "reset";

/** An error from the wrapper or the engine, with a stable `code`. */
export class WabashError extends Error {
  /** What went wrong, stable across versions. */
  readonly code: WabashErrorCode;
  /**
   * For `WABASH_TRAP` and `WABASH_MEMORY_LIMIT`: `"restored"` when the
   * sandbox is back to its state before the failing operation, `"reset"`
   * when it had to start afresh from the constructor's options.
   */
  readonly recovery?: Recovery;

  /** An error with `code` and `message`, optionally caused by `cause`. */
  constructor(code: WabashErrorCode, message: string, options?: { cause?: unknown; recovery?: Recovery }) {
    super(message, options);
    this.name = "WabashError";
    this.code = code;
    if (options?.recovery !== undefined) {
      this.recovery = options.recovery;
    }
  }
}

/**
 * True for an error the engine returned on purpose (a JS `Error` with a
 * string `code`, such as `ENOENT`), as opposed to a trap.
 */
export function hasCode(error: unknown): error is Error & { code: string } {
  return error instanceof Error && typeof (error as { code?: unknown }).code === "string";
}
