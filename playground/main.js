// The playground page: a terminal on the sandboxed shell (in a Web Worker),
// a file tree with a viewer/editor, upload and download, example sessions,
// settings and share links.
import { Terminal } from "@xterm/xterm";
import { FitAddon } from "@xterm/addon-fit";
import { EXAMPLES } from "./examples.js";
import { renderTree } from "./file-tree.js";
import { LineEditor } from "./line-editor.js";
import { ShellClient } from "./shell-client.js";
import { DEFAULT_OPTIONS } from "./defaults.js";
import { shareUrl, sharedScript } from "./share.js";

const HOME = "/home/user";
const $ = (id) => document.getElementById(id);
const status = (text) => {
  $("status").textContent = text;
};

const mainStartMs = performance.now();
const settings = structuredClone({ ...DEFAULT_OPTIONS, colors: false });

// index.html started the worker before this script loaded (it is already
// fetching and compiling the engine and starting a session with the default
// options); a page without that script starts it here.
const client = new ShellClient(window.playgroundWorker ?? new URL("./worker.js", import.meta.url));
const starting = client.request("init", {
  options: { executionLimits: settings.executionLimits, network: settings.network },
});

const term = new Terminal({
  convertEol: true,
  cursorBlink: true,
  fontSize: 14,
  scrollback: 5000,
  fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace",
  theme: { background: "#101418", foreground: "#e6e6e6" },
});
const fit = new FitAddon();
term.loadAddon(fit);
term.open($("terminal"));
fit.fit();
const terminalOpenMs = performance.now();
window.addEventListener("resize", () => fit.fit());

let cwd = HOME;
let busy = false;
let lastChar = "\n";
let selected;
const open = new Set();
const editor = new LineEditor(term, complete);
editor.onInterrupt = () => stop();

/** What tests and curious people can reach from the console. */
const state = { firstPromptMs: undefined, readyMs: undefined, timeline: undefined, busy: () => busy, text: terminalText, commands: 0 };
window.playground = state;

function terminalText() {
  const buffer = term.buffer.active;
  const lines = [];
  for (let row = 0; row < buffer.length; row++) {
    lines.push(buffer.getLine(row)?.translateToString(true) ?? "");
  }
  return lines.join("\n").replace(/\n+$/, "");
}

function prompt() {
  const where = cwd === HOME ? "~" : cwd.startsWith(`${HOME}/`) ? `~${cwd.slice(HOME.length)}` : cwd;
  return settings.colors ? `\x1b[32muser@wabash\x1b[0m:\x1b[34m${where}\x1b[0m$ ` : `user@wabash:${where}$ `;
}

function write(stream, text) {
  if (!text) return;
  lastChar = text[text.length - 1];
  term.write(settings.colors && stream === "stderr" ? `\x1b[31m${text}\x1b[0m` : text);
}

async function complete(before, word) {
  const first = !/\S\s/.test(before.trimStart()) && !word.includes("/");
  try {
    return await client.request("candidates", { word, kind: first ? "command" : "file" });
  } catch {
    return [];
  }
}

async function run(source) {
  busy = true;
  $("stop").disabled = false;
  status("running… (Stop or Ctrl-C interrupts)");
  lastChar = "\n";
  const started = performance.now();
  try {
    const result = await client.exec(source, write);
    cwd = result.cwd;
    const took = Math.round(performance.now() - started);
    status(`${result.aborted ? "stopped" : `exit status ${result.exitCode}`} · ${took} ms`);
  } catch (error) {
    write("stderr", `wabash: ${error.message}\n`);
    status("error");
  } finally {
    if (lastChar !== "\n") term.write("\r\n");
    busy = false;
    state.commands++;
    $("stop").disabled = true;
  }
  await refreshTree();
}

function stop() {
  if (!busy) return;
  editor.discardTypeahead();
  client.stop();
  status("stopping…");
}

async function repl() {
  for (;;) {
    const line = editor.read(prompt());
    if (state.firstPromptMs === undefined) {
      state.firstPromptMs = performance.now();
      state.timeline.firstPrompt = state.firstPromptMs;
      document.body.dataset.ready = "true";
    }
    let source = await line;
    if (source === null) continue;
    while (source.trim() !== "" && (await client.request("complete", { source })) === "incomplete") {
      const more = await editor.read("> ");
      if (more === null) {
        source = "";
        break;
      }
      source += `\n${more}`;
    }
    if (source.trim() === "") continue;
    editor.remember(source);
    await run(source);
  }
}

// Files: the tree, the viewer/editor, upload and download.
async function refreshTree() {
  try {
    const roots = await client.request("tree");
    renderTree($("tree"), roots, open, selected, select);
  } catch (error) {
    $("tree").textContent = `cannot list files: ${error.message}`;
  }
}

async function select(node, action) {
  if (action === "toggle") {
    if (open.has(node.path)) open.delete(node.path);
    else open.add(node.path);
    await refreshTree();
    $("tree").querySelector(`[data-path="${CSS.escape(node.path)}"]`)?.focus();
    return;
  }
  selected = node.path;
  $("viewer-path").textContent = node.path;
  const text = $("viewer-text");
  try {
    const bytes = await client.request("read", { path: node.path });
    try {
      text.value = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
      text.readOnly = false;
      $("save").disabled = false;
    } catch {
      text.value = `(binary file, ${bytes.length} bytes: use Download)`;
      text.readOnly = true;
      $("save").disabled = true;
    }
    $("download-file").disabled = false;
  } catch (error) {
    text.value = error.message;
    text.readOnly = true;
  }
  $("viewer").hidden = false;
  await refreshTree();
}

