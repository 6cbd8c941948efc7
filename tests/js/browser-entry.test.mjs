// The package's `browser` entry in headless Chromium: bundled by esbuild
// and by Rollup as a browser app is (the `browser` condition; the
// registration must survive `sideEffects` and the .wasm be found next to
// the bundle), and
// unbundled from dist/ through an import map. Each runs the wrapper's
// browser checks (tests/js/fixtures/browser-suite.js).
import assert from "node:assert/strict";
import { copyFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { servePlayground as serve } from "../../scripts/playground.mjs";
import { bundleForBrowser, bundleWithRollup, root } from "./support/bundle.mjs";
import { chromiumSkip, launchChromium } from "./support/chromium.mjs";

const skip = chromiumSkip();
let work;
let browser;
const servers = [];

before(async () => {
  if (skip) return;
  work = await mkdtemp(join(tmpdir(), "wabash-browser-"));
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  for (const server of servers) await new Promise((done) => server.close(done));
  if (work) await rm(work, { recursive: true, force: true });
});

/** Loads `address` and resolves to the suite's results and the .wasm requests. */
async function runSuite(address) {
  const page = await browser.newPage();
  const wasm = [];
  const errors = [];
  page.on("request", (request) => request.url().endsWith(".wasm") && wasm.push(request.url()));
  page.on("pageerror", (error) => errors.push(String(error)));
  await page.goto(address);
  await page.waitForFunction(() => window.__suite !== undefined, null, { timeout: 30_000 }).catch(() => {
    throw new Error(`the suite did not start: ${errors.join("; ")}`);
  });
  const results = await page.evaluate(() => window.__suite);
  await page.close();
  return { results, wasm };
}

function report(results) {
  for (const result of results) {
    assert.ok(result.ok, `${result.name}: ${result.error}`);
  }
  assert.equal(results.length, 9);
}

describe("browser entry", { skip }, () => {
  test("bundled by esbuild: the registration is kept and the .wasm found next to the bundle", async () => {
    const out = await bundleForBrowser("tests/js/fixtures/browser-suite.js", join(work, "bundled"));
    await copyFile(join(root, "tests/js/fixtures/browser-suite.html"), join(out, "index.html"));
    const { server, url } = await serve(out);
    servers.push(server);
    const { results, wasm } = await runSuite(url);
    report(results);
    assert.deepEqual(wasm, [`${url}wabash_bg.wasm`]);
  });

  test("bundled by Rollup (as Vite builds): the registration is kept and the .wasm found", async () => {
    const out = await bundleWithRollup("tests/js/fixtures/browser-suite.js", join(work, "rollup"));
    await copyFile(join(root, "tests/js/fixtures/browser-suite.html"), join(out, "index.html"));
    const { server, url } = await serve(out);
    servers.push(server);
    const { results, wasm } = await runSuite(url);
    report(results);
    assert.deepEqual(wasm, [`${url}wabash_bg.wasm`]);
  });

  test("unbundled from dist/ through an import map", async () => {
    const { server, url } = await serve(root);
    servers.push(server);
    const { results, wasm } = await runSuite(`${url}tests/js/fixtures/browser-unbundled.html`);
    report(results);
    assert.deepEqual(wasm, [`${url}dist/wabash_bg.wasm`]);
  });
});
