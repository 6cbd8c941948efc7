#!/usr/bin/env python3
"""Records the expected results of case files from real bash 5.2.

Usage: python3 tests/record.py tests/cases/interp/*.cases

Each case's script runs as `bash -c SCRIPT` in a fresh temporary directory
that stands for /home/user: its files are created first, stdin is fed,
HOME is the directory, LC_ALL=C.UTF-8, TZ=UTC. The stdout, stderr and
status sections (and each expect-file section's contents) are rewritten
with what bash did; the temporary directory's path is replaced by
/home/user. Sections other than results are kept as written.
"""
import os
import subprocess
import sys
import tempfile

RESULT_SECTIONS = ("stdout", "stderr", "status")


def parse(text):
    cases = []
    current = None
    section = None
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for line in lines:
        if line.startswith("=== "):
            current = {"name": line[4:], "sections": []}
            cases.append(current)
            section = None
            continue
        if line.startswith("--- ") and current is not None:
            header = line[4:]
            no_newline = header.endswith(" %")
            if no_newline:
                header = header[:-2]
            kind, _, arg = header.partition(" ")
            section = {"kind": kind, "arg": arg, "lines": [], "no_newline": no_newline}
            current["sections"].append(section)
            continue
        if section is not None:
            section["lines"].append(line)
    return cases


def body(section):
    lines = list(section["lines"])
    text = "\n".join(lines)
    if lines and not section["no_newline"]:
        text += "\n"
    return text


def render_section(kind, arg, content):
    header = "--- " + kind + (" " + arg if arg else "")
    if content == "":
        return header + "\n"
    if not content.endswith("\n"):
        return header + " %\n" + content + "\n"
    return header + "\n" + content


def record_case(case):
    sections = case["sections"]
    script = next((body(s) for s in sections if s["kind"] == "script"), "")
    stdin = next((body(s) for s in sections if s["kind"] == "stdin"), "")
    with tempfile.TemporaryDirectory(prefix="wabash-record-") as home:
        for s in sections:
            if s["kind"] == "file":
                path = os.path.join(home, s["arg"])
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w") as f:
                    f.write(body(s))
        env = {"HOME": home, "PATH": "/usr/local/bin:/usr/bin:/bin", "LC_ALL": "C.UTF-8", "TZ": "UTC", "USER": "user"}
        proc = subprocess.run(["bash", "-c", script.rstrip("\n")], cwd=home, env=env, input=stdin.encode(),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=30)
        fix = lambda b: b.decode("utf-8", "replace").replace(home, "/home/user")
        results = {"stdout": fix(proc.stdout), "stderr": fix(proc.stderr), "status": str(proc.returncode)}
        files = {}
        for s in sections:
            if s["kind"] == "expect-file":
                try:
                    with open(os.path.join(home, s["arg"]), "rb") as f:
                        files[s["arg"]] = fix(f.read())
                except OSError:
                    files[s["arg"]] = ""
    out = "=== " + case["name"] + "\n"
    for s in sections:
        if s["kind"] in RESULT_SECTIONS or s["kind"] == "expect-file":
            continue
        out += render_section(s["kind"], s["arg"], body(s))
    out += render_section("stdout", "", results["stdout"])
    out += render_section("stderr", "", results["stderr"])
    out += "--- status " + results["status"] + "\n"
    for name, content in files.items():
        out += render_section("expect-file", name, content)
    return out


def main():
    for path in sys.argv[1:]:
        with open(path) as f:
            cases = parse(f.read())
        recorded = [record_case(c) for c in cases]
        with open(path, "w") as f:
            f.write("".join(recorded))
        print(f"{path}: {len(recorded)} cases recorded")


if __name__ == "__main__":
    main()
