/**
 * Errors the wrapper raises. Scripts never raise them: a script that fails
 * gets bash's message on stderr and a status, like in bash.
 */

/** Stable codes of {@link WabashError}. */
export type WabashErrorCode =
  /** The engine crashed (a bug: a panic, stack or memory exhaustion). The sandbox was reset. */
  | "WABASH_TRAP"
  /** An option had the wrong type or shape. */
  | "WABASH_INVALID_OPTIONS"
  /** An internal invariant failed in the boundary. */
  | "WABASH_INTERNAL"
  /** The engine could not be loaded or compiled. */
  | "WABASH_LOAD";

/** An error from the wrapper or the engine, with a stable `code`. */
export class WabashError extends Error {
  /** What went wrong, stable across versions. */
  readonly code: WabashErrorCode;

  /** An error with `code` and `message`, optionally caused by `cause`. */
  constructor(code: WabashErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "WabashError";
    this.code = code;
  }
}

/**
 * True for an error the engine returned on purpose (a JS `Error` with a
 * string `code`, such as `ENOENT`), as opposed to a trap.
 */
export function hasCode(error: unknown): error is Error & { code: string } {
  return error instanceof Error && typeof (error as { code?: unknown }).code === "string";
}
