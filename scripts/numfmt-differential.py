#!/usr/bin/env python3
"""Differential run of wabash's numfmt against GNU numfmt (coreutils 9.1).

Usage: numfmt-differential.py WABASH_BINARY [BATCHES] [SEED]

Each batch is one random option set with 40 random values as operands, run
by GNU numfmt and by `WABASH -c 'numfmt ...'`; stdout, stderr and the exit
status are compared. Prints the differing batches and the counts.
"""
import random
import shlex
import subprocess
import sys


def value(rng, suffixes):
    digits = rng.choice([1, 1, 2, 3, 4, 4, 5, 6, 7, 9, 12, 15, 18, 19, 21, 24, 27])
    text = str(rng.randint(1, 9)) + "".join(rng.choice("0123456789") for _ in range(digits - 1))
    if rng.random() < 0.2:
        text = rng.choice(["999", "1023", "1024", "9999", "99949", "1000", "4095", "1048575"]) + rng.choice(["", "0", "5", "9"])
    if rng.random() < 0.35:
        text += "." + "".join(rng.choice("0123456789") for _ in range(rng.randint(1, 6)))
    if suffixes and rng.random() < 0.4:
        text += rng.choice("KMGTPEZY") + suffixes
    if rng.random() < 0.2:
        text = "-" + text
    return text


def options(rng):
    opts = []
    source = rng.choice(["none", "none", "si", "iec", "auto", "iec-i"])
    if source != "none":
        opts.append(f"--from={source}")
    target = rng.choice(["none", "si", "si", "iec", "iec", "iec-i"])
    if target != "none":
        opts.append(f"--to={target}")
    if rng.random() < 0.7:
        opts.append("--round=" + rng.choice(["up", "down", "from-zero", "towards-zero", "nearest"]))
    if rng.random() < 0.6:
        opts.append("--format=" + rng.choice(["%.0f", "%.1f", "%.2f", "%.3f", "%.4f", "%.6f", "%010.2f", "%f", "%.5f"]))
    if rng.random() < 0.2:
        opts.append("--from-unit=" + rng.choice(["1", "3", "7", "1000", "1024", "10"]))
    if rng.random() < 0.2:
        opts.append("--to-unit=" + rng.choice(["1", "3", "7", "1000", "1024", "10"]))
    opts.append("--invalid=ignore")
    suffixes = {"none": None, "si": "", "iec": "", "auto": rng.choice(["", "i"]), "iec-i": "i"}[source]
    return opts, suffixes


def main():
    binary = sys.argv[1]
    batches = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
    differing = values = 0
    for _ in range(batches):
        opts, suffixes = options(rng)
        args = opts + ["--"] + [value(rng, suffixes) for _ in range(40)]
        values += 40
        gnu = subprocess.run(["numfmt", *args], capture_output=True, env={"LC_ALL": "C.UTF-8"})
        ours = subprocess.run([binary, "-c", "numfmt " + shlex.join(args)], capture_output=True, env={"LC_ALL": "C.UTF-8"})
        if (gnu.stdout, gnu.stderr, gnu.returncode) != (ours.stdout, ours.stderr, ours.returncode):
            differing += 1
            print("DIFF: numfmt " + shlex.join(args))
            gl, ol = gnu.stdout.decode().split("\n"), ours.stdout.decode().split("\n")
            for a, g, o in zip(args[args.index("--") + 1:], gl, ol):
                if g != o:
                    print(f"  {a}: GNU {g!r} ours {o!r}")
            if gnu.stderr != ours.stderr or gnu.returncode != ours.returncode:
                print(f"  stderr/status: GNU {gnu.stderr!r} {gnu.returncode}; ours {ours.stderr!r} {ours.returncode}")
    print(f"{batches} batches ({values} values): {differing} differ")


main()
