"""Where journal files live, and writing them atomically."""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import re
import tempfile
import time
from pathlib import Path

from memory.storage.permissions import PRIVATE_FILE, make_private_dir

_SAFE_DIR = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
DATE_FILE = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}\.md$")
SNAPSHOT_NAME = "MEMORY.md"
# ``write_atomic``'s temporary files: ``.MEMORY.md.k3j2h1.tmp``, ``.2026-10-12.md.x9.tmp``.
_TEMP_FILE = re.compile(r"^\..+\.md\.[A-Za-z0-9_]+\.tmp$")

log = logging.getLogger(__name__)


def guild_dir(root: Path, guild_id: str) -> Path:
    """``<root>/<guild_id>``; ids that are not plain names get a stable hashed folder name."""
    if not guild_id:
        return root / "_noguild"
    if _SAFE_DIR.match(guild_id) and not guild_id.startswith("_"):
        return root / guild_id
    digest = hashlib.sha256(guild_id.encode("utf-8")).hexdigest()[:16]
    return root / f"_guild-{digest}"


def daily_logs(folder: Path) -> list[Path]:
    """The folder's daily logs, newest first."""
    if not folder.is_dir():
        return []
    return sorted((p for p in folder.iterdir() if DATE_FILE.match(p.name)), reverse=True)


def write_atomic(path: Path, text: str, *, sync: bool = True) -> None:
    """Replace ``path`` with ``text`` so that a reader sees the old or the new file, never half
    (``sync``: on disk before it replaces the old one, which costs a flush to the device).

    Each write has a temporary file of its own: writes of one path that overlap (a cancelled
    rewrite's thread still running beside the next one) cannot take each other's file.
    """
    make_private_dir(path.parent)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            if sync:
                handle.flush()
                os.fsync(handle.fileno())
        os.chmod(tmp, PRIVATE_FILE)  # members' words: for memorybot's user only
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def remove_stale_temps(root: Path, *, older_than: float = 0.0) -> int:
    """Delete the temporary files that writes killed half-way left in ``root`` and its
    guild folders (they hold journal text, maybe of members forgotten since). At start,
    under the data directory's lock: every one when no write can be under way, else
    (other processes share the folder) those older than ``older_than`` seconds. Returns
    how many."""
    if not root.is_dir():
        return 0
    removed = 0
    before = time.time() - older_than
    for folder in (root, *(p for p in root.iterdir() if p.is_dir())):
        for path in folder.iterdir():
            if _TEMP_FILE.match(path.name) and path.is_file() and _older(path, before):
                with contextlib.suppress(FileNotFoundError):
                    path.unlink()
                    removed += 1
    if removed:
        log.info("removed %d temporary journal file(s) left by an interrupted write", removed)
    return removed


def _older(path: Path, than: float) -> bool:
    try:
        return path.stat().st_mtime < than
    except FileNotFoundError:  # another process's write, finished meanwhile
        return False
