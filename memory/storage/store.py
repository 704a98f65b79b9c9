"""The guild-scoped SQLite store: messages, ingest jobs, members, facts.

All SQL of memorybot lives in ``memory/``. Public methods take ``guild_id`` and never read
across guilds; the few queue-internal methods that walk every guild (``claim_pending`` and
friends) are named for the queue and return work, never another guild's data to a caller.
"""

from __future__ import annotations

import functools
import json
import logging
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

import aiosqlite

from memory import ids
from memory.lore import Origin, lore_fact
from memory.models import (
    CandidateFact,
    Fact,
    FactOrigin,
    GuildStats,
    IngestItem,
    Job,
    StoredMessage,
    canonical_time,
    utc_iso,
)
from memory.storage import forget_sql as fsql
from memory.storage import ingest_sql as sql
from memory.storage import vectors_sql as vsql
from memory.storage.db import open_connection, sqlite_versions
from memory.storage.migrations import CLOSED

log = logging.getLogger(__name__)
T = TypeVar("T")


_MESSAGE_COLS = (
    "m.id, m.guild_id, m.channel_id, m.message_id, m.author_id, m.author_name, m.content, "
    "m.source, m.created_at"
)
SELECT_PENDING = f"""
SELECT j.message_row, j.live, j.trace, {_MESSAGE_COLS}
FROM ingest_jobs j JOIN messages m ON m.id = j.message_row
WHERE j.status = 'pending' ORDER BY j.message_row LIMIT ?
"""


FTS_TABLES = frozenset({"messages_fts", "memory_facts_fts"})

_FACT_COLS = (
    "f.id, f.guild_id, f.channel_id, f.subject, f.fact, f.fact_type, f.evidence_text, "
    "f.source_message_id, f.confidence, f.is_active, f.said_at, f.created_at, f.updated_at"
)


def _fetch_rows(conn: Any, query: str, params: Sequence[Any]) -> list[Any]:
    return list(conn.execute(query, params).fetchall())


def _fts_windows(
    conn: Any, table: str, guild_id: str, queries: Sequence[tuple[str | None, int, bool]]
) -> list[list[int]]:
    scope = f'guild_id:"{guild_id}"'
    out = []
    for expression, limit, ascending in queries:
        match = f"{scope} AND ({expression})" if expression else scope
        rows = conn.execute(
            f"SELECT rowid FROM {table} WHERE {table} MATCH ? "
            f"ORDER BY rowid {'ASC' if ascending else 'DESC'} LIMIT ?",
            (match, limit),
        )
        out.append([r[0] for r in rows])
    return out


def _neighbours(
    conn: Any, guild_id: str, messages: Sequence[StoredMessage], before: int, after: int
) -> list[tuple[list[StoredMessage], list[StoredMessage]]]:
    out = []
    for message in messages:
        key = (guild_id, message.channel_id, message.created_at, message.row_id)
        earlier = conn.execute(
            f"SELECT {_MESSAGE_COLS} FROM messages m WHERE m.guild_id = ? AND m.channel_id = ? "
            "AND (m.created_at, m.id) < (?, ?) ORDER BY m.created_at DESC, m.id DESC LIMIT ?",
            (*key, before),
        ).fetchall()
        later = conn.execute(
            f"SELECT {_MESSAGE_COLS} FROM messages m WHERE m.guild_id = ? AND m.channel_id = ? "
            "AND (m.created_at, m.id) > (?, ?) ORDER BY m.created_at, m.id LIMIT ?",
            (*key, after),
        ).fetchall()
        out.append(
            ([_message_from_row(r) for r in reversed(earlier)],
             [_message_from_row(r) for r in later])
        )  # fmt: skip
    return out


def _message_from_row(row: Sequence[Any]) -> StoredMessage:
    return StoredMessage._make(row[:9])


def _fact_from_row(row: Sequence[Any]) -> Fact:
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
    )


