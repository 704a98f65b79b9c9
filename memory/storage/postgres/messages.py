"""Messages and their ingest jobs in PostgreSQL (``Storage``'s messages part): storing a
batch in one transaction, and reading messages by id, row, channel and neighbourhood.

A batch goes in as arrays (``unnest``), one statement for its messages and one for their
jobs. Two processes storing the same message at once store it once: the second waits for
the first's commit (``ON CONFLICT DO NOTHING``) and reports the message as already there."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from memory.models import IngestItem, StoredMessage, parse_iso, utc_iso
from memory.storage.base import MESSAGE_COLS, message_from_row
from memory.storage.ingest_sql import Closed, InsertOutcome, first_of_each, trace_json
from memory.storage.postgres.members import UPSERT_MEMBER
from memory.storage.postgres.session import Session
from memory.storage.postgres.words import as_tsvector, lexemes, window_sql
from memory.storage.windows import Corpus, Window

TABLES = {"messages": "messages", "facts": "memory_facts"}  # each corpus' table
INSERT_MESSAGES = f"""
INSERT INTO messages (guild_id, channel_id, message_id, author_id, author_name, content,
                      source, created_at, words)
SELECT g, c, m, a, n, t, s, at, {as_tsvector("w")}
FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[],
            $7::text[], $8::timestamptz[], $9::text[]) AS r(g, c, m, a, n, t, s, at, w)
ON CONFLICT (guild_id, message_id) DO NOTHING
RETURNING id, guild_id, message_id
"""
# Each new message's job (claimed by this process's session while pending: its worker holds
# it in memory), and its place in the journal backlog.
INSERT_JOBS = """
WITH backlog AS (
    INSERT INTO journal_backlog (message_row, guild_id)
    SELECT * FROM unnest($1::bigint[], $2::text[])
)
INSERT INTO ingest_jobs (message_row, guild_id, status, attempts, live, trace, created_at,
                         updated_at, claimed_by, claimed_until)
SELECT row, guild, status, attempts, $5, trace::jsonb, $6, $6,
       CASE WHEN status = 'pending' THEN $8::integer END,
       CASE WHEN status = 'pending' THEN now() + make_interval(secs => $9) END
FROM unnest($1::bigint[], $2::text[], $3::text[], $4::integer[], $7::text[])
     AS t(row, guild, status, attempts, trace)
"""
EXISTING = """
SELECT m.message_id, COALESCE(j.status, 'done') FROM messages m
LEFT JOIN ingest_jobs j ON j.message_row = m.id
WHERE m.guild_id = $1 AND m.message_id = ANY($2::text[])
"""
# The turns before (``<``, newest first) or after (``>``, oldest first) each message in its
# channel, for all the messages in one statement.
NEIGHBOURS = """
SELECT t.i, {cols} FROM unnest($2::text[], $3::timestamptz[], $4::bigint[])
     WITH ORDINALITY AS t(channel, at, row_id, i)