function saveBlob(bytes, name, type) {
  const url = URL.createObjectURL(new Blob([bytes], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

$("save").onclick = async () => {
  await client.request("write", { path: selected, content: $("viewer-text").value });
  status(`saved ${selected}`);
  await refreshTree();
};
$("download-file").onclick = async () => {
  const bytes = await client.request("read", { path: selected });
  saveBlob(bytes, selected.split("/").pop(), "application/octet-stream");
};
$("download-all").onclick = async () => {
  status("packing the sandbox…");
  try {
    const bytes = await client.request("archive");
    saveBlob(bytes, "wabash-sandbox.tar.gz", "application/gzip");
    status(`downloaded wabash-sandbox.tar.gz (${bytes.length} bytes)`);
  } catch (error) {
    status(`download failed: ${error.message}`);
  }
};
$("upload").onchange = async (event) => {
  const files = [...event.target.files];
  for (const file of files) {
    const bytes = new Uint8Array(await file.arrayBuffer());
    await client.request("write", { path: `${cwd}/${file.name}`, content: bytes }, [bytes.buffer]);
  }
  status(`uploaded ${files.length} file(s) to ${cwd}`);
  event.target.value = "";
  await refreshTree();
};
$("restore").onchange = async (event) => {
  const file = event.target.files[0];
  if (!file) return;
  try {
    const bytes = new Uint8Array(await file.arrayBuffer());
    await client.request("unpack", { bytes }, [bytes.buffer]);
    status(`unpacked ${file.name}`);
  } catch (error) {
    status(`unpacking failed: ${error.message}`);
  }
  event.target.value = "";
  await refreshTree();
};

// Examples, Stop, share.
const picker = $("example");
for (const example of EXAMPLES) {
  picker.append(new Option(example.title, example.id));
}
picker.onchange = () => {
  $("example-about").textContent = EXAMPLES.find((e) => e.id === picker.value)?.about ?? "";
};
picker.onchange();
$("run-example").onclick = () => {
  const example = EXAMPLES.find((e) => e.id === picker.value);
  if (example) {
    editor.type(`${example.commands.join("\n")}\n`);
    term.focus();
  }
};
$("stop").onclick = () => stop();
$("share").onclick = async () => {
  const script = editor.history.slice(-10).join("\n");
  try {
    const url = shareUrl(script || "echo hello from wabash", location.href);
    $("share-url").value = url;
    $("share-box").hidden = false;
    await navigator.clipboard?.writeText(url).catch(() => undefined);
    status("share link ready");
  } catch (error) {
    status(error.message);
  }
};

// Settings.
function fillSettings() {
  const limits = settings.executionLimits;
  $("max-duration").value = limits.maxDurationMs;
  $("max-commands").value = limits.maxCommandCount;
  $("max-output").value = limits.maxOutputSize;
  $("allowlist").value = settings.network.allowedUrlPrefixes.join("\n");
  $("colors").checked = settings.colors;
  $("limits-summary").textContent =
    `each command line may run ${limits.maxDurationMs / 1000} s and ${limits.maxCommandCount.toLocaleString("en")} commands, ` +
    `and print ${Math.round(limits.maxOutputSize / 1048576)} MiB; network: ${settings.network.allowedUrlPrefixes.join(", ") || "none"}`;
}
$("settings-form").onsubmit = async (event) => {
  event.preventDefault();
  settings.executionLimits = {
    maxDurationMs: Number($("max-duration").value),
    maxCommandCount: Number($("max-commands").value),
    maxOutputSize: Number($("max-output").value),
  };
  settings.network.allowedUrlPrefixes = $("allowlist").value.split(/\s+/).filter(Boolean);
  settings.colors = $("colors").checked;
  try {
    await client.request("settings", { options: { executionLimits: settings.executionLimits, network: settings.network } });
    status("settings applied (the session keeps its files and variables)");
  } catch (error) {
    status(`settings rejected: ${error.message}`);
  }
  fillSettings();
};
$("about").ontoggle = async () => {
  if (!$("about").open || $("command-list").dataset.filled) return;
  const names = await client.request("commands");
  $("command-list").textContent = names.join(" ");
  $("command-list").dataset.filled = "true";
};

async function start() {
  fillSettings();
  status("loading the shell…");
  const ready = await starting;
  const replyMs = performance.now();
  state.readyMs = ready.readyMs;
  // Where the time to the first prompt went, in ms after navigation start
  // (the worker's times moved onto the page's clock).
  const shift = ready.timeOrigin - performance.timeOrigin;
  state.timeline = {
    mainStart: mainStartMs,
    terminalOpen: terminalOpenMs,
    workerStart: ready.marks.workerStart + shift,
    // Fetched by the worker, or (the usual case) by index.html.
    wasmResponseEnd:
      ready.marks.wasmResponseEnd === undefined
        ? performance.getEntriesByType("resource").find((entry) => entry.name.endsWith(".wasm"))?.responseEnd
        : ready.marks.wasmResponseEnd + shift,
    engineReady: ready.marks.engineReady + shift,
    reply: replyMs,
  };
  cwd = ready.cwd;
  term.write("wabash: a bash-compatible shell in WebAssembly, over an in-memory filesystem.\r\n");
  term.write("Try `help`, `compgen -c`, or an example session. Nothing here leaves your browser.\r\n\r\n");
  const shared = sharedScript(location.hash);
  if (shared !== undefined) {
    editor.type(`${shared}\n`);
  }
  const loop = repl();
  status(`ready in ${Math.round(performance.now())} ms`);
  term.focus();
  void refreshTree();
  await loop;
}

start().catch((error) => {
  status(`the shell could not start: ${error.message}`);
  term.write(`wabash: the shell could not start: ${error.message}\r\n`);
});
