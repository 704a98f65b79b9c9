"""What search and the slice find (``FactHit``, ``MessageHit``, ``MemorySlice``) and its
JSON shape, one for every caller: the HTTP API (DESIGN "HTTP API"), ``memorybot search`` /
``slice --json`` and the benches.

A fact: ``{id, subject, subjectName, fact, type, evidence, sourceMessageId, channelId,
confidence, createdAt, saidAt, score, semanticScore, lexicalScore, recencyScore,
channelScore, relevant}`` — ``createdAt`` is when it was stored, ``saidAt`` when its source
message was written; its provenance is ``sourceMessageId``, ``subjectName`` and ``saidAt``.
A message: ``{id, channelId, authorId, authorName, content, createdAt, source}``; a message
the slice found adds ``score`` and ``context`` (the turns around it, itself included, in order).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from memory.models import Fact, StoredMessage, subject_name
from memory.search.scoring import FactScores


@dataclass(frozen=True, slots=True)
class FactHit:
    fact: Fact
    subject_name: str
    scores: FactScores


@dataclass(frozen=True, slots=True)
class MessageHit:
    """A message found by full text, with its neighbouring turns (``context``, in order)."""

    message: StoredMessage
    score: float
    context: tuple[StoredMessage, ...]

    @property
    def message_ids(self) -> list[str]:
        return [m.message_id for m in self.context]


@dataclass(slots=True)
class MemorySlice:
    """What a reply sees of memory."""

    user_facts: list[FactHit] = field(default_factory=list)
    relevant_facts: list[FactHit] = field(default_factory=list)
    relevant_messages: list[MessageHit] = field(default_factory=list)

    def item_count(self) -> int:
        return len(self.user_facts) + len(self.relevant_facts) + len(self.relevant_messages)

    def shown_chars(self) -> int:
        """The characters the slice shows: each fact's text and each message's text (an
        item or a neighbouring turn), every message counted once."""
        facts = sum(len(h.fact.fact) for h in self.user_facts + self.relevant_facts)
        messages = {m.message_id: m for hit in self.relevant_messages for m in hit.context}
        return facts + sum(len(m.content) for m in messages.values())

    def message_ids(self) -> set[str]:
        """Every message the slice points to through provenance."""
        ids = {h.fact.source_message_id for h in self.user_facts + self.relevant_facts}
        for hit in self.relevant_messages:
            ids.update(hit.message_ids)
        ids.discard(None)
        return {i for i in ids if i}


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def fact_json(hit: FactHit) -> dict[str, object]:
    fact, scores = hit.fact, hit.scores
    return {
        "id": fact.id,
        "subject": fact.subject,
        "subjectName": hit.subject_name,
        "fact": fact.fact,
        "type": fact.fact_type,
        "evidence": fact.evidence,
        "sourceMessageId": fact.source_message_id,
        "channelId": fact.channel_id,
        "confidence": fact.confidence,
        "createdAt": fact.created_at,
        "saidAt": fact.said_at,
        "score": _rounded(scores.combined),
        "semanticScore": _rounded(scores.semantic),
        "lexicalScore": _rounded(scores.lexical),
        "recencyScore": _rounded(scores.recency),
        "channelScore": _rounded(scores.channel),
        "relevant": scores.passed,
    }


def stored_fact_json(fact: Fact, names: Mapping[str, str] | None = None) -> dict[str, object]:
    """A fact as stored, not as found (no scores): moderators' review and a member's export;
    ``names`` (user id -> display name) gives its ``subjectName``."""
    return {
        "id": fact.id,
        "subject": fact.subject,
        "subjectName": subject_name(fact.subject, names or {}),
        "fact": fact.fact,
        "type": fact.fact_type,
        "evidence": fact.evidence,
        "confidence": fact.confidence,
        "active": fact.is_active,
        "sourceMessageId": fact.source_message_id,
        "channelId": fact.channel_id,
        "saidAt": fact.said_at,
        "createdAt": fact.created_at,
        "updatedAt": fact.updated_at,
        "timesSeen": fact.times_seen,
        "lastSeenAt": fact.last_seen_at,
        "supersededBy": fact.superseded_by,
        "validUntil": fact.valid_until,
    }


def message_json(message: StoredMessage) -> dict[str, object]:
    return {
        "id": message.message_id,
        "channelId": message.channel_id,
        "authorId": message.author_id,
        "authorName": message.author_name,
        "content": message.content,
        "createdAt": message.created_at,
        "source": message.source,
    }


def message_hit_json(hit: MessageHit) -> dict[str, object]:
    return {
        **message_json(hit.message),
        "score": _rounded(hit.score),
        "context": [message_json(m) for m in hit.context],
    }


def slice_json(memory: MemorySlice) -> dict[str, object]:
    """``{userFacts, relevantFacts, relevantMessages}``: exactly what a reply would see."""
    return {
        "userFacts": [fact_json(h) for h in memory.user_facts],
        "relevantFacts": [fact_json(h) for h in memory.relevant_facts],
        "relevantMessages": [message_hit_json(h) for h in memory.relevant_messages],
    }
