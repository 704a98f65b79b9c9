"""Guilds, members, opt-outs and guild settings in PostgreSQL (``Storage``'s members part).

Opt-outs and settings are read from the database on every call, not cached as the SQLite
store does: another process sharing the database may have changed them, and a member who
opted out must never be stored by a process that has not heard."""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

UPSERT_GUILD = """
INSERT INTO guilds (guild_id, name, updated_at) VALUES ($1, $2, $3)
ON CONFLICT (guild_id) DO UPDATE SET name = excluded.name, updated_at = excluded.updated_at
"""
UPSERT_MEMBER = """
INSERT INTO members (guild_id, user_id, display_name, username, updated_at)
VALUES ($1, $2, $3, $4, $5)
ON CONFLICT (guild_id, user_id) DO UPDATE SET
    display_name = excluded.display_name,
    username = CASE WHEN excluded.username = '' THEN members.username
                    ELSE excluded.username END,
    updated_at = excluded.updated_at
"""
UPSERT_SETTING = """
INSERT INTO guild_settings (guild_id, key, value, updated_at) VALUES ($1, $2, $3::jsonb, $4)
ON CONFLICT (guild_id, key) DO UPDATE SET value = excluded.value,
    updated_at = excluded.updated_at
"""


class PgMembers:
    """The ``guilds``, ``members``, ``member_optouts`` and ``guild_settings`` tables."""

    pool: Any  # asyncpg's Pool
    members_version: int

    async def record_guild(self, guild_id: str, name: str) -> None:
        await self.pool.execute(UPSERT_GUILD, guild_id, name, datetime.now(UTC))

    async def record_members(self, guild_id: str, members: Iterable[tuple[str, str, str]]) -> None:
        """Upsert ``(user_id, display_name, username)`` triples for one guild."""
        now = datetime.now(UTC)
        rows = [(guild_id, uid, name, username, now) for uid, name, username in members]
        if rows:
            await self.pool.executemany(UPSERT_MEMBER, rows)
            self.members_version += 1

    async def guild_ids(self) -> list[str]:
        """Every guild with stored data (every write path registers its guild)."""
        rows = await self.pool.fetch("SELECT guild_id FROM guilds ORDER BY guild_id")
        return [row[0] for row in rows]

    async def guild_name(self, guild_id: str) -> str:
        name = await self.pool.fetchval("SELECT name FROM guilds WHERE guild_id = $1", guild_id)
        return str(name) if name else guild_id

    async def member_names(self, guild_id: str) -> dict[str, str]:
        rows = await self.pool.fetch(
            "SELECT user_id, display_name FROM members WHERE guild_id = $1", guild_id
        )
        return {row[0]: row[1] for row in rows}

    async def members(self, guild_id: str) -> list[tuple[str, str, str]]:
        """``(user_id, display_name, username)`` of every member the guild has seen."""
        rows = await self.pool.fetch(
            "SELECT user_id, display_name, username FROM members WHERE guild_id = $1", guild_id
        )
        return [(r[0], r[1], r[2]) for r in rows]

    async def opt_out(self, guild_id: str, user_id: str) -> bool:
        """Nothing the member writes or says is stored from now on (in this guild); False
        when they had opted out already."""
        added = await self.pool.fetchval(
            "INSERT INTO member_optouts (guild_id, user_id, since) VALUES ($1, $2, $3) "
            "ON CONFLICT DO NOTHING RETURNING user_id",
            guild_id, user_id, datetime.now(UTC),
        )  # fmt: skip
        return added is not None

    async def opt_in(self, guild_id: str, user_id: str) -> bool:
        """The member is remembered again from now on; False when they had not opted out."""
        removed = await self.pool.fetchval(
            "DELETE FROM member_optouts WHERE guild_id = $1 AND user_id = $2 RETURNING user_id",
            guild_id, user_id,
        )  # fmt: skip
        return removed is not None

    async def opted_out(self, guild_id: str) -> frozenset[str]:
        """The guild's members who opted out."""
        rows = await self.pool.fetch(
            "SELECT user_id FROM member_optouts WHERE guild_id = $1", guild_id
        )
        return frozenset(r[0] for r in rows)

    async def guild_settings(self, guild_id: str) -> dict[str, Any]:
        """The guild's settings (key -> value)."""
        rows = await self.pool.fetch(
            "SELECT key, value::text FROM guild_settings WHERE guild_id = $1", guild_id
        )
        return {key: json.loads(value) for key, value in rows}

    async def set_guild_setting(self, guild_id: str, key: str, value: Any) -> None:
        """Set one of the guild's settings (a JSON value)."""
        await self.pool.execute(UPSERT_SETTING, guild_id, key, json.dumps(value),
                                datetime.now(UTC))  # fmt: skip
