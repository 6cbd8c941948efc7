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
TIMEOUT = 10


class Result:
    """What one shell printed and returned."""

    def __init__(self, stdout, stderr, status):
        self.stdout = stdout
        self.stderr = stderr
        self.status = status

    def key(self):
        return (self.stdout, self.stderr, self.status)


def _run(argv, cwd, env):
    try:
        proc = subprocess.run(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, capture_output=True, timeout=TIMEOUT)
        return proc.stdout, proc.stderr, proc.returncode
    except subprocess.TimeoutExpired as err:
        return err.stdout or b"", (err.stderr or b"") + b"<timeout>", -1


def _normalize(data, home):
    data = data.replace(home.encode(), b"/home/user")
    return data


def _guard(script):
    """A script starting with `-` would be read as an option: a leading blank
    keeps its meaning and its line numbers."""
    return " " + script if script.startswith("-") else script


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


_PANIC = re.compile(rb"panicked at|RUST_BACKTRACE")


def differences(bash, ours):
    """The names of the streams that differ: a subset of stdout, stderr, status."""
    found = []
    if bash.stdout != ours.stdout:
        found.append("stdout")
    if bash.stderr != ours.stderr:
        found.append("stderr")
    if bash.status != ours.status:
        found.append("status")
    if _PANIC.search(ours.stderr):
        found.append("panic")
    if ours.status == -1 and bash.status != -1:
        found.append("hang")
    return tuple(found)
