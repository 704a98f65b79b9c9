"""The audit log's SQL (``memory_events``): recording events inside a caller's transaction,
reading a guild's newest first, and pruning by age."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from memory.audit import MAX_DETAIL, MemoryEvent, StoredEvent
from memory.storage.ingest_sql import transaction

INSERT_EVENT = """
INSERT INTO memory_events (guild_id, at, kind, actor, object_id, subject, detail)
VALUES (?, ?, ?, ?, ?, ?, ?)
"""


def record(conn: Any, events: Sequence[MemoryEvent], now: str) -> None:
    """Insert ``events`` at ``now`` (inside the caller's transaction, if any)."""
    if not events:
        return
    conn.executemany(
        INSERT_EVENT,
        [
            (e.guild_id, now, e.kind, e.actor, e.object_id, e.subject, e.detail[:MAX_DETAIL])
            for e in events
        ],
    )


def record_alone(conn: Any, events: Sequence[MemoryEvent], now: str) -> None:
    """Insert ``events`` in a transaction of their own."""
    with transaction(conn):
        record(conn, events, now)


def events(
    conn: Any, guild_id: str, limit: int, before: int | None, kinds: Sequence[str]
) -> list[StoredEvent]:
    """The guild's newest ``limit`` events (with ids below ``before``; of ``kinds`` only,
    when given)."""
    where: list[str] = ["guild_id = ?"]
    params: list[object] = [guild_id]
    if before is not None:
        where.append("id < ?")
        params.append(before)
    if kinds:
        where.append(f"kind IN ({', '.join('?' * len(kinds))})")
        params.extend(kinds)
    rows = conn.execute(
        "SELECT id, guild_id, at, kind, actor, object_id, subject, detail FROM memory_events "
        f"WHERE {' AND '.join(where)} ORDER BY id DESC LIMIT ?",
        (*params, limit),
    ).fetchall()
    return [StoredEvent._make(row) for row in rows]


def prune(conn: Any, before: str) -> int:
    """Delete every event recorded before ``before``; return how many."""
    return int(conn.execute("DELETE FROM memory_events WHERE at < ?", (before,)).rowcount)