class Store:
    """One SQLite file; one writer connection guarded by a lock for explicit transactions."""

    def __init__(self, db: aiosqlite.Connection, path: Path | str) -> None:
        self._db = db
        self.path = path
        # (guild_id, user_id) -> (name, username) as last written: unchanged authors are
        # not upserted again with every message.
        self._members_written: dict[tuple[str, str], tuple[str, str]] = {}
        self._guilds_written: set[str] = set()  # guilds known to have a `guilds` row
        # Bumped whenever facts or their vectors change: in-memory vector indexes compare it.
        self.vector_version = 0
        # Bumped whenever members are written: cached member names compare it.
        self.members_version = 0
        # Bumped whenever messages become searchable (the journal cursor moves).
        self.index_version = 0

    @classmethod
    async def open(cls, path: Path | str) -> Store:
        return cls(await open_connection(path), path)

    async def close(self) -> None:
        await self._db.close()

    async def __aenter__(self) -> Store:
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
        return await self._db._execute(fn, self._db._conn, *args)  # type: ignore[no-untyped-call,no-any-return]

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
        return (self.vector_version, self.members_version, self.index_version)

    async def versions(self) -> dict[str, str]:
        return await sqlite_versions(self._db)

    # --- guilds and members -------------------------------------------------------------

    async def record_guild(self, guild_id: str, name: str) -> None:
        await self._call(sql.record_guild, guild_id, name, utc_iso())

    async def record_members(self, guild_id: str, members: Iterable[tuple[str, str, str]]) -> None:
        """Upsert ``(user_id, display_name, username)`` triples for one guild."""
        now = utc_iso()
        rows = [(guild_id, uid, name, username, now) for uid, name, username in members]
        if rows:
            await self._call(sql.record_members, rows)
            self.members_version += 1
            for _, uid, *_rest in rows:
                self._members_written.pop((guild_id, uid), None)

    async def guild_ids(self) -> list[str]:
        """Every guild with stored data (for operator tools that walk all guilds).

        Every write path registers its guild in ``guilds``, so this never scans messages.
        """
        rows = await self._fetchall("SELECT guild_id FROM guilds ORDER BY guild_id")
        return [row[0] for row in rows]

    async def guild_name(self, guild_id: str) -> str:
        row = await self._fetchone("SELECT name FROM guilds WHERE guild_id = ?", (guild_id,))
        return str(row[0]) if row and row[0] else guild_id

    async def member_names(self, guild_id: str) -> dict[str, str]:
        rows = await self._fetchall(
            "SELECT user_id, display_name FROM members WHERE guild_id = ?", (guild_id,)
        )
        return {row[0]: row[1] for row in rows}

    # --- messages and jobs (the durable side of the ingest queue) -------------------------

    async def insert_messages(
        self, items: Sequence[IngestItem], *, live: bool, closed: sql.Closed = ()
    ) -> sql.InsertOutcome:
        """Store messages and their jobs in one transaction: pending, but ``done`` for the
        messages in ``closed`` (all of them for ``"all"``), which have nothing to extract.

        The outcome gives the row id of each message stored now and the job status
        ("done", "pending", ...) of each that was already there. Authors become members.
        """
        changed = {}
        for item in items:
            author = item.author
            key, value = (item.guild_id, author.id), (author.name, author.username)
            if author.id and self._members_written.get(key) != value:
                changed[key] = value
        members = [(g, uid, name, username) for (g, uid), (name, username) in changed.items()]
        guilds = {item.guild_id for item in items} - self._guilds_written
        outcome = await self._call(
            sql.insert_messages, list(items), live, utc_iso(), members, sorted(guilds), closed
        )
        self._members_written.update(changed)
        if changed:
            self.members_version += 1
        self._guilds_written |= guilds
        return outcome

    async def claim_pending(self, limit: int) -> list[Job]:
        """Queue-internal: the oldest pending jobs, in order, with their messages."""
        rows = await self._fetchall(SELECT_PENDING, (limit,))
        return [
            Job(
                job_id=r[0],
                live=bool(r[1]),
                trace=json.loads(r[2]),
                message=_message_from_row(r[3:]),
            )
            for r in rows
        ]

    async def pending_keys(self) -> list[tuple[str, str, bool]]:
        """Queue-internal: ``(guild_id, message_id, live)`` of every pending job, oldest first."""
        rows = await self._fetchall(
            "SELECT m.guild_id, m.message_id, j.live FROM ingest_jobs j "
            "JOIN messages m ON m.id = j.message_row WHERE j.status = 'pending' "
            "ORDER BY j.message_row"
        )
        return [(r[0], r[1], bool(r[2])) for r in rows]

    async def finish_jobs(
        self,
        done: Sequence[int],
        failed: Sequence[tuple[int, str]] = (),
        facts: Sequence[tuple[FactOrigin, CandidateFact]] = (),
    ) -> set[tuple[str, str]]:
        """Store extracted facts and close their jobs, in one transaction. Each fact is said
        when its origin (the source message) was written.

        Returns the ``(guild_id, subject)`` pairs whose facts changed.
        """
        changed = await self._call(
            sql.finish_jobs, list(done), list(failed), list(facts), utc_iso()
        )
        if facts:
            self.vector_version += 1
        return changed

    async def remember_line(
        self,
        guild_id: str,
        line: str,
        *,
        channel_id: str = "",
        source_message_id: str = "",
        said_at: str | None = None,
    ) -> CandidateFact:
        """Store ``line`` as guild lore (DESIGN "Lore"); return the fact as stored.

        ``said_at`` (ISO 8601) is when the line was said: now when not given. Raises
        ``InvalidMessageError`` for an empty, instruction-like or secret line, ``ValueError``
        for a ``said_at`` that is no timestamp.
        """
        fact = lore_fact(line, source_message_id=source_message_id)
        origin = Origin(guild_id, channel_id, canonical_time(said_at) if said_at else "")
        await self._call(sql.finish_jobs, [], [], [(origin, fact)], utc_iso())
        self.vector_version += 1
        return fact

    async def pending_count(self, guild_id: str) -> int:
        """Jobs of this guild waiting to be processed."""
        row = await self._fetchone(
            "SELECT count(*) FROM ingest_jobs WHERE guild_id = ? AND status = 'pending'",
            (guild_id,),
        )
        return int(row[0])

    async def drop_jobs(self, keys: Sequence[tuple[str, str]], reason: str) -> None:
        """Mark the pending jobs of these messages ``dropped`` (the messages stay)."""
        await self._call(sql.drop_jobs, list(keys), reason, utc_iso())

    async def requeue_jobs(self, guild_id: str, statuses: Sequence[str]) -> int:
        """Set this guild's jobs of the given statuses back to pending; return how many."""
        return await self._call(sql.requeue_jobs, guild_id, list(statuses), utc_iso())

    async def unjournaled_messages(self, limit: int) -> list[StoredMessage]:
        """Queue-internal: stored messages past the journal cursor (not yet in the daily
        logs nor the full-text index), oldest first."""
        rows = await self._fetchall(
            f"SELECT {_MESSAGE_COLS} FROM messages m WHERE m.id > "
            "(SELECT journaled_through FROM journal_cursor) ORDER BY m.id LIMIT ?",
            (limit,),
        )
        return [_message_from_row(r) for r in rows]

    async def journal_cursor(self) -> int:
        """Queue-internal: every message row up to this id has its daily-log line."""
        row = await self._fetchone("SELECT journaled_through FROM journal_cursor")
        return int(row[0]) if row else 0

    async def mark_journaled_through(self, row_id: int) -> None:
        """Every message up to ``row_id`` has its daily-log line: index them for search."""
        await self._call(sql.advance_journal_cursor, row_id)
        self.index_version += 1

    async def get_message(self, guild_id: str, message_id: str) -> StoredMessage | None:
        row = await self._fetchone(
            f"SELECT {_MESSAGE_COLS} FROM messages m WHERE m.guild_id = ? AND m.message_id = ?",
            (guild_id, message_id),
        )
        return _message_from_row(row) if row else None

    async def job_status(self, guild_id: str, message_id: str) -> tuple[str, str | None] | None:
        row = await self._fetchone(
            "SELECT j.status, j.last_error FROM ingest_jobs j JOIN messages m "
            "ON m.id = j.message_row WHERE m.guild_id = ? AND m.message_id = ?",
            (guild_id, message_id),
        )
        return (row[0], row[1]) if row else None

    async def count_messages(self, guild_id: str) -> int:
        row = await self._fetchone("SELECT COUNT(*) FROM messages WHERE guild_id = ?", (guild_id,))
        return int(row[0])

    # --- facts --------------------------------------------------------------------------

    async def active_facts(self, guild_id: str) -> list[Fact]:
        rows = await self._fetchall(
            f"SELECT {_FACT_COLS} FROM memory_facts f "
            "WHERE f.guild_id = ? AND f.is_active = 1 ORDER BY f.subject, f.confidence DESC, f.id",
            (guild_id,),
        )
        return [_fact_from_row(r) for r in rows]

    async def snapshot_facts(self, guild_id: str, limit: int) -> list[Fact]:
        """The guild's ``limit`` most recently updated active facts (for MEMORY.md), in
        ``active_facts`` order."""
        rows = await self._fetchall(
            f"SELECT {_FACT_COLS} FROM (SELECT * FROM memory_facts WHERE guild_id = ? "
            "AND is_active = 1 ORDER BY updated_at DESC, id DESC LIMIT ?) f "
            "ORDER BY f.subject, f.confidence DESC, f.id",
            (guild_id, limit),
        )
        return [_fact_from_row(r) for r in rows]

    async def facts_of(self, guild_id: str, subjects: Sequence[str]) -> list[Fact]:
        """Every active fact of the guild about ``subjects``."""
        found: list[Fact] = []
        for chunk in sql.chunks(list(dict.fromkeys(subjects))):
            rows = await self._fetchall(
                f"SELECT {_FACT_COLS} FROM memory_facts f WHERE f.guild_id = ? AND f.is_active = 1 "
                f"AND f.subject IN ({sql.marks(chunk)})",
                (guild_id, *chunk),
            )
            found += [_fact_from_row(r) for r in rows]
        return found

    async def facts_by_ids(self, guild_id: str, fact_ids: Sequence[int]) -> list[Fact]:
        """Active facts of the guild among ``fact_ids``."""
        found: list[Fact] = []
        for chunk in sql.chunks(list(fact_ids)):
            rows = await self._fetchall(
                # "+" keeps SQLite from scanning a guild index: the ids are the way in.
                f"SELECT {_FACT_COLS} FROM memory_facts f WHERE f.id IN ({sql.marks(chunk)}) "
                "AND +f.guild_id = ? AND +f.is_active = 1",
                (*chunk, guild_id),
            )
            found += [_fact_from_row(r) for r in rows]
        return found

    async def count_active_facts(self, guild_id: str) -> int:
        row = await self._fetchone(
            "SELECT count(*) FROM memory_facts WHERE guild_id = ? AND is_active = 1", (guild_id,)
        )
        return int(row[0])

    async def fts_windows(
        self, table: str, guild_id: str, queries: Sequence[tuple[str | None, int, bool]]
    ) -> list[list[int]]:
        """Row ids of the guild's documents in full-text ``table`` (``messages_fts`` or
        ``memory_facts_fts``), one list per ``(expression, limit, ascending)``: the newest
        (or, ascending, the oldest) ``limit`` that FTS5 ``expression`` matches — every
        document of the guild when it is None. One round trip for all of them.

        ``expression`` must be built from ``memory.fts`` (user text only ever quoted); it is
        always scoped to the guild here."""
        if table not in FTS_TABLES:
            raise ValueError(f"not a full-text table: {table!r}")
        if not ids.is_discord_id(guild_id):
            raise ValueError(f"not a guild id: {guild_id!r}")
        return await self._call(_fts_windows, table, guild_id, list(queries))

    async def optimize_search(self) -> None:
        """Merge each full-text index into one segment (after a bulk import: a query then
        reads one doclist per term instead of one per segment)."""
        for table in sorted(FTS_TABLES):
            await self._fetchall(f"INSERT INTO {table} ({table}) VALUES ('optimize')")

    async def messages_by_rows(self, guild_id: str, row_ids: Sequence[int]) -> list[StoredMessage]:
        """The guild's messages among ``row_ids``."""
        found: list[StoredMessage] = []
        for chunk in sql.chunks(list(row_ids)):
            rows = await self._fetchall(
                f"SELECT {_MESSAGE_COLS} FROM messages m WHERE m.id IN ({sql.marks(chunk)}) "
                "AND +m.guild_id = ?",
                (*chunk, guild_id),
            )
            found += [_message_from_row(r) for r in rows]
        return found

    async def recent_messages(
        self, guild_id: str, channel_id: str, limit: int, *, before: str | None = None
    ) -> list[StoredMessage]:
        """The channel's last ``limit`` messages (before the message ``before`` when given),
        oldest first."""
        where, params = "", list[object]([guild_id, channel_id])
        if before is not None:
            anchor = await self.get_message(guild_id, before)
            if anchor is not None:
                where = "AND (m.created_at, m.id) < (?, ?)"
                params += [anchor.created_at, anchor.row_id]
        rows = await self._fetchall(
            f"SELECT {_MESSAGE_COLS} FROM messages m WHERE m.guild_id = ? AND m.channel_id = ? "
            f"{where} ORDER BY m.created_at DESC, m.id DESC LIMIT ?",
            (*params, limit),
        )
        return [_message_from_row(r) for r in reversed(rows)]

    async def neighbours(
        self, guild_id: str, messages: Sequence[StoredMessage], before: int = 1, after: int = 1
    ) -> list[tuple[list[StoredMessage], list[StoredMessage]]]:
        """For each of ``messages``, the messages just before and just after it in its
        channel, in order (one round trip for all)."""
        return await self._call(_neighbours, guild_id, list(messages), before, after)

    async def members(self, guild_id: str) -> list[tuple[str, str, str]]:
        """``(user_id, display_name, username)`` of every member the guild has seen."""
        rows = await self._fetchall(
            "SELECT user_id, display_name, username FROM members WHERE guild_id = ?", (guild_id,)
        )
        return [(r[0], r[1], r[2]) for r in rows]

    # --- forgetting (Discord deletions and edits, /memory forget) ---------------------------

    async def delete_message(self, guild_id: str, message_id: str) -> fsql.DeleteOutcome:
        """A message deleted on Discord: remove it and every fact sourced from it (their
        vectors, full-text rows and its job go with them). Unknown message: nothing."""
        outcome = await self._call(fsql.delete_message, guild_id, message_id)
        self._forgot(outcome.facts, bool(outcome.messages), members=False)
        if outcome.messages or outcome.facts:
            log.info(
                "deleted message %s of guild %s and %d fact(s)", message_id, guild_id, outcome.facts
            )
        return outcome

    async def edit_message(
        self, guild_id: str, message_id: str, content: str
    ) -> fsql.EditOutcome | None:
        """A message edited on Discord: store its new text, delete the facts grounded in the
        old one and set its job pending (attempts reset) so it is extracted again.

        None (falsy) for a message the guild does not have. With a running queue use
        ``IngestQueue.edit_message``: it also keeps an extraction of the old text that is
        under way from closing the job."""
        outcome = await self._call(fsql.edit_message, guild_id, message_id, content, utc_iso())
        if outcome is not None and outcome.changed:
            self._forgot(outcome.facts, True, members=False)
        return outcome

    async def forget_member(self, guild_id: str, user_id: str) -> fsql.ForgetOutcome:
        """``/memory forget`` and ``purge-user``: remove the member's messages (every
        source), the facts about them or sourced from their messages, their vectors, their
        members row and their name in other messages' pending mentions. This guild only."""
        outcome = await self._call(fsql.forget_member, guild_id, user_id)
        self._members_written.pop((guild_id, user_id), None)
        self._forgot(outcome.facts, bool(outcome.messages), members=bool(outcome.members))
        log.info(
            "forgot member %s of guild %s: %d message(s), %d fact(s)",
            user_id,
            guild_id,
            len(outcome.messages),
            outcome.facts,
        )
        return outcome

    async def messages_by_author(self, guild_id: str, user_id: str) -> list[StoredMessage]:
        """The member's stored messages in the guild, oldest first (scans the guild)."""
        return await self._call(fsql.messages_by_author, guild_id, user_id)

    def _forgot(self, facts: int, messages: bool, *, members: bool) -> None:
        """Move the version counters that caches of what changed compare."""
        if facts:
            self.vector_version += 1
        if messages:
            self.index_version += 1
        if members:
            self.members_version += 1

    # --- vectors (the embedding side of facts) ---------------------------------------------

    async def cached_vectors(self, model: str, hashes: Sequence[str]) -> dict[str, bytes]:
        return await self._call(vsql.cached_vectors, model, list(hashes))

    async def cache_vectors(self, model: str, rows: Sequence[tuple[str, bytes]]) -> None:
        await self._call(vsql.cache_vectors, model, list(rows))

    async def facts_missing_vectors(
        self, guild_id: str, model: str, limit: int
    ) -> list[tuple[int, str]]:
        """Active facts of the guild without a ``model`` vector: ``(fact_id, text)``."""
        return await self._call(vsql.facts_missing_vectors, guild_id, model, limit)

    async def count_missing_vectors(self, guild_id: str, model: str) -> int:
        return await self._call(vsql.count_missing, guild_id, model)

    async def store_fact_vectors(
        self, guild_id: str, model: str, rows: Sequence[tuple[int, int, bytes]]
    ) -> int:
        stored = await self._call(vsql.store_fact_vectors, guild_id, model, list(rows))
        self.vector_version += 1
        return stored

    async def fact_vectors(self, guild_id: str, model: str) -> list[tuple[int, bytes]]:
        """``(fact_id, float32 blob)`` of the guild's active facts with a ``model`` vector."""
        return await self._call(vsql.fact_vectors, guild_id, model)

    async def missing_vector_ids(self, guild_id: str, model: str, limit: int) -> list[int]:
        """Up to ``limit`` ids of the guild's active facts without a ``model`` vector."""
        return await self._call(vsql.missing_fact_ids, guild_id, model, limit)

    async def nearest_facts(
        self,
        guild_id: str,
        model: str,
        query: bytes,
        k: int,
        bound: int | None = None,
        *,
        exact: bool = False,
    ) -> vsql.Nearest:
        """The guild's ``k`` active facts nearest to ``query`` by their ``model`` vectors
        (see ``vectors_sql.nearest_facts``)."""
        return await self._call(
            functools.partial(vsql.nearest_facts, exact=exact), guild_id, model, query, k, bound
        )

    # --- stats --------------------------------------------------------------------------

    async def stats(self, guild_id: str) -> GuildStats:
        stats = GuildStats(guild_id=guild_id, name=await self.guild_name(guild_id))
        stats.messages = await self.count_messages(guild_id)
        row = await self._fetchone(
            "SELECT COUNT(*), COALESCE(SUM(is_active), 0) FROM memory_facts WHERE guild_id = ?",
            (guild_id,),
        )
        stats.facts, stats.active_facts = int(row[0]), int(row[1])
        for status, count in await self._fetchall(
            f"SELECT status, COUNT(*) FROM ingest_jobs WHERE guild_id = ? AND status IN {CLOSED} "
            "GROUP BY status",
            (guild_id,),
        ):
            setattr(stats, f"{status}_jobs", int(count))
        stats.pending_jobs = await self.pending_count(guild_id)
        return stats
