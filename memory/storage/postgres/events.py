"""The audit log in PostgreSQL (``memory_events``): recording events (inside a caller's
transaction when given its connection), reading a guild's newest first, pruning by age."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from memory.audit import MAX_DETAIL, MemoryEvent, StoredEvent
from memory.models import parse_iso, utc_iso

INSERT_EVENT = """
INSERT INTO memory_events (guild_id, at, kind, actor, object_id, subject, detail)
VALUES ($1, $2, $3, $4, $5, $6, $7)
"""


async def record(conn: Any, events: Sequence[MemoryEvent], now: datetime) -> None:
    """Insert ``events`` at ``now`` on ``conn`` (a pool, or a connection in a transaction)."""
    if events:
        await conn.executemany(INSERT_EVENT, [
            (e.guild_id, now, e.kind, e.actor, e.object_id, e.subject, e.detail[:MAX_DETAIL])
            for e in events
        ])  # fmt: skip


class PgEvents:
    """What memory did and who asked."""

    pool: Any  # asyncpg's Pool

    async def record_events(self, events: Sequence[MemoryEvent]) -> None:
        await record(self.pool, events, datetime.now(UTC))

    async def events(
        self,
        guild_id: str,
        *,
        limit: int = 50,
        before: int | None = None,
        kinds: Sequence[str] = (),
    ) -> list[StoredEvent]:
        """The guild's newest events first (ids below ``before``; ``kinds`` only)."""
        rows = await self.pool.fetch(
            "SELECT id, guild_id, at, kind, actor, object_id, subject, detail "
            "FROM memory_events WHERE guild_id = $1 AND ($2::bigint IS NULL OR id < $2) "
            "AND (cardinality($3::text[]) = 0 OR kind = ANY($3)) ORDER BY id DESC LIMIT $4",
            guild_id, before, list(kinds), limit,
        )  # fmt: skip
        return [StoredEvent(r[0], r[1], utc_iso(r[2]), *tuple(r)[3:]) for r in rows]

    async def prune_events(self, before: str) -> int:
        """Delete the events recorded before ``before`` (a stored time); return how many."""
        status = await self.pool.execute("DELETE FROM memory_events WHERE at < $1",
                                         parse_iso(before))  # fmt: skip
        return int(status.split()[-1])
