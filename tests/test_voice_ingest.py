"""Voice utterances into memory: a spoken fixture becomes a stored ``voice`` message and a
fact about its speaker; garbage is dropped; forgetting the member removes the voice lines."""

from __future__ import annotations

from tests.machine import require_voice

require_voice()  # skips the module without the voice extra

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.models import Author
from memory.runtime import Memory, open_memory
from memory.settings import load_settings
from tests.helpers import CHANNEL_A, GUILD_A
from tests.test_voice_stt import fixture_pcm, receive, to_discord
from voice.ingest import remember_utterance, voice_message_id
from voice.segmenter import Utterance
from voice.stt import PocketSphinxTranscriber

pytestmark = pytest.mark.usefixtures("each_backend")  # on SQLite and PostgreSQL

SPEAKER = Author("300000000000000009", "Sarah", "sarah")
STARTED = datetime(2026, 11, 22, 20, 0, tzinfo=UTC)


class Fixed:
    """A transcriber that hears what it is told (for the garbage rule, not for speech), and
    counts what it was asked to transcribe."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.calls = 0

    async def transcribe(self, pcm16k: bytes) -> str:
        self.calls += 1
        return self.text


@pytest.fixture
async def memory(tmp_path: Path) -> AsyncIterator[Memory]:
    async with open_memory(load_settings(data_dir=tmp_path / "data")) as opened:
        yield opened


def test_voice_ids_are_stable_and_never_snowflakes() -> None:
    one = voice_message_id(GUILD_A, CHANNEL_A, SPEAKER.id, STARTED)
    assert one == voice_message_id(GUILD_A, CHANNEL_A, SPEAKER.id, STARTED)
    assert one != voice_message_id(GUILD_A, CHANNEL_A, "300000000000000010", STARTED)
    assert one.startswith("v") and not one.isdigit()


@pytest.mark.slow
async def test_a_spoken_fact_is_remembered_from_voice(memory: Memory) -> None:
    silence = bytes(16_000)
    [utterance] = receive(int(SPEAKER.id), to_discord(silence + fixture_pcm("sarah") + silence))
    item = await remember_utterance(
        memory.ingest, PocketSphinxTranscriber(), guild_id=GUILD_A, channel_id=CHANNEL_A,
        speaker=SPEAKER, utterance=utterance, started=STARTED,
    )  # fmt: skip
    assert item is not None and item.source == "voice" and "nurse" in item.content
    await memory.join()
    stored = await memory.message(GUILD_A, item.message_id)
    assert stored is not None and stored.source == "voice"
    assert stored.created_at.startswith("2026-11-22T20:00:00")
    facts = [f for f in await memory.active_facts(GUILD_A) if f.subject == SPEAKER.id]
    assert any("nurse" in f.fact for f in facts), facts
    logs = list((memory.settings.journals_dir / GUILD_A).glob("*-*-*.md"))
    text = "".join(p.read_text(encoding="utf-8") for p in logs)
    assert " voice]" in text and "nurse" in text
    # forgetting the member takes the voice lines with it
    await memory.forget_member(GUILD_A, SPEAKER.id)
    text = "".join(p.read_text(encoding="utf-8") for p in logs)
    assert "nurse" not in text
    assert await memory.message(GUILD_A, item.message_id) is None


@pytest.mark.parametrize("heard", ["", "   ", "uh", "um hmm", "[noise]", "<unk>"])
async def test_garbage_transcripts_are_not_stored(memory: Memory, heard: str) -> None:
    utterance = Utterance(int(SPEAKER.id), 0.0, bytes(16_000), 0.5)
    item = await remember_utterance(
        memory.ingest, Fixed(heard), guild_id=GUILD_A, channel_id=CHANNEL_A, speaker=SPEAKER,
        utterance=utterance, started=STARTED,
    )  # fmt: skip
    assert item is None
    assert (await memory.stats(GUILD_A)).messages == 0


async def test_an_opted_out_speaker_is_not_transcribed_nor_stored(memory: Memory) -> None:
    await memory.opt_out(GUILD_A, SPEAKER.id)
    heard = Fixed("my name is sarah and i work as a nurse")
    utterance = Utterance(int(SPEAKER.id), 0.0, bytes(16_000), 0.5)
    item = await remember_utterance(
        memory.ingest, heard, guild_id=GUILD_A, channel_id=CHANNEL_A, speaker=SPEAKER,
        utterance=utterance, started=STARTED, refused=memory.refuses,
    )  # fmt: skip
    assert (item, heard.calls) == (None, 0)
    await memory.opt_in(GUILD_A, SPEAKER.id)
    item = await remember_utterance(
        memory.ingest, heard, guild_id=GUILD_A, channel_id=CHANNEL_A, speaker=SPEAKER,
        utterance=utterance, started=STARTED, refused=memory.refuses,
    )  # fmt: skip
    assert item is not None and heard.calls == 1
    await memory.join()
    assert (await memory.stats(GUILD_A)).messages == 1


async def test_an_ignored_voice_channel_is_not_transcribed(tmp_path: Path) -> None:
    settings = load_settings(data_dir=tmp_path / "data", ignore_channels=CHANNEL_A)
    async with open_memory(settings) as memory:
        heard = Fixed("my name is sarah and i work as a nurse")
        item = await remember_utterance(
            memory.ingest, heard, guild_id=GUILD_A, channel_id=CHANNEL_A, speaker=SPEAKER,
            utterance=Utterance(int(SPEAKER.id), 0.0, bytes(16_000), 0.5), started=STARTED,
            refused=memory.refuses,
        )  # fmt: skip
        assert (item, heard.calls) == (None, 0)
