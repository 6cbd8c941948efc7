// The settings a new playground session starts with, shared by the page
// (main.js) and the shell worker (worker.js), so that the worker can start
// the session before the page asks for it.

/** The sandbox's execution limits and network policy at page load. */
export const DEFAULT_OPTIONS = {
  executionLimits: { maxDurationMs: 60_000, maxCommandCount: 10_000_000, maxOutputSize: 16 << 20 },
  network: { allowedUrlPrefixes: ["https://api.github.com/"], allowedMethods: ["GET", "HEAD"] },
};
