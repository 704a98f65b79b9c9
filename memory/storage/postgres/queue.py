"""The ingest queue's own reads and writes in PostgreSQL, for several processes sharing one
database: jobs claimed (``FOR UPDATE SKIP LOCKED``) by this process's session
(``session``) so no two processes take the same, and the daily-log lines each stored message
still needs (``journal_backlog``), written for a guild by one process at a time.

A job this process stores is claimed by it as it is stored; jobs it did not store (left
pending by a process that stopped or died, set pending by a requeue or an edit) are anyone's
once no living session holds them."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Collection, Sequence
from contextlib import asynccontextmanager
from typing import Any

from memory.models import Job, StoredMessage
from memory.storage.base import MESSAGE_COLS
from memory.storage.postgres.messages import message
from memory.storage.postgres.session import CLAIM_HELD, Session, journal_lock

CLAIMABLE = f"j.status = 'pending' AND (j.claimed_by = $1 OR NOT {CLAIM_HELD})"
CLAIM = f"""
WITH taken AS (
    SELECT j.message_row FROM ingest_jobs j WHERE {CLAIMABLE}
    ORDER BY j.message_row LIMIT $2 FOR UPDATE SKIP LOCKED
), claimed AS (
    UPDATE ingest_jobs j SET claimed_by = $1, claimed_until = now() + make_interval(secs => $3)
    FROM taken WHERE j.message_row = taken.message_row
    RETURNING j.message_row, j.live, j.trace
)
SELECT c.message_row, c.live, c.trace::text, {MESSAGE_COLS}
FROM claimed c JOIN messages m ON m.id = c.message_row ORDER BY c.message_row
"""
BACKLOG = f"""
SELECT {MESSAGE_COLS} FROM journal_backlog b JOIN messages m ON m.id = b.message_row
WHERE b.guild_id = ANY($1::text[]) ORDER BY b.message_row LIMIT $2
"""

# The guilds with messages in the backlog: one index probe per guild, however long it is.
BACKLOG_GUILDS = """
WITH RECURSIVE g(guild_id) AS (
    (SELECT guild_id FROM journal_backlog ORDER BY guild_id LIMIT 1)
    UNION ALL
    SELECT (SELECT b.guild_id FROM journal_backlog b WHERE b.guild_id > g.guild_id
            ORDER BY b.guild_id LIMIT 1)
    FROM g WHERE g.guild_id IS NOT NULL
)
SELECT guild_id FROM g WHERE guild_id IS NOT NULL
"""


class PgQueue:
    """Claimed jobs and the journal backlog."""

    pool: Any  # asyncpg's Pool
    session: Session
    index_version: int
    shared = True  # other processes write this database too

    async def claim_pending(self, limit: int) -> list[Job]:
        """Queue-internal: the oldest pending jobs no other living process holds, in order,
        with their messages; claimed by this one."""
        claimant = await self.session.current_pid()
        rows = await self.pool.fetch(CLAIM, claimant, limit, self.session.claim_seconds)
        return [
            Job(job_id=r[0], live=r[1], trace=json.loads(r[2]), message=message(tuple(r)[3:]))
            for r in rows
        ]

    async def pending_keys(self) -> list[tuple[str, str, bool]]:
        """Queue-internal: ``(guild_id, message_id, live)`` of every pending job this process
        may claim, oldest first."""
        rows = await self.pool.fetch(
            "SELECT m.guild_id, m.message_id, j.live FROM ingest_jobs j "
            f"JOIN messages m ON m.id = j.message_row WHERE {CLAIMABLE} ORDER BY j.message_row",
            await self.session.current_pid(),
        )
        return [(r[0], r[1], bool(r[2])) for r in rows]

    async def unclaimed_jobs(self) -> int:
        """Pending jobs no living process holds (their process stopped or died)."""
        count = await self.pool.fetchval(
            f"SELECT count(*) FROM ingest_jobs j WHERE j.status = 'pending' AND NOT {CLAIM_HELD}"
        )
        return int(count)

    async def journal_cursor(self) -> int:
        """Nothing: the backlog names each message still to journal (row ids commit out of
        order when several processes write, so no single row id divides them)."""
        return 0

    async def unjournaled_messages(self, limit: int) -> list[StoredMessage]:
        """Queue-internal: stored messages without their daily-log line, oldest first, of
        the guilds whose journal no other process is writing; their journal locks are held
        until :meth:`mark_journaled` (or the next call)."""
        guilds = [r[0] for r in await self.pool.fetch(BACKLOG_GUILDS)]
        mine = await self.session.journal_turn(guilds)
        if not mine:
            return []
        return [message(row) for row in await self.pool.fetch(BACKLOG, mine, limit)]

    async def mark_journaled(self, messages: Sequence[StoredMessage]) -> None:
        """These messages have their daily-log lines; the journal locks are let go."""
        await self.pool.execute(
            "DELETE FROM journal_backlog WHERE message_row = ANY($1::bigint[])",
            [m.row_id for m in messages],
        )
        await self.session.end_journal_turn()
        self.index_version += 1

    @asynccontextmanager
    async def journal_guilds(self, guild_ids: Collection[str]) -> AsyncIterator[None]:
        """Hold the journals of ``guild_ids``: no other process writes them meanwhile (it
        waits for them)."""
        keys = sorted(set(guild_ids))
        async with self.pool.acquire() as conn:
            for guild_id in keys:
                await conn.execute(journal_lock("pg_advisory_lock"), guild_id)
            try:
                yield
            finally:
                for guild_id in reversed(keys):
                    await conn.execute(journal_lock("pg_advisory_unlock"), guild_id)
