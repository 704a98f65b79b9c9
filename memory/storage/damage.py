"""Telling a damaged database file from other errors, and the one line people see about it
(``memorybot doctor --repair`` is the way out: ``memory.storage.repair``). Standard library
only: the command line's error handling imports it."""

from __future__ import annotations

import logging
from pathlib import Path

#: SQLite's primary result codes for a damaged file: SQLITE_CORRUPT, SQLITE_NOTADB.
DAMAGE_CODES = frozenset({11, 26})
DAMAGE_WORDS = ("malformed", "file is not a database", "database corruption")
REPAIR_HINT = (
    "with memorybot stopped, `memorybot doctor --repair` saves what can be read (or restore "
    "a backup)"
)
HINT = f"run `memorybot doctor` to check it; {REPAIR_HINT}"


def is_damage(exc: BaseException) -> bool:
    """Whether ``exc`` (or what caused it) is SQLite finding the database file damaged."""
    seen: BaseException | None = exc
    for _ in range(8):
        if seen is None:
            return False
        code = getattr(seen, "sqlite_errorcode", None)
        if isinstance(code, int) and code & 0xFF in DAMAGE_CODES:
            return True
        if any(word in str(seen) for word in DAMAGE_WORDS):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def reason(exc: BaseException) -> str:
    """SQLite's words for what went wrong (``database disk image is malformed``)."""
    return str(exc).rsplit(": ", 1)[-1].replace("\n", "; ")[:120]


def damage_line(path: Path | str, exc: BaseException | None = None) -> str:
    """The one line every command prints for a damaged database."""
    why = f" ({reason(exc)})" if exc is not None else ""
    return f"the database {path} is damaged{why}: {HINT}"


class DamageLogFilter(logging.Filter):
    """For a log handler people read: a logged error caused by a damaged database is shown
    once per place, as one line without its traceback (the command ends with the way out)."""

    def __init__(self) -> None:
        super().__init__()
        self._seen: set[tuple[str, object]] = set()

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if exc is None or not is_damage(exc):
            return True
        key = (record.name, record.msg)
        if key in self._seen:
            return False
        self._seen.add(key)
        record.msg = f"{record.getMessage()} (the database is damaged: {reason(exc)})"
        record.args = None
        record.exc_info = record.exc_text = None
        return True
