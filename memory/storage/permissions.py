"""The data directory is private to the user memorybot runs as: what members said is in every
file of it (the database, its WAL, the journals) and the API token too.

Folders are made 0700 and files 0600 (``PRIVATE_UMASK`` while memorybot runs; SQLite gives
the WAL and shared-memory files the database file's mode). What is found looser — a data
directory made by an older version, a file copied in — is tightened when a writer takes the
directory (``memory.storage.lock``), with one warning line.
"""

from __future__ import annotations

import logging
import os
import stat
from collections.abc import Iterator
from pathlib import Path

log = logging.getLogger(__name__)

PRIVATE_DIR = 0o700
PRIVATE_FILE = 0o600
#: The umask memorybot's command line runs with: what it creates, only its user can read.
PRIVATE_UMASK = 0o077
_OTHERS = stat.S_IRWXG | stat.S_IRWXO
#: memorybot's own files at the top of the data directory: the database (with its WAL and
#: shared memory, and ``memory.db.damaged-*`` kept aside by a repair), the lock, the API
#: token, the record of the slash commands registered.
OWN_PREFIXES = ("memory.db", "memorybot", "api-token", "discord-commands")
JOURNALS = "journals"


def create_private_file(path: Path) -> None:
    """Create ``path`` empty with mode 0600 unless it exists (before SQLite opens it, so
    that the database and the files SQLite makes beside it are private whatever the umask)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE)
    except FileExistsError:
        return
    os.close(fd)


def make_private_dir(path: Path) -> None:
    """``path`` and its missing parents made, each 0700 whatever the umask (a program running
    memory in-process has not set the CLI's); folders found there are left as they are."""
    if path.is_dir():
        return
    if not path.parent.is_dir():
        make_private_dir(path.parent)
    try:
        path.mkdir(mode=PRIVATE_DIR)
    except FileExistsError:  # made meanwhile by another writer
        return
    os.chmod(path, PRIVATE_DIR)  # mkdir's mode is filtered by the umask


def tighten_file(path: Path) -> bool:
    """Make one file 0600 if others could read it (one warning line); True if it was."""
    try:
        mode = os.stat(path).st_mode
        if not mode & _OTHERS:
            return False
        os.chmod(path, PRIVATE_FILE)
    except OSError as exc:
        log.warning("cannot make %s private: %s", path, exc)
        return False
    log.warning("%s could be read by other users (mode 0%o); made private (0600)", path,
                mode & 0o777)  # fmt: skip
    return True


def tighten(data_dir: Path) -> int:
    """Make the data directory, its folders and files private (0700 / 0600) where they are
    not; one warning line when some were not. Returns how many were changed."""
    changed: list[Path] = []
    for path, is_dir in _entries(data_dir):
        try:
            mode = os.lstat(path).st_mode
        except FileNotFoundError:
            continue
        if stat.S_ISLNK(mode) or not mode & _OTHERS:
            continue
        try:
            os.chmod(path, PRIVATE_DIR if is_dir else PRIVATE_FILE)
        except OSError as exc:
            log.warning("cannot make %s private (mode 0%o): %s", path, mode & 0o777, exc)
            continue
        changed.append(path)
    if changed:
        shown = ", ".join(str(p.relative_to(data_dir)) for p in changed[:3])
        more = f" and {len(changed) - 3} more" if len(changed) > 3 else ""
        log.warning(
            "data directory %s: %d folder(s) or file(s) could be read by other users (%s%s); "
            "made private (folders 0700, files 0600)",
            data_dir,
            len(changed),
            shown,
            more,
        )
    return len(changed)


def _entries(data_dir: Path) -> Iterator[tuple[Path, bool]]:
    """The data directory, memorybot's files in it and the journals folder's tree (links
    not followed). Nothing else: a data directory may hold other things (or be a home)."""
    yield data_dir, True
    if not data_dir.is_dir():
        return
    for path in data_dir.iterdir():
        if path.name.startswith(OWN_PREFIXES) and not path.is_dir():
            yield path, False
    journals = data_dir / JOURNALS
    if not journals.is_dir() or journals.is_symlink():
        return
    yield journals, True
    for root, dirs, files in os.walk(journals):
        for name in dirs:
            yield Path(root) / name, True
        for name in files:
            yield Path(root) / name, False
