"""Voice in the bot, end to end: ``/memory voice join`` connects (a loopback voice link in
place of Discord's voice server), encrypted RTP/Opus packets of two people talking over each
other arrive over UDP and become their own voice messages and facts; a member who says the
bot's name is answered in the channel's chat (speech-to-text through the API path against a
local fake server); leaving and the permission and missing-extra answers of the commands."""

from __future__ import annotations

from tests.machine import require_voice

require_voice(opus=True)  # skips the module without the voice extra and libopus

import asyncio
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
import discord.ext.test as dpytest
import pytest
from discord import app_commands

from bot.client import MemoryBot
from bot.cogs.memory_commands import MemoryCommands
from bot.cogs.voice import LISTENING_NOTICE, VoiceCog
from memory.models import StoredMessage
from memory.runtime import Memory, open_memory
from memory.settings import load_settings
from tests.helpers import add_fact, dpytest_bot, side_store
from tests.test_slash import SlashInteraction
from tests.test_voice_stt import FakeTranscriptions
from tests.voice_link import Sender, VoiceServer, loopback_client, new_key, spoken_frames

SARAH_SSRC, TOM_SSRC = 11, 22


@dataclass
class Voice:
    runtime: Memory
    bot: MemoryBot
    cog: VoiceCog
    commands: MemoryCommands
    guild: discord.Guild
    channel: discord.VoiceChannel
    sarah: discord.Member
    tom: discord.Member
    server: VoiceServer
    key: bytes

    @property
    def client(self) -> Any:
        return self.guild.voice_client

    def interaction(self, user: discord.Member, *, moderator: bool = False) -> Any:
        permissions = discord.Permissions(manage_guild=moderator)
        return SlashInteraction(user, self.guild, dpytest.get_config().channels[0], permissions)

    async def run(self, name: str, interaction: Any, *args: Any) -> list[str]:
        """Run ``/memory voice <name>`` as discord.py would; returns what it answered."""
        group = self.commands.app_command.get_command("voice")
        assert isinstance(group, app_commands.Group)
        command = group.get_command(name)
        assert isinstance(command, app_commands.Command)
        try:
            try:
                await command.callback(self.commands, interaction, *args)  # type: ignore[arg-type]
            except app_commands.AppCommandError:
                raise
            except Exception as exc:  # discord.py wraps what a command raises
                raise app_commands.CommandInvokeError(command, exc) from exc
        except app_commands.AppCommandError as error:
            await self.commands.cog_app_command_error(interaction, error)
        texts: list[str] = interaction.texts
        assert all(sent.ephemeral for sent in interaction.sent)
        return texts

    def send(self, packets: list[bytes]) -> None:
        self.server.send(self.client.address, packets)

    async def voice_messages(self, count: int, seconds: float = 60.0) -> list[StoredMessage]:
        """The channel's stored messages once there are ``count`` of them."""
        guild, channel = str(self.guild.id), str(self.channel.id)
        deadline = time.monotonic() + seconds
        while len(stored := await self.runtime.recent_messages(guild, channel, 50)) < count:
            assert time.monotonic() < deadline, f"{len(stored)} of {count} voice messages"
            await asyncio.sleep(0.05)
        return stored


@asynccontextmanager
async def voice_world(tmp_path: Path, **overrides: Any) -> AsyncIterator[Voice]:
    settings = load_settings(data_dir=tmp_path / "data", **overrides)
    async with open_memory(settings) as runtime:
        bot = await dpytest_bot(runtime, members=("Sarah", "Tom"))
        config = dpytest.get_config()
        guild = config.guilds[0]
        channel = dpytest.backend.make_voice_channel("Lounge", guild)
        sarah, tom = config.members[:2]
        server, key = VoiceServer(), new_key()
        cog, commands = bot.voice, bot.get_cog("MemoryCommands")
        assert cog is not None and isinstance(commands, MemoryCommands)
        cog.client_class = loopback_client(server, key, {SARAH_SSRC: sarah.id, TOM_SSRC: tom.id})
        try:
            yield Voice(runtime, bot, cog, commands, guild, channel, sarah, tom, server, key)
        finally:
            await cog.cog_unload()
            server.close()
            await dpytest.empty_queue()


