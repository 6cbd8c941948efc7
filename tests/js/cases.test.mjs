// Runs every recorded case file (tests/cases/**/*.cases, format in
// tests/cases/README.md) through the wasm build, as tests/cases.rs does
// natively: same parsing, same comparisons of stdout, stderr, status and
// expected files. Cases in tests/cases/known-failures.txt may fail; a listed
// case that passes is reported so the list can shrink.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { Bash } from "../../dist/node.js";

const root = fileURLToPath(new URL("../cases/", import.meta.url));

/** Every `*.cases` file under `dir`, sorted. */
function caseFiles(dir) {
  return readdirSync(dir, { recursive: true })
    .filter((name) => name.endsWith(".cases"))
    .map((name) => join(dir, name))
    .sort();
}

/** The cases of one file: `{ id, sections: [{ kind, arg, body }] }`. */
function parse(path, text) {
  const stem = basename(path, ".cases");
  const lines = text.split("\n");
  if (lines.at(-1) === "") {
    lines.pop();
  }
  const cases = [];
  let current;
  const flush = () => {
    if (current && cases.length > 0) {
      const [kind, ...rest] = current.header.split(" ");
      let body = current.body.join("\n");
      if (current.body.length > 0 && !current.noNewline) {
        body += "\n";
      }
      cases.at(-1).sections.push({ kind, arg: rest.join(" "), body });
    }
    current = undefined;
  };
  for (const line of lines) {
    if (line.startsWith("=== ")) {
      flush();
      cases.push({ id: `${stem}::${line.slice(4)}`, sections: [] });
    } else if (line.startsWith("--- ")) {
      flush();
      const header = line.slice(4);
      const noNewline = header.endsWith(" %");
      current = { header: noNewline ? header.slice(0, -2) : header, noNewline, body: [] };
    } else if (current) {
      current.body.push(line);
    }
  }
  flush();
  return cases;
}

/** `/home/user`-relative `path` made absolute (the engine normalizes the rest). */
function fromHome(path) {
  return path.startsWith("/") ? path : `/home/user/${path}`;
}

/** Runs one case; resolves to the list of its mismatches. */
async function run(testCase) {
  const section = (kind) => testCase.sections.find((s) => s.kind === kind);
  const script = (section("script")?.body ?? "").replace(/\n+$/, "");
  const files = Object.fromEntries(testCase.sections.filter((s) => s.kind === "file").map((s) => [fromHome(s.arg), s.body]));
  const bash = new Bash({ files });
  const result = await bash.exec(script, { stdin: section("stdin")?.body ?? "" });
  const problems = [];
  const expect = (what, expected, actual) => {
    if (expected !== actual) {
      problems.push(`${what}:\n  expected ${JSON.stringify(expected)}\n  actual   ${JSON.stringify(actual)}`);
    }
  };
  expect("stdout", section("stdout")?.body ?? "", result.stdout);
  expect("stderr", section("stderr")?.body ?? "", result.stderr);
  expect("status", Number(section("status")?.arg.trim() || 0), result.exitCode);
  for (const file of testCase.sections.filter((s) => s.kind === "expect-file")) {
    const actual = await bash.fs.readFile(fromHome(file.arg)).catch(() => "");
    expect(`file ${file.arg}`, file.body, actual);
  }
  return problems;
}

const known = new Set(
  readFileSync(join(root, "known-failures.txt"), "utf8")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#")),
);

test("recorded cases match bash through the wasm build", async (t) => {
  const filter = process.env.CASE_FILTER ?? "";
  let passed = 0;
  let knownFailed = 0;
  const failed = [];
  const fixed = [];
  for (const file of caseFiles(root)) {
    for (const testCase of parse(file, readFileSync(file, "utf8"))) {
      if (!testCase.id.includes(filter)) {
        continue;
      }
      let problems;
      try {
        problems = await run(testCase);
      } catch (error) {
        problems = [`threw ${error?.code ?? ""} ${error?.message ?? error}`];
      }
      if (problems.length === 0) {
        passed += 1;
        if (known.has(testCase.id)) {
          fixed.push(testCase.id);
        }
      } else if (known.has(testCase.id)) {
        knownFailed += 1;
      } else {
        failed.push(`${testCase.id}\n${problems.join("\n")}`);
      }
    }
  }
  for (const id of fixed) {
    t.diagnostic(`now passing (remove from known-failures.txt): ${id}`);
  }
  for (const failure of failed) {
    t.diagnostic(`FAIL ${failure}`);
  }
  t.diagnostic(`case files (wasm): ${passed} passed, ${failed.length} failed, ${knownFailed} known failures`);
  assert.equal(failed.length, 0, `${failed.length} case(s) differ from bash:\n\n${failed.join("\n\n")}`);
});
