"""What the bot answers when it is mentioned: built from the prompt memory slice.

Offline (no LLM configured) the answer is deterministic: the most relevant remembered facts
and who they are about. Every answer fits Discord's 2,000-character limit; pings are
prevented where the answer is sent (``allowed_mentions`` none), and mention syntax in
remembered text is defused here too, so a quoted "<@123>" or "@everyone" shows as text.
"""

from __future__ import annotations

import re

from memory.search.results import FactHit, MemorySlice

DISCORD_LIMIT = 2000
OFFLINE_FACTS = 6
_MENTION_SYNTAX = re.compile(r"<(@[!&]?|#)(\d+)>|@(everyone|here)")
_ZERO_WIDTH = "\u200b"


def defuse(text: str) -> str:
    """Mention syntax shown as text: "<@123>" → "<@\u200b123>", "@everyone" → "@\u200beveryone"."""
    return _MENTION_SYNTAX.sub(lambda m: m.group(0)[:2] + _ZERO_WIDTH + m.group(0)[2:]
                               if m.group(0).startswith("<") else "@" + _ZERO_WIDTH + m.group(3),
                               text)  # fmt: skip


def fit(text: str, limit: int = DISCORD_LIMIT) -> str:
    """``text`` cut on a line (or word) boundary to fit ``limit`` characters, marked "…"."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    for boundary in ("\n", " "):
        at = cut.rfind(boundary)
        if at > limit // 2:
            cut = cut[:at]
            break
    return cut.rstrip() + "…"


def said(hit: FactHit) -> str:
    """`` · said YYYY-MM-DD``: the day the fact was said (its source message's, in UTC)."""
    return f" · said {hit.fact.said_on}"


def offline_answer(memory: MemorySlice) -> str:
    """ "Here is what I remember": the slice's best facts (the asker's first), each with the
    member it is about and the day it was said; a plain sentence when nothing relevant is
    remembered."""
    seen: set[int] = set()
    facts: list[FactHit] = []
    for hit in [*memory.user_facts[:2], *memory.relevant_facts]:
        if hit.fact.id not in seen and hit.scores.passed:
            seen.add(hit.fact.id)
            facts.append(hit)
    if not facts:
        return "I don't remember anything about that yet."
    lines = ["Here is what I remember:"]
    for hit in facts[:OFFLINE_FACTS]:
        about = hit.subject_name or "someone"
        lines.append(f"• {hit.fact.fact} (about {about}){said(hit)}" if about != "lore"
                     else f"• {hit.fact.fact}{said(hit)}")  # fmt: skip
    return fit(defuse("\n".join(lines)))
