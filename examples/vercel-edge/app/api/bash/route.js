// A Vercel edge function (Next.js route handler) exposing a wabash sandbox
// as an HTTP tool endpoint.
//
//   POST /api/bash  {"script": "ls | wc -l", "stdin": "optional", "snapshot": "optional base64"}
//   -> 200 {"stdout": "...", "stderr": "...", "exitCode": 0, "snapshot": "base64"}
//
// Edge functions keep nothing between requests, so the session travels
// with the client: send back the `snapshot` of the last answer to go on
// where it left off (files, variables, functions, cwd). Next bundles the
// package's `edge-light` entry, which imports the engine as a compiled
// WebAssembly.Module (`.wasm?module`).
import { Bash } from "wabash";

export const runtime = "edge";

/** Scripts and snapshots longer than these are refused (bytes). */
const MAX_SCRIPT = 64 * 1024;
const MAX_SNAPSHOT = 2 * 1024 * 1024;

function json(body, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

function toBase64(bytes) {
  let binary = "";
  for (let index = 0; index < bytes.length; index += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  }
  return btoa(binary);
}

function fromBase64(text) {
  return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
}

/** The sandbox's options, from the deployment's environment variables. */
function options() {
  const env = globalThis.process?.env ?? {};
  const prefixes = (env.ALLOWED_URL_PREFIXES ?? "").split(/[\s,]+/).filter(Boolean);
  return {
    executionLimits: { maxDurationMs: 10_000, maxOutputSize: 1 << 20 },
    ...(prefixes.length > 0 ? { network: { allowedUrlPrefixes: prefixes, allowedMethods: ["GET", "HEAD"] } } : {}),
  };
}

export async function POST(request) {
  let body;
  try {
    body = await request.json();
  } catch {
    return json({ error: "the body must be JSON" }, 400);
  }
  const { script, stdin, snapshot } = body ?? {};
  if (typeof script !== "string" || script.length > MAX_SCRIPT) {
    return json({ error: `"script" must be a string of at most ${MAX_SCRIPT} bytes` }, 400);
  }
  if (snapshot !== undefined && (typeof snapshot !== "string" || snapshot.length > (MAX_SNAPSHOT * 4) / 3 + 4)) {
    return json({ error: '"snapshot" must be the base64 text an earlier answer returned' }, 400);
  }
  let bash;
  try {
    bash = snapshot ? await Bash.restore(fromBase64(snapshot), options()) : new Bash(options());
  } catch (error) {
    return json({ error: `the snapshot cannot be restored: ${error.message}` }, 400);
  }
  const result = await bash.exec(script, typeof stdin === "string" ? { stdin } : {});
  return json({
    stdout: result.stdout,
    stderr: result.stderr,
    exitCode: result.exitCode,
    snapshot: toBase64(await bash.snapshot()),
  });
}

export function GET() {
  return json({ error: 'POST a JSON body {"script": "...", "snapshot": "optional"}' }, 405);
}
