"""Voice sessions: one per guild, from joining a channel to leaving it.

A :class:`VoiceListener` is the pipeline of one session, independent of the connection:
the :class:`voice.sink.MemorySink` it gives discord-ext-voice-recv feeds an
:class:`voice.receive.UtteranceCollector` on the packet thread; finished utterances cross to
the event loop, where one worker transcribes them in order and hands them to
memory (:func:`voice.ingest.remember_utterance`), then tells ``on_heard`` what was said.
:class:`VoiceSessions` connects (``VoiceRecvClient``), listens, moves and disconnects.

If transcription falls behind, the oldest waiting utterances are dropped (logged) so memory
stays bounded: at most ``MAX_WAITING`` utterances of at most 15 s each wait at any time.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord
from discord.ext import voice_recv

from memory.models import Author, IngestItem
from voice.ingest import Ingest, Refused, remember_utterance
from voice.receive import SpokenUtterance, UtteranceCollector
from voice.segmenter import VoiceActivityDetector, WebRtcVad
from voice.sink import MemorySink
from voice.stt import Transcriber, TranscriptionError

log = logging.getLogger(__name__)

MAX_WAITING = 32
TICK_SECONDS = 0.1
STOP_SECONDS = 30.0
"""How long leaving waits for the utterances still being transcribed."""

HeardHandler = Callable[[IngestItem], Awaitable[None]]
SpeakerLookup = Callable[[int], Author | None]
VoiceChannel = discord.VoiceChannel | discord.StageChannel


class VoiceListener:
    """Audio of one voice channel → transcripts in memory (see the module docstring)."""

    def __init__(
        self,
        *,
        ingest: Ingest,
        transcriber: Transcriber,
        refused: Refused | None = None,
        guild_id: str,
        channel_id: str,
        speaker: SpeakerLookup,
        on_heard: HeardHandler | None = None,
        vad_factory: Callable[[], VoiceActivityDetector] = WebRtcVad,
    ) -> None:
        self.guild_id = guild_id
        self.channel_id = channel_id
        self._ingest = ingest
        self._refused = refused
        self._transcriber = transcriber
        self._speaker = speaker
        self._on_heard = on_heard
        self.collector = UtteranceCollector(self._from_thread, vad_factory=vad_factory)
        self.sink = MemorySink(self.collector)
        self._waiting: asyncio.Queue[SpokenUtterance | None] = asyncio.Queue()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._tasks: list[asyncio.Task[None]] = []

    async def start(self) -> None:
        """Start the worker and the quiet-speaker timer (on the running loop)."""
        self._loop = asyncio.get_running_loop()
        self._tasks = [
            asyncio.create_task(self._work(), name=f"voice-worker-{self.channel_id}"),
            asyncio.create_task(self._tick(), name=f"voice-tick-{self.channel_id}"),
        ]

    async def stop(self, wait: float = STOP_SECONDS) -> None:
        """End every open utterance, transcribe what waits (up to ``wait`` seconds), stop."""
        if not self._tasks:
            return
        worker, ticker = self._tasks
        ticker.cancel()
        self.collector.close()  # its last utterances are scheduled onto the loop first …
        await asyncio.sleep(0)
        self._waiting.put_nowait(None)  # … so the stop marker queues behind them
        try:
            await asyncio.wait_for(worker, wait)
        except TimeoutError:
            log.warning("voice channel %s: gave up on %d utterances still waiting",
                        self.channel_id, self._waiting.qsize())  # fmt: skip
        with contextlib.suppress(asyncio.CancelledError):
            await ticker
        self._tasks = []

    def _from_thread(self, spoken: SpokenUtterance) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        loop.call_soon_threadsafe(self._enqueue, spoken)

    def _enqueue(self, spoken: SpokenUtterance) -> None:
        while self._waiting.qsize() >= MAX_WAITING:
            oldest = self._waiting.get_nowait()
            if oldest is None:  # stopping: keep the marker last
                self._waiting.put_nowait(None)
                return
            log.warning("voice channel %s: transcription is behind; dropped a %.1f s utterance",
                        self.channel_id, oldest.utterance.duration)  # fmt: skip
        self._waiting.put_nowait(spoken)

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(TICK_SECONDS)
            self.collector.tick()

    async def _work(self) -> None:
        while (spoken := await self._waiting.get()) is not None:
            try:
                await self._remember(spoken)
            except Exception:  # one bad utterance must not end the session
                log.exception("voice channel %s: an utterance failed", self.channel_id)

    async def _remember(self, spoken: SpokenUtterance) -> None:
        speaker = self._speaker(spoken.speaker_id) or Author(str(spoken.speaker_id), "someone")
        try:
            item = await remember_utterance(
                self._ingest, self._transcriber, guild_id=self.guild_id,
                channel_id=self.channel_id, speaker=speaker, utterance=spoken.utterance,
                started=spoken.at, refused=self._refused,
            )  # fmt: skip
        except TranscriptionError as exc:
            log.warning("voice channel %s: %s", self.channel_id, exc)
            return
        if item is not None and self._on_heard is not None:
            await self._on_heard(item)


def member_author(guild: discord.Guild, user_id: int) -> Author | None:
    """The ingest author of a guild member (None when the member is unknown or a bot)."""
    member = guild.get_member(user_id)
    if member is None or member.bot:
        return None
    return Author(str(member.id), member.display_name, member.name)


@dataclass(slots=True)
class _Session:
    client: Any  # a voice_recv VoiceRecvClient (the package has no type information)
    listener: VoiceListener
    channel: VoiceChannel


ListenerFactory = Callable[[VoiceChannel], VoiceListener]


class VoiceSessions:
    """The voice connections of the bot: at most one channel per guild."""

    def __init__(
        self, make_listener: ListenerFactory, *, client_class: type[Any] | None = None
    ) -> None:
        """``client_class``: the voice client to connect with (default voice_recv's
        ``VoiceRecvClient``; the tests pass one whose connection is a loopback socket)."""
        self._make_listener = make_listener
        self._client_class = client_class or voice_recv.VoiceRecvClient
        self._sessions: dict[int, _Session] = {}
        self._lock = asyncio.Lock()

    def channel(self, guild_id: int) -> VoiceChannel | None:
        """The channel the bot listens in, in that guild."""
        session = self._sessions.get(guild_id)
        return session.channel if session is not None else None

    async def join(self, channel: VoiceChannel) -> bool:
        """Listen in ``channel`` (leaving another channel of the guild first); False if the
        bot already listens there."""
        async with self._lock:
            current = self._sessions.get(channel.guild.id)
            if current is not None and current.channel.id == channel.id:
                return False
            if current is not None:
                await self._end(channel.guild.id)
            client = await channel.connect(cls=self._client_class, self_mute=True)
            listener = self._make_listener(channel)
            await listener.start()
            try:
                client.listen(listener.sink)
            except Exception:
                await listener.stop()
                await client.disconnect(force=True)
                raise
            self._sessions[channel.guild.id] = _Session(client, listener, channel)
            log.info("listening in voice channel %s of guild %s", channel.id, channel.guild.id)
            return True

    async def moved(self, channel: VoiceChannel) -> bool:
        """The bot was moved to ``channel`` (by a moderator): what is said there is filed
        under it from now on. False if the bot had no session in that guild."""
        async with self._lock:
            session = self._sessions.get(channel.guild.id)
            if session is None or session.channel.id == channel.id:
                return False
            session.client.stop_listening()
            await session.listener.stop()
            session.listener = self._make_listener(channel)
            session.channel = channel
            await session.listener.start()
            session.client.listen(session.listener.sink)
            log.info("moved to voice channel %s of guild %s", channel.id, channel.guild.id)
            return True

    async def leave(self, guild_id: int) -> bool:
        """Stop listening in that guild; False if the bot was not in voice there."""
        async with self._lock:
            return await self._end(guild_id)

    async def close(self) -> None:
        """Leave every channel (the bot is shutting down)."""
        async with self._lock:
            for guild_id in list(self._sessions):
                await self._end(guild_id)

    async def _end(self, guild_id: int) -> bool:
        session = self._sessions.pop(guild_id, None)
        if session is None:
            return False
        client = session.client
        client.stop_listening()
        try:
            await client.disconnect(force=True)
        finally:
            await session.listener.stop()
        log.info("left voice channel %s of guild %s", session.channel.id, guild_id)
        return True
