"""The ``memory_events`` table: the audit log's reads and its writes outside other
transactions (facts stored by extraction log theirs in the same transaction instead)."""

from __future__ import annotations

from collections.abc import Sequence

from memory.audit import MemoryEvent, StoredEvent
from memory.models import utc_iso
from memory.storage import events_sql
from memory.storage.base import Database


class Events(Database):
    """What memory did and who asked."""

    async def record_events(self, events: Sequence[MemoryEvent]) -> None:
        if events:
            await self._call(events_sql.record_alone, list(events), utc_iso())

    async def events(
        self,
        guild_id: str,
        *,
        limit: int = 50,
        before: int | None = None,
        kinds: Sequence[str] = (),
    ) -> list[StoredEvent]:
        """The guild's newest events first (ids below ``before``; ``kinds`` only)."""
        return await self._call(events_sql.events, guild_id, limit, before, list(kinds))

    async def prune_events(self, before: str) -> int:
        """Delete the events recorded before ``before`` (a stored time); return how many."""
        return await self._call(events_sql.prune, before)
