"""Test doubles and builders shared by the test modules (real SQLite, no mocks)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from memory.models import Author, CandidateFact, IngestItem, StoredMessage

GUILD_A = "111111111111111111"
GUILD_B = "222222222222222222"
CHANNEL_A = "111111111111111112"
CHANNEL_B = "222222222222222223"
SARAH = Author("300000000000000001", "Sarah", "sarahb")
MIKE = Author("300000000000000002", "Mike", "bigmike")


def item(
    message_id: int | str,
    content: str = "hello there, this is a message",
    *,
    guild_id: str = GUILD_A,
    channel_id: str = CHANNEL_A,
    author: Author = SARAH,
    created_at: str = "2026-10-12T18:03:11.123+00:00",
    source: str = "text",
) -> IngestItem:
    return IngestItem(
        guild_id,
        channel_id,
        str(message_id),
        author,
        content,
        created_at,
        source,  # type: ignore[arg-type]
    )


class RecordingExtractor:
    """Extracts one fact per message ("<name> said: <text>") and records what it saw.

    ``gate`` (when set) must be opened before each batch finishes: tests use it to hold
    the worker while they look at the queue from outside.
    """

    name = "recording"

    def __init__(self, *, gate: asyncio.Event | None = None, fail: bool = False) -> None:
        self.batches: list[list[str]] = []
        self.gate = gate
        self.fail = fail
        self.started = asyncio.Event()

    async def extract(self, messages: Sequence[StoredMessage]) -> list[CandidateFact]:
        self.batches.append([m.message_id for m in messages])
        self.started.set()
        if self.gate is not None:
            await self.gate.wait()
        if self.fail:
            raise RuntimeError("the model answered nonsense")
        return [
            CandidateFact(
                subject=m.author_id,
                fact=f"{m.author_name} said: {m.content[:60]}",
                fact_type="other",
                confidence=0.8,
                evidence=m.content[:60],
                source_message_id=m.message_id,
            )
            for m in messages
        ]

    @property
    def seen(self) -> list[str]:
        return [message_id for batch in self.batches for message_id in batch]


def write_export(
    path: Path,
    messages: list[dict[str, Any]],
    *,
    guild_id: str = GUILD_A,
    channel_id: str = CHANNEL_A,
    guild_name: str = "Test Guild",
) -> Path:
    """A DiscordChatExporter-shaped JSON export with the given message objects."""
    doc = {
        "guild": {"id": guild_id, "name": guild_name, "iconUrl": ""},
        "channel": {"id": channel_id, "type": "GuildTextChat", "name": "general"},
        "dateRange": {"after": None, "before": None},
        "exportedAt": "2026-11-01T12:00:00.000+00:00",
        "messages": messages,
        "messageCount": len(messages),
    }
    path.write_text(json.dumps(doc, indent=1, ensure_ascii=False), encoding="utf-8")
    return path


def export_message(
    message_id: int,
    content: str,
    *,
    author: Author = SARAH,
    is_bot: bool = False,
    kind: str = "Default",
    timestamp: str = "2026-10-12T18:03:11.123+00:00",
    mentions: list[Author] | None = None,
) -> dict[str, Any]:
    def person(a: Author, bot: bool = False) -> dict[str, Any]:
        return {"id": a.id, "name": a.username, "nickname": a.name, "isBot": bot}

    return {
        "id": str(message_id),
        "type": kind,
        "timestamp": timestamp,
        "content": content,
        "author": person(author, is_bot),
        "mentions": [person(m) for m in mentions or []],
    }
