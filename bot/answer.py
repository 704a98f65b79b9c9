"""The answer to a mention: the memory slice, then the LLM's reply or the offline one.

With a replier (an LLM is configured) the answer is the model's, and the lore line it asks
to keep is remembered; the model may look memory up first (``search_memory``), bound to this
guild, channel and asker. When the model fails for any reason the answer is the offline one,
so a mention is always answered. Without a replier the answer is the offline one.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.replies import offline_answer
from memory.errors import InvalidMessageError, MemorybotError

if TYPE_CHECKING:  # the replier imports openai: only when an LLM is configured
    from bot.llm_reply import LLMReplier, RecentMessage
    from memory.runtime import Memory

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Answer:
    """What to send (``text``, ready as is), the lore fact stored on the way (as stored,
    "Memory line: X."), and whether the LLM wrote the answer."""

    text: str
    remembered: str | None = None
    used_llm: bool = False


async def compose_answer(
    memory: Memory,
    *,
    guild_id: str,
    channel_id: str,
    author_id: str,
    author_name: str,
    question: str,
    recent: Sequence[RecentMessage] = (),
    replier: LLMReplier | None = None,
    message_id: str = "",
    bot_name: str = "memorybot",
    said_at: str | None = None,
) -> Answer:
    """The answer to ``author_name``'s ``question`` (message ``message_id``, written at
    ``said_at``: now when not given) in a channel.

    ``recent`` is the channel's last messages, oldest first; the newest
    ``max_recent_messages`` of them reach the prompt. A memory line is said when the question
    was.
    """
    found = await memory.slice(guild_id, question, channel_id=channel_id, user_id=author_id)
    if replier is None:
        return Answer(offline_answer(found))
    from bot.memory_tools import MemoryLookup  # imports openai: only with an LLM

    window = list(recent)[-memory.settings.max_recent_messages :]
    lookup = MemoryLookup(memory, guild_id, channel_id, author_id, author_name, message_id)
    try:
        reply = await replier.reply(
            question=question, asker=author_name, memory=found, recent=window,
            bot_name=bot_name, lookup=lookup,
        )  # fmt: skip
    except MemorybotError as exc:
        log.warning("answering offline: %s", exc)
        return Answer(offline_answer(found))
    remembered = None
    if reply.memory_line:
        remembered = await remember(
            memory, guild_id, reply.memory_line, channel_id=channel_id, message_id=message_id,
            said_at=said_at,
        )  # fmt: skip
    return Answer(reply.text, remembered, used_llm=True)


async def remember(
    memory: Memory, guild_id: str, line: str, *, channel_id: str, message_id: str,
    said_at: str | None = None,
) -> str | None:  # fmt: skip
    """Store the model's memory line as lore, said at ``said_at`` (now when not given); the
    fact as stored, or None when memory is off or the line is refused (instruction-like, a
    secret, nothing left)."""
    if not memory.settings.memory_enabled:
        return None
    try:
        fact = await memory.remember(
            guild_id, line, channel_id=channel_id, source_message_id=message_id, said_at=said_at
        )
    except InvalidMessageError as exc:
        log.warning("memory line of the reply to message %s not stored: %s", message_id, exc)
        return None
    log.info("remembered lore from the reply to message %s", message_id)
    return fact.fact


async def recent_window(
    memory: Memory, replier: LLMReplier | None, guild_id: str, channel_id: str,
    before: str,
) -> list[RecentMessage]:  # fmt: skip
    """The channel's messages before ``before`` for the LLM's prompt (none without an LLM)."""
    if replier is None:
        return []
    from bot.llm_reply import RecentMessage  # imports openai: only with an LLM

    stored = await memory.recent_messages(
        guild_id, channel_id, memory.settings.max_recent_messages, before=before
    )
    return [RecentMessage(m.author_name, m.content, m.created_at) for m in stored]
