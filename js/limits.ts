/** Checking the `executionLimits` option before it reaches the engine. */
import { WabashError } from "./errors.js";
import type { ExecutionLimits } from "./options.js";

/** The limits that are counts; the others are milliseconds. */
const COUNTS = [
  "maxCommandCount",
  "maxLoopIterations",
  "maxCallDepth",
  "maxSubstitutionDepth",
  "maxStringLength",
  "maxArrayElements",
  "maxOutputSize",
  "maxSessionCommandCount",
  "maxSessionLoopIterations",
  "maxAwkIterations",
  "maxJqIterations",
  "maxSedIterations",
  "maxBcIterations",
] as const;
const DURATIONS = ["maxDurationMs", "maxSessionDurationMs"] as const;

/** A copy of `limits` with every field checked; unknown fields are errors, not silently ignored. */
export function checkLimits(limits: unknown): ExecutionLimits {
  if (limits === undefined) {
    return {};
  }
  if (limits === null || typeof limits !== "object" || Array.isArray(limits)) {
    throw new WabashError("WABASH_INVALID_OPTIONS", "executionLimits must be an object");
  }
  const checked: Record<string, number> = {};
  for (const [name, value] of Object.entries(limits)) {
    if (value === undefined) {
      continue;
    }
    if ((COUNTS as readonly string[]).includes(name)) {
      if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
        throw new WabashError("WABASH_INVALID_OPTIONS", `executionLimits.${name} must be a non-negative integer`);
      }
    } else if ((DURATIONS as readonly string[]).includes(name)) {
      if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
        throw new WabashError("WABASH_INVALID_OPTIONS", `executionLimits.${name} must be a non-negative number of milliseconds`);
      }
    } else {
      throw new WabashError("WABASH_INVALID_OPTIONS", `executionLimits.${name} is not a known limit`);
    }
    checked[name] = value;
  }
  return checked;
}
