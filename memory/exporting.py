"""What memory holds of one member of a guild, as one JSON document: the facts about them
(active and archived), the profile paragraph the LLM wrote from them, the lore they wrote and
their stored messages, each with when it was said and a link to its message (``/memory
export``, DESIGN "a member's own data")."""

from __future__ import annotations

from typing import Any

from memory.ids import is_discord_id
from memory.models import Fact, MemberProfile, StoredMessage, utc_iso
from memory.search.results import message_json, stored_fact_json


def message_link(guild_id: str, channel_id: str | None, message_id: str | None) -> str | None:
    """The Discord link of a message (none for voice transcripts and lore without one)."""
    if channel_id and message_id and is_discord_id(message_id):
        return f"https://discord.com/channels/{guild_id}/{channel_id}/{message_id}"
    return None


def fact_record(fact: Fact) -> dict[str, Any]:
    """A fact as stored, with the link to the message it was said in."""
    link = message_link(fact.guild_id, fact.channel_id, fact.source_message_id)
    return {**stored_fact_json(fact), "link": link}


def profile_record(profile: MemberProfile | None) -> dict[str, Any] | None:
    """A member's profile paragraph as stored (``shown``: every fact it cites is active)."""
    if profile is None:
        return None
    return {
        "paragraph": profile.paragraph,
        "factIds": list(profile.fact_ids),
        "writtenAt": profile.written_at,
        "model": profile.model,
        "shown": profile.current,
    }


def member_export(
    guild_id: str, user_id: str, about: list[Fact], lore: list[Fact],
    messages: list[StoredMessage], profile: MemberProfile | None = None,
) -> dict[str, Any]:  # fmt: skip
    """The export document of one member in one guild."""
    return {
        "guildId": guild_id,
        "userId": user_id,
        "exportedAt": utc_iso(),
        "facts": [fact_record(f) for f in about],
        "profile": profile_record(profile),
        "lore": [fact_record(f) for f in lore],
        "messages": [
            {**message_json(m), "link": message_link(guild_id, m.channel_id, m.message_id)}
            for m in messages
        ],
    }