@pytest.fixture
async def voice(tmp_path: Path) -> AsyncIterator[Voice]:
    async with voice_world(tmp_path) as world:
        yield world


def interleave(*streams: list[bytes]) -> list[bytes]:
    """Packets of several speakers in arrival order: one of each in turn."""
    out: list[bytes] = []
    for i in range(max(map(len, streams))):
        out.extend(stream[i] for stream in streams if i < len(stream))
    return out


def channel_messages(channel: discord.abc.Messageable) -> list[str]:
    """What the bot posted in ``channel`` (dpytest's sent-message queue, drained)."""
    texts: list[str] = []
    while not dpytest.sent_queue.empty():
        message = dpytest.get_message()
        if message.channel == channel:
            texts.append(message.content)
    return texts


@pytest.mark.slow
async def test_join_listen_to_two_people_talking_at_once_and_leave(voice: Voice) -> None:
    answer = await voice.run("join", voice.interaction(voice.sarah, moderator=True), voice.channel)
    assert answer == ["Listening in Lounge. What is said there will be remembered."]
    assert channel_messages(voice.channel) == [LISTENING_NOTICE]
    assert voice.cog.listening_in(voice.guild) == voice.channel
    sarah, tom = Sender(voice.key, SARAH_SSRC), Sender(voice.key, TOM_SSRC, sequence=65_000)
    packets = interleave(  # tom starts while sarah talks; his sequence numbers wrap around
        [sarah.packet(frame) for frame in spoken_frames("sarah")],
        [tom.packet(frame) for frame in spoken_frames("tom", lead=0.8)],
    )
    await asyncio.to_thread(voice.send, packets)
    stored = await voice.voice_messages(2)
    by_author = {m.author_id: m for m in stored}
    assert set(by_author) == {str(voice.sarah.id), str(voice.tom.id)}
    assert all(m.source == "voice" and m.message_id.startswith("v") for m in stored)
    assert "nurse" in by_author[str(voice.sarah.id)].content
    assert "dog" in by_author[str(voice.tom.id)].content
    assert "nurse" not in by_author[str(voice.tom.id)].content
    await voice.runtime.join()
    facts = await voice.runtime.active_facts(str(voice.guild.id))
    assert any(f.subject == str(voice.sarah.id) and "nurse" in f.fact for f in facts), [
        (f.subject, f.fact) for f in facts
    ]
    # nobody said the bot's name: nothing was posted
    assert channel_messages(voice.channel) == []
    # a member without Manage Server cannot make it leave; a moderator can
    refused = await voice.run("leave", voice.interaction(voice.tom))
    assert refused == ["You need the Manage Server permission for this."]
    client = voice.client
    left = await voice.run("leave", voice.interaction(voice.sarah, moderator=True))
    assert left == ["Left the voice channel. What was said before is still remembered."]
    assert voice.cog.listening_in(voice.guild) is None
    assert voice.guild.voice_client is None and not client.is_connected()
    assert await voice.run("leave", voice.interaction(voice.sarah, moderator=True)) == [
        "I'm not in a voice channel here."
    ]


