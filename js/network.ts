/**
 * The network policy: `curl` and `wget` inside the sandbox ask the host to
 * fetch, and every request comes through here before a byte leaves. The URL
 * is parsed with the WHATWG URL parser (the one `fetch` uses, so what is
 * checked is what is sent) and allowed only when its scheme, host and port
 * equal an allowlisted prefix's and its normalized path starts with the
 * prefix's path at a segment boundary. Methods are allowlisted, redirects
 * are never followed by `fetch` (the engine follows them hop by hop and each
 * hop comes back here), and the timeout, the response size cap (enforced
 * while streaming) and the request size cap are applied here. Headers the
 * host attaches to a prefix (secrets) are added after the check and scrubbed
 * from everything the script can read back.
 */
import { hostFetch, startTimer, stopTimer } from "./platform.js";
import { inSandbox, type DefensePolicy } from "./defense.js";
import { WabashError } from "./errors.js";

/** The `network` option of `new Bash()`. Without it, no request is allowed. */
export interface NetworkOptions {
  /**
   * URL prefixes a request may start with, e.g. `"https://api.example.com/v1/"`.
   * Scheme, host and port must be equal; the path must start with the
   * prefix's path at a `/` boundary (`/v1` allows `/v1` and `/v1/x`, not `/v10`).
   */
  allowedUrlPrefixes?: string[];
  /** Methods allowed (default `["GET", "HEAD"]`). */
  allowedMethods?: string[];
  /** Redirects one transfer may follow (default 20). */
  maxRedirects?: number;
  /** Milliseconds one request may take, body included (default 30000). */
  timeoutMs?: number;
  /** Bytes of response body one request may receive (default 10 MiB). */
  maxResponseSize?: number;
  /** Bytes of request body one request may send (default 10 MiB). */
  maxRequestSize?: number;
  /**
   * Headers added to requests whose URL matches a prefix (same matching as
   * `allowedUrlPrefixes`), e.g. `{ "https://api.example.com/": { Authorization: "Bearer ..." } }`.
   * They replace the script's headers of the same name; the script never
   * sees their values (`curl -v` shows `[REDACTED]`, and values of 8 or more
   * characters are scrubbed from response headers, bodies and errors).
   */
  headers?: Record<string, Record<string, string>>;
  /**
   * Called for every request, allowed or not, before it is sent: log it, or
   * refuse it by returning `false` or `{ allow: false, reason }`. It cannot
   * allow what the policy refuses. Runs under defense in depth.
   */
  onRequest?: (request: NetworkRequest) => NetworkDecision | Promise<NetworkDecision>;
  /** The `fetch` to use (default: the global one, captured when the package loaded). */
  fetch?: typeof fetch;
}

/** What {@link NetworkOptions.onRequest} is told. */
export interface NetworkRequest {
  /** The method (`GET`). */
  method: string;
  /** The URL as the script gave it (or as a redirect resolved it). */
  url: string;
  /** The script's headers (never the injected ones). */
  headers: [string, string][];
  /** How many redirects led here (0 for the first request). */
  redirectHop: number;
  /** The policy's verdict. */
  allowed: boolean;
  /** Why the policy refused it. */
  reason?: string;
}

/** What {@link NetworkOptions.onRequest} may answer: nothing or `true` lets an allowed request go. */
export type NetworkDecision = void | undefined | boolean | { allow: boolean; reason?: string };

/** One allowlisted prefix, parsed. */
interface Prefix {
  protocol: string;
  hostname: string;
  port: string;
  path: string;
}

/** The checked `network` option. */
export interface NetworkPolicy {
  prefixes: Prefix[];
  methods: Set<string>;
  maxRedirects: number;
  timeoutMs: number;
  maxResponseSize: number;
  maxRequestSize: number;
  headers: { prefix: Prefix; headers: [string, string][] }[];
  onRequest: NetworkOptions["onRequest"] | undefined;
  fetch: typeof fetch;
}

/** A request as the engine sends it (src/wasm/fetch.rs). */
export interface EngineRequest {
  method: string;
  url: string;
  headers: [string, string][];
  body: Uint8Array;
  timeoutMs?: number | null;
  connectTimeoutMs?: number | null;
  redirectHop: number;
}

/** A response as the engine receives it. */
export interface EngineResponse {
  status: number;
  statusText: string;
  headers: [string, string][];
  injected: string[];
  body: { next(): Promise<Uint8Array | null>; cancel(): void };
}

