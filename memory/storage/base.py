"""The connection every table family shares: one SQLite file, one writer connection whose
work runs on its own thread a whole function at a time, and the version counters that
caches of search results compare."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, Self, TypeVar

import aiosqlite

from memory.errors import DiskFullError, disk_full, is_disk_full
from memory.models import Fact, StoredMessage
from memory.storage.active_facts import ActiveFacts
from memory.storage.db import OutsideCommits, sqlite_versions
from memory.storage.placing import Lifecycle

T = TypeVar("T")

MESSAGE_COLS = (
    "m.id, m.guild_id, m.channel_id, m.message_id, m.author_id, m.author_name, m.content, "
    "m.source, m.created_at"
)
FACT_COLS = (
    "f.id, f.guild_id, f.channel_id, f.subject, f.fact, f.fact_type, f.evidence_text, "
    "f.source_message_id, f.confidence, f.is_active, f.said_at, f.created_at, f.updated_at, "
    "f.times_seen, f.last_seen_at, f.superseded_by, f.valid_until"
)


def message_from_row(row: Sequence[Any]) -> StoredMessage:
    return StoredMessage._make(row[:9])


def fact_from_row(row: Sequence[Any]) -> Fact:
    return Fact(
        id=row[0],
        guild_id=row[1],
        channel_id=row[2],
        subject=row[3],
        fact=row[4],
        fact_type=row[5],
        evidence=row[6],
        source_message_id=row[7],
        confidence=row[8],
        is_active=bool(row[9]),
        said_at=row[10],
        created_at=row[11],
        updated_at=row[12],
        times_seen=row[13],
        last_seen_at=row[14] or row[10],
        superseded_by=row[15],
        valid_until=row[16],
    )


def _fetch_rows(conn: Any, query: str, params: Sequence[Any]) -> list[Any]:
    return list(conn.execute(query, params).fetchall())


class Database:
    """The shared connection and counters (each table family is a ``Database``)."""

    def __init__(self, db: aiosqlite.Connection, path: Path | str) -> None:
        self._db = db
        self.path = path
        # (guild_id, user_id) -> (name, username) as last written: unchanged authors are
        # not upserted again with every message.
        self._members_written: dict[tuple[str, str], tuple[str, str]] = {}
        self._guilds_written: set[str] = set()  # guilds known to have a `guilds` row
        self._optouts: dict[str, frozenset[str]] = {}  # guild -> members who opted out
        self._settings: dict[str, dict[str, Any]] = {}  # guild -> its settings
        # How facts live: merged when said again, superseded when contradicted, capped by
        # value (``memory.runtime`` sets the judge and the half-life from the settings).
        self.lifecycle = Lifecycle()
        # Each subject's active facts, kept between the transactions that place facts.
        self.actives_kept = ActiveFacts()
        # Whether ``subjects_to_settle`` may hold rows (left by an earlier run, or noted since).
        self.waiting_to_settle = True
        # Bumped whenever facts or their vectors change: in-memory vector indexes compare it.
        self.vector_version = 0
        # Bumped whenever members are written: cached member names compare it.
        self.members_version = 0
        # Bumped whenever messages become searchable (the journal cursor moves).
        self.index_version = 0
        self._outside: OutsideCommits | None = None  # see ``watch_outside_commits``

    async def close(self) -> None:
        if self._outside is not None:
            self._outside.close()
        await self._db.close()

    def watch_outside_commits(self) -> None:
        """Other processes write to this database too (``memorybot serve --workers``): from
        now on a commit by any other connection moves ``data_version`` (and with it every
        version counter, so every cache of this process that compares one is renewed)."""
        if self._outside is None:
            self._outside = OutsideCommits(self.path)

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def _call(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(conn, *args)`` on the connection's own thread, in one hop.

        A whole write transaction is one function: no other statement can interleave, and
        it costs one thread hand-off instead of one per statement (each hand-off can wait
        for the GIL while the event loop thread is busy). aiosqlite's ``_execute``/``_conn``
        are private but are exactly its documented execution model.
        """
        try:
            return await self._db._execute(fn, self._db._conn, *args)  # type: ignore[no-untyped-call,no-any-return]
        except Exception as exc:
            if is_disk_full(exc) and not isinstance(exc, DiskFullError):
                raise disk_full(f"the database {self.path}") from exc
            raise

    async def _fetchall(self, query: str, params: Sequence[Any] = ()) -> list[Any]:
        # One thread hop for execute + fetch: chunked cursor reads would interleave with
        # other coroutines' statements on this shared connection.
        return await self._call(_fetch_rows, query, params)

    async def _fetchone(self, sql: str, params: Sequence[Any] = ()) -> Any:
        rows = await self._fetchall(sql, params)
        return rows[0] if rows else None

    @property
    def data_version(self) -> tuple[int, int, int]:
        """Moves whenever anything search or a slice reads changes (facts and their vectors,
        members, searchable messages): caches of results compare it. Every method that
        changes those must bump one of the three counters."""
        if self._outside is not None and self._outside.changed():
            self.vector_version += 1
            self.members_version += 1
            self.index_version += 1
        return (self.vector_version, self.members_version, self.index_version)

    async def versions(self) -> dict[str, str]:
        return await sqlite_versions(self._db)
