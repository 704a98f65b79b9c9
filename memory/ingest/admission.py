"""What memory may remember at all: nothing from a member who opted out, and nothing from a
channel that moderators (``/memory-admin ignore-channel``) or the operator
(``MEMORYBOT_IGNORE_CHANNELS``) excluded. Asked before anything is stored — live, imported or
spoken — so a refused message leaves no row, line or fact behind."""

from __future__ import annotations

from collections.abc import Iterable

from memory.models import IngestItem
from memory.storage.protocol import Storage

OPTED_OUT = "opted out"
IGNORED_CHANNEL = "ignored channel"
IGNORED_CHANNELS_SETTING = "ignored_channels"


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

    async def judge(self, items: Iterable[IngestItem]) -> dict[tuple[str, str], str]:
        """The refused items' keys and why (``OPTED_OUT`` or ``IGNORED_CHANNEL``)."""
        refused: dict[tuple[str, str], str] = {}
        rules: dict[str, tuple[frozenset[str], frozenset[str]]] = {}
        for item in items:
            guild = item.guild_id
            if guild not in rules:
                rules[guild] = (
                    await self.store.opted_out(guild),
                    await self.ignored_channels(guild),
                )
            opted_out, ignored = rules[guild]
            if item.author.id in opted_out:
                refused[item.key] = OPTED_OUT
            elif item.channel_id in ignored:
                refused[item.key] = IGNORED_CHANNEL
        return refused
