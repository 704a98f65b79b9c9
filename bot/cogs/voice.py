"""Voice in the bot: joining and leaving channels, auto-join, and answering in voice.

The voice packages are imported only when voice is used, so the bot runs without the
``voice`` extra; every voice command then says what is missing and how to enable it
(:func:`voice.availability.voice_unavailable`).

- ``/memory voice join|leave`` (in :mod:`bot.cogs.memory_commands`) call :meth:`VoiceCog.join`
  and :meth:`VoiceCog.leave`: members with Manage Server may use them anywhere, everyone in
  the channels of ``MEMORYBOT_VOICE_AUTO_JOIN``.
- The bot joins an auto-join channel as soon as a person is in it, and leaves any channel
  when its last person goes (or when it is disconnected).
- A transcript that says the bot's name is answered like a mention, in the voice channel's
  text chat, from the memory slice of what was said.
"""

from __future__ import annotations

import logging
from functools import partial
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot.answer import compose_answer, recent_window
from bot.replies import defuse, fit
from memory.models import IngestItem
from voice.availability import voice_unavailable
from voice.wake import addresses

if TYPE_CHECKING:
    from bot.client import MemoryBot
    from voice.session import VoiceListener, VoiceSessions
    from voice.stt import Transcriber

log = logging.getLogger(__name__)

VoiceChannel = discord.VoiceChannel | discord.StageChannel
NONE = discord.AllowedMentions.none()
LISTENING_NOTICE = (
    "🎙️ I'm listening in this channel: what is said here is transcribed and remembered "
    "for this server. `/memory forget` deletes what I remember about you."
)


class VoiceError(Exception):
    """A voice request that cannot be done; the message is for the member who asked."""


