"""Member text as the reply prompt quotes it, shared by the memory slice (``bot.llm_reply``)
and the results of the ``search_memory`` tool (``bot.memory_tools``).

Every quoted text is one line without invisible characters, cut to a limit; every quoted
object is JSON on one line with ``<``, ``>`` and ``&`` escaped (``\\u003c``...), so no member
text can close a tag or start a line of its own ("SYSTEM: ...").
"""

from __future__ import annotations

import json
from typing import Any

from memory.models import parse_iso
from memory.search.results import FactHit, MessageHit
from memory.text import cap, strip_invisible

MAX_QUOTED_CHARS = 500
"""Longest member text (a message, a fact) quoted in the prompt."""
MAX_NAME_CHARS = 80


def quoted(text: str, limit: int = MAX_QUOTED_CHARS) -> str:
    """Member text as the prompt quotes it: no invisible characters, whitespace collapsed,
    at most ``limit`` characters."""
    return cap(" ".join(strip_invisible(text).split()), limit)


def dumps(value: object) -> str:
    """JSON on one line, with ``<``, ``>`` and ``&`` escaped: it cannot close a tag."""
    text = json.dumps(value, ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def said_time(when: str) -> str:
    """A stored time as the prompt shows it (``2026-10-12 18:03 UTC``)."""
    try:
        return parse_iso(when).strftime("%Y-%m-%d %H:%M UTC")
    except ValueError:
        return quoted(when, 40)


def fact_data(hit: FactHit, limit: int = MAX_QUOTED_CHARS) -> dict[str, Any]:
    """A fact with its provenance: ``{fact, about, said}`` (``said``: the day)."""
    return {
        "fact": quoted(hit.fact.fact, limit),
        "about": quoted(hit.subject_name or "someone", MAX_NAME_CHARS),
        "said": quoted(hit.fact.said_on, 10),
    }


def turn_data(
    author: str, content: str, created_at: str, limit: int = MAX_QUOTED_CHARS
) -> dict[str, Any]:
    """A message with its provenance: ``{author, time, text}``."""
    return {
        "author": quoted(author or "someone", MAX_NAME_CHARS),
        "time": said_time(created_at),
        "text": quoted(content, limit),
    }


def found_data(hit: MessageHit, limit: int = MAX_QUOTED_CHARS, skip: str = "") -> dict[str, Any]:
    """A message found for a query, with the turns around it (``context``, in order; the
    message ``skip`` left out)."""
    m = hit.message
    out = turn_data(m.author_name, m.content, m.created_at, limit)
    around = [c for c in hit.context if c.message_id not in (m.message_id, skip)]
    if around:
        out["context"] = [turn_data(c.author_name, c.content, c.created_at, limit) for c in around]
    return out


def drop_context(found: list[dict[str, Any]]) -> int:
    """Remove the turns around the last found message that still has them; the characters
    freed (0: none had any)."""
    for hit in reversed(found):
        if "context" in hit:
            return len(dumps(hit.pop("context"))) + len(', "context": ')
    return 0
