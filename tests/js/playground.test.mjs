// The browser playground (playground/, `npm run playground`) in headless
// Chromium: built with esbuild, served on 127.0.0.1 by the tests, typed
// into like a person would. Screenshots (desktop and phone width) go to
// test-output/playground/.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { buildPlayground, servePlayground } from "../../scripts/playground.mjs";
import { root } from "./support/bundle.mjs";
import { chromiumSkip, launchChromium } from "./support/chromium.mjs";

const skip = chromiumSkip();
const shots = join(root, "test-output", "playground");
let work;
let server;
let url;
let browser;
let page;

/** Opens the playground in a fresh page and waits for the first prompt. */
async function openPage(context, address = url) {
  const opened = await context.newPage();
  await opened.goto(address);
  await opened.waitForSelector("body[data-ready]", { timeout: 30_000 });
  return opened;
}

/** Types `command` and Enter, and waits until it has run; resolves to the terminal's new text. */
async function run(target, command, timeout = 20_000) {
  const before = await target.evaluate(() => ({ count: playground.commands, text: playground.text() }));
  await target.click("#terminal");
  await target.keyboard.type(command);
  await target.keyboard.press("Enter");
  await target.waitForFunction(
    (count) => playground.commands > count && !playground.busy() && /\$ ?$/.test(playground.text()),
    before.count,
    { timeout },
  );
  const text = await target.evaluate(() => playground.text());
  return text.slice(before.text.length);
}

before(async () => {
  if (skip) return;
  work = await mkdtemp(join(tmpdir(), "wabash-playground-"));
  await buildPlayground(join(work, "site"));
  ({ server, url } = await servePlayground(join(work, "site")));
  browser = await launchChromium();
  page = await openPage(await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 800 } }));
  await mkdir(shots, { recursive: true });
});

after(async () => {
  await browser?.close();
  await new Promise((done) => (server ? server.close(done) : done()));
  if (work) await rm(work, { recursive: true, force: true });
});

test("the first prompt appears, the .wasm is fetched once, and a reload reuses it", { skip }, async () => {
  const context = await browser.newContext();
  const wasm = [];
  context.on("request", (request) => {
    if (request.url().endsWith(".wasm")) wasm.push(request.url());
  });
  const cold = await openPage(context);
  const coldMs = await cold.evaluate(() => playground.firstPromptMs);
  assert.equal(wasm.length, 1, wasm.join(", "));
  await cold.reload();
  await cold.waitForSelector("body[data-ready]");
  const cachedMs = await cold.evaluate(() => playground.firstPromptMs);
  console.log(`playground: first prompt ${coldMs.toFixed(0)} ms cold, ${cachedMs.toFixed(0)} ms cached (after navigation start)`);
  assert.ok(coldMs < 10_000 && cachedMs < 10_000, `${coldMs} / ${cachedMs} ms`);
  await context.close();
});

test("a typed command prints its output, and state is kept across commands", { skip }, async () => {
  assert.match(await run(page, "echo hello from the page; echo $((6 * 7))"), /hello from the page\n42/);
  await run(page, "mkdir -p work && cd work && GREETING=hi");
  const out = await run(page, 'echo "$GREETING in $PWD"');
  assert.match(out, /hi in \/home\/user\/work/);
  assert.match(out, /user@wabash:~\/work\$ $/);
  await run(page, "cd ~");
});

test("line editing: history, Tab completion and the continuation prompt", { skip }, async () => {
  await run(page, "echo from-history");
  await page.click("#terminal");
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => (playground.text().match(/^from-history$/gm) ?? []).length >= 2);
  await run(page, "mkdir -p completion-dir && touch completion-dir/unique-name.txt");
  await page.keyboard.type("ls completion-dir/uni");
  await page.keyboard.press("Tab");
  await page.waitForFunction(() => playground.text().trimEnd().endsWith("ls completion-dir/unique-name.txt"));
  assert.match(await run(page, ""), /^\ncompletion-dir\/unique-name\.txt\nuser@wabash/);
  await page.click("#terminal");
  await page.keyboard.type("if true; then");
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => /\n> ?$/.test(playground.text()));
  const out = await run(page, "echo continued; fi");
  assert.match(out, /continued/);
});

test("settings change the limits and keep the session", { skip }, async () => {
  await run(page, "KEPT=yes");
  await page.click("#settings summary");
  await page.fill("#max-commands", "20");
  await page.click("#settings-form button[type=submit]");
  await page.waitForFunction(() => /settings applied/.test(document.getElementById("status").textContent));
  assert.match(await run(page, "for i in $(seq 100); do true; done"), /command limit \(20\)/);
  await page.fill("#max-commands", "10000000");
  await page.click("#settings-form button[type=submit]");
  await page.waitForFunction(() => /settings applied/.test(document.getElementById("status").textContent));
  assert.match(await run(page, 'echo "kept=$KEPT"'), /kept=yes/);
  await page.click("#settings summary");
});

