#!/usr/bin/env python3
"""Differential fuzzing of the parser against real bash (not a test).

Mutates the sources of tests/parse/cases.txt and the scripts of the recorded
interpreter cases (drops, inserts, swaps tokens, truncates), runs each result through `bash -n -c SOURCE` and through the
sandbox's own `bash -n -c SOURCE`, and prints every distinct difference in
messages or exit status (grouped by bash's first line, so one finding is
shown once). Needs GNU bash 5.2 as `bash` and the native CLI built
(`cargo build --bin wabash`).

Usage: python3 scripts/diff-fuzz-parse.py [COUNT] [SEED]
"""

import os
import random
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WABASH = os.environ.get("WABASH", os.path.join(ROOT, "target", "debug", "wabash"))

# Tokens worth inserting: reserved words, operators, quotes and openers.
TOKENS = [
    "if", "then", "else", "elif", "fi", "for", "in", "do", "done", "while", "until", "case", "esac",
    ";;", "{", "}", "(", ")", "((", "))", "[[", "]]", "!", "&&", "||", "|", ";", "&", "<", ">", ">>",
    "<<", "<<<", "2>&1", "$(", "`", '"', "'", "$((", "${", "function", "select", "time", "coproc",
    "\n", "=", "a=1", "x", "-n", "==", "=~", "[", "]", "#", "\\", "$'", "<(", ">(", ";&", ";;&", "|&", "&>",
]


def sources():
    """The sources of the parse case table and the scripts of the recorded
    interpreter cases (whole programs, closer to what agents write)."""
    text = open(os.path.join(ROOT, "tests", "parse", "cases.txt"), encoding="utf-8").read()
    found = []
    for block in text.split("===\n")[1:]:
        source = block.partition("\n---\n")[0]
        if source.strip():
            found.append(source)
    cases = os.path.join(ROOT, "tests", "cases", "interp")
    for name in sorted(os.listdir(cases)):
        if not name.endswith(".cases"):
            continue
        for block in open(os.path.join(cases, name), encoding="utf-8", errors="replace").read().split("\n=== ")[1:]:
            script = block.partition("--- script")[2]
            script = re.split(r"^--- ", script, flags=re.M)[0].strip("\n %")
            if script.strip():
                found.append(script)
    return found


def mutate(rng, source):
    """One random edit of `source`."""
    pieces = re.split(r"(\s+)", source)
    at = rng.randrange(len(pieces)) if pieces else 0
    kind = rng.randrange(5)
    if kind == 0 and pieces:
        del pieces[at]
    elif kind == 1:
        pieces.insert(at, rng.choice(TOKENS) + " ")
    elif kind == 2:
        return source[: rng.randrange(len(source) + 1)]
    elif kind == 3 and len(pieces) > 1:
        other = rng.randrange(len(pieces))
        pieces[at], pieces[other] = pieces[other], pieces[at]
    else:
        pieces.insert(at, " " + rng.choice(TOKENS))
    return "".join(pieces)


def run(command, cwd):
    """stderr and exit status of `command`."""
    try:
        done = subprocess.run(command, capture_output=True, text=True, errors="replace", cwd=cwd, timeout=10)
    except subprocess.TimeoutExpired:
        return "timeout"
    return f"{done.stderr}|status {done.returncode}"


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
    corpus = sources()
    seen = set()
    with tempfile.TemporaryDirectory() as empty:
        for _ in range(count):
            source = rng.choice(corpus)
            for _ in range(rng.randrange(1, 3)):
                source = mutate(rng, source)
            # Sources that bash would read as its own options are not parser input.
            if "\0" in source or source.startswith(("-", "+")):
                continue
            expected = run(["bash", "-n", "-c", source], empty)
            actual = run([WABASH, "-c", 'bash -n -c "$1"', "_", source], empty)
            if expected == actual:
                continue
            key = re.sub(r"`[^']*'", "`X'", expected.split("\n")[0])[:80]
            if key in seen:
                continue
            seen.add(key)
            print(f"=== {source!r}\n--- bash\n{expected}\n--- wabash\n{actual}\n")
    print(f"{count} sources tried, {len(seen)} distinct differences")


if __name__ == "__main__":
    main()
