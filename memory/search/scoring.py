"""How a fact is scored for a query (DESIGN "Retrieval", the peer design's formula):
semantic (when vectors exist), lexical, confidence, recency (from when the fact was said, not
when it was stored) and channel, combined and gated for relevance."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from datetime import datetime
from typing import NamedTuple

from memory.lifecycle.value import repeat_bonus
from memory.models import Fact, parse_iso
from memory.search.fts import stem
from memory.search.scripts import spaced

RECENCY_DAYS = 45.0
_WORD = re.compile(r"\w+")


class FactScores(NamedTuple):
    """A fact's component scores, the combined score and whether it passed the gate."""

    semantic: float | None
    lexical: float
    confidence: float
    recency: float
    channel: float
    combined: float
    passed: bool


@functools.lru_cache(maxsize=65536)
def _words(text: str) -> str:
    """Case-folded words, space-separated and padded with a space on each side; a CJK run
    as its bigrams, as ``memory.search.fts.query_tokens`` splits a query."""
    return " " + " ".join(_WORD.findall(spaced(text).casefold())) + " "


@functools.lru_cache(maxsize=256)
def _probes(tokens: tuple[str, ...]) -> tuple[str, ...]:
    """What to look for in padded words for each token: the token as a word, or (stem of 4+
    letters) a word starting with the stem — "studies" ~ "studying"."""
    probes = []
    for token in tokens:
        root = stem(token)
        probes.append(f" {root}" if len(root) >= 4 else f" {token} ")
    return tuple(probes)


def lexical_score(query: str, tokens: Sequence[str], text: str) -> float:
    """1 if the normalised query is in ``text``, else the share of query tokens present."""
    words = _words(text)
    query_words = _words(query)
    if len(query_words) > 2 and query_words in words:
        return 1.0
    if not tokens:
        return 0.0
    hits = sum(1 for probe in _probes(tuple(tokens)) if probe in words)
    return hits / len(tokens)


@functools.lru_cache(maxsize=65536)
def _timestamp(when: str) -> float | None:
    try:
        return parse_iso(when).timestamp()
    except ValueError:
        return None


def recency_score(when: str, now: datetime) -> float:
    """1 / (1 + age in days / 45), the age counted from ``when`` (a fact's ``said_at``)."""
    moment = _timestamp(when)
    if moment is None:
        return 0.0
    age_days = max(0.0, (now.timestamp() - moment) / 86_400)
    return 1.0 / (1.0 + age_days / RECENCY_DAYS)


def channel_score(fact_channel: str | None, channel_id: str | None) -> float:
    if not fact_channel:
        return 0.25
    return 1.0 if channel_id and fact_channel == channel_id else 0.0


def combine(
    semantic: float | None, lexical: float, confidence: float, recency: float, channel: float
) -> tuple[float, bool]:
    """The peer formula and its relevance gate."""
    if semantic is not None:
        combined = 0.50 * semantic + 0.28 * lexical + 0.10 * confidence + 0.07 * recency
        combined += 0.05 * channel
        passed = semantic >= 0.2 or lexical >= 0.22
        passed = passed or (combined >= 0.52 and (semantic >= 0.08 or lexical >= 0.1))
        return combined, passed
    combined = 0.75 * lexical + 0.10 * confidence + 0.10 * recency + 0.05 * channel
    return combined, lexical >= 0.24 or combined >= 0.62


def score_fact(
    fact: Fact,
    query: str,
    tokens: Sequence[str],
    *,
    semantic: float | None,
    channel_id: str | None,
    now: datetime,
) -> FactScores:
    lexical = lexical_score(query, tokens, f"{fact.fact} {fact.evidence}")
    recency = recency_score(fact.last_seen_at or fact.said_at, now)  # when last said
    channel = channel_score(fact.channel_id, channel_id)
    sem = max(0.0, semantic) if semantic is not None else None
    worth = min(1.0, fact.confidence * repeat_bonus(fact.times_seen))
    combined, passed = combine(sem, lexical, worth, recency, channel)
    return FactScores(sem, lexical, worth, recency, channel, combined, passed)
