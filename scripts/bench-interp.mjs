// Interpreter benchmark (issue 4), side by side in one run: each script runs
// in-process through the built package (wasm in Node) and as `bash -c` on
// the same machine; the ratio is wabash time / bash time (below 1: faster).
// The first three are the scripts; the others are common patterns
// (reading a file line by line, case, arrays, test, associative counts)
// over a 20,000-line file given to both shells. A benchmark, not a test.
//
// usage: node scripts/bench-interp.mjs [runs]
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Bash } from "../dist/node.js";

const SCRIPTS = {
  "arith loop over $(seq 1 100000)": "x=0; for i in $(seq 1 100000); do x=$((x+i)); done; echo $x",
  "50,000 function calls": "f() { local a=$1; r=$((a*2)); }; for ((i=0;i<50000;i++)); do f $i; done; echo $r",
  "string manipulation loop": 's=; for ((i=0;i<20000;i++)); do s="${s:0:50}x$i"; t=${s//x/y}; u=${t#y}; v=${u%?}; done; echo ${#v}',
  "while read over 20,000 lines": "n=0; while read -r a b c d; do n=$((n+b)); done < data.txt; echo $n",
  "case in a 30,000-round loop": "c=0; for ((i=0;i<30000;i++)); do case $((i%3)) in 0) c=$((c+1));; 1) ;; *) c=$((c-1));; esac; done; echo $c",
  "20,000 array appends, then a sum": 'a=(); for ((i=0;i<20000;i++)); do a+=($i); done; s=0; for x in "${a[@]}"; do s=$((s+x)); done; echo $s',
  "[ ] tests in a 30,000-round loop": 'c=0; for ((i=0;i<30000;i++)); do if [ $i -gt 100 ] && [ -n "$i" ]; then c=$((c+1)); fi; done; echo $c',
  "associative counts over 20,000 lines": "unset m; declare -A m; while read -r a b c d; do m[$c]=$(( ${m[$c]:-0} + 1 )); done < data.txt; echo ${#m[@]} ${m[field3]}",
};

const DATA = Array.from({ length: 20000 }, (_, i) => `line ${i} field${i % 7} value`).join("\n") + "\n";
const dataDir = mkdtempSync(join(tmpdir(), "wabash-bench-"));
writeFileSync(join(dataDir, "data.txt"), DATA);
process.on("exit", () => rmSync(dataDir, { recursive: true, force: true }));

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const runs = Number(process.argv[2] ?? 3);
const bash = new Bash({ files: { "data.txt": DATA } });
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
    const expected = execFileSync("bash", ["-c", script], { encoding: "utf8", cwd: dataDir });
    theirs.push(performance.now() - bashStart);
    outputs = [result.stdout, expected];
  }
  const [a, b] = [median(ours), median(theirs)];
  const same = outputs[0] === outputs[1] ? "same output" : `DIFFERENT OUTPUT ${JSON.stringify(outputs)}`;
  console.log(`${name.padEnd(38)} wabash ${a.toFixed(0).padStart(6)} ms   bash ${b.toFixed(0).padStart(6)} ms   ratio ${(a / b).toFixed(2)}   ${same}`);
}
