#!/usr/bin/env python3
"""Differential fuzzing of the whole shell against real bash 5.2 (not a test).

Generates seeded scripts of 3-15 statements (scripts/difffuzz/grammar.py),
runs each in real bash and in the sandbox's native CLI, minimizes every
difference, groups the differences by shape and prints a report of classes
with one minimized example each. Needs GNU bash 5.2 as `bash` and the native
CLI built (`cargo build --bin wabash`; WABASH=path to use another build).

Usage: python3 scripts/diff-fuzz.py [--count N] [--seed S] [--jobs J]
                                    [--no-minimize] [--report FILE]
                                    [--known FILE] [--check]
A script that bash itself does not finish within the timeout (a loop the
generator made endless), or whose result in bash varies between runs (a
race), is skipped, not compared. The exit status is 0 when
no script differed outside the classes of --known, 1 otherwise. --check is
the CI mode: it exits 0 with a note when `bash` is not bash 5.2.
"""

import argparse
import collections
import concurrent.futures
import os
import random
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from difffuzz.grammar import generate  # noqa: E402
from difffuzz.minimize import minimize  # noqa: E402
from difffuzz.runner import bash_is_52, differences, run_bash, run_wabash, timed_out  # noqa: E402


def script_of(statements):
    return "\n".join(text for _, text in statements)


def shape(statements, streams, bash, ours):
    """The class key of a minimized difference: streams, statement kinds, and
    the first stderr line that differs, with numbers and quoted text blurred."""
    kinds = ",".join(sorted({kind for kind, _ in statements}))
    first = b""
    bash_lines, our_lines = bash.stderr.splitlines(), ours.stderr.splitlines()
    for index in range(max(len(bash_lines), len(our_lines))):
        a = bash_lines[index] if index < len(bash_lines) else b""
        b = our_lines[index] if index < len(our_lines) else b""
        if a != b:
            first = a or b"(bash silent) " + b
            break
    first = re.sub(rb"^(ba|wa)sh: line \d+: ", b"", first)
    first = re.sub(rb"`[^']*'|'[^']*'|\"[^\"]*\"", b"Q", first)
    first = re.sub(rb"\d+", b"N", first)[:80]
    return "%s | %s | %s" % ("+".join(streams), kinds, first.decode("utf-8", "replace"))


def check(index, seed, do_minimize):
    rng = random.Random(seed * 1_000_003 + index)
    statements = generate(rng)
    script = script_of(statements)
    bash = run_bash(script)
    if timed_out(bash):
        return index, "skipped"
    ours = run_wabash(script)
    streams = differences(bash, ours, script)
    if not streams:
        return index, None
    # A script whose result in bash itself varies from run to run (a race
    # between pipeline members, a signal's timing) is no evidence.
    if any(run_bash(script).key() != bash.key() for _ in range(4)):
        return index, "skipped"
    if do_minimize:
        statements = minimize(statements, streams)
        script = script_of(statements)
        bash, ours = run_bash(script), run_wabash(script)
    return index, (shape(statements, streams, bash, ours), script, bash, ours)


def show(data, limit=3000):
    text = data.decode("utf-8", "replace").rstrip("\n")
    if len(text) > limit:
        text = text[:limit] + "...(%d more characters)" % (len(text) - limit)
    return text.replace("\n", "\n      ")


def read_known(path):
    """Known classes: one regular expression over the class key a line,
    followed by `  # reason`; blank lines and lines starting with # skipped."""
    known = []
    if not path:
        return known
    with open(path) as handle:
        for line in handle:
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            pattern, _, reason = line.partition("  # ")
            known.append((re.compile(pattern.strip()), reason.strip()))
    return known


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--no-minimize", action="store_true")
    parser.add_argument("--report", help="also write the report to this file")
    parser.add_argument("--known", help="file of class patterns accepted as known, with reasons")
    parser.add_argument("--check", action="store_true", help="CI mode: skip unless bash is 5.2")
    args = parser.parse_args()
    if args.check and not bash_is_52():
        print("diff-fuzz: skipped, `bash` is not GNU bash 5.2", file=sys.stderr)
        return 0
    known = read_known(args.known)

    classes = collections.OrderedDict()
    differing = skipped = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(check, i, args.seed, not args.no_minimize) for i in range(args.count)]
        for future in concurrent.futures.as_completed(futures):
            index, found = future.result()
            if found is None:
                continue
            if found == "skipped":
                skipped += 1
                continue
            differing += 1
            key, script, bash, ours = found
            classes.setdefault(key, []).append((index, script, bash, ours))

    compared = args.count - skipped
    lines = ["# diff-fuzz: seed %d, %d scripts (%d skipped: bash timed out or varied), %d differ (%.1f%%), %d classes" % (
        args.seed, args.count, skipped, differing, 100.0 * differing / max(compared, 1), len(classes))]
    unknown = 0
    for key, cases in sorted(classes.items(), key=lambda item: -len(item[1])):
        index, script, bash, ours = min(cases, key=lambda case: len(case[1]))
        reason = next((reason for pattern, reason in known if pattern.search(key)), None)
        if reason is None:
            unknown += len(cases)
        lines.append("")
        lines.append("## %d x %s   (script %d)%s" % (len(cases), key, index, "" if reason is None else "  KNOWN: " + reason))
        lines.append("  script: " + script.replace("\n", "\n          "))
        lines.append("  bash:   status %d\n    out: %s\n    err: %s" % (bash.status, show(bash.stdout), show(bash.stderr)))
        lines.append("  ours:   status %d\n    out: %s\n    err: %s" % (ours.status, show(ours.stdout), show(ours.stderr)))
    report = "\n".join(lines) + "\n"
    sys.stdout.write(report)
    if args.report:
        with open(args.report, "w") as handle:
            handle.write(report)
    print("%d scripts, %d skipped, %d differ, %d outside the known classes" % (args.count, skipped, differing, unknown),
          file=sys.stderr)
    return 1 if unknown else 0


if __name__ == "__main__":
    sys.exit(main())