@pytest.mark.slow
async def test_saying_the_bot_s_name_gets_an_answer_in_the_voice_chat(
    tmp_path: Path, fake_stt: FakeTranscriptions
) -> None:
    overrides = {"stt_model": "whisper-1", "llm_base_url": fake_stt.base_url, "stt_language": "en"}
    async with voice_world(tmp_path, **overrides) as voice:
        guild = str(voice.guild.id)
        async with side_store(voice.runtime.settings) as store:
            await add_fact(store, str(voice.sarah.id), "Sarah works as a nurse.",
                           guild=guild, channel="1")  # fmt: skip
        await voice.cog.join(voice.channel)
        channel_messages(voice.channel)  # the listening notice
        fake_stt.text = "we could play something later tonight"
        tom = Sender(voice.key, TOM_SSRC)
        await asyncio.to_thread(voice.send, [tom.packet(f) for f in spoken_frames("tom")])
        await voice.voice_messages(1)
        assert channel_messages(voice.channel) == []  # not addressed: no answer
        fake_stt.text = "hey fake app, what does Sarah do for work?"
        await asyncio.to_thread(voice.send, [tom.packet(f) for f in spoken_frames("anna")])
        await voice.voice_messages(2)
        await wait_until(lambda: not dpytest.sent_queue.empty())  # answered once it is stored
        [answer] = channel_messages(voice.channel)
    assert answer.startswith("🎙️ Tom_1_nick: “hey fake app, what does Sarah do for work?”\n")
    assert "Sarah works as a nurse." in answer
    assert [r["model"] for r in fake_stt.requests] == ["whisper-1", "whisper-1"]
    assert {r["language"] for r in fake_stt.requests} == {"en"}
    assert all(bytes(r["file"])[:4] == b"RIFF" for r in fake_stt.requests)  # type: ignore[call-overload]


async def test_join_needs_manage_server_outside_auto_join_channels(voice: Voice) -> None:
    assert await voice.run("join", voice.interaction(voice.tom), voice.channel) == [
        "You need the Manage Server permission for this."
    ]
    assert voice.cog.listening_in(voice.guild) is None
    # without a channel and not in one, the moderator is told what to do
    assert await voice.run("join", voice.interaction(voice.sarah, moderator=True), None) == [
        "Join a voice channel first, or name one."
    ]


async def test_anyone_may_start_voice_in_an_auto_join_channel(tmp_path: Path) -> None:
    async with voice_world(tmp_path) as voice:
        auto = frozenset({str(voice.channel.id)})
        voice.runtime.settings = voice.runtime.settings.model_copy(update={"voice_auto_join": auto})
        answer = await voice.run("join", voice.interaction(voice.tom), voice.channel)
        assert answer == ["Listening in Lounge. What is said there will be remembered."]
        again = await voice.run("join", voice.interaction(voice.tom), voice.channel)
        assert again == ["I'm already listening in Lounge."]


async def test_without_the_voice_extra_the_commands_say_how_to_enable_it(
    voice: Voice, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "discord.ext.voice_recv", None)  # as if not installed
    for name, args in (("join", (voice.channel,)), ("leave", ())):
        answer = await voice.run(name, voice.interaction(voice.sarah, moderator=True), *args)
        assert len(answer) == 1 and "discord-ext-voice-recv" in answer[0], answer
        assert "pip install -e '.[voice]'" in answer[0]
    assert voice.cog.listening_in(voice.guild) is None


async def test_the_commands_are_off_when_memory_is(tmp_path: Path) -> None:
    async with voice_world(tmp_path, memory_enabled=False) as voice:
        answer = await voice.run("join", voice.interaction(voice.sarah, moderator=True),
                                 voice.channel)  # fmt: skip
        assert answer == ["Memory is switched off on this bot, so I don't listen in voice."]


def voice_state(bot: MemoryBot, member: discord.Member, channel: discord.VoiceChannel | None
                ) -> None:  # fmt: skip
    """What Discord's gateway sends when ``member`` joins ``channel`` (or leaves: None)."""
    bot._connection.parse_voice_state_update({
        "guild_id": str(member.guild.id), "channel_id": str(channel.id) if channel else None,
        "user_id": str(member.id), "session_id": "s", "deaf": False, "mute": False,
        "self_deaf": False, "self_mute": False, "self_video": False, "suppress": False,
        "request_to_speak_timestamp": None,
    })  # fmt: skip


