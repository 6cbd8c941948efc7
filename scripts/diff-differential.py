#!/usr/bin/env python3
"""Differential test of the sandbox's `diff` against GNU diff (not run by
`npm test` or `cargo test`).

Generates seeded pairs of files of several shapes (code-like lines with
many repeats, a tiny alphabet, long files with scattered edits, CRLF, no
final newline, white-space edits), runs GNU diff and the sandbox's diff
(the native `wabash` binary, the pairs mounted into the sandbox) with each
option set, and counts the pairs whose output and status agree.

Usage: python3 scripts/diff-differential.py [PAIRS] [SEED] [WABASH]
  PAIRS defaults to 300, SEED to 1, WABASH to target/debug/wabash.
"""
import os
import random
import subprocess
import sys
import tempfile

OPTION_SETS = ["", "-u", "-c", "-U 1", "-U 0", "-y -W 72", "-b", "-w", "-i", "-B", "-u -b -B", "--strip-trailing-cr", "-d"]


def lines_of(r, shape, n):
    if shape == "code":
        vocab = ["{", "}", "", "return x;", "x = 1;", "y = 2;", "if (a) {", "else", "foo();", "bar();"]
        vocab += ["line %d" % i for i in range(r.randint(3, 60))]
        return [r.choice(vocab) for _ in range(n)]
    if shape == "tiny":
        return [r.choice("abc") for _ in range(n)]
    if shape == "space":
        return [r.choice(["a b", "a  b", " a b", "a b ", "A B", "", "  ", "c\td"]) for _ in range(n)]
    return ["row %d %s" % (i, r.choice(["x", "yy", "zzz"])) for i in range(n)]


def edit(r, a, shape):
    b = list(a)
    for _ in range(r.randint(1, 10)):
        op = r.random()
        p = r.randint(0, len(b))
        if op < 0.35 and b:
            del b[min(p, len(b) - 1):min(p, len(b) - 1) + r.randint(1, 4)]
        elif op < 0.7:
            b[p:p] = lines_of(r, shape, r.randint(1, 5))
        elif b:
            b[min(p, len(b) - 1)] = lines_of(r, shape, 1)[0]
    return b


def render(r, lines):
    eol = "\r\n" if r.random() < 0.1 else "\n"
    text = "".join(line + eol for line in lines)
    if text and r.random() < 0.15:
        text = text[: -len(eol)]
    return text.encode()


def make_pairs(directory, count, seed):
    for index in range(count):
        r = random.Random(seed * 100003 + index)
        shape = r.choice(["code", "code", "tiny", "space", "long"])
        n = r.randint(0, 400 if shape == "long" else 60)
        a = lines_of(r, shape, n)
        b = edit(r, a, shape)
        with open(os.path.join(directory, "a%d" % index), "wb") as f:
            f.write(render(r, a))
        with open(os.path.join(directory, "b%d" % index), "wb") as f:
            f.write(render(r, b))


def script(count, options):
    return (
        "for i in $(seq 0 %d); do diff %s --label a --label b a$i b$i; echo \"=status $? pair $i\"; done"
        % (count - 1, options)
    ).replace("--label a --label b", "--label a --label b" if any(flag in options for flag in ("-u", "-c", "-U")) else "")


def split(output):
    pairs, current = {}, []
    for line in output.split(b"\n"):
        if line.startswith(b"=status "):
            pairs[int(line.split()[-1])] = b"\n".join(current + [line])
            current = []
        else:
            current.append(line)
    return pairs


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    wabash = sys.argv[3] if len(sys.argv) > 3 else "target/debug/wabash"
    env = dict(os.environ, LC_ALL="C.UTF-8", TZ="UTC")
    total_agree, total = 0, 0
    with tempfile.TemporaryDirectory() as directory:
        make_pairs(directory, count, seed)
        for options in OPTION_SETS:
            text = "cd %s && %s" % (directory, script(count, options))
            gnu = subprocess.run(["bash", "-c", text], capture_output=True, env=env).stdout
            sandbox_text = "cd /data && %s" % script(count, options)
            ours = subprocess.run([wabash, "--mount", "%s:/data" % directory, "-c", sandbox_text], capture_output=True, env=env).stdout
            expected, actual = split(gnu), split(ours)
            agree = sum(1 for i in range(count) if expected.get(i) == actual.get(i))
            total_agree += agree
            total += count
            print("diff %-22s %d/%d pairs agree" % (options or "(normal)", agree, count))
            for i in range(count):
                if expected.get(i) != actual.get(i):
                    print("  first disagreement: pair %d (seed %d)" % (i, seed))
                    break
    print("%d passed, %d failed" % (total_agree, total - total_agree))
    return 0 if total_agree == total else 1


if __name__ == "__main__":
    sys.exit(main())
