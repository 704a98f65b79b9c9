"""The offline extractor (the default): each informative first-person statement of a
message, rewritten as a self-contained third-person fact about its author.

"I went to a support group yesterday" by Caroline on 8 May 2023 → "Caroline went to a
support group on 7 May 2023." Any verb, any tense: events, plans, states, habits, likes,
relationships; "my X …" → "Caroline's X …"; "we" → the author and who they talk with.
Questions, greetings, thanks, reactions to someone else's news, advice, hypotheticals and
quotes are skipped. The evidence is the verbatim source sentence; at most four facts a
message, the most informative first.

English only: a sentence without an English first-person subject yields nothing, so other
languages give no facts rather than wrong ones.

Modules: :mod:`.sentences` (cleaning, clauses), :mod:`.skipping` (what is no fact),
:mod:`.rewriting` (the third-person fact), :mod:`.reordering` (objects named before the
"I"), :mod:`.possessions` (statements without "I": "my sister is …"), :mod:`.phrases`
(where an object ends), :mod:`.dates` (relative dates), :mod:`.verbs` (agreement from the
lemminflect lexicon).
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Sequence
from datetime import date

from memory.extraction import (
    CONTEXT_TURNS,
    MAX_FACTS_PER_MESSAGE,
    BaseExtractor,
    ContextTurn,
    SourceMessage,
    contexts,
    turn_of,
)
from memory.extraction.fact_filter import filter_fact
from memory.extraction.offline import skipping
from memory.extraction.offline.child import ChildDied, ExtractionChild
from memory.extraction.offline.drafts import Draft, Speaker
from memory.extraction.offline.rewriting import rewrite
from memory.extraction.offline.sentences import clauses
from memory.models import CandidateFact, parse_iso

log = logging.getLogger(__name__)

CHILD_MIN_BATCH = 64
"""From this many messages, a batch is extracted in child processes (an import's steps):
the import's extraction then runs on the other cores, beside the database writes. Smaller
batches (live chat) are extracted in this process, without the hop."""

CHILD_PROCESSES = 2
"""Child processes for large batches (each about 40 MB): a batch is split among them, so
extraction uses both cores of a small machine."""

MAX_TEXT_CHARS = 8_000
"""Of a message, the most the extractor reads: twice Discord's longest message (4,000);
an import or a transcript longer than that is stored whole, but a 27 MB message must not
hold the queue for minutes."""


class OfflineExtractor(BaseExtractor):
    """Facts are extracted and filtered (``filter_fact``) together. ``child_process``: large
    batches go to child processes (started on first use, ended by ``aclose``); False keeps
    every batch in this process."""

    name = "offline"
    prefiltered = True

    def __init__(self, *, child_process: bool = True) -> None:
        self._child_process = child_process
        self._children: list[ExtractionChild] = []

    async def extract(
        self, messages: Sequence[SourceMessage], context: Sequence[ContextTurn] = ()
    ) -> list[CandidateFact]:
        if not self._child_process or len(messages) < CHILD_MIN_BATCH:
            return extract_checked(messages, context)
        share = -(-len(messages) // CHILD_PROCESSES)
        turns = [*context, *map(turn_of, messages)]  # a share's context: the turns before it
        try:
            if not self._children:
                self._children = [await ExtractionChild.start() for _ in range(CHILD_PROCESSES)]
            parts = await asyncio.gather(*(
                child.extract(
                    messages[i : i + share],
                    turns[max(0, len(context) + i - CONTEXT_TURNS) : len(context) + i],
                )
                for child, i in zip(self._children, range(0, len(messages), share), strict=False)
            ))  # fmt: skip
        except ChildDied as exc:  # killed, out of memory: this extractor goes on here
            log.warning("an extraction child process died (%s); extracting in this process", exc)
            self._child_process = False
            await self.aclose()
            return extract_checked(messages, context)
        return [fact for part in parts for fact in part]

    async def rest(self) -> None:
        """The child processes exit (about 40 MB each; an import's judging and embedding run
        after its extraction); the next large batch starts them again."""
        await self.aclose()

    async def aclose(self) -> None:
        children, self._children = self._children, []
        await asyncio.gather(*(child.close() for child in children))

    def extract_one(
        self, message: SourceMessage, context: Sequence[ContextTurn] = ()
    ) -> list[CandidateFact]:
        """The facts of one message, best first, unfiltered (``context``: the turns
        before it)."""
        return extract_one(message, context)


def extract_checked(
    messages: Sequence[SourceMessage], context: Sequence[ContextTurn] = ()
) -> list[CandidateFact]:
    """The facts of a batch of one channel's messages that pass the fact filter, in order
    (``context``: the turns before the first)."""
    facts: list[CandidateFact] = []
    for message, before in zip(messages, contexts(messages, context), strict=True):
        for candidate in extract_one(message, before):
            fact = filter_fact(message, candidate)
            if fact is not None:
                facts.append(fact)
    return facts


def extract_one(message: SourceMessage, context: Sequence[ContextTurn] = ()) -> list[CandidateFact]:
    """The facts of one message, best first, unfiltered (``context``: the turns before it)."""
    text = message.text[:MAX_TEXT_CHARS]
    speaker = _speaker(message, text, context)
    mentions = {m.id: m.name for m in message.mentions}
    drafts: list[tuple[Draft, str]] = []
    seen: set[str] = set()
    thing: str | None = None  # what "it" / "they" may refer to next
    for clause in clauses(text, mentions):
        if skipping.is_question(clause.text, clause.asked):
            thing = None
            continue
        draft = rewrite(clause.text, speaker, thing)
        thing = draft.thing if draft is not None else None
        if draft is None or draft.fact.lower() in seen:
            continue
        seen.add(draft.fact.lower())
        drafts.append((draft, clause.evidence))
    drafts.sort(key=lambda pair: -_value(pair[0]))
    return [
        CandidateFact(message.author_id, d.fact, d.fact_type, d.confidence, evidence,
                      message.message_id)
        for d, evidence in drafts[:MAX_FACTS_PER_MESSAGE]
    ]  # fmt: skip


_COMPANY = re.compile(
    r"\b(?:with|and|took|brought|me and)\s+(?:my|our)\s+((?:\w+\s+)?(?:kids|children|family|"
    r"fam|husband|wife|partner|boyfriend|girlfriend|fianc[eé]e?|friends|sister|brother|"
    r"parents|mom|mum|dad|son|daughter|team|band|roommates?|crew|squad|classmates|"
    r"coworkers|colleagues|cousins|siblings|group|club|family))\b",
    re.I,
)


def _speaker(message: SourceMessage, text: str, context: Sequence[ContextTurn]) -> Speaker:
    """Who says ``text`` (the part of ``message`` read), and the conversation around it."""
    others = [t for t in context if t.author_id != message.author_id]
    names = {t.author_name for t in others}
    partner = names.pop() if len(names) == 1 else None
    previous_other = others[-1].text if others and context[-1] is others[-1] else ""
    company = _COMPANY.search(text)
    return Speaker(
        message.author_name, _day(message.created_at), partner, previous_other,
        f"their {company.group(1)}" if company else None,
    )  # fmt: skip


def _day(created_at: str) -> date:
    try:
        return parse_iso(created_at).date()
    except ValueError:
        return date.today()


def _value(draft: Draft) -> float:
    """How much a fact is worth keeping when a message says more than four things."""
    kind = {"event": 2.0, "profile": 2.0, "relationship": 2.0, "preference": 1.5}
    return min(draft.content_words, 8) + (2 if draft.dated else 0) + kind.get(draft.fact_type, 0)
