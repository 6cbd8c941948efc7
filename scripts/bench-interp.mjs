// Interpreter benchmark (issue 4), side by side in one run: each script runs
// in-process through the built package (wasm in Node) and as `bash -c` on
// the same machine; the ratio is wabash time / bash time (below 1: faster).
// A benchmark, not a test.
//
// usage: node scripts/bench-interp.mjs [runs]
import { execFileSync } from "node:child_process";
import { performance } from "node:perf_hooks";
import { Bash } from "../dist/node.js";

const SCRIPTS = {
  "arith loop over $(seq 1 100000)": "x=0; for i in $(seq 1 100000); do x=$((x+i)); done; echo $x",
  "50,000 function calls": "f() { local a=$1; r=$((a*2)); }; for ((i=0;i<50000;i++)); do f $i; done; echo $r",
  "string manipulation loop": 's=; for ((i=0;i<20000;i++)); do s="${s:0:50}x$i"; t=${s//x/y}; u=${t#y}; v=${u%?}; done; echo ${#v}',
};

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const runs = Number(process.argv[2] ?? 3);
const bash = new Bash();
await bash.exec("true");
console.log(`node ${process.version}; median of ${runs} runs each`);
for (const [name, script] of Object.entries(SCRIPTS)) {
  const ours = [];
  const theirs = [];
  let outputs = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const result = await bash.exec(script);
    ours.push(performance.now() - start);
    const bashStart = performance.now();
    const expected = execFileSync("bash", ["-c", script], { encoding: "utf8" });
    theirs.push(performance.now() - bashStart);
    outputs = [result.stdout, expected];
  }
  const [a, b] = [median(ours), median(theirs)];
  const same = outputs[0] === outputs[1] ? "same output" : `DIFFERENT OUTPUT ${JSON.stringify(outputs)}`;
  console.log(`${name.padEnd(34)} wabash ${a.toFixed(0).padStart(6)} ms   bash ${b.toFixed(0).padStart(6)} ms   ratio ${(a / b).toFixed(2)}   ${same}`);
}
