"""Voice in the bot: the live receive path fed with encrypted RTP/Opus packets over UDP,
two people talking over each other, voice replies in the channel's chat (with the API
speech-to-text against a local fake server), and the ``/memory voice`` commands."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
import discord.ext.test as dpytest
import pytest

from bot.client import MemoryBot
from bot.cogs.voice import VoiceCog
from bot.runtime import MemoryRuntime, open_runtime
from memory.settings import load_settings
from tests.helpers import dpytest_bot
from tests.test_voice_stt import FakeTranscriptions, fake_stt  # noqa: F401 (a fixture)
from tests.voice_link import Sender, bot_address, connected_client, listen, spoken_frames

SARAH_SSRC, TOM_SSRC = 11, 22


@dataclass
class Voice:
    runtime: MemoryRuntime
    bot: MemoryBot
    cog: VoiceCog
    guild: discord.Guild
    channel: discord.VoiceChannel
    sarah: discord.Member
    tom: discord.Member


@pytest.fixture
def settings_overrides() -> dict[str, Any]:
    return {}


@pytest.fixture
async def voice(tmp_path: Path, settings_overrides: dict[str, Any]) -> AsyncIterator[Voice]:
    settings = load_settings(data_dir=tmp_path / "data", **settings_overrides)
    async with open_runtime(settings) as runtime:
        bot = await dpytest_bot(runtime, members=("Sarah", "Tom"))
        config = dpytest.get_config()
        guild = config.guilds[0]
        channel = dpytest.backend.make_voice_channel("Lounge", guild)
        assert bot.voice is not None
        try:
            yield Voice(runtime, bot, bot.voice, guild, channel, *config.members[:2])
        finally:
            await bot.voice.cog_unload()
            await dpytest.empty_queue()


async def wait_for(condition: Callable[[], bool], seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.05)


def interleave(*streams: list[bytes]) -> list[bytes]:
    """Packets of several speakers in arrival order: one of each in turn."""
    out: list[bytes] = []
    for i in range(max(map(len, streams))):
        out.extend(stream[i] for stream in streams if i < len(stream))
    return out


async def test_two_speakers_over_udp_become_their_own_voice_messages(voice: Voice) -> None:
    listener = voice.cog.make_listener(voice.channel)
    await listener.start()
    speakers = {SARAH_SSRC: voice.sarah.id, TOM_SSRC: voice.tom.id}
    with connected_client(voice.bot, voice.channel, speakers) as (client, server, key):
        listen(client, listener.sink)
        sarah, tom = Sender(key, SARAH_SSRC), Sender(key, TOM_SSRC, sequence=60_000)
        packets = interleave(
            [sarah.packet(f) for f in spoken_frames("sarah")],
            [tom.packet(f) for f in spoken_frames("tom", lead=0.8)],
        )
        await asyncio.to_thread(server.send, bot_address(client), packets)
        await wait_for(lambda: listener.heard == 2)
    await listener.stop()
    # voice_recv's jitter buffer holds each speaker's newest packet until the next one comes
    assert listener.sink.packets == len(packets) - len(speakers)
    await voice.runtime.queue.join()
    guild_id = str(voice.guild.id)
    stored = await voice.runtime.store.recent_messages(guild_id, str(voice.channel.id), 10)
    by_author = {m.author_id: m for m in stored}
    assert set(by_author) == {str(voice.sarah.id), str(voice.tom.id)}
    assert all(m.source == "voice" and m.message_id.startswith("v") for m in stored)
    assert "nurse" in by_author[str(voice.sarah.id)].content
    assert "dog" in by_author[str(voice.tom.id)].content
    assert "nurse" not in by_author[str(voice.tom.id)].content
    facts = await voice.runtime.store.active_facts(guild_id)
    assert any(f.subject == str(voice.sarah.id) and "nurse" in f.fact for f in facts), facts
