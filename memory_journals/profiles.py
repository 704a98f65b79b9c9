"""A member's short profile in MEMORY.md: their most valued current facts, grouped — who they
are, what they do, what they like, what happened to them lately (with dates). Superseded and
archived facts are never in it: the snapshot reads active facts only."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from memory.lifecycle.value import most_valued
from memory.models import Fact
from memory.text import cap, clean_text

GROUPS = (
    ("Who they are", ("profile", "relationship")),
    ("What they do", ("project",)),
    ("What they like", ("preference",)),
    ("Lately", ("event",)),
)
PER_GROUP = 3
MIN_CONFIDENCE = 0.65  # hedged facts stay out, as they stay out of the reply slice
MAX_ITEM_CHARS = 120


def _without_name(text: str, name: str) -> str:
    """ "Sarah works as a nurse." -> "works as a nurse" (the profile is under her name)."""
    text = clean_text(text).rstrip(".!")
    for prefix in (f"{name}'s ", f"{name} "):
        if name and text.startswith(prefix):
            rest = text[len(prefix) :]
            return rest if prefix.endswith(" ") and not prefix.endswith("'s ") else f"their {rest}"
    return text


def profile_lines(
    facts: Sequence[Fact], name: str, *, now: datetime | None = None,
    half_life_days: float = 180.0,
) -> list[str]:  # fmt: skip
    """``**Who they are:** works as a nurse; lives in Denver.`` lines, one per group that has
    facts, each with the group's most valued facts (events: the latest, with their day)."""
    moment = now or datetime.now(UTC)
    lines = []
    for title, types in GROUPS:
        mine = [f for f in facts if f.fact_type in types and f.confidence >= MIN_CONFIDENCE]
        if not mine:
            continue
        if types == ("event",):
            chosen = sorted(mine, key=lambda f: (f.said_at, f.id), reverse=True)[:PER_GROUP]
            items = [f"{_without_name(f.fact, name)} ({f.said_on})" for f in chosen]
        else:
            chosen = most_valued(mine, moment, half_life_days)[:PER_GROUP]
            items = [_without_name(f.fact, name) for f in chosen]
        shown = "; ".join(cap(item, MAX_ITEM_CHARS) for item in items)
        lines.append(f"**{title}:** {shown}.")
    return lines