class VoiceCog(commands.Cog):
    def __init__(self, bot: MemoryBot) -> None:
        self.bot = bot
        self._sessions: VoiceSessions | None = None
        self._transcriber: Transcriber | None = None
        self.client_class: type[Any] | None = None
        """The voice client class to connect with (None: discord-ext-voice-recv's)."""

    async def cog_load(self) -> None:
        reason = self.unavailable()
        if reason is None:
            log.debug("voice ready (speech-to-text: %s)", self.bot.settings.stt_model)
        else:
            log.debug("voice off: %s", reason)

    # --- what the commands call ---------------------------------------------------------

    def unavailable(self) -> str | None:
        """Why voice cannot run on this bot (one line for the member), or None."""
        settings = self.bot.settings
        if not settings.memory_enabled:
            return "Memory is switched off on this bot, so I don't listen in voice."
        return voice_unavailable(settings.stt_model)

    def may_control(self, manage_guild: bool, channel: VoiceChannel) -> bool:
        """Manage Server (``manage_guild``: the caller's), or ``channel`` is one of the
        configured auto-join channels."""
        return manage_guild or str(channel.id) in self.bot.settings.voice_auto_join

    def listening_in(self, guild: discord.Guild) -> VoiceChannel | None:
        return self._sessions.channel(guild.id) if self._sessions is not None else None

    async def join(self, channel: VoiceChannel) -> str:
        """Listen in ``channel``; the answer for the member who asked. Raises VoiceError."""
        reason = self.unavailable()
        if reason is not None:
            raise VoiceError(reason)
        me = channel.guild.me
        rights = channel.permissions_for(me)
        if not (rights.view_channel and rights.connect):
            raise VoiceError(f"I can't join {channel.name}: I need the Connect permission there.")
        try:
            joined = await self._voice_sessions().join(channel)
        except (discord.ClientException, discord.HTTPException, TimeoutError) as exc:
            log.warning("joining voice channel %s failed: %s", channel.id, exc)
            raise VoiceError(f"I couldn't join {channel.name}: {exc or 'timed out'}.") from exc
        if not joined:
            return f"I'm already listening in {channel.name}."
        await self.bot.memory.record_guild(str(channel.guild.id), channel.guild.name)
        try:
            await channel.send(LISTENING_NOTICE, allowed_mentions=NONE)
        except discord.HTTPException as exc:  # no Send Messages there: the join still stands
            log.info("could not post the listening notice in %s: %s", channel.id, exc)
        return f"Listening in {channel.name}. What is said there will be remembered."

    async def leave(self, guild: discord.Guild) -> str:
        if self._sessions is None or not await self._sessions.leave(guild.id):
            return "I'm not in a voice channel here."
        return "Left the voice channel. What was said before is still remembered."

    # --- events -------------------------------------------------------------------------

    @commands.Cog.listener()
    async def on_voice_state_update(
        self, member: discord.Member, before: discord.VoiceState, after: discord.VoiceState
    ) -> None:
        guild = member.guild
        me = self.bot.user
        if me is not None and member.id == me.id:
            if self._sessions is None or self.listening_in(guild) is None:
                return
            if after.channel is None:
                log.info("disconnected from voice in guild %s", guild.id)
                await self.leave(guild)
            else:
                await self._sessions.moved(after.channel)
            return
        if member.bot:
            return
        current = self.listening_in(guild)
        if current is not None and _nobody_left(current, before.channel):
            log.info("voice channel %s is empty: leaving", current.id)
            await self.leave(guild)
            current = None
        target = after.channel
        auto = self.bot.settings.voice_auto_join
        if target is None or current is not None or str(target.id) not in auto:
            return
        try:
            await self.join(target)
        except VoiceError as exc:
            log.warning("auto-join of voice channel %s: %s", target.id, exc)

    async def cog_unload(self) -> None:
        if self._sessions is not None:
            await self._sessions.close()
        close = getattr(self._transcriber, "aclose", None)
        if close is not None:
            await close()

    # --- voice replies ------------------------------------------------------------------

    async def heard(self, channel: VoiceChannel, item: IngestItem) -> None:
        """A transcript was remembered; answer it in the channel's chat if it names the bot."""
        if not addresses(item.content, self.wake_names(channel.guild)):
            return
        memory = self.bot.memory
        recent = await recent_window(
            memory, self.bot.replier, item.guild_id, item.channel_id, before=item.message_id
        )
        me = channel.guild.me
        answer = await compose_answer(
            memory, guild_id=item.guild_id, channel_id=item.channel_id,
            author_id=item.author.id, author_name=item.author.name, question=item.content,
            recent=recent, replier=self.bot.replier, message_id=item.message_id,
            bot_name=me.display_name,
        )  # fmt: skip
        said = defuse(f"🎙️ {item.author.name}: “{item.content}”")
        try:
            await channel.send(fit(f"{said}\n{answer.text}"), allowed_mentions=NONE)
        except discord.HTTPException as exc:
            log.warning("could not answer in voice channel %s: %s", channel.id, exc)

    def wake_names(self, guild: discord.Guild) -> list[str]:
        """The names that address the bot in voice: its user and server names, and
        ``MEMORYBOT_VOICE_WAKE_WORDS``."""
        me = guild.me
        names = [me.name, me.display_name] if me is not None else []
        return names + list(self.bot.settings.voice_wake_words)

    # --- plumbing -----------------------------------------------------------------------

    def _voice_sessions(self) -> VoiceSessions:
        if self._sessions is None:
            from voice.session import VoiceSessions  # the voice extra: only when used

            self._sessions = VoiceSessions(self.make_listener, client_class=self.client_class)
        return self._sessions

    def make_listener(self, channel: VoiceChannel) -> VoiceListener:
        """The pipeline of one voice session (also what the receive-path tests drive)."""
        from voice.segmenter import WebRtcVad
        from voice.session import VoiceListener, member_author
        from voice.stt import build_transcriber

        settings = self.bot.settings
        if self._transcriber is None:
            self._transcriber = build_transcriber(settings)
        return VoiceListener(
            ingest=self.bot.memory.ingest, refused=self.bot.memory.refuses,
            transcriber=self._transcriber,
            guild_id=str(channel.guild.id), channel_id=str(channel.id),
            speaker=partial(member_author, channel.guild), on_heard=partial(self.heard, channel),
            vad_factory=partial(WebRtcVad, settings.voice_vad_aggressiveness),
        )  # fmt: skip


def _nobody_left(channel: VoiceChannel, left: VoiceChannel | None) -> bool:
    """Whether the member who just left ``left`` was the last person in ``channel``."""
    if left is None or left.id != channel.id:
        return False
    return not any(not member.bot for member in channel.members)
