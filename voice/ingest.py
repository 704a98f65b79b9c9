"""Utterances into memory: transcribed, filtered, and ingested as ``voice`` messages.

Each utterance becomes a message with a stable synthetic id — the same (guild, channel,
speaker, start) always gives the same id, so a retried utterance is stored once — with
source ``voice`` and trace source ``voice_stt``. From there it is a message like any other:
journaled (marked as voice), extracted (facts grounded in the transcript), searchable, and
forgotten with the member.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

from memory.models import Author, IngestItem, utc_iso
from voice.segmenter import Utterance
from voice.stt import Transcriber, is_garbage

log = logging.getLogger(__name__)

Ingest = Callable[[IngestItem], Awaitable[Any]]
"""Where an utterance goes: ``Memory.ingest`` (or an ``IngestQueue``'s ``submit``)."""

Refused = Callable[[str, str, str], Awaitable[bool]]
"""Whether memory may not keep what a member says in a channel (``guild_id, channel_id,
user_id``): they opted out, or the channel is ignored (``Memory.refuses``)."""

VOICE_ID_PREFIX = "v"  # never a Discord snowflake (those are digits only): no message links


def voice_message_id(guild_id: str, channel_id: str, speaker_id: str, start: datetime) -> str:
    """A stable id for the utterance that ``speaker_id`` started at ``start``."""
    moment = int(start.timestamp() * 1000)
    key = f"{guild_id}|{channel_id}|{speaker_id}|{moment}".encode()
    return VOICE_ID_PREFIX + hashlib.sha256(key).hexdigest()[:24]


async def remember_utterance(
    ingest: Ingest,
    transcriber: Transcriber,
    *,
    guild_id: str,
    channel_id: str,
    speaker: Author,
    utterance: Utterance,
    started: datetime,
    refused: Refused | None = None,
) -> IngestItem | None:
    """Transcribe ``utterance``, which began at ``started`` (wall clock), and submit it;
    None when the transcript is empty or only fillers, or the speaker opted out of memory
    or memory may not keep it (``refused``: the speaker opted out, the channel is ignored;
    then it is not even transcribed)."""
    if refused is not None and await refused(guild_id, channel_id, speaker.id):
        return None
    text = (await transcriber.transcribe(utterance.pcm)).strip()
    if is_garbage(text):
        log.debug("dropped a %.1f s utterance of %s: %r", utterance.duration, speaker.id, text)
        return None
    item = IngestItem(
        guild_id,
        channel_id,
        voice_message_id(guild_id, channel_id, speaker.id, started),
        speaker,
        text,
        utc_iso(started),
        "voice",
        {"source": "voice_stt", "seconds": round(utterance.duration, 2)},
    )
    await ingest(item)
    return item