test("the file tree updates after a command and the viewer shows and saves a file", { skip }, async () => {
  await run(page, "mkdir -p docs && printf 'line one\\n' > docs/readme.txt");
  await page.click('[data-path="/home/user/docs"]');
  await page.click('[data-path="/home/user/docs/readme.txt"]');
  await page.waitForFunction(() => document.getElementById("viewer-text").value === "line one\n");
  await page.fill("#viewer-text", "edited in the page\n");
  await page.click("#save");
  assert.match(await run(page, "cat docs/readme.txt"), /edited in the page/);
});

test("Stop aborts an endless loop within a second and the prompt returns", { skip }, async () => {
  await page.click("#terminal");
  await page.keyboard.type("while :; do :; done");
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => playground.busy());
  await page.waitForTimeout(300);
  const started = Date.now();
  await page.click("#stop");
  await page.waitForFunction(() => !playground.busy(), null, { timeout: 5_000 });
  const elapsed = Date.now() - started;
  console.log(`playground: Stop ended the loop in ${elapsed} ms`);
  assert.ok(elapsed < 1_000, `${elapsed} ms`);
  assert.match(await run(page, "echo after stop"), /after stop/);
});

test("Ctrl-C interrupts a running script", { skip }, async () => {
  await page.click("#terminal");
  await page.keyboard.type("for ((;;)); do x=1; done");
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => playground.busy());
  await page.keyboard.press("Control+C");
  await page.waitForFunction(() => !playground.busy(), null, { timeout: 5_000 });
  assert.match(await run(page, "echo still here"), /still here/);
});

test("an example session runs its commands in the terminal", { skip }, async () => {
  const before = await page.evaluate(() => playground.commands);
  await page.selectOption("#example", "refactor");
  await page.click("#run-example");
  // The example's commands are typed ahead, so the shell is idle for a moment
  // between them: wait for the last one's output, not for a count.
  await page.waitForFunction(
    (count) => playground.commands >= count + 5 && !playground.busy() && /load\.js:1:import \{ loadRecords \}[\s\S]*\$ ?$/.test(playground.text()),
    before,
    { timeout: 30_000 },
  );
  const text = await page.evaluate(() => playground.text());
  assert.match(text, /src\/util\/load\.js:1:import \{ loadRecords \}/);
  await page.waitForSelector('[data-path="/home/user/project"]');
  await run(page, "cd ~");
});

test("download of the sandbox as tar.gz and upload back round-trip", { skip }, async () => {
  await run(page, "mkdir -p keep && echo precious > keep/data.txt");
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#download-all")]);
  const archive = join(work, "sandbox.tar.gz");
  await download.saveAs(archive);
  const bytes = await readFile(archive);
  assert.deepEqual([bytes[0], bytes[1]], [0x1f, 0x8b]);
  const listing = execFileSync("tar", ["-tzf", archive], { encoding: "utf8" });
  assert.match(listing, /home\/user\/keep\/data\.txt/);
  await run(page, "rm -rf keep");
  await page.setInputFiles("#restore", archive);
  await page.waitForFunction(() => /unpacked/.test(document.getElementById("status").textContent));
  assert.match(await run(page, "cat keep/data.txt"), /precious/);
  const single = join(work, "notes.txt");
  await writeFile(single, "uploaded file\n");
  await page.setInputFiles("#upload", single);
  await page.waitForFunction(() => /uploaded 1 file/.test(document.getElementById("status").textContent));
  assert.match(await run(page, "cat notes.txt"), /uploaded file/);
});

test("a share link runs its script when the page opens", { skip }, async () => {
  await page.click("#share");
  const link = await page.inputValue("#share-url");
  assert.match(link, /#run=/);
  const context = await browser.newContext();
  const shared = await openPage(context, `${url}#run=${Buffer.from("echo shared-$((40+2))").toString("base64url")}`);
  await shared.waitForFunction(() => playground.text().includes("shared-42"));
  await context.close();
});

test("controls are labelled and reachable from the keyboard; screenshots at desktop and phone width", { skip }, async () => {
  const unlabelled = await page.evaluate(() =>
    [...document.querySelectorAll("button, input, select, textarea")]
      .filter((element) => !element.closest(".xterm"))
      .filter((element) => !(element.labels?.length || element.getAttribute("aria-label") || element.textContent.trim()))
      .map((element) => element.id || element.outerHTML.slice(0, 60)),
  );
  assert.deepEqual(unlabelled, []);
  await page.focus("#example");
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement.id), "run-example");
  await page.screenshot({ path: join(shots, "desktop.png"), fullPage: true });
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
  const small = await openPage(phone);
  const overflow = await small.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  await small.screenshot({ path: join(shots, "phone.png"), fullPage: true });
  assert.ok(overflow <= 1, `the page is ${overflow}px wider than a phone`);
  await phone.close();
});
