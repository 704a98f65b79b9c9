"""Members' condensed paragraphs in PostgreSQL (``member_profiles``), shown while every fact
they cite is active."""

from __future__ import annotations

from typing import Any

from memory.audit import MemoryEvent
from memory.models import MemberProfile, parse_iso, utc_iso
from memory.storage.postgres.events import record

# ``current``: every cited id is an active fact of the same guild and member, stored before
# the paragraph was written.
SELECT_PROFILES = """
SELECT p.guild_id, p.subject, p.paragraph, p.fact_ids, p.digest, p.model, p.written_at,
       NOT EXISTS (
           SELECT 1 FROM unnest(p.fact_ids) AS cited(id)
           WHERE NOT EXISTS (
               SELECT 1 FROM memory_facts f
               WHERE f.id = cited.id AND f.guild_id = p.guild_id AND f.subject = p.subject
                 AND f.is_active AND f.created_at <= p.written_at
           )
       )
FROM member_profiles p WHERE p.guild_id = $1 ORDER BY p.subject
"""
UPSERT_PROFILE = """
INSERT INTO member_profiles (guild_id, subject, paragraph, fact_ids, digest, model, written_at)
VALUES ($1, $2, $3, $4, $5, $6, $7)
ON CONFLICT (guild_id, subject) DO UPDATE SET
    paragraph = excluded.paragraph, fact_ids = excluded.fact_ids, digest = excluded.digest,
    model = excluded.model, written_at = excluded.written_at
"""


class PgProfiles:
    """The ``member_profiles`` table."""

    pool: Any  # asyncpg's Pool

    async def member_profiles(self, guild_id: str) -> list[MemberProfile]:
        """The guild's paragraphs by subject, each ``current`` when every fact it cites is
        still an active fact of the guild."""
        rows = await self.pool.fetch(SELECT_PROFILES, guild_id)
        return [_profile(r) for r in rows]

    async def write_member_profile(self, profile: MemberProfile, event: MemoryEvent) -> None:
        """Store the member's paragraph (replacing theirs) and log ``event`` with it."""
        if event.guild_id != profile.guild_id:
            raise ValueError("a profile's event belongs to its guild")
        async with self.pool.acquire() as conn, conn.transaction():
            await conn.execute(
                UPSERT_PROFILE, profile.guild_id, profile.subject, profile.paragraph,
                list(profile.fact_ids), profile.digest, profile.model,
                parse_iso(profile.written_at),
            )  # fmt: skip
            await record(conn, [event], parse_iso(utc_iso()))


def _profile(r: Any) -> MemberProfile:
    return MemberProfile(
        guild_id=r[0], subject=r[1], paragraph=r[2], fact_ids=tuple(r[3]), digest=r[4],
        model=r[5], written_at=utc_iso(r[6]), current=bool(r[7]),
    )  # fmt: skip
