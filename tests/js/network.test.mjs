// The network policy and curl/wget against a real HTTP server this test
// starts on 127.0.0.1 (a port chosen at run time): allowed and refused
// requests, redirects checked hop by hop, timeout, size cap, secret headers,
// binary bodies, streaming into pipes, abort latency, and URL tricks that
// must never reach the network.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { after, before, test } from "node:test";
import { Bash } from "../../dist/node.js";
import { checkNetwork, checkRequest } from "../../dist/network.js";

const SECRET = "Bearer sekrit-token-0123456789";
/** Every request the server received: "METHOD path". */
const seen = [];
/** Resolves when an endless response's connection closes. */
let endlessClosed = () => {};
let server;
let base;

before(async () => {
  server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      switch (req.url) {
        case "/v1/hello":
          res.writeHead(200, { "content-type": "text/plain" }).end("hello\nworld\n");
          break;
        case "/v1/echo":
          res.writeHead(200, { "content-type": req.headers["content-type"] ?? "application/octet-stream" }).end(body);
          break;
        case "/v1/binary":
          res.writeHead(200, { "content-type": "application/octet-stream" }).end(Buffer.from([...Array(256).keys()].reverse()));
          break;
        case "/v1/headers":
          res.writeHead(200, { "x-echo": req.headers.authorization ?? "none" }).end(`auth=${req.headers.authorization ?? "none"}\n`);
          break;
        case "/v1/redirect-in":
          res.writeHead(302, { location: "/v1/hello" }).end();
          break;
        case "/v1/redirect-out":
          res.writeHead(302, { location: "http://example.com/steal" }).end();
          break;
        case "/v1/redirect-admin":
          res.writeHead(301, { location: "/admin" }).end();
          break;
        case "/v1/loop":
          res.writeHead(302, { location: "/v1/loop" }).end();
          break;
        case "/v1/slow": {
          const timer = setTimeout(() => res.writeHead(200).end("late\n"), 5000);
          res.on("close", () => clearTimeout(timer));
          break;
        }
        case "/v1/endless": {
          res.writeHead(200, { "content-type": "text/plain" });
          let n = 0;
          const pump = () => {
            while (res.write(`line ${n++} ${"x".repeat(100)}\n`)) {
              if (n % 1000 === 0) {
                setImmediate(pump);
                return;
              }
            }
            res.once("drain", pump);
          };
          res.on("close", () => endlessClosed());
          pump();
          break;
        }
        default:
          res.writeHead(404).end("not here\n");
      }
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${server.address().port}`;
});

after(() => {
  server.closeAllConnections?.();
  server.close();
});

function sandbox(network = {}) {
  return new Bash({ network: { allowedUrlPrefixes: [`${base}/v1/`], ...network } });
}

function closed() {
  return new Promise((resolve) => {
    endlessClosed = resolve;
  });
}

const REFUSED = /^curl: \(7\) Failed to connect to .* refused by the sandbox's network policy: /;

test("an allowed GET streams the body; -w reports the status", async () => {
  const bash = sandbox();
  const r = await bash.exec(`curl -s -w '%{http_code} %{size_download} %{content_type}\\n' ${base}/v1/hello`);
  assert.equal(r.stdout, "hello\nworld\n200 12 text/plain\n");
  assert.equal(r.exitCode, 0);
  const w = await bash.exec(`wget -q -O - ${base}/v1/hello`);
  assert.equal(w.stdout, "hello\nworld\n");
});

test("an allowed POST sends the body; a refused method never leaves", async () => {
  const post = sandbox({ allowedMethods: ["GET", "POST"] });
  const r = await post.exec(`curl -s -d 'a=1' -d 'b=2' ${base}/v1/echo`);
  assert.equal(r.stdout, "a=1&b=2");
  const before = seen.length;
  const refused = await sandbox().exec(`curl -sS -d x=1 ${base}/v1/echo; echo "status $?"`);
  assert.match(refused.stderr, REFUSED);
  assert.match(refused.stderr, /the method POST is not allowed \(allowed: GET, HEAD\)/);
  assert.equal(refused.stdout, "status 7\n");
  const del = await post.exec(`curl -sS -X DELETE ${base}/v1/hello; echo "status $?"`);
  assert.match(del.stderr, /the method DELETE is not allowed/);
  assert.equal(seen.length, before, "the server saw none of them");
});

test("a refused host fails as curl does, and no network at all is the default", async () => {
  const r = await sandbox().exec("curl -sS http://example.com/; echo \"status $?\"");
  assert.match(r.stderr, /^curl: \(7\) Failed to connect to example\.com port 80: refused by the sandbox's network policy: http:\/\/example\.com\/ is not in the allowlist\n$/);
  assert.equal(r.stdout, "status 7\n");
  const none = await new Bash().exec(`curl -sS ${base}/v1/hello; echo "status $?"; wget -q -O - ${base}/v1/hello; echo "wget $?"`);
  assert.match(none.stderr, /network access is not enabled/);
  assert.equal(none.stdout, "status 7\nwget 4\n");
});

test("redirects are followed by hand and every hop is checked", async () => {
  const bash = sandbox();
  const inside = await bash.exec(`curl -sL -w ' %{num_redirects} %{url_effective}' ${base}/v1/redirect-in`);
  assert.equal(inside.stdout, `hello\nworld\n 1 ${base}/v1/hello`);
  const before = seen.length;
  const out = await bash.exec(`curl -sSL ${base}/v1/redirect-out; echo "status $?"`);
  assert.match(out.stderr, /Failed to connect to example\.com port 80: refused by the sandbox's network policy/);
  assert.equal(out.stdout, "status 7\n");
  const admin = await bash.exec(`curl -sSL ${base}/v1/redirect-admin; echo "status $?"`);
  assert.match(admin.stderr, /\/admin is not in the allowlist/);
  assert.deepEqual(seen.slice(before), ["GET /v1/redirect-out", "GET /v1/redirect-admin"], "the refused hops never reached the server");
  const loop = await sandbox({ maxRedirects: 3 }).exec(`curl -sSL ${base}/v1/loop; echo "status $?"`);
  assert.equal(loop.stderr, "curl: (47) Maximum (3) redirects followed\n");
  assert.equal(loop.stdout, "status 47\n");
  const own = await bash.exec(`curl -sSL --max-redirs 2 ${base}/v1/loop; echo "status $?"`);
  assert.equal(own.stderr, "curl: (47) Maximum (2) redirects followed\n");
});

test("a slow response hits the timeout", async () => {
  const bash = sandbox({ timeoutMs: 300 });
  const started = performance.now();
  const r = await bash.exec(`curl -sS ${base}/v1/slow; echo "status $?"`);
  const elapsed = performance.now() - started;
  assert.match(r.stderr, /^curl: \(28\) Operation timed out after \d+ milliseconds with 0 bytes received\n$/);
  assert.equal(r.stdout, "status 28\n");
  assert.ok(elapsed < 2000, `took ${elapsed} ms`);
  const own = await sandbox().exec(`curl -sS -m 0.2 ${base}/v1/slow; echo "status $?"`);
  assert.equal(own.stdout, "status 28\n");
});

test("an endless body hits the size cap and the connection is closed", async () => {
  const bash = sandbox({ maxResponseSize: 200_000 });
  const gone = closed();
  const r = await bash.exec(`curl -sS -o big.txt ${base}/v1/endless; echo "status $?"; wc -c < big.txt`);
  assert.equal(r.stderr, "curl: (63) Maximum file size exceeded (the sandbox's network policy allows 200000 bytes)\n");
  const [status, size] = r.stdout.trim().split("\n");
  assert.equal(status, "status 63");
  assert.ok(Number(size) <= 200_000, `${size} bytes were written`);
  await gone;
});

test("injected headers reach the server but never the script, not even with -v", async () => {
  const bash = sandbox({ headers: { [`${base}/v1/headers`]: { Authorization: SECRET } } });
  const r = await bash.exec(`curl -sv -H 'Authorization: Bearer mine' ${base}/v1/headers; curl -s -D - -o /dev/null ${base}/v1/headers`);
  assert.ok(!r.stdout.includes("sekrit") && !r.stderr.includes("sekrit"), `${r.stdout}${r.stderr}`);
  assert.match(r.stdout, /^auth=\[REDACTED\]\n/);
  assert.match(r.stdout, /x-echo: \[REDACTED\]\r\n/);
  assert.match(r.stderr, /> Authorization: \[REDACTED\]\n/);
  assert.ok(!r.stderr.includes("Bearer mine"), "the script's own header was replaced");
  const other = await bash.exec(`curl -s ${base}/v1/echo -o /dev/null -w '%{http_code}'`);
  assert.equal(other.stdout, "200", "other paths get no secret");
});

test("binary bodies round-trip byte for byte, from and to the sandbox filesystem", async () => {
  const bash = sandbox({ allowedMethods: ["GET", "POST", "PUT"] });
  const bytes = new Uint8Array([...Array(256).keys(), 13, 10, 0, 255]);
  await bash.fs.writeFile("/home/user/in.bin", bytes);
  const r = await bash.exec(
    `curl -s --data-binary @in.bin -o out.bin ${base}/v1/echo && curl -s -T in.bin -o put.bin ${base}/v1/echo && curl -sO ${base}/v1/binary`,
  );
  assert.equal(r.exitCode, 0, r.stderr);
  assert.deepEqual(await bash.fs.readFileBytes("/home/user/out.bin"), bytes);
  assert.deepEqual(await bash.fs.readFileBytes("/home/user/put.bin"), bytes);
  assert.deepEqual(await bash.fs.readFileBytes("/home/user/binary"), new Uint8Array([...Array(256).keys()].reverse()));
});

test("curl | head -1 stops reading and the transfer ends", async () => {
  const bash = sandbox();
  const gone = closed();
  const started = performance.now();
  const r = await bash.exec(`curl -s ${base}/v1/endless | head -1; echo "\${PIPESTATUS[*]}"`);
  assert.equal(r.stdout, `line 0 ${"x".repeat(100)}\n23 0\n`);
  await gone;
  assert.ok(performance.now() - started < 5000);
});

test("onRequest sees every request and can refuse; a custom fetch is used", async () => {
  const calls = [];
  const bash = sandbox({
    onRequest: (request) => {
      calls.push(`${request.method} ${request.url} ${request.allowed}`);
      return request.url.endsWith("/v1/binary") ? { allow: false, reason: "binary is off today" } : undefined;
    },
  });
  const r = await bash.exec(`curl -s -o /dev/null ${base}/v1/hello; curl -sS ${base}/v1/binary; curl -s http://example.com/; true`);
  assert.match(r.stderr, /refused by the sandbox's network policy: binary is off today/);
  assert.deepEqual(calls, [`GET ${base}/v1/hello true`, `GET ${base}/v1/binary true`, "GET http://example.com/ false"]);
  const fake = new Bash({
    network: { allowedUrlPrefixes: ["https://api.example.com/"], fetch: async (url) => new Response(`fake ${url}\n`) },
  });
  assert.equal((await fake.exec("curl -s https://api.example.com/x")).stdout, "fake https://api.example.com/x\n");
});

test("invalid network options are rejected at construction", () => {
  assert.throws(() => new Bash({ network: { allowedUrlPrefixes: ["ftp://x/"] } }), { code: "WABASH_INVALID_OPTIONS" });
  assert.throws(() => new Bash({ network: { allowedUrlPrefixes: ["https://a/?q=1"] } }), { code: "WABASH_INVALID_OPTIONS" });
  assert.throws(() => new Bash({ network: { timeoutMs: -1 } }), { code: "WABASH_INVALID_OPTIONS" });
});

test("aborting the exec stops a request in flight within 100 ms", async () => {
  const bash = sandbox();
  const latencies = [];
  for (const path of ["/v1/slow", "/v1/endless"]) {
    const controller = new AbortController();
    const running = bash.exec(`curl -s -o /dev/null ${base}${path}`, { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const aborted = performance.now();
    controller.abort();
    await running.catch(() => undefined);
    latencies.push(performance.now() - aborted);
  }
  console.log(`abort latency: waiting for headers ${latencies[0].toFixed(1)} ms, streaming a body ${latencies[1].toFixed(1)} ms`);
  for (const latency of latencies) {
    assert.ok(latency < 100, `took ${latency} ms`);
  }
});

test("per-request overhead of curl through the policy, against fetch directly", async () => {
  const bash = sandbox();
  const n = 50;
  await bash.exec(`curl -s -o /dev/null ${base}/v1/hello`);
  let started = performance.now();
  const r = await bash.exec(`for i in $(seq ${n}); do curl -s -o /dev/null ${base}/v1/hello; done`);
  const viaCurl = (performance.now() - started) / n;
  assert.equal(r.exitCode, 0);
  started = performance.now();
  for (let i = 0; i < n; i++) {
    await (await fetch(`${base}/v1/hello`)).arrayBuffer();
  }
  const direct = (performance.now() - started) / n;
  console.log(`per request: curl in the sandbox ${viaCurl.toFixed(2)} ms, fetch directly ${direct.toFixed(2)} ms, overhead ${(viaCurl - direct).toFixed(2)} ms`);
});

/** URLs that must be refused against the allowlist below, before any byte leaves. */
const TRICK_TEMPLATES = [
  ["userinfo @ to another host", "https://api.example.com@evil.com/v1/"],
  ["userinfo with a password", "https://user:pass@api.example.com/v1/x"],
  ["userinfo in the loopback entry", "http://x@LOOPBACK/v1/hello"],
  ["allowed host as a subdomain of evil", "https://api.example.com.evil.com/v1/"],
  ["allowed host in evil's path", "https://evil.com/api.example.com/v1/"],
  ["another port", "https://api.example.com:8443/v1/"],
  ["another scheme (http for https)", "http://api.example.com/v1/"],
  ["dot-dot out of the prefix", "https://api.example.com/v1/../admin"],
  ["%2e%2e out of the prefix", "https://api.example.com/v1/%2e%2e/admin"],
  ["%2E%2E upper-case", "https://api.example.com/v1/%2E%2E/admin"],
  [".%2e mixed", "https://api.example.com/v1/.%2e/admin"],
  ["%2f as the separator", "https://api.example.com/v1%2f..%2fadmin"],
  ["..%2f inside the prefix", "https://api.example.com/v1/..%2fadmin"],
  ["%5c encoded backslash", "https://api.example.com/v1/..%5cadmin"],
  ["backslash path", "https://api.example.com/v1\\..\\admin"],
  ["backslash before @", "https://api.example.com\\@evil.com/v1/"],
  ["prefix without segment boundary", "https://api.example.com/v10/"],
  ["path case differs", "https://api.example.com/V1/"],
  ["double slash path", "https://api.example.com//v1/"],
  ["trailing dot host", "https://api.example.com./v1/"],
  ["IDN look-alike (Cyrillic a)", "https://\u0430pi.example.com/v1/"],
  ["punycode of the look-alike", "https://xn--pi-7ka.example.com/v1/"],
  ["full-width dot", "https://api.example\u3002com/v1/"],
  ["percent-encoded host", "https://api%2eexample.com/v1/"],
  ["IPv4 decimal", "http://2130706433/v1/"],
  ["IPv4 octal", "http://0177.0.0.1/v1/"],
  ["IPv4 hex", "http://0x7f.0.0.1/v1/"],
  ["IPv4 hex dword", "http://0x7f000001/v1/"],
  ["IPv4 short form", "http://127.1/v1/"],
  ["IPv4 decimal spelling of the allowed loopback", "http://2130706433:LOOPPORT/v1/hello"],
  ["IPv6 loopback", "http://[::1]/v1/"],
  ["IPv6 long loopback", "http://[0:0:0:0:0:0:0:1]/v1/"],
  ["IPv4-mapped IPv6", "http://[::ffff:127.0.0.1]/v1/"],
  ["IPv6 unique local", "http://[fd00::1]/v1/"],
  ["IPv6 link-local", "http://[fe80::1]/v1/"],
  ["localhost", "http://localhost/v1/"],
  ["LOCALHOST with a dot", "http://LOCALHOST./v1/"],
  ["a .localhost name", "http://api.localhost/v1/"],
  ["cloud metadata address", "http://169.254.169.254/latest/meta-data/"],
  ["private 10/8", "http://10.0.0.1/v1/"],
  ["private 192.168/16", "http://192.168.1.1/v1/"],
  ["fragment must not widen", "https://api.example.com/admin#/v1/"],
  ["query must not widen", "https://api.example.com/admin?/v1/"],
  ["allowed URL in the query", "https://api.example.com/admin?next=https://api.example.com/v1/"],
  ["file: scheme", "file:///etc/passwd"],
  ["data: scheme", "data:text/plain,hello"],
  ["javascript: scheme", "javascript:alert(1)"],
  ["ftp: scheme", "ftp://api.example.com/v1/"],
  ["ws: scheme", "ws://api.example.com/v1/"],
  ["scheme without slashes", "https:api.example.com/v1/"],
  ["leading space", " https://api.example.com/v1/"],
  ["tab inside the host", "https://api.example\t.com/v1/"],
  ["newline inside the path", "https://api.example.com/v1/\nx"],
];

/** The tricks with the test server's address filled in. */
function trickList() {
  const { host, port } = new URL(base);
  return TRICK_TEMPLATES.map(([name, url]) => [name, url.replace("LOOPBACK", host).replace("LOOPPORT", port)]);
}

/** URLs that must be allowed: mixed-case schemes and hosts, default ports, harmless dot segments. */
const ALLOWED = [
  "https://api.example.com/v1/x",
  "HTTPS://API.Example.COM/v1/x",
  "https://api.example.com:443/v1/x?q=1#frag",
  "https://api.example.com/v1/a/../b",
  "https://api.example.com/v2",
  "https://api.example.com/v2/deeper",
];

test(`${TRICK_TEMPLATES.length} URL tricks are refused by the policy`, () => {
  const policy = checkNetwork({ allowedUrlPrefixes: ["https://api.example.com/v1/", "https://api.example.com/v2", `${base}/v1/`] });
  for (const [name, url] of trickList()) {
    const verdict = checkRequest(policy, "GET", url);
    assert.equal(verdict.ok, false, `${name}: ${url} was allowed`);
  }
  for (const url of ALLOWED) {
    const verdict = checkRequest(policy, "GET", url);
    assert.equal(verdict.ok, true, `${url} was refused: ${verdict.error?.message}`);
  }
  assert.equal(checkRequest(policy, "GET", "https://api.example.com/v2x").ok, false, "segment boundary without a trailing slash");
  assert.equal(checkRequest(policy, "GET", "https://api.example.com/v2/../v3").ok, false);
  assert.equal(checkRequest(policy, "GET", "https://api.example.com/v1/a/../b").url.pathname, "/v1/b", "what is sent is the normalized URL");
});

test("the same tricks through curl and wget never reach the network", async () => {
  const called = [];
  const tricks = trickList().filter(([, url]) => !url.includes("\n"));
  const bash = new Bash({
    network: {
      allowedUrlPrefixes: ["https://api.example.com/v1/", `${base}/v1/`],
      fetch: (url) => {
        called.push(String(url));
        return Promise.reject(new Error("must not be called"));
      },
    },
    files: { "/home/user/tricks.txt": tricks.map(([, url]) => url).join("\n") + "\n" },
  });
  const r = await bash.exec(
    "while IFS= read -r u; do curl -s -o /dev/null \"$u\"; c=$?; wget -q -O /dev/null \"$u\" 2>/dev/null; echo \"$c $?\"; done < tricks.txt",
  );
  const lines = r.stdout.trim().split("\n");
  assert.equal(lines.length, tricks.length);
  lines.forEach((line, i) => {
    const [curl, wget] = line.split(" ").map(Number);
    assert.ok(curl !== 0 && wget !== 0, `${tricks[i][0]}: curl ${curl}, wget ${wget}`);
  });
  assert.deepEqual(called, [], "no trick reached fetch");
});
