"""Errors raised by the memory package; entry points translate them for people."""

from __future__ import annotations

import errno
from collections.abc import Iterator

SQLITE_FULL = 13  # SQLite's primary result code for "database or disk is full"


class MemorybotError(Exception):
    """Base class of every error memorybot reports to a person."""


class ConfigError(MemorybotError):
    """A setting has a value that is not allowed."""


class StoreError(MemorybotError):
    """The database cannot be opened or used."""


class UnrecoverableError(StoreError):
    """Nothing of a damaged database can be read (its first page is gone): only a backup
    helps."""


class DiskFullError(StoreError):
    """The disk holding the database or the journals is full (SQLite's SQLITE_FULL, or
    ENOSPC): what was stored is kept; once space is freed, the same command finishes."""


class JournalError(MemorybotError):
    """The daily logs cannot be written (for longer than memorybot waits)."""


class ExportError(MemorybotError):
    """A Discord export cannot be read (missing, not an export, corrupt or truncated)."""


class QueueClosedError(MemorybotError):
    """A message was submitted to an ingest queue that is shutting down."""


class NotAnExportError(ExportError):
    """A JSON file that is not a DiscordChatExporter export (skipped inside folders)."""


class InvalidMessageError(MemorybotError, ValueError):
    """A message offered for ingest lacks an id or has a timestamp that is not ISO 8601."""


def is_disk_full(exc: BaseException) -> bool:
    """Whether ``exc`` says the disk is full: SQLite's SQLITE_FULL (from the stdlib driver
    or sqlean's, which share the attribute) or an OS write's ENOSPC / EDQUOT."""
    if isinstance(exc, DiskFullError):
        return True
    if isinstance(exc, OSError):
        return exc.errno in (errno.ENOSPC, errno.EDQUOT)
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code & 0xFF == SQLITE_FULL
    return "database or disk is full" in str(exc)


def disk_full(what: str) -> DiskFullError:
    """A full disk told to people: ``what`` could not be written ("the database …")."""
    return DiskFullError(
        f"the disk is full: cannot write {what}; free some space there, then run the same "
        "command again (nothing stored is lost)"
    )


class EndpointDownError(MemorybotError):
    """A remote endpoint is down: it did not answer (no answer within the deadline, a
    refused or dropped connection, 429 / 5xx after every retry), or is known not to (its
    circuit breaker is open, so the request was not even tried). The breaker logs the
    outage once; whoever sees this error need not log it again."""


def endpoint_down(exc: BaseException) -> bool:
    """Whether ``exc``, or an error it was raised from, is an :class:`EndpointDownError`."""
    return any(isinstance(link, EndpointDownError) for link in _chain(exc, context=False))


# asyncpg's errors that say the server is gone or going, not that a statement was wrong.
_LOST_CONNECTION = frozenset({
    "ConnectionDoesNotExistError", "CannotConnectNowError", "ConnectionFailureError",
    "AdminShutdownError", "CrashShutdownError", "InterfaceError", "InternalClientError",
    "TooManyConnectionsError",
})  # fmt: skip


def store_unreachable(exc: BaseException) -> bool:
    """Whether ``exc``, or an error it was raised from, says the database server cannot be
    reached now (PostgreSQL restarting, the network cut): worth one line and a retry, not a
    traceback each time."""
    return any(_lost_connection(link) for link in _chain(exc, context=True))


def _lost_connection(exc: BaseException) -> bool:
    if isinstance(exc, StoreError) and str(exc).startswith("cannot reach "):
        return True
    if isinstance(exc, OSError) and _raised_in_asyncpg(exc):
        return True  # a socket the driver could not open or keep
    kind = type(exc)
    return kind.__module__.startswith("asyncpg") and kind.__name__ in _LOST_CONNECTION


def _chain(exc: BaseException, *, context: bool) -> Iterator[BaseException]:
    """``exc`` and the errors it was raised from (``context``: or while handling), a few
    links at most: a chain is short, and a cycle is never followed for ever."""
    current: BaseException | None = exc
    for _ in range(8):
        if current is None:
            return
        yield current
        current = current.__cause__ or (current.__context__ if context else None)


def _raised_in_asyncpg(exc: BaseException) -> bool:
    tb = exc.__traceback__
    while tb is not None:
        if "asyncpg" in tb.tb_frame.f_code.co_filename:
            return True
        tb = tb.tb_next
    return False
