"""What search finds, by kind — durable facts, stored messages, or both — and its JSON shape,
one for every caller: the API's ``GET /api/memory/search``, ``memorybot search`` and the
``/memory search`` slash command.

Both kinds are relevance-gated (facts: ``memory.search.scoring``; messages:
``memory.search.message_gate``): an unrelated query finds nothing of either. ``limit``
applies to each kind.

The JSON (``search_json``): ``results`` is always the list of facts and ``messages`` the list
of messages; each is present when its kind was asked for (``facts``: ``results`` only, as
before messages were searched; ``all``: both). Every item says its kind: a fact is
``fact_json`` plus ``"kind": "fact"``; a message is ``message_hit_json`` (the message, its
``score`` and ``context``, its neighbouring turns with itself, in order) plus
``"kind": "message"`` and ``link``, its Discord jump link (null for a voice transcript).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from memory.exporting import message_link
from memory.search.results import FactHit, MessageHit, fact_json, message_hit_json

if TYPE_CHECKING:
    from memory.runtime import Memory

Kind = Literal["facts", "messages", "all"]
_BY_NAME: dict[str, Kind] = {"facts": "facts", "messages": "messages", "all": "all"}
KINDS: tuple[str, ...] = tuple(_BY_NAME)
DEFAULT_KIND: Kind = "facts"


def parse_kind(value: str) -> Kind:
    """``value`` as a kind; ValueError naming the kinds for anything else."""
    kind = _BY_NAME.get(value)
    if kind is None:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}")
    return kind


@dataclass(slots=True)
class Found:
    """What one search found: facts and messages, each None when its kind was not asked."""

    kind: Kind
    facts: list[FactHit] | None = None
    messages: list[MessageHit] | None = None


async def search(
    memory: Memory, guild_id: str, query: str, kind: Kind = DEFAULT_KIND, *,
    channel_id: str | None = None, limit: int = 10, subjects: Sequence[str] | None = None,
) -> Found:  # fmt: skip
    """The guild's facts and/or messages relevant to ``query``, best first, ``limit`` of
    each (``subjects``: only facts about them; messages are not filtered by it)."""
    found = Found(kind)
    if kind in ("facts", "all"):
        found.facts = await memory.search(
            guild_id, query, channel_id=channel_id, limit=limit, subjects=subjects
        )
    if kind in ("messages", "all"):
        found.messages = await memory.messages(
            guild_id, query, channel_id=channel_id, limit=limit, strict=True
        )
    return found


def fact_result_json(hit: FactHit) -> dict[str, object]:
    return {"kind": "fact", **fact_json(hit)}


def message_result_json(hit: MessageHit) -> dict[str, object]:
    message = hit.message
    link = message_link(message.guild_id, message.channel_id, message.message_id)
    return {"kind": "message", **message_hit_json(hit), "link": link}


def search_json(found: Found) -> dict[str, object]:
    """``{kind, results?, messages?}``: the lists of the kinds asked for."""
    payload: dict[str, object] = {"kind": found.kind}
    if found.facts is not None:
        payload["results"] = [fact_result_json(h) for h in found.facts]
    if found.messages is not None:
        payload["messages"] = [message_result_json(h) for h in found.messages]
    return payload
