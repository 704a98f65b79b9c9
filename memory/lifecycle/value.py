"""What a fact is worth keeping and showing: its confidence, how often it was said, and how
long ago it was last said (halved every ``half_life_days``)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime

from memory.models import Fact, parse_iso

DEFAULT_HALF_LIFE_DAYS = 180.0
CONFIDENCE_CEILING = 0.97
"""Saying a fact again raises its confidence toward this, never past it."""
REINFORCE_STEP = 0.25
"""Each time a fact is said again, it closes this share of its gap to the ceiling."""
MAX_REPEAT_BONUS = 2.0


def reinforced(confidence: float) -> float:
    """The confidence of a fact said once more."""
    if confidence >= CONFIDENCE_CEILING:
        return confidence
    return confidence + (CONFIDENCE_CEILING - confidence) * REINFORCE_STEP


def repeat_bonus(times_seen: int) -> float:
    """What being said again adds to a fact's value: log-shaped, at most x2."""
    return min(MAX_REPEAT_BONUS, 1.0 + 0.3 * math.log(max(1, times_seen)))


def fact_value(
    confidence: float, times_seen: int, last_seen_at: str, now: datetime,
    half_life_days: float = DEFAULT_HALF_LIFE_DAYS,
) -> float:  # fmt: skip
    """Confidence, times a bonus for each time it was said again (log-shaped, at most x2),
    halved for every ``half_life_days`` since it was last said (0: no decay)."""
    repeats = repeat_bonus(times_seen)
    if half_life_days <= 0:
        return confidence * repeats
    try:
        age_days = max(0.0, (now - parse_iso(last_seen_at)).total_seconds() / 86_400)
    except ValueError:
        age_days = 0.0
    decay: float = 0.5 ** (age_days / half_life_days)
    return confidence * repeats * decay


def worth(fact: Fact, now: datetime, half_life_days: float = DEFAULT_HALF_LIFE_DAYS) -> float:
    """:func:`fact_value` of a stored fact, last said when it was last seen (or said)."""
    seen = fact.last_seen_at or fact.said_at
    return fact_value(fact.confidence, fact.times_seen, seen, now, half_life_days)


def most_valued(
    facts: Sequence[Fact], now: datetime, half_life_days: float = DEFAULT_HALF_LIFE_DAYS
) -> list[Fact]:
    """``facts``, most valued first (equal values: the older id first)."""
    return sorted(facts, key=lambda f: (-worth(f, now, half_life_days), f.id))


def undecayed_rank(confidence: float, times_seen: int) -> float:
    """With :func:`decay_per_day`, a key that orders facts as :func:`fact_value` does,
    whatever the day it is: ``undecayed_rank + decay_per_day * last_seen_day`` is the log of
    the value plus a constant (``last_seen_day``: any day count, e.g. a Julian day)."""
    return math.log(max(confidence, 1e-9) * repeat_bonus(times_seen))


def decay_per_day(half_life_days: float) -> float:
    """The weight of the day a fact was last said in that key (0: no decay)."""
    return math.log(2) / half_life_days if half_life_days > 0 else 0.0
