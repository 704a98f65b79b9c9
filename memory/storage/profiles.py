"""Members' condensed paragraphs (``member_profiles``), written by the LLM from their facts
(``memory.profile_writer``) and shown in MEMORY.md while every fact they cite is active."""

from __future__ import annotations

from memory.audit import MemoryEvent
from memory.models import MemberProfile, utc_iso
from memory.storage import profiles_sql
from memory.storage.base import Database


class Profiles(Database):
    """The ``member_profiles`` table."""

    async def member_profiles(self, guild_id: str) -> list[MemberProfile]:
        """The guild's paragraphs by subject, each ``current`` when every fact it cites is
        still an active fact of the guild."""
        return await self._call(profiles_sql.member_profiles, guild_id)

    async def write_member_profile(self, profile: MemberProfile, event: MemoryEvent) -> None:
        """Store the member's paragraph (replacing theirs) and log ``event`` with it."""
        if event.guild_id != profile.guild_id:
            raise ValueError("a profile's event belongs to its guild")
        await self._call(profiles_sql.write_profile, profile, event, utc_iso())
