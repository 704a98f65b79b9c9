"""Lore: what the community asks the bot to remember about itself (DESIGN "Lore").

A reply's ``memoryLine`` (or ``/memory remember``) is stored under the subject
``__lore__`` as "Memory line: X." with confidence 0.72. Prefixes like "remember this" are
stripped, the stored fact is at most 180 characters, and it passes the same safety checks as every
fact: an instruction to the bot or a secret is refused.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from memory.errors import InvalidMessageError
from memory.extraction.safety import unsafe_reason
from memory.models import LORE_SUBJECT, CandidateFact
from memory.text import clean_text

LORE_CONFIDENCE = 0.72
LORE_PREFIX = "Memory line: "
MAX_LORE_FACT_CHARS = 180  # the stored fact, "Memory line: X." whole
MAX_LORE_CHARS = MAX_LORE_FACT_CHARS - len(LORE_PREFIX) - 1
_PREFIX = re.compile(
    r"^(?:(?:hey|ok|okay|so|pls|please|bot)[\s,!:.-]+)*(?:remember(?:\s+(?:this|that))?|"
    r"note(?:\s+(?:this|that))?|don't forget(?:\s+(?:this|that))?|memory line|lore|"
    r"for the record|keep in mind(?:\s+(?:this|that))?)\s*[:,\-–—]*\s*",
    re.I,
)


class Origin(NamedTuple):
    """Where and when a lore line was said (``FactOrigin`` for the store; no time: now)."""

    guild_id: str
    channel_id: str
    created_at: str = ""


def lore_fact(line: str, *, source_message_id: str = "") -> CandidateFact:
    """The lore fact of ``line``; ``InvalidMessageError`` if nothing rememberable is left."""
    text = clean_text(line)
    while (stripped := _PREFIX.sub("", text, count=1)) != text:
        text = stripped
    text = text.strip(" \"'“”‘’").rstrip(".!?… ")
    if len(text) < 2:
        raise InvalidMessageError("nothing to remember in that line")
    if len(text) > MAX_LORE_CHARS:
        cut = text[:MAX_LORE_CHARS]
        text = cut[: cut.rfind(" ")] if " " in cut[MAX_LORE_CHARS // 2 :] else cut
    reason = unsafe_reason(text)
    if reason:
        raise InvalidMessageError(f"not remembered: {reason}")
    return CandidateFact(
        subject=LORE_SUBJECT,
        fact=f"{LORE_PREFIX}{text}.",
        fact_type="other",
        confidence=LORE_CONFIDENCE,
        evidence=text,
        source_message_id=source_message_id,
    )
