#!/usr/bin/env node
// What keeping the last good state costs (issue 11), on the built package:
// a sandbox holding 1,000 files and 50 MB, with crashRecovery "restore"
// (the wrapper keeps a copy from deltas) against "reset" (no copy), side by
// side in one run. Reports time per exec for a few kinds of exec, the
// memory the copy holds, the cost of a full snapshot per exec (the other
// design), and how long recovering from a crash takes. Not a test.
//
// usage: node scripts/bench-session.mjs [ROUNDS]
import { Bash } from "../dist/node.js";
import { crashForTesting } from "../dist/bash.js";

const rounds = Number(process.argv[2]) || 20;
const FILES = 1000;
const TOTAL = 50 << 20;

function files() {
  const out = {};
  const size = Math.floor(TOTAL / FILES);
  for (let i = 0; i < FILES; i++) {
    const body = new Uint8Array(size);
    for (let j = 0; j < size; j++) body[j] = 97 + ((i + j) % 26);
    out[`/home/user/data/d${i % 20}/f${i}.txt`] = body;
  }
  return out;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function time(bash, script) {
  const samples = [];
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    const result = await bash.exec(script.replace(/ROUND/g, String(i)));
    samples.push(performance.now() - started);
    if (result.exitCode !== 0) throw new Error(`${script}: ${result.stderr}`);
  }
  return median(samples);
}

const scripts = [
  ["true", "true"],
  ["write a small file", "echo ROUND > /home/user/small.txt"],
  ["rewrite a 50 KB file", "cat /home/user/data/d1/f1.txt > /home/user/copy.txt"],
  ["write a 1 MB file", "head -c 1000000 /dev/zero > /home/user/mb.bin"],
  ["read 50 MB (cat data | wc -c)", "cat /home/user/data/*/* | wc -c"],
  ["set 100 variables", "for i in $(seq 100); do declare v_$i=ROUND; done"],
];

const content = files();
const table = [];
const sessions = {};
for (const recovery of ["reset", "restore"]) {
  global.gc?.();
  const before = process.memoryUsage();
  const bash = new Bash({ files: content, crashRecovery: recovery });
  const started = performance.now();
  await bash.exec("true");
  const firstExec = performance.now() - started;
  const after = process.memoryUsage();
  sessions[recovery] = { bash, firstExec, memory: (after.arrayBuffers - before.arrayBuffers) / 1048576 };
}
for (const [label, script] of scripts) {
  const row = { exec: label };
  for (const recovery of ["reset", "restore"]) {
    row[recovery] = await time(sessions[recovery].bash, script);
  }
  table.push(row);
}

console.log(`sandbox: ${FILES} files, ${TOTAL >> 20} MB; median of ${rounds} execs; Node ${process.version}`);
console.log("| exec | crashRecovery: reset | restore (copy kept) | extra |");
console.log("|---|---|---|---|");
for (const row of table) {
  console.log(`| ${row.exec} | ${row.reset.toFixed(2)} ms | ${row.restore.toFixed(2)} ms | ${(row.restore - row.reset).toFixed(2)} ms |`);
}
console.log(`first exec (loads the files; the copy's full delta): reset ${sessions.reset.firstExec.toFixed(0)} ms, restore ${sessions.restore.firstExec.toFixed(0)} ms`);
console.log(`JS-side memory after the first exec (ArrayBuffers): reset ${sessions.reset.memory.toFixed(1)} MB, restore ${sessions.restore.memory.toFixed(1)} MB`);

const snapshots = [];
for (let i = 0; i < Math.min(rounds, 10); i++) {
  const started = performance.now();
  const bytes = await sessions.restore.bash.snapshot();
  snapshots.push(performance.now() - started);
  if (i === 0) console.log(`full snapshot size: ${(bytes.byteLength / 1048576).toFixed(1)} MB`);
}
console.log(`the other design, a full snapshot after every exec: ${median(snapshots).toFixed(1)} ms per exec`);

const recoveries = [];
for (let i = 0; i < 3; i++) {
  const started = performance.now();
  await sessions.restore.bash[crashForTesting]().catch(() => {});
  recoveries.push(performance.now() - started);
}
const check = await sessions.restore.bash.exec("ls /home/user/data/*/* | wc -l; cat /home/user/small.txt");
console.log(`crash and restore (new instance + 50 MB back): ${median(recoveries).toFixed(0)} ms; state after: ${JSON.stringify(check.stdout)}`);