CROSS JOIN LATERAL (
    SELECT * FROM messages m WHERE m.guild_id = $1 AND m.channel_id = t.channel
    AND (m.created_at, m.id) {side} (t.at, t.row_id)
    ORDER BY m.created_at {order}, m.id {order} LIMIT $5
) m
"""


def message(row: Sequence[Any]) -> StoredMessage:
    """A ``MESSAGE_COLS`` row as the store returns it (times in the stored format)."""
    values = tuple(row)
    return message_from_row((*values[:8], utc_iso(values[8])))


class PgMessages:
    """The ``messages`` and ``ingest_jobs`` tables."""

    pool: Any  # asyncpg's Pool
    session: Session
    members_version: int

    async def insert_messages(
        self, items: Sequence[IngestItem], *, live: bool, closed: Closed = ()
    ) -> InsertOutcome:
        """Store messages and their jobs in one transaction: pending, but ``done`` for the
        messages in ``closed`` (all of them for ``"all"``), which have nothing to extract.
        The outcome gives the row id of each message stored now and the job status of each
        that was already there. Authors become members."""
        now = datetime.now(UTC)
        authors = {(i.guild_id, i.author.id): i.author for i in items if i.author.id}
        async with self.pool.acquire() as conn, conn.transaction():
            await conn.executemany(
                "INSERT INTO guilds (guild_id, name, updated_at) VALUES ($1, '', $2) "
                "ON CONFLICT DO NOTHING",
                [(guild_id, now) for guild_id in sorted({i.guild_id for i in items})],
            )
            await conn.executemany(
                UPSERT_MEMBER,
                [(g, a.id, a.name, a.username, now) for (g, _), a in sorted(authors.items())],
            )
            existing = await _existing(conn, items)
            fresh = first_of_each(items, existing)
            stored = await conn.fetch(INSERT_MESSAGES, *_columns(fresh)) if fresh else []
            row_of = {(guild_id, message_id): row for row, guild_id, message_id in stored}
            raced = [item for item in fresh if item.key not in row_of]
            existing.update(await _existing(conn, raced))  # stored meanwhile by another
            new = [item for item in fresh if item.key in row_of]
            if new:
                claimant = await self.session.current_pid()
                await conn.execute(INSERT_JOBS, *_jobs(new, row_of, closed), live, now,
                                   _traces(new), claimant, self.session.claim_seconds)  # fmt: skip
        if authors:
            self.members_version += 1
        return InsertOutcome(new, [row_of[item.key] for item in new], existing)

    async def fts_windows(
        self, corpus: Corpus, guild_id: str, windows: Sequence[Window]
    ) -> list[list[int]]:
        """Row ids of the guild's messages or facts, one list per window
        (``memory.storage.windows``): their words matched in the ``words`` tsvector."""
        table = TABLES.get(corpus)
        if table is None:
            raise ValueError(f"not a full-text corpus: {corpus!r}")
        found = []
        async with self.pool.acquire() as conn:
            top = await conn.fetchval(f"SELECT max(id) FROM {table} WHERE guild_id = $1",
                                      guild_id)  # fmt: skip
            for window in windows:
                sql, params = window_sql(table, guild_id, window, top or 0)
                found.append([row[0] for row in await conn.fetch(sql, guild_id, *params)])
        return found

    async def optimize_search(self) -> None:
        """Nothing to merge: a GIN index keeps itself (``autovacuum`` cleans its pending list)."""

    async def messages_after(
        self, row_id: int, limit: int, guild_id: str | None = None
    ) -> list[StoredMessage]:
        """Up to ``limit`` stored messages past row ``row_id`` (of ``guild_id``, else of every
        guild), in row order: every message, a page at a time."""
        rows = await self.pool.fetch(
            f"SELECT {MESSAGE_COLS} FROM messages m WHERE m.id > $1 "
            "AND ($2::text IS NULL OR m.guild_id = $2) ORDER BY m.id LIMIT $3",
            row_id, guild_id, limit,
        )  # fmt: skip
        return [message(row) for row in rows]

    async def messages_by_author(self, guild_id: str, user_id: str) -> list[StoredMessage]:
        """The member's stored messages in the guild, oldest first."""
        rows = await self.pool.fetch(
            f"SELECT {MESSAGE_COLS} FROM messages m WHERE m.guild_id = $1 AND m.author_id = $2 "
            "ORDER BY m.id",
            guild_id, user_id,
        )  # fmt: skip
        return [message(row) for row in rows]

    async def drop_jobs(self, keys: Sequence[tuple[str, str]], reason: str) -> None:
        """Mark the pending jobs of these messages ``dropped`` (the messages stay)."""
        await self.pool.execute(
            "UPDATE ingest_jobs j SET status = 'dropped', last_error = $1, updated_at = $2 "
            "FROM messages m, unnest($3::text[], $4::text[]) AS k(guild_id, message_id) "
            "WHERE m.guild_id = k.guild_id AND m.message_id = k.message_id "
            "AND j.message_row = m.id AND j.status = 'pending'",
            reason, datetime.now(UTC), [g for g, _ in keys], [m for _, m in keys],
        )  # fmt: skip

    async def job_status(self, guild_id: str, message_id: str) -> tuple[str, str | None] | None:
        row = await self.pool.fetchrow(
            "SELECT j.status, j.last_error FROM ingest_jobs j JOIN messages m "
            "ON m.id = j.message_row WHERE m.guild_id = $1 AND m.message_id = $2",
            guild_id, message_id,
        )  # fmt: skip
        return (row[0], row[1]) if row else None

    async def pending_count(self, guild_id: str) -> int:
        """Jobs of this guild waiting to be processed."""
        count = await self.pool.fetchval(
            "SELECT count(*) FROM ingest_jobs WHERE guild_id = $1 AND status = 'pending'",
            guild_id,
        )
        return int(count)

    async def get_message(self, guild_id: str, message_id: str) -> StoredMessage | None:
        row = await self.pool.fetchrow(
            f"SELECT {MESSAGE_COLS} FROM messages m WHERE m.guild_id = $1 AND m.message_id = $2",
            guild_id, message_id,
        )  # fmt: skip
        return message(row) if row else None

    async def count_messages(self, guild_id: str) -> int:
        count = await self.pool.fetchval(
            "SELECT count(*) FROM messages WHERE guild_id = $1", guild_id
        )
        return int(count)

    async def messages_by_rows(self, guild_id: str, row_ids: Sequence[int]) -> list[StoredMessage]:
        """The guild's messages among ``row_ids``."""
        rows = await self.pool.fetch(
            f"SELECT {MESSAGE_COLS} FROM messages m WHERE m.id = ANY($1::bigint[]) "
            "AND m.guild_id = $2",
            list(row_ids), guild_id,
        )  # fmt: skip
        return [message(row) for row in rows]

    async def recent_messages(
        self, guild_id: str, channel_id: str, limit: int, *, before: str | None = None
    ) -> list[StoredMessage]:
        """The channel's last ``limit`` messages (before the message ``before`` when given),
        oldest first."""
        anchor = await self.get_message(guild_id, before) if before is not None else None
        where, params = "", [guild_id, channel_id, limit]
        if anchor is not None:
            where = "AND (m.created_at, m.id) < ($4, $5)"
            params += [parse_iso(anchor.created_at), anchor.row_id]
        rows = await self.pool.fetch(
            f"SELECT {MESSAGE_COLS} FROM messages m WHERE m.guild_id = $1 "
            f"AND m.channel_id = $2 {where} ORDER BY m.created_at DESC, m.id DESC LIMIT $3",
            *params,
        )
        return [message(row) for row in reversed(rows)]

    async def neighbours(
        self, guild_id: str, messages: Sequence[StoredMessage], before: int = 1, after: int = 1
    ) -> list[tuple[list[StoredMessage], list[StoredMessage]]]:
        """For each of ``messages``, the messages just before and just after it in its
        channel, in order (one statement a side for all)."""
        anchors = (
            [m.channel_id for m in messages],
            [parse_iso(m.created_at) for m in messages],
            [m.row_id for m in messages],
        )
        sides: list[list[list[StoredMessage]]] = []
        for side, order, limit in (("<", "DESC", before), (">", "ASC", after)):
            found: list[list[StoredMessage]] = [[] for _ in messages]
            if limit > 0 and messages:
                sql = NEIGHBOURS.format(cols=MESSAGE_COLS, side=side, order=order)
                for row in await self.pool.fetch(sql, guild_id, *anchors, limit):
                    found[row[0] - 1].append(message(tuple(row)[1:]))
            sides.append(found)
        earlier, later = sides
        return [(e[::-1], a) for e, a in zip(earlier, later, strict=True)]