async def test_auto_join_follows_people_in_and_out(tmp_path: Path) -> None:
    async with voice_world(tmp_path) as voice:
        auto = frozenset({str(voice.channel.id)})
        voice.runtime.settings = voice.runtime.settings.model_copy(update={"voice_auto_join": auto})
        voice_state(voice.bot, voice.tom, voice.channel)
        await wait_until(lambda: voice.cog.listening_in(voice.guild) == voice.channel)
        voice_state(voice.bot, voice.sarah, voice.channel)
        voice_state(voice.bot, voice.tom, None)  # one person is still there: it stays
        await asyncio.sleep(0.1)
        assert voice.cog.listening_in(voice.guild) == voice.channel
        voice_state(voice.bot, voice.sarah, None)  # the last one left: so does the bot
        await wait_until(lambda: voice.cog.listening_in(voice.guild) is None)
        assert voice.guild.voice_client is None


def state_in(channel: discord.VoiceChannel | None) -> discord.VoiceState:
    data: Any = {"session_id": "s", "deaf": False, "mute": False, "self_mute": True,
                 "self_deaf": False, "self_video": False, "suppress": False,
                 "channel_id": channel.id if channel else None}  # fmt: skip
    return discord.VoiceState(data=data, channel=channel)


@pytest.mark.slow
async def test_moved_by_a_moderator_it_listens_where_it_is_then_leaves_when_disconnected(
    voice: Voice,
) -> None:
    await voice.cog.join(voice.channel)
    other = dpytest.backend.make_voice_channel("Games", voice.guild)
    me = voice.guild.me
    # what discord.py dispatches when a moderator drags the bot into another channel
    await voice.cog.on_voice_state_update(me, state_in(voice.channel), state_in(other))
    assert voice.cog.listening_in(voice.guild) == other
    tom = Sender(voice.key, TOM_SSRC)
    await asyncio.to_thread(voice.send, [tom.packet(f) for f in spoken_frames("tom")])
    voice.channel = other
    [stored] = await voice.voice_messages(1)
    assert stored.channel_id == str(other.id) and "dog" in stored.content
    client = voice.client
    await voice.cog.on_voice_state_update(me, state_in(other), state_in(None))
    assert voice.cog.listening_in(voice.guild) is None and not client.is_connected()


async def wait_until(condition: Callable[[], bool], seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.02)


WITHOUT_VOICE_EXTRA = """
import asyncio, sys
for name in ("discord.ext.voice_recv", "webrtcvad", "pocketsphinx", "davey", "nacl"):
    sys.modules[name] = None  # as if the voice extra were not installed

from bot.cli import main
from bot.client import MemoryBot
from memory.runtime import open_memory
from memory.settings import load_settings

async def bot_without_voice(data_dir):
    async with open_memory(load_settings(data_dir=data_dir)) as runtime:
        bot = MemoryBot(runtime.settings, runtime)
        await bot._async_setup_hook()
        await bot.setup_hook()
        print("cogs:", ", ".join(sorted(bot.cogs)))
        print("voice:", bot.voice.unavailable())
        await bot.close()

asyncio.run(bot_without_voice(sys.argv[1]))
sys.argv = ["memorybot", "--data-dir", sys.argv[1], "doctor"]
main()
"""


@pytest.mark.slow
def test_without_the_voice_extra_the_bot_still_runs(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-c", WITHOUT_VOICE_EXTRA, str(tmp_path / "data")],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "cogs: IngestCog, MemoryAdminCommands, MemoryCommands, VoiceCog" in lines
    missing = "discord-ext-voice-recv, PyNaCl, davey, webrtcvad-wheels, pocketsphinx"
    assert f"voice: Voice is not enabled on this bot: it needs {missing}." in " ".join(lines)
    assert f"[ok ] voice: off (needs {missing}; see README, Voice)" in lines
