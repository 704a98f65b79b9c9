"""The throwaway PostgreSQL server of the tests does not outlive a test run killed from
outside (a timeout, SIGKILL): a watcher stops it and removes its directory."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from tests.postgres_server import Server

REPO = Path(__file__).resolve().parent.parent
ABANDON = """
import os, sys
from tests import postgres_server
server = postgres_server.start(postgres_server.binaries())
print(server.root, flush=True)
os._exit(0)  # gone without stopping it, as a killed test run is
"""


def test_a_server_left_behind_by_a_dead_run_is_stopped_and_removed(postgres: Server) -> None:
    done = subprocess.run([sys.executable, "-c", ABANDON], cwd=REPO, capture_output=True,
                          text=True, check=True, timeout=120)  # fmt: skip
    root = Path(done.stdout.strip())
    deadline = time.monotonic() + 30
    while root.exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not root.exists()
    running = subprocess.run(["pgrep", "-f", f"postgres -D {root}/data"], capture_output=True)
    assert running.returncode == 1  # no such process
