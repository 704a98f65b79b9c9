"""Set a machine up for the test run: the system packages the tests need, then the venv.

    python3 tests/prepare.py && .venv/bin/python -m pytest

Run with the system's Python 3.11+ from the repository's root (the README's test command);
only the standard library is used. In order:

1. the Debian packages the tests use: Chromium (the page tests drive it, through
   playwright's driver, which needs libatomic) and libopus (the voice tests encode and
   decode Opus), plus what ``python3 -m venv`` needs. Missing ones
   are installed with ``apt-get`` when this runs as root; otherwise the exact
   ``sudo apt-get install ...`` line is printed and the tests that need them are skipped
   with that line as the reason;
2. ``.venv`` (made when missing) with the project and its ``test`` extra, and the ``voice``
   extra only when the voice tests can run (libopus present): the voice stack is not
   pulled in otherwise.

Exit status: 0 when the venv is ready, 1 when it could not be made (the reason printed).
"""

from __future__ import annotations

import ctypes.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
VENV = REPO / ".venv"
CHROMIUM = "chromium"
LIBOPUS = "libopus0"
LIBATOMIC = "libatomic1"  # playwright's bundled node driver links it (minimal images lack it)


def missing_packages() -> list[str]:
    """The Debian packages the tests want and this machine lacks."""
    missing = []
    if shutil.which("chromium") is None:
        missing.append(CHROMIUM)
    if ctypes.util.find_library("atomic") is None:
        missing.append(LIBATOMIC)
    if ctypes.util.find_library("opus") is None:
        missing.append(LIBOPUS)
    if not _venv_works():
        missing.append("python3-venv")
    return missing


def _venv_works() -> bool:
    """Whether ``python3 -m venv`` can install pip here (Debian splits it out)."""
    try:
        import ensurepip  # noqa: F401
    except ImportError:
        return False
    return True


def install(packages: list[str]) -> bool:
    """Install ``packages`` with apt-get when root; else print the line that would. True
    when they are installed now."""
    line = "apt-get install -y " + " ".join(packages)
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        print(f"prepare: the tests want system packages: sudo {line}", file=sys.stderr)
        print("prepare: the tests that need them are skipped until then", file=sys.stderr)
        return False
    print(f"prepare: installing {' '.join(packages)} (apt-get)", flush=True)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for command in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", *packages]):
        done = subprocess.run(command, env=env, capture_output=True, text=True)
        if done.returncode != 0:
            print((done.stdout + done.stderr)[-2000:], file=sys.stderr)
            print(f"prepare: {' '.join(command[:2])} failed; run: {line}", file=sys.stderr)
            return False
    return True


def make_venv() -> bool:
    """``.venv`` with the project and its extras (see the module's docstring)."""
    python = VENV / "bin" / "python"
    if not python.exists():
        print(f"prepare: making {VENV.name}", flush=True)
        try:
            subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
        except subprocess.CalledProcessError:
            print("prepare: python3 -m venv failed; is python3-venv installed?", file=sys.stderr)
            return False
    extras = "test,voice" if ctypes.util.find_library("opus") is not None else "test"
    print(f"prepare: installing memorybot[{extras}] into {VENV.name}", flush=True)
    command = [str(python), "-m", "pip", "install", "-q", "-e", f".[{extras}]"]
    return subprocess.run(command, cwd=REPO).returncode == 0


def main() -> int:
    if sys.version_info < (3, 11):  # noqa: UP036 (run by whatever python3 the machine has)
        print(f"prepare: memorybot needs Python 3.11 or newer, not {sys.version.split()[0]}")
        return 1
    missing = missing_packages()
    if missing:
        install(missing)
    return 0 if make_venv() else 1


if __name__ == "__main__":
    sys.exit(main())
