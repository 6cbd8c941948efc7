// Mounts through the built package: host directories (nodeDirectory), maps
// of lazy loaders (mapDirectory) and any adapter (mountDirectory), read
// lazily; read-only enforced; copy-on-write changes listed, exported as
// files and as a patch; nothing outside the mounted directory reachable.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { Bash, mapDirectory, mountDirectory, nodeDirectory } from "../../dist/node.js";

function project() {
  const dir = mkdtempSync(join(tmpdir(), "wabash-mount-"));
  mkdirSync(join(dir, "repo", "src"), { recursive: true });
  writeFileSync(join(dir, "repo", "README.md"), "# repo\n");
  writeFileSync(join(dir, "repo", "src", "main.js"), "console.log('hi');\nexport {};\n");
  writeFileSync(join(dir, "repo", "src", "old.js"), "old\n");
  writeFileSync(join(dir, "secret.txt"), "host secret\n");
  return { dir, repo: join(dir, "repo") };
}

/** The adapter of `mount` with every call counted by method. */
function counted(mount) {
  const calls = { stat: [], list: [], read: [], readlink: [] };
  const directory = {};
  for (const method of Object.keys(calls)) {
    directory[method] = (path, ...rest) => {
      calls[method].push(path);
      return mount.directory[method](path, ...rest);
    };
  }
  return { mount: mountDirectory(directory, mount.mode === "copyOnWrite" ? { copyOnWrite: true } : { readOnly: true }), calls };
}

