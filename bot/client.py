"""The Discord client (discord.py's ``commands.Bot``, as in its advanced_startup example):
cogs loaded in ``setup_hook``, the slash commands registered with Discord when they changed,
one line at ready saying what runs, no pings, the intents memory needs."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot.command_sync import SyncOutcome, SyncRecord, SyncTarget, sync_commands
from memory.settings import Settings

if TYPE_CHECKING:
    from bot.cogs.voice import VoiceCog
    from bot.llm_reply import LLMReplier
    from memory.runtime import Memory

log = logging.getLogger(__name__)


def memory_intents() -> discord.Intents:
    """Guilds, guild messages, message content, members and voice states."""
    intents = discord.Intents.none()
    intents.guilds = True
    intents.guild_messages = True
    intents.message_content = True
    intents.members = True
    intents.voice_states = True
    return intents


class MemoryBot(commands.Bot):
    """The bot over ``memory``. Without memory it only knows its commands (what
    ``memorybot sync-commands`` registers); ``register_commands`` makes every login
    register them with Discord when they changed."""

    def __init__(
        self,
        settings: Settings,
        memory: Memory | None = None,
        *,
        register_commands: bool = False,
        **options: Any,
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=memory_intents(),
            allowed_mentions=discord.AllowedMentions.none(),
            help_command=None,
            **options,
        )
        self._settings = settings
        self._memory = memory
        self.replier: LLMReplier | None = None
        self.voice: VoiceCog | None = None
        self.register_commands = register_commands
        self._registration: asyncio.Task[SyncOutcome] | None = None
        self._announced = False
        if memory is not None and settings.llm_model:
            from bot.llm_reply import LLMReplier  # imports openai: only when an LLM is set

            self.replier = LLMReplier.from_settings(settings)

    @property
    def settings(self) -> Settings:
        """Memory's settings (one source of truth), or those the bot was built with."""
        return self._memory.settings if self._memory is not None else self._settings

    @property
    def memory(self) -> Memory:
        if self._memory is None:
            raise RuntimeError("this bot was built without memory (commands only)")
        return self._memory

    @property
    def registration(self) -> asyncio.Task[SyncOutcome] | None:
        """The command registration started at login (None when this bot does not register)."""
        return self._registration

    @property
    def command_target(self) -> SyncTarget:
        """Where the commands go: ``MEMORYBOT_DEV_GUILD``, or globally."""
        dev_guild = self.settings.dev_guild
        return SyncTarget(int(dev_guild) if dev_guild else None)

    async def close(self) -> None:
        try:
            if self._registration is not None and not self._registration.done():
                self._registration.cancel()
            await super().close()
        finally:
            if self.replier is not None:
                await self.replier.aclose()

    async def on_message(self, message: discord.Message) -> None:
        """No text commands: messages are the ingest cog's (the commands are slash ones)."""

    async def setup_hook(self) -> None:
        from bot.cogs.ingest import IngestCog
        from bot.cogs.memory_admin import MemoryAdminCommands
        from bot.cogs.memory_commands import MemoryCommands
        from bot.cogs.voice import VoiceCog

        await self.add_cog(IngestCog(self))
        self.voice = VoiceCog(self)
        await self.add_cog(self.voice)
        await self.add_cog(MemoryCommands(self))
        await self.add_cog(MemoryAdminCommands(self))
        if self.register_commands:  # beside connecting to the gateway, not before it
            self._registration = asyncio.create_task(self._register())

    async def sync_commands(
        self, target: SyncTarget | None = None, *, force: bool = False
    ) -> SyncOutcome:
        """Register the commands for ``target`` (default :attr:`command_target`); see
        :mod:`bot.command_sync`. A server gets its own copy of the global commands."""
        target = target or self.command_target
        if target.guild is not None:
            self.tree.copy_global_to(guild=target.guild)
        record = SyncRecord(self.settings.data_dir)
        return await sync_commands(self, self.tree, target, record, force=force)

    async def _register(self) -> SyncOutcome:
        """The registration at start: a failure is logged, and the bot runs on."""
        try:
            outcome = await self.sync_commands()
        except Exception:  # a bug rather than Discord's answer: its traceback, and run on
            log.exception("registering the slash commands failed")
            return SyncOutcome("failed", self.command_target, (), "unexpected error")
        if outcome.status == "failed":
            log.warning("%s", outcome.error)
        return outcome

    async def on_ready(self) -> None:
        if self._announced:
            log.info("connected to Discord again (%d servers)", len(self.guilds))
            return
        self._announced = True
        log.info("%s", await self.ready_line())

    async def ready_line(self) -> str:
        """Who the bot is, where it is, its commands, and whether voice can run."""
        me = self.user
        who = f"{me} (id {me.id})" if me is not None else "?"
        count = len(self.guilds)
        parts = [f"logged in as {who} in {count} server{'' if count == 1 else 's'}"]
        if self._registration is not None:
            parts.append((await self._registration).describe())
        reason = self.voice.unavailable() if self.voice is not None else "no voice cog"
        stt = self.settings.stt_model
        parts.append(f"voice: ready (speech-to-text: {stt})" if reason is None
                     else f"voice: unavailable — {reason}")  # fmt: skip
        return "; ".join(parts)


class ShardedMemoryBot(MemoryBot, commands.AutoShardedBot):
    """The bot running some of the shards Discord splits it into (``MEMORYBOT_SHARD_IDS`` of
    ``MEMORYBOT_SHARD_COUNT``): it hears the servers of those shards only; other processes,
    sharing its store, run the others."""


def bot_for(settings: Settings, memory: Memory, **options: Any) -> MemoryBot:
    """``memorybot run``'s bot: sharded as the settings say. Only the process running shard
    0 (or an unsharded one) registers the commands: one registration, whatever the shards."""
    if settings.shard_count is None:
        return MemoryBot(settings, memory, register_commands=True, **options)
    shards = list(settings.shard_ids) or None  # None: all of them
    return ShardedMemoryBot(
        settings, memory, register_commands=shards is None or 0 in shards,
        shard_count=settings.shard_count, shard_ids=shards, **options,
    )  # fmt: skip
