// A Cloudflare Worker exposing a wabash sandbox as an HTTP tool endpoint.
//
//   POST /  {"script": "ls | wc -l", "session": "optional-id", "stdin": "optional"}
//   -> 200  {"stdout": "...", "stderr": "...", "exitCode": 0}
//
// With a `session` id and a KV namespace bound as SESSIONS, the sandbox
// (files, variables, functions, cwd) is kept between requests: restored
// from KV before the script runs and saved back after it.
import { Bash } from "wabash";

/** Scripts longer than this are refused (bytes). */
const MAX_SCRIPT = 64 * 1024;

function json(body, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

/** The sandbox's options, from the Worker's environment variables. */
function options(env) {
  const prefixes = (env.ALLOWED_URL_PREFIXES ?? "").split(/[\s,]+/).filter(Boolean);
  return {
    executionLimits: { maxDurationMs: Number(env.MAX_DURATION_MS ?? 10_000), maxOutputSize: 1 << 20 },
    ...(prefixes.length > 0 ? { network: { allowedUrlPrefixes: prefixes, allowedMethods: ["GET", "HEAD"] } } : {}),
  };
}

async function open(session, env) {
  if (session && env.SESSIONS) {
    const saved = await env.SESSIONS.get(`wabash:${session}`, "arrayBuffer");
    if (saved) {
      return Bash.restore(new Uint8Array(saved), options(env));
    }
  }
  return new Bash(options(env));
}

export default {
  async fetch(request, env) {
    if (request.method !== "POST") {
      return json({ error: 'POST a JSON body {"script": "...", "session": "optional id"}' }, 405);
    }
    let body;
    try {
      body = await request.json();
    } catch {
      return json({ error: "the body must be JSON" }, 400);
    }
    const { script, session, stdin } = body ?? {};
    if (typeof script !== "string" || script.length > MAX_SCRIPT) {
      return json({ error: `"script" must be a string of at most ${MAX_SCRIPT} bytes` }, 400);
    }
    if (session !== undefined && (typeof session !== "string" || !/^[\w-]{1,64}$/.test(session))) {
      return json({ error: '"session" must be 1-64 letters, digits, "_" or "-"' }, 400);
    }
    const bash = await open(session, env);
    const result = await bash.exec(script, typeof stdin === "string" ? { stdin } : {});
    if (session && env.SESSIONS) {
      await env.SESSIONS.put(`wabash:${session}`, await bash.snapshot(), { expirationTtl: 24 * 3600 });
    }
    return json({ stdout: result.stdout, stderr: result.stderr, exitCode: result.exitCode });
  },
};
