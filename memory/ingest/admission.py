"""What memory may remember at all: nothing from a member who opted out, and nothing from a
channel that moderators (``/memory-admin ignore-channel``) or the operator
(``MEMORYBOT_IGNORE_CHANNELS``) excluded. Asked before anything is stored — live, imported or
spoken — so a refused message leaves no row, line or fact behind."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from memory.models import IngestItem
from memory.storage.protocol import Storage

OPTED_OUT = "opted out"
IGNORED_CHANNEL = "ignored channel"
IGNORED_CHANNELS_SETTING = "ignored_channels"


class Rules(NamedTuple):
    """One guild's: members who opted out, and channels nothing is kept from."""

    opted_out: frozenset[str]
    ignored_channels: frozenset[str]

    def refuse(self, channel_id: str, user_id: str) -> str | None:
        if user_id in self.opted_out:
            return OPTED_OUT
        if channel_id in self.ignored_channels:
            return IGNORED_CHANNEL
        return None


class Admission:
    """Refuses the items memory must not keep (the guild's choices are cached by storage)."""

    def __init__(self, store: Storage, ignored_channels: Iterable[str] = ()) -> None:
        self.store = store
        self.ignored_everywhere = frozenset(ignored_channels)

    async def ignored_channels(self, guild_id: str) -> frozenset[str]:
        """The guild's excluded channels (threads are excluded with their parent by callers
        that know it), the operator's included."""
        listed = (await self.store.guild_settings(guild_id)).get(IGNORED_CHANNELS_SETTING, ())
        return self.ignored_everywhere | frozenset(map(str, listed))

    async def rules(self, guild_id: str) -> Rules:
        """The guild's members who opted out, and its ignored channels."""
        return Rules(await self.store.opted_out(guild_id), await self.ignored_channels(guild_id))

    async def reason(self, guild_id: str, channel_id: str, user_id: str) -> str | None:
        """Why memory may not keep what ``user_id`` says in ``channel_id`` (``OPTED_OUT``,
        ``IGNORED_CHANNEL``), or None when it may."""
        return (await self.rules(guild_id)).refuse(channel_id, user_id)

    async def judge(self, items: Iterable[IngestItem]) -> dict[tuple[str, str], str]:
        """The refused items' keys and why (each guild's rules read once: a bulk step)."""
        refused: dict[tuple[str, str], str] = {}
        rules: dict[str, Rules] = {}
        for item in items:
            if item.guild_id not in rules:
                rules[item.guild_id] = await self.rules(item.guild_id)
            reason = rules[item.guild_id].refuse(item.channel_id, item.author.id)
            if reason is not None:
                refused[item.key] = reason
        return refused
