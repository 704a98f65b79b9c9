"""Members and moderators in control: forgetting a member, opting out and in, a member's
own data, ignored channels and the guild's settings, moderating single facts, and the audit
log that records each of them with who asked (``memory.audit``).

``Controls`` is a part of :class:`memory.runtime.Memory`; every ``actor`` is a member's id,
or ``audit.API`` / ``audit.CLI`` / ``audit.SYSTEM``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from memory import audit, forgetting
from memory.audit import MemoryEvent, StoredEvent
from memory.exporting import member_export
from memory.extraction.fact_filter import checked_edit
from memory.forgetting import ForgetSummary
from memory.ingest.admission import IGNORED_CHANNELS_SETTING
from memory.models import Fact
from memory.text import cap

if TYPE_CHECKING:
    from memory.ingest import IngestQueue
    from memory.search.semantic import Semantic
    from memory.settings import Settings
    from memory.storage.protocol import Storage
    from memory_journals import Journals


class Controls:
    """The operations of ``Memory`` that members and moderators control."""

    settings: Settings
    _store: Storage
    _journals: Journals
    _queue: IngestQueue
    _semantic: Semantic

    async def forget_member(
        self, guild_id: str, user_id: str, *, actor: str = audit.SYSTEM
    ) -> ForgetSummary:
        """Everything kept of a member in a guild: messages, facts, vectors, log lines."""
        summary = await forgetting.forget_member(
            self._store, self._journals, guild_id, user_id, queue=self._queue
        )
        detail = summary.describe() if summary.removed_anything else "nothing was stored"
        await self._record(guild_id, "member.forgotten", actor, user_id, user_id, detail)
        return summary

    async def opt_out(
        self, guild_id: str, user_id: str, *, actor: str = audit.SYSTEM
    ) -> ForgetSummary:
        """The member opts out of memory in this guild: what is held of them is forgotten,
        and nothing they write or say is stored from now on — live, voice or imported — until
        they opt in. The choice outlives restarts, re-imports and ``forget``."""
        if await self._store.opt_out(guild_id, user_id):
            await self._record(guild_id, "member.optout", actor, user_id, user_id)
        return await self.forget_member(guild_id, user_id, actor=actor)

    async def opt_in(self, guild_id: str, user_id: str, *, actor: str = audit.SYSTEM) -> bool:
        """The member is remembered again from now on; False when they had not opted out."""
        changed = await self._store.opt_in(guild_id, user_id)
        if changed:
            await self._record(guild_id, "member.optin", actor, user_id, user_id)
        return changed

    async def opted_out(self, guild_id: str, user_id: str) -> bool:
        return user_id in await self._store.opted_out(guild_id)

    async def refuses(self, guild_id: str, channel_id: str, user_id: str) -> bool:
        """Whether memory may not keep what the member says in that channel (they opted out,
        or the channel is ignored): voice asks before it transcribes."""
        return await self._queue.admission.reason(guild_id, channel_id, user_id) is not None

    async def export_member(self, guild_id: str, user_id: str) -> dict[str, Any]:
        """Everything memory holds of the member in this guild, as one JSON document."""
        about, lore = await self._store.member_facts(guild_id, user_id)
        messages = await self._store.messages_by_author(guild_id, user_id)
        profiles = await self._store.member_profiles(guild_id)
        profile = next((p for p in profiles if p.subject == user_id), None)
        return member_export(guild_id, user_id, about, lore, messages, profile)

    # --- the guild's settings ----------------------------------------------------------

    async def ignore_channel(
        self, guild_id: str, channel_id: str, *, ignored: bool = True, actor: str = audit.SYSTEM
    ) -> bool:
        """Remember nothing from the channel (and its threads) from now on, or (``ignored``
        False) remember it again; False when that was so already."""
        settings = await self._store.guild_settings(guild_id)
        listed = set(settings.get(IGNORED_CHANNELS_SETTING, ()))
        if (channel_id in listed) == ignored:
            return False
        listed = listed | {channel_id} if ignored else listed - {channel_id}
        await self._store.set_guild_setting(guild_id, IGNORED_CHANNELS_SETTING, sorted(listed))
        kind = "channel.ignored" if ignored else "channel.unignored"
        await self._record(guild_id, kind, actor, channel_id)
        return True

    async def ignored_channels(self, guild_id: str) -> frozenset[str]:
        """The channels nothing is remembered from (the guild's, and the operator's)."""
        return await self._queue.admission.ignored_channels(guild_id)

    async def guild_settings(self, guild_id: str) -> dict[str, Any]:
        return await self._store.guild_settings(guild_id)

    async def set_guild_setting(
        self, guild_id: str, key: str, value: Any, *, actor: str = audit.SYSTEM
    ) -> None:
        await self._store.set_guild_setting(guild_id, key, value)
        shown = cap(f"{key} = {json.dumps(value)}", audit.MAX_DETAIL)
        await self._record(guild_id, "setting.changed", actor, key, "", shown)

    # --- moderating single facts -------------------------------------------------------

    async def review_facts(
        self, guild_id: str, *, subject: str | None = None, archived: bool = False,
        limit: int = 100, before_id: int | None = None,
    ) -> list[Fact]:  # fmt: skip
        """The guild's facts for moderators, newest first."""
        return await self._store.review_facts(
            guild_id, subject=subject, archived=archived, limit=limit, before_id=before_id
        )

    async def edit_fact(
        self, guild_id: str, fact_id: int, *, text: str | None = None,
        fact_type: str | None = None, active: bool | None = None, actor: str = audit.SYSTEM,
    ) -> Fact | None:  # fmt: skip
        """A moderator's edit (text, type, archive or restore) of one fact of the guild: it is
        embedded again and MEMORY.md rewritten. ``InvalidMessageError`` for a text the filters
        refuse (length, instructions, secrets); None when the guild has no such fact."""
        text, fact_type = checked_edit(text, fact_type)
        found = await self._store.facts_by_ids(guild_id, [fact_id], archived=True)
        fact = await self._store.edit_fact(
            guild_id, fact_id, text=text, fact_type=fact_type, active=active
        )
        if fact is None or not found:
            return None
        self._journals.guild_changed(guild_id)
        self._semantic.facts.wake(guild_id)
        for kind, detail in audit.fact_changes(found[0], fact):
            await self._record(guild_id, kind, actor, str(fact_id), fact.subject, detail)
        return fact

    async def delete_fact(self, guild_id: str, fact_id: int, *, actor: str = audit.SYSTEM) -> bool:
        """Delete one fact of the guild: gone from search, the slice, vectors and MEMORY.md."""
        found = await self._store.facts_by_ids(guild_id, [fact_id], archived=True)
        deleted = bool(found) and await self._store.delete_fact(guild_id, fact_id)
        if deleted:
            self._journals.guild_changed(guild_id)
            detail = f"{found[0].fact_type}, confidence {found[0].confidence:.2f}"
            await self._record(
                guild_id, "fact.deleted", actor, str(fact_id), found[0].subject, detail
            )
        return deleted

    # --- the audit log -----------------------------------------------------------------

    async def events(
        self, guild_id: str, *, limit: int = 50, before: int | None = None,
        kinds: Sequence[str] = (),
    ) -> list[StoredEvent]:  # fmt: skip
        """The guild's audit log, newest first (ids below ``before``; ``kinds`` only)."""
        return await self._store.events(guild_id, limit=limit, before=before, kinds=kinds)

    async def _record(
        self, guild_id: str, kind: str, actor: str, object_id: str = "", subject: str = "",
        detail: str = "",
    ) -> None:  # fmt: skip
        await self._store.record_events(
            [MemoryEvent(guild_id, kind, actor, object_id, subject, detail)]
        )
