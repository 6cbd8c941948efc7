#!/usr/bin/env python3
"""Property test of our bc against GNU bc: random programs of random
expressions (arithmetic with random scales, ibase/obase, comparisons,
the math library) run through both; reports how many lines agree.

Usage: python3 scripts/bc-property.py [PROGRAMS] [SEED]
Needs GNU bc on PATH and a built target/debug/wabash (cargo build).
"""
import os
import random
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WABASH = os.path.join(ROOT, "target", "debug", "wabash")


def number(rng):
    whole = str(rng.choice([0, 1, 2, 3, 7, 10, 99, 12345, rng.randint(0, 10**rng.randint(1, 30))]))
    if rng.random() < 0.5:
        whole += "." + "".join(rng.choice("0123456789") for _ in range(rng.randint(1, 12)))
    return ("-" if rng.random() < 0.2 else "") + whole


def expr(rng, depth=0):
    if depth > 3 or rng.random() < 0.3:
        return number(rng)
    kind = rng.random()
    if kind < 0.55:
        op = rng.choice(["+", "-", "*", "/", "%", "*", "/"])
        return "(" + expr(rng, depth + 1) + op + expr(rng, depth + 1) + ")"
    if kind < 0.65:
        return "(" + expr(rng, depth + 1) + ")^" + str(rng.randint(-3, 12))
    if kind < 0.72:
        return "sqrt(" + number(rng).lstrip("-") + ")"
    if kind < 0.8:
        return rng.choice(["length", "scale"]) + "(" + expr(rng, depth + 1) + ")"
    if kind < 0.88:
        op = rng.choice(["<", "<=", ">", ">=", "==", "!=", "&&", "||"])
        return "(" + expr(rng, depth + 1) + op + expr(rng, depth + 1) + ")"
    fn = rng.choice(["s", "c", "a", "l", "e"])
    arg = number(rng)
    if fn == "e":
        arg = "%.5f" % rng.uniform(-20, 40)
    return fn + "(" + arg + ")"


def program(rng):
    lines = []
    for _ in range(20):
        roll = rng.random()
        if roll < 0.15:
            lines.append("scale=" + str(rng.randint(0, 40)))
        elif roll < 0.22:
            lines.append("obase=" + str(rng.choice([2, 8, 10, 16, 10, 10, 3, 100, 1000])))
        elif roll < 0.25:
            lines.append("obase=10")
        else:
            lines.append(expr(rng))
    return "\n".join(lines) + "\n"


def run(argv, text):
    proc = subprocess.run(argv, input=text.encode(), capture_output=True, timeout=120,
                          env={"LC_ALL": "C.UTF-8", "PATH": os.environ.get("PATH", "")})
    return proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8", "replace"), proc.returncode


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    rng = random.Random(seed)
    agree = total = 0
    for index in range(count):
        text = program(rng)
        expected = run(["bc", "-l"], text)
        got = run([WABASH, "-c", "bc -l"], text)
        exp_lines, got_lines = expected[0].split("\n"), got[0].split("\n")
        total += max(len(exp_lines), len(got_lines))
        agree += sum(1 for a, b in zip(exp_lines, got_lines) if a == b)
        if expected != got:
            print(f"--- program {index} differs:\n{text}")
            for a, b in zip(exp_lines, got_lines):
                if a != b:
                    print(f"  bc:   {a[:150]}\n  ours: {b[:150]}")
                    break
            if expected[1] != got[1]:
                print(f"  stderr bc:   {expected[1][:300]!r}\n  stderr ours: {got[1][:300]!r}")
    print(f"{agree} of {total} output lines agree over {count} programs (seed {seed})")
    return 0 if agree == total else 1


if __name__ == "__main__":
    sys.exit(main())
