"""One writing process per data directory: an exclusive lock on ``<data_dir>/memorybot.lock``.

The ingest queue and the journal writer assume they are the only ones appending to the
daily logs. The lock is an OS file lock (flock): a process that dies, even by kill -9,
releases it. Taking it makes the data directory private (``memory.storage.permissions``).

Processes whose store is shared (PostgreSQL) take it shared: they may write one data
directory together (the store tells them whose turn each guild's journals are), and no
process with a SQLite store may write it meanwhile.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from types import TracebackType

from memory.errors import StoreError
from memory.storage.permissions import PRIVATE_FILE, make_private_dir, tighten

LOCK_NAME = "memorybot.lock"


class DataDirLock:
    """``with DataDirLock(data_dir):`` or ``acquire()`` / ``release()``."""

    def __init__(self, data_dir: Path, *, shared: bool = False) -> None:
        self.path = data_dir / LOCK_NAME
        self.shared = shared
        self._fd: int | None = None

    def acquire(self) -> None:
        make_private_dir(self.path.parent)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, PRIVATE_FILE)
        try:
            fcntl.flock(fd, (fcntl.LOCK_SH if self.shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 64).decode("ascii", "replace").strip()
            os.close(fd)
            who = f"pid {holder}" if holder else "processes sharing a PostgreSQL store"
            raise StoreError(
                f"data directory {self.path.parent} is in use by another memorybot process "
                f"({who}); stop it, or use another --data-dir"
            ) from None
        if not self.shared:
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode("ascii"))
        self._fd = fd
        tighten(self.path.parent)  # the writer makes what it finds looser private

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor drops the flock
            self._fd = None

    def __enter__(self) -> DataDirLock:
        self.acquire()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.release()
