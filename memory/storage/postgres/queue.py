"""The ingest queue's own reads and writes in PostgreSQL: the oldest pending jobs with their
messages, and the journal cursor (every message up to it has its daily-log line).

Both are for one process, as with SQLite: the jobs are not claimed (the worker keeps what
it took in memory), and the cursor is one row id for the whole store. With several
processes writing one database, row ids commit out of order, so a single cursor could pass
a message committed late; claims that expire and a journal per guild under an advisory
lock are the next part of this backend (issue 23)."""

from __future__ import annotations

import json
from typing import Any

from memory.models import Job, StoredMessage
from memory.storage.base import MESSAGE_COLS
from memory.storage.postgres.messages import message

SELECT_PENDING = f"""
SELECT j.message_row, j.live, j.trace::text, {MESSAGE_COLS}
FROM ingest_jobs j JOIN messages m ON m.id = j.message_row
WHERE j.status = 'pending' ORDER BY j.message_row LIMIT $1
"""


class PgQueue:
    """Pending jobs and the journal cursor."""

    pool: Any  # asyncpg's Pool
    index_version: int

    async def claim_pending(self, limit: int) -> list[Job]:
        """Queue-internal: the oldest pending jobs, in order, with their messages."""
        rows = await self.pool.fetch(SELECT_PENDING, limit)
        return [
            Job(job_id=r[0], live=r[1], trace=json.loads(r[2]), message=message(tuple(r)[3:]))
            for r in rows
        ]

    async def journal_cursor(self) -> int:
        """Queue-internal: every message row up to this id has its daily-log line."""
        return int(await self.pool.fetchval("SELECT journaled_through FROM journal_cursor"))

    async def mark_journaled_through(self, row_id: int) -> None:
        """Every message up to ``row_id`` has its daily-log line (they were searchable
        already: a message's words are stored with it)."""
        await self.pool.execute(
            "UPDATE journal_cursor SET journaled_through = GREATEST(journaled_through, $1)",
            row_id,
        )
        self.index_version += 1

    async def unjournaled_messages(self, limit: int) -> list[StoredMessage]:
        """Queue-internal: stored messages past the journal cursor, oldest first."""
        rows = await self.pool.fetch(
            f"SELECT {MESSAGE_COLS} FROM messages m WHERE m.id > "
            "(SELECT journaled_through FROM journal_cursor) ORDER BY m.id LIMIT $1",
            limit,
        )
        return [message(row) for row in rows]