test("a read-only host directory is read by scripts and refuses every change", async () => {
  const { dir, repo } = project();
  try {
    const bash = new Bash({ mounts: { "/project": nodeDirectory(repo, { readOnly: true }) }, cwd: "/project" });
    const read = await bash.exec("cat README.md; ls; wc -l < src/main.js");
    assert.equal(read.stdout, "# repo\nREADME.md\nsrc\n2\n");
    const write = await bash.exec("echo x > README.md; echo $?; rm src/old.js; touch new; mkdir d; mv src/old.js src/o.js");
    assert.match(write.stderr, /README\.md: Read-only file system/);
    assert.match(write.stderr, /rm: cannot remove 'src\/old\.js': Read-only file system/);
    assert.match(write.stderr, /touch: cannot touch 'new': Read-only file system/);
    assert.equal(write.stdout, "1\n");
    assert.equal(readFileSync(join(repo, "README.md"), "utf8"), "# repo\n");
    assert.deepEqual(readdirSync(join(repo, "src")).sort(), ["main.js", "old.js"]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("copy-on-write: scripts change the tree in memory; changes are listed, exported and patched; the host never changes", async () => {
  const { dir, repo } = project();
  try {
    const bash = new Bash({ mounts: { "/project": nodeDirectory(repo, { copyOnWrite: true }) } });
    const result = await bash.exec(
      "cd /project && sed -i 's/hi/hello/' src/main.js && echo new > src/new.js && rm src/old.js && mkdir out && cat src/main.js",
    );
    assert.equal(result.stderr, "");
    assert.equal(result.stdout, "console.log('hello');\nexport {};\n");
    assert.deepEqual(await bash.mountChanges("/project"), {
      created: ["/project/out", "/project/src/new.js"],
      modified: ["/project/src/main.js"],
      deleted: ["/project/src/old.js"],
    });
    const files = await bash.mountFiles("/project");
    assert.deepEqual(
      files.map(({ path, change, type }) => [path, change, type]),
      [
        ["/out", "created", "directory"],
        ["/src/main.js", "modified", "file"],
        ["/src/new.js", "created", "file"],
        ["/src/old.js", "deleted", "file"],
      ],
    );
    assert.equal(new TextDecoder().decode(files[2].content), "new\n");
    assert.equal(files[3].content, null);
    const patch = await bash.mountPatch("/project");
    assert.match(patch, /^diff -ruN a\/src\/main.js b\/src\/main.js\n--- a\/src\/main.js\n\+\+\+ b\/src\/main.js\n@@ -1,2 \+1,2 @@\n-console.log\('hi'\);\n\+console.log\('hello'\);\n export \{\};\n/);
    // The host directory is as it was; the patch applies to it with patch -p1.
    assert.equal(readFileSync(join(repo, "src", "main.js"), "utf8"), "console.log('hi');\nexport {};\n");
    assert.deepEqual(readdirSync(join(repo, "src")).sort(), ["main.js", "old.js"]);
    execFileSync("patch", ["-s", "-p1"], { cwd: repo, input: patch });
    assert.equal(readFileSync(join(repo, "src", "main.js"), "utf8"), "console.log('hello');\nexport {};\n");
    assert.deepEqual(readdirSync(join(repo, "src")).sort(), ["main.js", "new.js"]);
    await assert.rejects(bash.mountPatch("/elsewhere"), { code: "WABASH_INVALID_OPTIONS" });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("nothing outside the mounted directory is reachable, symlinks in the host tree included", async () => {
  const { dir, repo } = project();
  try {
    symlinkSync(join(dir, "secret.txt"), join(repo, "abs-link"));
    symlinkSync("../secret.txt", join(repo, "rel-link"));
    symlinkSync(dir, join(repo, "dir-link"));
    const { mount, calls } = counted(nodeDirectory(repo, { readOnly: true }));
    const bash = new Bash({ mounts: { "/project": mount } });
    const result = await bash.exec(
      "cd /project; for f in abs-link rel-link dir-link/secret.txt ../secret.txt ../../secret.txt /project/../secret.txt; do cat $f 2>&1; done; readlink rel-link",
    );
    assert.doesNotMatch(result.stdout, /host secret/);
    assert.match(result.stdout, /rel-link|No such file/);
    assert.match(result.stdout, /\.\.\/secret\.txt\n$/);
    for (const path of Object.values(calls).flat()) {
      assert.ok(!path.split("/").includes(".."), `the adapter was asked about ${path}`);
    }
    // The adapter itself refuses a path through a symlinked directory, even if asked.
    const direct = nodeDirectory(repo).directory;
    await assert.rejects(direct.read("/dir-link/secret.txt", 0, 100), { code: "EACCES" });
    await assert.rejects(direct.stat("/dir-link/secret.txt"), { code: "EACCES" });
    await assert.rejects(direct.stat("/../secret.txt"), { code: "EACCES" });
    assert.deepEqual(await direct.stat("/dir-link").then((s) => s.type), "symlink");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a tree of 100,000 lazy files mounts at once; only what a script touches is loaded", async () => {
  const entries = {};
  const loaded = [];
  for (let i = 0; i < 100_000; i += 1) {
    const path = `/d${i % 100}/f${i}.txt`;
    entries[path] = () => {
      loaded.push(path);
      return `file ${i}\n`;
    };
  }
  const started = performance.now();
  const bash = new Bash({ mounts: { "/data": mapDirectory(entries) } });
  const result = await bash.exec("cat /data/d7/f12307.txt; ls /data | wc -l; ls /data/d3 | wc -l");
  const elapsed = performance.now() - started;
  assert.equal(result.stdout, "file 12307\n100\n1000\n");
  assert.deepEqual(loaded, ["/d7/f12307.txt"]);
  assert.ok(elapsed < 5000, `mount and first exec took ${elapsed} ms`);
});

test("nodeDirectory reads nothing before a script touches it", async () => {
  const { dir, repo } = project();
  try {
    const { mount, calls } = counted(nodeDirectory(repo, { copyOnWrite: true }));
    const bash = new Bash({ mounts: { "/project": mount } });
    await bash.exec("true");
    assert.deepEqual(calls.read, []);
    assert.deepEqual(calls.list, []);
    await bash.exec("cat /project/README.md");
    assert.deepEqual(calls.read, ["/README.md"]);
    assert.deepEqual(calls.list, []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a custom adapter: errors map to errno, bad mounts are refused", async () => {
  const adapter = {
    async stat(path) {
      if (path === "/") return { type: "directory", size: 0 };
      if (path === "/ok") return { type: "file", size: 3 };
      if (path === "/broken") return { type: "file", size: 1 };
      throw Object.assign(new Error("gone"), { code: "ENOENT" });
    },
    async list() {
      return [{ name: "ok", type: "file" }, { name: "broken", type: "file" }];
    },
    async read(path) {
      if (path === "/ok") return new TextEncoder().encode("ok\n");
      throw new Error("store unreachable");
    },
  };
  const bash = new Bash({ mounts: { "/store": mountDirectory(adapter) } });
  const result = await bash.exec("cat /store/ok; cat /store/broken; cat /store/missing; ls /store");
  assert.equal(result.stdout, "ok\nbroken\nok\n");
  assert.equal(result.stderr, "cat: /store/broken: Input/output error\ncat: /store/missing: No such file or directory\n");
  assert.throws(() => new Bash({ mounts: { relative: mapDirectory({}) } }), { code: "WABASH_INVALID_OPTIONS" });
  assert.throws(() => new Bash({ mounts: { "/": mapDirectory({}) } }), { code: "WABASH_INVALID_OPTIONS" });
  assert.throws(() => new Bash({ mounts: { "/x": {} } }), { code: "WABASH_INVALID_OPTIONS" });
  assert.throws(() => mountDirectory({ stat() {} }), { code: "WABASH_INVALID_OPTIONS" });
  assert.throws(() => mapDirectory({}, { readOnly: true, copyOnWrite: true }), { code: "WABASH_INVALID_OPTIONS" });
  assert.throws(() => nodeDirectory("/definitely/not/here"), { code: "WABASH_INVALID_OPTIONS" });
});

test("bash.fs reaches mounted files: reads, and writes where the mount allows", async () => {
  const bash = new Bash({
    mounts: {
      "/ro": mapDirectory({ "/a.txt": "alpha\n", "/sub/b.txt": "beta\n" }),
      "/cow": mapDirectory({ "/c.txt": "gamma\n" }, { copyOnWrite: true }),
    },
  });
  assert.equal(await bash.fs.readFile("/ro/sub/b.txt"), "beta\n");
  assert.deepEqual(await bash.fs.readdir("/ro"), ["a.txt", "sub"]);
  assert.equal((await bash.fs.stat("/ro/a.txt")).size, 6);
  assert.equal(await bash.fs.exists("/ro/missing"), false);
  await assert.rejects(bash.fs.writeFile("/ro/new.txt", "x"), { code: "EROFS" });
  await bash.fs.writeFile("/cow/new/deep.txt", "written by the host\n");
  assert.equal((await bash.exec("cat /cow/new/deep.txt")).stdout, "written by the host\n");
  assert.deepEqual((await bash.mountChanges("/cow")).created, ["/cow/new", "/cow/new/deep.txt"]);
});