/** A failure as the engine classifies it (curl's exit statuses follow from `kind`). */
export interface EngineError {
  kind:
    | "refused"
    | "badUrl"
    | "resolve"
    | "connect"
    | "timeout"
    | "tooManyRedirects"
    | "tooLarge"
    | "requestTooLarge"
    | "send"
    | "receive"
    | "aborted";
  message: string;
  limit?: number;
}

const MiB = 1024 * 1024;

function invalid(message: string): WabashError {
  return new WabashError("WABASH_INVALID_OPTIONS", `network: ${message}`);
}

function effectivePort(url: URL): string {
  return url.port || (url.protocol === "https:" ? "443" : "80");
}

/** Parses an allowlist entry; refuses entries that could not be matched safely. */
function parsePrefix(text: unknown, where: string): Prefix {
  if (typeof text !== "string") {
    throw invalid(`${where} must be a string`);
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid(`${where} is not a valid URL: ${JSON.stringify(text)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw invalid(`${where} must be an http: or https: URL: ${JSON.stringify(text)}`);
  }
  if (url.username || url.password || url.search || url.hash) {
    throw invalid(`${where} may not hold credentials, a query or a fragment: ${JSON.stringify(text)}`);
  }
  return { protocol: url.protocol, hostname: url.hostname, port: effectivePort(url), path: url.pathname };
}

function count(value: unknown, name: string, fallback: number): number {
  if (value === undefined) {
    return fallback;
  }
  if (typeof value !== "number" || !(value >= 0)) {
    throw invalid(`${name} must be a non-negative number`);
  }
  return value;
}

/** Checks the `network` option; `undefined` means no network at all. */
export function checkNetwork(option: NetworkOptions | undefined): NetworkPolicy | undefined {
  if (option === undefined) {
    return undefined;
  }
  if (typeof option !== "object" || option === null) {
    throw invalid("the option must be an object");
  }
  const prefixes = (option.allowedUrlPrefixes ?? []).map((text, i) => parsePrefix(text, `allowedUrlPrefixes[${i}]`));
  if (!Array.isArray(option.allowedUrlPrefixes ?? [])) {
    throw invalid("allowedUrlPrefixes must be an array");
  }
  const methods = new Set((option.allowedMethods ?? ["GET", "HEAD"]).map((method) => String(method).toUpperCase()));
  const headers = Object.entries(option.headers ?? {}).map(([text, values]) => {
    if (typeof values !== "object" || values === null) {
      throw invalid(`headers[${JSON.stringify(text)}] must be an object of header values`);
    }
    return {
      prefix: parsePrefix(text, `headers[${JSON.stringify(text)}]`),
      headers: Object.entries(values).map(([name, value]): [string, string] => [name, String(value)]),
    };
  });
  if (option.onRequest !== undefined && typeof option.onRequest !== "function") {
    throw invalid("onRequest must be a function");
  }
  const fetchImpl = option.fetch ?? hostFetch;
  if (typeof fetchImpl !== "function") {
    throw invalid("no fetch implementation: pass network.fetch");
  }
  return {
    prefixes,
    methods,
    maxRedirects: count(option.maxRedirects, "maxRedirects", 20),
    timeoutMs: count(option.timeoutMs, "timeoutMs", 30_000),
    maxResponseSize: count(option.maxResponseSize, "maxResponseSize", 10 * MiB),
    maxRequestSize: count(option.maxRequestSize, "maxRequestSize", 10 * MiB),
    headers,
    onRequest: option.onRequest,
    fetch: fetchImpl,
  };
}

/** True when `prefix` covers `url` (scheme, host, port equal; path at a segment boundary). */
function covers(prefix: Prefix, url: URL): boolean {
  if (prefix.protocol !== url.protocol || prefix.hostname !== url.hostname || prefix.port !== effectivePort(url)) {
    return false;
  }
  const path = url.pathname;
  if (prefix.path.endsWith("/")) {
    return path.startsWith(prefix.path);
  }
  return path === prefix.path || path.startsWith(`${prefix.path}/`);
}

/** The four bytes of a dotted IPv4 address, or undefined. */
function ipv4(hostname: string): number[] | undefined {
  const parts = hostname.split(".");
  if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part))) {
    return undefined;
  }
  const bytes = parts.map(Number);
  return bytes.every((byte) => byte <= 255) ? bytes : undefined;
}

/** True for loopback, private, link-local, unspecified and other non-public IPv4 addresses. */
function privateIpv4([a, b]: number[]): boolean {
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b! >= 64 && b! <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b! >= 16 && b! <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0) ||
    (a === 198 && (b === 18 || b === 19)) ||
    a! >= 224
  );
}

/**
 * True for a host that names this machine or a private network: `localhost`
 * and `*.localhost`, non-public IPv4 addresses (already in dotted form: the
 * URL parser turns `2130706433`, `0x7f.1` and `0177.0.0.1` into `127.0.0.1`),
 * and every IPv6 literal outside global unicast (2000::/3), which covers
 * `::1`, `::`, `fc00::/7`, `fe80::/10` and IPv4-mapped `::ffff:...`.
 */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (host === "localhost" || host.endsWith(".localhost")) {
    return true;
  }
  const v4 = ipv4(host);
  if (v4) {
    return privateIpv4(v4);
  }
  if (host.startsWith("[")) {
    const first = host.slice(1).split(":")[0] ?? "";
    const group = first === "" ? 0 : parseInt(first, 16);
    return !(group >= 0x2000 && group <= 0x3fff);
  }
  return false;
}

/** The host exactly as written in `raw` (`scheme://HOST:port/...`), or undefined when there is no `//` authority. */
function rawHost(raw: string): string | undefined {
  const match = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/([^/?#]*)/.exec(raw);
  if (!match) {
    return undefined;
  }
  const authority = (match[1] ?? "").slice((match[1] ?? "").lastIndexOf("@") + 1);
  if (authority.startsWith("[")) {
    return authority.slice(0, authority.indexOf("]") + 1);
  }
  const colon = authority.lastIndexOf(":");
  return colon === -1 ? authority : authority.slice(0, colon);
}

/** The policy's verdict on one request. */
export type Verdict = { ok: true; url: URL } | { ok: false; error: EngineError };

function refused(reason: string): { ok: false; error: EngineError } {
  return { ok: false, error: { kind: "refused", message: reason } };
}

/** Checks a request against the policy, before anything is sent. */
export function checkRequest(policy: NetworkPolicy, method: string, rawUrl: string, redirectHop = 0, bodySize = 0): Verdict {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f]/.test(rawUrl)) {
    return refused("the URL holds whitespace or control characters");
  }
  if (rawUrl.includes("\\")) {
    return refused("the URL holds a backslash");
  }
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return { ok: false, error: { kind: "badUrl", message: "not a valid URL" } };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return refused(`the scheme ${url.protocol} is not allowed (only http: and https:)`);
  }
  const written = rawHost(rawUrl);
  if (written === undefined) {
    return refused("the URL must be written as scheme://host/path");
  }
  if (url.username || url.password) {
    return refused("credentials in the URL (user@host) are not allowed");
  }
  if (written.toLowerCase() !== url.hostname) {
    return refused(`the host ${JSON.stringify(written)} is not written in canonical form (numeric, encoded and non-ASCII spellings are refused)`);
  }
  if (/%2f|%5c/i.test(url.pathname)) {
    return refused("an encoded slash or backslash in the path is not allowed");
  }
  if (isPrivateHost(url.hostname) && !policy.prefixes.some((prefix) => prefix.hostname === url.hostname)) {
    return refused(`${url.hostname} is a private or loopback address and no allowlist entry names it`);
  }
  if (policy.prefixes.length === 0) {
    return refused("no URL is allowed (network.allowedUrlPrefixes is empty)");
  }
  if (!policy.prefixes.some((prefix) => covers(prefix, url))) {
    return refused(`${url.origin}${url.pathname} is not in the allowlist`);
  }
  const upper = method.toUpperCase();
  if (!policy.methods.has(upper)) {
    return refused(`the method ${upper} is not allowed (allowed: ${[...policy.methods].join(", ")})`);
  }
  if (redirectHop > policy.maxRedirects) {
    return { ok: false, error: { kind: "tooManyRedirects", message: "too many redirects", limit: policy.maxRedirects } };
  }
  if (bodySize > policy.maxRequestSize) {
    return { ok: false, error: { kind: "requestTooLarge", message: "request body too large", limit: policy.maxRequestSize } };
  }
  url.hash = "";
  return { ok: true, url };
}

const encoder = new TextEncoder();
const REDACTED = encoder.encode("[REDACTED]");

/** The secrets worth scrubbing from what comes back: values (and their last word) of 8+ characters. */
function secretsOf(values: string[]): string[] {
  const secrets = new Set<string>();
  for (const value of values) {
    for (const candidate of [value, value.split(/\s+/).pop() ?? ""]) {
      if (candidate.length >= 8) {
        secrets.add(candidate);
      }
    }
  }
  return [...secrets].sort((a, b) => b.length - a.length);
}

/** Replaces every secret in `text`. */
function scrub(text: string, secrets: string[]): string {
  return secrets.reduce((out, secret) => out.split(secret).join("[REDACTED]"), text);
}

/** Scrubs secrets out of a byte stream whose chunks may split a secret. */
class Redactor {
  readonly #secrets: Uint8Array[];
  readonly #keep: number;
  #carry = new Uint8Array(0);

  constructor(secrets: string[]) {
    this.#secrets = secrets.map((secret) => encoder.encode(secret));
    this.#keep = Math.max(...this.#secrets.map((secret) => secret.length));
  }

  /** The earliest full match at or after `from`: [start, length], or undefined. */
  #find(buf: Uint8Array, from: number): [number, number] | undefined {
    let best: [number, number] | undefined;
    for (const secret of this.#secrets) {
      let at = buf.indexOf(secret[0]!, from);
      while (at !== -1 && at + secret.length <= buf.length && (best === undefined || at < best[0])) {
        let same = true;
        for (let i = 1; i < secret.length; i++) {
          if (buf[at + i] !== secret[i]) {
            same = false;
            break;
          }
        }
        if (same) {
          best = [at, secret.length];
          break;
        }
        at = buf.indexOf(secret[0]!, at + 1);
      }
    }
    return best;
  }

  /** Takes a chunk; returns what can be passed on now. */
  push(chunk: Uint8Array): Uint8Array {
    const buf = new Uint8Array(this.#carry.length + chunk.length);
    buf.set(this.#carry);
    buf.set(chunk, this.#carry.length);
    const out: Uint8Array[] = [];
    let i = 0;
    for (let match = this.#find(buf, 0); match; match = this.#find(buf, i)) {
      out.push(buf.subarray(i, match[0]), REDACTED);
      i = match[0] + match[1];
    }
    const safeEnd = Math.max(i, buf.length - (this.#keep - 1));
    out.push(buf.subarray(i, safeEnd));
    this.#carry = buf.slice(safeEnd);
    return concat(out);
  }

  /** What is left at the end. */
  flush(): Uint8Array {
    const rest = this.#carry;
    this.#carry = new Uint8Array(0);
    return rest;
  }
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** What a failed `fetch` was, from Node's error codes (browsers only say "failed"). */
function failure(error: unknown, why: "timeout" | "aborted" | undefined, secrets: string[]): EngineError {
  if (why === "timeout") {
    return { kind: "timeout", message: "timed out" };
  }
  if (why === "aborted") {
    return { kind: "aborted", message: "aborted" };
  }
  const cause = (error as { cause?: { code?: string; message?: string } } | undefined)?.cause;
  const code = cause?.code ?? "";
  const message = scrub(cause?.message ?? (error instanceof Error ? error.message : String(error)), secrets);
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") {
    return { kind: "resolve", message };
  }
  if (/^(ECONNRESET|EPIPE|UND_ERR_SOCKET)$/.test(code)) {
    return { kind: "receive", message };
  }
  return { kind: "connect", message };
}

/** The host object's `fetch`: the policy, then the request, then the streamed response. */
export type Fetcher = (request: EngineRequest) => Promise<EngineResponse>;

/** A fetcher that refuses everything (no `network` option). */
export const noNetwork: Fetcher = () =>
  Promise.reject({ kind: "refused", message: "network access is not enabled (no URL is allowed)" } satisfies EngineError);

/** Asks `onRequest`; a refusal becomes the policy's reason. */
async function decide(policy: NetworkPolicy, defense: DefensePolicy | undefined, info: NetworkRequest): Promise<string | undefined> {
  const onRequest = policy.onRequest;
  if (!onRequest) {
    return undefined;
  }
  let decision: NetworkDecision;
  try {
    decision = await inSandbox(defense, () => onRequest(info));
  } catch (error) {
    return `onRequest threw: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (decision === false) {
    return "refused by the host's onRequest";
  }
  if (typeof decision === "object" && decision !== null && decision.allow === false) {
    return decision.reason ?? "refused by the host's onRequest";
  }
  return undefined;
}

/**
 * The fetcher for `policy`. `currentSignal` is the running exec's abort
 * signal: aborting it stops a request in flight at once.
 */
export function createFetcher(policy: NetworkPolicy, currentSignal: () => AbortSignal | undefined, defense?: DefensePolicy): Fetcher {
  return async (request) => {
    const verdict = checkRequest(policy, request.method, request.url, request.redirectHop, request.body.length);
    const refusal = await decide(policy, defense, {
      method: request.method,
      url: request.url,
      headers: request.headers.map(([name, value]): [string, string] => [name, value]),
      redirectHop: request.redirectHop,
      allowed: verdict.ok,
      ...(verdict.ok ? {} : { reason: verdict.error.message }),
    });
    if (!verdict.ok) {
      throw verdict.error;
    }
    if (refusal !== undefined) {
      throw { kind: "refused", message: refusal } satisfies EngineError;
    }
    const url = verdict.url;
    const headers = request.headers.map(([name, value]): [string, string] => [name, value]);
    const injected: string[] = [];
    const values: string[] = [];
    for (const entry of policy.headers) {
      if (!covers(entry.prefix, url)) {
        continue;
      }
      for (const [name, value] of entry.headers) {
        const lower = name.toLowerCase();
        for (let i = headers.length - 1; i >= 0; i--) {
          if (headers[i]![0].toLowerCase() === lower) {
            headers.splice(i, 1);
          }
        }
        headers.push([name, value]);
        injected.push(name);
        values.push(value);
      }
    }
    const secrets = secretsOf(values);
    return send(policy, request, url, headers, injected, secrets, currentSignal());
  };
}

/** Sends a checked request and wraps its streamed response. */
async function send(
  policy: NetworkPolicy,
  request: EngineRequest,
  url: URL,
  headers: [string, string][],
  injected: string[],
  secrets: string[],
  execSignal: AbortSignal | undefined,
): Promise<EngineResponse> {
  if (execSignal?.aborted) {
    throw { kind: "aborted", message: "aborted" } satisfies EngineError;
  }
  const controller = new AbortController();
  let why: "timeout" | "aborted" | undefined;
  const onAbort = (): void => {
    why ??= "aborted";
    controller.abort();
  };
  execSignal?.addEventListener("abort", onAbort, { once: true });
  const limit = Math.min(policy.timeoutMs, request.timeoutMs ?? Infinity);
  const timeout = (): void => {
    why ??= "timeout";
    controller.abort();
  };
  const timer = startTimer(timeout, limit);
  const connectTimer = request.connectTimeoutMs != null ? startTimer(timeout, request.connectTimeoutMs) : undefined;
  const cleanup = (): void => {
    stopTimer(timer);
    if (connectTimer !== undefined) {
      stopTimer(connectTimer);
    }
    execSignal?.removeEventListener("abort", onAbort);
  };
  const method = request.method.toUpperCase();
  let response: Response;
  try {
    response = await policy.fetch(url.href, {
      method,
      headers,
      ...(method === "GET" || method === "HEAD" ? {} : { body: new Uint8Array(request.body) }),
      redirect: "manual",
      signal: controller.signal,
    });
  } catch (error) {
    cleanup();
    throw failure(error, why, secrets);
  }
  if (connectTimer !== undefined) {
    stopTimer(connectTimer);
  }
  if (response.type === "opaqueredirect") {
    cleanup();
    throw { kind: "refused", message: "this runtime hides redirect targets, so the redirect cannot be checked" } satisfies EngineError;
  }
  const responseHeaders: [string, string][] = [];
  response.headers.forEach((value, name) => {
    responseHeaders.push([name, scrub(value, secrets)]);
  });
  const reader = response.body?.getReader();
  const declared = Number(response.headers.get("content-length") ?? NaN);
  const redactor = secrets.length > 0 ? new Redactor(secrets) : undefined;
  let received = 0;
  let finished = false;
  const finish = (): void => {
    if (!finished) {
      finished = true;
      cleanup();
    }
  };
  const stop = (): void => {
    finish();
    controller.abort();
    reader?.cancel().catch(() => undefined);
  };
  return {
    status: response.status,
    statusText: response.statusText,
    headers: responseHeaders,
    injected,
    body: {
      async next(): Promise<Uint8Array | null> {
        if (finished || !reader) {
          finish();
          return null;
        }
        if (received === 0 && declared > policy.maxResponseSize) {
          stop();
          throw { kind: "tooLarge", message: "response too large", limit: policy.maxResponseSize } satisfies EngineError;
        }
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (error) {
          finish();
          throw failure(error, why, secrets);
        }
        if (chunk.done) {
          finish();
          const rest = redactor?.flush();
          return rest && rest.length > 0 ? rest : null;
        }
        received += chunk.value.length;
        if (received > policy.maxResponseSize) {
          stop();
          throw { kind: "tooLarge", message: "response too large", limit: policy.maxResponseSize } satisfies EngineError;
        }
        return redactor ? redactor.push(chunk.value) : chunk.value;
      },
      cancel: stop,
    },
  };
}
