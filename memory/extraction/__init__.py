"""Extraction: messages in, candidate facts out — the offline and LLM extractors, and the
filters (grounding, safety) every candidate passes.

The queue only knows the ``Extractor`` protocol; which extractor runs is the caller's choice
(``memory.extraction.choice.build_extractor``). Every candidate then passes
``memory.extraction.fact_filter`` before it is stored, whatever produced it.

Subjects: an extractor proposes facts about the speaker (``author_id``), about a member the
message mentions (that member's id) or about the guild (``LORE_SUBJECT``); anything else is
dropped by the filter.

Context: with a batch comes ``context``, the channel's turns just before its first message
(at most ``CONTEXT_TURNS``, oldest first), so an extractor can tell who "we", "you" and "it"
are; a message's own context is those turns plus the batch's earlier messages
(:func:`contexts`). Context is never a source of facts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, Protocol, runtime_checkable

from memory.models import CandidateFact

MAX_FACTS_PER_MESSAGE = 4
CONTEXT_TURNS = 6


class Mention(NamedTuple):
    """A member a message mentions: their user id and display name."""

    id: str
    name: str


class SourceMessage(NamedTuple):
    """What an extractor sees of one message. ``text`` is the message's full content."""

    message_id: str
    guild_id: str
    channel_id: str
    author_id: str
    author_name: str
    text: str
    created_at: str
    mentions: tuple[Mention, ...] = ()


class ContextTurn(NamedTuple):
    """A turn said before a message in its channel: who said what, and when."""

    author_id: str
    author_name: str
    text: str
    created_at: str


def turn_of(message: SourceMessage) -> ContextTurn:
    """``message`` as a turn of the context of the messages after it."""
    return ContextTurn(message.author_id, message.author_name, message.text, message.created_at)


def contexts(
    messages: Sequence[SourceMessage], context: Sequence[ContextTurn] = ()
) -> list[tuple[ContextTurn, ...]]:
    """Each message's preceding turns (at most ``CONTEXT_TURNS``, oldest first): the batch's
    ``context``, then the batch's own earlier messages."""
    turns = list(context)[-CONTEXT_TURNS:]
    out: list[tuple[ContextTurn, ...]] = []
    for message in messages:
        out.append(tuple(turns))
        turns.append(turn_of(message))
        del turns[:-CONTEXT_TURNS]
    return out


@runtime_checkable
class Extractor(Protocol):
    """Turns a batch of messages (one guild, one channel, in order) into candidate facts,
    each tied to its source message by ``source_message_id``; ``context`` is the channel's
    turns before the batch (see the module docstring).

    ``batch_size`` is the most messages the queue hands over in one call; ``batch_gap`` is
    how long (seconds) a channel must be quiet before its waiting messages are extracted
    together (0: at once); ``proposes_facts`` False says it never proposes any (the queue
    then closes jobs without building its input); ``prefiltered`` True says its candidates
    passed ``memory.extraction.fact_filter.filter_fact`` already (a queue with that filter does not
    apply it again); ``remote`` True says each call goes to an endpoint (the audit log records
    it). A raised exception fails the jobs of that batch (they can be re-run
    with ``memorybot backfill --extraction``). ``rest`` is called when the queue runs out of
    jobs: what only a busy queue needs may go (it must come back on the next call).
    """

    name: str
    batch_size: int
    batch_gap: float
    proposes_facts: bool
    prefiltered: bool
    remote: bool

    async def extract(
        self, messages: Sequence[SourceMessage], context: Sequence[ContextTurn] = ()
    ) -> list[CandidateFact]: ...

    async def rest(self) -> None: ...

    async def aclose(self) -> None: ...


class BaseExtractor:
    """Defaults for extractors: large batches, no quiet gap, nothing to close."""

    name = "base"
    batch_size = 512
    batch_gap = 0.0
    proposes_facts = True
    prefiltered = False
    remote = False

    async def extract(
        self, messages: Sequence[SourceMessage], context: Sequence[ContextTurn] = ()
    ) -> list[CandidateFact]:
        raise NotImplementedError

    async def rest(self) -> None:
        return None

    async def aclose(self) -> None:
        return None


class NoopExtractor(BaseExtractor):
    """Extracts nothing: messages are stored and journaled, no facts are proposed."""

    name = "none"
    proposes_facts = False

    async def extract(
        self, messages: Sequence[SourceMessage], context: Sequence[ContextTurn] = ()
    ) -> list[CandidateFact]:
        return []
