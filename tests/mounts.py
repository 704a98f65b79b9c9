"""Faults of a real filesystem for tests: a script run as root in a mount namespace of its
own (``unshare -m``), where it may mount a size-limited tmpfs or bind a folder read-only
without touching the machine's mounts. Tests that need one are skipped, with the reason,
where that cannot be done (not root, no ``unshare``, mounts refused)."""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import sys
from typing import Any

import pytest

# What every driver script starts with: run a command line with a time bound, its output in
# files (a pipe could fill and stop it), and count the rows a database holds.
PRELUDE = """
import json, os, sqlite3, subprocess, sys, tempfile, time

def run(argv, env, timeout):
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen(argv, env=env, stdout=out, stderr=err, stdin=subprocess.DEVNULL)
        try:
            code = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            code = None
        out.seek(0)
        err.seek(0)
        return {"code": code, "stdout": out.read(), "stderr": err.read()}

def count(db, query="SELECT COUNT(*) FROM messages"):
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
        try:
            return conn.execute(query).fetchone()[0]
        finally:
            conn.close()
    except sqlite3.Error:
        return 0

ARGS = json.loads(sys.argv[1])
"""


@functools.cache
def _mount_refusal() -> str | None:
    """Why a mount namespace with its own mounts cannot be made here (None: it can)."""
    if os.geteuid() != 0:
        return "needs root to mount a filesystem in a private mount namespace"
    if shutil.which("unshare") is None or shutil.which("mount") is None:
        return "needs unshare(1) and mount(8)"
    probe = subprocess.run(
        ["unshare", "-m", "sh", "-c", "mount -t tmpfs -o size=1m tmpfs /mnt"],
        capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    if probe.returncode:
        return f"cannot mount in a private mount namespace: {probe.stderr.strip()}"
    return None


def require_mounts() -> None:
    if (reason := _mount_refusal()) is not None:
        pytest.skip(reason)


def in_namespace(driver: str, args: dict[str, Any], *, timeout: float = 600) -> dict[str, Any]:
    """Run ``driver`` (Python, after ``PRELUDE``; ``ARGS`` is ``args``) as root in a mount
    namespace of its own; return the JSON object it prints last."""
    require_mounts()
    result = subprocess.run(
        ["unshare", "-m", sys.executable, "-c", PRELUDE + driver, json.dumps(args)],
        capture_output=True, text=True, timeout=timeout,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return dict(json.loads(result.stdout.strip().splitlines()[-1]))
