"""Forgetting, end to end: what members delete or edit on Discord, and ``/memory forget``.

Each helper changes the store first (one transaction), then the daily logs, then MEMORY.md,
and returns counts a slash command or the CLI can print. Run again after an interruption,
``forget_member`` also removes the lines an earlier run left behind.

Pass the running ``IngestQueue`` when there is one: it then drops the jobs it still holds
for deleted messages, so their text is not extracted (nor sent to an LLM) after the delete.
An extraction already under way stores nothing for a deleted message either way
(``facts_sql.finish_jobs``).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # memory_journals depends on memory, not the other way round at import
    from memory.ingest import IngestQueue
    from memory.storage.protocol import Storage
    from memory_journals import Journals

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class ForgetSummary:
    """What a deletion or ``forget`` removed."""

    messages: int = 0
    facts: int = 0
    vectors: int = 0
    journal_lines: int = 0
    members: int = 0
    message_ids: tuple[str, ...] = field(default=(), repr=False)

    @property
    def removed_anything(self) -> bool:
        return bool(self.messages or self.facts or self.journal_lines or self.members)

    def describe(self) -> str:
        """``deleted 3 messages, 5 facts and 3 journal lines`` (for people)."""
        if not self.removed_anything:
            return "nothing was stored, nothing deleted"
        parts = [
            _count(self.messages, "message"),
            _count(self.facts, "fact"),
            _count(self.journal_lines, "journal line"),
        ]
        return "deleted " + ", ".join(parts[:-1]) + " and " + parts[-1]

    def as_dict(self) -> dict[str, object]:
        return {
            "messages": self.messages,
            "facts": self.facts,
            "vectors": self.vectors,
            "journalLines": self.journal_lines,
            "members": self.members,
            "messageIds": list(self.message_ids),
        }


@dataclass(frozen=True, slots=True)
class EditSummary:
    """What an edit did: ``found`` the message, ``changed`` its text, removed ``facts``
    of the old text, rewrote its journal line, set it pending for extraction again."""

    found: bool = False
    changed: bool = False
    facts: int = 0
    journal_lines: int = 0
    requeued: bool = False

    def describe(self) -> str:
        if not self.found:
            return "no such message stored"
        if not self.changed:
            return "text unchanged"
        return (
            f"text updated, {_count(self.facts, 'fact')} of the old text deleted, "
            f"{_count(self.journal_lines, 'journal line')} rewritten"
        )


async def forget_member(
    store: Storage,
    journals: Journals,
    guild_id: str,
    user_id: str,
    *,
    queue: IngestQueue | None = None,
) -> ForgetSummary:
    """``/memory forget`` and ``purge-user``: the member's messages, the facts about them
    or from their messages, their vectors, members row and daily-log lines, in one guild."""
    outcome = await store.forget_member(guild_id, user_id)
    if queue is not None:
        queue.discard((guild_id, m.message_id) for m in outcome.messages)
    lines = await journals.forget_lines(guild_id, outcome.messages, author_id=user_id)
    return ForgetSummary(
        messages=len(outcome.messages),
        facts=outcome.facts,
        vectors=outcome.vectors,
        journal_lines=lines,
        members=outcome.members,
        message_ids=outcome.message_ids,
    )


async def delete_message(
    store: Storage,
    journals: Journals,
    guild_id: str,
    message_id: str,
    *,
    queue: IngestQueue | None = None,
) -> ForgetSummary:
    """A message deleted on Discord: it, the facts sourced from it and its daily-log line.
    A message the guild does not have: nothing happens."""
    outcome = await store.delete_message(guild_id, message_id)
    if not outcome.messages and not outcome.facts:
        return ForgetSummary()
    if queue is not None:
        queue.discard([(guild_id, message_id)])
    lines = await journals.forget_lines(guild_id, outcome.messages)
    return ForgetSummary(
        messages=len(outcome.messages),
        facts=outcome.facts,
        vectors=outcome.vectors,
        journal_lines=lines,
        message_ids=outcome.message_ids,
    )


async def edit_message(
    store: Storage,
    journals: Journals,
    queue: IngestQueue,
    guild_id: str,
    message_id: str,
    content: str,
) -> EditSummary:
    """A message edited on Discord: the new text stored and searchable, the facts of the
    old text gone, its daily-log line rewritten, and the queue extracting it again."""
    if queue.store is not store:
        raise ValueError("the queue works on another store")
    outcome = await queue.edit_message(guild_id, message_id, content)
    if outcome is None:
        return EditSummary()
    if not outcome.changed:
        return EditSummary(found=True)
    rewritten = await journals.rewrite_line(guild_id, outcome.before, outcome.after)
    return EditSummary(
        found=True,
        changed=True,
        facts=outcome.facts,
        journal_lines=int(rewritten),
        requeued=True,
    )


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"