async def _existing(conn: Any, items: Sequence[IngestItem]) -> dict[tuple[str, str], str]:
    """The job status of each of ``items`` already stored (``done`` when it has no job)."""
    by_guild: dict[str, list[str]] = {}
    for item in items:
        by_guild.setdefault(item.guild_id, []).append(item.message_id)
    found: dict[tuple[str, str], str] = {}
    for guild_id, ids in by_guild.items():
        for message_id, status in await conn.fetch(EXISTING, guild_id, ids):
            found[(guild_id, message_id)] = status
    return found


def _columns(items: Sequence[IngestItem]) -> list[list[Any]]:
    """The messages' values, column by column (``INSERT_MESSAGES``' arrays)."""
    return [
        [i.guild_id for i in items],
        [i.channel_id for i in items],
        [i.message_id for i in items],
        [i.author.id for i in items],
        [i.author.name for i in items],
        [i.content for i in items],
        [i.source for i in items],
        [parse_iso(i.created_at) for i in items],
        [lexemes(i.content) for i in items],
    ]


def _jobs(
    items: Sequence[IngestItem], row_of: dict[tuple[str, str], int], closed: Closed
) -> list[list[Any]]:
    """Rows, guilds, statuses and attempts of the new messages' jobs (closed: done once)."""
    done = [closed == "all" or item.key in closed for item in items]
    return [
        [row_of[item.key] for item in items],
        [item.guild_id for item in items],
        ["done" if d else "pending" for d in done],
        [1 if d else 0 for d in done],
    ]


def _traces(items: Sequence[IngestItem]) -> list[str]:
    cache: dict[int, str] = {}
    return [trace_json(item.trace, cache) for item in items]
