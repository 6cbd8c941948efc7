// Filesystem benchmark (issue 5), side by side in one run: `find` over
// 50,000 files, `cp -r` and `tar czf` of a 20 MB tree, each timed inside
// the native `wabash` binary (the tree copied into its in-memory filesystem
// with --mount; only the command itself is timed, with $EPOCHREALTIME) and
// inside GNU bash over the same tree on the host's tmpfs. The ratio is
// wabash time / GNU time (below 1: faster). A benchmark, not a test: it is
// not part of `npm test`.
//
// usage: node scripts/bench-fs.mjs [runs] [path/to/wabash]
// (build first: cargo build --release --bin wabash)
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";

const runs = Number(process.argv[2] ?? 3);
const wabash = process.argv[3] ?? new URL("../target/release/wabash", import.meta.url).pathname;
if (!existsSync(wabash)) {
  console.error(`no ${wabash}: build it with cargo build --release --bin wabash`);
  process.exit(1);
}
const base = existsSync("/dev/shm") ? "/dev/shm" : "/tmp";
const root = mkdtempSync(join(base, "wabash-bench-fs-"));

/// Text that compresses like source code: words from a small vocabulary.
function text(bytes, seed) {
  const words = ["fn", "let", "match", "return", "self", "value", "error", "async", "await", "String", "Vec", "impl", "pub", "use", "struct"];
  let state = seed;
  const parts = [];
  let size = 0;
  while (size < bytes) {
    state = (state * 1103515245 + 12345) % 2147483648;
    const word = words[state % words.length] + (state % 7 === 0 ? "\n" : " ");
    parts.push(word);
    size += word.length;
  }
  return parts.join("").slice(0, bytes);
}

// 50 directories of 1,000 small files each.
const many = join(root, "many");
for (let d = 0; d < 50; d++) {
  const dir = join(many, `d${d}`);
  mkdirSync(dir, { recursive: true });
  for (let f = 0; f < 1000; f++) writeFileSync(join(dir, `f${f}.txt`), `${d}/${f}\n`);
}
// 20 MB: 10 directories of 20 files of 100 KB.
const big = join(root, "big");
for (let d = 0; d < 10; d++) {
  const dir = join(big, `src${d}`);
  mkdirSync(dir, { recursive: true });
  for (let f = 0; f < 20; f++) writeFileSync(join(dir, `file${f}.rs`), text(100_000, d * 100 + f + 1));
}

const CASES = [
  { name: "find over 50,000 files", tree: "many", command: "find many -type f | wc -l" },
  { name: "cp -r of a 20 MB tree", tree: "big", command: "cp -r big big-copy" },
  { name: "tar czf of a 20 MB tree", tree: "big", command: "tar czf big.tgz big" },
];

/// Times `command` inside a shell script: prints the elapsed seconds.
function timed(command) {
  return `s=$EPOCHREALTIME; ${command} >/dev/null; e=$EPOCHREALTIME; echo "$s $e"`;
}

function seconds(output) {
  const [start, end] = output.trim().split("\n").pop().split(" ").map(Number);
  return end - start;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

console.log(`${base} tmpfs, median of ${runs} runs each`);
try {
  for (const { name, tree, command } of CASES) {
    const ours = [];
    const theirs = [];
    for (let i = 0; i < runs; i++) {
      const work = mkdtempSync(join(root, "gnu-"));
      execFileSync("cp", ["-r", join(root, tree), work]);
      theirs.push(seconds(execFileSync("bash", ["-c", timed(command)], { cwd: work, encoding: "utf8" })));
      rmSync(work, { recursive: true, force: true });
      const args = ["--mount", `${join(root, tree)}:/home/user/${tree}`, "-c", timed(command)];
      ours.push(seconds(execFileSync(wabash, args, { encoding: "utf8", maxBuffer: 1 << 26 })));
    }
    const [a, b] = [median(ours), median(theirs)];
    console.log(`${name.padEnd(26)} wabash ${(a * 1000).toFixed(0).padStart(6)} ms   GNU ${(b * 1000).toFixed(0).padStart(6)} ms   ratio ${(a / b).toFixed(2)}`);
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
