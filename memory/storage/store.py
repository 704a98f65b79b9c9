"""The guild-scoped SQLite store: every table family (``messages``, ``jobs``, ``facts``, the
audit log, members' profiles, and the members and fact vectors below) in one class over one
connection.

All SQL of memorybot lives in ``memory/storage/``. Public methods take ``guild_id`` and
never read across guilds; the few queue-internal methods that walk every guild
(``claim_pending`` and friends) are named for the queue and return work, never another
guild's data to a caller.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memory.models import GuildStats, utc_iso
from memory.storage import ingest_sql as sql
from memory.storage import signs_sql
from memory.storage import vectors_sql as vsql
from memory.storage.base import Database
from memory.storage.db import open_connection
from memory.storage.events import Events
from memory.storage.facts import Facts
from memory.storage.jobs import Jobs
from memory.storage.messages import FTS_TABLES, Messages
from memory.storage.migrations import CLOSED
from memory.storage.profiles import Profiles

__all__ = ["FTS_TABLES", "Store"]


class Members(Database):
    """The ``guilds`` and ``members`` tables."""

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

    async def opt_out(self, guild_id: str, user_id: str) -> bool:
        """Nothing the member writes or says is stored from now on (in this guild); False
        when they had opted out already."""
        added = await self._fetchall(
            "INSERT INTO member_optouts (guild_id, user_id, since) VALUES (?, ?, ?) "
            "ON CONFLICT DO NOTHING RETURNING user_id",
            (guild_id, user_id, utc_iso()),
        )
        self._optouts.pop(guild_id, None)
        return bool(added)

    async def opt_in(self, guild_id: str, user_id: str) -> bool:
        """The member is remembered again from now on; False when they had not opted out."""
        removed = await self._fetchall(
            "DELETE FROM member_optouts WHERE guild_id = ? AND user_id = ? RETURNING user_id",
            (guild_id, user_id),
        )
        self._optouts.pop(guild_id, None)
        return bool(removed)

    async def opted_out(self, guild_id: str) -> frozenset[str]:
        """The guild's members who opted out (cached: every submit asks)."""
        known = self._optouts.get(guild_id)
        if known is None:
            rows = await self._fetchall(
                "SELECT user_id FROM member_optouts WHERE guild_id = ?", (guild_id,)
            )
            known = self._optouts[guild_id] = frozenset(r[0] for r in rows)
        return known

    async def guild_settings(self, guild_id: str) -> dict[str, Any]:
        """The guild's settings (key -> value; cached: every submit asks)."""
        known = self._settings.get(guild_id)
        if known is None:
            rows = await self._fetchall(
                "SELECT key, value FROM guild_settings WHERE guild_id = ?", (guild_id,)
            )
            known = self._settings[guild_id] = {key: json.loads(value) for key, value in rows}
        return dict(known)

    async def set_guild_setting(self, guild_id: str, key: str, value: Any) -> None:
        """Set one of the guild's settings (a JSON value)."""
        await self._fetchall(
            "INSERT INTO guild_settings (guild_id, key, value, updated_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (guild_id, key) DO UPDATE SET value = excluded.value, "
            "updated_at = excluded.updated_at",
            (guild_id, key, json.dumps(value), utc_iso()),
        )
        self._settings.pop(guild_id, None)

    async def members(self, guild_id: str) -> list[tuple[str, str, str]]:
        """``(user_id, display_name, username)`` of every member the guild has seen."""
        rows = await self._fetchall(
            "SELECT user_id, display_name, username FROM members WHERE guild_id = ?", (guild_id,)
        )
        return [(r[0], r[1], r[2]) for r in rows]


class Vectors(Database):
    """The per-model sqlite-vec tables of fact vectors, and ``embedding_cache``."""

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

    async def fact_signs(self, guild_id: str, model: str) -> signs_sql.Signs | None:
        """The sign bits of the guild's active facts' ``model`` vectors (see ``signs_sql``)."""
        return await self._call(signs_sql.fact_signs, guild_id, model)

    async def fact_vectors_of(
        self, guild_id: str, model: str, fact_ids: Sequence[int]
    ) -> list[tuple[int, bytes]]:
        """The ``model`` vectors of those of ``fact_ids`` that are the guild's (see
        ``signs_sql``)."""
        return await self._call(signs_sql.fact_vectors_of, guild_id, model, list(fact_ids))


class Store(Members, Messages, Jobs, Facts, Vectors, Events, Profiles):
    """One SQLite file; one writer connection guarded by a lock for explicit transactions."""

    shared = False  # one writing process per data directory (``lock``)

    @classmethod
    async def open(cls, path: Path | str) -> Store:
        return cls(await open_connection(path), path)

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


if TYPE_CHECKING:
    from memory.storage.protocol import Storage

    _IMPLEMENTS: type[Storage] = Store  # mypy checks that Store is a Storage
