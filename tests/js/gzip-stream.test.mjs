// gzip, gunzip, zcat and tar z stream through the built package: one Bash
// with a memoryLimit smaller than the data, several execs, each moving
// more bytes through gzip than the sandbox could hold at once, and the
// session's files and variables intact between them.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Bash } from "../../dist/node.js";

const LIMIT = 48 << 20;

test("gzip pipelines larger than memoryLimit stream, and the session keeps its state", { timeout: 600_000 }, async () => {
  const bash = new Bash({ memoryLimit: LIMIT });
  const check = async (script) => {
    const result = await bash.exec(script);
    assert.equal(result.exitCode, 0, `${script}: ${result.stderr}`);
    return result.stdout;
  };
  await check("kept=yes; keep() { echo fn; }; mkdir -p /home/user/z && cd /home/user/z && seq 1000000 > big && echo marker > k");
  const state = "echo $kept $(keep) $PWD $(cat k) $(wc -c < big)";
  const intact = "yes fn /home/user/z marker 6888896\n";
  assert.equal(await check(state), intact);

  // 3,000,000 lines are 20.9 MB raw; 100 MB of text is twice the limit:
  // neither could be held whole by gzip and again by gunzip in 48 MiB.
  assert.equal(await check("seq 3000000 | gzip | gunzip | wc -l"), "3000000\n");
  assert.equal(await check("yes 0123456789 | head -c 100000000 | gzip | gunzip | wc -c"), "100000000\n");
  assert.equal(await check(state), intact);

  // A multi-MB file compressed to a file and expanded through pipes; head
  // stopping early stops the expansion.
  assert.equal(await check("gzip -c big > big.gz && zcat big.gz | head -1 && zcat big.gz | tail -1"), "1\n1000000\n");
  assert.equal(await check("set -o pipefail; zcat big.gz | head -2 | tail -1; echo ${PIPESTATUS[0]}"), "2\n141\n");
  assert.equal(await check("gunzip -c big.gz | cmp - big && echo same"), "same\n");
  assert.equal(await check("cat big big big | gzip -1 | gzip -d | wc -c"), "20666688\n");
  assert.equal(await check(state), intact);

  // tar z of a tree holding the big file: create, list and extract, by file and by pipe.
  assert.equal(await check("rm big.gz && mkdir -p t/s && cp big t/a && seq 5 > t/s/b && tar czf t.tgz t && tar tzf t.tgz"), "t/\nt/a\nt/s/\nt/s/b\n");
  assert.equal(await check("mkdir out && tar xzf t.tgz -C out && cmp big out/t/a && tar czf - t | tar tzvf - | wc -l"), "4\n");
  assert.equal(await check("tar xzOf t.tgz t/a | wc -l"), "1000000\n");
  assert.equal(await check(state), intact);

  // Bad input still gives GNU's words, and the session goes on.
  const cut = await bash.exec("gzip -c big | head -c 5000 | gunzip > /dev/null");
  assert.deepEqual([cut.stderr, cut.exitCode], ["\ngzip: stdin: unexpected end of file\n", 1]);
  assert.equal(await check(state), intact);
  assert.equal(bash.resets, 0);
  assert.equal(bash.restores, 0);
});
