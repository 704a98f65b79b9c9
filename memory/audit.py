"""The audit log: what memory did and who asked (``memory_events``).

An event names its guild, a kind (below), an actor (a member's id, or one of the actors
below), the object it touched (a fact id, a member id, a message id) and a short detail.
Details never carry what a member wrote: ids, types, counts and error names only, so the
log keeps nothing a ``forget`` must remove. Events older than the retention
(``MEMORYBOT_EVENTS_RETENTION_DAYS``) are pruned at start and every hour.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Final, NamedTuple

from memory.models import subject_name, utc_iso
from memory.tasks import Periodic
from memory.text import cap

if TYPE_CHECKING:
    from memory.models import Fact
    from memory.storage.protocol import Storage

log = logging.getLogger(__name__)

SYSTEM: Final = "memorybot"
"""The actor of what memory does by itself (extraction, the caps, embedding)."""
API: Final = "api"
"""The actor of a change through the HTTP API's admin token."""
CLI: Final = "cli"
"""The actor of an operator's ``memorybot`` command."""
DISCORD: Final = "discord"
"""The actor of a message deleted or edited on Discord (by its author or a moderator)."""

KINDS: Final = (
    "fact.stored",  # a new fact (extracted, or lore remembered)
    "fact.reinforced",  # said again (the same words or a paraphrase): merged into it
    "fact.superseded",  # replaced by a fact said later that contradicts it
    "fact.archived",  # past its subject's cap, or by a moderator
    "fact.restored",  # made active again by a moderator
    "fact.edited",  # text or type changed by a moderator
    "fact.deleted",  # removed by a moderator
    "message.deleted",  # deleted on Discord, with the facts from it
    "message.edited",  # edited on Discord: its facts go, it is extracted again
    "extraction.call",  # an LLM extraction request
    "extraction.error",  # an extraction that failed (its messages stay, jobs failed)
    "embedding.error",  # facts that could not be embedded (retried later)
    "member.forgotten",
    "member.optout",
    "member.optin",
    "channel.ignored",
    "channel.unignored",
    "setting.changed",
    "import",  # what an import stored for the guild
    "profile.written",  # a member's profile paragraph written by the LLM (ids, never text)
)
MAX_DETAIL = 300
PRUNE_EVERY = 3600.0  # seconds


class MemoryEvent(NamedTuple):
    """One thing memory did, as recorded (``at`` is set when it is stored)."""

    guild_id: str
    kind: str
    actor: str = SYSTEM
    object_id: str = ""
    subject: str = ""
    detail: str = ""


class StoredEvent(NamedTuple):
    """An event as the log holds it."""

    id: int
    guild_id: str
    at: str
    kind: str
    actor: str
    object_id: str
    subject: str
    detail: str


QUOTED = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")


def error_detail(exc: BaseException) -> str:
    """An error as a detail: its type and message on one line, with every quoted part (an
    answer's excerpt, which may repeat what a member wrote) left out."""
    message = QUOTED.sub("'…'", str(exc))
    return cap(" ".join(f"{type(exc).__name__}: {message}".split()), MAX_DETAIL)


def event_json(event: StoredEvent, names: Mapping[str, str]) -> dict[str, object]:
    """An event for the API and ``memorybot events --json``; ``names`` (user id -> display
    name) names its actor and subject when they are members."""
    return {
        "id": event.id,
        "guildId": event.guild_id,
        "at": event.at,
        "kind": event.kind,
        "actor": event.actor,
        "actorName": names.get(event.actor, ""),
        "objectId": event.object_id,
        "subject": event.subject,
        "subjectName": subject_name(event.subject, names),
        "detail": event.detail,
    }


def fact_changes(before: Fact, after: Fact) -> list[tuple[str, str]]:
    """A moderator's change of a fact as events: ``fact.edited`` (text, type) and
    ``fact.archived`` / ``fact.restored``, with what changed (never the text)."""
    edits = ["text changed"] if after.fact != before.fact else []
    if after.fact_type != before.fact_type:
        edits.append(f"type {before.fact_type} → {after.fact_type}")
    changes = [("fact.edited", ", ".join(edits))] if edits else []
    if after.is_active != before.is_active:
        changes.append(("fact.restored" if after.is_active else "fact.archived", "by a moderator"))
    return changes


def extraction_call(
    extractor: str, guild_id: str, channel_id: str, messages: int, kept: int, seconds: float
) -> MemoryEvent:
    """``extraction.call``: one request to an extractor's endpoint, what it gave, how long."""
    detail = f"{extractor}: {messages} message(s) of channel {channel_id}, "
    detail += f"{kept} fact(s) kept, {seconds:.1f} s"
    return MemoryEvent(guild_id, "extraction.call", SYSTEM, channel_id, "", detail)


def extraction_error(
    extractor: str, guild_id: str, channel_id: str, messages: int, exc: BaseException
) -> MemoryEvent:
    """``extraction.error``: whose messages stay unextracted, and why (no member text)."""
    detail = f"{extractor}: {messages} message(s) of channel {channel_id} not extracted: "
    return MemoryEvent(
        guild_id, "extraction.error", SYSTEM, channel_id, "", detail + error_detail(exc)
    )


def cutoff(days: int, now: datetime | None = None) -> str:
    """The stored time before which events are pruned."""
    return utc_iso((now or datetime.now(UTC)) - timedelta(days=days))


class EventPruner:
    """Deletes events older than the retention, at start and every ``PRUNE_EVERY`` seconds
    (``days`` 0: kept for ever)."""

    def __init__(self, store: Storage, days: int, every: float = PRUNE_EVERY) -> None:
        self.store = store
        self.days = days
        self.every = every
        self._schedule = Periodic(
            self.prune, every if days > 0 else 0.0, name="memorybot-event-pruner",
            failing="pruning the audit log failed",
        )  # fmt: skip

    async def prune(self) -> int:
        """Delete the events past the retention now; return how many."""
        if self.days <= 0:
            return 0
        pruned = await self.store.prune_events(cutoff(self.days))
        if pruned:
            log.info("pruned %d audit event(s) older than %d days", pruned, self.days)
        return pruned

    def start(self) -> None:
        self._schedule.start()

    async def close(self) -> None:
        await self._schedule.close()
