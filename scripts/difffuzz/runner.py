"""Runs one script in real bash and in the sandbox and compares the results.

Both run `bash -c SCRIPT` semantics in a fresh empty directory that stands
for /home/user (bash in a temporary directory whose path is rewritten; the
sandbox in its own fresh in-memory filesystem), with LC_ALL=C.UTF-8, TZ=UTC
and HOME at that directory.
"""

import os
import re
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WABASH = os.environ.get("WABASH", os.path.join(ROOT, "target", "debug", "wabash"))
BASH = os.environ.get("BASH_ORACLE", "bash")
TIMEOUT = float(os.environ.get("DIFF_FUZZ_TIMEOUT", "5"))
# Output past this many bytes is cut before comparing: a runaway loop in
# both shells should not make a report of megabytes.
MAX_OUTPUT = 64 * 1024


class Result:
    """What one shell printed and returned."""

    def __init__(self, stdout, stderr, status):
        self.stdout = stdout
        self.stderr = stderr
        self.status = status

    def key(self):
        return (self.stdout, self.stderr, self.status)


def _cut(data):
    return data if len(data) <= MAX_OUTPUT else data[:MAX_OUTPUT] + b"<cut>"


def _run(argv, cwd, env):
    try:
        proc = subprocess.run(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, capture_output=True, timeout=TIMEOUT)
        return _cut(proc.stdout), _cut(proc.stderr), proc.returncode
    except subprocess.TimeoutExpired as err:
        return _cut(err.stdout or b""), _cut(err.stderr or b"") + b"<timeout>", -1


def _normalize(data, home):
    data = data.replace(home.encode(), b"/home/user")
    return data


def _guard(script):
    """A script starting with `-` or `+` would be read as an option: a
    leading blank keeps its meaning and its line numbers."""
    return " " + script if script.startswith(("-", "+")) else script


def run_bash(script):
    """The script's result in real bash 5.2."""
    script = _guard(script)
    with tempfile.TemporaryDirectory(prefix="wabash-fuzz-") as home:
        home = os.path.realpath(home)
        env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": home, "LC_ALL": "C.UTF-8", "TZ": "UTC",
               "USER": "user", "PWD": home}
        out, err, status = _run([BASH, "-c", script], home, env)
        return Result(_normalize(out, home), _normalize(err, home), status)


def run_wabash(script):
    """The script's result in the sandbox's native CLI."""
    script = _guard(script)
    with tempfile.TemporaryDirectory(prefix="wabash-fuzz-w-") as scratch:
        out, err, status = _run([WABASH, "-c", script], scratch, {"PATH": "/usr/bin:/bin"})
        return Result(out, err, status)


def bash_is_52():
    """Whether the oracle is GNU bash 5.2 (other versions differ in details)."""
    try:
        proc = subprocess.run([BASH, "-c", 'echo "${BASH_VERSINFO[0]}.${BASH_VERSINFO[1]}"'],
                              capture_output=True, timeout=TIMEOUT, env={"PATH": "/usr/local/bin:/usr/bin:/bin"})
    except (OSError, subprocess.TimeoutExpired):
        return False
    return proc.returncode == 0 and proc.stdout.strip() == b"5.2"


def timed_out(result):
    """Whether the shell was stopped by the runner's timeout."""
    return result.status == -1


_PANIC = re.compile(rb"panicked at|RUST_BACKTRACE")


def differences(bash, ours, script=""):
    """The names of the streams that differ: a subset of stdout, stderr, status.
    Members of a pipeline write stderr concurrently in bash, so for a script
    with a pipe, stderr holding the same bytes in another order agrees."""
    found = []
    if bash.stdout != ours.stdout:
        found.append("stdout")
    if bash.stderr != ours.stderr and not ("|" in script and sorted(bash.stderr) == sorted(ours.stderr)):
        found.append("stderr")
    if bash.status != ours.status:
        found.append("status")
    if _PANIC.search(ours.stderr):
        found.append("panic")
    if ours.status == -1 and bash.status != -1:
        found.append("hang")
    return tuple(found)
